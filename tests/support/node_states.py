"""Hand-built states for calling one node directly: settings as plan stores them, sources and search records saved
through the same functions the nodes use (texts in the run's store, the state holding their hashes).

A node test builds the state a node would see at its place in the graph, calls the node, and reads its update.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from satiate.engine.base import ResearchView
from satiate.engine.canonical import canonical_key
from satiate.engine.deterministic import DeterministicEngine
from satiate.graph.deps import complete, store_for
from satiate.nodes.common import Dependencies, keep_bodies, keep_sources
from satiate.state.records import Hit, SearchRecord, SourceRecord
from satiate.state.settings import Settings


def resolved(data_dir: Path, **overrides: Any) -> dict[str, Any]:
    """Settings as plan leaves them in ``resolved_settings``: the deterministic engine, a fixed seed, this data dir."""
    fields = {"data_dir": str(data_dir), "llm": "none", "seed": 11, "backends": ["corpus"], **overrides}
    return Settings(**fields).model_dump(mode="json")


def passage_key(passage: dict) -> str:
    return canonical_key("", passage["doc_id"], passage["text"])


def stored_sources(resolved_settings: dict, passages: Iterable[dict], *, first: int = 1, cycle: int = 1,
                   search_round: int = 1) -> dict[str, SourceRecord]:
    """The passages as the sources compress keeps (ids S<first>, S<first+1>, ...): texts saved, references returned."""
    full: dict[str, SourceRecord] = {}
    for number, passage in enumerate(passages, first):
        key = passage_key(passage)
        full[key] = SourceRecord(id=f"S{number}", key=key, url="", title=passage["title"], text=passage["text"],
                                 backend="corpus", read_kind="passage", query=passage["title"], angle="question",
                                 cycle=cycle, round=search_round, doc_id=passage["doc_id"])
    return keep_sources(store_for, Settings.model_validate(resolved_settings), full)


def read_source(number: int, title: str, text: str, query: str) -> SourceRecord:
    """A passage the question's own search read (id S<number>), its text held in the record as a view shows it."""
    return SourceRecord(id=f"S{number}", key=f"doc:{number}", url="", title=title, text=text, backend="corpus",
                        read_kind="passage", query=query, angle="question", cycle=1, round=1)


def hit_of(passage: dict, rank: int, backend: str = "corpus") -> Hit:
    return Hit(title=passage["title"], url=passage.get("url", ""), body=passage["text"],
               key=passage.get("key") or passage_key(passage), backend=backend, rank=rank,
               doc_id=passage.get("doc_id"))


def search_record(resolved_settings: dict, passages: Iterable[dict], *, cycle: int = 1, search_round: int = 1,
                  query: str = "Lumen kettle maker", outcome: str = "ok", backend: str = "corpus",
                  angle: str = "question", duration_s: float = 0.01, error: str | None = None) -> SearchRecord:
    """One search as gather logs it: the hits' bodies saved in the store, the record holding their hashes."""
    hits = [hit_of(p, rank, backend) for rank, p in enumerate(passages, 1)]
    record = SearchRecord(cycle=cycle, round=search_round, query=query, angle=angle, origin="plan", backend=backend,
                          outcome=outcome, hits=hits, result_chars=sum(len(h["body"]) for h in hits), attempts=1,
                          cached=False, error=error, duration_s=duration_s)  # type: ignore[typeddict-item]
    return keep_bodies(store_for, Settings.model_validate(resolved_settings), [record])[0]


def node_deps(engine: Any = None, search: Any = None) -> Dependencies:
    """Dependencies for a node called directly: ``engine`` and ``search`` (a SearchService) for any settings, the
    process's store, page reader and metrics for the rest (``satiate.graph.deps.complete``, as ``build_graph`` does)."""
    chosen = engine or DeterministicEngine()
    return complete(Dependencies(engine_for=lambda settings: chosen, search_for=lambda settings: search))


def stored_texts(resolved_settings: dict, hashes: Iterable[str]) -> dict[str, str]:
    """The texts under these hashes in the run's store, read the way the nodes read them."""
    from satiate.tools.source_texts import read_texts

    return read_texts(store_for(Settings.model_validate(resolved_settings)), hashes)


class EngineWith(DeterministicEngine):
    """The deterministic engine with some decisions replaced: ``EngineWith(synthesize=lambda view: Decision(...))``.

    Every call is recorded in ``calls`` (method name, view), so a test can see what a node asked and with what."""

    def __init__(self, **decisions: Any) -> None:
        self.decisions = decisions
        self.calls: list[tuple[str, Any]] = []

    def _answer(self, name: str, view: Any, *args: Any) -> Any:
        self.calls.append((name, view))
        if name in self.decisions:
            return self.decisions[name](view, *args)
        return getattr(super(), name)(view, *args)

    def plan(self, view, target):
        return self._answer("plan", view, target)

    def novelty(self, view, hits):
        return self._answer("novelty", view, hits)

    def compress(self, view, new_sources):
        return self._answer("compress", view, new_sources)

    def reflect(self, view):
        return self._answer("reflect", view)

    def synthesize(self, view):
        return self._answer("synthesize", view)


__all__ = ["EngineWith", "hit_of", "node_deps", "passage_key", "resolved", "search_record", "stored_sources",
           "stored_texts"]


def research_view(question: str, settings: Settings, sources: list[SourceRecord]) -> ResearchView:
    """What an engine is asked with: the question, the settings and the sources read so far (one run, no searches)."""
    return ResearchView(question=question, settings=settings, sources=sources, knowledge_state="", search_results=[],
                        run_id="thread-1")
