"""What a name or a number must be to answer: a settlement is no street and no building, a first name is spelled
out, a measure of space is no stretch of time, a body of people is no person, and a hyphened noun is read by its
last word ("ferry-boy" names a person)."""

from __future__ import annotations

from satiate.engine.answer import candidate_spans, expected_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.kinds import asked_phrase
from satiate.tools.lexicon import names_a_body, names_a_person, names_a_time
from support.reading_support import fit_of

RIGHT = 1.0



def test_a_hyphened_noun_is_read_by_its_last_word():
    assert asked_phrase("What was the ferry-boy who drowned in 1841 called?") == ["ferry-boy"]
    assert names_a_person("ferry-boy") and names_a_person("ferry-boys")
    assert not names_a_person("water-wheel")
    assert expected_answer("What was the ferry-boy who drowned in 1841 called?").kind == "person"


def test_a_street_or_a_building_does_not_answer_which_town():
    street = "At Kesh the carrier's van overturned in Tanyard Row."
    assert fit_of("Which village did the carrier's van overturn in?", "Tanyard Row", "place", street) < RIGHT
    assert fit_of("Which village did the carrier's van overturn in?", "Kesh", "place", street) == RIGHT
    church = "Wed Ivo Marr in 1902 at St Orla's, Kesh."
    assert fit_of("In which village did Ada Pell wed?", "St Orla", "place", church) < RIGHT
    assert fit_of("Where did Ada Pell wed?", "St Orla", "place", church) == RIGHT  # "where" takes a building


def test_a_first_name_must_be_spelled_out():
    minutes = "Mr. A. Pell, the secretary, signed the lease."
    asked = "Which first name did the secretary who signed the lease have?"
    assert fit_of(asked, "Mr. A. Pell", "name", minutes) < RIGHT
    assert fit_of("Which first name did the secretary who signed the lease have?", "Ada Pell", "name",
                "Ada Pell, the secretary, signed the lease.") == RIGHT
    assert fit_of("Who signed the lease?", "Mr. A. Pell", "person", minutes) == RIGHT  # any name says who


def test_a_measure_of_space_is_no_stretch_of_time():
    assert names_a_time("years") and not names_a_time("fathoms")
    said = "Ivo Marr, then two years old, watched the Kesh well being dug."
    assert fit_of("What depth did the Kesh well reach?", "two years", "number", said) < RIGHT
    assert fit_of("What depth did the Kesh well reach?", "40 feet", "number", "The Kesh well reached 40 feet.") == RIGHT


def test_a_measure_written_with_a_hyphen_keeps_its_unit():
    record = "Boat: Tern; Beam: 12-foot; Builder: Pell & Reed."
    expected = expected_answer("How wide was the beam of the Tern?")
    assert candidate_spans(record, expected) == ["12-foot"]
    assert fit_of("How wide was the beam of the Tern?", "12-foot", "number", record) == RIGHT


def test_a_body_of_people_is_no_person():
    assert names_a_body("council") and not names_a_person("council")
    sold = "The tannery and its yard went to Kesh Rural Council in 1974."
    assert fit_of("Who took over the tannery in 1974?", "Kesh Rural Council", "person", sold) < RIGHT
    assert fit_of("Who took over the tannery in 1974?", "Ada Pell", "person",
                "The tannery and its yard went to Ada Pell in 1974.") == RIGHT


def test_a_rejected_kind_is_named_in_what_is_missing():
    chain = Chain(question="In which village did Ada Pell wed?", answer="St Orla", kind="place",
                  stating=("Wed Ivo Marr in 1902 at St Orla's, Kesh.",), answer_pages=("Pells",),
                  read=("Pells. ## Ada Pell\nWed Ivo Marr in 1902 at St Orla's, Kesh.",))
    judged = assess(chain)
    assert judged.confidence < 0.8 and any("building" in gap for gap in judged.missing)


def test_a_name_that_qualifies_a_noun_is_not_the_thing_or_the_one_who_acted():
    site = "Ground now: the Orlby Point car park"
    assert fit_of("What stands where the old baths were?", "Orlby Point", "name", site) < RIGHT
    vane = "Made the new Corn Hall weathervane in Orlby after the storm."
    assert fit_of("Who made the Orlby weathervane?", "Corn Hall", "person", vane) < RIGHT
    assert fit_of("What was the ferry called?", "Gull Rose", "name", "They ran the Gull Rose ferry.") == RIGHT
    assert fit_of("Who made the Orlby weathervane?", "Ada Pell", "person", "Ada Pell made it; Ada Pell left in 1902.") \
        == RIGHT  # her act, not a noun she qualifies
    assert fit_of("Who rang the bell?", "Ada Pell", "person", "Ada Pell yesterday rang the bell.") == RIGHT


def test_a_post_no_source_speaks_of_is_held_by_no_one_read_about():
    said = "Years: 1901–1912; Harbourmaster: Ivo Marr; Notes: new quay."
    chain = Chain(question="Who was the surveyor of the new quay at Kesh?", answer="Ivo Marr", kind="person",
                  stating=(said,), answer_pages=("Harbourmasters",), read=(f"Harbourmasters. {said}",))
    judged = assess(chain)
    assert judged.confidence == 0.0 and "no source read mentions 'surveyor'" in judged.missing
    holder = Chain(question="Who was the harbourmaster of Kesh in 1905?", answer="Ivo Marr", kind="person",
                   stating=(said,), answer_pages=("Harbourmasters",), read=(f"Harbourmasters. {said}",))
    assert not any("mentions 'harbourmaster'" in gap for gap in assess(holder).missing)


def test_of_two_counts_in_one_sentence_the_one_whose_clause_says_more_of_the_question_counts_it():
    said = "The hall was split into two wards — north ward 14 cots, south ward 9 cots."
    question = "How many cots were in the south ward at Kesh?"
    assert fit_of(question, "14", "number", said) < RIGHT
    assert fit_of(question, "9", "number", said) == RIGHT


def test_where_a_thing_moved_from_does_not_answer_where_it_moved_to():
    said = "The choir moved from the Corn Hall to the Swan in 1961."
    assert fit_of("Which inn did the choir move into in 1961?", "Corn Hall", "name", said) < RIGHT
    assert fit_of("Which inn did the choir move into in 1961?", "Swan", "name", said) == RIGHT


def test_a_title_the_notes_also_write_in_lower_case_is_a_post_not_a_name():
    rota = "Rota for 1970: the vicar, I.M. (Head Gardener) and the Guides."
    clipping = "Head gardener Mr Ivo Marr retired in 1980."
    assert fit_of("Who was the hall's gardener in 1970?", "Head Gardener", "person", rota, clipping) < RIGHT
    assert fit_of("Who was the hall's gardener in 1970?", "Ivo Marr", "person",
                "Ivo Marr was the hall's gardener in 1970.", clipping) == RIGHT
    # a name keeps its capitals: a surname that is also a trade is still a name
    baked = "Ada Baker baked the bread."
    assert fit_of("Who baked the bread?", "Ada Baker", "person", baked, "The baker's shop.") == RIGHT


def test_a_name_headed_by_a_noun_of_time_is_no_place():
    lease = "The lease ran from Orlby Day 1840, the rent paid at Kesh Marsh each quarter."
    assert fit_of("Where was the rent paid?", "Orlby Day", "place", lease) < RIGHT
    assert fit_of("Where was the rent paid?", "Kesh Marsh", "place", lease) == RIGHT


def test_a_count_set_before_its_own_noun_counts_that_noun_whatever_the_label():
    totals = "Yard totals: 1951 — 14 lorries (tax return)."
    assert fit_of("How many lorries did Orlby Haulage run in 1951?", "14", "number", totals) == RIGHT
    drivers = "Drivers in 1951: 14 in all."
    assert fit_of("How many lorries did Orlby Haulage run in 1951?", "14", "number", drivers) < RIGHT
    carried = "Jotted: fourteen lorries by 1951, and two vans."
    assert fit_of("How many lorries did Orlby Haulage run in 1951?", "fourteen lorries", "number", carried) == RIGHT
