"""plan: validate the question, fix the run's settings and seed, and decompose the question into angle queries."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from satiate.nodes.common import (
    Dependencies,
    as_query_plans,
    decision_update,
    emit,
    emit_round_start,
    merge_updates,
    timed,
    view_of,
)
from satiate.state.schema import ResearchState
from satiate.state.settings import resolve_settings, with_planned_tier
from satiate.state.updates import PlanUpdate


class QuestionError(ValueError):
    """The question is empty, too long, or not valid Unicode text."""


def check_question(question: Any, max_chars: int) -> str:
    if not isinstance(question, str) or not question.strip():
        raise QuestionError("the question is empty: ask something, e.g. satiate run \"What is a Python generator?\"")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as exc:  # bytes that were not UTF-8 arrive as lone surrogates (surrogateescape)
        raise QuestionError(f"the question is not valid text: character {exc.start + 1} is not Unicode (bytes that "
                            "are not UTF-8, or a lone surrogate); type it again, or pass it as UTF-8") from None
    question = " ".join(question.split())
    if len(question) > max_chars:
        raise QuestionError(
            f"the question is {len(question)} characters; the limit is {max_chars} (setting max_question_chars)"
        )
    return question


def context_overrides(runtime: Runtime | None) -> dict[str, Any] | None:
    """Settings chosen in Studio's form or passed as ``context=``; blank fields mean "not chosen"."""
    context = getattr(runtime, "context", None)
    if context is None:
        return None
    if hasattr(context, "model_dump"):
        context = context.model_dump()
    return {k: v for k, v in dict(context).items() if v is not None} if isinstance(context, dict) else None


def make_plan_node(deps: Dependencies) -> Callable[[ResearchState, Runtime], PlanUpdate]:
    @timed
    def plan(state: ResearchState, runtime: Runtime) -> PlanUpdate:
        overrides = context_overrides(runtime)
        settings = resolve_settings(state.get("settings"), overrides)
        question = check_question(state.get("question"), settings.max_question_chars)
        if settings.seed is None:
            settings = settings.model_copy(update={"seed": secrets.randbelow(2**31)})
        resolved = settings.model_dump(mode="json")
        engine = deps.engine_for(settings)
        view = view_of({**state, "question": question, "resolved_settings": resolved}, deps.store)
        decision = engine.plan(view, question)
        settings = with_planned_tier(settings, decision.value.tier, state.get("settings"), overrides)
        resolved = settings.model_dump(mode="json")
        queries = as_query_plans(decision.value.queries[: settings.budget.max_queries_per_round], "plan")
        emit("plan", queries=[q["query"] for q in queries], engine=engine.label, backends=settings.resolved_backends())
        emit_round_start(1, 1, queries)
        update: PlanUpdate = {
            "question": question,
            "resolved_settings": resolved,
            "engine": engine.label,
            "cycle": 1,
            "search_round": 0,
            "target": question,
            "pending_queries": queries,
            "clean_signoffs": 0,
            "degraded_mode": False,
        }
        return merge_updates(update, decision_update(decision))

    return plan
