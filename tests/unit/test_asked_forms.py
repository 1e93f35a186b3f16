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
    assert candidate_spans("2022-11-03 Orlby, ditching by the lane.", asked) == []  # a date in figures alone
    assert candidate_spans("03/11/2022: 14 volunteers turned up.", asked) == ["14"]


def test_a_rent_a_wage_or_a_fare_is_a_sum_even_when_someone_owns_it():
    assert expected_answer("What was Ivo Marr's annual rent on the forge?").kind == "number"
    assert expected_answer("What was his weekly wage at the tannery?").kind == "number"
    assert expected_answer("What is the Orlby ferry's fare?").kind == "number"
    assert expected_answer("What was Ivo Marr's maiden name?").kind == "name"  # a name, however it is owned
    rent = Chain(question="What was Ivo Marr's annual rent on the forge?", answer="Ada Pell", kind="name",
                 stating=("The forge was let to Ivo Marr by Ada Pell at £30 a year.",))
    assert type_fit(rent)[0] < 1.0


def test_a_noun_for_a_sum_paid_after_what_asks_a_sum_whatever_its_wording():
    for question in ("What weekly rent did the Orlby guild pay for the hall?", "What toll did the Kesh bridge charge?",
                     "What was the bridge toll at Orlby?", "What stipend did the curate draw?"):
        assert expected_answer(question).direction == "money", question
    for question in ("What make of van did the Orlby bakery run?", "What charge was brought against Ivo Marr?",
                     "What was the name of the Orlby ferry?"):
        assert expected_answer(question).direction != "money", question


def test_a_year_the_question_names_weighs_like_a_name_in_coverage():
    question = "Who led the Orlby brass band's weekly practice after Ada Pell retired in 1994?"
    undated = Chain(question=question, answer="Ivo Marr", kind="person",
                    stating=("Founding conductor of the Orlby brass band's weekly practice: Ivo Marr",),
                    hops=("Ada Pell led the Orlby brass band for years.",), answer_pages=("Band notes",),
                    hop_pages=("Band notes",), read=("Band notes. Founding conductor of the Orlby brass band's weekly "
                                                     "practice: Ivo Marr", "Log. Ada Pell retired in 1994."))
    judged = assess(undated)
    assert judged.confidence < 0.8 and any("'1994'" in gap for gap in judged.missing)
    told = "Ivo Marr led the Orlby brass band's weekly practice after Ada Pell retired in 1994."
    dated = Chain(question=question, answer="Ivo Marr", kind="person", stating=(told,), answer_pages=("Band notes",),
                  read=(f"Band notes. {told}",))
    assert assess(dated).confidence == 1.0


def test_a_count_in_words_with_hundreds_is_one_count():
    asked = expected_answer("How many sheep were lost in the Orlby flood?")
    assert candidate_spans("Two hundred and sixty sheep were lost in the Orlby flood.", asked)[0].lower().startswith(
        "two hundred and sixty")
    assert candidate_spans("A thousand and one sheep were lost in the Orlby flood.", asked)[0].lower().startswith(
        "a thousand and one")


def test_a_contracted_who_asks_for_a_person():
    assert expected_answer("Who's the keeper of the Orlby light now?").kind == "person"
    assert expected_answer("Who’s running the Kesh ferry?").kind == "person"


def test_what_became_of_a_thing_asks_its_fate_not_a_name():
    assert expected_answer("What became of the Orlby ferry?").kind == "description"
    assert expected_answer("What happened to the Kesh mill after the fire?").kind == "description"
    assert expected_answer("What was the Orlby ferry called?").kind == "name"


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


def test_a_stretch_that_opens_or_closes_at_the_answer_tells_when_it_began_or_ended():
    began = Chain(question="In what year did the Orlby night watch begin?", answer="1902", kind="date",
                  stating=("Predecessor: the Orlby night watch (unpaid, from 1902)",), answer_pages=("Notes",),
                  read=("Notes. Predecessor: the Orlby night watch (unpaid, from 1902)",))
    assert assess(began).confidence == 1.0
    ended = Chain(question="In what year did the Orlby night watch end?", answer="1931", kind="date",
                  stating=("The Orlby night watch kept going until 1931.",), answer_pages=("Notes",),
                  read=("Notes. The Orlby night watch kept going until 1931.",))
    assert assess(ended).confidence == 1.0
    other = Chain(question="In what year did the Orlby night watch end?", answer="1902", kind="date",
                  stating=("Predecessor: the Orlby night watch (unpaid, from 1902)",), answer_pages=("Notes",),
                  read=("Notes. Predecessor: the Orlby night watch (unpaid, from 1902)",))
    assert assess(other).confidence < 0.8  # the year it opened tells nothing of its end


def test_a_count_whose_clause_tells_no_act_asked_is_not_the_count_of_that_act():
    question = "How many boys finished their time at the Orlby tannery?"
    said = "Register: twelve boys at the Orlby tannery, but only three of them finished their time there."

    def judged(answer: str) -> float:
        return assess(Chain(question=question, answer=answer, kind="number", stating=(said,), answer_pages=("Ledger",),
                            read=(f"Ledger. {said}",))).confidence
    assert judged("twelve") < 0.8 and judged("three") == 1.0
    both = "The Orlby appeal raised 2,350 names; Ivo Marr raised some 300 of them himself."
    total = Chain(question="How many names did the Orlby appeal raise?", answer="2,350", kind="number",
                  stating=(both,), answer_pages=("Ledger",), read=(f"Ledger. {both}",))
    assert assess(total).confidence == 1.0  # its own clause tells the act
    worded = "Two hundred and sixty sheep were lost (260), mostly from Orlby."
    lost = Chain(question="How many sheep were lost in the Orlby flood?", answer="Two hundred and sixty",
                 kind="number", stating=(worded,), answer_pages=("The Orlby flood",),
                 read=(f"The Orlby flood. {worded}",))
    assert "counts what the question asks" not in " ".join(assess(lost).missing)
