"""A dotted name in a question pins that object's own page first, a function's page over its class's, and a method
documented inside its class's page is found there (built on a fictional stdlib-shaped index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satiate.tools.search.fts_index import Passage
from satiate.tools.search.named_pages import named_objects, named_pages
from support.page_index import pages_index

PAGES = [
    Passage("stdlib:harbor", "Python stdlib: harbor module", "u0", "Ship and dock records of Harbor Town."),
    Passage("stdlib:harbor.Harbor", "Python stdlib: harbor.Harbor", "u1",
            "harbor.Harbor(name): A harbor holding many docks, where ships dock and harbor dock fees are paid.\n\n"
            "Harbor.berth(ship): Give a ship a free berth at one of the docks.\n\n"
            "Harbor.toll(ship): Charge the harbor toll of a ship by its length."),
    Passage("stdlib:harbor.dock", "Python stdlib: harbor.dock", "u2",
            "harbor.dock(ship): Tie up a ship at the quay of the harbor."),
    Passage("stdlib:lantern#p1", "Python built-in: lantern", "u3", "lantern(x): Light a lantern over x."),
    Passage("stdlib:lantern#p2", "Python built-in: lantern", "u3", "lantern.dim(level): Dim the lantern to level."),
    Passage("lang:custom#p1", "Mill reference: Basic customization", "u4",
            "The __close__ hook is mentioned here.\n\nobject.__open__(self)\n\n   Called before the first sack."
            "\n\nobject.__close__(self)"),
    Passage("lang:custom#p2", "Mill reference: Basic customization", "u4",
            "   Called after the last sack is filled.\n\nobject.__weigh__(self)\n\n   Called to weigh a sack."),
    Passage("lang:grind-tail", 'Mill reference: Compound statements — The "grind" statement, continued', "u5",
            "More on the grind statement's rules."),
    Passage("lang:grind#p1", 'Mill reference: The "grind" statement', "u6",
            'The "grind" statement turns grain into flour.'),
    Passage("lang:grind#p2", 'Mill reference: The "grind" statement', "u6", "It may hold several sacks."),
]


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    return pages_index(tmp_path / "pages.sqlite", PAGES)


def test_dotted_names_and_named_modules_are_read_from_the_question():
    assert named_objects("What does harbor.dock return, and is Harbor.berth() faster?") == ["harbor.dock",
                                                                                           "Harbor.berth"]
    assert named_objects("What is the harbor module for?") == ["harbor"]
    # file names, versions and sentence ends are not objects
    assert named_objects("How do I open notes.json with version 3.11 in it.") == []


def test_a_functions_own_page_comes_before_a_class_page_that_repeats_its_words(index_path):
    hits = named_pages(index_path, "What does harbor.dock do?")
    assert [hit.doc_id for hit in hits] == ["stdlib:harbor.dock"]


def test_a_method_is_found_inside_its_class_page_and_read_from_its_own_entry(index_path):
    [hit] = named_pages(index_path, "What does harbor.Harbor.toll do?")
    assert hit.doc_id == "stdlib:harbor.Harbor"
    assert hit.body.startswith("Harbor.toll(ship): Charge the harbor toll")
    # a module function bound to a hidden instance documents itself as a method of that module's class
    [alias] = named_pages(index_path, "What is harbor.berth?")
    assert alias.body.startswith("Harbor.berth(ship)")
    # a built-in's method in a later chunk of its page
    [chunk] = named_pages(index_path, "What does lantern.dim do?")
    assert (chunk.doc_id, chunk.body) == ("stdlib:lantern#p2", "lantern.dim(level): Dim the lantern to level.")


def test_names_with_no_page_pin_nothing(index_path, tmp_path):
    assert named_pages(index_path, "What does harbor.sail do?") == []
    assert [hit.doc_id for hit in named_pages(index_path, "What is the harbor module?")] == ["stdlib:harbor"]
    assert named_pages(tmp_path / "missing.sqlite", "What does harbor.dock do?") == []


def test_a_special_method_pins_the_passage_of_its_entry_and_the_next_when_the_entry_ends_it(index_path):
    assert [hit.doc_id for hit in named_pages(index_path, "When is __weigh__ called?")] == ["lang:custom#p2"]
    assert [hit.doc_id for hit in named_pages(index_path, "What does the __open__ method do?")] == ["lang:custom#p1"]
    assert [hit.doc_id for hit in named_pages(index_path, "When is __close__ called?")] == ["lang:custom#p1",
                                                                                           "lang:custom#p2"]
    assert named_pages(index_path, "When is __sail__ called?") == []


def test_a_keyword_named_as_such_pins_its_own_reference_page(index_path):
    # "upon"-like keywords are function words a search drops: the page whose title quotes the keyword is looked up
    hits = named_pages(index_path, "How does the grind statement work?")
    assert [hit.doc_id for hit in hits] == ["lang:grind#p1"]
    assert [hit.doc_id for hit in named_pages(index_path, "What does `grind` do?")] == ["lang:grind#p1"]
    assert named_pages(index_path, "How does the sift statement work?") == []
