"""A tiny timing call when a model is loaded, so the first call of the first run is sized to the model's speed.

The pace meter (``tools.llm.pace``) learns a model's speed from its calls; before the first one it assumes a
cautious prior. Measured with a 1.5B model on 2 CPU cores, the first synthesis of a run then took 59 of the run's
120 s, and later syntheses were skipped. A warm-up call (about 150 tokens read, 24 written) measures both speeds
before any run's clock starts; the first real call is then planned from them.
"""

from __future__ import annotations

from collections.abc import Iterable

from satiate.engine.model_calls import ModelCaller, model_key
from satiate.prompts.loader import load_prompt
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.pace import CallTiming
from satiate.tools.llm.structured import CallFailed, call_text

WARM_UP_OUTPUT_TOKENS = 24  # enough written tokens for a write speed (the pace meter needs 16)


def warm_up(engine: ModelCaller, roles: Iterable[str]) -> list[str]:
    """One timing call to each model of ``roles`` whose speed is not measured yet; a notice per model (its speeds,
    or why the call failed, in which case the first real call is sized from the prior)."""
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
        try:
            call_text(tuned, load_prompt("warm_up").render(), max_retries=0, refine=str.strip,
                      config=engine.run_config("warm_up"), observe=timings.append)
        except CallFailed as failed:
            notices.append(f"warm-up call failed ({failed.failure.kind}); the first call is sized from a guessed speed")
            continue
        for timing in timings:
            engine.pace.record(key, timing)
        speed = engine.pace.speed(key)
        if speed.measured:
            notices.append(f"warm-up: reads {speed.prompt_tps:.0f} tokens/s, writes {speed.output_tps:.1f} tokens/s")
    return notices
