"""What the question's wording asks of its answer: a day when it asks "on what date", a count when it asks for a
turnout, and a verb with its particle when it asks through one."""

from __future__ import annotations

from satiate.engine.answer import candidate_spans, expected_answer
from satiate.engine.reading.chain import Chain, asked_verb
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import type_fit


def test_a_year_alone_does_not_say_on_what_date():
    question = "On what date did the Orlby reading room open?"
    year = Chain(question=question, answer="1904", kind="date", stating=("The Orlby reading room opened in 1904.",))
    fit, why = type_fit(year)
    assert fit < 1.0 and "which day" in why
    day = Chain(question=question, answer="12 May 1904", kind="date",
                stating=("The Orlby reading room opened on 12 May 1904.",))
    assert type_fit(day)[0] == 1.0
    asked_year = Chain(question="In what year did the Orlby reading room open?", answer="1904", kind="date",
                       stating=("The Orlby reading room opened in 1904.",))
    assert type_fit(asked_year)[0] == 1.0


def test_a_turnout_or_a_headcount_is_a_number():
    assert expected_answer("What was the usual turnout for the Orlby quiz night?").kind == "number"
    assert expected_answer("What was the headcount for the Orlby fete?").kind == "number"
    assert expected_answer("What was the venue of the Orlby quiz night?").kind == "name"


def test_a_verb_asked_with_its_particle_is_not_stated_by_the_verb_with_another():
    question = "What did the damp in the Orlby vestry turn out to be?"
    damp = "The Orlby vestry has been damp since 1990."
    other = "Jos Teller turns up at every Harvest Supper."
    same = "The damp turned out to be the Tarn Drain, blocked since 1950."
    other_act = assess(Chain(question=question, answer="Harvest Supper", kind="name", stating=(other,), hops=(damp,),
                             read=(other, damp)))
    told = assess(Chain(question=question, answer="Tarn Drain", kind="name", stating=(same,), hops=(damp,),
                        read=(same, damp)))
    assert "'turn'" in " ".join(other_act.missing)
    assert told.factors["coverage"] == 1.0 and other_act.factors["coverage"] < 1.0


def test_how_much_a_fund_gives_or_raises_is_a_sum_of_money():
    assert expected_answer("How much will the Orlby trust give for the new roof?").direction == "money"
    assert expected_answer("How much did the jumble sale raise?").direction == "money"
    years = Chain(question="How much will the Orlby trust give for the new roof?", answer="5", kind="number",
                  stating=("The survey says the roof needs doing within 5 years.",))
    assert type_fit(years)[0] < 1.0


def test_a_number_in_a_short_written_date_counts_nothing():
    asked = expected_answer("What was the usual turnout for the Orlby work day?")
    assert candidate_spans("Thu 3 Nov 22 - Orlby, ditching by the lane.", asked) == []
    assert candidate_spans("Oct 5, 14 volunteers turned up.", asked) == ["14"]


def test_a_rent_a_wage_or_a_fare_is_a_sum_even_when_someone_owns_it():
    assert expected_answer("What was Ivo Marr's annual rent on the forge?").kind == "number"
    assert expected_answer("What was his weekly wage at the tannery?").kind == "number"
    assert expected_answer("What is the Orlby ferry's fare?").kind == "number"
    assert expected_answer("What was Ivo Marr's maiden name?").kind == "name"  # a name, however it is owned
    rent = Chain(question="What was Ivo Marr's annual rent on the forge?", answer="Ada Pell", kind="name",
                 stating=("The forge was let to Ivo Marr by Ada Pell at £30 a year.",))
    assert type_fit(rent)[0] < 1.0


def test_a_verb_with_its_particle_ending_the_question_is_the_act_asked():
    question = "In what year was the Orlby ferry company set up?"
    row = "Year: 1962; Crossing: Orlby Reach; Orlby: 3 sailings; Harlby: 2 sailings"
    match_year = assess(Chain(question=question, answer="1962", kind="date", stating=(row,), read=(row,)))
    assert match_year.confidence < 0.8 and any("'set'" in gap for gap in match_year.missing)
    founded = "The Orlby ferry company was founded in 1908 by the ferryman."
    assert assess(Chain(question=question, answer="1908", kind="date", stating=(founded,),
                        read=(founded,))).confidence == 1.0


def test_a_verb_before_as_and_the_role_it_is_done_in_is_the_act_asked():
    question = "What year did Ivo Marr start as ferry clerk at Orlby Quay?"
    assert asked_verb(Chain(question=question, answer="", kind="date", stating=())) == "start"
    assert asked_verb(Chain(question="When did Ada Pell leave Orlby?", answer="", kind="date", stating=())) == "leave"
