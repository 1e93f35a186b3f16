"""The README stays true: its first two commands are the ones CI and a new user run, its settings table lists
every setting with its real default and description, and its state channel table lists every channel of the graph
state with its reducer.

Run ``python tests/system/test_readme.py`` to print the settings table after changing a setting.
"""

from __future__ import annotations

import re
from pathlib import Path

from satiate.state.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
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
    return [f"| `{name}` | {default_text(name)} | {field.description} |"
            for name, field in Settings.model_fields.items()]


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
    assert not missing, ("README settings table is out of date; regenerate with "
                         "python tests/system/test_readme.py:\n" + "\n".join(missing))


def reducer_label(annotation: object) -> str:
    """How the channel table names a channel's reducer: a log channel's reducer, a plain reducer, or last value."""
    from langgraph.channels import DeltaChannel

    for item in getattr(annotation, "__metadata__", ()):
        if isinstance(item, DeltaChannel):
            return f"`{item.reducer.__name__}` (log channel)"
        if callable(item):
            return f"`{item.__name__}`"
    return "last value"


def channel_table() -> dict[str, list[str]]:
    """The README's state channel table: channel name -> its other cells."""
    section = README.split("\n## State channels\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    cells = [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]
    return {row[0].strip("`"): row[1:] for row in cells}


def test_the_channel_table_lists_exactly_the_state_channels_with_their_reducers() -> None:
    from typing import get_type_hints

    from satiate.state.schema import ResearchState

    hints = get_type_hints(ResearchState, include_extras=True)
    table = channel_table()
    assert list(table) == list(hints), "README channel table and ResearchState disagree (names or order)"
    wrong = {name: (cells[0], reducer_label(hints[name])) for name, cells in table.items()
             if cells[0] != reducer_label(hints[name])}
    assert not wrong, f"README channel table names the wrong reducer: {wrong}"
    assert all(len(cells) == 3 and all(cells) for cells in table.values()), "every channel says who writes and reads it"


if __name__ == "__main__":  # pragma: no cover
    print("\n".join(settings_rows()))
