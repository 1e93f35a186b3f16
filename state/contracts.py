"""Typed contracts at the boundaries: what an engine (model or deterministic) must answer, and what a run returns.

The shapes (plan, reflection, synthesis, the critic's report, error, agent response) are described in design §18.
Engines return these models; nodes store their ``model_dump()`` in the graph state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from satiate.state.records import GapKind
from satiate.state.settings import WEB_BACKENDS, Tier

MAX_QUERY_CHARS = 400


def clamp_query(text: str, limit: int = MAX_QUERY_CHARS) -> str:
    """One line of at most ``limit`` characters, cut at a word boundary: a query built from many names stays a query."""
    flat = " ".join(str(text).split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return cut or flat[:limit]


class PlanQueryModel(BaseModel):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The search query text.")
    intent: str = Field("", description="What this query is meant to find.")
    angle: str = Field("question", description="The search angle: question, entity, time_window, source_type, ...")

    @field_validator("query", mode="before")
    @classmethod
    def _clamp(cls, value: object) -> object:
        # Derived queries (breadcrumbs plus open terms, gaps, model output) must never end a run by being long.
        return clamp_query(value) if isinstance(value, str) else value


class PlanResponse(BaseModel):
    """The planner's queries (3-6 focused queries, each with intent; design §2)."""

    queries: list[PlanQueryModel] = Field(min_length=1, max_length=20)
    tier: Tier | None = Field(
        None, description="The planner's complexity classification, when it makes one."
    )


class ReflectionResponse(BaseModel):
    """Reflection (design §7): is what we know sufficient, and if not, what to search next."""

    sufficient: bool
    confidence: float = Field(ge=0.0, le=1.0)
    gaps: list[str] = Field(default_factory=list)
    new_queries: list[PlanQueryModel] = Field(default_factory=list)


class ClaimDraft(BaseModel):
    """A claim as the synthesizer proposes it, before the grounding gate checks it."""

    claim: str = Field(min_length=1)
    source_ids: list[str] = Field(default_factory=list)
    confidence: Literal["high", "med", "low"] = "med"
    role: Literal["answer", "hop", "claim"] = Field(
        "claim", description="'answer': states the short answer; 'hop': a step of the chain that leads to it.")


class ContradictionDraft(BaseModel):
    topic: str
    resolution: str = Field(description="How the disagreement was adjudicated, or why it stays unresolved.")
    source_ids: list[str] = Field(default_factory=list)
    resolved: bool = True
    favoured_ids: list[str] = Field(
        default_factory=list, description="When resolved: the source ids whose side the evidence favours."
    )


class SynthesisResponse(BaseModel):
    """The synthesis (design §9): claims tagged with source ids, contradictions resolved, open questions.

    ``short_answer`` is the answer itself in a few words, stated by the claim whose role is "answer" (for a yes/no
    or two-option question, the statements compared); ``None`` with ``abstain_reason`` when the sources do not
    support one.
    """

    short_answer: str | None = Field(None, description="The answer in a few words: a name, date, number, yes/no.")
    answer_kind: str = Field("", description="What the question asks for: person, date, number, place, name, ...")
    abstain_reason: str = Field("", description="Why there is no short answer, when there is none.")
    claims: list[ClaimDraft] = Field(default_factory=list)
    contradictions: list[ContradictionDraft] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)


class CriticGap(BaseModel):
    kind: GapKind
    description: str
    query: str = Field(min_length=1)
    priority: float = Field(ge=0.0, le=10.0)
    material: bool = Field(description="True only if closing the gap could change a claim.")


class CriticReport(BaseModel):
    """The completeness critic's gaps (design §12); sign-off means zero material gaps."""

    gaps: list[CriticGap] = Field(default_factory=list)
    signoff: bool



class ErrorDetail(BaseModel):
    type: str
    message: str
    retryable: bool


class ErrorResponse(BaseModel):
    """A failed engine call: its kind, message and whether a retry may help (design §14, §18)."""

    error: ErrorDetail


# --- what a run returns ---------------------------------------------------------------------------------------------


class ResearchInput(BaseModel):
    """The graph's input contract: a question and optional per-run settings."""

    model_config = ConfigDict(extra="forbid")

    question: str
    settings: dict | None = None


def source_origin(backend: str) -> Literal["local", "web"]:
    """Where a source came from, as the report's source list says it: a web page, or a local file or passage."""
    return "web" if backend in WEB_BACKENDS else "local"


class PageCounts(BaseModel):
    """What became of the pages behind web hits (hits are leads, pages are sources): read from the run's counters."""

    fetched: int = Field(0, description="Pages fetched over the network (a page from the page store is not).")
    read: int = Field(0, description="Pages whose main text was read (fetched now or from the page store).")
    from_store: int = Field(0, description="Pages read from the page store, fetched by an earlier run.")
    skipped_covered: int = Field(0, description="Pages not fetched: their snippet was already covered by the "
                                 "knowledge state (the enrichment gate).")
    skipped_budget: int = Field(0, description="Pages not fetched: the round's reading budget was spent.")
    unreadable: int = Field(0, description="Pages that answered with nothing to read (404, thin, not text).")
    failed: int = Field(0, description="Pages that could not be fetched (unreachable, refused by the SSRF guard).")

    @classmethod
    def from_counters(cls, counters: dict[str, int]) -> PageCounts:
        return cls(fetched=counters.get("pages_fetched", 0), read=counters.get("pages_read", 0),
                   from_store=counters.get("pages_from_store", 0),
                   skipped_covered=counters.get("enrich_skipped_overlap", 0),
                   skipped_budget=counters.get("enrich_skipped_budget", 0),
                   unreadable=counters.get("pages_unreadable", 0), failed=counters.get("pages_failed", 0))

    def line(self) -> str | None:
        """The report's one line on pages, or None when no web hit was ever up for reading."""
        if not any(self.model_dump().values()):
            return None
        return (f"Web pages: {self.fetched} fetched, {self.read} read ({self.from_store} from the page store), "
                f"{self.skipped_covered} skipped (snippet already covered), {self.skipped_budget} over the reading "
                f"budget, {self.unreadable} unreadable, {self.failed} failed.")


class SourceOut(BaseModel):
    id: str
    n: int | None = Field(None, description="The [n] number the answer uses for this source, if cited.")
    title: str
    url: str
    text: str | None = Field(None, description="The text read, for every source the answer or report cites by "
                             "number (so each [n] can be checked without the store); null for the others.")
    backend: str
    origin: Literal["local", "web"] = Field("local", description="'web' for a page found by a web search, "
                                            "'local' for a file or passage of a corpus (or the built-in one).")
    read_kind: str
    doc_id: str | None = None
    page: int | None = Field(None, description="For a passage of a local PDF, the page it is on (from 1); the url "
                             "opens that page (x.pdf#page=N).")
    verification: list[str] = Field(default_factory=list)
    suspicious: str | None = Field(None, description="Why this source looks like it tries to instruct the reader or "
                                   "a model (its instruction-like sentences are never claims), or null.")


class ClaimOut(BaseModel):
    claim: str
    source_ids: list[str]
    confidence: str
    verification: str
    support: list[dict]
    role: str = "claim"


# What an answer built in degraded mode says of itself: the report shows it and the synthesis prompt passes it on.
DEGRADED_NOTE = "Search capabilities were limited, so this answer rests on partial information."


class ResearchResult(BaseModel):
    """The output contract of a run, as ``satiate run --json`` prints it and importing agents read it."""

    thread_id: str | None
    question: str
    short_answer: str | None = Field(None, description="The answer in a few words, or null when the sources read do "
                                     "not support one (see short_answer_reason).")
    short_answer_reason: str = Field("", description="Why there is no short answer, when there is none.")
    short_answer_candidate: str | None = Field(None, description="The best short answer found, committed or not: "
                                               "when short_answer is null it is an uncommitted guess.")
    short_answer_confidence: float | None = Field(None, description="How well the cited chain supports the candidate "
                                                  "(0-1); it is committed as short_answer at or above the threshold.")
    answer: str
    report: str
    claims: list[ClaimOut]
    contradictions: list[dict]
    key_actors: list[dict] = Field(default_factory=list)
    sources: list[SourceOut]
    rounds: list[dict]
    open_questions: list[dict]
    errors: list[dict]
    degraded: bool
    engine: str
    backends_used: list[str]
    stop_reason: str
    searches: int
    metrics: dict[str, float] = Field(
        default_factory=dict, description="Run metrics: duration, iterations, searches, failures, "
        "model calls, retries, repairs, fallbacks, tokens."
    )
    pages: PageCounts = Field(default_factory=PageCounts, description="Pages behind web hits: fetched, read, "
                              "skipped by the enrichment gate or the budget, unreadable, failed.")
    settings: dict


class AgentResponse(BaseModel):
    """The compact external answer (``--agent``, design §18); sources come only from citations that passed the gate."""

    short_answer: str | None = None
    short_answer_reason: str = ""
    short_answer_candidate: str | None = None
    short_answer_confidence: float | None = None
    summary: str
    sources: list[SourceOut]

    @classmethod
    def from_result(cls, result: ResearchResult) -> AgentResponse:
        cited = {source_id for claim in result.claims for source_id in claim.source_ids}
        return cls(short_answer=result.short_answer, short_answer_reason=result.short_answer_reason,
                   short_answer_candidate=result.short_answer_candidate,
                   short_answer_confidence=result.short_answer_confidence, summary=result.answer,
                   sources=[s for s in result.sources if s.id in cited])
