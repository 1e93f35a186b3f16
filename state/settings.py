"""Every knob of a research run in one typed object.

Every threshold of docs/design.md is a field here, with its default. A run resolves its settings once, in one
stated order — a per-run value (CLI flag, graph input, Studio form) beats the environment (``SATIATE_<FIELD>``), which
beats the default — and stores the result in its checkpointed state so a resumed run decides exactly as before.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from satiate.state.data_dir import default_data_dir  # the rule lives there: the quick commands read it alone

ENV_PREFIX = "SATIATE_"

Tier = Literal["simple", "standard", "deep"]
Angle = Literal["entity", "time_window", "source_type", "counter_argument"]
ALL_ANGLES: tuple[Angle, ...] = ("entity", "time_window", "source_type", "counter_argument")


class TierBudget(BaseModel):
    """The bounds a complexity tier sets (design §13; sufficiency stays the primary stop condition)."""

    max_cycles: int
    max_queries_per_round: int
    max_results_per_query: int


TIER_BUDGETS: dict[str, TierBudget] = {
    "simple": TierBudget(max_cycles=2, max_queries_per_round=3, max_results_per_query=5),
    "standard": TierBudget(max_cycles=5, max_queries_per_round=10, max_results_per_query=15),
    "deep": TierBudget(max_cycles=10, max_queries_per_round=15, max_results_per_query=20),
}


QUERY_CEILING_MAX = 1000
WEB_BACKENDS = frozenset({"searxng", "web"})  # the backends that search the internet


class SettingsError(ValueError):
    """A setting has an invalid value; the message names the setting and what is accepted."""


class Settings(BaseModel):
    """Resolved settings of one research run. Field descriptions double as CLI help and the Studio form."""

    # allow_inf_nan=False: "inf" or "nan" as a time-out, a budget or a share is refused with the setting's name
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    # --- engine and sources -------------------------------------------------------------------------------------------
    llm: str = Field(
        "auto",
        description="Decision engine: 'none' for the deterministic engine (no model), 'auto' to use Ollama when it "
        "answers and the deterministic engine otherwise, 'ollama:MODEL', 'gguf:PATH' (a local GGUF file through "
        "llama.cpp), or any 'provider:model' LangChain knows.",
    )
    backends: list[str] = Field(
        default_factory=lambda: ["auto"],
        description="Search fallback chain, first serving first: 'corpus' (the --corpus path), 'searxng' (the "
        "searxng_url instance), 'web' (DuckDuckGo via ddgs; searxng goes before it when searxng_url is set), "
        "'builtin' (Python's own documentation, offline). 'auto' = the corpus if given, else the web; then builtin "
        "as the last fallback (see web and offline). With 'auto', a corpus and the web (--web) are both searched "
        "every round.",
    )
    corpus: str | None = Field(
        None, description="A local corpus: a folder of documents (.pdf, .docx, .md, .txt, .rst, .html) or a JSONL file "
        "of {doc_id, title, text}.",
    )
    document_max_pages: int = Field(
        2000, ge=1, le=1_000_000,
        description="Pages read of one PDF in the corpus at most; a longer one is read up to here, with a notice.",
    )
    document_max_mb: float = Field(
        100.0, gt=0, le=100_000,
        description="Size of one PDF or Word file in the corpus at most, in MB; a bigger one is skipped, with a "
        "notice.",
    )
    web: bool | None = Field(
        None,
        description="Web search in the 'auto' chain. Unset: searched when no corpus is given (or a searxng_url is). "
        "On (--web): searched beside a given corpus, both every round. Off (--no-web): never.",
    )
    offline: bool = Field(
        False,
        description="No internet: satiate sends no web search and fetches no web page ('auto' leaves the web out, "
        "an explicit 'web' backend is refused) and answers from the corpus and the built-in documentation. The "
        "model is still the one llm names: a local Ollama or GGUF file needs no internet, a hosted provider does.",
    )
    data_dir: str = Field(
        default_factory=default_data_dir,
        description="Where satiate keeps its checkpoints, search cache and corpus indexes.",
    )

    # --- minimum rounds, the quality floor, the cache (design §3, §4, §15) --------------------------------------------
    searches_per_task: int = Field(
        2, ge=1, le=50, description="Search rounds always run before the novelty gate may stop the loop."
    )
    search_quality_floor: int = Field(
        1800,
        ge=0,
        le=1_000_000,
        description="A round's first query returning fewer characters than this triggers a simplified fallback "
        "query.",
    )
    cache_ttl_s: float = Field(
        86400.0, ge=0, le=315_360_000,  # ten years
        description="How long search results and fetched pages are kept and reused, in seconds (24 h); 0: not at all.",
    )

    # --- saturation, novelty, the knowledge state, page reading (design §4-§6) ----------------------------------------
    max_search_rounds: int = Field(
        5, ge=1, le=100, description="Search rounds in one gathering loop at most (a hard cap)."
    )
    novelty_threshold: int = Field(
        3, ge=0, le=10, description="A round whose novelty score (0-10) is below this is saturated."
    )
    novelty_epsilon: float = Field(
        0.15, ge=0.0, le=1.0, description="Chance that a saturated round is accepted anyway (a seeded draw)."
    )
    novelty_mode: Literal["heuristic", "model"] = Field(
        "heuristic", description="Novelty scoring: a heuristic (no model; see novelty_measure), or a model call."
    )
    novelty_reference: Literal["knowledge_state", "sources"] = Field(
        "knowledge_state",
        description="What the heuristic novelty compares new results with: the rolling knowledge state (a summary "
        "capped at knowledge_max_chars), or the full text of every source read so far (stricter: saturates sooner).",
    )
    novelty_focus: bool = Field(
        False,
        description="Judge novelty only on result sentences that share a term with the question or the current "
        "target, so new but off-topic passages count as saturation.",
    )
    novelty_measure: Literal["words", "evidence"] = Field(
        "evidence",
        description="How the deterministic engine scores a round's novelty: 'words', the share of words the "
        "reference does not contain; 'evidence', the share of the round's new passages with a sentence among the "
        "best few for the question (ranked with everything read), so a round of new but unrelated passages reads "
        "as saturated.",
    )
    evidence_top_sentences: int = Field(
        20, ge=1, le=500,
        description="How many of the sentences that best answer the question (ranked over everything read, two-hop "
        "chains included) count as the evidence: a new passage holding one of them is new evidence to the "
        "'evidence' novelty measure, and a result seen but not read is read when it holds one.",
    )
    knowledge_max_chars: int = Field(
        1500, ge=200, le=100_000,
        description="Characters of the rolling knowledge state (the summary of what was found) at most.",
    )
    url_enrich_count: int = Field(
        5, ge=0, le=50, description="Full pages read per round at most (a round's queries share them, best ranks "
        "first)."
    )
    enrich_max_overlap: float = Field(
        0.6, ge=0.0, le=1.0, description="Skip reading a page whose snippet overlaps the knowledge state more than "
        "this."
    )
    min_source_chars: int = Field(
        200, ge=0, le=100_000, description="A hit with less readable text than this is not a source (a 404 page, a "
        "paywall, a page that is only script)."
    )
    short_page_snippet_cover: float = Field(
        0.8, ge=0.0, le=1.0, description="A page under min_source_chars is still read when its text holds at least "
        "this share of its hit's snippet words: it is a short page showing what the engine found, not a 404 page, "
        "a paywall or a script shell (those do not hold the snippet)."
    )
    short_page_min_snippet_words: int = Field(
        8, ge=1, le=200, description="Distinct words a snippet needs before it can vouch for a short page "
        "(short_page_snippet_cover): a few words match any page of the site."
    )

    # --- the complexity tier, budgets, error levels (design §13, §14) -------------------------------------------------
    tier: Tier = Field(
        "standard",
        description="Complexity tier: simple, standard or deep; sets the defaults of max_cycles, "
        "max_queries_per_round and max_results_per_query. Unless you choose it, a model planner may pick it.",
    )
    max_cycles: int | None = Field(
        None, ge=1, le=100, description="Synthesize/critic cycles at most; default from the tier (2/5/10)."
    )
    max_queries_per_round: int | None = Field(
        None, ge=1, le=100, description="Queries sent per search round at most; default from the tier (3/10/15)."
    )
    max_results_per_query: int | None = Field(
        None, ge=1, le=100, description="Results kept per query; default from the tier (5/15/20)."
    )
    max_execution_time_s: float = Field(
        120.0, gt=0, le=2_592_000,
        description="Hard wall-time budget in seconds, summed over the run's nodes (survives resume).",
    )
    token_budget: int = Field(
        250_000, ge=0, le=1_000_000_000,
        description="Model tokens a run may spend (0: no limit); with less than a quarter left, prompts are built "
        "at half size.",
    )
    retry_attempts: int = Field(
        3, ge=1, le=10, description="Attempts per search on a retryable failure (error level 1: retry)."
    )
    circuit_consecutive_failures: int = Field(
        3, ge=1, le=1000,
        description="Consecutive failed searches that open a backend's circuit breaker (error level 3).",
    )
    circuit_failure_ratio: float = Field(
        0.5, gt=0.0, le=1.0,
        description="Share of failed searches that opens a backend's circuit breaker (error level 3).",
    )
    thin_result_count: int = Field(3, ge=0, le=100, description="A query with fewer results than this is reformulated.")
    query_ceilings: dict[str, int] = Field(
        default_factory=lambda: {"corpus": 40, "builtin": 40, "web": 20, "searxng": 20},
        description="Queries one backend may answer per cycle at most (a rich source gets more).",
    )
    duplicate_rounds_stop: int = Field(
        2, ge=1, le=20, description="A backend whose answers brought no new source this many rounds in a row rests "
        "for the rest of the cycle.",
    )

    # --- web search, the search cache and page store, page fetching ---------------------------------------------------
    web_engine: str = Field(
        "auto",
        description="ddgs backend for web search: 'auto' (a metasearch over several engines), 'duckduckgo' (DDG "
        "alone), or a comma list of ddgs engine names.",
    )
    searxng_url: str | None = Field(
        None,
        description="Base URL of a SearXNG instance (e.g. http://localhost:8888): the first web backend, ddgs the "
        "fallback. Its JSON format must be enabled (search: formats: [html, json] in settings.yml). It may be on "
        "this machine or the local network (your own instance); cloud metadata addresses stay refused.",
    )
    searxng_engines: str | None = Field(
        None, description="Comma list of SearXNG engines to ask (e.g. 'wikipedia,duckduckgo'); unset: the "
        "instance's defaults."
    )
    searxng_categories: str | None = Field(
        None, description="Comma list of SearXNG categories (e.g. 'general,science'); unset: the instance's defaults."
    )
    searxng_language: str | None = Field(
        None, description="Language of SearXNG results (e.g. 'en', 'de-CH', 'all'); unset: the instance's default."
    )
    web_timeout_s: float = Field(8.0, gt=0, le=120, description="Time-out of one web search call, in seconds.")
    web_circuit_cooldown_s: float = Field(
        300.0,
        ge=0,
        le=86_400,
        description="After circuit_consecutive_failures connection failures in a row (DNS, refused, unreachable) the "
        "web backend fails fast for this many seconds, so the chain falls back at once instead of retrying.",
    )
    store_url: str | None = Field(
        None,
        description="SQLAlchemy URL of the search cache, the page store and the texts of the sources runs read (e.g. "
        "postgresql+psycopg://host/db to share it between workers); default: the SQLite file store.sqlite in "
        "data_dir.",
    )
    fetch_timeout_s: float = Field(
        10.0, gt=0, le=300, description="Time allowed to fetch one page (connect, each read, and the whole body)."
    )
    fetch_max_bytes: int = Field(
        2_000_000, ge=1024, le=100_000_000, description="Bytes of a page body read at most; the rest is not downloaded."
    )
    fetch_max_redirects: int = Field(5, ge=0, le=20, description="Redirects followed per page at most.")
    allow_private_addresses: bool = Field(
        False,
        description="Let page fetching reach loopback, private and link-local addresses (off: the SSRF guard refuses "
        "them, also after DNS resolution and after every redirect). Cloud metadata addresses stay refused.",
    )
    enrich_max_fetches: int = Field(
        8,
        ge=0,
        le=100,
        description="Page fetches tried per round at most, read or not, so a round of dead links cannot stall the "
        "loop.",
    )
    page_max_chars: int = Field(
        20_000, ge=200, le=10_000_000, description="Characters of a read page's main text kept as the source text."
    )

    # --- the model: which one does what, call sizes and time-outs, failures; metrics ----------------------------------
    llm_planner: str | None = Field(
        None, description="Model for planning and reflection ('none', 'ollama:MODEL', 'provider:model'); unset: llm."
    )
    llm_compressor: str | None = Field(
        None, description="Model for knowledge compression and model-based novelty; unset: llm."
    )
    llm_synthesizer: str | None = Field(None, description="Model that writes the cited claims; unset: llm.")
    llm_critic: str | None = Field(None, description="Model of the completeness critic; unset: llm.")
    model_profile: Literal["full", "small"] = Field(
        "full",
        description="'full': the model plans, compresses, reflects, critiques and writes the answer. 'small' (for "
        "a local model of a few billion parameters on a CPU): the model only writes the answer, from numbered "
        "sentences it cites by number; planning, compression, reflection, the critic and yes/no or which-of-two "
        "verdicts are deterministic (done by a 1.5B model they measured slower and worse).",
    )
    model_warm_up: bool = Field(
        True,
        description="When a process loads a GGUF model in-process, one short synthesis call about invented sentences "
        "measures how fast it reads and writes (and leaves the instructions in its cache), so the run's first real "
        "call is sized to that speed instead of a guessed one.",
    )
    model_threads: int = Field(
        0,
        ge=0,
        le=256,
        description="CPU threads of an in-process GGUF model; 0: one per physical core. On a machine other work keeps "
        "busy, fewer threads than cores avoid llama.cpp's threads waiting for each other.",
    )
    small_model_calls: int = Field(
        1,
        ge=0,
        le=20,
        description="With model_profile='small': the model calls a run makes at most (re-asks included; 0: no limit). "
        "A 1.5B model on a CPU takes about a minute a call; after the last call, each synthesis merges the run's "
        "model answer with the deterministic one without asking again.",
    )
    ollama_base_url: str | None = Field(
        None,
        description="Where Ollama listens; unset: the OLLAMA_HOST environment variable as the Ollama CLI reads it, "
        "else http://127.0.0.1:11434 (the Ollama CLI's default).",
    )
    ollama_default_model: str = Field(
        "qwen2.5:7b",
        description="The model llm='auto' prefers; when it is not pulled, auto takes the first chat model Ollama has.",
    )
    num_ctx: int = Field(
        8192,
        ge=1024,
        le=1_048_576,
        description="Context window asked of the model (Ollama's own default, 2048, silently truncates satiate's "
        "prompts); prompts are also trimmed to fit it, for every provider.",
    )
    temperature: float = Field(0.1, ge=0.0, le=2.0, description="Sampling temperature of structured model calls.")
    num_predict: int = Field(
        1024, ge=16, le=32_768, description="Most tokens a model may generate in one call (structured answers)."
    )
    novelty_num_predict: int = Field(
        3, ge=1, le=64, description="Tokens the model may write for a novelty score (a number 0-10 needs 1-3)."
    )
    model_timeout_s: float = Field(
        120.0, gt=0, le=3600, description="Client time-out of one model call in seconds (the Ollama client has none)."
    )
    model_max_retries: int = Field(
        2,
        ge=0,
        le=5,
        description="Re-asks after an unusable model answer (the validation error is fed back); then the "
        "deterministic engine answers that one call.",
    )
    allow_engine_fallback: bool = Field(
        True,
        description="When a model that answered at the start stops answering during the run, continue that call on "
        "the deterministic engine and say so; off: stop with a clear error instead (resume later). A model named "
        "explicitly that does not answer at the start always stops the run (exit 2); only llm='auto' falls back then.",
    )
    model_circuit_failures: int = Field(
        3,
        ge=1,
        le=100,
        description="Consecutive failed model calls (connection, time-out) after which the engine stops calling "
        "the model for the rest of the process and answers deterministically.",
    )
    probe_timeout_s: float = Field(
        3.0, gt=0, le=60, description="Time-out of the start-up check that the model server and model answer."
    )
    metrics_port: int | None = Field(
        None,
        ge=0,
        le=65535,
        description="Serve Prometheus metrics on this port (needs prometheus-client); unset: metrics only in the "
        "run output.",
    )

    # --- angles, reading, breadcrumbs, critic, claims (design §2, §3, §8, §12) ----------------------------------------
    angles: list[Angle] = Field(
        default_factory=lambda: list(ALL_ANGLES),
        description="Search angles fanned out per round; counter_argument is always kept.",
    )
    corpus_angles: list[Angle] = Field(
        default_factory=lambda: list[Angle](["entity", "counter_argument"]),
        description="Search angles fanned out when every backend is local (a corpus or the built-in documentation): "
        "time-window and source-type words mean something to a web search engine, but to a local index they are "
        "noise that brings unrelated passages. counter_argument is always kept.",
    )
    question_results: int = Field(
        4, ge=1, le=100, description="Passages read from a local search for the question itself (or the question "
        "with a bridge entity found); the other results are kept as seen, not read.",
    )
    angle_results: int = Field(
        1, ge=1, le=100, description="Passages read from a local search for a named entity or another angle; a "
        "name's own page ranks first, so one is usually enough.",
    )
    breadcrumb_results: int = Field(
        2, ge=1, le=100, description="Passages read from a local search that follows a breadcrumb (a name found in "
        "what was read, plus the part of the question it has not answered yet).",
    )
    max_breadcrumbs: int = Field(
        5, ge=0, le=20, description="Breadcrumbs (entities found in sources) followed a round."
    )
    seen_results: int = Field(
        2, ge=0, le=20, description="Passages read a round from results that earlier searches returned but did not "
        "read, when one of their sentences now ranks among the best for the question (a bridge found later can make "
        "a passed-over result the answer's page).",
    )
    seen_min_share: float = Field(
        0.5, ge=0.0, le=1.0,
        description="A result seen but not read is read only when its best sentence scores at least this share of "
        "the best sentence read for the question (so a passage that merely shares a common word is left unread).",
    )
    required_signoffs: int = Field(2, ge=1, le=10, description="Consecutive clean critic sign-offs that end the run.")
    answer_signoff_score: float = Field(
        0.4, ge=0.0, le=1.0,
        description="Stop reading once the short answer found in the sources read scores at least this (0-1) and its "
        "evidence sentences mention every name the question gives: reflection calls the round sufficient and the "
        "critic signs off (deterministic engine). 1.0 never stops early.",
    )
    short_answer_commit_threshold: float = Field(
        0.8, ge=0.0, le=1.0, description="Confidence (0-1) the cited chain must give a short answer before the report "
        "shows it in bold as the answer; below it the report says what the sources establish and what they leave open."
    )
    max_claims: int = Field(8, ge=1, le=100, description="Claims in the synthesized answer at most.")
    brief_chars: int = Field(
        1200, ge=200, le=20_000, description="Length (characters) of the brief that answers an explanation question "
        "without a model: runs of sentences from the best pages, in document order.",
    )
    support_min_overlap: float = Field(
        0.6, ge=0.0, le=1.0, description="Share of a claim's content words that must occur in the cited passage."
    )

    # --- run identity -------------------------------------------------------------------------------------------------
    seed: int | None = Field(
        None, ge=0, le=2**63 - 1,
        description="Seed of the random draws (novelty_epsilon); chosen at random and stored when not given, so a "
        "run can be replayed.",
    )
    max_question_chars: int = Field(4000, ge=10, le=1_000_000, description="Longest question accepted.")

    @field_validator("backends", "angles", "corpus_angles", mode="before")
    @classmethod
    def _split_comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("query_ceilings")
    @classmethod
    def _ceilings_in_range(cls, value: dict[str, int]) -> dict[str, int]:
        # bounded like every integer setting, so a huge value is refused here and not at the first checkpoint
        wrong = {name: ceiling for name, ceiling in value.items() if not 0 <= ceiling <= QUERY_CEILING_MAX}
        if wrong:
            raise ValueError(f"query ceilings must be 0-{QUERY_CEILING_MAX} (got {wrong})")
        return value

    @field_validator("backends")
    @classmethod
    def _known_backends(cls, value: list[str]) -> list[str]:
        known = {"auto", "corpus", "searxng", "web", "builtin"}
        unknown = [b for b in value if b not in known]
        if unknown or not value:
            raise ValueError(f"unknown backend(s) {unknown}; use a comma list of {sorted(known)}")
        return value

    @field_validator("angles", "corpus_angles")
    @classmethod
    def _keep_counter_argument(cls, value: list[str]) -> list[str]:
        # The counter-argument searcher is what keeps the loop out of an echo chamber (design §2).
        ordered = list(dict.fromkeys(value))
        if "counter_argument" not in ordered:
            ordered.append("counter_argument")
        return ordered

    @field_validator("searxng_url")
    @classmethod
    def _searxng_url_shape(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("use the instance's base URL, e.g. http://localhost:8888")
        return value

    @field_validator("llm")
    @classmethod
    def _llm_shape(cls, value: str) -> str:
        value = value.strip()
        if value in {"none", "auto"} or (":" in value and all(value.split(":", 1))):
            return value
        raise ValueError("use 'none', 'auto', 'ollama:MODEL', 'gguf:PATH' or 'provider:model'")

    @field_validator("llm_planner", "llm_compressor", "llm_synthesizer", "llm_critic")
    @classmethod
    def _role_llm_shape(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if value == "none" or (":" in value and all(value.split(":", 1))):
            return value
        raise ValueError("use 'none', 'ollama:MODEL', 'gguf:PATH' or 'provider:model'")

    @model_validator(mode="after")
    def _rounds_cover_minimum(self) -> Settings:
        if self.max_search_rounds < self.searches_per_task:
            raise ValueError(
                f"max_search_rounds ({self.max_search_rounds}) must be at least searches_per_task "
                f"({self.searches_per_task})"
            )
        return self

    # --- derived values -----------------------------------------------------------------------------------------------
    @property
    def budget(self) -> TierBudget:
        """The tier's budget with explicit overrides applied."""
        base = TIER_BUDGETS[self.tier]
        return TierBudget(
            max_cycles=self.max_cycles or base.max_cycles,
            max_queries_per_round=self.max_queries_per_round or base.max_queries_per_round,
            max_results_per_query=self.max_results_per_query or base.max_results_per_query,
        )

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def wants_web(self) -> bool:
        """Whether 'auto' searches the web: not offline, not switched off, and beside a corpus only when asked
        (--web, or a SearXNG instance given)."""
        if self.offline or self.web is False:
            return False
        return bool(self.web) or bool(self.searxng_url) or not self.corpus

    def resolved_backends(self) -> list[str]:
        """Expand 'auto' into the concrete fallback chain: the corpus if given, the web when wanted; then builtin.

        With a SearXNG instance set, 'searxng' goes before every 'web' (ddgs is its fallback). An explicit 'web'
        stays in the chain even when offline, so that building it fails with a clear message instead of a run
        quietly searching something else.
        """
        chain: list[str] = []
        for name in self.backends:
            if name != "auto":
                chain += ["searxng", name] if name == "web" and self.searxng_url else [name]
                continue
            if self.corpus:
                chain.append("corpus")
            if self.wants_web:
                chain += ["searxng", "web"] if self.searxng_url else ["web"]
            chain.append("builtin")
        return list(dict.fromkeys(chain))

    def search_sides(self, chain: list[str]) -> list[list[str]]:
        """The fallback chains one query runs, each on its own: the corpus and the web side by side in local + web
        mode ('auto' with a corpus and the web wanted: a user researching a folder and the web wants both every
        round), else ``chain`` alone. An explicit ``backends`` list stays what it says, a fallback chain.

        The built-in documentation stays the last fallback of the web side; offline has no web side at all.
        """
        web_side = [name for name in chain if name != "corpus"]
        local_and_web = "auto" in self.backends and bool(self.corpus) and self.wants_web
        if not local_and_web or "corpus" not in chain or not any(name in WEB_BACKENDS for name in web_side):
            return [chain] if chain else []
        return [["corpus"], web_side]


# URL settings that may carry a password (user:password@host): shown masked wherever settings leave the run
URL_SETTINGS = ("store_url", "ollama_base_url", "searxng_url")


def redacted(url: str) -> str:
    """The URL with its password masked, for messages, logs and results."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def shown_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as a result or report hands them on: every password in a URL setting masked. (The run's state keeps
    the URL as given, since a resume reconnects with it; a password from PGPASSWORD or ~/.pgpass is kept nowhere.)"""
    return {name: redacted(value) if name in URL_SETTINGS and isinstance(value, str) else value
            for name, value in values.items()}


def setting_default(name: str) -> Any:
    """A setting's default, for a component that takes the same number on its own (so the number lives only here)."""
    return Settings.model_fields[name].get_default(call_default_factory=True)


def environment_overrides(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Settings given as ``SATIATE_<FIELD>`` environment variables."""
    environ = os.environ if environ is None else environ
    found: dict[str, str] = {}
    for name in Settings.model_fields:
        key = ENV_PREFIX + name.upper()
        if key in environ and environ[key] != "":
            found[name] = environ[key]
    return found


def resolve_settings(
    *per_run: Mapping[str, Any] | None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Resolve settings: the per-run layers (earlier wins) beat the environment, which beats the defaults.

    ``None`` values in a layer mean "not set here", so a Studio form that sends every field blank does not mask
    the environment. Raises SettingsError with a one-line, user-facing message.
    """
    merged: dict[str, Any] = dict(environment_overrides(environ))
    for layer in reversed([layer for layer in per_run if layer]):
        unknown = sorted(set(layer) - set(Settings.model_fields))
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(unknown)}")
        merged.update({key: value for key, value in layer.items() if value is not None})
    try:
        return Settings(**merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "settings"
        raw = merged.get(str(first["loc"][0])) if first["loc"] else None
        shown = f" (got {raw!r})" if raw is not None else ""
        raise SettingsError(f"invalid setting {field}{shown}: {first['msg']}") from None


def tier_chosen(*layers: Mapping[str, Any] | None, environ: Mapping[str, str] | None = None) -> bool:
    """Did the user set the tier (per run, in Studio, or as SATIATE_TIER)? An explicit tier beats the planner's."""
    return any(layer and layer.get("tier") is not None for layer in layers) or "tier" in environment_overrides(environ)


def with_planned_tier(settings: Settings, planned: Tier | None, *layers: Mapping[str, Any] | None,
                      environ: Mapping[str, str] | None = None) -> Settings:
    """The planner's classification of the question sets the budgets (design §13), unless the user chose a tier in
    one of the per-run ``layers`` or the environment."""
    if planned and planned != settings.tier and not tier_chosen(*layers, environ=environ):
        return settings.model_copy(update={"tier": planned})
    return settings
