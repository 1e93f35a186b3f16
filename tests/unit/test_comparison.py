"""Comparison questions: both sides named, each side's own page pinned, the first side's page leads and the brief
goes on with the second side's page, then the page that quotes both (invented mill pages)."""

from __future__ import annotations

from pathlib import Path

from satiate.engine.answer import description_lead, expected_answer, read_for
from satiate.engine.reading.brief import brief_runs, subject_stems
from satiate.tools.search.fts_index import Passage
from satiate.tools.search.named_pages import compared_names, named_pages
from support.page_index import pages_index


def page(number: int, title: str, text: str) -> dict:
    return {"id": f"S{number}", "key": f"k{number}", "url": f"https://docs.example/{number}", "title": title,
            "text": text, "backend": "builtin", "read_kind": "passage", "query": "q", "angle": "direct", "cycle": 1,
            "round": 0, "doc_id": f"doc{number}"}


def test_the_two_sides_of_a_comparison_are_read_from_its_usual_phrasings():
    assert compared_names("What is the difference between a sack and a bale?") == ("sack", "bale")
    assert compared_names("How does mill.grind differ from mill.crush()?") == ("mill.grind", "mill.crush")
    assert compared_names("sack vs bale") == ("sack", "bale")
    assert compared_names("Compare the sack with the bale in Python.") == ("sack", "bale")
    # a noun after the second side belongs to both; two kinds of one noun are written joined, as code does
    assert compared_names("What is the difference between the grind and upon statements?") == ("grind", "upon")
    assert compared_names("What is the difference between a flour sack and a grain sack?") == ("floursack",
                                                                                                 "grainsack")
    # not a comparison, or a side that is no name
    assert compared_names("What is a sack?") is None
    assert compared_names("What is the difference between the upon operator and ==?") is None
    assert expected_answer("What is the difference between a sack and a bale?").kind == "description"


def test_each_side_pins_its_own_page_and_the_page_quoting_both(tmp_path: Path):
    index = pages_index(tmp_path / "pages.sqlite", [
        Passage("stdlib:sack", "Python built-in: sack", "u1", "sack(grain): Built-in bag that can be refilled."),
        Passage("stdlib:mill.bale", "Python stdlib: mill.bale", "u2", "mill.bale(straw): A bound bale of straw."),
        Passage("stdlib:mill.bale.module", "Python stdlib: mill.bale.module module", "u3", "Bale helpers."),
        Passage("lang:stores", 'Python stdlib: Store types — "sack", "bale"', "u4", "There are two store types."),
        Passage("lang:upon", 'Mill reference: The "upon" statement', "u5", 'The "upon" statement waits.'),
    ])
    hits = named_pages(index, "What is the difference between a sack and a bale?")
    assert [hit.doc_id for hit in hits] == ["stdlib:sack", "stdlib:mill.bale", "lang:stores"]
    # a side with no object page is the keyword of that name
    assert [hit.doc_id for hit in named_pages(index, "What is the difference between sack and upon?")] == [
        "stdlib:sack", "lang:upon"]


SIDES = [
    page(1, "Python stdlib: Millers", "A miller grinds the difference between grain and flour."),
    page(2, "Python built-in: sack", "sack(grain): Built-in bag that can be refilled. A sack holds one load."),
    page(3, "Python built-in: bale", "bale(straw): Built-in bound bundle that cannot be refilled. The difference "
         "between a sack and a bale of straw is in the twine."),
    page(4, 'Python stdlib: Store types — "sack", "bale"', "There are two store types: sacks and bales."),
    page(5, "Python stdlib: difflib", "The difference between two texts is shown line by line."),
    page(6, 'Python stdlib: Store types — "sack"', "A sack is sewn from jute. Sacks are stacked in the loft."),
]


def test_the_first_sides_own_page_leads_and_the_second_sides_page_follows_in_the_brief():
    question = "What is the difference between a sack and a bale?"
    reading = read_for(question, SIDES)
    lead = description_lead(question, SIDES, reading.ranked)
    assert not isinstance(lead, str)
    assert lead.line.text == "sack(grain): Built-in bag that can be refilled."
    runs = brief_runs(question, reading.ranked, 1200, first=lead)
    # the sides take turns (the sack's second page waits for the bale's), then the page that quotes both;
    # "difference" is framing only
    assert [run.page for run in runs][:4] == ["doc2", "doc3", "doc6", "doc4"]
    # a side's page is quoted from its opening, not from the sentence that repeats the question's words
    assert runs[1].lines[0].line.text == "bale(straw): Built-in bound bundle that cannot be refilled."
    assert "doc5" not in [run.page for run in runs] and "differ" not in subject_stems(question)
