"""Search-layer numbers through the real graph, with a sleeping local backend standing in for the web.

    python -m bench.search_layer [--latency 0.2] [--repeats 5]

1. Warm cache: the same question twice against one store; the rerun should make 0 backend calls.
2. Parallel gather: one round of 4 queries vs one round of 1 query against a backend that sleeps ``latency`` per
   call; gather fans out with ``Send``, so 4 queries should take about as long as 1 (target: ratio <= 1.2).

The backend is injected through ``satiate.nodes.common.Dependencies``; everything else (plan, gather's fallback
chain and quality floor, the novelty gate, the cache in ``SearchService``) is the production code. No network.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from satiate.graph.builder import RECURSION_LIMIT, build_graph
from satiate.graph.deps import engine_for
from satiate.nodes.common import Dependencies
from satiate.state.settings import resolve_settings
from satiate.tools.search.base import RawHit
from satiate.tools.search.service import SearchService
from satiate.tools.store import Store, default_store_url

QUESTION = "How do Python generators save memory compared with lists?"


class SleepingBackend:
    """Answers every query after ``latency`` seconds with 5 hits of ~420 characters (above the quality floor)."""

    name = "web"
    description = "sleeping stand-in for web search"

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.calls = 0
        self._lock = threading.Lock()

    def search(self, query: str, max_results: int) -> list[RawHit]:
        with self._lock:
            self.calls += 1
        time.sleep(self.latency)
        body = (f"On {query}: generators produce one item at a time and keep only their frame alive, while a list "
                "holds every element in memory at once; for large or unbounded sequences the generator's memory use "
                "stays flat. ") * 2
        return [RawHit(title=f"{query} ({n})", url=f"https://bench.invalid/{abs(hash((query, n)))}", body=body)
                for n in range(min(5, max_results))]


def run_graph(deps: Dependencies, settings: dict[str, Any]) -> list[tuple[float, str]]:
    """Run one question; returns (seconds since start, node) for every node update, in order."""
    app = build_graph(deps)
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": RECURSION_LIMIT}
    started = time.perf_counter()
    events: list[tuple[float, str]] = []
    for chunk in app.stream({"question": QUESTION, "settings": settings}, config, stream_mode="updates"):
        for node in chunk:
            events.append((time.perf_counter() - started, node))
    return events


def warm_cache(latency: float, data_dir: Path) -> None:
    settings = {"backends": ["web"], "url_enrich_count": 0, "tier": "simple", "seed": 1, "data_dir": str(data_dir)}
    resolved = resolve_settings(settings)
    backend = SleepingBackend(latency)
    store = Store(default_store_url(data_dir))
    service = SearchService({"web": backend}, retry_attempts=resolved.retry_attempts, store=store,
                            cache_ttl_s=resolved.cache_ttl_s)
    deps = Dependencies(engine_for=engine_for, search_for=lambda _settings: service)
    print("1. warm-cache rerun (same question, same store)")
    for label in ("cold", "warm"):
        before = backend.calls
        started = time.perf_counter()
        run_graph(deps, settings)
        print(f"   {label}: {backend.calls - before:3d} backend calls, {time.perf_counter() - started:6.2f} s")
    store.dispose()


def round_one_gather_seconds(deps: Dependencies, settings: dict[str, Any]) -> tuple[float, int]:
    """Wall time from plan's update to the last gather update of round 1, and how many gather branches ran."""
    events = run_graph(deps, settings)
    plan_done = next(t for t, node in events if node == "plan")
    gate = next(i for i, (_, node) in enumerate(events) if node == "novelty_gate")
    gathers = [t for t, node in events[:gate] if node == "gather"]
    return max(gathers) - plan_done, len(gathers)


def parallel_gather(latency: float, repeats: int, data_dir: Path) -> None:
    backend = SleepingBackend(latency)
    service = SearchService({"web": backend}, retry_attempts=1)  # no cache: every query really waits
    deps = Dependencies(engine_for=engine_for, search_for=lambda _settings: service)
    base = {"backends": ["web"], "url_enrich_count": 0, "max_search_rounds": 1, "searches_per_task": 1,
            "max_cycles": 1, "seed": 3, "cache_ttl_s": 0, "data_dir": str(data_dir)}
    print(f"2. parallel gather, backend latency {latency * 1000:.0f} ms, median of {repeats} runs")
    medians: dict[int, float] = {}
    for queries in (1, 4):
        timings = []
        for _ in range(repeats):
            seconds, branches = round_one_gather_seconds(deps, {**base, "max_queries_per_round": queries})
            assert branches == queries, f"expected {queries} gather branches, got {branches}"
            timings.append(seconds)
        medians[queries] = statistics.median(timings)
        print(f"   {queries} quer{'y' if queries == 1 else 'ies'}: round-1 gather {medians[queries] * 1000:7.1f} ms "
              f"(min {min(timings) * 1000:.1f}, max {max(timings) * 1000:.1f})")
    ratio = medians[4] / medians[1]
    print(f"   ratio 4 queries / 1 query: {ratio:.2f} (target <= 1.2; sequential would be ~4.0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="backend sleep per call, seconds")
    parser.add_argument("--repeats", type=int, default=5, help="runs per parallel-gather measurement")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="satiate-bench-") as scratch:
        warm_cache(args.latency, Path(scratch) / "warm")
        parallel_gather(args.latency, args.repeats, Path(scratch) / "parallel")


if __name__ == "__main__":
    main()
