"""One-shot BM25: the question as the only query against satiate's own FTS5 index (no graph, no loop)."""

from __future__ import annotations

import time
from pathlib import Path

from satiate.tools.search.local_corpus import LocalCorpusBackend


class OneShotBM25:
    """Top-k passage ids for a question, each (question, k) searched once and remembered."""

    def __init__(self, corpus: Path, data_dir: Path) -> None:
        self.backend = LocalCorpusBackend(corpus, data_dir)
        self._ranked: dict[tuple[str, int], tuple[list[str], float]] = {}

    def top(self, question: str, k: int) -> tuple[list[str], float]:
        """(passage ids best first, seconds the search took)."""
        if k <= 0:
            return [], 0.0
        key = (question, k)
        if key not in self._ranked:
            started = time.perf_counter()
            hits = self.backend.search(question, k)
            self._ranked[key] = ([h.doc_id or h.url for h in hits], time.perf_counter() - started)
        return self._ranked[key]
