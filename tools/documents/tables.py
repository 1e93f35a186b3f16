"""Tables as sentences: each row read with its column names ("Town: Kesh; Opened: 1868."), so that a row stands alone
as a statement the reader can quote, whether the table came from a Word file or from Markdown notes.

A table cell means nothing without its column: "Kesh | 1868 | 1901" says nothing until the header says which number is
the opening and which the closing. Joined to their column names, a row's cells read as one labelled fact, the way a
field line does ("Opened: 1868"), and a question can be matched against them like any other sentence.
"""

from __future__ import annotations

import re

# A Markdown table's header separator: pipes and runs of dashes, each optionally aligned with colons ("|:--|--:|")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_CELL_BREAK = re.compile(r"(?<!\\)\|")  # a pipe not escaped as "\|" parts two cells


def row_sentences(header: list[str], body: list[list[str]]) -> list[str]:
    """Each body row as one sentence of "Column: value" pairs; a column whose header has no letter or digit ("#", a
    row counter) and a cell with no value ("", "—") are left out. Without a header of distinct names the rows
    (header included) are joined with " | ": there is no column name to read them by."""
    if body and all(header) and len(set(header)) == len(header):
        named = [at for at, name in enumerate(header) if any(ch.isalnum() for ch in name)]
        lines = ["; ".join(f"{header[at]}: {cells[at]}" for at in named if at < len(cells) and _holds(cells[at]))
                 for cells in body]
        return [line if line.endswith((".", "!", "?")) else line + "." for line in lines if line]
    return [" | ".join(cell for cell in cells if cell) for cells in [header, *body] if any(cells)]


def _holds(cell: str) -> bool:
    """Whether a cell holds a value: a letter or digit, not a dash or a blank that marks none ("—", "-")."""
    return any(ch.isalnum() for ch in cell)


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [" ".join(cell.replace("\\|", "|").split()) for cell in _CELL_BREAK.split(inner)]


def markdown_tables(text: str) -> str:
    """The text with every Markdown pipe table (a header row, a separator row of dashes, then rows) written as its
    rows' sentences, one paragraph each; the rest of the text is kept as it is."""
    lines = text.split("\n")
    out: list[str] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if "|" in line and at + 1 < len(lines) and _SEPARATOR.match(lines[at + 1]) and "|" in lines[at + 1]:
            end = at + 2
            while end < len(lines) and lines[end].strip() and "|" in lines[end]:
                end += 1
            rows = row_sentences(_cells(line), [_cells(row) for row in lines[at + 2:end]])
            out.append("\n" + "\n\n".join(rows) + "\n" if rows else "")
            at = end
            continue
        out.append(line)
        at += 1
    return "\n".join(out)
