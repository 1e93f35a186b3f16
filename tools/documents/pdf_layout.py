"""A PDF's drawn lines back into the paragraphs a reader sees.

A PDF places lines, not sentences: a sentence wraps across lines, a word may be hyphenated at a line's end, and each
page may repeat a running header or footer and carry a page number. Left as they come, "the committee met in the /
Larkspur Parish Council — Minutes / 12 / village hall" becomes one false sentence. The rules, and their limits:

- A line at the top or bottom of most pages (digits ignored, so "Page 3 of 9" matches "Page 4 of 9") is a running
  header or footer, and a lone number there is a page number: both are dropped. A one-page document has no running
  lines to find; its lone edge numbers are still dropped. A page's middle line is never an edge: some text stays.
- A line nearly as long as the page's usual line ran out of room: the next line continues its paragraph. A shorter
  line ends its paragraph (or is a heading). Wrapped lists of short lines stay one paragraph: there is no width to
  tell them apart by.
- A line ending in letter + hyphen, followed by a lowercase letter, is one word split in two ("parish-" + "ioners");
  before a capital the hyphen is part of a name ("Larkspur-" + "Upton") and stays, without a space.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

RUNNING_LINE_SHARE = 0.6  # a line at a page edge on at least this share of the pages is running matter
EDGE_LINES = 2  # how many lines at the top and at the bottom of a page can be running matter
FULL_LINE_SHARE = 0.7  # a line at least this share of the page's usual length ran out of room: its sentence goes on
USUAL_LENGTH_QUANTILE = 0.75  # the page's usual line length: this quantile of its line lengths (a paragraph's last
# line and the headings are shorter; most lines are full)

_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlc]{1,7})\s*[-–—)\]]?(?:\s+(?:of|/)\s+\d{1,4})?$",
                          re.IGNORECASE)
_LIST_ITEM = re.compile(r"^(?:[•▪◦‣*·-]\s|\(?\d{1,2}[.)]\s|\(?[a-z][.)]\s)")


def _key(line: str) -> str:
    """A line as it compares with the same running line on another page: case, spacing and numbers ignored."""
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def _edges(lines: Sequence[str]) -> set[int]:
    """Positions of the lines at the top and the bottom of a page (blank lines ignored). At least one line stays in
    the middle: a page's only lines are its text, never all running matter."""
    filled = [number for number, line in enumerate(lines) if line.strip()]
    each = min(EDGE_LINES, (len(filled) - 1) // 2)
    return set(filled[:each] + filled[len(filled) - each:]) if each > 0 else set()


def running_lines(pages: Sequence[Sequence[str]]) -> set[str]:
    """The keys of lines that stand at a page edge on most pages: running headers and footers."""
    if len(pages) < 2:
        return set()
    seen: Counter[str] = Counter()
    for lines in pages:
        seen.update({_key(lines[number]) for number in _edges(lines)})
    needed = max(2, math.ceil(RUNNING_LINE_SHARE * len(pages)))
    return {key for key, count in seen.items() if count >= needed}


def is_page_number(line: str) -> bool:
    """A lone number as a page carries it: "12", "- 12 -", "Page 12", "12 of 40", "xii"."""
    return _PAGE_NUMBER.match(line.strip()) is not None


def _usual_length(lines: Sequence[str]) -> int:
    lengths = sorted(len(line) for line in lines)
    return lengths[min(len(lengths) - 1, int(USUAL_LENGTH_QUANTILE * len(lengths)))] if lengths else 0


def _ends_in_split_word(text: str) -> bool:
    """Letter + hyphen at the end (looked at there only: a paragraph grows line by line, a search of all of it would
    make a long one quadratic)."""
    return len(text) >= 2 and text[-1] == "-" and text[-2].isalpha()


def _joined(paragraph: str, line: str) -> str:
    if _ends_in_split_word(paragraph):
        return paragraph[:-1] + line if line[0].islower() else paragraph + line
    return f"{paragraph} {line}"


def page_paragraphs(lines: Sequence[str], running: AbstractSet[str] = frozenset()) -> list[str]:
    """One page's lines as paragraphs: running matter and edge page numbers dropped, wrapped lines joined."""
    edges = _edges(lines)
    kept = [" ".join(line.split()) for number, line in enumerate(lines)
            if number not in edges or not (_key(line) in running or is_page_number(line))]
    usual = _usual_length([line for line in kept if line])
    paragraphs: list[str] = []
    current, previous = "", ""
    for line in kept:
        ends_word = _ends_in_split_word(current) and line[:1].islower()
        continues = previous and line and not is_page_number(line) and not _LIST_ITEM.match(line) and (
            ends_word or len(previous) >= FULL_LINE_SHARE * usual)
        if continues:
            current = _joined(current, line)
        else:
            if current:
                paragraphs.append(current)
            current = line
        previous = line if not is_page_number(line) else ""
    if current:
        paragraphs.append(current)
    return paragraphs


def pages_as_paragraphs(pages: Sequence[Sequence[str]]) -> list[list[str]]:
    """Every page's paragraphs, pages kept apart so each paragraph knows its page."""
    running = running_lines(pages)
    return [page_paragraphs(lines, running) for lines in pages]
