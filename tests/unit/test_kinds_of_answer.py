"""What a name or a number must be to answer: a settlement is no street and no building, a first name is spelled
out, a measure of space is no stretch of time, a body of people is no person, and a hyphened noun is read by its
last word ("ferry-boy" names a person)."""

from __future__ import annotations

from satiate.engine.answer import candidate_spans, expected_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import type_fit
from satiate.engine.reading.kinds import asked_phrase
from satiate.tools.lexicon import names_a_body, names_a_person, names_a_time

RIGHT = 1.0


def _fit(question: str, answer: str, kind: str, stating: str, *read: str) -> float:
    chain = Chain(question=question, answer=answer, kind=kind, stating=(stating,), answer_pages=("Notes",),
                  read=(stating, *read))
    return type_fit(chain)[0]


def test_a_hyphened_noun_is_read_by_its_last_word():
    assert asked_phrase("What was the name of the ferry-boy drowned in 1841?") == ["ferry-boy"]
    assert names_a_person("ferry-boy") and names_a_person("ferry-boys")
    assert not names_a_person("water-wheel")
    assert expected_answer("What was the name of the ferry-boy drowned in 1841?").kind == "person"


def test_a_street_or_a_building_does_not_answer_which_town():
    street = "At Kesh a cart was lost in Mill Lane."
    assert _fit("In which town was a cart lost in the 1852 flood?", "Mill Lane", "place", street) < RIGHT
    assert _fit("In which town was a cart lost in the 1852 flood?", "Kesh", "place", street) == RIGHT
    church = "Married Ivo Marr 1819 at St Orla's, Kesh."
    assert _fit("In which town was Ada Pell married?", "St Orla", "place", church) < RIGHT
    assert _fit("Where was Ada Pell married?", "St Orla", "place", church) == RIGHT  # "where" takes a building


def test_a_first_name_must_be_spelled_out():
    clipping = "Mr. A. Pell, the clerk, read the letter."
    assert _fit("What was the first name of the clerk who read the letter?", "Mr. A. Pell", "name", clipping) < RIGHT
    assert _fit("What was the first name of the clerk who read the letter?", "Ada Pell", "name",
                "Ada Pell, the clerk, read the letter.") == RIGHT
    assert _fit("Who read the letter?", "Mr. A. Pell", "person", clipping) == RIGHT  # any name says who


def test_a_measure_of_space_is_no_stretch_of_time():
    assert names_a_time("years") and not names_a_time("fathoms")
    said = "Not after Ivo Marr anyway: he was two years old in 1836."
    assert _fit("How deep was the Kesh shaft?", "two years", "number", said) < RIGHT
    assert _fit("How deep was the Kesh shaft?", "90 fathoms", "number", "The Kesh shaft was sunk to 90 fathoms.") \
        == RIGHT


def test_a_measure_written_with_a_hyphen_keeps_its_unit():
    expected = expected_answer("How wide was the cylinder of the Kesh engine?")
    assert candidate_spans("Engine: Kesh; Cylinder: 52-inch; Maker: Pell & Reed.", expected) == ["52-inch"]
    assert _fit("How wide was the cylinder of the Kesh engine?", "52-inch", "number",
                "Engine: Kesh; Cylinder: 52-inch; Maker: Pell & Reed.") == RIGHT


def test_a_body_of_people_is_no_person():
    assert names_a_body("council") and not names_a_person("council")
    sold = "House and park sold to Orlby County Council in 1967."
    assert _fit("Who bought the house in 1967?", "Orlby County Council", "person", sold) < RIGHT
    assert _fit("Who bought the house in 1967?", "Ada Pell", "person", "House and park sold to Ada Pell in 1967.") \
        == RIGHT


def test_a_rejected_kind_is_named_in_what_is_missing():
    chain = Chain(question="In which village was Ada Pell married?", answer="St Orla", kind="place",
                  stating=("Married Ivo Marr 1819 at St Orla's, Kesh.",), answer_pages=("Pells",),
                  read=("Pells. ## Ada Pell\nMarried Ivo Marr 1819 at St Orla's, Kesh.",))
    judged = assess(chain)
    assert judged.confidence < 0.8 and any("building" in gap for gap in judged.missing)


def test_a_name_that_qualifies_a_noun_is_not_the_thing_or_the_one_who_acted():
    site = "Site now: the Kesh Point crazy golf"
    assert _fit("What is on the site of the lido now?", "Kesh Point", "name", site) < RIGHT
    clock = "Built the new Market Hall clock in Orlby after the fire."
    assert _fit("Who built the Orlby clock?", "Market Hall", "person", clock) < RIGHT
    assert _fit("What was the ferry called?", "Gull Rose", "name", "They ran the Gull Rose ferry.") == RIGHT
    assert _fit("Who built the Orlby clock?", "Ada Pell", "person", "Ada Pell built it; Ada Pell left in 1902.") \
        == RIGHT  # her act, not a noun she qualifies
    assert _fit("Who cut the ribbon?", "Ada Pell", "person", "Ada Pell yesterday cut the ribbon.") == RIGHT


def test_a_post_no_source_speaks_of_is_held_by_no_one_read_about():
    said = "Years: 1952–1963; Warden: Ivo Marr; Notes: 1958 extension."
    chain = Chain(question="Who was the architect of the 1958 extension at Kesh?", answer="Ivo Marr", kind="person",
                  stating=(said,), answer_pages=("Wardens",), read=(f"Wardens. {said}",))
    judged = assess(chain)
    assert judged.confidence == 0.0 and "no source read mentions 'architect'" in judged.missing
    warden = Chain(question="Who was the warden of Kesh in 1958?", answer="Ivo Marr", kind="person",
                   stating=(said,), answer_pages=("Wardens",), read=(f"Wardens. {said}",))
    assert not any("mentions 'warden'" in gap for gap in assess(warden).missing)


def test_of_two_counts_in_one_sentence_the_one_whose_clause_says_more_of_the_question_counts_it():
    said = "The loft was split into two rooms — men's room 20 beds, women's room 12 beds."
    question = "How many beds were in the women's room at Kesh?"
    assert _fit(question, "20", "number", said) < RIGHT
    assert _fit(question, "12", "number", said) == RIGHT
