"""What each node writes: one narrow update type a node, so a node's signature shows its contract.

Every key is a channel of ``ResearchState`` (``satiate.state.schema``) with the same value type; a channel with a
reducer (the logs, the meters) receives what the node adds, not the whole value. ``MeteredUpdate`` holds the meters
and the error log that any node asking the engine may add to.
"""

from __future__ import annotations

from typing import Any

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


class MeteredUpdate(TypedDict, total=False):
    """The meters a node adds to (tokens, its own duration, counters) and the error records it logs."""

    tokens_used: int
    elapsed_s: float
    counters: dict[str, int]
    error_log: list[ErrorRecord]


class PlanUpdate(MeteredUpdate, total=False):
    """plan: the question as checked, the frozen settings, and the first round's queries."""

    question: str
    resolved_settings: dict[str, Any]
    engine: str
    cycle: int
    search_round: int
    target: str
    pending_queries: list[QueryPlan]
    clean_signoffs: int
    degraded_mode: bool


class GatherUpdate(MeteredUpdate, total=False):
    """gather (one branch a query): the searches it ran, each on record whether it answered or failed."""

    search_results: list[SearchRecord]


class NoveltyGateUpdate(MeteredUpdate, total=False):
    """novelty_gate: the round's verdict, and degraded mode when every backend's circuit is open."""

    search_round: int
    novelty_scores: list[NoveltyRecord]
    degraded_mode: bool


class CompressUpdate(MeteredUpdate, total=False):
    """compress: the accepted round's new sources (by reference) and the rolling knowledge state."""

    sources: dict[str, SourceRecord]
    knowledge_state: str


class ReflectUpdate(MeteredUpdate, total=False):
    """reflect: whether what is known suffices, and the next round's queries."""

    sufficient: bool
    pending_queries: list[QueryPlan]


class SynthesizeUpdate(MeteredUpdate, total=False):
    """synthesize: the gated claims, the short answer and what the synthesis found besides."""

    claims: list[ClaimRecord]
    short_answer: ShortAnswerRecord
    contradictions: list[ContradictionRecord]
    key_actors: list[dict[str, Any]]
    claims_cut: int
    open_questions: list[OpenQuestion]


class CriticUpdate(MeteredUpdate, total=False):
    """critic: its report and the convergence row; then either the stop reason or the next cycle's target."""

    critic_reports: list[CriticRecord]
    rounds: list[RoundRecord]
    open_questions: list[OpenQuestion]
    clean_signoffs: int
    stop_reason: str
    cycle: int
    search_round: int
    target: str
    pending_queries: list[QueryPlan]


class FinalizeUpdate(TypedDict):
    """finalize: the Markdown answer and the result other programs parse."""

    answer: str
    result: dict[str, Any]
