"""A short synthesis call when a model is loaded, so the first call of the first run is sized to the model's speed
and finds the synthesis instructions already read.

The pace meter (``tools.llm.pace``) learns a model's speed from its calls; before the first one it assumes a
cautious prior. Measured with a 1.5B model on 2 CPU cores, the first synthesis of a run then took 59 of the run's
120 s, and later syntheses were skipped. The warm-up asks the synthesis prompt about two invented sentences, with
24 tokens to write: both speeds are measured before any run's clock starts, and llama.cpp (like Ollama) keeps the
prompt's instructions in its cache, so a run's synthesis reads only its own question and sentences
(``ModelCaller.cached_prompt_tokens``).
"""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.messages import BaseMessage

from satiate.engine.model_calls import RUN_RESERVE_S, ModelCaller, model_key
from satiate.engine.model_synthesis import EVIDENCE_RANKED, EVIDENCE_SHAPE
from satiate.prompts.loader import load_prompt, quote_data
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.pace import CallTiming
from satiate.tools.llm.structured import CallFailed, call_text

WARM_UP_OUTPUT_TOKENS = 24  # enough written tokens for a write speed (the pace meter needs 16)
# A compact synthesis call (small profile), measured with a 1.5B model: the question and 6 sentences were 252 tokens
# to read once the instructions were cached, the short answer and 2 claims 89 tokens written.
COMPACT_PROMPT_TOKENS = 42 * EVIDENCE_RANKED["small"]
COMPACT_OUTPUT_TOKENS = 90
WARM_UP_QUESTION = "Which river flows past the town of Orrinford?"  # invented, like its sentences
WARM_UP_EVIDENCE = ("E1 [S1 · Orrinford] Orrinford is a market town in the Tessel valley.\n"
                    "E2 [S2 · River Calder] The river Calder flows past Orrinford before it meets the sea.")


def warm_up_messages() -> list[BaseMessage]:
    """The synthesis prompt, as a run sends it, about two invented sentences."""
    return load_prompt("synthesize").render(
        question=quote_data(WARM_UP_QUESTION, "question"), degraded_note="", answer_kind="the name of a place",
        evidence=quote_data(WARM_UP_EVIDENCE, "evidence"), max_claims=1, schema=EVIDENCE_SHAPE)


def call_plan(prompt_tps: float, output_tps: float, budget_s: float | None) -> str:
    """What one compact synthesis call will take at the measured speeds, and whether a run's budget leaves time for
    it (the budget check before each call decides; this says it before the run starts)."""
    seconds = 1 + COMPACT_PROMPT_TOKENS / prompt_tps + COMPACT_OUTPUT_TOKENS / output_tps
    plan = f"a synthesis call of {EVIDENCE_RANKED['small']} sentences takes about {seconds:.0f} s"
    if budget_s is None:
        return plan
    if seconds > budget_s - RUN_RESERVE_S:
        return (f"{plan}, more than the run's {budget_s:.0f} s budget: no model call will be made and the answer "
                "will be the deterministic one (raise --max-execution-time-s)")
    return f"{plan}, within the run's {budget_s:.0f} s budget"


def warm_up(engine: ModelCaller, roles: Iterable[str], budget_s: float | None = None) -> list[str]:
    """One short synthesis call to each model of ``roles`` whose speed is not measured yet; a notice per model (its
    speeds and what a compact call will take within ``budget_s``, or why the call failed, in which case the first
    real call is sized from the prior)."""
    notices: list[str] = []
    done: set[int] = set()
    for role in roles:
        model = engine.models.get(role)
        if model is None or id(model) in done:
            continue
        done.add(id(model))
        key = model_key(model)
        if engine.pace.speed(key).measured:
            continue
        timings: list[CallTiming] = []
        tuned = with_call_options(model, temperature=0.0, max_tokens=WARM_UP_OUTPUT_TOKENS)
        messages = warm_up_messages()
        try:  # the reply is not used: only the time it took, and the instructions left in the model's cache
            call_text(tuned, messages, max_retries=0, refine=str.strip, config=engine.run_config("warm_up"),
                      observe=timings.append)
        except CallFailed as failed:
            notices.append(f"warm-up call failed ({failed.failure.kind}); the first call is sized from a guessed speed")
            continue
        for timing in timings:
            engine.pace.record(key, timing)
        engine.remember_instructions(model, "synthesize", messages)
        speed = engine.pace.speed(key)
        if speed.measured:
            notices.append(f"warm-up: reads {speed.prompt_tps:.0f} tokens/s, writes {speed.output_tps:.1f} tokens/s; "
                           + call_plan(speed.prompt_tps, speed.output_tps, budget_s))
    return notices
