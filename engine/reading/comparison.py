"""Comparison questions ("What is the difference between a sack and a bale?"): each side in its own words.

A comparison is answered by what each side is, side by side: the reader judges the difference from the two
descriptions, as a reference page would set them out. Ranking sentences by the question's words instead rewards
sentences that merely say "difference" (a diff tool, "there is no difference if ...") or describe one side only. So
the lead is the first side's own page, the brief goes on with the second side's own page, then any page that quotes
both, and the comparison's own words ("difference", "versus") are framing, not subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import zip_longest

from satiate.state.records import SourceRecord
from satiate.tools.search.named_pages import compared_names
from satiate.tools.search.task_pages import page_name
from satiate.tools.text import stems

SPECIAL_METHOD = re.compile(r"__\w+__")
# "the difference between A and B", "how does A differ from B", "A versus B": a question typed as an explanation
COMPARISON = re.compile(r"\bdiffer(?:s|ence|ences)?\b.*\b(?:and|from)\b|\b(?:versus|vs)\b")
# Words that ask for a comparison; they frame the question and say nothing about either side
COMPARISON_WORDS = frozenset("differ differs difference differences versus vs compare compared comparison".split())


def on_side(source: SourceRecord, side: str) -> bool:
    """The page is the side's own: it documents that name ("sack", "mill.sack", a section "Sacks"), it is the
    reference page of that keyword ('The "grind" statement'), or it holds that special method's entry."""
    if SPECIAL_METHOD.fullmatch(side):
        return re.search(rf"(?m)^[ \t]*object\.{side}\(", source["text"]) is not None
    name = page_name(source["title"]).lower()
    plain = side.lower()
    return (name == plain or name.endswith("." + plain) or f'"{plain}"' in name
            or (side.isalpha() and " " not in name and stems(name) == stems(side)))


def quotes_both(source: SourceRecord, sides: tuple[str, str]) -> bool:
    """The page's title quotes both sides ('Bread types — "loaf", "bun"'): the page that sets them side by side."""
    title = source["title"].lower()
    return all(f'"{side.lower()}"' in title for side in sides)


def side_order(question: str, pages: Iterable[tuple[str, SourceRecord]]) -> list[str]:
    """For a comparison question, the read pages to quote first (keys as given): the two sides' own pages in turn,
    then the pages that quote both; [] for any other question."""
    sides = compared_names(question)
    if sides is None:
        return []
    listed = list(pages)
    both = [key for key, source in listed if quotes_both(source, sides)]
    first, second = ([key for key, source in listed if on_side(source, side) and key not in both] for side in sides)
    # the sides take turns, so a side documented on many pages does not spend the brief before the other is quoted
    turns = [key for pair in zip_longest(first, second) for key in pair if key is not None]
    return list(dict.fromkeys(turns + both))


def first_side_sources(question: str, sources: Iterable[SourceRecord]) -> list[SourceRecord]:
    """The sources of the first side with a page read (the second's when the first has none), for the lead. A
    special method is led by its own entry (``leads.special_method_lead``), not by the page that lists it."""
    sides = compared_names(question)
    if sides is None or any(SPECIAL_METHOD.fullmatch(side) for side in sides):
        return []
    listed = [source for source in sources if not quotes_both(source, sides)]
    for side in sides:
        own = [source for source in listed if on_side(source, side)]
        if own:
            return own
    return []
