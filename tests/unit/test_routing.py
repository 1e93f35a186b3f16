"""The conditional edges: fan-out over the search chain, gate, reflect and critic routing (the rules they apply are
tested in test_policy.py)."""

from __future__ import annotations

from langgraph.types import Send

from satiate.graph.routing import dispatch_searches, route_after_critic, route_after_gate, route_after_reflect
from satiate.state.settings import Settings

SETTINGS = Settings(data_dir="/tmp/unused", seed=7)


def state(**fields) -> dict:
    return {"resolved_settings": SETTINGS.model_dump(mode="json"), **fields}


def test_dispatch_fans_out_one_send_per_query_with_round_and_chain():
    queries = [{"query": q, "angle": "question", "intent": "", "origin": "plan"} for q in ("a b", "c d", "e f")]
    sends = dispatch_searches(state(pending_queries=queries, search_round=1, cycle=2))
    assert all(isinstance(s, Send) and s.node == "gather" for s in sends)
    assert [s.arg["query"]["query"] for s in sends] == ["a b", "c d", "e f"]
    assert {s.arg["round"] for s in sends} == {2} and {s.arg["cycle"] for s in sends} == {2}
    assert dispatch_searches(state(pending_queries=[])) == "synthesize"


def test_gate_routes_accepted_to_compress_failed_to_reflect_else_synthesize():
    def verdict(decision):
        return state(novelty_scores=[{"decision": decision}])

    assert route_after_gate(verdict("accepted")) == "compress"
    assert route_after_gate(verdict("failed")) == "reflect"
    assert route_after_gate(verdict("saturated")) == "synthesize"
    assert route_after_gate(verdict("circuit_open")) == "synthesize"


def test_reflect_keeps_searching_below_minimum_even_when_sufficient():
    pending = [{"query": "x y", "angle": "gap", "intent": "", "origin": "reflect"}]
    assert isinstance(route_after_reflect(state(search_round=1, sufficient=True, pending_queries=pending)), list)
    assert route_after_reflect(state(search_round=2, sufficient=True, pending_queries=pending)) == "synthesize"
    assert isinstance(route_after_reflect(state(search_round=2, sufficient=False, pending_queries=pending)), list)
    assert route_after_reflect(state(search_round=5, sufficient=False, pending_queries=pending)) == "synthesize"
    assert route_after_reflect(state(search_round=3, sufficient=False, pending_queries=[])) == "synthesize"
    spent = state(search_round=3, sufficient=False, pending_queries=pending, elapsed_s=10_000.0)
    assert route_after_reflect(spent) == "synthesize"


def test_after_critic_stop_reason_finalizes_and_empty_recheck_resynthesizes():
    assert route_after_critic(state(stop_reason="converged")) == "finalize"
    assert route_after_critic(state(pending_queries=[])) == "synthesize"


def test_dispatch_synthesizes_when_every_working_backend_rests_for_the_cycle():
    dry = [{"cycle": 1, "new_by_backend": {"corpus": 0}}] * 2
    pending = [{"query": "x y", "angle": "gap", "intent": "", "origin": "reflect"}]
    resting = {"resolved_settings": SETTINGS.model_dump(mode="json"), "cycle": 1, "pending_queries": pending,
               "novelty_scores": dry, "search_results": [], "corpus": None}
    resting["resolved_settings"]["backends"] = ["builtin"]
    dry_builtin = [{"cycle": 1, "new_by_backend": {"builtin": 0}}] * 2
    assert dispatch_searches({**resting, "novelty_scores": dry_builtin}) == "synthesize"
