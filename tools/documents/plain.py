"""The title of a plain text file: what its author put first, rather than its file name."""

from __future__ import annotations

import re

from satiate.tools.text import truncate

TITLE_MAX_CHARS = 120  # a first line longer than this is prose: it is cut at a word boundary


def plain_title(text: str, fallback: str) -> str:
    """A Markdown file's first "# heading", else the first line with a letter or digit (an underline of "====" or a
    front-matter fence has none), without Markdown's leading #s; ``fallback`` for a file without one."""
    heading = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
    if heading:
        return truncate(heading.group(1).strip(), TITLE_MAX_CHARS)
    for line in text.splitlines():
        stripped = line.strip().lstrip("#").strip()
        if any(character.isalnum() for character in stripped):
            return truncate(stripped, TITLE_MAX_CHARS)
    return fallback
