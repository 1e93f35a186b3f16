"""A plain text file as read: its title (what its author put first, rather than its file name) and its Markdown
sections."""

from __future__ import annotations

import re

from satiate.tools.documents.base import DocumentPart
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


# A Markdown section heading below the title ("## Ada Pell", "### 1871"): it opens a part of its own
_HEADING_LINE = re.compile(r"^#.*$", re.MULTILINE)
_SECTION_HEADING = re.compile(r"^#{2,6}[ \t]+(?P<heading>.+?)[ \t#]*$", re.MULTILINE)


def markdown_sections(text: str) -> list[DocumentPart]:
    """The text's parts, one per Markdown section, each with its heading (the text before the first section heading,
    title included, is a part without one): a passage cut from a long section still says which section it is from,
    as a Word file's does."""
    parts: list[DocumentPart] = []
    start, heading = 0, ""
    for match in _SECTION_HEADING.finditer(text):
        if _HEADING_LINE.sub("", text[start:match.start()]).strip():  # a title alone is no part
            parts.append(DocumentPart(text[start:match.start()].strip(), heading=heading))
        start, heading = match.end(), match.group("heading").strip()
    if _HEADING_LINE.sub("", text[start:]).strip():
        parts.append(DocumentPart(text[start:].strip(), heading=heading))
    return parts
