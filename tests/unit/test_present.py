"""A question about how things stand now is answered by a line that tells the present, not by one of another time."""

from __future__ import annotations

from satiate.engine.answer import find_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.present import asks_now, tells_now
from support.reading_support import note_sources

HISTORY = ("Ivo Marr kept the Orlby bees from 1931 to 1960. Nora Vane kept the Orlby bees from 1960 to 1988. "
           "Ada Pell keeps the Orlby bees now, with help from the school.")


def test_what_asks_and_what_tells_the_present():
    assert asks_now("Who keeps the Orlby bees these days?") and asks_now("Where is the cup kept now?")
    assert not asks_now("Who kept the Orlby bees in 1950?")
    assert tells_now("Current keeper: Ada Pell") and tells_now("Keeper: Ada Pell, 2019–present")
    assert tells_now("Keeper: Ada Pell; From: 2019; To: —") and tells_now("Ada Pell keeps the bees.")
    assert not tells_now("Keeper: Nora Vane; From: 1960; To: 1988")


def test_a_question_about_now_takes_the_line_that_tells_the_present():
    found = find_answer("Who keeps the Orlby bees these days?", note_sources(("Bees", HISTORY)))
    assert found.short_answer == "Ada Pell"


def test_an_answer_from_a_line_of_another_time_is_not_committed_for_now():
    question = "Who keeps the Orlby bees these days?"
    past = Chain(question=question, answer="Nora Vane", kind="person",
                 stating=("Keeper of the Orlby bees: Nora Vane; From: 1960; To: 1988",), answer_pages=("Bees",),
                 read=("Bees. Keeper of the Orlby bees: Nora Vane; From: 1960; To: 1988",))
    judged = assess(past)
    assert judged.confidence < 0.8 and any("so now" in gap for gap in judged.missing)
    current = Chain(question=question, answer="Ada Pell", kind="person",
                    stating=("Current keeper of the Orlby bees: Ada Pell",), answer_pages=("Bees",),
                    read=("Bees. Current keeper of the Orlby bees: Ada Pell",))
    assert assess(current).confidence == 1.0


def test_a_question_that_also_asks_another_time_is_not_about_now():
    assert not asks_now("The Orlby team now plays in a league that was formerly called what?")
    assert not asks_now("Which club does the Orlby team's 1990 captain coach now?")  # the year picks the bridge
