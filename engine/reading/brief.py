"""A long answer as a brief: the sentences of the best pages that say most about the question, page by page.

"How does the gearwheel of a mill turn?" is explained by a page about gearwheels, where each sentence leans on the one
before; the eight sentences that share most words with the question, taken from six pages, read as noise. So pages are
chosen by how well their sentences speak to the question (the lead's own page first, then the other sections of its
reference page), leaving out a page that holds much less of the question's subject than the best one does ("file
descriptor" on "the descriptor protocol"). Sentences are then chosen by what they add for their length, as in
query-focused summarisation: words the brief has not said yet, worth more when rarer among the sentences read and
when the chosen pages keep using them (what the subject is about: "teeth", "pinion", "shaft"), on a page worth more
the better it speaks to the question, the page the question names above pages that mention it, and a sentence that
goes on from a chosen one worth more (a brief reads as runs). Each page's sentences are quoted in document order, as
claims of up to three adjacent sentences, so the claims setting limits claims, not sentences. Never quoted: a sentence
that shares only framing words with the question ("how", "work", "explain"), one that repeats a quoted one, one that
only introduces a block ("The syntax is:"), a version note, and on a page of entries ("object.__close__(self)" then
what it does) any sentence but each entry's first.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from satiate.engine.reading.comparison import COMPARISON_WORDS, side_order
from satiate.engine.reading.leads import VERSION_NOTE, ScoredLike, entry_name
from satiate.tools.search.named_pages import named_objects
from satiate.tools.search.task_pages import FRAMING, page_name
from satiate.tools.text import content_terms, idf_weights, jaccard, stem, stems

EXPLAINING = frozenset("work works working explain explained describe described happen happens mean means".split())
PAGE_SENTENCES = 3  # a page's value: the sum of its best few sentences' scores
REPEAT_OVERLAP = 0.6  # a sentence this close (Jaccard of stems) to one already quoted is a repeat
PAGE_COVERAGE = 0.75  # of the best page's share of the subject words, the share a page must hold to be quoted
CLAIM_SENTENCES = 3  # adjacent sentences of one page that one claim may quote (the grounding gate checks such runs)
PAGE_WEIGHT_FLOOR = 0.2  # the least a chosen page's sentences are worth, against the best page's
LEAD_PAGE_WEIGHT = 1.5  # the lead's page against the best other page: the answer's first paragraph explains most
OTHER_PAGE_WEIGHT = 0.5  # a page that only mentions what the question names, against that thing's own pages
FLOW_BONUS = 1.0  # how much more a sentence is worth that goes on from a chosen one: a brief reads as runs
OVERSHOOT = 0.1  # of the brief's length, how far its last sentence may run past it
OWN_NAME_SHARE = 2 / 3  # of a page name's words, the share that must be the question's subject words


@dataclass(frozen=True)
class Run:
    """Sentences of one page, in document order, as claims: each claim a few adjacent sentences."""

    page: str
    claims: tuple[tuple[ScoredLike, ...], ...]

    @property
    def lines(self) -> tuple[ScoredLike, ...]:
        return tuple(scored for claim in self.claims for scored in claim)


# a line of a code sample read as a sentence: prose opens with a capital or a quote, code with a lower-case keyword
# ("for i in range(3): ...", "import mill"), and only code carries an inline comment
CODE_LINE = re.compile(r"^(?:for|if|while|def|class|try|except|with|import|from|return|async|await|lambda|print)\b"
                       r"|\s#\s")
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
    total = math.fsum(weight.values()) or 1.0  # fsum: the same total in whatever order the set iterates
    return {page: math.fsum(weight[t] for t in terms) / total for page, terms in held.items()}


def _page_order(ranked: Sequence[ScoredLike], on_subject: list[ScoredLike], first: ScoredLike | None,
                coverage: dict[str, float], sides: Sequence[str] = ()) -> list[str]:
    """Pages by the value of their best few sentences on the subject, the lead's page first; a page holding much
    less of the subject than the best page does is about something else. A comparison's ``sides`` (its two sides'
    own pages in turn, then the page quoting both) come before the rest."""
    value = page_values(on_subject)
    titles = {_page(s): s.line.source["title"] for s in ranked}
    best = max((coverage[page] for page in value), default=0.0)
    order = sorted((page for page in value if coverage[page] >= PAGE_COVERAGE * best), key=lambda page: -value[page])
    order = [*sides, *(page for page in order if page not in sides)]
    if first is not None and any(_page(s) == _page(first) for s in ranked):
        # the other sections of the lead's reference page ('The "grind" statement — "else" clause') come next
        base = first.line.source["title"].split(" — ")[0]
        sections = [page for page in order if page != _page(first) and titles[page].split(" — ")[0] == base]
        order = [_page(first), *sections] + [page for page in order if page != _page(first) and page not in sections]
    return order


def claim_groups(positions: Sequence[int]) -> list[list[int]]:
    """Sentence positions of one page, in document order, as claims: adjacent ones together, at most
    ``CLAIM_SENTENCES`` in a claim (the grounding gate checks runs of that many)."""
    groups: list[list[int]] = []
    for at in sorted(positions):
        if groups and len(groups[-1]) < CLAIM_SENTENCES and at == groups[-1][-1] + 1:
            groups[-1].append(at)
        else:
            groups.append([at])
    return groups


@dataclass
class _Candidate:
    """A sentence the brief may quote, with what it would add."""

    scored: ScoredLike
    page: str
    concepts: frozenset[str]
    chars: int


def _candidates(ranked: Sequence[ScoredLike], pages: list[str], first: ScoredLike | None,
                subject: frozenset[str], framing: frozenset[str]) -> list[_Candidate]:
    """The sentences of the chosen pages a brief may quote: on the lead's page only those after the lead (it opens the
    answer); never one that shares only framing words with the question, one that only introduces a block, or on a
    page of entries any sentence but an entry's first."""
    by_page: dict[str, list[ScoredLike]] = defaultdict(list)
    for scored in ranked:
        by_page[_page(scored)].append(scored)
    found: list[_Candidate] = []
    for page in pages:
        in_entries = False
        for scored in sorted(by_page[page], key=lambda s: s.line.position):
            opens_entry = entry_name(scored) is not None
            in_entries = in_entries or opens_entry
            if first is not None and page == _page(first) and scored.line.position <= first.line.position:
                continue
            terms = frozenset(scored.line.terms)
            speaks = bool(terms & subject) or not terms & framing
            if (in_entries and not opens_entry) or not speaks or scored.line.text.rstrip().endswith(":") \
                    or VERSION_NOTE.match(scored.line.text) or CODE_LINE.search(scored.line.text):
                continue
            # an entry's first sentence is quoted under its name ("object.__close__: Called ..."): the name is said
            named = frozenset({entry_name(scored).lower()}) if opens_entry else frozenset()  # type: ignore[union-attr]
            found.append(_Candidate(scored, page, terms | code_names(scored.line.text) | named,
                                    len(scored.line.text) + 1))
    return found


def _concept_weights(candidates: list[_Candidate], ranked: Sequence[ScoredLike],
                     page_weight: dict[str, float]) -> dict[str, float]:
    """What saying a word is worth: its rarity among all sentences read, times how often the chosen pages' sentences
    say it (the better the page, the more each counts): a word the best pages keep using is what the subject is
    about ("iterator", "target list" on a loop's page); one a weak page uses once is a digression."""
    idf = idf_weights([list(s.line.terms) for s in ranked])
    rarest = max(idf.values(), default=1.0)  # a name from code is written whole, so no sentence's terms hold it
    count: dict[str, float] = defaultdict(float)
    for candidate in candidates:
        for concept in candidate.concepts:
            count[concept] += page_weight[candidate.page]
    return {concept: idf.get(concept, rarest) * math.log1p(times) for concept, times in count.items()}


def own_page(question: str, subject: frozenset[str], title: str) -> bool:
    """A page about what the question names: its name is an object the question names ("the sieve module"), or most
    of its name's words are subject words of the question ('The "grind" statement' for "how does the grind statement
    work?", "Sack Label Syntax" for "how do sack labels work?"), or it is a section of such a page ('The "grind"
    statement — "stop" clause'). Other pages that mention the subject are about something else that uses it."""
    named = {n.lower() for n in named_objects(question)}
    for name in dict.fromkeys([page_name(title), page_name(title.split(" — ")[0])]):
        name_stems = stems(name)
        if name.lower() in named or name_stems and len(name_stems & subject) >= OWN_NAME_SHARE * len(name_stems):
            return True
    return False


def brief_runs(question: str, ranked: Sequence[ScoredLike], max_chars: int,
               first: ScoredLike | None = None, max_claims: int = 1_000) -> list[Run]:
    """Runs of sentences for a brief of about ``max_chars`` and ``max_claims`` claims at most (a claim quotes up to
    ``CLAIM_SENTENCES`` adjacent sentences), the run of ``first`` (the lead) first.

    Sentences are chosen greedily by what they add per character: the words no sentence chosen so far says (rarer
    words, and words the best pages share, worth more), on a page worth more the better it speaks to the question, a
    sentence that goes on from a chosen one a little more (a brief reads as runs, not as scattered lines). So a second
    sentence on the same words loses to one that says something new, and a long sentence must say more than a short
    one. Each page's sentences are then quoted in document order, the lead's page first."""
    subject = subject_stems(question)
    framing = frozenset(stems(question)) - subject
    if not subject:
        return []
    # a comparison's sides are its subject however common their names are among the pages read ("list")
    sides = side_order(question, {_page(s): s.line.source for s in ranked}.items())
    on_subject = [s for s in ranked if (s.score > 0 or _page(s) in sides)
                  and (s.line.terms | stems(s.line.source["title"])) & subject]
    by_page: dict[str, list[ScoredLike]] = defaultdict(list)
    for scored in ranked:
        by_page[_page(scored)].append(scored)
    if first is not None and not any(s is first for s in ranked):
        first = None
    order = _page_order(ranked, on_subject, first, subject_coverage(subject, by_page), sides)
    if not order:
        return []
    value = page_values(on_subject)
    best_value = max((value.get(page, 0.0) for page in order), default=0.0) or 1.0
    page_weight = {page: max(value.get(page, 0.0) / best_value, PAGE_WEIGHT_FLOOR) for page in order}
    titles = {_page(s): s.line.source["title"] for s in ranked}
    own = {page for page in order if page in sides or own_page(question, subject, titles[page])}
    for page in order:
        if own and page not in own:
            page_weight[page] *= OTHER_PAGE_WEIGHT
    if first is not None:
        page_weight[_page(first)] = LEAD_PAGE_WEIGHT
    candidates = _candidates(ranked, order, first, subject, framing)
    weights = _concept_weights(candidates, ranked, page_weight)
    chosen: dict[str, set[int]] = defaultdict(set)
    chosen_lines: dict[tuple[str, int], ScoredLike] = {}
    quoted: list[frozenset[str]] = []
    said: set[str] = set()
    spent = 0
    remaining = list(candidates)
    # the lead opens the brief; a comparison's other side opens with its own page's opening beside it, whatever
    # its words score, so both sides are said before the greedy choice fills the rest
    seeds = [first] if first is not None else []
    for page in sides[:2]:
        opening = min((c for c in remaining if c.page == page), key=lambda c: c.scored.line.position, default=None)
        if opening is not None and (first is None or page != _page(first)):
            remaining.remove(opening)
            seeds.append(opening.scored)
    for seed in seeds:
        chosen[_page(seed)].add(seed.line.position)
        chosen_lines[(_page(seed), seed.line.position)] = seed
        quoted.append(frozenset(seed.line.terms))
        said |= seed.line.terms | code_names(seed.line.text)
        spent += len(seed.line.text) + 1
    while remaining and spent < max_chars:
        claims_used = sum(len(claim_groups(list(positions))) for positions in chosen.values())
        best: tuple[float, _Candidate] | None = None
        for candidate in remaining:
            new = candidate.concepts - said
            if not new or spent + candidate.chars > max_chars * (1 + OVERSHOOT):
                continue
            positions = chosen[candidate.page]
            after = len(claim_groups([*positions, candidate.scored.line.position]))
            if claims_used - len(claim_groups(list(positions))) + after > max_claims:
                continue
            if any(jaccard(candidate.scored.line.terms, seen) > REPEAT_OVERLAP for seen in quoted):
                continue
            gain = page_weight[candidate.page] * candidate.scored.score * math.fsum(
                weights.get(t, 0.0) for t in new) / candidate.chars
            if candidate.scored.line.position - 1 in positions:
                gain *= 1 + FLOW_BONUS
            if best is None or gain > best[0]:
                best = (gain, candidate)
        if best is None:
            break
        pick = best[1]
        remaining.remove(pick)
        chosen[pick.page].add(pick.scored.line.position)
        chosen_lines[(pick.page, pick.scored.line.position)] = pick.scored
        quoted.append(frozenset(pick.scored.line.terms))
        said |= pick.concepts
        spent += pick.chars
    runs = []
    for page in order:
        if chosen.get(page):
            groups = claim_groups(list(chosen[page]))
            runs.append(Run(page, tuple(tuple(chosen_lines[(page, at)] for at in group) for group in groups)))
    return runs


def page_values(on_subject: Sequence[ScoredLike]) -> dict[str, float]:
    """A page's value: the sum of its best few sentences' scores on the subject."""
    value: dict[str, float] = defaultdict(float)
    counted: dict[str, int] = defaultdict(int)
    for scored in on_subject:
        page = _page(scored)
        if counted[page] < PAGE_SENTENCES:
            value[page] += scored.score
            counted[page] += 1
    return value
