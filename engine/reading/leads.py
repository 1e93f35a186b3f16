"""Leads for "how do I ...?" questions and for what a named object does: the page that does the task, by its name.

A search engine that shows a hit's name answers a how-to question better than the sentence sharing most of its
words: "How do I copy a file?" is answered by the page named ``copyfile`` whose summary says "Copy data from src to
dst", not by a sentence about copying symbolic links. So a how-to question's task words (its verbs and objects, not
its framing: "how", "do", "I", "use", "get", "Python") are matched against each read page's name and summary (the
first sentence of its first passage), rarer task words counting more; the page that holds most of the task leads
with its summary line. A page's opening that is only a call signature ("chain(*iterables) --> chain object") states
nothing, so the next sentence stands for the summary.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from satiate.state.records import SourceRecord
from satiate.tools.search.named_pages import named_objects
from satiate.tools.text import clean_title, content_terms, idf_weights, page_subject, stem, stems, unique

# "How do I ...?", "How can I ...?", "How to ...?": a task the answer names a tool for.
HOWTO = re.compile(r"^\s*how\s+(?:do|does|can|could|should|would|might)\s+(?:i|you|we|one)\b|^\s*how\s+to\b",
                   re.IGNORECASE)
# Words that frame a task rather than name it.
FRAMING = frozenset(
    "how do does did can could should would might i you we one python pythonic use using get make way ways best "
    "easiest simplest simple easy quickly quick want need code program script write properly correctly".split())
# A page opening that is only its call signature with a result arrow: "chain(*iterables) --> chain object".
SIGNATURE_ONLY = re.compile(r"^[\w.]+(?:\([^)]*\))?\s*:\s*[\w.]*\(.*\)\s*(?:-+>|→)\s*[\w. ,\[\]]*$")
# How much of the task's weight the best page's name and summary must hold for it to lead.
MIN_TASK_SHARE = 0.5
RARITY_SHARE = 0.25  # how much rarer task words count: a little (the task's subject is on many pages read)
NAME_WEIGHT, SUMMARY_WEIGHT = 1.0, 0.8
EXTRA_NAME_PART_COST = 0.05  # per part of a name that no task word asks for ("copy_file_range": "range")
LETTERS_PER_PART = 5  # letters of a joined-up name no task word asks for ("copyfileobj": "obj") cost a part per 5
MODULE_TITLE = re.compile(r"^([\w.]+) module(?: — .*)?$")
# A member's entry inside its class's page: "date.today: Current date ...", "Path.exists(): Whether ..."
MEMBER_ENTRY = re.compile(r"^([A-Za-z_]\w*\.[A-Za-z_]\w*)(?:\([^)]*\))?: \S")
THIRD_PARTY_HOSTS = ("pypi.org/project/",)  # an installed package's description, not Python's documentation


class LineLike(Protocol):
    source: SourceRecord
    text: str
    position: int


class ScoredLike(Protocol):
    line: LineLike
    score: float


@dataclass(frozen=True)
class PageOpening:
    """A page's name, the parts of that name, and the sentence that summarises it."""

    name: str
    parts: frozenset[str]
    summary: ScoredLike


def is_howto(question: str) -> bool:
    return HOWTO.match(question) is not None


def task_terms(question: str) -> list[str]:
    """The words that say what the task is: "How do I copy a file?" -> ["copy", "file"]."""
    return [t for t in unique(content_terms(question)) if t not in FRAMING]


def third_party(source: SourceRecord) -> bool:
    return any(host in (source.get("url") or "") for host in THIRD_PARTY_HOSTS)


def signature_only(text: str) -> bool:
    return SIGNATURE_ONLY.match(text) is not None


def name_parts(name: str) -> frozenset[str]:
    """"shutil.copyfile" -> {"shutil", "copyfile"}; "os.copy_file_range" -> {"os", "copy", "file", "range"}."""
    return frozenset(part.lower() for part in re.split(r"[._\s()\"'“”]+", name) if len(part) > 1)


def _chunk(source: SourceRecord) -> int:
    match = re.search(r"#p(\d+)$", source.get("doc_id") or "")
    return int(match.group(1)) if match else 0


def page_name(title: str) -> str:
    """The name a page documents: "Python stdlib: timeit module — Tool for ..." -> "timeit"."""
    subject = clean_title(title).rsplit(": ", 1)[-1]
    module = MODULE_TITLE.match(subject)
    return module.group(1) if module else page_subject(title)


def page_openings(ranked: Sequence[ScoredLike]) -> list[PageOpening]:
    """Each read page's opening sentence (a bare signature skipped), then each member entry inside a page
    ("Grinder.sharpen(): Sharpen the blades"), in the order they first rank."""
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
        for scored in lines:
            entry = MEMBER_ENTRY.match(scored.line.text)
            if entry and scored.line.position > 0 and not signature_only(scored.line.text):
                openings.append(PageOpening(entry.group(1), name_parts(entry.group(1)), scored))
    return openings


def _in_name(term: str, parts: frozenset[str]) -> bool:
    """A task word is in a name when a part is that word (or its stem), or a joined-up part holds it ("copyfile")."""
    term_stem = stem(term)
    return any(stem(part) == term_stem or (len(term) >= 4 and term in part) for part in parts)


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
    total = sum(weight.values()) or 1.0
    best: tuple[float, int, PageOpening] | None = None
    for rank, opening in enumerate(openings):
        summary_stems = stems(opening.summary.line.text)
        held = 0.0
        asked = set()
        for term in terms:
            if _in_name(term, opening.parts):
                held += NAME_WEIGHT * weight[term]
                asked |= {p for p in opening.parts if stem(p) == stem(term) or term in p}
            elif stem(term) in summary_stems:
                held += SUMMARY_WEIGHT * weight[term]
        module_part = len(opening.parts - asked) - 1  # the module's own name is no extra part
        leftover = sum(len(part) for part in asked) - sum(len(t) for t in terms if any(t in p for p in asked))
        share = held / total - EXTRA_NAME_PART_COST * (max(0, module_part) + max(0, leftover) / LETTERS_PER_PART)
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
