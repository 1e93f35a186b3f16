"""Seed 004's breadcrumbs: names and identifiers that appear in what was read but not in the question.

Following them is how a multi-hop question reaches its second hop: the first source names the bridge entity, and a
query on that entity finds the passage holding the answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from satiate.engine.text import content_terms, entities, sentences, stem, stems, words
from satiate.state.records import SourceRecord

ORGANISATION_CUES = frozenset(
    """
    university college school institute institution association society academy agency department office ministry
    council committee commission company corporation inc ltd llc group party league club union federation foundation
    bank records studios press journal museum hospital church army navy court parliament congress government
    """.split()
)
NOISE = frozenset(
    """
    january february march april may june july august september october november december monday tuesday wednesday
    thursday friday saturday sunday i ii iii the this these it he she they however in on at after before
    """.split()
)


@dataclass(frozen=True)
class Breadcrumb:
    name: str
    kind: str  # identifier > organisation > person > other (seed 004's priority)
    score: float
    source_ids: tuple[str, ...]


KIND_WEIGHT = {"identifier": 4.0, "organisation": 3.0, "person": 2.0, "other": 1.0}


def kind_of(name: str) -> str:
    if any(ch.isdigit() for ch in name) and any(ch.isalpha() for ch in name):
        return "identifier"
    lowered = set(words(name))
    if lowered & ORGANISATION_CUES or (name.isupper() and len(name) > 1):
        return "organisation"
    if 2 <= len(name.split()) <= 4:
        return "person"
    return "other"


def rank_breadcrumbs(
    question: str, sources: list[SourceRecord], exclude: set[str] | None = None, limit: int = 10
) -> list[Breadcrumb]:
    """Entities worth following, best first.

    Kept: names absent from the question, not already the title of a source we hold (that page is read), and
    mentioned in a sentence that shares a content word with the question (the entity is about the question, not
    incidental). Ranked by seed 004's kind priority times how many sources and question-related sentences mention it.
    """
    question_lower = question.lower()
    question_terms = set(content_terms(question))
    held_titles = {s["title"].strip().lower() for s in sources}
    excluded = {e.lower() for e in exclude or set()}
    mentions: Counter[str] = Counter()
    related: Counter[str] = Counter()
    seen_in: dict[str, set[str]] = defaultdict(set)
    for source in sources:
        for sentence in sentences(source["text"][:20_000]):
            sentence_terms = set(content_terms(sentence.text))
            for name in set(entities(sentence.text)):
                lowered = name.lower()
                if (
                    lowered in question_lower
                    or lowered in held_titles
                    or lowered in excluded
                    or lowered in NOISE
                    or len(name) < 3
                    or set(words(name)) <= question_terms
                ):
                    continue
                mentions[name] += 1
                seen_in[name].add(source["id"])
                if sentence_terms & question_terms:
                    related[name] += 1
    crumbs = [
        Breadcrumb(
            name=name,
            kind=kind_of(name),
            score=KIND_WEIGHT[kind_of(name)] * (len(seen_in[name]) + related[name]),
            source_ids=tuple(sorted(seen_in[name])),
        )
        for name in mentions
        if related[name] > 0
    ]
    crumbs.sort(key=lambda c: (-c.score, c.name))
    return crumbs[:limit]


def remaining_terms(question: str, crumb: Breadcrumb, sources: list[SourceRecord]) -> list[str]:
    """Question terms the sources mentioning the breadcrumb do not cover: what the next hop must find."""
    covered: set[str] = set()
    for source in sources:
        if source["id"] in crumb.source_ids:
            covered |= stems(source["text"])
    crumb_stems = stems(crumb.name)
    return [t for t in dict.fromkeys(content_terms(question)) if stem(t) not in covered | crumb_stems]
