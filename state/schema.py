"""The graph state: one typed dict whose growing parts are append-only through reducers.

Nodes never mutate state; they return updates. Channels annotated with a reducer combine the update with what is
there, so a node can add to the search log, the source store, the error log or the round table but cannot drop or
rewrite an earlier entry.

The growing logs are ``log_channel``s (LangGraph's DeltaChannel): a checkpoint stores what a step added, not the whole
log again, so a run's checkpoints grow with what is new rather than with (steps x everything read). Source texts are
not in the state at all: a source or a search hit holds the SHA-256 of its text, kept once in the store
(``satiate.tools.source_texts``). Every channel is documented, with who writes and who reads it, in the README's "State
channels" table (a test keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from langgraph.channels import DeltaChannel
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


LOG_SNAPSHOT_EVERY = 100  # a log's full value is checkpointed every this many updates, bounding a resume's replay


def log_channel(reducer: Callable[[Any, Any], Any]) -> DeltaChannel:
    """A channel whose checkpoints hold only each step's writes, folded through ``reducer`` when read back.

    LangGraph's DeltaChannel (beta in LangGraph 1.2) keeps a sentinel in the checkpoint and rebuilds the value from
    the task writes the saver keeps anyway. The fold is batching-invariant as it requires (folding two batches one
    after the other equals folding them joined) because each reducer here appends or keeps the newest write. Used for
    the logs, and for the two large values one node overwrites (knowledge state, claims), which would otherwise be
    stored again in every checkpoint until their next write. A log channel reads as empty ("", [], {}) before its
    first write, where a plain channel is absent.
    """
    def fold(existing: Any, updates: Sequence[Any]) -> Any:
        value = existing
        for update in updates:
            value = reducer(value, update)
        return value

    fold.__name__ = fold.__qualname__ = reducer.__name__  # what the README's channel table names
    return DeltaChannel(fold, snapshot_frequency=LOG_SNAPSHOT_EVERY)


def latest(existing: Any, new: Any) -> Any:
    """Reducer of a value its one writer overwrites: the newest write is the value."""
    return new


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
    """Everything a run knows (design §18), the rolling knowledge state and the source store (design §6) included."""

    # identity and settings (fixed at plan time, stored so a resumed run decides the same way)
    question: str
    settings: dict[str, Any] | None
    resolved_settings: dict[str, Any]  # a plain value: absent until plan has run ("stopped before planning")
    engine: str

    # loop position: cycle = outer synthesize/critic round, search_round = round inside the current gathering loop
    cycle: int
    search_round: int
    target: str
    pending_queries: list[QueryPlan]

    # append-only logs and stores (checkpointed as each step's additions: see log_channel)
    search_results: Annotated[list[SearchRecord], log_channel(append_only)]
    sources: Annotated[dict[str, SourceRecord], log_channel(merge_sources)]
    novelty_scores: Annotated[list[NoveltyRecord], log_channel(append_only)]
    error_log: Annotated[list[ErrorRecord], log_channel(append_only)]
    critic_reports: Annotated[list[CriticRecord], log_channel(append_only)]
    rounds: Annotated[list[RoundRecord], log_channel(append_only)]
    open_questions: Annotated[list[OpenQuestion], log_channel(append_unique)]

    # rolling knowledge and the latest verdicts (overwritten by the node that owns them)
    knowledge_state: Annotated[str, log_channel(latest)]
    sufficient: bool
    claims: Annotated[list[ClaimRecord], log_channel(latest)]
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
