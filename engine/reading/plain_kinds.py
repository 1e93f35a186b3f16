"""Answers told by a plain noun of the kind asked, not by a name: "what colour was the van?" by "navy", "which
vegetable ...?" by "leeks", "what did she do for a living?" by "blacksmith", "how was she related to him?" by
"niece".

Names are read elsewhere (``reading.names``). Some kinds are told by common nouns: a colour, a food, a plant or a
substance (WordNet's classes for them, ``tools.lexicon.PLAIN_KIND_CLASSES``), a person's calling and their kinship.
For those, the lower-case words of a sentence that WordNet files under the kind asked are the candidates, and only
they: "navy" answers "what colour?", "tuesday" or "treasurer" does not.
"""

from __future__ import annotations

import re

from satiate.engine.reading.kinds import asked_form, asked_phrase, pointing_kind_words
from satiate.tools.lexicon import (
    a_calling,
    a_plural,
    is_a_noun,
    kind_of,
    names_a_person,
    specific,
    told_by_a_plain_noun,
)
from satiate.tools.text import COUNT_WORD, STOPWORDS, words

CALLING = "calling"  # "what did she do for a living?", "what was his trade?": a person by their work
KINSHIP = "relative"  # "how was she related to him?": a relative, by WordNet's noun for one
_RELATED = re.compile(r"^how (?:is|was|are|were) .+ related to\b|\bwhat relation\b", re.IGNORECASE)
# a lower-case word, or two joined by "and" or hyphens ("navy and silver", "black-and-white"); the first may be
# capitalised where it opens the text or a sentence ("Telephonist at the exchange.")
_PLAIN = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))[A-Z][a-z'’-]*(?: and [a-z][a-z'’-]*)?(?![\w'’-])|"
                    r"(?<![\w'’-])[a-z][a-z'’-]*(?: and [a-z][a-z'’-]*)?(?![\w'’-])")


def asked_kind(question: str) -> str:
    """The kind a plain noun answers, or "": the calling or kinship asked, the noun after "what type of", or the noun
    the question asks by ("what colour", "which vegetable") when things of that kind are told by plain nouns."""
    if asked_form(question) == "calling":
        return CALLING
    if _RELATED.search(question.strip()):
        return KINSHIP
    if asked_form(question):  # "what price ...?", "what year ...?": a quantity or a time, whatever the noun
        return ""
    noun = (asked_phrase(question) or [""])[-1]
    if noun and pointing_kind_words(question) and specific(noun):
        return noun  # "what type of vessel ...?" asks for a kind of vessel ("ketch"), whatever vessels are; but
        # "what kind of thing was it?" asks what it is, which no one word of a kind says
    return noun if noun and told_by_a_plain_noun(noun) else ""


def of_the_kind(span: str, kind: str) -> bool:
    """Whether the plain words are of the kind: each word (but "and") of a joined span must be."""
    parts = [part for part in re.split(r"[\s-]+", span) if part and part != "and"]
    fits = a_calling if kind == CALLING else (lambda word: kind_of(word, kind))
    return bool(parts) and all(fits(part.replace("’", "'")) for part in parts)


def _qualifies_a_noun(text: str, end: int) -> bool:
    """Whether the word ending at ``end`` stands before another noun, as its qualifier (a content word WordNet knows as
    a noun follows it)."""
    following = re.match(r"\s+([a-z][a-z'’-]*)", text[end:])
    return following is not None and following.group(1) not in STOPWORDS and is_a_noun(following.group(1))


def _anothers_calling(text: str, start: int) -> bool:
    """The calling at ``start`` is said of someone the sentence relates to its subject ("the sister of a Kesh
    blacksmith", "son of the Kesh miller"): that relative's living, not the subject's."""
    related = re.search(r"\b([a-z]+)\s+of\s+(?:a|an|the)\s+(?:[\w'’-]+\s+){0,2}$", text[:start])
    return related is not None and names_a_person(related.group(1))


def plain_fillers(text: str, kind: str, question: str = "") -> list[str]:
    """The lower-case words (or pairs) of the sentence of the kind asked, in order: "navy and silver" for a colour,
    "stonemason" for a calling. A pair whose second word is not of the kind gives its first alone. A number word is
    none ("two" is a playing card by a rarer sense), and a calling built on a word of the question is the post the
    question speaks of, not a living ("yardmaster" for "what did the yard's founder do for a living?"); nor is a noun
    for a person that qualifies the noun after it. A word capitalised only to open a line counts ("Farrier by
    trade.")."""
    asked = {re.sub(r"['’]s$", "", word) for word in words(question) if len(word) > 2}
    found: list[str] = []
    for match in _PLAIN.finditer(text):
        span = match.group(0)[:1].lower() + match.group(0)[1:]
        if not of_the_kind(span, kind):  # "navy and silver" whole, else its first word alone
            span = span.split(" and ")[0]
        ends = match.start() + len(span)
        if not of_the_kind(span, kind) or re.fullmatch(COUNT_WORD, span, re.IGNORECASE):
            continue
        if kind == CALLING and (any(word != span and (span.startswith(word) or span.endswith(word)) for word in asked)
                                or a_plural(span)):
            continue  # and "the owners" are a class of people: one's calling is named in the singular
        if kind in (CALLING, KINSHIP) and _qualifies_a_noun(text, ends):
            continue  # "a volunteer station master": the person is the station master, "volunteer" qualifies it
        if kind == CALLING and _anothers_calling(text, match.start()):
            continue  # "sister of a blacksmith": the blacksmith is someone else, her brother
        found.append(span)
    return list(dict.fromkeys(found))
