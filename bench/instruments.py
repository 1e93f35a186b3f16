"""Instrumented stand-ins for the machinery benchmarks: a slow backend, a counting backend, a timing engine.

They wrap the real local-corpus backend and the real engine, so runs behave exactly as usual while the benchmark
learns where the time goes (``SpanClock``) and which searches reached the backend (``CountingBackend``'s log file,
written with one unbuffered append per event so it survives a SIGKILL of the process).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from satiate.tools.search.base import RawHit, SearchBackend


class SpanClock:
    """Time spans of calls that may overlap (parallel branches); ``covered`` is the wall time they cover."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.spans: list[tuple[float, float]] = []

    def record(self, start: float, end: float) -> None:
        with self._lock:
            self.spans.append((start, end))

    def reset(self) -> None:
        with self._lock:
            self.spans = []

    def total(self) -> float:
        """Sum of span lengths (counts parallel calls once each)."""
        return sum(end - start for start, end in self.spans)

    def covered(self, *others: SpanClock) -> float:
        """Wall time during which at least one span (of this clock or ``others``) was open."""
        spans = sorted(self.spans + [s for other in others for s in other.spans])
        covered, current_start, current_end = 0.0, None, None
        for start, end in spans:
            if current_end is None or start > current_end:
                if current_end is not None:
                    covered += current_end - current_start
                current_start, current_end = start, end
            else:
                current_end = max(current_end, end)
        if current_end is not None:
            covered += current_end - current_start
        return covered


class SleepyBackend:
    """The real backend plus a fixed sleep per query: stands in for a network search of known latency."""

    cacheable = False  # every query must pay the latency, or the overhead measurement would be flattered

    def __init__(self, inner: SearchBackend, delay_s: float, clock: SpanClock) -> None:
        self.inner, self.delay_s, self.clock = inner, delay_s, clock
        self.name, self.description = inner.name, inner.description

    def search(self, query: str, max_results: int) -> list[RawHit]:
        started = time.perf_counter()
        try:
            time.sleep(self.delay_s)
            return self.inner.search(query, max_results)
        finally:
            self.clock.record(started, time.perf_counter())


class CountingBackend:
    """The real backend, each call logged as ``start``/``end`` lines to a file (append-only, one write a line).

    Cacheable, with its own cache scope, so it sits behind the search cache like a web backend would. ``delay_of``
    gives each query a latency, so a run can be killed while some of a round's searches are done and some are not.
    """

    cacheable = True

    def __init__(self, inner: SearchBackend, log_path: Path, delays_s: tuple[float, ...] = (0.0,)) -> None:
        self.inner, self.log_path, self.delays_s = inner, Path(log_path), delays_s
        self.name, self.description = inner.name, inner.description
        self.cache_scope = f"bench-counting:{inner.name}"
        self._calls = 0
        self._lock = threading.Lock()

    def _log(self, event: str, query: str) -> None:
        line = f"{os.getpid()}\t{event}\t{' '.join(query.split())}\n".encode()
        descriptor = os.open(self.log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)

    def search(self, query: str, max_results: int) -> list[RawHit]:
        with self._lock:
            delay = self.delays_s[self._calls % len(self.delays_s)]
            self._calls += 1
        self._log("start", query)
        time.sleep(delay)
        hits = self.inner.search(query, max_results)
        self._log("end", query)
        return hits


def read_call_log(path: Path) -> list[tuple[int, str, str]]:
    """(pid, event, query) per logged line, in order."""
    if not Path(path).exists():
        return []
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        pid, event, query = line.split("\t", 2)
        rows.append((int(pid), event, query))
    return rows


def finished_queries(rows: list[tuple[int, str, str]]) -> Counter[str]:
    return Counter(query for _, event, query in rows if event == "end")


class TimedEngine:
    """The real engine with each decision's wall time recorded; model time = decisions that made a model call."""

    DECISIONS = ("plan", "novelty", "compress", "reflect", "synthesize", "critique")

    def __init__(self, inner: Any, engine_clock: SpanClock, model_clock: SpanClock) -> None:
        self.inner, self.engine_clock, self.model_clock = inner, engine_clock, model_clock
        self.label = inner.label

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        if name not in self.DECISIONS:
            return attribute

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            decision = attribute(*args, **kwargs)
            ended = time.perf_counter()
            self.engine_clock.record(started, ended)
            if getattr(decision, "model_calls", 0):
                self.model_clock.record(started, ended)
            return decision

        return timed


def clocked(function: Any, clock: SpanClock) -> Any:
    """``function`` with every call's span recorded on ``clock``."""

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            clock.record(started, time.perf_counter())

    return timed


@contextmanager
def timing(functions: dict[str, tuple[str, ...]], clock: SpanClock) -> Iterator[None]:
    """Record every call of the named module-level functions (``{"module": ("name", ...)}``) on ``clock`` while the
    block runs: work a node does itself, outside the engine, that a benchmark wants to tell apart."""
    import importlib

    originals: list[tuple[Any, str, Any]] = []
    for module_name, names in functions.items():
        module = importlib.import_module(module_name)
        for name in names:
            original = getattr(module, name)
            originals.append((module, name, original))
            setattr(module, name, clocked(original, clock))
    try:
        yield
    finally:
        for module, name, original in originals:
            setattr(module, name, original)
