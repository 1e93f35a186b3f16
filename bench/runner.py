"""Run one question through the real graph and keep what the scorer needs (no gold, no answers here).

A worker process builds the graph once and then runs many (question, configuration, seed) units; the returned
record holds the passages read in reading order, every hit seen, the cited passages, the answer text and the run's
meters, all as plain JSON values so it crosses process boundaries cheaply.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bench.web_standin import CHROME_MARKERS
from satiate.graph import RECURSION_LIMIT, build_graph
from satiate.graph.deps import default_dependencies
from satiate.tools.llm.meters import model_metrics


@dataclass(frozen=True)
class Unit:
    """One graph run to do: the question text only (the scorer holds the gold)."""

    qid: str
    question: str
    config: str
    seed: int
    settings: dict[str, Any]
    trace_hits: bool = False


_GRAPH = None


def _graph():
    global _GRAPH
    if _GRAPH is None:
        _GRAPH = build_graph(default_dependencies())
    return _GRAPH


def final_state(graph, question: str, settings: dict[str, Any], config: dict[str, Any] | None = None) -> dict:
    """The full final state (``stream_mode="values"``: the last value is every channel, not just the output)."""
    last: dict = {}
    run_config = {"recursion_limit": RECURSION_LIMIT, **(config or {})}
    for value in graph.stream({"question": question, "settings": settings}, run_config, stream_mode="values"):
        last = value
    return last


def passage_id(record: dict) -> str:
    return record.get("doc_id") or record.get("key") or record.get("url") or ""


def model_kept(counters: dict[str, int]) -> float | None:
    """Share of model-written claims the grounding gate kept, when the model wrote any."""
    written = counters.get("model_claims", 0)
    return counters.get("model_claims_kept", 0) / written if written else None


def chrome_found(sources: list[dict]) -> list[list[str]]:
    """[passage id, marker] for each stand-in chrome marker in the text of a cited web source (web runs only)."""
    return [[passage_id(s), marker] for s in sources if s.get("origin") == "web" and s.get("text")
            for marker in CHROME_MARKERS if marker.lower() in s["text"].lower()]


def summarize_state(state: dict, *, trace_hits: bool) -> dict[str, Any]:
    """The plain-data record of one finished run."""
    result = state.get("result", {})
    sources = result.get("sources", [])
    searches = state.get("search_results", [])
    # seen: every result a search returned, read or passed over (a local search reads only its best few)
    seen = list(dict.fromkeys(passage_id(h) for r in searches for h in [*r["hits"], *r.get("passed_over", [])]))
    counters = state.get("counters", {})
    queries = []
    for r in searches:
        entry = {"cycle": r["cycle"], "round": r["round"], "query": r["query"], "angle": r["angle"],
                 "origin": r["origin"], "outcome": r["outcome"], "hits": len(r["hits"]), "cached": r["cached"]}
        if trace_hits:
            entry["hit_ids"] = [passage_id(h) for h in r["hits"]]
            entry["passed_ids"] = [passage_id(h) for h in r.get("passed_over", [])]
        queries.append(entry)
    return {
        "read": [passage_id(s) for s in sources],
        "seen": seen,
        "cited": [passage_id(s) for s in sources if s.get("n") is not None],
        "answer": result.get("answer", ""),
        "short_answer": result.get("short_answer"),
        "short_answer_candidate": result.get("short_answer_candidate"),
        "short_answer_confidence": result.get("short_answer_confidence"),
        "model_kept": model_kept(counters),
        "model_prompt_tokens": counters.get("model_prompt_tokens", 0),
        "model_output_tokens": counters.get("model_output_tokens", 0),
        "model_call_s": counters.get("model_call_ms", 0) / 1000,
        "model": model_metrics(counters),  # calls' seconds, claims written / kept / cut / re-anchored, echoes
        "prompt_truncations": counters.get("prompt_truncations", 0),
        "claims": len(result.get("claims", [])),
        "searches": len(searches),
        "search_rounds": len(state.get("novelty_scores", [])),
        "cycles": len(state.get("rounds", [])),
        "model_calls": counters.get("model_calls", 0),
        "model_fallbacks": counters.get("model_fallbacks", 0),
        "tokens": state.get("tokens_used", 0),
        "pages": result.get("pages") or {},  # the pages behind web hits: fetched, skipped, failed (web runs)
        "chrome_found": chrome_found(sources),
        "stop_reason": result.get("stop_reason", ""),
        "degraded": bool(result.get("degraded")),
        "errors": len(result.get("errors", [])),
        "gate": [{"cycle": g["cycle"], "round": g["round"], "score": g["score"], "decision": g["decision"],
                  "reason": g["reason"]} for g in state.get("novelty_scores", [])],
        "queries": queries,
    }


def run_unit(unit: Unit) -> dict[str, Any]:
    """Run one unit; a crash becomes a record with ``failure`` set, so one bad question cannot sink the table."""
    started = time.perf_counter()
    base = {"qid": unit.qid, "config": unit.config, "seed": unit.seed}
    try:
        state = final_state(_graph(), unit.question, unit.settings)
    except Exception as exc:  # recorded and reported, never silently dropped
        return {**base, "failure": f"{type(exc).__name__}: {exc}", "wall_s": time.perf_counter() - started}
    return {**base, **summarize_state(state, trace_hits=unit.trace_hits), "wall_s": time.perf_counter() - started}
