"""Build the real graph over a local corpus with instrumented (but real) components."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from satiate.graph.builder import build_graph
from satiate.graph.deps import deterministic_engine
from satiate.nodes.common import Dependencies
from satiate.state.settings import Settings
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService


class CountingBackend:
    """Wraps a real backend and counts calls per query; can raise once on a chosen query (a crash mid-gather)."""

    def __init__(self, inner, crash_on: str | None = None, crash: type[BaseException] = KeyboardInterrupt) -> None:
        self.inner = inner
        self.name = inner.name
        self.description = inner.description
        self.calls: Counter[str] = Counter()
        self.crash_on = crash_on
        self.crash = crash
        self._lock = threading.Lock()

    def search(self, query: str, max_results: int):
        with self._lock:
            self.calls[query] += 1
            crash = self.crash_on is not None and self.crash_on in query
            if crash:
                self.crash_on = None
        if crash:
            raise self.crash(f"injected crash on {query!r}")
        return self.inner.search(query, max_results)


class FlakyEngine:
    """The deterministic engine, except that one chosen method raises on its first call (a crash in a node)."""

    def __init__(self, fail_method: str) -> None:
        self.inner = deterministic_engine()
        self.label = self.inner.label
        self.fail_method = fail_method
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def wrapped(*args, **kwargs):
            self.calls[name] += 1
            if name == self.fail_method and self.calls[name] == 1:
                raise RuntimeError(f"injected failure in {name}")
            return method(*args, **kwargs)

        return wrapped


INDEXING_NOTICE = ("indexing the built-in corpus", "indexing builtin-", "indexed builtin-")  # first build only


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the ``satiate`` command in-process: (exit code, stdout, stderr). The once-a-session notice that the shared
    built-in index is being built goes to whichever test searches it first, so it is left out here (its own test,
    in test_cli_front_door.py, checks it)."""
    from satiate.graph.cli import main

    code = main(list(argv))
    captured = capsys.readouterr()
    err = "".join(line for line in captured.err.splitlines(keepends=True) if not line.startswith(INDEXING_NOTICE))
    return code, captured.out, err


def corpus_deps(corpus: Path, data_dir: Path, engine=None, **backend_options) -> tuple[Dependencies, CountingBackend]:
    backend = CountingBackend(LocalCorpusBackend(corpus, data_dir), **backend_options)
    service = SearchService({"corpus": backend}, retry_attempts=1)
    chosen = engine or deterministic_engine()
    return Dependencies(engine_for=lambda settings: chosen, search_for=lambda settings: service), backend


def run_settings(corpus: Path, data_dir: Path, **overrides) -> dict:
    base = {"corpus": str(corpus), "backends": ["corpus"], "data_dir": str(data_dir), "seed": 11, "llm": "none"}
    return {**base, "max_results_per_query": 2, **overrides}


def saver_at(path: Path) -> SqliteSaver:
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    saver.setup()
    return saver


def build(deps: Dependencies, saver=None):
    return build_graph(deps, checkpointer=saver)


__all__ = ["CountingBackend", "FlakyEngine", "Settings", "build", "corpus_deps", "run_cli", "run_settings", "saver_at"]
