"""Notes that correct themselves: a value a line sets aside as a mistake is not the answer another line states, and
the value the correcting line gives instead is, tied to its subject by the line it corrects."""

from __future__ import annotations

from satiate.engine.answer import find_answer
from satiate.engine.reading.commitment import assess
from satiate.engine.roles import sets_aside
from satiate.tools.text import stems
from support.reading_support import finder_chain, note_sources

FIELDS = "Name: Orlby Corn Mill\nBuilt: 1788\nReopened: 4 June 1930\nMiller: Ivo Marr"
CORRECTION = "Went to the record office. Correction: the mill reopened in 1931, not 1930 (a slip of mine). Wet day."


def test_a_value_set_aside_while_the_relation_asked_is_said_is_corrected():
    relation = stems("reopened")
    said = "The mill reopened in 1931, not 1930 as the plaque says."
    assert sets_aside(said, "1930", relation)
    assert not sets_aside(said, "1931", relation)  # the value given in its place
    assert not sets_aside("The roof, not the 1930 wing, burned down.", "1930", relation)  # about something else
    assert sets_aside("The plaque says the mill reopened in 1930 [sic].", "1930", relation)  # flagged after it


def test_the_correcting_value_answers_with_the_corrected_line_as_its_tie_to_the_subject():
    answer, chain = finder_chain("In what year was the Orlby Corn Mill reopened?",
                              note_sources(("Mill facts", FIELDS), ("Research log", CORRECTION)))
    assert answer == "1931"
    assert any("not 1930 (a slip of mine)" in text for text in chain.stating)
    assert any("Orlby Corn Mill" in text for text in chain.hops)
    assert assess(chain).confidence == 1.0


def test_without_the_correction_the_field_answers():
    answer, chain = finder_chain("In what year was the Orlby Corn Mill reopened?", note_sources(("Mill facts", FIELDS)))
    assert answer == "1930" and assess(chain).confidence == 1.0


def test_a_value_flagged_wrong_with_nothing_in_its_place_is_not_committed():
    flagged = "The booklet says the mill reopened in 1930 (a misprint), and gives no other year. Wet day."
    answer, chain = finder_chain("In what year was the Orlby Corn Mill reopened?",
                              note_sources(("Mill facts", FIELDS), ("Research log", flagged)))
    assert answer == "1930"
    judged = assess(chain)
    assert judged.confidence == 0.0 and any("sets '1930' aside" in gap for gap in judged.missing)


def test_a_correction_of_another_act_leaves_the_answer_standing():
    other = "Correction: the mill was built in 1789, not 1788 (a slip of mine)."
    answer, chain = finder_chain("In what year was the Orlby Corn Mill reopened?",
                              note_sources(("Mill facts", FIELDS), ("Research log", other)))
    assert answer == "1930" and assess(chain).confidence == 1.0


def test_two_names_the_sources_support_equally_are_a_coin_flip_not_an_answer():
    sources = note_sources(("Keepers", "Ada Pell kept the Orlby light for the board."),
                       ("More keepers", "Ivo Marr kept the Orlby light for the board."))
    found = find_answer("Who kept the Orlby light?", sources)
    assert found.short_answer is None
    assert "'Ada Pell'" in found.reason and "'Ivo Marr'" in found.reason and "equally" in found.reason
    told = find_answer("Who kept the Orlby light?", note_sources(
        ("Keepers", "Ada Pell kept the Orlby light for the board."),
        ("More keepers", "Ivo Marr swept the Orlby yard.")))
    assert told.short_answer == "Ada Pell"


def test_one_value_written_twice_is_no_tie():
    sources = note_sources(("Keepers", "Ada Pell kept the Orlby light for the board."),
                       ("More keepers", "Pell kept the Orlby light for the board."))
    assert find_answer("Who kept the Orlby light?", sources).short_answer in ("Ada Pell", "Pell")
    counts = note_sources(("Log", "The gale stripped 3 slates from the Orlby barn."),
                      ("Diary", "The gale stripped three slates from the Orlby barn."))
    assert find_answer("How many slates did the gale strip from the Orlby barn?", counts).short_answer in ("3", "three")


def test_a_value_marked_corrected_gives_way_to_the_value_after_it():
    relation = stems("shut")
    said = "Shut: 1962 — corrected, it was 1963 (see the parish book)"
    assert sets_aside(said, "1962", relation) and not sets_aside(said, "1963", relation)
    answer, _ = finder_chain("When did the Orlby Corn Mill shut?",
                          note_sources(("Mill facts", f"Name: Orlby Corn Mill\n{said}")))
    assert answer == "1963"


def test_a_value_followed_by_no_and_another_gives_way_to_it():
    relation = stems("launched")
    said = "Launched: 1911 — no, 1910 per the yard book."
    assert sets_aside(said, "1911", relation) and not sets_aside(said, "1910", relation)
    assert not sets_aside("Launched: 1911, no plans survive of her first rig.", "1911", relation)
