"""The pages whose name does a how-to question's task: "How do I copy a sack?" finds ``mill.sackcopy``.

BM25 ranks a how-to question by the words a passage repeats, and the page of the function that does the task rarely
repeats them: its name holds the task ("sackcopy", "weighsacks") and its one-line summary says it once. So the built-in
corpus also keeps a catalogue of its pages' names and summaries (the first sentence of each page), and a how-to
question brings the few pages whose name and summary hold most of its task words, before the BM25 hits. The reading
layer (``engine.reading.leads``) then decides which of the pages read leads.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from satiate.tools.search.base import RawHit
from satiate.tools.text import clean_title, content_terms, page_subject, sentences, stem, stems, unique

# "How do I ...?", "How can I ...?", "How to ...?": a task the answer names a tool for.
HOWTO = re.compile(r"^\s*how\s+(?:do|does|can|could|should|would|might)\s+(?:i|you|we|one)\b|^\s*how\s+to\b",
                   re.IGNORECASE)
# Words that frame a task rather than name it.
FRAMING = frozenset(
    "how do does did can could should would might i you we one python pythonic use using get make way ways best "
    "easiest simplest simple easy quickly quick want need code program script write properly correctly".split())
# A page opening that is only its call signature with a result arrow: "chain(*iterables) --> chain object".
SIGNATURE_ONLY = re.compile(r"^[\w.]+(?:\([^)]*\))?\s*:\s*[\w.]*\(.*\)\s*(?:-+>|→)\s*[\w. ,\[\]]*$")
MODULE_TITLE = re.compile(r"^([\w.]+) module(?: — .*)?$")
THIRD_PARTY_HOSTS = ("pypi.org/project/",)  # an installed package's description, not Python's documentation
NAME_WEIGHT, SUMMARY_WEIGHT = 1.0, 0.8
EXTRA_NAME_PART_COST = 0.05  # per part of a name that no task word asks for ("copy_file_range": "range")
MIN_INITIALS, MAX_INITIALS = 3, 4  # a name part this long may spell task words by their initials ("gcd")
LETTERS_PER_PART = 5  # letters of a joined-up name no task word asks for ("sackcopyall": "all") cost a part per 5
MIN_TASK_SHARE = 0.6  # of the task words, the share a page's name and summary must hold to be brought
TASK_PAGES = 3  # pages brought for one how-to question at most


def is_howto(question: str) -> bool:
    return HOWTO.match(question) is not None


def task_terms(question: str) -> list[str]:
    """The words that say what the task is: "How do I copy a sack in Python?" -> ["copy", "sack"]."""
    return [t for t in unique(content_terms(question)) if t not in FRAMING]


def signature_only(text: str) -> bool:
    return SIGNATURE_ONLY.match(text) is not None


def name_parts(name: str) -> frozenset[str]:
    """"mill.sackcopy" -> {"mill", "sackcopy"}; "mill.copy_sack_range" -> {"mill", "copy", "sack", "range"}."""
    return frozenset(part.lower() for part in re.split(r"[._\s()\"'“”]+", name) if len(part) > 1)


def page_name(title: str) -> str:
    """The name a page documents: "Python stdlib: sieve module — Tool for sifting" -> "sieve"."""
    subject = clean_title(title).rsplit(": ", 1)[-1]
    module = MODULE_TITLE.match(subject)
    return module.group(1) if module else page_subject(title)


def in_name(term: str, parts: frozenset[str]) -> bool:
    """A task word is in a name when a part is that word (or its stem), or a joined-up part holds its stem
    ("sackcopy" holds "copy", "millerguild" holds "millers")."""
    return any(_holds(part, term) for part in parts)


def _holds(part: str, term: str) -> bool:
    term_stem = stem(term)
    return stem(part) == term_stem or any(len(form) >= 4 and form in part for form in (term, term_stem))


def initials_in_name(terms: list[str], parts: frozenset[str]) -> dict[str, str]:
    """Task words a name part spells by their initials, in the question's order: "mgr" holds "miller", "grain" and
    "ration" of "How do I compute the miller grain ration?" (term -> the part that holds it)."""
    held: dict[str, str] = {}
    for part in parts:
        if not MIN_INITIALS <= len(part) <= MAX_INITIALS or not part.isalpha():
            continue
        for start in range(len(terms) - len(part) + 1):
            run = terms[start:start + len(part)]
            if "".join(t[0] for t in run) == part:
                held.update({t: part for t in run})
    return held


def task_share(terms: list[str], weights: dict[str, float], parts: frozenset[str], summary: set[str]) -> float:
    """How much of the task a name and a summary hold (0-1), less a little for each name part nobody asked for."""
    total = sum(weights[t] for t in terms) or 1.0
    held = 0.0
    asked: set[str] = set()
    initials = initials_in_name(terms, parts)
    for term in terms:
        if term in initials:
            held += NAME_WEIGHT * weights[term]
            asked.add(initials[term])
        elif in_name(term, parts):
            held += NAME_WEIGHT * weights[term]
            asked |= {p for p in parts if _holds(p, term)}
        elif stem(term) in summary:
            held += SUMMARY_WEIGHT * weights[term]
    extra_parts = max(0, len(parts - asked) - 1)  # the module's own name is no extra part
    leftover = sum(len(part) for part in asked - set(initials.values())) - sum(
        len(t) for t in terms if t not in initials and any(_holds(p, t) for p in asked))
    return held / total - EXTRA_NAME_PART_COST * (extra_parts + max(0, leftover) / LETTERS_PER_PART)


@dataclass(frozen=True)
class CatalogueEntry:
    doc_id: str
    title: str
    url: str
    text: str
    parts: frozenset[str]
    summary: frozenset[str]


def summary_sentence(text: str) -> str:
    """A page's first sentence, a bare signature skipped."""
    found = [s.text for s in sentences(text[:600])[:2]]
    readable = [s for s in found if not signature_only(s)]
    return readable[0] if readable else ""


@functools.lru_cache(maxsize=2)
def catalogue(index_path: Path, stamp: float) -> tuple[CatalogueEntry, ...]:
    """Each page's name parts and summary words, read once per index file (``stamp``: its modification time)."""
    with closing(sqlite3.connect(f"file:{index_path}?mode=ro", uri=True, timeout=30)) as connection:
        rows = connection.execute("SELECT doc_id, title, url, text FROM passages WHERE doc_id NOT LIKE '%#p%' "
                                  "OR doc_id LIKE '%#p1'").fetchall()
    entries = []
    for doc_id, title, url, text in rows:
        if any(host in (url or "") for host in THIRD_PARTY_HOSTS):
            continue
        entries.append(CatalogueEntry(doc_id, title, url or "", text, name_parts(page_name(title)),
                                      frozenset(stems(summary_sentence(text)))))
    return tuple(entries)


def task_pages(index_path: Path, question: str, limit: int = TASK_PAGES) -> list[RawHit]:
    """Up to ``limit`` pages whose name and summary hold most of a how-to question's task, best first."""
    terms = task_terms(question)
    if not is_howto(question) or not terms or not index_path.is_file():
        return []
    weights = {t: 1.0 for t in terms}
    scored = []
    for entry in catalogue(index_path, index_path.stat().st_mtime):
        if not (entry.parts & set(terms) or any(in_name(t, entry.parts) for t in terms)
                or initials_in_name(terms, entry.parts)):
            continue  # the name must hold part of the task
        share = task_share(terms, weights, entry.parts, set(entry.summary))
        if share >= MIN_TASK_SHARE:
            scored.append((share, -len(entry.doc_id), entry))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [RawHit(doc_id=e.doc_id, title=e.title, url=e.url, body=e.text) for _, _, e in scored[:limit]]
