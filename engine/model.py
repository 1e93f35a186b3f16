"""The model engine: every research decision asked of a chat model, each call with its own deterministic fallback.

Each method renders its prompt file (``satiate/prompts``), trims what it quotes so the prompt fits both ``num_ctx``
and the time left, asks for structured output (JSON schema, then the tolerant parser of ``tools.llm.structured``),
applies satiate's own checks to the answer, and re-asks with the problem fed back at most ``model_max_retries``
times (warmer, simpler, and never to hear the same bytes twice). When no usable answer comes, or the model cannot be
reached, the deterministic engine answers that one call and the decision carries ``fallbacks=1`` and a typed error
record (design §14): never a silent retry of the topic, never an unbounded loop.

The answer (synthesis) is written from numbered sentences the model cites by number (``engine.evidence``); each
claim is checked against exactly the sentences it cites and against the grounding gate before it is kept. When no
claim survives, the deterministic synthesis is the answer, so a model never leaves satiate worse off than no model.

Budgets (design §13). A prompt fits ``num_ctx`` (estimated at 4 characters a token, with a 20 % margin, after
reserving room for the answer) and the time the run has left at the model's measured speed (``tools.llm.pace``):
a model reading 30 tokens a second is not sent 6,700 tokens with a minute to go. A call that cannot fit even its
smallest useful prompt is not made: the deterministic engine answers, and says why. Prompts that had to leave
something out are counted in ``prompt_truncations``. When less than 25 % of the run's token budget is left, prompts
are built at half size. With ``model_profile='small'`` only the synthesis asks the model.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine, angle_queries, fresh_queries
from satiate.engine.evidence import (
    EvidenceItem,
    JudgedAnswer,
    answer_kind_words,
    answer_schema,
    evidence_items,
    example_echoes,
    fit_evidence,
    judge_answer,
)
from satiate.engine.model_answers import ModelCriticReport, plan_schema
from satiate.engine.prompt_material import (
    Prompt,
    bullet_summary,
    executed_list,
    first_integer,
    fit_lines,
    normalize_angle,
    results_text,
    room_left,
    schema_text,
    search_lines,
    source_digest,
    thin_records,
)
from satiate.prompts.loader import load_prompt, quote_data
from satiate.state.contracts import (
    DEGRADED_NOTE,
    ClaimDraft,
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
from satiate.tools.llm.pace import CallBudget, CallTiming, PaceMeter, call_budget
from satiate.tools.llm.structured import CallFailed, ModelReply, OutputInvalid, Reask, call_structured, call_text
from satiate.tools.llm.tokens import CHARS_PER_TOKEN, CONTEXT_SAFETY, prompt_char_budget
from satiate.tools.text import normalize_query, simplify_query, stems, truncate

if TYPE_CHECKING:
    from satiate.tools.metrics import PrometheusExporter

T = TypeVar("T")
logger = logging.getLogger("satiate.model")

ROLES = ("planner", "compressor", "synthesizer", "critic")
TASK_ROLES = {"plan": "planner", "plan_query": "planner", "reflect": "planner", "novelty": "compressor",
              "compress": "compressor", "synthesize": "synthesizer", "critic": "critic"}
TASK_NODES = {"plan": "plan", "plan_query": "reflect", "reflect": "reflect", "novelty": "novelty_gate",
              "compress": "compress", "synthesize": "synthesize", "critic": "critic"}
SMALL_PROFILE_ROLES = frozenset({"synthesizer"})  # model_profile='small': the roles still asked of the model
# model_profile='small': questions answered by a verdict (yes/no, which of two) are decided by the deterministic
# comparison of the two statements. Measured with a 1.5B model: it wrote a comparison of its own ("X and Y are of the
# same nationality", once false) instead of restating the statements, and the checks cut all 8 such claims.
SMALL_PROFILE_DETERMINISTIC_KINDS = frozenset({"yes_no", "choice"})
NEUTRAL_NOVELTY = 5  # design §5: the score used when the model's answer holds no integer
NOVELTY_KNOWLEDGE_CHARS = 800  # design §5: this much of the knowledge state ...
NOVELTY_RESULTS_CHARS = 800  # ... and of the new results in the novelty prompt
PLAN_QUERY_MAX_TOKENS = 60  # the gap-filling query's output cap (design §7)
PLAN_QUERY_TEMPERATURE = 0.3  # design §7
COMPACTION_SHARE = 0.25  # design §13: compact when less than this share of the token budget is left
REASK_TEMPERATURE = 0.7  # re-asks sample warmer: near-greedy decoding gave byte-identical answers to two re-asks
# Sentences ranked for the synthesis prompt, per model profile; as many as fit the call's budget are shown. A small
# model gets fewer: the gold answer's sentence was among the first 12 for 18 of the 19 benchmark questions whose
# first 24 held it, and each sentence costs a CPU model about two seconds to read.
EVIDENCE_RANKED = {"full": 24, "small": 12}
EVIDENCE_FLOOR = 3  # fewer sentences than this are not worth a model call
SIMPLER_EVIDENCE = 6  # a re-ask of the synthesis shows at most this many sentences
MAX_CUT_RECORDS = 8  # model claims cut by the checks get an error record each, up to this many a synthesis
RUN_RESERVE_S = 3.0  # seconds kept back for the nodes after a model call (critic, report)
CALL_TIME_SHARE = 0.6  # a call is sized to this share of the time left when its smallest useful prompt fits in it
# Output tokens a task's answer usually takes (its time is reserved), and the least worth asking for.
EXPECTED_OUTPUT = {"plan": 220, "plan_query": 40, "reflect": 260, "novelty": 3, "compress": 400, "synthesize": 200,
                   "critic": 300}
OUTPUT_FLOOR = {"plan": 120, "plan_query": 20, "reflect": 120, "novelty": 1, "compress": 120, "synthesize": 100,
                "critic": 120}
CONTENT_FLOOR_CHARS = 400  # quoted data, besides the prompt's own text, below which a call is not worth making
DEGRADED_PROMPT = f"\nNote: {DEGRADED_NOTE} Say so where it matters.\n"
EVIDENCE_SHAPE = '{"claims": [{"evidence": ["E…"], "claim": "…"}], "short_answer": "…"}'
PROCESS_PACE = PaceMeter()  # speeds measured by every engine of this process, per model


@dataclass
class ModelDecision(Decision[T]):
    """A decision with the model layer's own counters: answers that needed repair, prompts that had to be trimmed,
    what the calls read and wrote and how long they took, and how many model-written claims were kept."""

    repairs: int = 0
    truncations: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0
    call_ms: int = 0
    claims_written: int = 0
    claims_kept: int = 0
    example_echoes: int = 0

    def counters(self) -> dict[str, int]:
        return {**super().counters(), "model_repairs": self.repairs, "prompt_truncations": self.truncations,
                "model_prompt_tokens": self.prompt_tokens, "model_output_tokens": self.output_tokens,
                "model_call_ms": self.call_ms, "model_claims": self.claims_written,
                "model_claims_kept": self.claims_kept, "model_example_echoes": self.example_echoes}


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
    timeout_s: float = math.inf

    @classmethod
    def from_settings(cls, settings: Settings) -> ModelConfig:
        return cls(settings.num_ctx, settings.num_predict, settings.novelty_num_predict, settings.temperature,
                   settings.model_max_retries, settings.allow_engine_fallback, settings.model_circuit_failures,
                   settings.model_timeout_s)

    def reserved_output(self, wanted: int | None = None) -> int:
        """Tokens kept free for the answer: the output cap, but never more than half the context."""
        return min(wanted or self.num_predict, self.num_ctx // 2)


@dataclass
class CallMeter:
    """What the calls of one decision read, wrote and took (from each call's timing)."""

    prompt_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0

    def add(self, timing: CallTiming) -> None:
        self.prompt_tokens += timing.prompt_tokens
        self.output_tokens += timing.output_tokens
        self.seconds += timing.seconds


@dataclass
class CallPlan:
    """How one decision's calls are made: the budget, the re-ask policy and the timing observer."""

    budget: CallBudget
    reask: Reask
    observe: Callable[[CallTiming], None]
    meter: CallMeter = field(default_factory=CallMeter)


def model_key(model: Any) -> str:
    """Which model a speed belongs to: its class and its model name or file."""
    name = (getattr(model, "model", None) or getattr(model, "model_name", None) or getattr(model, "model_path", None)
            or "")
    return f"{type(model).__name__}:{name}"


@dataclass
class ClaimTally:
    """Model-written claims over a decision's attempts, and how many the checks kept."""

    written: int = 0
    kept: int = 0
    echoes: int = 0  # claims copied from the prompt's worked example: sent back, not counted as written
    cut: list[dict] = field(default_factory=list)

    def add(self, judged: JudgedAnswer) -> None:
        self.written += judged.written
        self.kept += judged.kept
        self.cut.extend(judged.cut)


def cut_feedback(judged: JudgedAnswer) -> str:
    """Why no claim was kept, worded for the model."""
    reasons = "; ".join(f"claim {c['claim'][:80]!r} citing {', '.join(map(str, c['evidence'])) or 'nothing'}: "
                        f"{c['reason']}" for c in judged.cut[:3])
    return (f"no claim could be kept ({reasons}). Each claim must restate the sentence whose id it cites, in nearly "
            "the same words, with names and numbers copied exactly")


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
        pace: PaceMeter | None = None,
        clock: Callable[[], float] = time.monotonic,
        metrics: PrometheusExporter | None = None,
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
        self.pace = pace or PROCESS_PACE
        self.metrics = metrics  # each call observed in Prometheus, when the run's settings ask for an exporter
        self.clock = clock
        self._lock = threading.Lock()
        self._consecutive_transport_failures = 0
        self._run_tokens: dict[tuple, int] = {}
        self._run_started: dict[tuple, float] = {}
        # Per run: the evidence the model last answered from, and the synthesis that answer became.
        self._last_answer: dict[tuple, tuple[tuple, SynthesisResponse]] = {}

    # --- plan ---------------------------------------------------------------------------------------------------------
    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        if not view.search_results and view.cycle <= 1:
            self._start_run(view)  # the first plan of a run: its time budget starts now
        target = (target or view.question).strip()
        limit = view.settings.budget.max_queries_per_round
        schema = plan_schema(limit)

        def build(budget: int) -> Prompt:
            template = load_prompt("plan")
            question, quoted_target = quote_data(view.question, "question"), quote_data(target, "target")
            shape, angles = schema_text(schema), ", ".join(view.settings.angles)
            room = room_left(budget, template, question, quoted_target, shape, angles)
            executed, dropped = fit_lines(executed_list(view), room - 40)
            return Prompt(template.render(
                question=question, target=quoted_target,
                executed_queries=quote_data(executed or "(none yet)", "executed"), max_queries=limit,
                angles=angles, schema=shape,
            ), truncations=int(dropped > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[PlanResponse]:
            return call_structured(model, schema, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda answer: self._refine_plan(view, target, answer.contract(), limit),
                                   config=self._run_config("plan"), reask=plan.reask, observe=plan.observe)

        return self._decide("plan", view, build, call, lambda: self.fallback.plan(view, target))

    def _refine_plan(self, view: ResearchView, target: str, plan: PlanResponse, limit: int) -> PlanResponse:
        """Our guarantees on a plan: the target first, a counter-argument query, nothing already sent, the cap; and
        at least one query of the model's own besides the target (else the model added nothing)."""
        executed = view.executed_queries()
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in plan.queries]
        own = PlanQueryModel(query=truncate(target, 400), intent="the target as asked", angle="question")
        if not fresh_queries(proposed, executed | {normalize_query(own.query)}, limit):
            raise OutputInvalid("every query repeats the target or a query already sent; propose other queries: the "
                                "entities involved by name, a time window, or the strongest counter-argument")
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

    # --- novelty and compression --------------------------------------------------------------------------------------
    def novelty(self, view: ResearchView, hits: list[Hit]) -> Decision[int]:
        """Model-based novelty (design §5: temperature 0, a few output tokens, neutral 5 when no integer comes back)
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

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[int]:
            tuned = with_call_options(model, temperature=0.0, max_tokens=self.config.novelty_num_predict)
            reply = call_text(tuned, prompt.messages, max_retries=0, refine=first_integer,
                              config=self._run_config("novelty"), observe=plan.observe)
            score = min(10, max(0, reply.value))
            repairs = reply.repairs + (("clamped score",) if score != reply.value else ())
            return ModelReply(score, reply.calls, reply.tokens, reply.tokens_estimated, repairs, reply.problems)

        return self._decide("novelty", view, build, call, lambda: self.fallback.novelty(view, hits),
                            reserve=self.config.novelty_num_predict, on_invalid=lambda: NEUTRAL_NOVELTY)

    def compress(self, view: ResearchView, new_sources: list[SourceRecord]) -> Decision[str]:
        """Fold new sources into the rolling summary; the first round takes the fast path (no model call, design §6)."""
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
            ), truncations=int(digest.truncations > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[str]:
            tuned = with_call_options(model, max_tokens=min(wanted, plan.budget.output_tokens, self.config.num_predict))
            return call_text(tuned, prompt.messages, max_retries=self.config.max_retries,
                             refine=lambda text: bullet_summary(text, max_chars), config=self._run_config("compress"),
                             observe=plan.observe)

        return self._decide("compress", view, build, call, lambda: self.fallback.compress(view, new_sources),
                            reserve=wanted)

    # --- reflect ------------------------------------------------------------------------------------------------------
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

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[ReflectionResponse]:
            reply = call_structured(model, ReflectionResponse, prompt.messages, max_retries=self.config.max_retries,
                                    refine=lambda r: self._refine_reflection(view, r, limit),
                                    config=self._run_config("reflect"), reask=plan.reask, observe=plan.observe)
            if reply.value.sufficient or reply.value.new_queries:
                return reply
            return self._gap_query(model, view, reply, plan)

        return self._decide("reflect", view, build, call, lambda: self.fallback.reflect(view))

    def _refine_reflection(self, view: ResearchView, reflection: ReflectionResponse, limit: int) -> ReflectionResponse:
        """The model's queries first, then the mechanical ones it missed: reformulations of failed or thin searches
        (design §7) and breadcrumbs (design §8). Nothing already sent; the per-round cap."""
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in reflection.new_queries]
        if not reflection.sufficient:
            mechanical = self.fallback.reflect(view).value.new_queries
            proposed += [q for q in mechanical if q.angle == "breadcrumb" or q.intent.startswith("reformulation")]
        queries = fresh_queries(proposed, view.executed_queries(), limit)
        return reflection.model_copy(update={"new_queries": queries})

    def _gap_query(self, model: Any, view: ResearchView, reply: ModelReply[ReflectionResponse], plan: CallPlan
                   ) -> ModelReply[ReflectionResponse]:
        """Not sufficient, yet nothing new to ask: one gap-filling query (design §7; one call, no retry)."""
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
            extra = call_text(tuned, messages, max_retries=0, refine=refine, config=self._run_config("plan_query"),
                              observe=plan.observe)
        except CallFailed as failed:  # no gap query: the loop moves on to synthesis, which is what "nothing new" means
            return ModelReply(reply.value, reply.calls + failed.calls, reply.tokens + failed.tokens,
                              reply.tokens_estimated, reply.repairs, reply.problems)
        query = PlanQueryModel(query=extra.value, intent="gap-filling query (plan_query)", angle="gap")
        value = reply.value.model_copy(update={"new_queries": [query]})
        return ModelReply(value, reply.calls + extra.calls, reply.tokens + extra.tokens, reply.tokens_estimated,
                          reply.repairs + extra.repairs, reply.problems)

    # --- synthesize ---------------------------------------------------------------------------------------------------
    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        """The answer, written by the model from numbered sentences it cites by number; checked claim by claim.

        No claim kept (after the re-asks the time allows) -> the deterministic synthesis, recorded as a fallback.
        Claims kept but no short answer they state, while the deterministic finder has one -> its answer sentence
        leads, the model's claims follow (also recorded). The same evidence as the run's last model answer -> that
        answer again, without a call. Too little time left for a call -> the run's last model answer if there is
        one, else the deterministic synthesis of what was read; either way the error log says so.
        """
        if not view.sources:
            return self.fallback.synthesize(view)  # nothing to synthesize from: no model call needed
        kind, kind_words = answer_kind_words(view.question)
        if view.settings.model_profile == "small" and kind in SMALL_PROFILE_DETERMINISTIC_KINDS:
            return self.fallback.synthesize(view)  # a verdict: the deterministic comparison decides, by choice
        ranked = evidence_items(view.question, view.sources, EVIDENCE_RANKED[view.settings.model_profile])
        if not ranked:
            return self.fallback.synthesize(view)  # no readable sentence: nothing a model could cite
        key = self._run_key(view)
        signature = tuple((item.source["id"], item.text) for item in ranked)
        with self._lock:
            last = self._last_answer.get(key)
        if self.models["synthesizer"] is not None and last is not None and last[0] == signature:
            return ModelDecision(last[1].model_copy(deep=True))  # the same sentences: the same answer, no call
        deterministic = functools.cache(lambda: self.fallback.synthesize(view))
        settings = view.settings
        shown: list[EvidenceItem] = []
        tally = ClaimTally()

        def render(items: list[EvidenceItem]) -> list:
            template = load_prompt("synthesize")
            return template.render(
                question=quote_data(view.question, "question"), degraded_note=DEGRADED_PROMPT if view.degraded else "",
                answer_kind=kind_words, evidence=quote_data("\n".join(i.line for i in items), "evidence"),
                max_claims=min(settings.max_claims, 4), schema=EVIDENCE_SHAPE)

        template = load_prompt("synthesize")
        fixed = sum(len(m.content) for m in render([]))  # the prompt with its values but no sentence yet

        def build(budget: int) -> Prompt:
            items, dropped = fit_evidence(ranked, budget - fixed)
            shown[:] = items
            return Prompt(render(items), truncations=int(dropped > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[JudgedAnswer]:
            if len(shown) < min(EVIDENCE_FLOOR, len(ranked)):
                raise CallFailed(CallFailure("model_time_budget", "not even a few sentences fit the time left", False),
                                 0, 0)
            schema = answer_schema([item.id for item in shown], min(settings.max_claims, 4), view.question)

            def refine(answer: Any) -> JudgedAnswer:
                echoed = example_echoes(answer, template.system, shown)
                if echoed:
                    tally.echoes += len(echoed)
                    answer = answer.model_copy(update={"claims": [c for c in answer.claims if c.claim not in echoed]})
                    if not answer.claims:
                        raise OutputInvalid("the reply copied the worked example from the instructions; answer this "
                                            "question from its own numbered sentences")
                judged = judge_answer(answer, shown, view.question, view.sources, settings.support_min_overlap)
                tally.add(judged)
                if not judged.kept:
                    raise OutputInvalid(cut_feedback(judged))
                return judged

            simpler = render(shown[:SIMPLER_EVIDENCE]) if len(shown) > SIMPLER_EVIDENCE else None
            reask = Reask(plan.reask.temperature, simpler, plan.reask.keep_going)
            return call_structured(model, schema, prompt.messages, max_retries=self.config.max_retries, refine=refine,
                                   config=self._run_config("synthesize"), reask=reask, observe=plan.observe)

        def out_of_time(failure: CallFailure, _meter: CallMeter | None) -> Decision:
            with self._lock:
                earlier = self._last_answer.get(key)
            if earlier is not None:
                record = self._error_record("synthesize", view, failure, "the model's answer from an earlier "
                                            "synthesis of this run is kept")
                return ModelDecision(earlier[1].model_copy(deep=True), errors=[record])
            return self._fall_back("synthesize", view, deterministic, failure, calls=0, tokens=0,
                                   outcome="the answer is the deterministic synthesis of what was read")

        own_text = len(template.system) + len(template.user)
        decision = self._decide("synthesize", view, build, call, deterministic, on_no_time=out_of_time,
                                floor_chars=fixed - own_text + sum(len(i.line) + 1 for i in ranked[:EVIDENCE_FLOOR]))
        if not isinstance(decision, ModelDecision):
            return decision  # the synthesizer role is 'none': deterministic by choice
        decision.claims_written, decision.claims_kept = tally.written, tally.kept
        decision.example_echoes = tally.echoes
        decision.errors.extend(
            ErrorRecord(node="synthesize", type="model_claim_cut", retryable=False, cycle=view.cycle,
                        round=view.search_round, message=f"model claim citing "
                        f"{', '.join(map(str, cut['evidence'])) or 'no sentence'} cut ({cut['reason']}): "
                        f"{cut['claim'][:160]}")
            for cut in tally.cut[:MAX_CUT_RECORDS])
        if not isinstance(decision.value, JudgedAnswer):
            return decision  # a fallback (no call possible, or nothing usable): counted and recorded already
        judged: JudgedAnswer = decision.value
        synthesis = judged.synthesis
        fallback_synthesis = deterministic().value
        synthesis.contradictions = list(fallback_synthesis.contradictions)
        synthesis.open_questions = list(fallback_synthesis.open_questions)
        decision.repairs = int(bool(decision.repairs or judged.repairs))
        if not synthesis.short_answer and kind != "description" and fallback_synthesis.short_answer:
            synthesis = self._lead_with_deterministic_answer(synthesis, fallback_synthesis)
            failure = CallFailure("model_answer_ungrounded", judged.answer_problem or
                                  "the model found no answer in the sentences", False)
            decision.errors.append(self._error_record("synthesize", view, failure, "the deterministic finder's "
                                                      "answer leads and the model's claims follow"))
            decision.fallbacks += 1
        decision.value = synthesis
        with self._lock:
            self._last_answer[key] = (signature, synthesis.model_copy(deep=True))
        return decision

    @staticmethod
    def _lead_with_deterministic_answer(model_part: SynthesisResponse, found: SynthesisResponse) -> SynthesisResponse:
        """The deterministic finder's answer and hop sentences first, then the model's kept claims as plain claims."""
        leading = [c for c in found.claims if c.role in ("answer", "hop")]
        said = {frozenset(stems(c.claim)) for c in leading}
        rest = [ClaimDraft(claim=c.claim, source_ids=c.source_ids, confidence=c.confidence, role="claim")
                for c in model_part.claims if frozenset(stems(c.claim)) not in said]
        return model_part.model_copy(update={"short_answer": found.short_answer, "answer_kind": found.answer_kind,
                                             "abstain_reason": found.abstain_reason, "claims": leading + rest})

    # --- critic -------------------------------------------------------------------------------------------------------
    def critique(self, view: ResearchView) -> Decision[CriticReport]:
        def build(budget: int) -> Prompt:
            template = load_prompt("critic")
            question, schema = quote_data(view.question, "question"), schema_text(ModelCriticReport)
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

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[CriticReport]:
            return call_structured(model, ModelCriticReport, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda r: self._refine_report(view, r), config=self._run_config("critic"),
                                   reask=plan.reask, observe=plan.observe)

        return self._decide("critic", view, build, call, lambda: self.fallback.critique(view))

    def _refine_report(self, view: ResearchView, answer: ModelCriticReport) -> CriticReport:
        """Sign-off means no material gap, whatever the model wrote; an answer with no claim is never complete; a
        verdict of "incomplete" must name what is missing."""
        report = answer.contract()
        gaps = list(report.gaps)
        if not report.signoff and not any(g.material for g in gaps) and view.claims:
            raise OutputInvalid("you did not sign off but named no material gap; name the gap with a search query "
                                "that would close it, or sign off")
        if not view.claims and not any(g.material for g in gaps):
            gaps.insert(0, CriticGap(kind="modality", description="No grounded claim answers the question yet.",
                                     query=simplify_query(view.question), priority=9.0, material=True))
        return CriticReport(gaps=gaps, signoff=not any(g.material for g in gaps))

    # --- the per-call machinery ---------------------------------------------------------------------------------------
    def _run_config(self, task: str) -> dict[str, Any]:
        return {"run_name": f"satiate.{task}", "metadata": {"satiate_task": task}, "tags": ["satiate", task]}

    def _run_key(self, view: ResearchView) -> tuple:
        return (view.question, view.settings.seed)

    def _start_run(self, view: ResearchView) -> None:
        key = self._run_key(view)
        with self._lock:
            self._run_started[key] = self.clock()
            self._last_answer.pop(key, None)
            self._run_tokens.pop(key, None)

    def seconds_left(self, view: ResearchView) -> float:
        """The run's time budget left, by this engine's clock since the run's first plan (or its first call here,
        for a run resumed in another process), less a reserve for the nodes that follow."""
        key = self._run_key(view)
        with self._lock:
            started = self._run_started.setdefault(key, self.clock())
        return view.settings.max_execution_time_s - (self.clock() - started) - RUN_RESERVE_S

    def _compact(self, view: ResearchView) -> bool:
        """Less than 25 % of the run's token budget left -> build prompts at half size (design §13)."""
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

    def _asks_model(self, task: str, view: ResearchView) -> Any | None:
        """The model a task is asked of, or None when it is deterministic by choice (role 'none', small profile)."""
        role = TASK_ROLES[task]
        if view.settings.model_profile == "small" and role not in SMALL_PROFILE_ROLES:
            return None
        return self.models[role]

    def call_budget_for(self, task: str, view: ResearchView, model: Any, reserve: int | None = None,
                        floor_chars: int = CONTENT_FLOOR_CHARS) -> CallBudget | None:
        """The largest call of ``task`` that fits num_ctx and the time left at ``model``'s measured speed; None when
        not even its smallest useful prompt (its own text plus ``floor_chars`` of data) fits."""
        template = load_prompt(task)
        floor = math.ceil((len(template.system) + len(template.user) + floor_chars) / CHARS_PER_TOKEN)
        cap = self.config.reserved_output(reserve)
        left = self.seconds_left(view)
        for seconds in (CALL_TIME_SHARE * left, left):  # leave time for a re-ask or a later cycle, if it fits
            budget = call_budget(num_ctx=self.config.num_ctx, output_cap=cap,
                                 output_expected=min(cap, EXPECTED_OUTPUT.get(task, cap)),
                                 output_floor=min(cap, OUTPUT_FLOOR.get(task, cap)), prompt_floor=floor,
                                 seconds_left=seconds, speed=self.pace.speed(model_key(model)),
                                 context_share=CONTEXT_SAFETY)
            if budget is not None:
                return budget
        return None

    def _decide(
        self,
        task: str,
        view: ResearchView,
        build: Callable[[int], Prompt],
        call: Callable[[Any, Prompt, CallPlan], ModelReply],
        fallback: Callable[[], Decision],
        *,
        reserve: int | None = None,
        on_invalid: Callable[[], Any] | None = None,
        on_no_time: Callable[[CallFailure, CallMeter | None], Decision] | None = None,
        floor_chars: int = CONTENT_FLOOR_CHARS,
    ) -> Decision:
        model = self._asks_model(task, view)
        if model is None:  # deterministic by choice (role 'none', or the small profile): not a fallback
            return fallback()
        if self._circuit_open():
            failure = CallFailure("model_circuit_open", f"{self.config.circuit_failures} model calls in a row could "
                                  "not reach the model, so it is no longer asked", False)
            return self._fall_back(task, view, fallback, failure, calls=0, tokens=0)
        budget = self.call_budget_for(task, view, model, reserve, floor_chars)
        if budget is None:
            left = max(0.0, self.seconds_left(view))
            failure = CallFailure("model_time_budget", f"the time budget is nearly spent ({left:.0f} s left, too "
                                  "little for even a short call at the model's measured speed)", False)
            if on_no_time is not None:
                return on_no_time(failure, None)
            return self._fall_back(task, view, fallback, failure, calls=0, tokens=0)
        chars = int(budget.prompt_tokens * CHARS_PER_TOKEN)
        prompt = build(chars // 2 if self._compact(view) else chars)
        speed_key = model_key(model)
        meter = CallMeter()

        def observe(timing: CallTiming) -> None:
            meter.add(timing)
            self.pace.record(speed_key, timing)

        def keep_going(attempt: int) -> bool:  # another try only if it fits the time left at the measured speed
            estimate = self.pace.speed(speed_key).seconds(budget.prompt_tokens, min(budget.output_tokens,
                                                                                   EXPECTED_OUTPUT.get(task, 0)))
            return estimate <= self.seconds_left(view)

        plan = CallPlan(budget, Reask(REASK_TEMPERATURE, None, keep_going), observe, meter)
        tuned = self._tuned(model, budget, view)
        started = time.perf_counter()
        try:
            reply = call(tuned, prompt, plan)
        except CallFailed as failed:
            self._record_transport(failed.failure.transport)
            self._account(view, failed.tokens)
            self._log(task, failed.calls, failed.tokens, failed.failure.kind, started, meter)
            if failed.failure.transport and not self.config.allow_fallback:
                raise ModelUnavailable(f"{failed.failure.message} (allow_engine_fallback is off)") from failed
            if failed.failure.kind == "model_time_budget" and on_no_time is not None:
                return on_no_time(failed.failure, meter)
            if on_invalid is not None and failed.failure.kind == "model_output_invalid":
                record = self._error_record(task, view, failed.failure, "a neutral value was used")
                return self._metered(ModelDecision(on_invalid(), tokens=failed.tokens, model_calls=failed.calls,
                                                   retries=max(0, failed.calls - 1), fallbacks=1, errors=[record],
                                                   truncations=prompt.truncations), meter)
            return self._metered(self._fall_back(task, view, fallback, failed.failure, calls=failed.calls,
                                                 tokens=failed.tokens, truncations=prompt.truncations), meter)
        except ModelUnavailable:
            raise
        except Exception as error:  # a bug in our own handling must not end the run: recorded, then the fallback
            failure = classify_failure(error)
            self._log(task, 1, 0, failure.kind, started, meter)
            return self._metered(self._fall_back(task, view, fallback, failure, calls=1, tokens=0,
                                                 truncations=prompt.truncations), meter)
        self._record_transport(False)
        self._account(view, reply.tokens)
        self._log(task, reply.calls, reply.tokens, "repaired" if reply.repairs else "ok", started, meter)
        return self._metered(ModelDecision(reply.value, tokens=reply.tokens, model_calls=reply.calls,
                                           retries=reply.retries, repairs=int(bool(reply.repairs)),
                                           truncations=prompt.truncations), meter)

    def _tuned(self, model: Any, budget: CallBudget, view: ResearchView) -> Any:
        """The model with this call's output cap (only when the time left forces one below ``num_predict``) and
        time limit (where the provider takes one per call: satiate's in-process llama.cpp)."""
        cap = budget.output_tokens if budget.output_tokens < self.config.num_predict else None
        limit = min(self.config.timeout_s, max(1.0, self.seconds_left(view) + RUN_RESERVE_S))
        return with_call_options(model, max_tokens=cap, timeout_s=limit if math.isfinite(limit) else None)

    @staticmethod
    def _metered(decision: Decision, meter: CallMeter) -> Decision:
        if isinstance(decision, ModelDecision):
            decision.prompt_tokens += meter.prompt_tokens
            decision.output_tokens += meter.output_tokens
            decision.call_ms += int(meter.seconds * 1000)
        return decision

    def _fall_back(self, task: str, view: ResearchView, fallback: Callable[[], Decision], failure: CallFailure, *,
                   calls: int, tokens: int, truncations: int = 0,
                   outcome: str = "the deterministic engine answered this call") -> Decision:
        decision = fallback()
        record = self._error_record(task, view, failure, outcome)
        return ModelDecision(decision.value, tokens=tokens + decision.tokens, model_calls=calls + decision.model_calls,
                             retries=max(0, calls - 1) + decision.retries, fallbacks=decision.fallbacks + 1,
                             errors=[*decision.errors, record], truncations=truncations)

    def _error_record(self, task: str, view: ResearchView, failure: CallFailure, outcome: str) -> ErrorRecord:
        """An engine call's ErrorResponse, stored as the state's ErrorRecord (design §14, §18)."""
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

    def _log(self, task: str, calls: int, tokens: int, outcome: str, started: float, meter: CallMeter) -> None:
        seconds = time.perf_counter() - started
        logger.info("model call %s: %s, %d call(s), %d tokens (%d read, %d written), %.2f s", task, outcome, calls,
                    tokens, meter.prompt_tokens, meter.output_tokens, seconds,
                    extra={"satiate_task": task, "outcome": outcome, "calls": calls, "tokens": tokens,
                           "prompt_tokens": meter.prompt_tokens, "output_tokens": meter.output_tokens,
                           "seconds": seconds})
        if self.metrics is not None:
            self.metrics.observe_model_call(task, outcome, calls, seconds)
