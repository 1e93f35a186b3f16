"""The plan node on its own: it validates the question, fixes the run's settings (and seed) into the state, and
hands the first round its queries, the question itself first and the angles after it."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from satiate.engine.model import ModelEngine
from satiate.graph.deps import complete
from satiate.nodes.common import Dependencies
from satiate.nodes.plan import QuestionError, make_plan_node
from satiate.state.settings import Settings, SettingsError
from support.node_states import node_deps
from support.research_corpus import QUESTION
from support.scripted_chat import ScriptedChatModel


def plan(question, runtime=None, deps: Dependencies | None = None, **settings) -> dict:
    node = make_plan_node(deps or node_deps())
    return node({"question": question, "settings": {"corpus": "kettles.jsonl", "backends": ["corpus"], **settings}},
                runtime)


@pytest.mark.parametrize("question", ["", "   \n\t ", None])
def test_an_empty_question_is_refused_with_what_to_do(question):
    with pytest.raises(QuestionError, match="the question is empty: ask something"):
        plan(question)


def test_a_question_over_the_limit_is_refused_naming_the_setting_and_spacing_does_not_count():
    limit = r"the question is 41 characters; the limit is 40 \(setting max_question_chars\)"
    with pytest.raises(QuestionError, match=limit):
        plan("x" * 41, max_question_chars=40)
    # runs of spaces and line breaks collapse before the length is measured, and the stored question is the clean one
    update = plan("  Who   makes\n the Lumen  kettle?  " + " " * 60, max_question_chars=40)
    assert update["question"] == "Who makes the Lumen kettle?"
    assert update["target"] == update["question"]


def test_settings_resolve_in_the_documented_order_and_are_stored_for_the_run(monkeypatch):
    monkeypatch.setenv("SATIATE_NOVELTY_THRESHOLD", "7")
    monkeypatch.setenv("SATIATE_MAX_SEARCH_ROUNDS", "9")
    monkeypatch.setenv("SATIATE_ANGLE_RESULTS", "4")
    studio = SimpleNamespace(context={"novelty_threshold": 5, "max_search_rounds": 6, "angle_results": None})
    update = plan(QUESTION, runtime=studio, max_search_rounds=3)
    stored = Settings.model_validate(update["resolved_settings"])
    assert stored.max_search_rounds == 3  # the question's own settings beat the form ...
    assert stored.novelty_threshold == 5  # ... the form beats the environment ...
    assert stored.angle_results == 4  # ... a blank form field is "not chosen", so the environment shows through
    assert stored.corpus == "kettles.jsonl" and stored.llm == "none"
    with pytest.raises(SettingsError, match="novelty_threshold"):
        plan(QUESTION, novelty_threshold=11)


def test_a_seed_is_chosen_and_stored_when_none_is_given_and_kept_when_one_is():
    chosen = [plan(QUESTION)["resolved_settings"]["seed"] for _ in range(3)]
    assert all(isinstance(seed, int) and seed >= 0 for seed in chosen)
    assert len(set(chosen)) > 1  # drawn per run, so two runs do not share their ε draws by accident
    assert plan(QUESTION, seed=42)["resolved_settings"]["seed"] == 42


def test_the_question_goes_first_then_the_angles_the_backends_suit_under_the_cap():
    local = plan(QUESTION)
    queries = local["pending_queries"]
    assert queries[0] == {"query": QUESTION, "angle": "question", "intent": "the target as asked", "origin": "plan"}
    corpus_angles = Settings.model_validate(local["resolved_settings"]).corpus_angles
    angles = [q["angle"] for q in queries[1:]]
    assert set(angles) <= set(corpus_angles) and "counter_argument" in angles
    assert all(q["origin"] == "plan" for q in queries)
    # a web search gets the angles a search engine understands as well (time window, source type)
    web = plan(QUESTION, backends=["web"], offline=False, corpus=None)["pending_queries"]
    assert {"time_window", "source_type"} <= {q["angle"] for q in web}
    capped = plan(QUESTION, backends=["web"], offline=False, corpus=None, max_queries_per_round=2)["pending_queries"]
    assert [q["query"] for q in capped] == [q["query"] for q in web[:2]]
    # the loop starts at cycle 1 before its first round, with nothing signed off and not degraded
    assert {k: local[k] for k in ("cycle", "search_round", "clean_signoffs", "degraded_mode", "engine")} == \
        {"cycle": 1, "search_round": 0, "clean_signoffs": 0, "degraded_mode": False, "engine": "deterministic"}


def model_plan_deps(reply: str) -> tuple[Dependencies, ScriptedChatModel]:
    model = ScriptedChatModel(responder=lambda call: reply)
    return complete(Dependencies(engine_for=lambda s: ModelEngine(model, s, label="model:scripted"),
                                 search_for=lambda s: None)), model  # type: ignore[arg-type,return-value]


def test_a_model_planners_tier_sets_the_budget_unless_the_user_chose_one():
    reply = json.dumps({"tier": "deep", "queries": [
        {"query": "Harbor Works kettle maker", "intent": "who makes it", "angle": "entity"},
        {"query": "Lumen kettle energy efficiency criticism", "intent": "the case against",
         "angle": "counter_argument"},
    ]})
    deps, model = model_plan_deps(reply)
    update = plan(QUESTION, deps=deps, llm="ollama:scripted")
    assert update["resolved_settings"]["tier"] == "deep" and update["engine"] == "model:scripted"
    assert [q["query"] for q in update["pending_queries"]] == [
        QUESTION, "Harbor Works kettle maker", "Lumen kettle energy efficiency criticism"]
    assert update["counters"]["model_calls"] == len(model.calls) == 1 and update["tokens_used"] > 0
    assert plan(QUESTION, deps=deps, llm="ollama:scripted", tier="simple")["resolved_settings"]["tier"] == "simple"


def test_a_model_plan_that_never_parses_falls_back_on_record():
    deps, model = model_plan_deps("I would search for kettles, I think.")
    update = plan(QUESTION, deps=deps, llm="ollama:scripted")
    assert update["pending_queries"][0]["query"] == QUESTION  # the deterministic plan answered instead
    assert update["counters"]["model_fallbacks"] == 1 and update["counters"]["model_calls"] == len(model.calls)
    [error] = update["error_log"]
    assert error["node"] == "plan" and error["type"] == "model_output_invalid"
    assert "deterministic engine answered" in error["message"]
