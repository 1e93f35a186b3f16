"""One entry for every document format: the size checks every file passes first, then the format's reader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from satiate.tools.documents.base import DocumentLimits, DocumentText, UnreadableDocument
from satiate.tools.documents.pdf import read_pdf
from satiate.tools.documents.word import read_word

READERS: dict[str, Callable[[Path, DocumentLimits], DocumentText]] = {".pdf": read_pdf, ".docx": read_word}
DOCUMENT_SUFFIXES = frozenset(READERS)


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def read_document(path: Path, limits: DocumentLimits) -> DocumentText:
    """The document's text; UnreadableDocument says why there is none (empty, over the size cap, or the reader's
    reason: damaged, encrypted, no text layer)."""
    size = path.stat().st_size
    if size == 0:
        raise UnreadableDocument("empty file (0 bytes)")
    if size > limits.max_bytes:
        raise UnreadableDocument(f"too big to read ({_megabytes(size)}, over the {_megabytes(limits.max_bytes)} cap: "
                                 "raise document_max_mb to read it)")
    return READERS[path.suffix.lower()](path, limits)
