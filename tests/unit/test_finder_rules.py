"""The finder's general rules, each on an invented example: where a name ends, what a number counts, what the
question's noun asks for, which candidate the finder prefers."""

from __future__ import annotations

from satiate.engine.answer import (
    Expected,
    candidate_spans,
    chained_roles,
    expected_answer,
    find_answer,
    joined_subjects,
)
from satiate.engine.reading.kinds import asked_phrase, described_as, kind_share
from satiate.engine.reading.names import name_spans


def test_a_full_stop_ends_a_name_unless_it_marks_an_initial_or_an_abbreviation() -> None:
    assert name_spans("The pride of the guild is Marrow. The critics disagreed.") == ["Marrow"]
    assert name_spans("It was built by Tomas Verrel. Later Ada Pell came.")[0] == "Tomas Verrel"
    assert name_spans("J. Marlow Pell met Ada St. Clair at the N.W. Harbour Board yard.") == [
        "J. Marlow Pell", "Ada St. Clair", "N.W. Harbour Board"]


def test_a_number_glued_to_letters_is_a_rank_or_a_code_not_a_count() -> None:
    spans = candidate_spans("Its 10th album sold in more than 40 harbours, shipped there in B29 crates.",
                            Expected("number"), counted="harbours")
    assert spans == ["more than 40"]


def test_a_plural_question_noun_asks_for_the_same_kind_as_its_singular() -> None:
    assert expected_answer("During what years did Ada Pell chair the Tarrow council?").kind == "date"
    assert expected_answer("In which counties does the Gull River flow?").kind == "place"


def _source(title: str, text: str) -> dict:
    return {"id": "S1", "key": f"doc:{title}", "title": title, "text": text, "url": ""}


def test_a_name_cut_by_a_nickname_in_a_pages_opening_sentence_is_shown_as_the_pages_title() -> None:
    sources = [_source("Lucan Lucan Morrow", 'Lucan "Lucan" Ide Morrow (born 3 June 1990) is a Welsh harbour pilot '
                       "who won the Tarrow Cup. His father, Peter Morrow, was a boatwright.")]
    found = find_answer("Which Welsh harbour pilot born 3 June 1990 won the Tarrow Cup?", sources)
    assert found.short_answer == "Lucan Lucan Morrow"
    relative = find_answer("Which boatwright was the father of the Tarrow Cup winner?", sources)
    assert relative.short_answer == "Peter Morrow"  # named later on the page: a relative, not the page's subject


def test_the_question_names_its_answer_by_the_noun_phrase_after_what_or_which() -> None:
    assert asked_phrase("Which Welsh coastal glider was flown from Tarrow?") == ["welsh", "coastal", "glider"]
    assert asked_phrase("What kind of ferry crosses the Gull Sound?") == ["ferry"]
    assert asked_phrase("In what year did the Tarrow mill close?") == ["year"]
    assert asked_phrase("What is the Tarrow mill?") == []  # the question word is followed by its verb
    assert asked_phrase("Who ran the town in which Ada Pell was born?") == []  # a relative "which" names no answer
    assert asked_phrase("What was the name of the 1951 river ferry built in Tarrow?") == ["river", "ferry"]


def test_a_name_the_sources_define_by_the_questions_noun_and_its_modifiers_is_the_kind_asked_for() -> None:
    sentences = [("Harcastle Kestrel is a Welsh coastal glider built in Tarrow.", "Harcastle Kestrel", 0),
                 ("The Velmo Swift is a Danish coastal glider.", "Velmo Swift", 0),
                 ("It is a coastal glider school.", "Gull Point Club", 3)]  # "It" far into a page: no subject known
    described = described_as(["welsh", "coastal", "glider"], sentences)
    assert described == {"harcastle kestrel": 1.0, "velmo swift": 0.5}
    assert kind_share("Kestrel", described) == 1.0  # a short form counts as its full name
    assert kind_share("Tarrow", described) is None
    # what a definition says its subject *is* ends at its first preposition: a song by a glider pilot is no glider
    assert described_as(["glider"], [("Blue Wing is a song by the glider pilot Ada Pell.", "Blue Wing", 0)]) == {}


def test_a_bridge_the_sources_call_by_the_questions_noun_is_the_answer_even_when_it_echoes_the_question() -> None:
    sources = [_source("Ada Pell", "Ada Pell is a Welsh writer. She wrote Gullmoor Tales in 1990."),
               _source("Gullmoor Tales", "Gullmoor Tales is a 1990 comic novel and a loose retelling of the legend "
                       '"Gullmoor Rising" from Harrow Press.')]
    found = find_answer('What was the name of the 1990 loose retelling of the legend "Gullmoor Rising" written by '
                        "Ada Pell?", sources)
    assert found.short_answer == "Gullmoor Tales"


def test_two_people_joined_by_and_are_two_candidates_not_one_name() -> None:
    spans = candidate_spans("It was written by Ada Pell and Tom Marsh.", Expected("person"))
    assert spans == ["Ada Pell", "Tom Marsh"]


def test_a_stretch_of_time_is_answered_by_a_span_of_years_not_by_one_year() -> None:
    asked = expected_answer("During what years did Ada Pell chair the Tarrow council?")
    assert asked.direction == "span"
    assert candidate_spans("She chaired it from 1952 to 1958 and again in 1980.", asked) == ["from 1952 to 1958"]
    assert candidate_spans("She joined the council in 1980.", asked) == []  # one year is the wrong shape
    assert expected_answer("In what year did Ada Pell join the council?").direction == "year"


def test_one_answer_for_two_named_subjects_must_be_stated_about_each() -> None:
    sources = [_source("Gull Point Light", "Gull Point Light is a lighthouse on Tarrow Head. It is located in the "
                       "Velmora Coast park."),
               _source("Harrow Rock Light", "Harrow Rock Light is a lighthouse located on Marrow Isle. The isle lies "
                       "within the Velmora Coast park.")]
    found = find_answer("Where are Gull Point Light and Harrow Rock Light located?", sources)
    assert found.short_answer == "Velmora Coast"


def test_only_names_either_side_of_and_are_two_subjects() -> None:
    assert joined_subjects("Where are Gull Point Light and Harrow Rock Light located?") == (
        "Gull Point Light", "Harrow Rock Light")
    assert joined_subjects("Which Welsh pilot and writer flew the Kestrel?") is None


def test_a_name_labelled_with_a_role_the_question_passes_through_is_not_the_answer() -> None:
    assert chained_roles("Who is the spouse of the director of Gull Rock?") == ["spous", "director"]
    sources = [_source("Gull Rock (film)", "Gull Rock is a 1937 film by Tomas Verrel. Its sets were designed by the "
                       "art director Piet Hollan."),
               _source("Tomas Verrel", "Tomas Verrel was a Welsh film maker. His spouse was Mira Castellane.")]
    found = find_answer("Who is the spouse of the director of Gull Rock?", sources)
    assert found.short_answer == "Mira Castellane"
