"""The bold answer on a folder of invented notes with the traps a new user meets: a town no note mentions, a place
nearest a "who", a two-hop chain, a "what does X return" question, a thing no note mentions beside one it does, what
someone founded offered as who founded, a relative sharing a surname, and a nested "the spouse of the founder". A
bold answer must be right, or absent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from satiate.state.contracts import AgentResponse, ResearchResult
from support.graph_support import build, corpus_deps, run_settings

NOTES = Path(__file__).resolve().parents[1] / "support" / "trap_notes"


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    shutil.copytree(NOTES, folder)
    return folder


def research(question: str, notes: Path, data_dir: Path) -> ResearchResult:
    deps, _ = corpus_deps(notes, data_dir)
    app = build(deps)
    output = app.invoke({"question": question, "settings": run_settings(notes, data_dir)},
                        {"configurable": {"thread_id": "t"}})
    return ResearchResult.model_validate(output["result"])


def test_a_town_no_note_mentions_gets_no_bold_answer(notes, isolated_data_dir):
    result = research("Who is the mayor of Kelderwick?", notes, isolated_data_dir)
    assert result.short_answer is None
    assert "**" not in result.answer.split("\n\n")[0]
    assert "Kelderwick" in result.short_answer_reason
    assert result.answer.startswith("The sources read do not settle the question") and "Kelderwick" in \
        result.answer.split("\n\n")[0]  # the lead says plainly what is missing
    assert result.short_answer_confidence is None or result.short_answer_confidence < 0.5


def test_a_sentence_about_a_neighbouring_town_does_not_answer_for_this_one(notes, isolated_data_dir):
    # Gallowfen's note names Dunmarrow, whose note names its mayor: that is no answer about Gallowfen's mayor.
    result = research("Who is the mayor of Gallowfen?", notes, isolated_data_dir)
    assert result.short_answer is None
    assert result.answer.startswith("The sources read do not settle the question")


def test_who_founded_gets_the_person_never_the_place(notes, isolated_data_dir):
    result = research("Who founded Quillmere Tea Estate?", notes, isolated_data_dir)
    assert result.short_answer != "Mount Ardal"
    assert result.short_answer == "Ines Harrowgate"
    assert result.answer.startswith("**Ines Harrowgate**")


def test_a_two_hop_chain_is_answered_from_the_hop_sentence(notes, isolated_data_dir):
    result = research("Who built the cider press of the orchard that Wenna Tolliver founded?", notes,
                      isolated_data_dir)
    assert result.short_answer in (None, "Piet Saran")
    assert result.short_answer_candidate != "Iron Mule" or result.short_answer is None
    assert result.short_answer == "Piet Saran"


def test_what_a_function_returns_gets_no_bold_name(notes, isolated_data_dir):
    result = research("What does the frobnicate function return?", notes, isolated_data_dir)
    assert result.short_answer is None
    lead = result.answer.split("\n\n")[0]
    assert "**" not in lead and "returns a list of tuples" in lead  # the sentence that answers it leads instead


def test_the_agent_output_carries_the_confidence_and_the_uncommitted_candidate(notes, isolated_data_dir):
    result = research("Who is the mayor of Kelderwick?", notes, isolated_data_dir)
    agent = AgentResponse.from_result(result).model_dump()
    assert "short_answer_confidence" in agent and agent["short_answer"] is None
    assert agent["short_answer_candidate"] == result.short_answer_candidate


def test_a_thing_the_notes_mention_beside_the_town_does_not_answer_for_it(notes, isolated_data_dir):
    # Kelvale's note dates its town hall; no note mentions a library there.
    result = research("When was the Kelvale library built?", notes, isolated_data_dir)
    assert result.short_answer is None and "Kelvale library" in result.short_answer_reason


def test_what_someone_founded_does_not_answer_who_founded_it(notes, isolated_data_dir):
    # "Wenna Tolliver founded Hollowbrook Orchard ... east of Dunmarrow": the orchard founded nothing.
    result = research("Who founded Dunmarrow?", notes, isolated_data_dir)
    assert result.short_answer is None
    assert research("Who founded Hollowbrook Orchard?", notes, isolated_data_dir).short_answer == "Wenna Tolliver"


def test_a_relative_sharing_the_surname_is_the_answer_not_the_subject(notes, isolated_data_dir):
    result = research("Who trained Ines Harrowgate?", notes, isolated_data_dir)
    assert result.short_answer == "Tomas Harrowgate"


def test_the_founder_does_not_answer_who_the_founders_spouse_is(notes, isolated_data_dir):
    result = research("Who is the spouse of the founder of Quillmere Tea Estate?", notes, isolated_data_dir)
    assert result.short_answer in (None, "Jory Vell")
    assert result.short_answer != "Ines Harrowgate"


# Notes as people keep them: list items, labelled fields and bold lead-ins, a relation in other words than the
# question's ("set up" for "founded"), a count in words, a denial, a relative named only as an owner.
def test_a_list_item_that_says_it_in_other_words_answers_who_founded(notes, isolated_data_dir):
    result = research("Who founded Corlett Foundry?", notes, isolated_data_dir)
    assert result.short_answer == "Wilma Corlett"


def test_a_labelled_field_leads_to_the_second_hop(notes, isolated_data_dir):
    result = research("Where was the builder of Corlett Foundry born?", notes, isolated_data_dir)
    assert result.short_answer == "Quellbury"


def test_a_count_written_in_words_answers_how_many(notes, isolated_data_dir):
    result = research("How many bells did Corlett Foundry cast for the church of St Oda?", notes, isolated_data_dir)
    assert result.short_answer == "nine"


def test_a_sentence_that_denies_the_act_does_not_answer_who_did_it(notes, isolated_data_dir):
    result = research("Who cast the Brannock clock bell?", notes, isolated_data_dir)
    assert result.short_answer != "Wilma Corlett" and result.short_answer_candidate != "Wilma Corlett"


def test_a_relative_named_only_as_an_owner_is_no_birthplace(notes, isolated_data_dir):
    result = research("Where was Piran Corlett born?", notes, isolated_data_dir)
    assert result.short_answer is None
