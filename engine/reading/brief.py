"""A long answer as a brief: coherent runs of sentences from the best pages, not a list of the best single sentences.

"How does the gearwheel of a mill turn?" is explained by a page about gearwheels read in order, where each sentence
leans on the one before; the eight sentences that share most words with the question, taken from six pages, read as
noise and leave out what the page says between them. So pages are chosen by how well their sentences speak to the
question (the lead's own page first, then the other sections of its reference page), leaving out a page that holds
much less of the question's subject than the best one does ("file descriptor" on "the descriptor protocol"); from each,
the run that starts at its best sentence is quoted in document order, until the brief's length is spent. A claim
quotes up to three adjacent sentences of one page, so the claims setting limits claims, not sentences. Left out of a
run: a sentence that shares only framing words with the question ("how", "work", "explain"), one that adds no word
the brief has not quoted, one that only introduces a block ("The syntax is:"), and on a page of entries
("object.__close__(self)" then what it does) every sentence but each entry's first.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from satiate.engine.reading.comparison import COMPARISON_WORDS, side_order
from satiate.engine.reading.leads import ScoredLike, entry_name
from satiate.tools.search.named_pages import compared_names
from satiate.tools.search.task_pages import FRAMING
from satiate.tools.text import content_terms, idf_weights, jaccard, stem, stems

EXPLAINING = frozenset("work works working explain explained describe described happen happens mean means".split())
PAGE_SENTENCES = 3  # a page's value: the sum of its best few sentences' scores
RUN_GAP = 2  # sentences a run may step over (a code line, a sentence about something else) and still go on
LEAD_RUN_SHARE = 0.6  # of the brief's length, the lead's run at most (it is the answer's first paragraph)
OTHER_RUN_SHARE = 0.3  # of the brief's length, any other page's run at most: several pages, not one
REPEAT_OVERLAP = 0.6  # a sentence this close (Jaccard of stems) to one already quoted is a repeat
PAGE_COVERAGE = 0.75  # of the best page's share of the subject words, the share a page must hold to be quoted
CLAIM_SENTENCES = 3  # adjacent sentences of one page that one claim may quote (the grounding gate checks such runs)


@dataclass(frozen=True)
class Run:
    """Sentences of one page, in document order, as claims: each claim a few adjacent sentences."""

    page: str
    claims: tuple[tuple[ScoredLike, ...], ...]

    @property
    def lines(self) -> tuple[ScoredLike, ...]:
        return tuple(scored for claim in self.claims for scored in claim)


CODE_NAME = re.compile(r"\b\w*_\w*\b|\b\w+(?:\.\w+)+\b")  # "__close__", "sack_size", "mill.grind": names from code


def code_names(text: str) -> frozenset[str]:
    """The names from code a sentence writes, whole: "__close__" says something "close" does not."""
    return frozenset(name.lower() for name in CODE_NAME.findall(text))


def _page(scored: ScoredLike) -> str:
    source = scored.line.source
    return source.get("doc_id") or source["title"]


def subject_stems(question: str) -> frozenset[str]:
    """The question's words that say what it is about: no framing ("how", "do", "work", "explain", "difference")."""
    return frozenset(stem(t) for t in content_terms(question)
                     if t not in FRAMING and t not in EXPLAINING and t not in COMPARISON_WORDS)


def subject_coverage(subject: frozenset[str], by_page: dict[str, list[ScoredLike]]) -> dict[str, float]:
    """Each page's share of the question's subject words (rarer ones among the pages weighing more), in its title
    and its sentences read: "file descriptor" on a page about files holds one word of "the descriptor protocol"."""
    held = {page: frozenset().union(stems(lines[0].line.source["title"]), *(s.line.terms for s in lines)) & subject
            for page, lines in by_page.items()}
    idf = idf_weights([sorted(terms) for terms in held.values()])
    weight = {t: idf.get(t, 1.0) for t in subject}
    total = sum(weight.values()) or 1.0
    return {page: sum(weight[t] for t in terms) / total for page, terms in held.items()}


def _page_order(question: str, ranked: Sequence[ScoredLike], on_subject: list[ScoredLike],
                first: ScoredLike | None, coverage: dict[str, float]) -> list[str]:
    """Pages by the value of their best few sentences on the subject, the lead's page first; a page holding much
    less of the subject than the best page does is about something else."""
    value: dict[str, float] = defaultdict(float)
    counted: dict[str, int] = defaultdict(int)
    for scored in on_subject:
        page = _page(scored)
        if counted[page] < PAGE_SENTENCES:
            value[page] += scored.score
            counted[page] += 1
    titles = {_page(s): s.line.source["title"] for s in ranked}
    best = max((coverage[page] for page in value), default=0.0)
    order = sorted((page for page in value if coverage[page] >= PAGE_COVERAGE * best), key=lambda page: -value[page])
    # a comparison quotes each side's own page, then the page that sets both side by side, before the rest
    sides = side_order(question, {_page(s): s.line.source for s in ranked}.items())
    order = sides + [page for page in order if page not in sides]
    if first is not None and any(_page(s) == _page(first) for s in ranked):
        # the other sections of the lead's reference page ('The "grind" statement — "else" clause') come next
        base = first.line.source["title"].split(" — ")[0]
        sections = [page for page in order if page != _page(first) and titles[page].split(" — ")[0] == base]
        order = [_page(first), *sections] + [page for page in order if page != _page(first) and page not in sections]
    return order


def brief_runs(question: str, ranked: Sequence[ScoredLike], max_chars: int,
               first: ScoredLike | None = None, max_claims: int = 1_000) -> list[Run]:
    """Runs of sentences for a brief of about ``max_chars`` and ``max_claims`` claims at most (a claim quotes up to
    ``CLAIM_SENTENCES`` adjacent sentences), the run of ``first`` (the lead) first. A sentence that adds no content
    word the brief has not quoted yet says nothing new and is stepped over."""
    subject = subject_stems(question)
    framing = frozenset(stems(question)) - subject
    if not subject:
        return []
    # a comparison's sides are its subject however common their names are among the pages read ("list")
    sides = set(side_order(question, {_page(s): s.line.source for s in ranked}.items()))
    on_subject = [s for s in ranked if (s.score > 0 or _page(s) in sides)
                  and (s.line.terms | stems(s.line.source["title"])) & subject]
    on_subject_ids = {id(s) for s in on_subject}
    by_page: dict[str, list[ScoredLike]] = defaultdict(list)
    for scored in ranked:
        by_page[_page(scored)].append(scored)
    runs: list[Run] = []
    quoted: list[frozenset[str]] = []
    said: set[str] = set()
    spent = claims_used = 0
    compared = compared_names(question) is not None
    for page in _page_order(question, ranked, on_subject, first, subject_coverage(subject, by_page)):
        if spent >= max_chars or claims_used >= max_claims:
            break
        lines = sorted(by_page[page], key=lambda s: s.line.position)
        subject_lines = [s for s in lines if id(s) in on_subject_ids]
        # a page is quoted from its best sentence; a comparison side's page from its opening, as its lead would be
        start = first if first is not None and page == _page(first) else (
            subject_lines[0] if page in sides and subject_lines else max(subject_lines, key=lambda s: s.score,
                                                                            default=None))
        if start is None:
            continue
        # a comparison's lead is one side: it gets a side's share, as the other side does
        lead = not runs and first is not None and not compared
        cap = spent + max_chars * (LEAD_RUN_SHARE if lead else OTHER_RUN_SHARE)
        claims: list[list[ScoredLike]] = []
        skipped = 0
        in_entries = False
        for scored in lines[next(i for i, s in enumerate(lines) if s is start):]:
            if spent >= min(cap, max_chars) or skipped > RUN_GAP:
                break
            # a page of entries ("object.__close__(self)", then what it does) is read as a list: each entry's
            # first sentence, not the details of the first entry alone
            opens_entry = entry_name(scored) is not None
            in_entries = in_entries or opens_entry
            if in_entries and not opens_entry:
                continue
            terms = frozenset(scored.line.terms)
            # the run goes on through sentences that say more about what the one before said; one that shares only
            # framing words with the question ("explain how it works") is about something else
            speaks = scored is start or bool(terms & subject) or not terms & framing
            words = terms | code_names(scored.line.text)
            repeats = any(jaccard(terms, seen) > REPEAT_OVERLAP for seen in quoted) or (
                scored is not start and words <= said)
            # "The syntax of a grind is:" introduces a block the brief does not quote: alone it says nothing
            introduces = scored is not start and scored.line.text.rstrip().endswith(":")
            if not speaks or repeats or introduces:
                skipped += 1
                continue
            joins = bool(claims) and len(claims[-1]) < CLAIM_SENTENCES and \
                scored.line.position == claims[-1][-1].line.position + 1
            if not joins:
                if claims_used >= max_claims:
                    break
                claims.append([])
                claims_used += 1
            skipped = 0
            claims[-1].append(scored)
            quoted.append(terms)
            said |= words
            spent += len(scored.line.text) + 1
        if claims:
            runs.append(Run(page, tuple(tuple(claim) for claim in claims)))
    return runs
