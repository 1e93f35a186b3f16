"""How a model engine makes one decision's calls: which model a task asks, how large a call may be, the re-ask and
fallback policy, and what every call read, wrote and took.

Budgets (design §13). A prompt fits ``num_ctx`` (estimated at 4 characters a token, with a 20 % margin, after
reserving room for the answer) and the time the run has left at the model's measured speed (``tools.llm.pace``):
a model reading 30 tokens a second is not sent 6,700 tokens with a minute to go. A call that cannot fit even its
smallest useful prompt is not made: the deterministic engine answers, and says why. Prompts that had to leave
something out are counted in ``prompt_truncations``. When less than 25 % of the run's token budget is left, prompts
are built at half size. With ``model_profile='small'`` only the synthesis asks the model.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.engine.model_run import ModelRuns
from satiate.engine.prompt_material import Prompt
from satiate.prompts.loader import load_prompt
from satiate.state.contracts import ErrorDetail, ErrorResponse
from satiate.state.records import ErrorRecord
from satiate.state.settings import Settings
from satiate.tools.llm.errors import CallFailure, ModelUnavailable, classify_failure
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.pace import CallBudget, CallTiming, PaceMeter, call_budget
from satiate.tools.llm.structured import CallFailed, ModelReply, Reask
from satiate.tools.llm.tokens import CHARS_PER_TOKEN, CONTEXT_SAFETY, estimate_tokens

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage
    from langchain_core.runnables import RunnableConfig

    from satiate.tools.metrics import PrometheusExporter

T = TypeVar("T")
logger = logging.getLogger("satiate.model")

ROLES = ("planner", "compressor", "synthesizer", "critic")
TASK_ROLES = {"plan": "planner", "plan_query": "planner", "reflect": "planner", "novelty": "compressor",
              "compress": "compressor", "synthesize": "synthesizer", "critic": "critic"}
TASK_NODES = {"plan": "plan", "plan_query": "reflect", "reflect": "reflect", "novelty": "novelty_gate",
              "compress": "compress", "synthesize": "synthesize", "critic": "critic"}
SMALL_PROFILE_ROLES = frozenset({"synthesizer"})  # model_profile='small': the roles still asked of the model
COMPACTION_SHARE = 0.25  # design §13: compact when less than this share of the token budget is left
REASK_TEMPERATURE = 0.7  # re-asks sample warmer: near-greedy decoding gave byte-identical answers to two re-asks
RUN_RESERVE_S = 3.0  # seconds kept back for the nodes after a model call (critic, report)
CALL_TIME_SHARE = 0.6  # a call is sized to this share of the time left when its smallest useful prompt fits in it
# Output tokens a task's answer usually takes (its time is reserved), and the least worth asking for.
EXPECTED_OUTPUT = {"plan": 220, "plan_query": 40, "reflect": 260, "novelty": 3, "compress": 400, "synthesize": 200,
                   "critic": 300}
OUTPUT_FLOOR = {"plan": 120, "plan_query": 20, "reflect": 120, "novelty": 1, "compress": 120, "synthesize": 100,
                "critic": 120}
CONTENT_FLOOR_CHARS = 400  # quoted data, besides the prompt's own text, below which a call is not worth making
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
    claims_kept: int = 0  # re-anchored claims that then passed the checks included
    claims_cut: int = 0
    claims_reanchored: int = 0  # claims moved from the sentence they cited to the shown sentence supporting them
    answers_rescued: int = 0  # short answers kept as the shown sentence stating them after their claim was cut
    example_echoes: int = 0
    earlier_kept: int = 0  # syntheses where the run's earlier, better-supported answer was kept over the new one
    calls_skipped: int = 0  # syntheses that made no call because not even a short one fitted the time left

    def counters(self) -> dict[str, int]:
        return {**super().counters(), "model_repairs": self.repairs, "prompt_truncations": self.truncations,
                "model_prompt_tokens": self.prompt_tokens, "model_output_tokens": self.output_tokens,
                "model_call_ms": self.call_ms, "model_claims": self.claims_written,
                "model_claims_kept": self.claims_kept, "model_claims_cut": self.claims_cut,
                "model_claims_reanchored": self.claims_reanchored, "model_answers_rescued": self.answers_rescued,
                "model_example_echoes": self.example_echoes, "model_earlier_answer_kept": self.earlier_kept,
                "model_calls_skipped": self.calls_skipped}


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




class ModelCaller:
    """The call machinery a model engine's decisions share: models by role, budgets, fallbacks, meters and logs."""

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
        self._consecutive_transport_failures = 0  # across runs: the model itself is unreachable
        self._instructions: dict[str, tuple[str, str]] = {}  # model -> (task, system message) of its last call
        self.runs = ModelRuns(clock)  # each run's clock, token count and last answer, kept apart by run

    def run_config(self, task: str) -> RunnableConfig:
        return {"run_name": f"satiate.{task}", "metadata": {"satiate_task": task}, "tags": ["satiate", task]}

    def seconds_left(self, view: ResearchView) -> float:
        """The run's time budget left, by this engine's clock since the run's first plan (or its first call here,
        for a run resumed in another process), less a reserve for the nodes that follow."""
        started = self.runs.started(view)
        return view.settings.max_execution_time_s - (self.clock() - started) - RUN_RESERVE_S

    def _compact(self, view: ResearchView) -> bool:
        """Less than 25 % of the run's token budget left -> build prompts at half size (design §13)."""
        budget = view.settings.token_budget
        if not budget:
            return False
        # The state's meter covers earlier nodes (and resumed runs); the engine's own count covers calls made
        # inside the current node before the state is updated. The larger is the truth so far.
        own = self.runs.tokens(view)
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

    def remember_instructions(self, model: Any, task: str, messages: Sequence[BaseMessage]) -> None:
        """The instructions ``model`` was last sent: a local model keeps them in its cache for the next call."""
        system = next((str(m.content) for m in messages if m.type == "system"), "")
        with self._lock:
            self._instructions[model_key(model)] = (task, system)

    def cached_prompt_tokens(self, model: Any, task: str) -> int:
        """Tokens of ``task``'s instructions that ``model`` read in its previous call (llama.cpp and Ollama reuse a
        prompt's cached start), so a call of the same task does not pay for reading them again."""
        with self._lock:
            last = self._instructions.get(model_key(model))
        return estimate_tokens(last[1]) if last is not None and last[0] == task else 0

    def call_budget_for(self, task: str, view: ResearchView, model: Any, reserve: int | None = None,
                        floor_chars: int = CONTENT_FLOOR_CHARS) -> CallBudget | None:
        """The largest call of ``task`` that fits num_ctx and the time left at ``model``'s measured speed; None when
        not even its smallest useful prompt (its own text plus ``floor_chars`` of data) fits."""
        template = load_prompt(task)
        floor = math.ceil((len(template.system) + len(template.user) + floor_chars) / CHARS_PER_TOKEN)
        cap = self.config.reserved_output(reserve)
        left = self.seconds_left(view)
        cached = self.cached_prompt_tokens(model, task)
        for seconds in (CALL_TIME_SHARE * left, left):  # leave time for a re-ask or a later cycle, if it fits
            budget = call_budget(num_ctx=self.config.num_ctx, output_cap=cap,
                                 output_expected=min(cap, EXPECTED_OUTPUT.get(task, cap)),
                                 output_floor=min(cap, OUTPUT_FLOOR.get(task, cap)), prompt_floor=floor,
                                 seconds_left=seconds, speed=self.pace.speed(model_key(model)),
                                 context_share=CONTEXT_SAFETY, cached_prompt=cached)
            if budget is not None:
                return budget
        return None

    def decide(
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
            return self.fall_back(task, view, fallback, failure, calls=0, tokens=0)
        budget = self.call_budget_for(task, view, model, reserve, floor_chars)
        if budget is None:
            left = max(0.0, self.seconds_left(view))
            failure = CallFailure("model_time_budget", f"the time budget is nearly spent ({left:.0f} s left, too "
                                  "little for even a short call at the model's measured speed)", False)
            if on_no_time is not None:
                return on_no_time(failure, None)
            return self.fall_back(task, view, fallback, failure, calls=0, tokens=0)
        chars = int(budget.prompt_tokens * CHARS_PER_TOKEN)
        prompt = build(chars // 2 if self._compact(view) else chars)
        speed_key = model_key(model)
        meter = CallMeter()

        def observe(timing: CallTiming) -> None:
            meter.add(timing)
            self.pace.record(speed_key, timing)

        def keep_going(attempt: int) -> bool:  # another try only if it fits the time left at the measured speed
            unread = max(0, budget.prompt_tokens - self.cached_prompt_tokens(model, task))
            estimate = self.pace.speed(speed_key).seconds(unread, min(budget.output_tokens,
                                                                      EXPECTED_OUTPUT.get(task, 0)))
            return estimate <= self.seconds_left(view)

        plan = CallPlan(budget, Reask(REASK_TEMPERATURE, None, keep_going), observe, meter)
        tuned = self._tuned(model, budget, view)
        started = time.perf_counter()
        try:
            reply = call(tuned, prompt, plan)
        except CallFailed as failed:
            if failed.calls:
                self.remember_instructions(model, task, prompt.messages)
            self._record_transport(failed.failure.transport)
            self._account(view, failed.tokens)
            self._log(task, failed.calls, failed.tokens, failed.failure.kind, started, meter)
            if failed.failure.transport and not self.config.allow_fallback:
                raise ModelUnavailable(f"{failed.failure.message} (allow_engine_fallback is off)") from failed
            if failed.failure.kind == "model_time_budget" and on_no_time is not None:
                return on_no_time(failed.failure, meter)
            if on_invalid is not None and failed.failure.kind == "model_output_invalid":
                record = self.error_record(task, view, failed.failure, "a neutral value was used")
                return self._metered(ModelDecision(on_invalid(), tokens=failed.tokens, model_calls=failed.calls,
                                                   retries=max(0, failed.calls - 1), fallbacks=1, errors=[record],
                                                   truncations=prompt.truncations), meter)
            return self._metered(self.fall_back(task, view, fallback, failed.failure, calls=failed.calls,
                                                 tokens=failed.tokens, truncations=prompt.truncations), meter)
        except ModelUnavailable:
            raise
        except Exception as error:  # a bug in our own handling must not end the run: recorded, then the fallback
            failure = classify_failure(error)
            self._log(task, 1, 0, failure.kind, started, meter)
            return self._metered(self.fall_back(task, view, fallback, failure, calls=1, tokens=0,
                                                 truncations=prompt.truncations), meter)
        self._record_transport(False)
        self.remember_instructions(model, task, prompt.messages)
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

    def fall_back(self, task: str, view: ResearchView, fallback: Callable[[], Decision], failure: CallFailure, *,
                   calls: int, tokens: int, truncations: int = 0,
                   outcome: str = "the deterministic engine answered this call") -> ModelDecision:
        decision = fallback()
        record = self.error_record(task, view, failure, outcome)
        return ModelDecision(decision.value, tokens=tokens + decision.tokens, model_calls=calls + decision.model_calls,
                             retries=max(0, calls - 1) + decision.retries, fallbacks=decision.fallbacks + 1,
                             errors=[*decision.errors, record], truncations=truncations)

    def error_record(self, task: str, view: ResearchView, failure: CallFailure, outcome: str) -> ErrorRecord:
        """An engine call's ErrorResponse, stored as the state's ErrorRecord (design §14, §18)."""
        response = ErrorResponse(error=ErrorDetail(type=failure.kind, message=f"{task}: {failure.message}; {outcome}",
                                                   retryable=failure.retryable))
        return ErrorRecord(node=TASK_NODES[task], type=response.error.type, message=response.error.message,
                           retryable=response.error.retryable, cycle=view.cycle, round=view.search_round)

    def _record_transport(self, failed: bool) -> None:
        with self._lock:
            self._consecutive_transport_failures = self._consecutive_transport_failures + 1 if failed else 0

    def _account(self, view: ResearchView, tokens: int) -> None:
        self.runs.spend(view, tokens)

    def _log(self, task: str, calls: int, tokens: int, outcome: str, started: float, meter: CallMeter) -> None:
        seconds = time.perf_counter() - started
        logger.info("model call %s: %s, %d call(s), %d tokens (%d read, %d written), %.2f s", task, outcome, calls,
                    tokens, meter.prompt_tokens, meter.output_tokens, seconds,
                    extra={"satiate_task": task, "outcome": outcome, "calls": calls, "tokens": tokens,
                           "prompt_tokens": meter.prompt_tokens, "output_tokens": meter.output_tokens,
                           "seconds": seconds})
        if self.metrics is not None:
            self.metrics.observe_model_call(task, outcome, calls, seconds)
