"""A keyword named as the question's subject ("the `upon` operator", "the then clause"), and the sentence that leads.

Many of a language's keywords are also function words ("upon", "via", "then"), so a reader that drops function
words loses the question's subject and leads from a neighbouring page. Named as such ("the X operator / statement /
keyword / clause / expression / loop", or written in backquotes or quotes), X is the subject whatever it is. The
reference's own page about it is the one whose title quotes it ('The "grind" statement') or is named by it ("Grind
expressions"); its opening says what X does, unless it opens with where X may be written ('"grind" may only occur
inside a "mill" block'), a restriction rather than a meaning. Without such a page, the best sentence that writes X as
code (quoted) leads. A question's words beyond the page's name ("inside a mill") pick, on that page, the first
sentence that speaks to them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from satiate.engine.reading.brief import EXPLAINING
from satiate.engine.reading.leads import VERSION_NOTE, ScoredLike, third_party
from satiate.tools.search.named_pages import QUOTE_CLOSE, QUOTE_OPEN, named_keywords
from satiate.tools.search.task_pages import FRAMING, page_name, signature_only
from satiate.tools.text import SYNTAX_NOUN, stem, stems, unique, words

# An opening that says where X may be written, not what it does: '"grind" may only occur inside a "mill" block'
RESTRICTION = re.compile(r"\b(?:may|must|can)(?:\s+not|not|n't)?\s+(?:only\s+)?(?:occur|appear|be used|be written|"
                         r"be nested|be placed)\b", re.IGNORECASE)
GRAMMAR = re.compile(r"::=")  # a grammar rule ("grind_stmt ::= 'grind' target"), not a sentence


def quotes(text: str, keyword: str) -> bool:
    """The text writes ``keyword`` as code: in quotes or backquotes ('"grind"', "`grind`")."""
    return re.search(rf"[{QUOTE_OPEN}]{re.escape(keyword)}[{QUOTE_CLOSE}]", text, re.IGNORECASE) is not None


def own_page(title: str, keyword: str) -> bool:
    """A page about the keyword: its title quotes it, or its name is the keyword with a syntax noun ("Grind
    expressions", "Grinds")."""
    if quotes(title, keyword):
        return True
    name = [w for w in words(page_name(title).rsplit(" — ", 1)[-1]) if not re.fullmatch(SYNTAX_NOUN, w)]
    return bool(name) and {stem(w) for w in name} == {stem(keyword)}


def _readable(scored: ScoredLike) -> bool:
    text = scored.line.text
    return not (signature_only(text) or GRAMMAR.search(text) or VERSION_NOTE.match(text) or RESTRICTION.search(text))


def _chunk(scored: ScoredLike) -> int:
    match = re.search(r"#p(\d+)$", scored.line.source.get("doc_id") or "")
    return int(match.group(1)) if match else 0


def _page_key(scored: ScoredLike) -> str:
    return re.sub(r"#p\d+$", "", scored.line.source.get("doc_id") or scored.line.source["title"])


def keyword_lead(question: str, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The sentence an answer about a named keyword opens with, or None when the question names none or nothing read
    speaks about it."""
    keywords = named_keywords(question)
    if not keywords:
        return None
    readable = [s for s in ranked if _readable(s) and not third_party(s.line.source)]
    subject = keywords[0]
    # of the pages about it, the one whose title names most of the keywords asked about ("the then clause of a mill
    # statement": the mill statement's page section on its then clause); else the page itself before its sections
    # (a section ranks higher on a word it shares with the question, but the page says what the keyword is)
    pages = [s for s in readable if own_page(s.line.source["title"], subject)]
    if pages:
        order = unique(_page_key(s) for s in pages)  # pages in the order they first rank
        titles = {_page_key(s): s.line.source["title"] for s in pages}
        best_page = max(order, key=lambda page: (sum(quotes(titles[page], k) for k in keywords),
                                                 -titles[page].count(" — "), -order.index(page)))
        on_page = sorted((s for s in pages if _page_key(s) == best_page), key=lambda s: (_chunk(s), s.line.position))
        title_stems = stems(on_page[0].line.source["title"])
        framing = {stem(w) for w in FRAMING | EXPLAINING}
        wanted = {t for t in stems(question) if t not in title_stems | framing and t != stem(subject)}
        speaking = [s for s in on_page if wanted & s.line.terms]
        return (speaking or on_page)[0]
    quoting = [s for s in readable if s.score > 0 and quotes(s.line.text, subject)]
    return quoting[0] if quoting else None
