"""The README stays a true front door: short, its first screen giving the Python version, the venv and the two
commands CI and a new reader run. The manual under docs/ stays true too: docs/settings.md lists every setting with
its real default and description, docs/state.md every channel of the graph state with its reducer.

After changing a setting, regenerate the settings tables with ``satiate settings --markdown`` (see docs/settings.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from satiate.graph.cli.settings import default_text
from satiate.state.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETTINGS_PAGE = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
STATE_PAGE = (ROOT / "docs" / "state.md").read_text(encoding="utf-8")
README_MAX_CHARS = 16_000
FIRST_SCREEN_LINES = 30



def settings_rows() -> list[str]:
    return [f"| `{name}` | {default_text(name)} | {field.description} |"
            for name, field in Settings.model_fields.items()]


def test_the_first_screen_gives_the_two_commands_that_work_on_a_fresh_machine() -> None:
    first_screen = "\n".join(README.splitlines()[:FIRST_SCREEN_LINES])
    assert "Python 3.11+" in first_screen
    first_block = re.search(r"```bash\n(.*?)```", first_screen, flags=re.S)
    assert first_block is not None
    venv_line, run_line, test_line = first_block.group(1).strip().splitlines()
    assert venv_line == "python3 -m venv .venv && . .venv/bin/activate"
    # the research command needs no test extras; it runs on the embedded default, offline
    assert run_line.startswith("pip install -e . && satiate run ") and run_line.endswith("--offline")
    assert test_line == 'pip install -e ".[test]" && python -m pytest -q'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in ci and "pip install --upgrade" not in ci and "pip install -U" not in ci


def test_the_readme_is_a_front_door_not_the_manual() -> None:
    assert len(README) <= README_MAX_CHARS
    assert "| `max_claims` |" not in README and "| `search_results` |" not in README  # the tables live in docs/


def test_the_settings_page_lists_every_setting_as_it_is() -> None:
    from satiate.graph.cli.settings import markdown_tables

    missing = [row for row in settings_rows() if row not in SETTINGS_PAGE]
    assert not missing, ("docs/settings.md is out of date; regenerate its tables with "
                         "satiate settings --markdown:\n" + "\n".join(missing))
    assert markdown_tables().strip() in SETTINGS_PAGE  # the grouped tables as the command prints them


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
    """docs/state.md's channel table: channel name -> its other cells."""
    rows = [line for line in STATE_PAGE.splitlines() if line.startswith("| `")]
    cells = [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]
    return {row[0].strip("`"): row[1:] for row in cells}


def test_the_channel_table_lists_exactly_the_state_channels_with_their_reducers() -> None:
    from typing import get_type_hints

    from satiate.state.schema import ResearchState

    hints = get_type_hints(ResearchState, include_extras=True)
    table = channel_table()
    assert list(table) == list(hints), "docs/state.md and ResearchState disagree (names or order)"
    wrong = {name: (cells[0], reducer_label(hints[name])) for name, cells in table.items()
             if cells[0] != reducer_label(hints[name])}
    assert not wrong, f"docs/state.md names the wrong reducer: {wrong}"
    assert all(len(cells) == 3 and all(cells) for cells in table.values()), "every channel says who writes and reads it"
