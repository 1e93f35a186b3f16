"""Reading a Word (.docx) file with python-docx: paragraphs and tables in order, grouped under their headings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.table import Table
from docx.text.paragraph import Paragraph

from satiate.tools.documents.base import DocumentLimits, DocumentPart, DocumentText, UnreadableDocument
from satiate.tools.documents.tables import row_sentences

# A .docx is a zip; these bytes start an OLE compound file: a password-protected .docx, or a .doc renamed
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
HEADING_JOINER = " › "  # "Budget › Roof repairs": a subsection's heading names its parents


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:120]}" if text else type(error).__name__


def _style_name(paragraph: Paragraph) -> str:
    try:
        return paragraph.style.name if paragraph.style is not None else ""
    except (KeyError, ValueError):  # a style the file names but does not define
        return ""


def heading_level(style: str) -> int | None:
    """1 for "Heading 1" ..., 0 for "Title", None for body text."""
    if style == "Title":
        return 0
    match = re.fullmatch(r"Heading\s*(\d)", style)
    return int(match.group(1)) if match else None


def table_rows(table: Table) -> list[str]:
    """A table as text rows (``tables.row_sentences``): a merged cell is read once."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        seen: list[object] = []
        for cell in row.cells:
            if any(cell._tc is other for other in seen):  # a merged cell comes back once per grid column
                continue
            seen.append(cell._tc)
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(cells)
    return row_sentences(rows[0], rows[1:]) if rows else []


def _blocks(document: docx.document.Document) -> Iterator[tuple[int | None, str]]:
    """(heading level or None, text) for every paragraph and table row, in document order."""
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            text = " ".join(block.text.split())
            if text:
                yield heading_level(_style_name(block)), text
        else:
            for row in table_rows(block):
                yield None, row


def core_title(document: docx.document.Document) -> str:
    """The title in the file's properties; python-docx invents "Word Document" for a file without any, so only a
    title the file itself holds counts."""
    relations = document.part.package.rels.values()
    if not any(relation.reltype == RELATIONSHIP_TYPE.CORE_PROPERTIES for relation in relations):
        return ""
    return " ".join((document.core_properties.title or "").split())


def read_word(path: Path, limits: DocumentLimits) -> DocumentText:
    """The document's sections as parts (``heading`` the path of headings above them)."""
    with path.open("rb") as handle:
        if handle.read(len(OLE_SIGNATURE)) == OLE_SIGNATURE:
            raise UnreadableDocument("password-protected, or an old binary Word file named .docx; satiate reads "
                                     "unprotected .docx only: save an unprotected .docx copy")
    try:
        document = docx.Document(str(path))
        blocks = list(_blocks(document))
        title = core_title(document)
    except Exception as exc:  # a damaged zip or XML makes python-docx raise many types
        raise UnreadableDocument(f"damaged Word file, could not be read ({_first_line(exc)})") from None
    headings: list[tuple[int, str]] = []
    parts: list[DocumentPart] = []
    paragraphs: list[str] = []

    def close_section() -> None:
        if paragraphs:
            parts.append(DocumentPart("\n\n".join(paragraphs), heading=HEADING_JOINER.join(h for _, h in headings)))
            paragraphs.clear()

    for level, text in blocks:
        if level is None:
            paragraphs.append(text)
            continue
        close_section()
        if level == 0:
            title = title or text
            continue
        title = title or text
        headings[:] = [(lower, heading) for lower, heading in headings if lower < level] + [(level, text)]
    close_section()
    if not parts:
        raise UnreadableDocument("no text: the Word file has no paragraphs or tables")
    return DocumentText(title=title, parts=parts)
