"""The loop rules: saturation with the seeded ε pass-through, the circuit breaker, per-backend saturation, budgets,
the critic's sign-off streak, the stop decision and the planner's tier."""

from __future__ import annotations

from typing import get_args

from satiate.engine.policy import (
    backend_circuit_open,
    backend_saturated,
    budget_spent,
    epsilon_draw,
    judge_signoff,
    live_backends,
    saturation_decision,
    search_chain,
    search_loop_done,
    stop_reason,
)
from satiate.state.records import SearchOutcome, search_failed
from satiate.state.settings import Settings, tier_chosen, with_planned_tier

SETTINGS = Settings(data_dir="/tmp/unused", seed=7)


def record(outcome: str, backend: str = "web") -> dict:
    return {"outcome": outcome, "backend": backend}


def state(**fields) -> dict:
    return {"resolved_settings": SETTINGS.model_dump(mode="json"), **fields}


def gap(query: str, priority: float, material: bool = True) -> dict:
    return {"kind": "modality", "description": query, "query": query, "priority": priority, "material": material}


def test_a_failed_search_is_never_an_empty_one():
    assert [o for o in get_args(SearchOutcome) if search_failed(o)] == ["failed_retryable", "failed_final"]
    assert not search_failed("empty") and not search_failed("ok") and not search_failed("")


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


def test_a_backend_rests_for_the_cycle_at_its_query_ceiling_or_after_duplicate_rounds():
    settings = Settings(data_dir="/tmp/unused", seed=7, query_ceilings={"corpus": 3})
    used = [{"cycle": 1, "backend": "corpus", "outcome": "ok"}] * 3
    assert backend_saturated({"cycle": 1, "search_results": used}, "corpus", settings)
    assert not backend_saturated({"cycle": 2, "search_results": used}, "corpus", settings)  # a new cycle resets
    dry = [{"cycle": 1, "new_by_backend": {"corpus": 0}}] * 2
    assert backend_saturated({"cycle": 1, "novelty_scores": dry}, "corpus", SETTINGS)
    fresh = [dry[0], {"cycle": 1, "new_by_backend": {"corpus": 4}}]
    assert not backend_saturated({"cycle": 1, "novelty_scores": fresh}, "corpus", SETTINGS)


def test_search_chain_drops_resting_backends_and_keeps_the_last_when_every_circuit_is_open():
    settings = Settings(data_dir="/tmp/unused", web=True)
    dry_web = [{"cycle": 1, "new_by_backend": {"web": 0}}] * 2
    assert search_chain({"cycle": 1}, settings) == ["web", "builtin"]
    assert search_chain({"cycle": 1, "novelty_scores": dry_web}, settings) == ["builtin"]
    dry_both = [{"cycle": 1, "new_by_backend": {"web": 0, "builtin": 0}}] * 2
    assert search_chain({"cycle": 1, "novelty_scores": dry_both}, settings) == []  # nothing new to gather
    all_failed = [record("failed_final", b) | {"cycle": 1} for b in ("web", "builtin") for _ in range(3)]
    assert search_chain({"cycle": 1, "search_results": all_failed}, settings) == ["builtin"]


def test_the_search_loop_ends_on_sufficiency_after_the_minimum_the_round_cap_or_the_budget():
    assert not search_loop_done(state(search_round=1, sufficient=True), SETTINGS)  # below the minimum rounds
    assert search_loop_done(state(search_round=2, sufficient=True), SETTINGS)
    assert not search_loop_done(state(search_round=2, sufficient=False), SETTINGS)
    assert search_loop_done(state(search_round=5, sufficient=False), SETTINGS)  # MAX_SEARCH_ROUNDS
    assert search_loop_done(state(search_round=3, sufficient=False, elapsed_s=10_000.0), SETTINGS)


def test_only_material_gaps_block_signoff_and_the_top_one_is_the_next_target():
    verdict = judge_signoff([gap("a", 0.2), gap("b", 0.9), gap("c", 1.0, material=False)], clean_signoffs_before=1)
    assert [g["query"] for g in verdict.material] == ["b", "a"]
    assert not verdict.signoff and verdict.target == "b" and verdict.clean_signoffs == 0
    clean = judge_signoff([gap("c", 1.0, material=False)], clean_signoffs_before=1)
    assert clean.signoff and clean.target is None and clean.clean_signoffs == 2


def test_two_consecutive_signoffs_stop_and_one_does_not():
    assert stop_reason(state(clean_signoffs=1, cycle=1), SETTINGS) is None
    assert stop_reason(state(clean_signoffs=2, cycle=2), SETTINGS).startswith("converged")
    assert stop_reason(state(clean_signoffs=0, cycle=5), SETTINGS) == "cycle budget spent"
    assert stop_reason(state(degraded_mode=True), SETTINGS).startswith("degraded")


def test_budget_spent_on_time_or_tokens():
    assert budget_spent(state(elapsed_s=1.0, tokens_used=10), SETTINGS) is None
    assert budget_spent(state(elapsed_s=500.0), SETTINGS) == "time budget spent"
    assert budget_spent(state(tokens_used=300_000), SETTINGS) == "token budget spent"


def test_the_planners_tier_applies_unless_the_user_chose_one():
    assert SETTINGS.tier == "standard"
    assert with_planned_tier(SETTINGS, "deep", {"seed": 7}, None, environ={}).tier == "deep"
    assert with_planned_tier(SETTINGS, None, environ={}).tier == "standard"
    assert with_planned_tier(SETTINGS, "deep", {"tier": "standard"}, environ={}).tier == "standard"
    assert with_planned_tier(SETTINGS, "deep", environ={"SATIATE_TIER": "simple"}).tier == "standard"
    # a blank field (Studio sends every field) is not a choice
    assert not tier_chosen({"tier": None}, environ={"SATIATE_TIER": ""})
