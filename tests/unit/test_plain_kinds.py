"""Answers told by a plain noun of the kind asked ("navy" for "what colour?", "farrier" for "what did he do for a
living?"): the finder proposes them, the type check accepts them, and nothing else of the sentence passes for them."""

from __future__ import annotations

from satiate.engine.answer import expected_answer, find_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import type_fit
from satiate.engine.reading.plain_kinds import CALLING, KINSHIP, asked_kind, plain_fillers


def _chain(question: str, answer: str, said: str) -> Chain:
    return Chain(question=question, answer=answer, kind="name", stating=(said,), read=(said,))


def _note(text: str, title: str = "Notes") -> dict:
    return {"id": "S1", "key": "doc:notes", "title": title, "text": text, "url": ""}


def test_the_kind_asked_is_a_calling_a_kinship_or_a_noun_whose_kinds_are_plain_words():
    assert asked_kind("What did Ivo Marr do for a living?") == CALLING
    assert asked_kind("What was Ada Pell's line of business?") == CALLING
    assert asked_kind("How was Nell Garrow related to Ivo Marr?") == KINSHIP
    assert asked_kind("What colour was the Orlby van?") == "colour"
    assert asked_kind("Which vegetable does Ada grow for the show?") == "vegetable"
    assert asked_kind("Which boat did Ada skipper?") == ""  # a boat has a name of its own
    assert asked_kind("What price was asked for the mill?") == ""  # a quantity, however its noun is filed


def test_a_calling_question_asks_for_a_name_kind_answer_not_an_explanation():
    assert expected_answer("What did Ivo Marr do for a living?").kind == "name"


def test_fillers_are_the_plain_words_of_the_kind_and_no_number_or_post_built_on_the_question():
    sentence = "The van was painted navy and silver by two lads; Ivo Marr, a farrier, kept the keys."
    assert plain_fillers(sentence, "colour") == ["navy"]  # "silver" is a metal by its usual senses
    assert plain_fillers(sentence, CALLING, "What did Ivo Marr do for a living?") == ["farrier"]
    assert plain_fillers("Her niece and her friend came.", KINSHIP) == ["niece"]
    assert plain_fillers("The owners lived uphill, the weavers by the river.", CALLING) == []  # classes of people
    assert plain_fillers("The hut was repainted black-and-white.", "colour") == ["black-and-white"]
    assert plain_fillers("Two of them came.", "paper") == []  # "two" is a playing card only by a rare sense
    lines = "Farrier at the Kesh forge. Volunteer harbour master at Orlby."
    assert "farrier" in plain_fillers(lines, CALLING) and "volunteer" not in plain_fillers(lines, CALLING)
    role = "Ivo Marr, who laid out the yard and was its first yardmaster, was a farrier by trade."
    assert plain_fillers(role, CALLING, "What did the yard's founder do for a living?") == ["farrier"]
    assert plain_fillers(role, CALLING, "What did Ivo Marr do for a living?") == ["yardmaster", "farrier"]


def test_the_finder_answers_a_calling_with_the_plain_noun_said_of_the_person():
    note = _note("The chapel was built by Ivo Marr, stonemason, of Tallow Lane, in 1861. "
                 "Ada Pell of Orlby Farm paid for the roof.")
    found = find_answer("What did Ivo Marr do for a living?", [note])
    assert found.short_answer == "stonemason"
    assert all(not name[:1].isupper() for name, _ in found.candidates)  # no name is a calling


def test_the_finder_answers_what_colour_with_a_colour_word():
    note = _note("The Orlby Bakery van was painted maroon in 1958, with gold lettering by Ivo Marr.")
    assert find_answer("What colour was the Orlby Bakery van?", [note]).short_answer == "maroon"


def test_a_plain_noun_of_the_kind_asked_fits_and_one_of_another_kind_does_not():
    said = "The Orlby Bakery van was painted maroon in 1958."
    colour = _chain("What colour was the Orlby Bakery van?", "maroon", said)
    assert type_fit(colour)[0] == 1.0
    assert assess(colour).confidence == 1.0  # the colour word itself tells the colour asked
    other = _chain("What colour was the Orlby Bakery van?", "van", said)
    assert type_fit(other)[0] < 1.0


def test_a_calling_is_told_by_a_noun_for_work_and_not_by_a_name_or_a_post():
    said = "The chapel was built by Ivo Marr, stonemason, of Tallow Lane."
    work = _chain("What did Ivo Marr do for a living?", "stonemason", said)
    assert type_fit(work)[0] == 1.0
    named = _chain("What did Ivo Marr do for a living?", "Tallow Lane", said)
    post = _chain("What did Ivo Marr do for a living?", "treasurer", said)
    assert type_fit(named)[0] < 1.0 and type_fit(post)[0] < 1.0


def test_what_type_of_asks_for_a_kind_of_that_noun_whatever_its_class():
    assert asked_kind("What type of vessel was the Orlby Lass?") == "vessel"
    row = "Year: 1898; Name: Orlby Lass; Type: ketch; Built for: Ivo Marr, Kesh; Timber: larch"
    chain = _chain("What type of vessel was the Orlby Lass?", "ketch", row)
    assert type_fit(chain)[0] == 1.0
    place = _chain("What type of vessel was the Orlby Lass?", "Kesh", row)
    assert assess(place).confidence < assess(chain).confidence


def test_a_kinship_question_asks_for_a_relative_not_an_explanation():
    said = "Ivo Marr: Grandfather of Ada Pell (she is his daughter's girl)."
    chain = Chain(question="How was Ivo Marr related to Ada Pell?", answer="grandfather", kind="name",
                  stating=(said,), read=(said,))
    assert type_fit(chain)[0] == 1.0


def test_a_kind_of_anything_is_no_kind_a_plain_word_answers():
    assert asked_kind("What kind of thing was the Orlby Lass?") == ""
    assert asked_kind("What sort of object is the Kesh stone?") == ""
