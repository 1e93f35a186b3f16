"""Questions about the present ("who keeps the bees now?") and the sentences that tell what holds now.

Notes keep a thing's whole history: every keeper, every address, every price. A question that asks how things stand
now is answered only by a line that says so: one that calls it current ("Current keeper: Ada Pell"), puts it in the
present tense ("Ada Pell keeps the bees"), or gives a stretch still open ("keeper since 2019", "2019–present",
"2019 – "). A line about an earlier time names an earlier holder, however well it matches the question's words.
"""

from __future__ import annotations

import re

# what a question says to ask about the present
_ASKS_NOW = re.compile(r"\b(?:now|nowadays|currently|today|these days|at present|at the moment|presently)\b",
                       re.IGNORECASE)
# what a question says to ask about another time as well
_ANOTHER_TIME = re.compile(r"\b(?:1\d{3}|20\d{2})s?\b|\b(?:formerly|originally|previously|once|earlier|at first|"
                           r"used to|first)\b", re.IGNORECASE)
# what a line says to tell the present: a word for it, a stretch left open, or a present-tense verb after a subject
_TELLS_NOW = re.compile(
    r"\b(?:now|nowadays|current|currently|present|presently|today|these days|still|since)\b|"
    r"\b(?:1\d{3}|20\d{2})\s*[–—-]\s*(?:$|[|;)]|present\b|now\b|date\b)|\b(?:to|until|till)\s*:\s*[–—-]|"
    r"\b(?:is|are|has|have|lives|keeps|runs|holds|looks|owns|sits|stands|hangs|meets|plays)\b",
    re.IGNORECASE)


def asks_now(question: str) -> bool:
    """The question asks how things stand now ("... these days?", "who is the keeper now?"), and no other time: in
    "the team that now plays in a league formerly called what?" or "... now, in 1990?" the present is the way to the
    answer, and the answer is of another time."""
    return bool(_ASKS_NOW.search(question)) and not _ANOTHER_TIME.search(question)


def tells_now(text: str) -> bool:
    """The line tells the present: a word for it, an open stretch, or a present-tense verb."""
    return bool(_TELLS_NOW.search(text))
