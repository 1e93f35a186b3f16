"""What every node shares: its dependencies, a read-only view of the state, progress events and timing."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from satiate.engine.base import Decision, ResearchEngine, ResearchView
from satiate.state.records import ErrorRecord
from satiate.state.schema import ResearchState
from satiate.state.settings import Settings
from satiate.tools.search.service import SearchService


@dataclass(frozen=True)
class Dependencies:
    """The side-effecting parts a graph is built with; tests and embedders pass real local ones."""

    engine_for: Callable[[Settings], ResearchEngine]
    search_for: Callable[[Settings], SearchService]


def settings_of(state: ResearchState | dict) -> Settings:
    """The run's resolved settings, as stored at plan time."""
    return Settings.model_validate(state["resolved_settings"])


def view_of(state: ResearchState, **overrides: Any) -> ResearchView:
    sources = sorted(state.get("sources", {}).values(), key=lambda s: int(s["id"][1:]))
    fields = dict(
        question=state["question"],
        settings=settings_of(state),
        sources=sources,
        knowledge_state=state.get("knowledge_state", ""),
        search_results=state.get("search_results", []),
        claims=state.get("claims", []),
        contradictions=state.get("contradictions", []),
        target=state.get("target", ""),
        cycle=state.get("cycle", 1),
        search_round=state.get("search_round", 0),
        degraded=state.get("degraded_mode", False),
        tokens_used=state.get("tokens_used", 0),
    )
    fields.update(overrides)
    return ResearchView(**fields)


def emit(event: str, **data: Any) -> None:
    """A custom stream event (``stream_mode="custom"``); silently nothing when the run is not streamed."""
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except Exception:  # outside a graph run (unit tests calling a node directly)
        return
    writer({"event": event, **data})


def emit_round_start(cycle: int, search_round: int, queries: list) -> None:
    """The "round started" progress event, sent by whichever node dispatches the next round's queries."""
    if queries:
        emit("round", cycle=cycle, round=search_round, queries=[q["query"] for q in queries])


def error_record(node: str, kind: str, message: str, *, retryable: bool = False, cycle: int = 0, round: int = 0,
                 query: str | None = None) -> ErrorRecord:
    record = ErrorRecord(node=node, type=kind, message=message, retryable=retryable, cycle=cycle, round=round)
    if query is not None:
        record["query"] = query
    return record


def decision_update(decision: Decision) -> dict[str, Any]:
    """The meters and error records an engine decision adds to the state."""
    update: dict[str, Any] = {"tokens_used": decision.tokens, "counters": decision.counters()}
    if decision.errors:
        update["error_log"] = list(decision.errors)
    return update


def merge_updates(*updates: dict[str, Any]) -> dict[str, Any]:
    """Combine partial updates from one node (lists concatenated, counters and meters added)."""
    merged: dict[str, Any] = {}
    for update in updates:
        for key, value in update.items():
            if key in merged and isinstance(value, list):
                merged[key] = [*merged[key], *value]
            elif key in merged and isinstance(value, dict) and key == "counters":
                merged[key] = {k: merged[key].get(k, 0) + value.get(k, 0) for k in {*merged[key], *value}}
            elif key in merged and isinstance(value, (int, float)) and key in {"tokens_used", "elapsed_s"}:
                merged[key] = merged[key] + value
            else:
                merged[key] = value
    return merged


def timed(node: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Add the node's own duration to ``elapsed_s``: the time budget is summed over nodes, so it survives resume."""

    @functools.wraps(node)
    def wrapper(state, *args, **kwargs):
        started = time.perf_counter()
        update = node(state, *args, **kwargs)
        update["elapsed_s"] = update.get("elapsed_s", 0.0) + (time.perf_counter() - started)
        return update

    return wrapper
