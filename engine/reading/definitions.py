"""The sentence that defines what a definition question asks about: "A grain with a husk is a *seed grain*".

"What is a seed grain?" is answered by the sentence that says what a seed grain is, whichever way round it says it:
"A seed grain is a grain kept for sowing" or "A grain kept for sowing is a *seed grain*". A page about a broader
subject ("Grains") opens with what grains are, so the defining sentence, where one was read, leads before the
opening of a page whose title only shares the question's head word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from satiate.engine.reading.leads import ScoredLike, third_party

# "What is a seed grain?", "What are grain mills?": a thing named with an article or in the plural, nothing else asked
DEFINITION_QUESTION = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,4})\s*\??\s*$", re.IGNORECASE)
RELATIONS = frozenset("of in for by that which who whose where when with from to on at as used".split())
MARKUP = re.compile(r"[*`\"'“”‘’]")
MIN_PHRASE_WORDS = 2  # a one-word subject ("a grain") is defined in passing by too many sentences


def defined_phrase(question: str) -> list[str]:
    """The words a definition question asks about ("What is a seed grain?" -> ["seed", "grain"]), or [] when it
    asks something else."""
    match = DEFINITION_QUESTION.match(question)
    if match is None:
        return []
    phrase = match.group(1).lower().split()
    return [] if RELATIONS & set(phrase) or len(phrase) < MIN_PHRASE_WORDS else phrase


def _phrase_pattern(phrase: list[str]) -> str:
    return r"\s+".join(rf"{re.escape(word)}(?:s|es)?" for word in phrase)


def defines(text: str, phrase: list[str]) -> bool:
    """The sentence says what the phrase is: "X is a <phrase>" or "A <phrase> (or Y) is ..."."""
    plain = " ".join(MARKUP.sub("", text).lower().split())
    named = _phrase_pattern(phrase)
    return (re.search(rf"\b(?:is|are)\s+(?:called\s+)?(?:an?\s+|the\s+)?{named}\b", plain) is not None
            or re.match(rf"(?:an?\s+|the\s+)?{named}\b(?:\s+\([^)]*\))?(?:\s+or\s+[\w-]+)?\s+(?:is|are)\b", plain)
            is not None)


def definition_lead(question: str, ranked: Sequence[ScoredLike]) -> ScoredLike | None:
    """The best-ranked sentence read that defines what the question asks about, or None."""
    phrase = defined_phrase(question)
    if not phrase:
        return None
    return next((s for s in ranked if s.score > 0 and not third_party(s.line.source) and defines(s.line.text, phrase)),
                None)
