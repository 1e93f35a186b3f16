"""The word-novelty heuristic (design §5) and the knowledge-state helpers that need no model."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from satiate.state.records import Hit
from satiate.tools.text import words


def unseen_hits(hits: Iterable[Hit], known_keys: Mapping[str, object] | set[str]) -> list[Hit]:
    """Hits whose canonical source is not in the store yet, first occurrence only.

    A source the run already holds adds nothing, whatever words its snippet uses, so it is left out before scoring.
    """
    seen = set(known_keys)
    fresh: list[Hit] = []
    for hit in hits:
        if hit["key"] in seen:
            continue
        seen.add(hit["key"])
        fresh.append(hit)
    return fresh


def heuristic_novelty(bodies: Iterable[str], knowledge_state: str) -> int:
    """Word novelty (design §5): the share of words in the new results that the knowledge state lacks, scaled to 0-10.

    ~0 ms, no model, deterministic; vocabulary overlap is a weak proxy for meaning (a paraphrase scores high).
    """
    new_words = {w for body in bodies for w in words(body)}
    if not new_words:
        return 0
    known_words = set(words(knowledge_state))
    novel_fraction = len(new_words - known_words) / len(new_words)
    return round(novel_fraction * 10)
