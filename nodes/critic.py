"""critic: the completeness critic is the engine of the outer loop (seed 003 §5, §7-8).

It names gaps; only material gaps (closing them could change a claim) block sign-off. A gap whose query was already
searched is not asked again: it becomes an explicit open question with its reason and leaves the gap count, which
is what guarantees the loop converges. Two consecutive clean sign-offs end the run; otherwise the single top
material gap becomes the next cycle's target, fanned out over the angles.
"""

from __future__ import annotations

from typing import Any

from satiate.engine.text import normalize_query
from satiate.graph.routing import stop_reason
from satiate.nodes.common import (
    Dependencies,
    decision_update,
    emit,
    emit_round_start,
    merge_updates,
    settings_of,
    timed,
    view_of,
)
from satiate.nodes.plan import as_query_plans
from satiate.state.contracts import CriticReport
from satiate.state.records import CriticRecord, GapRecord, OpenQuestion, RoundRecord
from satiate.state.schema import ResearchState


def settle_tried_gaps(report: CriticReport, executed: set[str]) -> tuple[list[GapRecord], list[OpenQuestion]]:
    """Material gaps already searched for become open questions (an honest "unknown"), not endless work."""
    gaps: list[GapRecord] = []
    open_questions: list[OpenQuestion] = []
    for gap in report.gaps:
        record = GapRecord(**gap.model_dump())  # type: ignore[typeddict-item]
        if gap.material and normalize_query(gap.query) in executed:
            record["material"] = False
            open_questions.append(OpenQuestion(
                question=gap.description,
                reason=f"searched for '{gap.query}' already; the available sources do not close it",
            ))
        gaps.append(record)
    return gaps, open_questions


def make_critic_node(deps: Dependencies):
    @timed
    def critic(state: ResearchState) -> dict[str, Any]:
        settings = settings_of(state)
        engine = deps.engine_for(settings)
        view = view_of(state)
        decision = engine.critique(view)
        gaps, open_questions = settle_tried_gaps(decision.value, view.executed_queries())
        material = sorted((g for g in gaps if g["material"]), key=lambda g: -g["priority"])
        signoff = not material
        clean_signoffs = state.get("clean_signoffs", 0) + 1 if signoff else 0
        cycle = state.get("cycle", 1)
        this_cycle = [s for s in state.get("sources", {}).values() if s["cycle"] == cycle]
        row = RoundRecord(
            round=cycle, sources=len(state.get("sources", {})), new_sources=len(this_cycle),
            claims=len(state.get("claims", [])), open_gaps=len(material), signoff=signoff,
            searches=sum(1 for r in state.get("search_results", []) if r["cycle"] == cycle),
            tokens=state.get("tokens_used", 0) + decision.tokens, claims_cut=state.get("claims_cut", 0),
        )
        target = material[0]["query"] if material else None
        update: dict[str, Any] = {
            "critic_reports": [CriticRecord(cycle=cycle, gaps=gaps, signoff=signoff, target=target)],
            "rounds": [row],
            "open_questions": open_questions,
            "clean_signoffs": clean_signoffs,
            "gaps": [g["description"] for g in material],
        }
        emit("critic", cycle=cycle, material_gaps=len(material), signoff=signoff, clean_signoffs=clean_signoffs,
             target=target)
        reason = stop_reason({**state, "clean_signoffs": clean_signoffs}, settings)
        if reason:
            update["stop_reason"] = reason
            return merge_updates(update, decision_update(decision))
        # Next cycle: the single top material gap, fanned out; after a first sign-off, a re-check on what reflect
        # would still ask (nothing left to ask -> the re-check is a re-synthesis over the same store).
        if target:
            next_decision = engine.plan(view_of(state, target=target), target)
            queries = as_query_plans(next_decision.value.queries, "critic")
        else:
            next_decision = engine.reflect(view)
            queries = as_query_plans(next_decision.value.new_queries, "recheck")
            queries = [{**q, "origin": "recheck"} for q in queries]  # type: ignore[misc]
        executed = view.executed_queries()
        queries = [q for q in queries if normalize_query(q["query"]) not in executed]
        emit_round_start(cycle + 1, 1, queries)
        update.update({"cycle": cycle + 1, "search_round": 0, "target": target or state.get("target", ""),
                       "pending_queries": queries, "planned_queries": queries})
        return merge_updates(update, decision_update(decision), decision_update(next_decision))

    return critic
