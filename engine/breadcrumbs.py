"""Breadcrumbs (design §8): names and identifiers that appear in what was read but not in the question.

Following them is how a multi-hop question reaches its second hop: the first source names the bridge entity, and a
query on that entity finds the passage holding the answer.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass

from satiate.engine.answer import focus_terms, name_spans
from satiate.state.records import SourceRecord
from satiate.tools.text import (
    SCAN_CHARS,
    claimable,
    clean_title,
    content_terms,
    entities,
    idf_weights,
    page_subject,
    sentences,
    stem,
    stems,
    unique,
    words,
)

ORGANISATION_CUES = frozenset(
    """
    university college school institute institution association society academy agency department office ministry
    council committee commission company corporation inc ltd llc group party league club union federation foundation
    bank records studios press journal museum hospital church army navy court parliament congress government
    works systems industries labs technologies airways airlines
    """.split()
)
NOISE = frozenset(
    """
    january february march april may june july august september october november december monday tuesday wednesday
    thursday friday saturday sunday i ii iii the this these it he she they however in on at after before
    true false none null yes no note example see also changed added fixed new version
    """.split()
)


@dataclass(frozen=True)
class Breadcrumb:
    name: str
    kind: str  # identifier > organisation > person > other (design §8)
    score: float
    source_ids: tuple[str, ...]


# The kind priority (identifiers > organisations > people > other) as a mild multiplier on relevance (design §8).
DATE_LIKE = re.compile(r"^\d{4}-\d{2}")
KIND_WEIGHT = {"identifier": 1.3, "organisation": 1.2, "person": 1.1, "other": 1.0}
ANCHOR_LEAD_BONUS = 2.0  # a name in the first sentence of a page the question names, in units of the rarest term
GENERIC_SHARE = 0.3  # a name more than this share of the topical pages mention leads nowhere in particular


def kind_of(name: str) -> str:
    if any(ch.isdigit() for ch in name) and any(ch.isalpha() for ch in name):
        return "identifier"
    lowered = set(words(name))
    if lowered & ORGANISATION_CUES or (name.isupper() and len(name) > 1):
        return "organisation"
    if 2 <= len(name.split()) <= 4:
        return "person"
    return "other"


def topical_sources(question: str, sources: list[SourceRecord], share: float = 0.1,
                    floor: int = 8) -> list[SourceRecord]:
    """The sources most about the question (rarity-weighted share of its terms), where a bridge is named.

    Names mined from every source read drown in boilerplate (badges, changelogs, dates); the bridge of a multi-hop
    question sits in the few passages that match the question best.
    """
    question_terms = stems(question)
    documents = [stems(s["title"] + " " + s["text"][:SCAN_CHARS]) for s in sources]
    idf = idf_weights([list(d) for d in documents]) if documents else {}
    scored = sorted(
        range(len(sources)), key=lambda i: (-sum(idf.get(t, 0.0) for t in documents[i] & question_terms), i)
    )
    keep = max(floor, int(len(sources) * share))
    return [sources[i] for i in sorted(scored[:keep])]


def held_names(title: str) -> set[str]:
    """The names a held page answers to: its title, without its qualifier, the subject after a colon ("Python
    built-in: GeneratorExit" is GeneratorExit's page) and a dotted subject's last part ("collections.abc.Generator")."""
    subject = page_subject(title)
    return {title.strip().lower(), clean_title(title).lower(), subject.lower(), subject.rsplit(".", 1)[-1].lower()}


def is_held(name: str, held: set[str]) -> bool:
    """A name whose page is read, or a member of one ("Generator.send" is on Generator's page)."""
    lowered = name.lower()
    return lowered in held or ("." in lowered and lowered.rsplit(".", 1)[0] in held)


def rank_breadcrumbs(
    question: str,
    sources: list[SourceRecord],
    exclude: set[str] | None = None,
    limit: int = 10,
    include_held: bool = False,
    include_question: bool = False,
) -> list[Breadcrumb]:
    """Entities worth following, best first.

    Names are mined from the topical sources only (``topical_sources``), and never across punctuation ("Harrow
    County, New Westmarch" is two names, not one query-sized bag). A name earns the relevance of every sentence that
    mentions it: the question's terms in that sentence, weighted by rarity, and three times more for terms of the
    names the question itself contains (a sentence about the question's anchor entity is where its bridge is named).
    A page about something the question names ("Lanterns (Odile Marr album)" for "the performer of Lanterns")
    names the bridge in its first sentences and in its title's qualifier, so those earn a bonus that fades with the
    sentence's position. Kept: names absent from the question (``include_question`` keeps them, for key actors) and
    not already the title of a source we hold (``held_names``: that page is read; ``include_held`` keeps them, for
    synthesis, where the held page is exactly what a hop-2 claim should come from). Lone generic words (demonyms,
    "American") and names most topical pages mention ("United States") count half.
    """
    question_lower = question.lower()
    question_terms = stems(question)
    anchor_terms = {stem(t) for name in entities(question) for t in content_terms(name)}
    held_titles = set() if include_held else {t for s in sources for t in held_names(s["title"])}
    excluded = {e.lower() for e in exclude or set()}
    topical = topical_sources(question, sources)
    scanned: list[tuple[SourceRecord, str, set[str], float]] = []
    for source in topical:
        title = clean_title(source["title"])
        anchored = bool(stems(title)) and stems(title) <= question_terms
        qualifier = source["title"].strip()[len(title):].strip(" ()")
        if anchored and qualifier:
            scanned.append((source, qualifier, set(), 1.0))  # "(Odile Marr album)": the page's own pointer
        position = 0
        for sentence in sentences(source["text"][:SCAN_CHARS]):
            if claimable(sentence.text):  # prose only: badges, tables and code name nothing worth following
                lead = 1.0 / (1 + position) if anchored else 0.0
                scanned.append((source, sentence.text, stems(sentence.text), lead))
                position += 1
    idf = idf_weights([list(terms) for _, _, terms, _ in scanned]) if scanned else {}
    top_idf = max(idf.values(), default=1.0)
    common = frozenset(w for _, text, _, _ in scanned for w in re.findall(r"\b[a-z][a-z'’]+\b", text))
    named = [set(name_spans(text, common)) for _, text, _, _ in scanned]
    pages_naming: dict[str, set[str]] = defaultdict(set)
    for (source, _, _, _), names in zip(scanned, named):
        for name in names:
            pages_naming[name.lower()].add(source["key"])
    generic = max(3, int(GENERIC_SHARE * len(topical)))
    relevance: defaultdict[str, float] = defaultdict(float)
    seen_in: dict[str, set[str]] = defaultdict(set)
    for (source, _, terms, lead), names in zip(scanned, named):
        weight = math.fsum(idf.get(t, 0.0) * (3.0 if t in anchor_terms else 1.0) for t in terms & question_terms)
        weight += ANCHOR_LEAD_BONUS * top_idf * lead
        if weight <= 0:
            continue
        for name in names:
            lowered = name.lower()
            in_question = lowered in question_lower or stems(name) <= question_terms
            if (
                (in_question and not include_question)
                or is_held(name, held_titles)
                or lowered in excluded
                or lowered in NOISE
                or len(name) < 3
                or DATE_LIKE.match(name)
            ):
                continue
            relevance[name] += weight * (0.5 if len(pages_naming[lowered]) > generic else 1.0)
            seen_in[name].add(source["id"])
    crumbs = []
    for name, value in relevance.items():
        kind = kind_of(name)
        lone_generic = kind == "other" and len(name.split()) == 1
        score = value * KIND_WEIGHT[kind] * (0.5 if lone_generic else 1.0)
        crumbs.append(Breadcrumb(name=name, kind=kind, score=round(score, 3), source_ids=tuple(sorted(seen_in[name]))))
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


POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
BRIDGE_QUERY_TERMS = 4


def search_form(text: str) -> str:
    """Text as a search index should see it: "Mira Castel's city" becomes "Mira Castel city" (an index splits
    "Taylor's" into "taylor" + "s", so the possessive would only match pages that write it the same way)."""
    return POSSESSIVE.sub("", text)


def bridge_query(question: str, name: str, limit: int = BRIDGE_QUERY_TERMS) -> str:
    """The query that follows a bridge: its name plus the question's relation terms (the words around the question
    word, ``focus_terms``) that the name does not already say, e.g. "Westmarch president state" for "Who was
    president when the area where Brackenridge Wind Farm is located became a state?" once the wind farm's page names
    Westmarch.

    Not a bag of every question term the sources leave uncovered: the first hop's own words ("intrepid wind")
    would pull the search back to the page already read.
    """
    focus = focus_terms(question)
    own = stems(name)
    relation = [t for t in unique(content_terms(search_form(question))) if stem(t) in focus and stem(t) not in own]
    return " ".join([search_form(name), *relation[:limit]])
