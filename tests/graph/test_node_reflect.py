"""The reflect node on its own: is what was read sufficient, and if not, which queries go next. A bridge named in a
source is followed as a breadcrumb, this cycle's failed search is reformulated, nothing already sent is sent again,
and each query is labelled with where it came from."""

from __future__ import annotations

import pytest

from satiate.engine.base import Decision
from satiate.nodes.common import error_record
from satiate.nodes.reflect import make_reflect_node
from satiate.state.contracts import PlanQueryModel, ReflectionResponse
from satiate.tools.text import normalize_query
from support.node_states import (
    EngineWith,
    node_deps,
    resolved,
    search_record,
    stored_sources,
)
from support.research_corpus import PASSAGES, QUESTION

PASSAGE = {p["doc_id"]: p for p in PASSAGES}


@pytest.fixture
def reflect(isolated_data_dir):
    """reflect(read=[doc ids], search_round=<rounds done>, searches=[search_record fields], engine=..., **settings)."""

    def run(read, *, search_round=2, searches=(), engine=None, **overrides) -> dict:
        settings = resolved(isolated_data_dir, **overrides)
        state = {"question": QUESTION, "resolved_settings": settings, "cycle": 2, "search_round": search_round,
                 "sources": stored_sources(settings, [PASSAGE[d] for d in read]), "knowledge_state": "",
                 "search_results": [search_record(settings, [], **fields) for fields in searches]}
        return make_reflect_node(node_deps(engine))(state)

    return run


def queries(update: dict) -> list[str]:
    return [q["query"] for q in update["pending_queries"]]


def test_an_answer_supported_by_what_was_read_is_sufficient_once_the_minimum_rounds_are_done(reflect):
    done = reflect(["lumen", "harbor", "pell-bio"], search_round=2, answer_signoff_score=0.1, searches_per_task=2)
    assert done["sufficient"] is True and done["pending_queries"] == []
    early = reflect(["lumen", "harbor", "pell-bio"], search_round=1, answer_signoff_score=0.1, searches_per_task=2)
    assert early["sufficient"] is False and early["pending_queries"]


def test_a_bridge_named_in_a_source_is_followed_as_a_breadcrumb(reflect):
    update = reflect(["lumen"], answer_signoff_score=1.0)
    assert update["sufficient"] is False
    crumbs = [q for q in update["pending_queries"] if q["origin"] == "breadcrumb"]
    harbor = next(q for q in crumbs if q["breadcrumb"] == "Harbor Works")
    assert harbor["angle"] == "breadcrumb" and harbor["query"].startswith("Harbor Works")
    assert "founded" in harbor["query"]  # the bridge with the relation the question still asks about
    assert all(q["origin"] == "reflect" for q in update["pending_queries"] if q["angle"] != "breadcrumb")


def test_a_failed_search_of_this_cycle_is_reformulated_and_one_of_an_earlier_cycle_is_not(reflect):
    failed = {"query": "Lumen kettle maker company founder history", "outcome": "failed_final", "error": "HTTP 429"}
    update = reflect(["lumen"], answer_signoff_score=1.0, searches=[{**failed, "cycle": 2}])
    [again] = [q for q in update["pending_queries"] if q["origin"] == "reformulation"]
    assert again["intent"] == f"reformulation of '{failed['query']}'"
    assert normalize_query(again["query"]) != normalize_query(failed["query"])
    assert set(again["query"].split()) <= set(failed["query"].lower().split())  # a simpler form of the same words
    before = reflect(["lumen"], answer_signoff_score=1.0, searches=[{**failed, "cycle": 1}])
    assert not [q for q in before["pending_queries"] if q["origin"] == "reformulation"]


def test_no_query_already_sent_is_asked_again(reflect):
    first = reflect(["lumen"], answer_signoff_score=1.0)
    sent = [{"query": q, "cycle": 2, "search_round": 2} for q in queries(first)[:1]]
    second = reflect(["lumen"], answer_signoff_score=1.0, searches=sent)
    asked = {normalize_query(q) for q in queries(second)}
    assert normalize_query(sent[0]["query"]) not in asked and asked


def test_the_engines_queries_are_labelled_by_origin_and_its_costs_and_errors_recorded(reflect):
    proposed = [PlanQueryModel(query="Ada Pell engineer Bristol", intent="breadcrumb: Ada Pell", angle="breadcrumb"),
                PlanQueryModel(query="Lumen kettle maker", intent="reformulation of 'Lumen kettle made by whom'",
                               angle="question"),
                PlanQueryModel(query="Harbor Works founder year", intent="a gap", angle="gap")]
    trouble = error_record("reflect", "model_output_invalid", "repaired an answer", cycle=2, round=2)
    engine = EngineWith(reflect=lambda view: Decision(
        ReflectionResponse(sufficient=False, confidence=0.4, new_queries=proposed), tokens=12, model_calls=1,
        errors=[trouble]))
    update = reflect(["lumen"], engine=engine)
    assert [(q["query"], q["origin"], q.get("breadcrumb")) for q in update["pending_queries"]] == [
        ("Ada Pell engineer Bristol", "breadcrumb", "Ada Pell"),
        ("Lumen kettle maker", "reformulation", None),
        ("Harbor Works founder year", "reflect", None)]
    assert update["sufficient"] is False and update["tokens_used"] == 12
    assert update["counters"]["model_calls"] == 1 and update["error_log"] == [trouble]
    [(name, view)] = engine.calls
    assert name == "reflect" and [s["text"] for s in view.sources] == [PASSAGE["lumen"]["text"]]


def test_the_engines_queries_are_capped_at_the_rounds_query_budget(reflect):
    proposed = [PlanQueryModel(query=f"Harbor Works question {n}", intent="a gap", angle="gap") for n in range(9)]
    engine = EngineWith(reflect=lambda view: Decision(
        ReflectionResponse(sufficient=False, confidence=0.4, new_queries=proposed)))
    update = reflect(["lumen"], engine=engine, max_queries_per_round=3)
    assert queries(update) == [q.query for q in proposed[:3]]
