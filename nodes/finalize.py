"""finalize: assemble the answer people read and the result other programs parse."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from satiate.nodes.common import emit
from satiate.nodes.report import build_result
from satiate.tools.metrics import observe_run
from satiate.state.schema import ResearchState


def finalize(state: ResearchState, config: RunnableConfig) -> dict[str, Any]:
    thread_id = (config or {}).get("configurable", {}).get("thread_id")
    result = build_result(state, thread_id)
    observe_run(state)  # Prometheus, when the exporter runs
    emit("finalize", claims=len(result.claims), sources=len(result.sources), stop_reason=result.stop_reason)
    return {"answer": result.answer, "result": result.model_dump(mode="json")}
