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

FAILED_OUTCOMES: frozenset[str] = frozenset({"failed_retryable", "failed_final"})


def search_failed(outcome: str) -> bool:
    """Whether a search failed (the backend did not answer); "empty" is an answer: nothing found, not a failure."""
    return outcome in FAILED_OUTCOMES


def source_number(source_id: str) -> int:
    """The n of a source id "S<n>" (0 for any other id): sources sort by it in the order they were read."""
    digits = source_id[1:]
    return int(digits) if digits.isdigit() else 0


class QueryPlan(TypedDict):
    """One query to send, with why it exists."""

    query: str
    angle: str
    intent: str
    origin: QueryOrigin
    breadcrumb: NotRequired[str | None]


class Hit(TypedDict):
    """One search result as the backend returned it, plus its canonical identity.

    In the state a hit holds ``body_hash`` (its text is in the store, see ``satiate.tools.source_texts``), never
    ``body``; the copies nodes hand to engines have ``body`` again.
    """

    title: str
    url: str
    key: str
    backend: str
    rank: int
    doc_id: NotRequired[str | None]
    page: NotRequired[int]  # the page of a local PDF the passage is on, from 1
    source_type: NotRequired[str]
    body_hash: NotRequired[str]
    body: NotRequired[str]


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
    # returned but not read this round: "seen", read later if a bridge makes them count
    passed_over: NotRequired[list[Hit]]


class SourceRecord(TypedDict):
    """A source the run holds read text of; the grounding gate checks claims against ``text``.

    In the state a source is a reference: ``text_hash`` names its text in the store and ``snippet`` shows its start;
    ``text`` is only in the copies nodes hand to engines, the gate and the report (``nodes.common.view_of``).
    """

    id: str
    key: str
    url: str
    title: str
    text_hash: NotRequired[str]
    snippet: NotRequired[str]
    text: NotRequired[str]
    suspicious: NotRequired[str]  # why its text reads like instructions to the reader or a model (report.suspicion)
    backend: str
    read_kind: Literal["passage", "page", "snippet"]
    query: str
    angle: str
    cycle: int
    round: int
    doc_id: NotRequired[str | None]
    page: NotRequired[int]  # the page of a local PDF the text is from, from 1 (its url opens there: x.pdf#page=N)
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
    """The answer in a few words, or ``text`` None with the reason the sources do not support one. ``candidate`` is
    the best answer found whether committed or not, ``confidence`` how well the cited chain supports it (0-1)."""

    text: str | None
    kind: str
    reason: str
    candidate: NotRequired[str | None]
    confidence: NotRequired[float | None]


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
    """One row of the convergence table (design §12)."""

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
