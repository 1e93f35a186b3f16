"""critic: the completeness critic is the engine of the outer loop (design §12).

It names gaps; only material gaps (closing them could change a claim) block sign-off. A gap whose query was already
searched is not asked again: it becomes an explicit open question with its reason and leaves the gap count, which
is what guarantees the loop converges. Two consecutive clean sign-offs end the run; otherwise the single top
material gap becomes the next cycle's target, fanned out over the angles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from satiate.engine.answer import expected_answer
from satiate.engine.base import Decision, ResearchEngine, ResearchView
from satiate.engine.policy import Signoff, judge_signoff, stop_reason
from satiate.engine.reading.gaps import as_question, unique_questions, worth_asking
from satiate.nodes.common import (
    Dependencies,
    as_query_plans,
    decision_update,
    emit,
    emit_round_start,
    merge_updates,
    settings_of,
    timed,
    view_of,
)
from satiate.state.contracts import CriticReport
from satiate.state.records import CriticRecord, GapRecord, OpenQuestion, QueryPlan, RoundRecord
from satiate.state.schema import ResearchState
from satiate.state.updates import CriticUpdate
from satiate.tools.text import normalize_query


def settle_tried_gaps(report: CriticReport, executed: set[str],
                      question: str = "") -> tuple[list[GapRecord], list[OpenQuestion]]:
    """Material gaps already searched for stop blocking (an honest "unknown"), not endless work; those a reader
    should see (``engine.reading.gaps``) become open questions, each once."""
    gaps: list[GapRecord] = []
    open_questions: list[OpenQuestion] = []
    explanation = bool(question) and expected_answer(question).kind == "description"
    for gap in report.gaps:
        record = GapRecord(**gap.model_dump())  # type: ignore[typeddict-item]
        if gap.material and normalize_query(gap.query) in executed:
            record["material"] = False
            if worth_asking(record, question, explanation):
                open_questions.append(OpenQuestion(
                    question=as_question(gap.description),
                    reason=f"searched for '{gap.query}' already; the available sources do not close it",
                ))
        gaps.append(record)
    return gaps, [OpenQuestion(**q) for q in unique_questions(open_questions)]  # type: ignore[typeddict-item]


def convergence_row(state: ResearchState, verdict: Signoff, critique_tokens: int) -> RoundRecord:
    """The cycle's row of the convergence table: what the run holds after the cycle, and the critic's verdict."""
    cycle = state.get("cycle", 1)
    this_cycle = [s for s in state.get("sources", {}).values() if s["cycle"] == cycle]
    return RoundRecord(
        round=cycle, sources=len(state.get("sources", {})), new_sources=len(this_cycle),
        claims=len(state.get("claims", [])), open_gaps=len(verdict.material), signoff=verdict.signoff,
        searches=sum(1 for r in state.get("search_results", []) if r["cycle"] == cycle),
        tokens=state.get("tokens_used", 0) + critique_tokens, claims_cut=state.get("claims_cut", 0),
    )


def plan_next_cycle(engine: ResearchEngine, state: ResearchState, view: ResearchView,
                    target: str | None) -> tuple[Decision, list[QueryPlan]]:
    """The next cycle's queries, none of them searched before: the single top material gap, fanned out; after a
    first sign-off, a re-check on what reflect would still ask (nothing left to ask -> a re-synthesis)."""
    decision: Decision
    if target:
        plan = engine.plan(replace(view, target=target), target)
        decision, queries = plan, as_query_plans(plan.value.queries, "critic")
    else:
        recheck = engine.reflect(view)
        decision, queries = recheck, as_query_plans(recheck.value.new_queries, "recheck")
        queries = [{**q, "origin": "recheck"} for q in queries]  # type: ignore[misc]
    executed = view.executed_queries()
    fresh = [q for q in queries if normalize_query(q["query"]) not in executed]
    return decision, fresh[: view.settings.budget.max_queries_per_round]


def make_critic_node(deps: Dependencies) -> Callable[[ResearchState], CriticUpdate]:
    @timed
    def critic(state: ResearchState) -> CriticUpdate:
        settings = settings_of(state)
        engine = deps.engine_for(settings)
        view = view_of(state, deps.store)
        decision = engine.critique(view)
        gaps, open_questions = settle_tried_gaps(decision.value, view.executed_queries(), state["question"])
        verdict = judge_signoff(gaps, state.get("clean_signoffs", 0))
        cycle, target = state.get("cycle", 1), verdict.target
        update: CriticUpdate = {
            "critic_reports": [CriticRecord(cycle=cycle, gaps=gaps, signoff=verdict.signoff, target=target)],
            "rounds": [convergence_row(state, verdict, decision.tokens)],
            "open_questions": open_questions,
            "clean_signoffs": verdict.clean_signoffs,
        }
        emit("critic", cycle=cycle, material_gaps=len(verdict.material), signoff=verdict.signoff,
             clean_signoffs=verdict.clean_signoffs, target=target)
        reason = stop_reason({**state, "clean_signoffs": verdict.clean_signoffs}, settings)
        if reason:
            update["stop_reason"] = reason
            return merge_updates(update, decision_update(decision))
        next_decision, queries = plan_next_cycle(engine, state, view, target)
        emit_round_start(cycle + 1, 1, queries)
        update.update({"cycle": cycle + 1, "search_round": 0, "target": target or state.get("target", ""),
                       "pending_queries": queries})
        return merge_updates(update, decision_update(decision), decision_update(next_decision))

    return critic
