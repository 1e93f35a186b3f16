"""How fast a model reads and writes, measured on every call, and what one call may therefore cost.

A local model on a laptop CPU reads a prompt at 30-90 tokens a second and writes 5-10; a hosted one is a hundred
times faster. A prompt fitted only to ``num_ctx`` can therefore take minutes, so each call's budget also follows the
measured speed and the time the run has left (``call_budget``). Speeds are learnt per model and kept for the
process (``PaceMeter``): the first call of a process starts from a cautious prior, later calls use what was measured.

Where the provider reports how the time split between reading and writing (Ollama's ``prompt_eval_duration`` /
``eval_duration``, and satiate's own llama.cpp model, which reports the same keys), both speeds are measured
directly; otherwise the call's whole time is split assuming one written token costs ``WRITE_COST`` read tokens, the
ratio measured for llama.cpp on CPUs.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

# Before anything was measured: a 1.5B Q4 model on 2 busy CPU cores (measured: reads 15-90 tokens/s, writes 2-10).
PRIOR_PROMPT_TPS = 30.0
PRIOR_OUTPUT_TPS = 6.0
WRITE_COST = 8.0  # without a provider's split: one written token takes as long as this many read tokens
SMOOTHING = 0.5  # weight of the newest call in the running speed estimate
MIN_SAMPLE_TOKENS = 16  # fewer tokens than this say nothing reliable about a speed
CALL_OVERHEAD_S = 1.0  # set-up and sampling time per call that scales with neither prompt nor output


@dataclass(frozen=True)
class CallTiming:
    """What one model call cost: tokens and seconds, and the read/write split when the provider reports it."""

    prompt_tokens: int
    output_tokens: int
    seconds: float
    prompt_seconds: float | None = None
    output_seconds: float | None = None
    prompt_tokens_read: int | None = None  # tokens actually evaluated (a cached prompt prefix is not read again)


def _nanoseconds(value: Any) -> float | None:
    return float(value) / 1e9 if isinstance(value, (int, float)) and value > 0 else None


def timing_of(message: Any, seconds: float) -> CallTiming:
    """A call's timing from its reply: usage metadata for the tokens, Ollama-style durations for the split."""
    usage = getattr(message, "usage_metadata", None) or {}
    meta = getattr(message, "response_metadata", None) or {}
    prompt = int(usage.get("input_tokens") or meta.get("prompt_eval_count") or 0)
    output = int(usage.get("output_tokens") or meta.get("eval_count") or 0)
    read = meta.get("prompt_eval_count")
    return CallTiming(prompt, output, seconds, _nanoseconds(meta.get("prompt_eval_duration")),
                      _nanoseconds(meta.get("eval_duration")), int(read) if isinstance(read, int) else None)


@dataclass(frozen=True)
class Speed:
    """Tokens a second a model reads (prompt) and writes (output); ``measured`` is False for the prior."""

    prompt_tps: float = PRIOR_PROMPT_TPS
    output_tps: float = PRIOR_OUTPUT_TPS
    measured: bool = False

    def seconds(self, prompt_tokens: int, output_tokens: int) -> float:
        return CALL_OVERHEAD_S + prompt_tokens / self.prompt_tps + output_tokens / self.output_tps


def split_speeds(timing: CallTiming) -> tuple[float | None, float | None]:
    """(prompt tokens/s, output tokens/s) of one call; None for a side too small to measure."""
    read = timing.prompt_tokens_read if timing.prompt_tokens_read is not None else timing.prompt_tokens
    if timing.prompt_seconds is not None or timing.output_seconds is not None:
        prompt = read / timing.prompt_seconds if timing.prompt_seconds and read >= MIN_SAMPLE_TOKENS else None
        output = (timing.output_tokens / timing.output_seconds
                  if timing.output_seconds and timing.output_tokens >= MIN_SAMPLE_TOKENS else None)
        return prompt, output
    busy = timing.seconds - CALL_OVERHEAD_S
    weighted = read + WRITE_COST * timing.output_tokens
    if busy <= 0 or weighted < MIN_SAMPLE_TOKENS:
        return None, None
    prompt_tps = weighted / busy
    return prompt_tps, prompt_tps / WRITE_COST


class PaceMeter:
    """Running speed estimates per model, shared by every run of the process (thread-safe)."""

    def __init__(self) -> None:
        self._speeds: dict[str, Speed] = {}
        self._lock = threading.Lock()

    def speed(self, model_key: str) -> Speed:
        with self._lock:
            return self._speeds.get(model_key, Speed())

    def record(self, model_key: str, timing: CallTiming) -> Speed:
        prompt, output = split_speeds(timing)
        with self._lock:
            old = self._speeds.get(model_key)

            def blend(new: float | None, previous: float, measured: bool) -> float:
                if new is None:
                    return previous
                return new if not measured else SMOOTHING * new + (1 - SMOOTHING) * previous

            base = old or Speed()
            measured = bool(old and old.measured)
            speed = Speed(blend(prompt, base.prompt_tps, measured), blend(output, base.output_tps, measured),
                          measured or prompt is not None or output is not None)
            self._speeds[model_key] = speed
            return speed

    def forget(self) -> None:
        with self._lock:
            self._speeds.clear()


@dataclass(frozen=True)
class CallBudget:
    """What one call may cost: prompt tokens, output tokens, seconds, and what set the limit."""

    prompt_tokens: int
    output_tokens: int
    seconds: float
    limited_by: str  # "context": num_ctx; "time": the time left at the measured speed


def call_budget(*, num_ctx: int, output_cap: int, output_expected: int, output_floor: int, prompt_floor: int,
                seconds_left: float, speed: Speed, context_share: float, cached_prompt: int = 0) -> CallBudget | None:
    """The largest call that fits both the context window and the time left; None when not even the floors fit.

    The window holds the prompt (``context_share`` of what ``output_cap`` leaves, a margin for the token estimate)
    and the output cap. The time left pays for reading the prompt and writing the answer it usually gets
    (``output_expected`` tokens, shrunk toward ``output_floor`` before the prompt goes below ``prompt_floor``).
    Once the model's speed is measured, the output cap sent with the call is what can still be written in the time
    the prompt leaves (never more than ``output_cap``), so a model that runs long is stopped by its cap.
    ``cached_prompt`` tokens at the prompt's start are in the model's cache already (the same instructions as its
    previous call): they cost no reading time.
    """
    context_prompt = int((num_ctx - output_cap) * context_share)
    if context_prompt < prompt_floor:
        return None
    if not math.isfinite(seconds_left):
        return CallBudget(context_prompt, output_cap, math.inf, "context")
    usable = seconds_left - CALL_OVERHEAD_S
    expected = min(output_expected, output_cap)
    while True:
        prompt_seconds = usable - expected / speed.output_tps
        time_prompt = int(prompt_seconds * speed.prompt_tps) + cached_prompt if prompt_seconds > 0 else 0
        if time_prompt >= prompt_floor or expected <= output_floor:
            break
        expected = max(output_floor, int(expected * 0.75))
    prompt = min(context_prompt, time_prompt)
    if prompt < prompt_floor:
        return None
    to_read = max(0, prompt - cached_prompt)
    writable = int((usable - to_read / speed.prompt_tps) * speed.output_tps)
    # A guessed speed only sizes the prompt; the cap follows the time left once the model's speed is measured.
    output = max(expected, min(output_cap, writable)) if speed.measured else output_cap
    return CallBudget(prompt, output, speed.seconds(to_read, expected),
                      "time" if time_prompt < context_prompt else "context")
