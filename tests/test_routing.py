"""The conditional edges: saturation with the seeded ε pass-through, the circuit breaker, budgets, two sign-offs."""

from __future__ import annotations

from langgraph.types import Send

from satiate.graph.routing import (
    backend_circuit_open,
    budget_spent,
    dispatch_searches,
    epsilon_draw,
    live_backends,
    route_after_critic,
    route_after_gate,
    route_after_reflect,
    saturation_decision,
    stop_reason,
)
from satiate.state.settings import Settings

SETTINGS = Settings(data_dir="/tmp/unused", seed=7)


def record(outcome: str, backend: str = "web") -> dict:
    return {"outcome": outcome, "backend": backend}


def state(**fields) -> dict:
    return {"resolved_settings": SETTINGS.model_dump(mode="json"), **fields}


def test_minimum_rounds_are_always_accepted_even_with_zero_novelty():
    for search_round in (1, 2):
        assert saturation_decision(0, search_round, SETTINGS, draw=0.99) == (True, "minimum rounds")


def test_after_minimum_rounds_low_novelty_stops_unless_epsilon_draw_passes():
    assert saturation_decision(2, 3, SETTINGS, draw=0.5) == (False, "saturated")
    assert saturation_decision(2, 3, SETTINGS, draw=0.10) == (True, "epsilon pass-through")
    assert saturation_decision(3, 3, SETTINGS, draw=0.99) == (True, "novel")


def test_epsilon_draws_replay_with_the_same_seed_and_differ_across_seeds():
    first = [epsilon_draw(7, 1, r) for r in range(1, 30)]
    assert first == [epsilon_draw(7, 1, r) for r in range(1, 30)]
    assert first != [epsilon_draw(8, 1, r) for r in range(1, 30)]
    # about NOVELTY_EPSILON of draws pass: over many rounds the share is near 0.15
    draws = [epsilon_draw(3, c, r) for c in range(1, 40) for r in range(1, 40)]
    share = sum(d < 0.15 for d in draws) / len(draws)
    assert 0.11 < share < 0.19


def test_circuit_opens_after_three_consecutive_failures_and_at_half_failed():
    assert not backend_circuit_open([record("failed_retryable")] * 2, "web", SETTINGS)
    assert backend_circuit_open([record("ok"), *[record("failed_retryable")] * 3], "web", SETTINGS)
    half = [record("ok"), record("failed_final"), record("ok"), record("failed_final")]
    assert backend_circuit_open(half, "web", SETTINGS)
    # an empty answer is not a failure
    assert not backend_circuit_open([record("empty")] * 5, "web", SETTINGS)
    # failures of another backend do not count
    assert not backend_circuit_open([record("failed_final", "builtin")] * 5, "web", SETTINGS)


def test_fallback_chain_skips_backends_with_open_circuit():
    settings = Settings(data_dir="/tmp/unused", web=True)
    records = [record("failed_retryable", "web")] * 3
    assert settings.resolved_backends() == ["web", "builtin"]
    assert live_backends({"search_results": records}, settings) == ["builtin"]


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


def test_two_consecutive_signoffs_stop_and_one_does_not():
    assert stop_reason(state(clean_signoffs=1, cycle=1), SETTINGS) is None
    assert stop_reason(state(clean_signoffs=2, cycle=2), SETTINGS).startswith("converged")
    assert stop_reason(state(clean_signoffs=0, cycle=5), SETTINGS) == "cycle budget spent"
    assert stop_reason(state(degraded_mode=True), SETTINGS).startswith("degraded")


def test_budget_spent_on_time_or_tokens():
    assert budget_spent(state(elapsed_s=1.0, tokens_used=10), SETTINGS) is None
    assert budget_spent(state(elapsed_s=500.0), SETTINGS) == "time budget spent"
    assert budget_spent(state(tokens_used=300_000), SETTINGS) == "token budget spent"


def test_after_critic_stop_reason_finalizes_and_empty_recheck_resynthesizes():
    assert route_after_critic(state(stop_reason="converged")) == "finalize"
    assert route_after_critic(state(pending_queries=[])) == "synthesize"


def test_a_backend_rests_for_the_cycle_at_its_query_ceiling_or_after_duplicate_rounds():
    from satiate.graph.routing import backend_saturated

    settings = Settings(data_dir="/tmp/unused", seed=7, query_ceilings={"corpus": 3})
    used = [{"cycle": 1, "backend": "corpus", "outcome": "ok"}] * 3
    assert backend_saturated({"cycle": 1, "search_results": used}, "corpus", settings)
    assert not backend_saturated({"cycle": 2, "search_results": used}, "corpus", settings)  # a new cycle resets
    dry = [{"cycle": 1, "new_by_backend": {"corpus": 0}}] * 2
    assert backend_saturated({"cycle": 1, "novelty_scores": dry}, "corpus", SETTINGS)
    assert not backend_saturated({"cycle": 1, "novelty_scores": [dry[0], {"cycle": 1, "new_by_backend": {"corpus": 4}}]},
                                 "corpus", SETTINGS)
    pending = [{"query": "x y", "angle": "gap", "intent": "", "origin": "reflect"}]
    resting = {"resolved_settings": SETTINGS.model_dump(mode="json"), "cycle": 1, "pending_queries": pending,
               "novelty_scores": dry, "search_results": [], "corpus": None}
    resting["resolved_settings"]["backends"] = ["builtin"]
    dry_builtin = [{"cycle": 1, "new_by_backend": {"builtin": 0}}] * 2
    assert dispatch_searches({**resting, "novelty_scores": dry_builtin}) == "synthesize"
