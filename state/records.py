"""The plain records the graph state holds.

They are TypedDicts of JSON values, not pydantic objects, so any checkpointer (ours, the LangGraph server's, or a
parent agent's) stores and reloads them without custom serializers. Pydantic models validate at the boundaries
(`satiate.state.contracts`).
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

QueryOrigin = Literal["plan", "reflect", "breadcrumb", "reformulation", "quality_floor", "critic", "recheck"]
SearchOutcome = Literal["ok", "empty", "failed_retryable", "failed_final"]
GateDecision = Literal["accepted", "saturated", "failed", "circuit_open"]
GapKind = Literal["modality", "unverified-claim", "unread-source", "missing-counterarg", "unresolved-contradiction"]
Verification = Literal["verified_primary", "verified_multi", "unverified_single", "contradicted"]


class QueryPlan(TypedDict):
    """One query to send, with why it exists."""

    query: str
    angle: str
    intent: str
    origin: QueryOrigin
    breadcrumb: NotRequired[str | None]


class Hit(TypedDict):
    """One search result as the backend returned it, plus its canonical identity."""

    title: str
    url: str
    body: str
    key: str
    backend: str
    rank: int
    doc_id: NotRequired[str | None]
    source_type: NotRequired[str]


class SearchRecord(TypedDict):
    """One query sent: what came back and how it went (a failure is never an empty result)."""

    cycle: int
    round: int
    query: str
    angle: str
    origin: QueryOrigin
    backend: str
    outcome: SearchOutcome
    hits: list[Hit]
    result_chars: int
    attempts: int
    cached: bool
    error: str | None
    duration_s: float
    breadcrumb: NotRequired[str | None]
    passed_over: NotRequired[list[Hit]]  # returned but not read this round: "seen", read later if a bridge makes them count


class SourceRecord(TypedDict):
    """A source the run holds read text of; the grounding gate checks claims against ``text``."""

    id: str
    key: str
    url: str
    title: str
    text: str
    backend: str
    read_kind: Literal["passage", "page", "snippet"]
    query: str
    angle: str
    cycle: int
    round: int
    doc_id: NotRequired[str | None]
    breadcrumb: NotRequired[str | None]
    source_type: NotRequired[str]


class NoveltyRecord(TypedDict):
    """The novelty gate's verdict on one search round."""

    cycle: int
    round: int
    score: int
    threshold: int
    new_hits: int
    total_hits: int
    failed_queries: int
    decision: GateDecision
    reason: str
    draw: float | None
    new_by_backend: NotRequired[dict[str, int]]


class SupportSpan(TypedDict):
    source_id: str
    start: int
    end: int
    overlap: float


class ClaimRecord(TypedDict):
    """A claim that passed the grounding gate, with where its support was found."""

    claim: str
    source_ids: list[str]
    confidence: Literal["high", "med", "low"]
    support: list[SupportSpan]
    verification: Verification
    role: NotRequired[Literal["answer", "hop", "claim"]]


class ShortAnswerRecord(TypedDict):
    """The answer in a few words, or ``text`` None with the reason the sources do not support one."""

    text: str | None
    kind: str
    reason: str


class ContradictionRecord(TypedDict):
    topic: str
    resolution: str
    source_ids: list[str]
    resolved: bool
    favoured_ids: list[str]


class GapRecord(TypedDict):
    kind: GapKind
    description: str
    query: str
    priority: float
    material: bool


class OpenQuestion(TypedDict):
    question: str
    reason: str


class CriticRecord(TypedDict):
    cycle: int
    gaps: list[GapRecord]
    signoff: bool
    target: str | None


class RoundRecord(TypedDict):
    """One row of seed 003's convergence table."""

    round: int
    sources: int
    new_sources: int
    claims: int
    open_gaps: int
    signoff: bool
    searches: int
    tokens: int
    claims_cut: int


class ErrorRecord(TypedDict):
    """Errors are data: every failure or fallback is recorded here and shown in the output."""

    node: str
    type: str
    message: str
    retryable: bool
    cycle: int
    round: int
    query: NotRequired[str | None]
