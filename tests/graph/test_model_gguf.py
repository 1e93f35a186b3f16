"""Optional smoke test with a real local GGUF model through llama.cpp (off the default path).

Runs only when llama-cpp-python is installed (``pip install 'satiate[gguf]'``, a source build of a few minutes) and
``SATIATE_TEST_GGUF`` names a GGUF chat model file, e.g. SmolLM2-135M-Instruct. Tiny models write schema-valid but
meaningless content: this checks the plumbing (grammar-constrained JSON, parsing, fallbacks, budgets), not answer
quality. Slow on a CPU: minutes per run.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from support.ollama_stub import SAMPLE_PASSAGES

GGUF = os.environ.get("SATIATE_TEST_GGUF", "")
EXPECTED_MODEL_ERRORS = {"model_output_invalid", "model_timeout", "model_error", "model_time_budget",
                         "model_time_limit", "model_claim_cut",
                         "model_answer_ungrounded"}
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or not Path(GGUF).is_file(),
    reason="needs llama-cpp-python and SATIATE_TEST_GGUF=/path/to/model.gguf",
)


def test_every_structured_call_is_valid_or_falls_back_cleanly(write_jsonl) -> None:
    from satiate.graph import build_graph
    from satiate.graph.deps import reset

    reset()
    corpus = write_jsonl(SAMPLE_PASSAGES)
    settings = {"llm": f"gguf:{GGUF}", "num_ctx": 4096, "num_predict": 384, "tier": "simple", "max_cycles": 1,
                "corpus": str(corpus), "backends": "corpus", "seed": 1, "max_execution_time_s": 600}
    result = build_graph().invoke({"question": "What is a Python generator?", "settings": settings})["result"]
    assert result["engine"].startswith("model:gguf:")
    assert result["stop_reason"]
    ids = {s["id"] for s in result["sources"]}
    assert all(set(c["source_ids"]) <= ids for c in result["claims"])
    model_errors = [e for e in result["errors"] if e["type"].startswith("model_")]
    assert all(e["type"] in EXPECTED_MODEL_ERRORS for e in model_errors)


def test_the_small_profile_ends_with_an_answer_or_an_abstention_within_the_time_budget(write_jsonl) -> None:
    from satiate.graph import build_graph
    from satiate.graph.deps import reset

    reset()
    corpus = write_jsonl(SAMPLE_PASSAGES)
    settings = {"llm": f"gguf:{GGUF}", "model_profile": "small", "corpus": str(corpus), "backends": "corpus",
                "seed": 1, "max_execution_time_s": 180}
    result = build_graph().invoke({"question": "What is a Python generator?", "settings": settings})["result"]
    assert result["short_answer"] or result["short_answer_reason"]  # an answer, or an explicit abstention
    assert result["claims"]
    ids = {s["id"] for s in result["sources"]}
    assert all(c["source_ids"] and set(c["source_ids"]) <= ids for c in result["claims"])
    model_errors = [e for e in result["errors"] if e["type"].startswith("model_")]
    assert all(e["type"] in EXPECTED_MODEL_ERRORS and e["node"] == "synthesize" for e in model_errors)
    assert result["metrics"]["research_loop_duration_seconds"] <= 180 + 60  # a call's prompt cannot be interrupted
