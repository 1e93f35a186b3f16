"""Which of the critic's gaps are worth showing the reader as open questions, and how to phrase them.

An open question tells the reader what the answer may be missing. "No claim presents an opposing view" on "how does
the mill's gearwheel turn?" is no such thing: a mechanism has no other side. Nor is "'Gearwheel' is named by the
sources read but its own source was never read" on an explanation: a name a page mentions in passing is reading left
undone, not a gap in the answer. Both still steer the research loop; they are only kept out of the report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from satiate.engine.reading.brief import EXPLAINING
from satiate.tools.search.task_pages import FRAMING

# Wording that asks for a judgement, where an opposing view makes sense.
CONTESTED = re.compile(
    r"\b(?:should|better|best|worse|worst|pros|cons|advantages?|disadvantages?|argue|arguments?|debate|"
    r"controvers\w*|criticis\w*|good idea|bad idea|recommend\w*|harmful|safe|worth)\b", re.IGNORECASE)
# Wording that asks how something works or what it is: an explanation, not a judgement.
EXPLANATORY = re.compile(
    r"^\s*(?:how\b|what\b|explain\b|describe\b|when\b|which\b|why does\b|why do\b|why is\b)", re.IGNORECASE)


def counter_view_makes_sense(question: str) -> bool:
    return CONTESTED.search(question) is not None or EXPLANATORY.match(question) is None


def worth_asking(gap: Mapping[str, Any], question: str, explanation: bool) -> bool:
    """A gap the reader should see: not a counter-argument on a question no counter-view fits, not an unread name
    on an explanation, not a "missing" word that only frames the question."""
    if gap.get("kind") == "missing-counterarg" and not counter_view_makes_sense(question):
        return False
    covers = re.match(r"No claim covers: (.+?)\.?$", str(gap.get("description", "")))
    if covers and all(word.strip() in FRAMING | EXPLAINING for word in covers.group(1).split(",")):
        return False  # "No claim covers: work" on "how does X work?": a framing word, nothing missing
    return not (gap.get("kind") == "unread-source" and explanation)


def as_question(description: str) -> str:
    """A gap said as a question the sources left open: "No claim covers: wheel, axle." -> "What do the sources say
    about wheel, axle?"; other descriptions are kept as written."""
    covers = re.match(r"No claim covers: (.+?)\.?$", description)
    if covers:
        return f"What do the sources say about {covers.group(1)}?"
    return description


def unique_questions(items: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Open questions with the same wording once, the first kept."""
    seen: set[str] = set()
    kept = []
    for item in items:
        key = " ".join(str(item.get("question", "")).lower().split())
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept
