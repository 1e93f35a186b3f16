"""Whose act a sentence tells: a clause about another named thing dates that thing, a doer after "by" is not what
was done to, what someone did is not what their relative did, an act on another named thing is not the one asked,
and a list's entry is about its own label."""

from __future__ import annotations

from satiate.engine.answer import find_answer, readable_lines
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import a_person, act_years, type_fit
from satiate.tools.text import inflected_alike
from support.reading_support import finder_chain, note_sources

RIGHT = 1.0


def _fit(question: str, answer: str, kind: str, stating: str, *read: str) -> float:
    chain = Chain(question=question, answer=answer, kind=kind, stating=(stating,), answer_pages=("Notes",),
                  read=(stating, *read))
    return type_fit(chain)[0]


def test_a_word_inflected_is_the_same_word_and_a_derived_one_is_not():
    assert inflected_alike("mill", "mills") and inflected_alike("Orlby's", "orlby")
    assert not inflected_alike("engine", "engineering")
    assert not inflected_alike("nation", "national")


def test_a_firm_named_by_a_word_derived_from_the_question_s_noun_is_a_candidate():
    page = note_sources(("Engines", "# The Kesh Queen\n\nSecond engine. Built 1919 by Orlby Engineering. Sold 1950.\n"
                                    "Ivy says the children thought the Kesh Queen was an aunt."))
    found = find_answer("Who built the engine Kesh Queen?", page)
    assert "Orlby Engineering" in [name for name, _ in found.candidates]


def test_a_short_line_opening_on_its_verb_is_read_as_a_sentence():
    page = note_sources(("Engines", "# The Kesh Queen\n\nBuilt 1919 by Orlby Engineering. Sold 1950.\n"))
    assert "Built 1919 by Orlby Engineering." in [line.text for line in readable_lines(page)]
    run_together = note_sources(("Infobox", "Orlby Product type Engines Owner Orlby Kesh Holdings"))
    assert readable_lines(run_together) == []


def test_a_clause_about_another_name_dates_that_name():
    log = "Kesh Queen vs Orlby Lass: careful — Kesh Queen was BUILT 1919, Orlby Lass was BOUGHT 1919 (built 1912)."
    assert act_years(log, {"build"}, ("Orlby Lass",)) == ["1912"]
    assert act_years(log, {"build"}, ("Kesh Queen",))[0] == "1919"
    assert _fit("When was Orlby Lass built?", "1919", "date", log) < RIGHT
    assert _fit("When was Orlby Lass built?", "1912", "date", log) == RIGHT


def test_an_act_written_in_capitals_is_still_the_act():
    log = "Careful: Kesh Queen was BUILT 1919, Orlby Lass was BOUGHT 1919."
    assert _fit("Who built the engine Kesh Queen?", "Orlby Lass", "person", log) < RIGHT


def test_the_doer_after_by_does_not_answer_what_was_done_to():
    line = "Rounding boards on the Kesh Wheel repainted 1927 by Ada."
    assert _fit("Which ride did Ivo Marr's sister repaint the rounding boards of in 1927?", "Ada", "name", line) < RIGHT
    # asked for the doer, the one after "by" answers
    assert _fit("Which painter were the rounding boards repainted by in 1927?", "Ada", "name", line) == RIGHT


def test_what_someone_did_is_not_what_their_relative_did():
    row = "Beer: Orlby Ale; Introduced: 1933; Brewer: Ivo Marr; Notes: label wanted."
    question = "Which beer was introduced by Ivo Marr's successor as head brewer?"
    assert _fit(question, "Orlby Ale", "name", row) < RIGHT
    assert _fit(question, "Orlby Ale", "name", "Ivo Marr introduced Orlby Ale in 1933.") < RIGHT
    assert _fit(question, "Kesh Stout", "name", "Ada Pell introduced Kesh Stout in 1951.") == RIGHT
    assert _fit(question, "Kesh Stout", "name", "Ivo Marr's successor, Ada Pell, introduced Kesh Stout.") == RIGHT


def test_an_act_on_another_named_thing_is_not_the_act_asked():
    question = "When did the Marrs buy the Kesh Wheel?"
    assert _fit(question, "1958", "date", "Sold the Orlby Swing in 1958.") < RIGHT
    assert _fit(question, "1921", "date", "Bought the Kesh Wheel in 1921.") == RIGHT
    assert _fit(question, "1921", "date", "Bought it in 1921 from Ada Pell.") == RIGHT


def test_an_entry_of_a_list_is_about_its_own_label():
    fleet = "Fleet. Orlby Lass: named after Ivo Marr's mother. 26 seats. Kesh Queen: 32 seats, the big one."
    chain = Chain(question="How many seats did Orlby Lass have?", answer="32", kind="number",
                  stating=("Kesh Queen: 32 seats, the big one.",), hops=("Orlby Lass: named after Ivo Marr's mother.",),
                  answer_pages=("Fleet",), hop_pages=("Fleet",), read=(fleet,), read_titles=("Fleet",))
    assert assess(chain).factors["subject"] < RIGHT
    record = Chain(question="How many seats did Orlby Lass have?", answer="26", kind="number",
                   stating=("Seats: 26.",), hops=("Name: Orlby Lass.",), answer_pages=("Fleet",),
                   hop_pages=("Fleet",), read=("Fleet. Name: Orlby Lass. Seats: 26.",), read_titles=("Fleet",))
    assert assess(record).factors["subject"] == RIGHT


def test_a_name_set_beside_a_kind_of_person_is_a_person():
    assert a_person("Ivo Marr", ("Ada Pell's son is Ivo Marr (the lorry driver).",))
    assert a_person("Ivo Marr", ("Ivo Marr, the carter, drove it.",))
    assert not a_person("Kesh Queen", ("Kesh Queen, the big bus, kept for route 1.",))
    assert a_person("Ada Pell", ("Family. # Ada Pell\n\nIvo's wife, née Lant. Held the licence 1879–1893.",))
    assert a_person("Ivo Marr", ("Smiths. # Ivo Marr\n\nFarrier at the Kesh forge from 1901.",))
    assert not a_person("Kesh Queen", ("Engines. # Kesh Queen\n\nSecond engine. Built 1919 by Orlby Engineering.",))
    assert _fit("What was the name of the lorry driven by Ada Pell's son?", "Ivo Marr", "name",
                "Ada Pell's son is Ivo Marr (the lorry driver).") < RIGHT


def test_a_thing_the_sentence_gives_to_another_name_is_not_the_one_asked():
    question = "When did Kesh's old creamery close down?"
    assert _fit(question, "1958", "date", "Orlby had its own creamery, which closed in 1958.") < RIGHT
    assert _fit(question, "1958", "date", "The creamery at Orlby closed in 1958.") < RIGHT
    assert _fit(question, "1958", "date", "Kesh's creamery closed in 1958.") == RIGHT
    assert _fit(question, "1958", "date", "The creamery closed in 1958.") == RIGHT


def test_a_pronoun_standing_for_the_page_s_named_subject_keeps_the_sentence_about_it():
    villages = note_sources(("Orlby and the villages near it",
                             "Orlby is the largest of them. Its milk co-operative was founded in 1946 by the farmers. "
                             "Kesh had a creamery of its own, which closed in 1958."))
    answer, chain = finder_chain("When was the milk co-operative in Kesh founded?", villages)
    assert answer == "1946" and assess(chain).factors["subject"] < RIGHT
    mill = note_sources(("The mill", "Kesh Mill stands on the Orr below the bridge. It was built in 1790 by monks."))
    answer, chain = finder_chain("When was Kesh Mill built?", mill)
    assert answer == "1790" and assess(chain).factors["subject"] == RIGHT
    # a pronoun points back: after a sentence naming the question's firm, it stands for that firm
    letter = note_sources(("From: Ada Pell", "Orlby & Kesh Ltd were registered at Kesh in 1899. Their chairman "
                                             "throughout was Ivo Marr, a tanner."))
    answer, chain = finder_chain("Who was the chairman of Orlby & Kesh?", letter)
    assert answer == "Ivo Marr" and assess(chain).factors["subject"] == RIGHT
