"""novelty_gate: score how new the round's results are and decide accept / saturated / failed / circuit open.

Novelty (design §5) is judged against the rolling knowledge state after the round's hits are deduplicated against the
source store (a source already held adds nothing). A failed search is never "nothing new": a round whose searches
all failed is routed to reflect for reformulation, and enough failures open the circuit breaker (design §14).
"""

from __future__ import annotations

from collections.abc import Callable

from satiate.engine.novelty import unseen_hits
from satiate.engine.policy import epsilon_draw, live_backends, saturation_decision
from satiate.nodes.common import (
    Dependencies,
    decision_update,
    emit,
    merge_updates,
    round_records,
    settings_of,
    view_of,
)
from satiate.state.records import GateDecision, NoveltyRecord, search_failed
from satiate.state.schema import ResearchState
from satiate.state.updates import NoveltyGateUpdate


def make_novelty_gate_node(deps: Dependencies) -> Callable[[ResearchState], NoveltyGateUpdate]:
    def novelty_gate(state: ResearchState) -> NoveltyGateUpdate:
        settings = settings_of(state)
        cycle, search_round = state.get("cycle", 1), state.get("search_round", 0) + 1
        records = round_records(state.get("search_results", []), cycle, search_round)
        answered = [r for r in records if not search_failed(r["outcome"])]
        failed = len(records) - len(answered)
        # A round's branches ran in parallel: its wall time is its slowest branch, not the sum.
        elapsed = max((r["duration_s"] for r in records), default=0.0)

        def verdict_of(decision: GateDecision, reason: str, score: int = 0, new_hits: int = 0, total_hits: int = 0,
                       draw: float | None = None) -> NoveltyRecord:
            return NoveltyRecord(cycle=cycle, round=search_round, score=score, threshold=settings.novelty_threshold,
                                 new_hits=new_hits, total_hits=total_hits, failed_queries=failed, decision=decision,
                                 reason=reason, draw=draw)

        update: NoveltyGateUpdate = {"search_round": search_round, "elapsed_s": elapsed}
        if not live_backends(state, settings):
            verdict = verdict_of("circuit_open", "every backend's circuit is open")
            emit("gate", **verdict)
            return {**update, "novelty_scores": [verdict], "degraded_mode": True}
        if not answered:
            verdict = verdict_of("failed", "every search of the round failed")
            emit("gate", **verdict)
            return {**update, "novelty_scores": [verdict]}
        view = view_of(state, deps.store)  # the engine judges the new hits by their text, read back from the store
        hits = [h for r in round_records(view.search_results, cycle, search_round) if not search_failed(r["outcome"])
                for h in r["hits"]]
        fresh = unseen_hits(hits, state.get("sources", {}))
        new_by_backend = {r["backend"]: 0 for r in answered}
        for hit in fresh:
            new_by_backend[hit["backend"]] += 1
        decision = deps.engine_for(settings).novelty(view, fresh) if fresh else None
        score = decision.value if decision else 0
        draw = epsilon_draw(settings.seed or 0, cycle, search_round)
        accepted, reason = saturation_decision(score, search_round, settings, draw)
        verdict = verdict_of("accepted" if accepted else "saturated", reason, score, len(fresh), len(hits),
                             round(draw, 6))
        verdict["new_by_backend"] = new_by_backend
        emit("gate", **verdict)
        update["novelty_scores"] = [verdict]
        return merge_updates(update, decision_update(decision)) if decision else update

    return novelty_gate
