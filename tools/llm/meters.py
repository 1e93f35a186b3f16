"""The model layer's numbers of one run, read from its counters: what the calls read, wrote and took, and what
became of the claims the model wrote. One definition for the run output (``--json`` ``metrics``) and the benchmarks.

The counters are written by the model engine's decisions (``engine.model_calls.ModelDecision``); a run without a
model has none, and every number is then 0.
"""

from __future__ import annotations

from collections.abc import Mapping

MODEL_COUNTERS = {  # metric name -> the run counter it reads
    "model_prompt_tokens": "model_prompt_tokens",
    "model_output_tokens": "model_output_tokens",
    "model_claims_written": "model_claims",
    "model_claims_kept": "model_claims_kept",
    "model_claims_cut": "model_claims_cut",
    "model_claims_reanchored": "model_claims_reanchored",
    "model_answers_rescued": "model_answers_rescued",
    "model_example_echoes": "model_example_echoes",
    "model_earlier_answer_kept": "model_earlier_answer_kept",
    "model_calls_skipped": "model_calls_skipped",  # syntheses with no call: none fitted the time left
}


def model_metrics(counters: Mapping[str, int]) -> dict[str, float]:
    """The model metrics of a run: the counters above, the seconds its calls took (in all and a call), and the share
    of written claims kept (0 when the model wrote none)."""
    calls = counters.get("model_calls", 0)
    seconds = counters.get("model_call_ms", 0) / 1000
    written = counters.get("model_claims", 0)
    return {
        **{name: float(counters.get(counter, 0)) for name, counter in MODEL_COUNTERS.items()},
        "model_call_seconds": round(seconds, 3),
        "model_seconds_per_call": round(seconds / calls, 3) if calls else 0.0,
        "model_claims_kept_share": round(counters.get("model_claims_kept", 0) / written, 3) if written else 0.0,
    }
