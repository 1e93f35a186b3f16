"""A how-to question brings the pages whose name and summary do its task (a fictional stdlib-shaped index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satiate.tools.search.fts_index import Passage
from satiate.tools.search.task_pages import name_parts, page_name, task_pages, task_terms
from support.page_index import pages_index

PAGES = [
    Passage("stdlib:mill", "Python stdlib: mill module — Grinding grain into flour", "u0",
            "Grinding grain into flour.\n\nThe mill copies nothing."),
    Passage("stdlib:mill.sackcopy", "Python stdlib: mill.sackcopy", "u1",
            "mill.sackcopy(src, dst): Copy a sack of flour from one cart to another."),
    Passage("stdlib:mill.copy_sack_range", "Python stdlib: mill.copy_sack_range", "u2",
            "mill.copy_sack_range(src, dst, count): Copy count scoops between two open sacks."),
    Passage("stdlib:mill.weigh#p1", "Python stdlib: mill.weigh", "u3",
            "mill.weigh(sack): weigh(sack) --> weight\n\nReturn the weight of a sack in pounds."),
    Passage("pypi:sackpro", "sackpro: sack tools", "https://pypi.org/project/sackpro/",
            "sackpro copies sacks faster than anything else, copy sack copy sack."),
    Passage("stdlib:mill.mgr", "Python stdlib: mill.mgr", "u5", "mill.mgr(*carts): Miller grain ration of the carts."),
]


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    return pages_index(tmp_path / "pages.sqlite", PAGES)


def test_names_and_task_words():
    assert page_name("Python stdlib: mill module — Grinding grain into flour") == "mill"
    assert page_name("Python stdlib: mill.sackcopy") == "mill.sackcopy"
    assert name_parts("mill.copy_sack_range") == {"mill", "copy", "sack", "range"}
    assert task_terms("How can I weigh a sack using Python?") == ["weigh", "sack"]


def test_a_howto_question_brings_the_page_named_for_its_task_first(index_path: Path):
    found = [hit.doc_id for hit in task_pages(index_path, "How do I copy a sack?")]
    # the joined-up name beats the one with a part nobody asked for; a package description is never brought
    assert found[:2] == ["stdlib:mill.sackcopy", "stdlib:mill.copy_sack_range"]
    assert "pypi:sackpro" not in found


def test_a_summary_behind_a_bare_signature_counts(index_path: Path):
    assert [hit.doc_id for hit in task_pages(index_path, "How do I weigh a sack?")][:1] == ["stdlib:mill.weigh#p1"]


def test_only_howto_questions_with_a_matching_name_bring_pages(index_path: Path):
    assert task_pages(index_path, "What does mill.sackcopy do?") == []
    assert task_pages(index_path, "How do I bake bread?") == []


def test_a_joined_up_name_holds_a_task_word_or_its_stem():
    from satiate.tools.search.task_pages import in_name
    assert in_name("millers", frozenset({"millerguild"}))  # the stem "miller"
    assert in_name("copy", frozenset({"sackcopy"}))  # the word itself (its stem is "copi")
    assert not in_name("sack", frozenset({"saddle"}))


def test_a_howto_lead_shows_the_tool_by_name_unless_its_summary_names_it():
    from satiate.engine.reading.leads import named_summary
    assert named_summary("sieve", "Tool for sifting flour.") == "sieve: Tool for sifting flour."
    named = "mill.sackcopy(src, dst): Copy a sack."
    assert named_summary("mill.sackcopy", named) == named


def test_a_name_that_spells_the_task_by_its_initials_holds_it(index_path: Path):
    from satiate.tools.search.task_pages import initials_in_name
    assert initials_in_name(["work", "miller", "grain", "ration"], frozenset({"mill", "mgr"})) == {
        "miller": "mgr", "grain": "mgr", "ration": "mgr"}
    assert initials_in_name(["grain", "miller"], frozenset({"mgr"})) == {}  # the order the question says them
    found = [hit.doc_id for hit in task_pages(index_path, "How do I find the miller grain ration of two carts?")]
    assert found[:1] == ["stdlib:mill.mgr"]
