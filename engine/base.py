"""The one interface through which nodes ask for every decision a model could make.

Two implementations answer it: the deterministic engine (no model; `satiate.engine.deterministic`) and the model
engine (prompts + structured output, falling back to the deterministic engine per call). Each answer comes wrapped
in a ``Decision`` that says what it cost and whether a fallback happened, so nodes can record it in the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from satiate.state.contracts import CriticReport, PlanResponse, ReflectionResponse, SynthesisResponse
from satiate.state.records import (
    ClaimRecord,
    ContradictionRecord,
    ErrorRecord,
    Hit,
    SearchRecord,
    SourceRecord,
)
from satiate.state.settings import Settings

T = TypeVar("T")


@dataclass
class Decision(Generic[T]):
    """An engine's answer plus its cost: tokens, model calls, repairs/retries, and fallbacks to the deterministic
    engine."""

    value: T
    tokens: int = 0
    model_calls: int = 0
    retries: int = 0
    fallbacks: int = 0
    errors: list[ErrorRecord] = field(default_factory=list)

    def counters(self) -> dict[str, int]:
        return {"model_calls": self.model_calls, "model_retries": self.retries, "model_fallbacks": self.fallbacks}


@dataclass(frozen=True)
class ResearchView:
    """The read-only slice of the state engines decide on."""

    question: str
    settings: Settings
    sources: list[SourceRecord]
    knowledge_state: str
    search_results: list[SearchRecord]
    claims: list[ClaimRecord] = field(default_factory=list)
    contradictions: list[ContradictionRecord] = field(default_factory=list)
    target: str = ""
    cycle: int = 1
    search_round: int = 0
    degraded: bool = False
    tokens_used: int = 0
    run_id: str | None = None  # the run's thread, when it has one: what keeps an engine's per-run memory apart

    def executed_queries(self) -> set[str]:
        from satiate.tools.text import normalize_query

        return {normalize_query(r["query"]) for r in self.search_results}


class ResearchEngine(Protocol):
    """Every decision a node needs. Implementations must be safe to call with any state a run can reach."""

    label: str

    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        """Decompose the question (or a critic gap, as ``target``) into angle queries, the target itself first."""

    def novelty(self, view: ResearchView, hits: list[Hit]) -> Decision[int]:
        """Score 0-10 how much the (already deduplicated) hits add to the knowledge state."""

    def compress(self, view: ResearchView, new_sources: list[SourceRecord]) -> Decision[str]:
        """Fold an accepted round's new sources into the rolling knowledge state, under the character cap."""

    def reflect(self, view: ResearchView) -> Decision[ReflectionResponse]:
        """Decide sufficiency; if not sufficient, propose next queries (gaps, breadcrumbs, reformulations)."""

    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        """Claims tagged with source ids, contradictions resolved or flagged, open questions."""

    def critique(self, view: ResearchView) -> Decision[CriticReport]:
        """Name what is missing; sign off only when no material gap remains."""
