"""Plain-noun answers: the place a "what" question leaves open, and the noun phrase a sentence puts there; each rule on
invented text."""

from __future__ import annotations

from satiate.engine.answer import find_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.slots import Slot, asked_slot, fills_slot, slot_fillers


def _page(number: int, title: str, text: str) -> dict:
    return {"id": f"S{number}", "key": f"doc:{title}", "title": title, "text": text, "url": f"file:///n{number}.md"}


def test_a_question_ending_in_a_preposition_asks_for_what_follows_it() -> None:
    slot = asked_slot("What did the Brenlow family turn the chapel into?")
    assert slot is not None and slot.preposition == "into" and not slot.doer
    assert slot_fillers("In 1911 they turned the chapel into a drill hall for the quarrymen.", slot) == [
        "drill hall"]
    # a clause about when may follow the stranded preposition
    trained = asked_slot("What had Oda Venn trained as before she ran the forge?")
    assert trained is not None and trained.preposition == "as"
    assert slot_fillers("Oda Venn had trained as a farrier in Kellby.", trained) == ["farrier"]


def test_a_question_whose_what_is_the_subject_asks_for_the_doer() -> None:
    slot = asked_slot("What caused the flood of 1866?")
    assert slot == Slot(frozenset({"caus"}), doer=True)
    assert slot_fillers("The flood of 1866 was caused by a blocked culvert under the lane.", slot) == [
        "blocked culvert"]
    assert slot_fillers("That spring a blocked culvert caused it.", slot) == ["blocked culvert"]


def test_the_acts_clause_must_be_told_of_the_questions_subject() -> None:
    slot = asked_slot("What award did Ivo Sarle receive for the Kesh rescue?")
    assert slot is not None
    joined = "Sarle was given the gold cup, and every man of the crew received a silver badge."
    assert slot_fillers(joined, slot) == []  # the crew's award, not his
    assert slot_fillers("In 1907, he received a silver badge.", slot) == ["silver badge"]  # a pronoun for him
    assert slot_fillers("Ivo Sarle received a silver badge.", slot) == ["silver badge"]


def test_only_the_act_as_a_verb_opens_the_place_and_names_are_left_to_the_name_reader() -> None:
    slot = asked_slot("What was the roof of the new barn made of?")
    assert slot is not None
    assert slot_fillers("The new barn had a roof made of slate, not thatch.", slot) == ["slate"]
    assert slot_fillers("The roof of the barn fell in.", slot) == []  # "roof of" is no act
    bought = asked_slot("What did the Brenlow family buy in 1881?")
    assert bought is not None
    assert slot_fillers("The Brenlow family bought the old Kesh mill in 1881.", bought) == []  # words of a name
    assert asked_slot("What is the Kesh mill?") is None  # a description is asked, no place in a clause
    assert asked_slot("Who turned the chapel into a school?") is None


def test_a_plain_noun_in_the_open_place_is_answered_and_committed() -> None:
    sources = [_page(1, "The Brenlow chapel", "The Brenlow family bought the chapel in 1890. In 1911 they turned "
                     "the chapel into a drill hall for the quarrymen, and it kept that use until 1950.")]
    question = "What did the Brenlow family turn the chapel into?"
    found = find_answer(question, sources)
    assert found.short_answer == "drill hall"
    stating = found.evidence[0].text
    assert fills_slot(question, "drill hall", [stating])
    verdict = assess(Chain(question=question, answer="drill hall", kind="name", stating=(stating,),
                           answer_pages=("The Brenlow chapel",), read=(stating,)))
    assert verdict.factors["type"] == 1.0
    # the same plain noun, not in the open place, is still no name
    elsewhere = "A drill hall opened in Kesh in 1911."
    assert assess(Chain(question=question, answer="drill hall", kind="name", stating=(elsewhere,),
                        read=(elsewhere,))).factors["type"] < 1.0
