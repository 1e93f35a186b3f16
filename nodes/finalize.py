"""finalize: assemble the answer people read and the result other programs parse."""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.runnables import RunnableConfig

from satiate.nodes.common import Dependencies, emit, settings_of
from satiate.nodes.report import build_result
from satiate.state.schema import ResearchState
from satiate.state.updates import FinalizeUpdate


def make_finalize_node(deps: Dependencies) -> Callable[[ResearchState, RunnableConfig], FinalizeUpdate]:
    def finalize(state: ResearchState, config: RunnableConfig) -> FinalizeUpdate:
        thread_id = (config or {}).get("configurable", {}).get("thread_id")
        result = build_result(state, thread_id, deps.store)
        exporter = deps.metrics_for(settings_of(state)) if deps.metrics_for is not None else None
        if exporter is not None:  # Prometheus, when the run's settings ask for it
            exporter.observe_run(state)
        emit("finalize", claims=len(result.claims), sources=len(result.sources), stop_reason=result.stop_reason)
        return {"answer": result.answer, "result": result.model_dump(mode="json")}

    return finalize
