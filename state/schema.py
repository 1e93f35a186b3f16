"""The graph state: one typed dict whose growing parts are append-only through reducers.

Nodes never mutate state; they return updates. Channels annotated with a reducer combine the update with what is
there, so a node can add to the search log, the source store, the error log or the round table but cannot drop or
rewrite an earlier entry.
"""

from __future__ import annotations

from typing import Annotated, Any

from typing_extensions import TypedDict

from satiate.state.records import (
    ClaimRecord,
    ContradictionRecord,
    CriticRecord,
    ErrorRecord,
    NoveltyRecord,
    OpenQuestion,
    QueryPlan,
    RoundRecord,
    SearchRecord,
    ShortAnswerRecord,
    SourceRecord,
)


def append_only(existing: list | None, new: list | None) -> list:
    """Reducer: the update's items are appended; nothing already stored is removed or replaced."""
    return [*(existing or []), *(new or [])]


def merge_sources(existing: dict[str, SourceRecord] | None, new: dict[str, SourceRecord] | None) -> dict:
    """Reducer for the source store keyed by canonical key: a key, once stored, keeps its first record and id."""
    merged = dict(existing or {})
    for key, record in (new or {}).items():
        merged.setdefault(key, record)
    return merged


def append_unique(existing: list | None, new: list | None) -> list:
    """Reducer: append items not already present (by equality), keeping first-seen order."""
    merged = list(existing or [])
    for item in new or []:
        if item not in merged:
            merged.append(item)
    return merged


def add_number(existing: float | int | None, new: float | int | None) -> float | int:
    return (existing or 0) + (new or 0)


def add_counts(existing: dict[str, int] | None, new: dict[str, int] | None) -> dict[str, int]:
    merged = dict(existing or {})
    for key, value in (new or {}).items():
        merged[key] = merged.get(key, 0) + value
    return merged


class InputState(TypedDict, total=False):
    """What a caller gives: the question, and optionally per-run settings (they beat the environment)."""

    question: str
    settings: dict[str, Any] | None


class OutputState(TypedDict, total=False):
    """What a caller gets back: the Markdown answer and the full result (see ``ResearchResult``)."""

    answer: str
    result: dict[str, Any]


class ResearchState(TypedDict, total=False):
    """Everything a run knows. Seed 002 §4.1's fields plus seed 001's knowledge state and seed 003's store."""

    # identity and settings (fixed at plan time, stored so a resumed run decides the same way)
    question: str
    settings: dict[str, Any] | None
    resolved_settings: dict[str, Any]
    engine: str

    # loop position: cycle = outer synthesize/critic round, search_round = round inside the current gathering loop
    cycle: int
    search_round: int
    target: str
    pending_queries: list[QueryPlan]

    # append-only logs and stores
    planned_queries: Annotated[list[QueryPlan], append_only]
    search_results: Annotated[list[SearchRecord], append_only]
    sources: Annotated[dict[str, SourceRecord], merge_sources]
    novelty_scores: Annotated[list[NoveltyRecord], append_only]
    failed_queries: Annotated[list[str], append_unique]
    error_log: Annotated[list[ErrorRecord], append_only]
    citations: Annotated[list[str], append_unique]
    critic_reports: Annotated[list[CriticRecord], append_only]
    rounds: Annotated[list[RoundRecord], append_only]
    open_questions: Annotated[list[OpenQuestion], append_unique]

    # rolling knowledge and the latest verdicts (overwritten by the node that owns them)
    knowledge_state: str
    sufficient: bool
    confidence: float
    gaps: list[str]
    claims: list[ClaimRecord]
    short_answer: ShortAnswerRecord
    contradictions: list[ContradictionRecord]
    key_actors: list[dict[str, Any]]
    claims_cut: int
    clean_signoffs: int
    degraded_mode: bool
    stop_reason: str

    # meters
    tokens_used: Annotated[int, add_number]
    elapsed_s: Annotated[float, add_number]
    counters: Annotated[dict[str, int], add_counts]

    # the finished answer
    answer: str
    result: dict[str, Any]
