"""Notes as sources the finder reads, and the cited chain it makes from them, as a run's report would judge it."""

from __future__ import annotations

from satiate.engine.answer import find_answer, said_on
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.fit import type_fit


def note_sources(*pages: tuple[str, str]) -> list[dict]:
    """Each (title, text) as a source read, numbered in order."""
    return [{"id": f"S{n}", "key": f"doc:{n}", "doc_id": f"doc:{n}", "title": title, "text": text, "url": "",
             "angle": "question"} for n, (title, text) in enumerate(pages, 1)]


def finder_chain(question: str, sources: list[dict]) -> tuple[str | None, Chain]:
    """The finder's short answer and the chain its evidence makes: the first sentence states it, the rest are hops."""
    found = find_answer(question, sources)
    chain = Chain(question=question, answer=found.short_answer or "", kind=found.kind,
                  stating=tuple(said_on(line.text, line.source) for line in found.evidence[:1]),
                  hops=tuple(said_on(line.text, line.source) for line in found.evidence[1:]),
                  answer_pages=tuple(line.source["title"] for line in found.evidence[:1]),
                  hop_pages=tuple(line.source["title"] for line in found.evidence[1:]),
                  read=tuple(f"{s['title']}. {s['text']}" for s in sources),
                  read_titles=tuple(s["title"] for s in sources))
    return found.short_answer, chain


def fit_of(question: str, answer: str, kind: str, stating: str, *read: str) -> float:
    """The type fit of ``answer`` stated by one sentence on a page titled "Notes", ``read`` beside it."""
    chain = Chain(question=question, answer=answer, kind=kind, stating=(stating,), answer_pages=("Notes",),
                  read=(stating, *read))
    return type_fit(chain)[0]
