"""Questions about when code runs or what it gives back: answered by a description, not by a date or a name.

"When is the __close__ method called?" asks for the circumstance ("after the mill stops"), not a date; "What does
mill.grind return?" asks for what the documentation says it returns. The short-answer finder reads "when" as a date and
abstains when no date is named; these questions are re-read as explanations, led by the subject's own description.
"""

from __future__ import annotations

import re

from satiate.engine.answer import Reading, Scored, description_lead
from satiate.tools.text import SYNTAX_NOUN

# "When is X called / run / executed / invoked / raised / evaluated ...", "when does X run"
WHEN_RUNS = re.compile(
    r"^\s*when\s+(?:is|are|does|do)\b.*\b(?:call(?:ed)?|run|runs|execut(?:ed|es?)|invok(?:ed|es?)|"
    r"rais(?:ed|es?)|evaluat(?:ed|es?)|trigger(?:ed|s)?)\b", re.IGNORECASE)
# "What does the X operator test?", "What does mill.grind return?": what a piece of code does or gives back
WHAT_IT_DOES = re.compile(r"^\s*what\s+(?:does|do)\s+.{2,60}?\s+(?:test|check|return|yield|provide|represent|"
                          r"mean|specify|compute|compare)s?\s*\??\s*$", re.IGNORECASE)

# "What are __hooks__ for?", "What is the then clause of a grind statement used for?": what a piece of code is for,
# when the question writes code (an underscore, a dot, quotes) or names a keyword as such ("known for" asks otherwise)
WHAT_IT_IS_FOR = re.compile(r"^\s*what\s+(?:is|are)\s+(.{2,80}?)\s+(?:used\s+)?for\s*\??\s*$", re.IGNORECASE)
CODE_SHAPED = re.compile(rf"[_.`\"'“‘]\w|\b{SYNTAX_NOUN}\b", re.IGNORECASE)


def asks_when_code_runs(question: str) -> bool:
    """ "When is X called?", "What does X test / return?" or "What is X for?": a question about code's behaviour."""
    purpose = WHAT_IT_IS_FOR.match(question)
    return (WHEN_RUNS.match(question) is not None or WHAT_IT_DOES.match(question) is not None
            or purpose is not None and CODE_SHAPED.search(purpose.group(1)) is not None)


def behaviour_lead(question: str, reading: Reading, sources: list) -> Scored | None:
    """The sentence an answer to "when does X run?" or "what does X test?" opens with, or None when none speaks to
    it."""
    if not asks_when_code_runs(question):
        return None
    lead = description_lead(question, sources, reading.ranked)
    return None if isinstance(lead, str) else lead
