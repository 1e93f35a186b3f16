"""Leads for "how do I ...?" questions and for what a named object does: the page that does the task, by its name.

A search engine that shows a hit's name answers a how-to question better than the sentence sharing most of its words:
"How do I copy a sack?" is answered by the page named ``sackcopy`` whose summary says "Move the grain of one sack
into another", not by a sentence about copying sack labels. So a how-to question's task words (its verbs and objects,
not its framing: "how", "do", "I", "use", "get", "Python") are matched against each read page's name and summary (the
first sentence of its first passage), rarer task words counting more; the page that holds most of the task leads with
its summary line. A page's opening that is only a call signature ("grind(*sacks) --> flour object") states nothing,
so the next sentence stands for the summary.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from satiate.state.records import SourceRecord
from satiate.tools.search.named_pages import named_objects
from satiate.tools.search.task_pages import (
    THIRD_PARTY_HOSTS,
    is_howto,
    name_parts,
    page_name,
    signature_only,
    task_share,
    task_terms,
)
from satiate.tools.text import SCAN_CHARS, idf_weights, sentences, stem, stems

# How much of the task's weight the best page's name and summary must hold for it to lead.
MIN_TASK_SHARE = 0.5
RARITY_SHARE = 0.25  # how much rarer task words count: a little (the task's subject is on many pages read)
# A version note ("Changed in version 3.2: ...", "Deprecated since version 3.4") is the page's history, not what
# its subject is or does: it never leads and no brief quotes it
VERSION_NOTE = re.compile(r"^(?:changed|new|added|deprecated)\b.{0,20}\bversion\b", re.IGNORECASE)


class LineLike(Protocol):
    @property
    def source(self) -> SourceRecord: ...
    @property
    def text(self) -> str: ...
    @property
    def terms(self) -> frozenset[str]: ...
    @property
    def position(self) -> int: ...


class ScoredLike(Protocol):
    @property
    def line(self) -> LineLike: ...
    @property
    def score(self) -> float: ...


@dataclass(frozen=True)
class PageOpening:
    """A page's name, the parts of that name, and the sentence that summarises it."""

    name: str
    parts: frozenset[str]
    summary: ScoredLike


def third_party(source: SourceRecord) -> bool:
    return any(host in (source.get("url") or "") for host in THIRD_PARTY_HOSTS)


def unasked_third_party(question: str, source: SourceRecord) -> bool:
    """An installed package's description the question does not name: it describes a third-party tool, not the
    documentation's subject, so it never leads ("How do I grind rye?" is not answered by a package's blurb)."""
    if not third_party(source):
        return False
    package = (source.get("title") or "").split(":", 1)[0].strip().lower()
    return not package or package not in {w.lower() for w in re.findall(r"[\w.-]+", question)}


def _chunk(source: SourceRecord) -> int:
    match = re.search(r"#p(\d+)$", source.get("doc_id") or "")
    return int(match.group(1)) if match else 0


def page_openings(ranked: Sequence[ScoredLike]) -> list[PageOpening]:
    """Each read page's opening sentence (a bare signature skipped), in the order pages first rank (a member's entry
    inside a class page is no opening: a class page lists dozens, and their words drown the pages named for a task)."""
    by_page: dict[str, list[ScoredLike]] = defaultdict(list)
    for scored in ranked:
        by_page[scored.line.source["title"]].append(scored)
    openings = []
    for title, lines in by_page.items():
        first_chunk = min(_chunk(s.line.source) for s in lines)
        opening = sorted((s for s in lines if _chunk(s.line.source) == first_chunk), key=lambda s: s.line.position)
        readable = [s for s in opening[:3] if not signature_only(s.line.text)]
        if readable and readable[0].line.position <= 2:
            name = page_name(title)
            openings.append(PageOpening(name, name_parts(name), readable[0]))
    return openings


def task_lead(question: str, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The opening of the read page whose name and summary hold most of a how-to question's task, or None when no
    page holds enough of it (the ordinary reading then decides)."""
    terms = task_terms(question)
    if not terms or not is_howto(question):
        return None
    openings = [o for o in page_openings(ranked) if not third_party(o.summary.line.source)]
    if not openings:
        return None
    described = [sorted({stem(p) for p in o.parts} | stems(o.summary.line.text)) for o in openings]
    idf = idf_weights(described)
    rarest = max(idf.values(), default=1.0)  # a task word no page states weighs as much as the rarest one
    weight = {t: 1.0 + RARITY_SHARE * idf.get(stem(t), rarest) for t in terms}
    best: tuple[float, int, PageOpening] | None = None
    for rank, opening in enumerate(openings):
        share = task_share(terms, weight, opening.parts, stems(opening.summary.line.text))
        if best is None or (share, -rank) > (best[0], -best[1]):
            best = (share, rank, opening)
    if best is None or best[0] < MIN_TASK_SHARE:
        return None
    return best[2].summary


def member_lead(question: str, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The entry of a method the question names ("what does mill.Grinder.sharpen do?"), read inside its class's
    page ("Grinder.sharpen(): ..."), when the method has no page of its own."""
    for name in named_objects(question):
        if name.count(".") < 1:
            continue
        owner, member = name.rsplit(".", 1)
        openers = (f"{name}(", f"{owner.rsplit('.', 1)[-1]}.{member}(")
        for scored in ranked:
            if scored.line.text.startswith(openers) and not signature_only(scored.line.text):
                return scored
    return None


def named_summary(name: str, summary: str) -> str:
    """A how-to lead as a search engine shows a hit: "name: summary", unless the summary already names it."""
    return summary if name.lower() in summary.lower() else f"{name}: {summary}"


# An entry's heading line: a call signature or a dotted attribute ("object.__close__(self)", "object.__hooks__")
ENTRY_LINE = re.compile(r"^([\w.]*\w)\([^()]*(?:\([^()]*\)[^()]*)*\)$|^(\w+(?:\.\w+)+)$")


def entry_name(scored: ScoredLike) -> str | None:
    """The name of the entry a sentence opens ("object.__close__" for the sentence under "object.__close__(self)"),
    or None: a sentence under an entry's heading says what the entry does without naming it."""
    text = scored.line.source.get("text", "")
    found = sentences(text[:SCAN_CHARS])
    at = scored.line.position
    if not 0 < at < len(found):
        return None
    heading = ENTRY_LINE.match(found[at - 1].text)
    if heading is None or text[found[at - 1].end:found[at].start].strip():
        return None
    return heading.group(1) or heading.group(2)


ENTRY_GAP = 12  # characters between an entry's signature line and its first sentence (blank lines, an indent)
DUNDER = re.compile(r"\b__[a-z][a-z0-9_]*__\b")


def special_method_lead(question: str, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The first sentence of a special method's own entry ("object.__close__(self)" then "Called after the last
    sack is filled ..."), for a question that names the method: the entry says what it does and when it runs."""
    for name in DUNDER.findall(question):
        entry = re.compile(rf"(?m)^[ \t]*[\w.]*\.{re.escape(name)}(?:\(.*\))?[ \t]*$")
        for scored in ranked:
            text = scored.line.source.get("text", "")
            found = entry.search(text)
            if not found:
                continue
            # a sentence's offset, not its text, places it: a sentence read is its lines joined by single spaces
            starts = [sentence.start for sentence in sentences(text[:SCAN_CHARS])]
            same_page = [s for s in ranked if s.line.source is scored.line.source and s.line.position < len(starts)]
            after = [(starts[s.line.position], s) for s in same_page]
            after = [(at, s) for at, s in after
                     if 0 <= at - found.end() <= ENTRY_GAP and not signature_only(s.line.text)]
            if after:
                return min(after, key=lambda pair: pair[0])[1]
            if not text[found.end():].strip():  # the entry ends its passage: its description opens the next one
                opening = _next_chunk_opening(scored.line.source, ranked)
                if opening is not None:
                    return opening
    return None


def _next_chunk_opening(source: SourceRecord, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The first readable sentence of the passage after ``source`` on the same page ("doc#p2" after "doc#p1")."""
    doc_id = source.get("doc_id") or ""
    match = re.search(r"#p(\d+)$", doc_id)
    if match is None:
        return None
    following = f"{doc_id[:match.start()]}#p{int(match.group(1)) + 1}"
    opening = sorted((s for s in ranked if s.line.source.get("doc_id") == following
                      and not signature_only(s.line.text)), key=lambda s: s.line.position)
    return opening[0] if opening and opening[0].line.position <= 1 else None
