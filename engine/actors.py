"""Seed 004's key actors: the entities that recur most across what was read, each with a cited one-line profile."""

from __future__ import annotations

from collections import Counter

from satiate.engine.breadcrumbs import NOISE
from satiate.engine.deterministic import claimable
from satiate.engine.text import STOPWORDS, entities, sentences, words
from satiate.state.records import SourceRecord

DEFINING_VERBS = (" is ", " was ", " are ", " were ", " has been ")


def key_actors(sources: list[SourceRecord], limit: int = 5) -> list[dict]:
    """Entities named in at least two sources, most sources first, each profiled by its defining sentence.

    The profile is a sentence of a source (so it is grounded by construction) that names the entity, preferring
    one that defines it ("X is a ...") and one from a source titled with the entity.
    """
    reach: Counter[str] = Counter()
    for source in sources:
        for name in set(entities(source["text"][:20_000])):
            if len(name) > 2 and name.lower() not in NOISE and name.lower() not in STOPWORDS:
                reach[name] += 1
    actors: list[dict] = []
    for name, count in sorted(reach.items(), key=lambda item: (-item[1], item[0])):
        if count < 2 or len(actors) >= limit:
            continue
        if any(name in other["name"] or other["name"] in name for other in actors):
            continue
        best: tuple[float, str, str] | None = None
        for source in sources:
            for sentence in sentences(source["text"][:20_000]):
                if name not in sentence.text or len(sentence.text) > 400 or not claimable(sentence.text):
                    continue
                text = sentence.text
                score = (2.0 if text.startswith(name) and any(v in text for v in DEFINING_VERBS) else 0.0)
                score += 1.0 if name.lower() in source["title"].lower() else 0.0
                score -= len(text) / 1000
                if best is None or score > best[0]:
                    best = (score, text, source["id"])
        if best:
            actors.append({"name": name, "mentions": count, "profile": best[1], "source_ids": [best[2]]})
    return actors
