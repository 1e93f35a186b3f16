"""The finder's general rules, each on an invented example: where a name ends, what a number counts, what the
question's noun asks for, which candidate the finder prefers."""

from __future__ import annotations

from satiate.engine.answer import Expected, candidate_spans, expected_answer
from satiate.engine.reading.names import name_spans


def test_a_full_stop_ends_a_name_unless_it_marks_an_initial_or_an_abbreviation() -> None:
    assert name_spans("The pride of the guild is Marrow. The critics disagreed.") == ["Marrow"]
    assert name_spans("It was built by Tomas Verrel. Later Ada Pell came.")[0] == "Tomas Verrel"
    assert name_spans("G. Stanley Hall met Ken St. Andre at the U.S. Navy yard.") == [
        "G. Stanley Hall", "Ken St. Andre", "U.S. Navy"]


def test_a_number_glued_to_letters_is_a_rank_or_a_code_not_a_count() -> None:
    spans = candidate_spans("Its 10th album sold in more than 70 countries, flown there in B29 planes.",
                            Expected("number"), counted="countries")
    assert spans == ["more than 70"]


def test_a_plural_question_noun_asks_for_the_same_kind_as_its_singular() -> None:
    assert expected_answer("During what years did Ada Pell chair the Tarrow council?").kind == "date"
    assert expected_answer("In which counties does the Gull River flow?").kind == "place"
