"""One entry for every document format: the size checks every file passes first, then the format's reader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from satiate.tools.documents.base import DocumentLimits, DocumentText, UnreadableDocument
from satiate.tools.documents.pdf import read_pdf
from satiate.tools.documents.word import read_word

READERS: dict[str, Callable[[Path, DocumentLimits], DocumentText]] = {".pdf": read_pdf, ".docx": read_word}
# Formats people keep beside their PDFs that satiate does not read: named with what to do, never passed over silently
UNSUPPORTED_FORMATS = {
    ".doc": "an old binary Word file: save it as .docx or PDF",
    ".odt": "an OpenDocument text: save it as .docx or PDF",
    ".rtf": "a Rich Text file: save it as .docx or PDF",
    ".epub": "an e-book: save it as PDF",
    ".ppt": "slides: save them as PDF",
    ".pptx": "slides: save them as PDF",
    ".xls": "a spreadsheet: save it as PDF or .csv text",
    ".xlsx": "a spreadsheet: save it as PDF or .csv text",
}
DOCUMENT_SUFFIXES = frozenset(READERS) | frozenset(UNSUPPORTED_FORMATS)


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def read_document(path: Path, limits: DocumentLimits) -> DocumentText:
    """The document's text; UnreadableDocument says why there is none (empty, over the size cap, or the reader's
    reason: damaged, encrypted, no text layer) or that its format is not read."""
    suffix = path.suffix.lower()
    if suffix in UNSUPPORTED_FORMATS:
        raise UnreadableDocument(f"format not read ({UNSUPPORTED_FORMATS[suffix]})")
    size = path.stat().st_size
    if size == 0:
        raise UnreadableDocument("empty file (0 bytes)")
    if size > limits.max_bytes:
        raise UnreadableDocument(f"too big to read ({_megabytes(size)}, over the {_megabytes(limits.max_bytes)} cap: "
                                 "raise document_max_mb to read it)")
    return READERS[suffix](path, limits)
