"""The model engine: every research decision asked of a chat model, each call with its own deterministic fallback.

Each method renders its prompt file (``satiate/prompts``), trims what it quotes so the prompt fits ``num_ctx``, asks
for structured output (JSON schema, then the tolerant parser of ``tools.llm.structured``), applies satiate's own
checks to the answer, and re-asks with the problem fed back at most ``model_max_retries`` times. When no usable
answer comes, or the model cannot be reached, the deterministic engine answers that one call and the decision
carries ``fallbacks=1`` and a typed error record (seed 002 §5.4, §14): never a silent retry of the topic, never an
unbounded loop. Whatever the model says about sources, the grounding gate in ``nodes/synthesize.py`` still checks
every citation against stored text.

Context and token budget (seed 002 §9): every prompt is built to fit ``num_ctx`` (estimated at 4 characters a
token, with a 20 % margin, after reserving room for the answer). Sources are ranked by how much of the question
they speak to; the budget is shared among them (short ones take only what they need); when there is not room for
all, the lower-ranked ones are shown only as handles (id and title) or left out, and the call counts a
``prompt_truncations``. When less than 25 % of the run's token budget is left, prompts are built at half size.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine, angle_queries, fresh_queries
from satiate.engine.prompt_material import (
    Prompt,
    bullet_summary,
    executed_list,
    first_integer,
    fit_lines,
    normalize_angle,
    normalize_source_id,
    results_text,
    room_left,
    schema_text,
    search_lines,
    source_digest,
    thin_records,
)
from satiate.engine.text import normalize_query, simplify_query, truncate
from satiate.prompts.loader import load_prompt, quote_data
from satiate.state.contracts import (
    CriticGap,
    CriticReport,
    ErrorDetail,
    ErrorResponse,
    PlanQueryModel,
    PlanResponse,
    ReflectionResponse,
    SynthesisResponse,
)
from satiate.state.records import ErrorRecord, Hit, SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.errors import CallFailure, ModelUnavailable, classify_failure
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.structured import CallFailed, ModelReply, OutputInvalid, call_structured, call_text
from satiate.tools.llm.tokens import CHARS_PER_TOKEN, prompt_char_budget

T = TypeVar("T")
logger = logging.getLogger("satiate.model")

ROLES = ("planner", "compressor", "synthesizer", "critic")
TASK_ROLES = {"plan": "planner", "plan_query": "planner", "reflect": "planner", "novelty": "compressor",
              "compress": "compressor", "synthesize": "synthesizer", "critic": "critic"}
TASK_NODES = {"plan": "plan", "plan_query": "reflect", "reflect": "reflect", "novelty": "novelty_gate",
              "compress": "compress", "synthesize": "synthesize", "critic": "critic"}
NEUTRAL_NOVELTY = 5  # seed 001: the score used when the model's answer holds no integer
NOVELTY_KNOWLEDGE_CHARS = 800  # seed 001 quotes this much of the knowledge state ...
NOVELTY_RESULTS_CHARS = 800  # ... and of the new results in the novelty prompt
PLAN_QUERY_MAX_TOKENS = 60  # seed 001's plan_query output cap
PLAN_QUERY_TEMPERATURE = 0.3  # seed 001
COMPACTION_SHARE = 0.25  # seed 002 §9: compact when less than this share of the token budget is left
DEGRADED_NOTE = ("\nNote: search capabilities were limited, so this answer rests on partial information; say so "
                 "where it matters.\n")


@dataclass
class ModelDecision(Decision[T]):
    """A decision with the model layer's own counters: answers that needed repair, prompts that had to be trimmed."""

    repairs: int = 0
    truncations: int = 0

    def counters(self) -> dict[str, int]:
        return {**super().counters(), "model_repairs": self.repairs, "prompt_truncations": self.truncations}




@dataclass(frozen=True)
class ModelConfig:
    """The model-side knobs of an engine (the run-side ones come with each view's settings)."""

    num_ctx: int
    num_predict: int
    novelty_num_predict: int
    temperature: float
    max_retries: int
    allow_fallback: bool
    circuit_failures: int

    @classmethod
    def from_settings(cls, settings: Settings) -> ModelConfig:
        return cls(settings.num_ctx, settings.num_predict, settings.novelty_num_predict, settings.temperature,
                   settings.model_max_retries, settings.allow_engine_fallback, settings.model_circuit_failures)

    def reserved_output(self, wanted: int | None = None) -> int:
        """Tokens kept free for the answer: the output cap, but never more than half the context."""
        return min(wanted or self.num_predict, self.num_ctx // 2)


# --- pure helpers: what the prompts quote -------------------------------------------------------------------------------
class ModelEngine:
    """``ResearchEngine`` backed by chat models (one per role, or one for all), falling back per call."""

    def __init__(
        self,
        models: Any | Mapping[str, Any],
        settings: Settings | None = None,
        *,
        fallback: Any | None = None,
        label: str | None = None,
        notice: str | None = None,
    ) -> None:
        settings = settings or Settings()
        if isinstance(models, Mapping):
            unknown = set(models) - set(ROLES)
            if unknown:
                raise ValueError(f"unknown model roles {sorted(unknown)}; roles are {ROLES}")
            self.models: dict[str, Any] = {role: models.get(role) for role in ROLES}
        else:
            self.models = {role: models for role in ROLES}
        self.config = ModelConfig.from_settings(settings)
        self.fallback = fallback or DeterministicEngine()
        names = {getattr(m, "model_name", None) or getattr(m, "model", None) or type(m).__name__
                 for m in self.models.values() if m is not None}
        self.label = label or f"model:{'+'.join(sorted(str(n) for n in names)) or 'none'}"
        self.notice = notice
        self._lock = threading.Lock()
        self._consecutive_transport_failures = 0
        self._run_tokens: dict[tuple, int] = {}

    # --- plan -----------------------------------------------------------------------------------------------------------
    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        target = (target or view.question).strip()
        limit = view.settings.budget.max_queries_per_round

        def build(budget: int) -> Prompt:
            template = load_prompt("plan")
            question, quoted_target = quote_data(view.question, "question"), quote_data(target, "target")
            schema, angles = schema_text(PlanResponse), ", ".join(view.settings.angles)
            room = room_left(budget, template, question, quoted_target, schema, angles)
            executed, dropped = fit_lines(executed_list(view), room - 40)
            return Prompt(template.render(
                question=question, target=quoted_target,
                executed_queries=quote_data(executed or "(none yet)", "executed"), max_queries=limit,
                angles=angles, schema=schema,
            ), truncations=int(dropped > 0))

        def call(model: Any, prompt: Prompt) -> ModelReply[PlanResponse]:
            return call_structured(model, PlanResponse, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda plan: self._refine_plan(view, target, plan, limit),
                                   config=self._run_config("plan"))

        return self._decide("plan", view, build, call, lambda: self.fallback.plan(view, target))

    def _refine_plan(self, view: ResearchView, target: str, plan: PlanResponse, limit: int) -> PlanResponse:
        """Our guarantees on a plan: the target first, a counter-argument query, nothing already sent, the cap."""
        executed = view.executed_queries()
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in plan.queries]
        own = PlanQueryModel(query=truncate(target, 400), intent="the target as asked", angle="question")
        queries = fresh_queries([own, *proposed], executed, limit)
        if "counter_argument" in view.settings.angles and not any(q.angle == "counter_argument" for q in queries):
            counter = [q for q in angle_queries(target, ["counter_argument"]) if q.angle == "counter_argument"]
            taken = executed | {normalize_query(q.query) for q in queries}
            extra = fresh_queries(counter, taken, 1)
            if extra:
                queries = [*queries[: max(1, limit - 1)], *extra][:limit] if limit > 1 else queries
        if not queries:
            raise OutputInvalid("every query proposed was already sent; propose different queries")
        return PlanResponse(queries=queries, tier=plan.tier)

    # --- novelty and compression ----------------------------------------------------------------------------------------
    def novelty(self, view: ResearchView, hits: list[Hit]) -> Decision[int]:
        """Seed 001's model-based novelty (temperature 0, a few output tokens, neutral 5 when no integer comes back)
        when ``novelty_mode`` is 'model'; otherwise the heuristic, with no model call."""
        if view.settings.novelty_mode != "model" or not hits:
            return self.fallback.novelty(view, hits)

        def build(budget: int) -> Prompt:
            room = room_left(budget, load_prompt("novelty")) - 60
            knowledge = truncate(view.knowledge_state, min(NOVELTY_KNOWLEDGE_CHARS, room // 2))
            results = truncate(results_text(hits), min(NOVELTY_RESULTS_CHARS, room // 2))
            return Prompt(load_prompt("novelty").render(
                knowledge_state=quote_data(knowledge or "(nothing yet)", "knowledge"),
                new_results=quote_data(results, "results"),
            ))

        def call(model: Any, prompt: Prompt) -> ModelReply[int]:
            tuned = with_call_options(model, temperature=0.0, max_tokens=self.config.novelty_num_predict)
            reply = call_text(tuned, prompt.messages, max_retries=0, refine=first_integer,
                              config=self._run_config("novelty"))
            score = min(10, max(0, reply.value))
            repairs = reply.repairs + (("clamped score",) if score != reply.value else ())
            return ModelReply(score, reply.calls, reply.tokens, reply.tokens_estimated, repairs, reply.problems)

        return self._decide("novelty", view, build, call, lambda: self.fallback.novelty(view, hits),
                            reserve=self.config.novelty_num_predict, on_invalid=lambda: NEUTRAL_NOVELTY)

    def compress(self, view: ResearchView, new_sources: list[SourceRecord]) -> Decision[str]:
        """Fold new sources into the rolling summary; the first round takes seed 001's fast path (no model call)."""
        if not view.knowledge_state or not new_sources:
            return self.fallback.compress(view, new_sources)
        max_chars = view.settings.knowledge_max_chars
        wanted = math.ceil(max_chars / CHARS_PER_TOKEN * 1.3) + 16

        def build(budget: int) -> Prompt:
            template = load_prompt("compress")
            question = quote_data(view.question, "question")
            room = room_left(budget, template, question) - 60
            knowledge = truncate(view.knowledge_state, min(max_chars, room // 2))
            digest = source_digest(new_sources, view.question, room - len(knowledge))
            return Prompt(template.render(
                question=question,
                knowledge_state=quote_data(knowledge, "knowledge"),
                new_results=f"<results>\n{digest.text}\n</results>", max_chars=max_chars,
            ), truncations=digest.truncations)

        def call(model: Any, prompt: Prompt) -> ModelReply[str]:
            tuned = with_call_options(model, max_tokens=min(wanted, self.config.num_predict))
            return call_text(tuned, prompt.messages, max_retries=self.config.max_retries,
                             refine=lambda text: bullet_summary(text, max_chars), config=self._run_config("compress"))

        return self._decide("compress", view, build, call, lambda: self.fallback.compress(view, new_sources),
                            reserve=wanted)

    # --- reflect --------------------------------------------------------------------------------------------------------
    def reflect(self, view: ResearchView) -> Decision[ReflectionResponse]:
        limit = view.settings.budget.max_queries_per_round
        thin = thin_records(view)

        def build(budget: int) -> Prompt:
            template = load_prompt("reflect")
            question, schema = quote_data(view.question, "question"), schema_text(ReflectionResponse)
            room = room_left(budget, template, question, schema) - 120
            knowledge = truncate(view.knowledge_state, room // 2)
            searches, dropped = fit_lines(search_lines(view), room // 3)
            thin_text, _ = fit_lines([f"{r['query']} ({r['outcome']}, {len(r['hits'])} results)" for r in thin],
                                     room // 6)
            return Prompt(template.render(
                question=question,
                knowledge_state=quote_data(knowledge or "(nothing yet)", "knowledge"),
                searches=quote_data(searches or "(none)", "searches"),
                thin_queries=quote_data(thin_text or "(none)", "thin"),
                thin_count=view.settings.thin_result_count, max_queries=limit, schema=schema,
            ), truncations=int(dropped > 0 or len(knowledge) < len(view.knowledge_state)))

        def call(model: Any, prompt: Prompt) -> ModelReply[ReflectionResponse]:
            reply = call_structured(model, ReflectionResponse, prompt.messages, max_retries=self.config.max_retries,
                                    refine=lambda r: self._refine_reflection(view, r, limit),
                                    config=self._run_config("reflect"))
            if reply.value.sufficient or reply.value.new_queries:
                return reply
            return self._gap_query(model, view, reply)

        return self._decide("reflect", view, build, call, lambda: self.fallback.reflect(view))

    def _refine_reflection(self, view: ResearchView, reflection: ReflectionResponse, limit: int) -> ReflectionResponse:
        """The model's queries first, then the mechanical ones it missed: reformulations of failed or thin searches
        (seed 002 §6.2) and breadcrumbs (seed 004). Nothing already sent; the per-round cap."""
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in reflection.new_queries]
        if not reflection.sufficient:
            mechanical = self.fallback.reflect(view).value.new_queries
            proposed += [q for q in mechanical if q.angle == "breadcrumb" or q.intent.startswith("reformulation")]
        queries = fresh_queries(proposed, view.executed_queries(), limit)
        return reflection.model_copy(update={"new_queries": queries})

    def _gap_query(self, model: Any, view: ResearchView, reply: ModelReply[ReflectionResponse]
                   ) -> ModelReply[ReflectionResponse]:
        """Not sufficient, yet nothing new to ask: seed 001's plan_query, one gap-filling query (one call, no retry)."""
        template = load_prompt("plan_query")
        question = quote_data(view.question, "question")
        budget = prompt_char_budget(self.config.num_ctx, self.config.reserved_output(PLAN_QUERY_MAX_TOKENS))
        room = room_left(budget, template, question) - 80
        executed, _ = fit_lines(executed_list(view), room // 3)
        messages = template.render(
            question=question,
            knowledge_state=quote_data(truncate(view.knowledge_state, room // 2) or "(nothing yet)", "knowledge"),
            executed_queries=quote_data(executed or "(none yet)", "executed"),
        )
        known = view.executed_queries()

        def refine(text: str) -> str:
            query = text.strip().splitlines()[0].strip().strip("\"'`").strip() if text.strip() else ""
            if not query or len(query) > 400 or normalize_query(query) in known:
                raise OutputInvalid("no new search query")
            return query

        tuned = with_call_options(model, temperature=PLAN_QUERY_TEMPERATURE, max_tokens=PLAN_QUERY_MAX_TOKENS)
        try:
            extra = call_text(tuned, messages, max_retries=0, refine=refine, config=self._run_config("plan_query"))
        except CallFailed as failed:  # no gap query: the loop moves on to synthesis, which is what "nothing new" means
            return ModelReply(reply.value, reply.calls + failed.calls, reply.tokens + failed.tokens,
                              reply.tokens_estimated, reply.repairs, reply.problems)
        query = PlanQueryModel(query=extra.value, intent="gap-filling query (plan_query)", angle="gap")
        value = reply.value.model_copy(update={"new_queries": [query]})
        return ModelReply(value, reply.calls + extra.calls, reply.tokens + extra.tokens, reply.tokens_estimated,
                          reply.repairs + extra.repairs, reply.problems)

    # --- synthesize -----------------------------------------------------------------------------------------------------
    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        if not view.sources:
            return self.fallback.synthesize(view)  # nothing to synthesize from: no model call needed
        shown: list[str] = []

        def build(budget: int) -> Prompt:
            template = load_prompt("synthesize")
            question, schema = quote_data(view.question, "question"), schema_text(SynthesisResponse)
            note = DEGRADED_NOTE if view.degraded else ""
            room = room_left(budget, template, question, schema, note) - 6 * len(view.sources) - 40
            digest = source_digest(view.sources, f"{view.question} {view.target}", room)
            shown[:] = digest.shown_ids
            return Prompt(template.render(
                question=question, degraded_note=note, sources=digest.text, source_ids=", ".join(digest.shown_ids),
                max_claims=view.settings.max_claims, schema=schema,
            ), truncations=digest.truncations)

        def call(model: Any, prompt: Prompt) -> ModelReply[SynthesisResponse]:
            return call_structured(model, SynthesisResponse, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda s: self._refine_synthesis(view, s, shown),
                                   config=self._run_config("synthesize"))

        return self._decide("synthesize", view, build, call, lambda: self.fallback.synthesize(view))

    def _refine_synthesis(self, view: ResearchView, synthesis: SynthesisResponse, shown: list[str]
                          ) -> SynthesisResponse:
        """At least one claim that cites a shown source; ids tidied ('[S3]' -> 'S3'); the claim cap. Unknown ids are
        left for the grounding gate to cut and record."""
        known = {s["id"] for s in view.sources}
        claims = [c.model_copy(update={"source_ids": [normalize_source_id(i, known) for i in c.source_ids]})
                  for c in synthesis.claims][: view.settings.max_claims]
        if not claims:
            raise OutputInvalid("there are no claims; write claims that answer the question from the sources")
        if not any(set(c.source_ids) & known for c in claims):
            raise OutputInvalid(f"no claim cites a valid source id; cite only these ids: {', '.join(shown)}")
        return synthesis.model_copy(update={"claims": claims})

    # --- critic ---------------------------------------------------------------------------------------------------------
    def critique(self, view: ResearchView) -> Decision[CriticReport]:
        def build(budget: int) -> Prompt:
            template = load_prompt("critic")
            question, schema = quote_data(view.question, "question"), schema_text(CriticReport)
            room = room_left(budget, template, question, schema) - 120
            claim_lines = [f"{n}. {c['claim']} [{', '.join(c['source_ids'])}] ({c['verification']})"
                           for n, c in enumerate(view.claims, 1)]
            claims, cut_claims = fit_lines(claim_lines, room // 2, keep="first")
            handles, cut_sources = fit_lines(
                [f"{s['id']} | {s['angle']} | {s['title'][:100]}" for s in view.sources], room // 4, keep="first")
            executed, cut_queries = fit_lines(executed_list(view), room // 5)
            return Prompt(template.render(
                question=question,
                claims=quote_data(claims or "(no claim passed the grounding check)", "claims"),
                sources=quote_data(handles or "(none)", "sources"),
                executed_queries=quote_data(executed or "(none)", "executed"), schema=schema,
            ), truncations=int(cut_claims + cut_sources + cut_queries > 0))

        def call(model: Any, prompt: Prompt) -> ModelReply[CriticReport]:
            return call_structured(model, CriticReport, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda r: self._refine_report(view, r), config=self._run_config("critic"))

        return self._decide("critic", view, build, call, lambda: self.fallback.critique(view))

    def _refine_report(self, view: ResearchView, report: CriticReport) -> CriticReport:
        """Sign-off means no material gap, whatever the model wrote; an answer with no claim is never complete."""
        gaps = list(report.gaps)
        if not view.claims and not any(g.material for g in gaps):
            gaps.insert(0, CriticGap(kind="modality", description="No grounded claim answers the question yet.",
                                     query=simplify_query(view.question), priority=9.0, material=True))
        return CriticReport(gaps=gaps, signoff=not any(g.material for g in gaps))

    # --- the per-call machinery -----------------------------------------------------------------------------------------
    def _run_config(self, task: str) -> dict[str, Any]:
        return {"run_name": f"satiate.{task}", "metadata": {"satiate_task": task}, "tags": ["satiate", task]}

    def _run_key(self, view: ResearchView) -> tuple:
        return (view.question, view.settings.seed)

    def _compact(self, view: ResearchView) -> bool:
        """Seed 002 §9: less than 25 % of the run's token budget left -> build prompts at half size."""
        budget = view.settings.token_budget
        if not budget:
            return False
        # The state's meter covers earlier nodes (and resumed runs); the engine's own count covers calls made
        # inside the current node before the state is updated. The larger is the truth so far.
        with self._lock:
            own = self._run_tokens.get(self._run_key(view), 0)
        used = max(view.tokens_used, own)
        return budget - used < COMPACTION_SHARE * budget

    def _circuit_open(self) -> bool:
        with self._lock:
            return self._consecutive_transport_failures >= self.config.circuit_failures

    def _decide(
        self,
        task: str,
        view: ResearchView,
        build: Callable[[int], Prompt],
        call: Callable[[Any, Prompt], ModelReply],
        fallback: Callable[[], Decision],
        *,
        reserve: int | None = None,
        on_invalid: Callable[[], Any] | None = None,
    ) -> Decision:
        model = self.models[TASK_ROLES[task]]
        if model is None:  # this role is configured 'none': deterministic by choice, not a fallback
            return fallback()
        if self._circuit_open():
            failure = CallFailure("model_circuit_open", f"{self.config.circuit_failures} model calls in a row could "
                                  "not reach the model, so it is no longer asked", False)
            return self._fall_back(task, view, fallback, failure, calls=0, tokens=0)
        compact = self._compact(view)
        budget = prompt_char_budget(self.config.num_ctx, self.config.reserved_output(reserve))
        prompt = build(budget // 2 if compact else budget)
        started = time.perf_counter()
        try:
            reply = call(model, prompt)
        except CallFailed as failed:
            self._record_transport(failed.failure.transport)
            self._account(view, failed.tokens)
            self._log(task, failed.calls, failed.tokens, failed.failure.kind, started)
            if failed.failure.transport and not self.config.allow_fallback:
                raise ModelUnavailable(f"{failed.failure.message} (allow_engine_fallback is off)") from failed
            if on_invalid is not None and failed.failure.kind == "model_output_invalid":
                record = self._error_record(task, view, failed.failure, "a neutral value was used")
                return ModelDecision(on_invalid(), tokens=failed.tokens, model_calls=failed.calls,
                                     retries=max(0, failed.calls - 1), fallbacks=1, errors=[record],
                                     truncations=prompt.truncations)
            return self._fall_back(task, view, fallback, failed.failure, calls=failed.calls, tokens=failed.tokens,
                                   truncations=prompt.truncations)
        except ModelUnavailable:
            raise
        except Exception as error:  # a bug in our own handling must not end the run: recorded, then the fallback
            failure = classify_failure(error)
            self._log(task, 1, 0, failure.kind, started)
            return self._fall_back(task, view, fallback, failure, calls=1, tokens=0, truncations=prompt.truncations)
        self._record_transport(False)
        self._account(view, reply.tokens)
        self._log(task, reply.calls, reply.tokens, "repaired" if reply.repairs else "ok", started)
        return ModelDecision(reply.value, tokens=reply.tokens, model_calls=reply.calls, retries=reply.retries,
                             repairs=int(bool(reply.repairs)), truncations=prompt.truncations)

    def _fall_back(self, task: str, view: ResearchView, fallback: Callable[[], Decision], failure: CallFailure, *,
                   calls: int, tokens: int, truncations: int = 0) -> Decision:
        decision = fallback()
        record = self._error_record(task, view, failure, "the deterministic engine answered this call")
        return ModelDecision(decision.value, tokens=tokens + decision.tokens, model_calls=calls + decision.model_calls,
                             retries=max(0, calls - 1) + decision.retries, fallbacks=decision.fallbacks + 1,
                             errors=[*decision.errors, record], truncations=truncations)

    def _error_record(self, task: str, view: ResearchView, failure: CallFailure, outcome: str) -> ErrorRecord:
        """Seed 002 §5.4's ErrorResponse, stored as the state's ErrorRecord."""
        response = ErrorResponse(error=ErrorDetail(type=failure.kind, message=f"{task}: {failure.message}; {outcome}",
                                                   retryable=failure.retryable))
        return ErrorRecord(node=TASK_NODES[task], type=response.error.type, message=response.error.message,
                           retryable=response.error.retryable, cycle=view.cycle, round=view.search_round)

    def _record_transport(self, failed: bool) -> None:
        with self._lock:
            self._consecutive_transport_failures = self._consecutive_transport_failures + 1 if failed else 0

    def _account(self, view: ResearchView, tokens: int) -> None:
        with self._lock:
            key = self._run_key(view)
            self._run_tokens[key] = self._run_tokens.get(key, 0) + tokens

    def _log(self, task: str, calls: int, tokens: int, outcome: str, started: float) -> None:
        seconds = time.perf_counter() - started
        logger.info("model call %s: %s, %d call(s), %d tokens, %.2f s", task, outcome, calls, tokens, seconds,
                    extra={"satiate_task": task, "outcome": outcome, "calls": calls, "tokens": tokens,
                           "seconds": seconds})
        from satiate.tools.metrics import observe_model_call

        observe_model_call(task, outcome, calls, seconds)


# --- building the engine a run's settings ask for ------------------------------------------------------------------------
