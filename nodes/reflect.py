"""reflect: is what we know sufficient? If not, which queries next (design §7)."""

from __future__ import annotations

from collections.abc import Callable

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
from satiate.state.schema import ResearchState
from satiate.state.updates import ReflectUpdate


def make_reflect_node(deps: Dependencies) -> Callable[[ResearchState], ReflectUpdate]:
    @timed
    def reflect(state: ResearchState) -> ReflectUpdate:
        settings = settings_of(state)
        decision = deps.engine_for(settings).reflect(view_of(state, deps.store))
        reflection = decision.value
        queries = as_query_plans(reflection.new_queries[: settings.budget.max_queries_per_round], "reflect")
        # confidence and the terms not yet covered steer nothing after this node: they are shown, not stored
        emit("reflect", sufficient=reflection.sufficient, confidence=reflection.confidence, gaps=reflection.gaps,
             next_queries=[q["query"] for q in queries])
        emit_round_start(state.get("cycle", 1), state.get("search_round", 0) + 1, queries)
        update: ReflectUpdate = {"sufficient": reflection.sufficient, "pending_queries": queries}
        return merge_updates(update, decision_update(decision))

    return reflect
