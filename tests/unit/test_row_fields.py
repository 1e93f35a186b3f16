"""A row of fields tells one relation per label: an answer read under a label the question does not ask is an
answer to another question, and a name set in brackets after the noun asked is that thing's name."""

from __future__ import annotations

from satiate.engine.answer import find_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import named_beside, type_fit
from satiate.engine.reading.kinds import asked_phrase

ROW = "Boat: Tern; Rig: gaff; Built by: Quell & Sons of Harlby; Skippered by: Ada Pell; Since: 1961"


def _row_chain(question: str, answer: str, kind: str = "person") -> Chain:
    return Chain(question=question, answer=answer, kind=kind, stating=(ROW,), read=(ROW,))


def test_an_answer_under_a_label_the_question_does_not_ask_is_left_open():
    unasked = assess(_row_chain("Who is the Tern's master now?", "Quell & Sons"))
    assert unasked.confidence < 0.8
    assert any("'Built by'" in gap and "'Skippered by'" in gap for gap in unasked.missing)


def test_an_answer_under_the_label_the_question_asks_stands():
    assert assess(_row_chain("Who built the Tern?", "Quell & Sons")).confidence == 1.0
    assert assess(_row_chain("Who skippered the Tern?", "Ada Pell")).confidence == 1.0


def test_a_word_of_the_value_may_tell_the_relation_the_label_does_not():
    row = "Boat: Tern; Made by: built by Quell & Sons at Harlby; Skippered by: Ada Pell"
    built = Chain(question="Who built the Tern?", answer="Quell & Sons", kind="person", stating=(row,), read=(row,))
    assert assess(built).confidence == 1.0


def test_the_rows_own_record_needs_no_label_and_a_lone_field_no_choice():
    members = "Name: Ada Pell; Post: treasurer; Partner: Ivo Marr"
    record = Chain(question="Who is the treasurer?", answer="Ada Pell", kind="person", stating=(members,),
                   read=(members,))
    assert assess(record).confidence == 1.0
    lone = "Boat: Tern; Rig: gaff; Skippered by: Ada Pell; Since: 1961"
    only = Chain(question="Who is the Tern's master now?", answer="Ada Pell", kind="person",
                 stating=(lone,), read=(lone,))
    assert not any("row gives" in gap for gap in assess(only).missing)


def test_dates_on_one_row_are_told_apart_by_their_labels():
    row = "Hall: Orlby Institute; Built: 1884; Reopened: 1952"
    asked = Chain(question="When was the Orlby Institute reopened?", answer="1952", kind="date", stating=(row,),
                  read=(row,))
    other = Chain(question="When did the Orlby Institute get its new roof?", answer="1952", kind="date",
                  stating=(row,), read=(row,))
    assert assess(asked).confidence == 1.0
    assert any("'Reopened'" in gap for gap in assess(other).missing)


def test_a_contracted_question_word_still_names_its_noun():
    assert asked_phrase("What's the name of the winter club for walkers?") == ["winter", "club"]
    assert asked_phrase("What’s the winter club called?") == ["winter", "club"]


def test_a_name_in_brackets_after_the_noun_asked_is_the_things_name():
    note = "Winter walks: Ada will lead the winter club (Frost Hikers) again and wants a deputy."
    chain = Chain(question="What's the name of the winter club for walkers?", answer="Ada", kind="name",
                  stating=(note,), read=(note,))
    fit, why = type_fit(chain)
    assert fit < 1.0 and "'Frost Hikers'" in why


def test_the_finder_answers_by_the_name_in_brackets_even_when_it_shares_a_word_with_the_question():
    note = ("Winter walks: Ada will lead the Sunday winter club (Sunday Striders) again and wants a deputy. "
            "Ivo Marr will do the maps.")
    source = {"id": "S1", "key": "doc:diary", "title": "Diary", "text": note, "url": ""}
    found = find_answer("What's the name of the Sunday winter club for walkers?", [source])
    assert found.short_answer == "Sunday Striders"


def test_no_noun_asked_sets_no_name_beside_it():
    text = "The Harlby regatta (Tern Cup) was won by Ada Pell."
    assert named_beside("regatta", text) == ["Tern Cup"]
    assert named_beside("", text) == []


def test_a_count_on_a_months_row_is_not_the_years_count():
    row = "Month: Mar; Boat: Tern; Trips: 4; Takings: £12"
    year = Chain(question="How many trips did the Tern make in 1951?", answer="4", kind="number", stating=(row,),
                 read=(row,))
    fit, why = type_fit(year)
    assert fit < 1.0 and "Mar" in why
    month = Chain(question="How many trips did the Tern make in March 1951?", answer="4", kind="number",
                  stating=(row,), read=(row,))
    assert type_fit(month)[0] == 1.0


def test_a_person_styled_by_their_farm_answers_what_farm_by_the_farm():
    note = "The shield went to Mrs Nell Garrow of Tallis Farm, with her dog Bracken."
    source = {"id": "S1", "key": "doc:show", "title": "Show results", "text": note, "url": ""}
    assert find_answer("What farm was Nell Garrow from?", [source]).short_answer == "Tallis Farm"
    assert find_answer("Who won the shield?", [source]).candidates[0][0] == "Mrs Nell Garrow of Tallis Farm"
