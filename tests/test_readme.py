"""The README stays true: its first two commands are the ones CI and a new user run, and its settings table lists
every setting with its real default and description.

Run ``python tests/test_readme.py`` to print the settings table after changing a setting.
"""

from __future__ import annotations

import re
from pathlib import Path

from satiate.state.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def default_text(name: str) -> str:
    field = Settings.model_fields[name]
    if name == "data_dir":
        return "per-user data dir"
    value = field.default_factory() if field.default_factory else field.default  # type: ignore[call-arg]
    if value is None:
        return "—"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def settings_rows() -> list[str]:
    return [f"| `{name}` | {default_text(name)} | {field.description} |" for name, field in Settings.model_fields.items()]


def test_the_first_screen_gives_the_two_commands_that_work_on_a_fresh_machine() -> None:
    first_block = re.search(r"```bash\n(.*?)```", README, flags=re.S)
    assert first_block is not None
    run_line, test_line = first_block.group(1).strip().splitlines()
    # the research command needs no test extras; it runs on the embedded default, offline
    assert run_line.startswith("pip install -e . && satiate run ") and run_line.endswith("--offline")
    assert test_line == 'pip install -e ".[test]" && python -m pytest -q'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -q -e ".[test]"' in ci and "python -m pytest -q" in ci


def test_the_settings_table_lists_every_setting_as_it_is() -> None:
    missing = [row for row in settings_rows() if row not in README]
    assert not missing, "README settings table is out of date; regenerate with python tests/test_readme.py:\n" + \
        "\n".join(missing)


if __name__ == "__main__":  # pragma: no cover
    print("\n".join(settings_rows()))
