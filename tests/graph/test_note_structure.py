"""How a user's Markdown notes are laid out is read: a table row by row, each cell with its column's name (a question
about one row is answered from that row and cites it; an empty cell answers nothing), and a page of several people
section by section (a "he" or "she" under "## Name" stands for that name, not for the page's title)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satiate.state.contracts import ResearchResult
from support.graph_support import build, corpus_deps, run_settings

BOATS = """# The Tarrin ferries

Notes on the boats that worked the Tarrin crossings, from the harbour ledgers.

| Boat | Crossing | Built | Master |
|---|---|---|---|
| Merrow Lass | Tarrin to Ossel | 1931 | Idris Penwarne |
| Slate Gull | Ossel to Fenner | 1948 | Wenna Callow |
| Tern | Tarrin to Fenner | 1952 | — |

The Merrow Lass was broken up in 1960.
"""
HARBOUR = """# Tarrin harbour

The harbour at Tarrin was dredged in 1927 and again in 1958. The harbour master kept the ledgers in the old customs
house.
"""

FAMILY = """# The Harrow family

Notes from the parish registers and two letters.

## Ansel Harrow (1851–1920)

He was born in Tarrin and kept the lamp at Ossel Point for thirty years. He married late and had no children.

## Wenna Harrow

Ansel's younger sister. She was born in Fenner, where the family lived before the move, and taught at the Ossel
school until 1911.
"""


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "ferries.md").write_text(BOATS, encoding="utf-8")
    (folder / "harbour.md").write_text(HARBOUR, encoding="utf-8")
    (folder / "family.md").write_text(FAMILY, encoding="utf-8")
    return folder


def research(question: str, notes: Path, data_dir: Path) -> ResearchResult:
    deps, _ = corpus_deps(notes, data_dir)
    output = build(deps).invoke({"question": question, "settings": run_settings(notes, data_dir)},
                                {"configurable": {"thread_id": "t"}})
    return ResearchResult.model_validate(output["result"])


def test_a_row_answers_for_the_thing_it_names(notes, isolated_data_dir):
    result = research("When was the Slate Gull built?", notes, isolated_data_dir)
    assert result.short_answer == "1948"
    assert "Boat: Slate Gull; Crossing: Ossel to Fenner; Built: 1948" in result.answer


def test_a_row_answers_who_from_its_named_column(notes, isolated_data_dir):
    result = research("Who was the master of the Merrow Lass?", notes, isolated_data_dir)
    assert result.short_answer == "Idris Penwarne"


def test_an_empty_cell_leaves_the_question_open(notes, isolated_data_dir):
    result = research("Who was the master of the Tern?", notes, isolated_data_dir)
    assert result.short_answer is None


def test_a_pronoun_in_a_persons_section_stands_for_that_person(notes, isolated_data_dir):
    result = research("Where was Wenna Harrow born?", notes, isolated_data_dir)
    assert result.short_answer == "Fenner"
    assert "Wenna Harrow was born in Fenner" in result.answer  # the quote says whom "she" stands for
    assert research("Where was Ansel Harrow born?", notes, isolated_data_dir).short_answer == "Tarrin"
