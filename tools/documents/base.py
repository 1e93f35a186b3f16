"""What a document reader returns, what it refuses, and the caps it works within."""

from __future__ import annotations

from dataclasses import dataclass, field

from satiate.state.settings import Settings


class UnreadableDocument(Exception):
    """A document that gives no text (damaged, encrypted, no text layer, too big); the message says why in words a
    person can act on, without the file's name (the caller names it)."""


@dataclass(frozen=True)
class DocumentLimits:
    """How much of one document is read: a file over ``max_bytes`` is skipped, pages past ``max_pages`` are not read.

    The defaults are the settings' (``document_max_pages``, ``document_max_mb``); a corpus passes the run's."""

    max_pages: int = 2000
    max_bytes: int = 100 * 1024 * 1024

    def label(self) -> str:
        """The caps as text: part of a document's index signature, so raising a cap re-reads what it cut."""
        return f"pages<={self.max_pages},bytes<={self.max_bytes}"


def document_limits(settings: Settings) -> DocumentLimits:
    """The caps a run's settings set."""
    return DocumentLimits(max_pages=settings.document_max_pages, max_bytes=int(settings.document_max_mb * 1024 * 1024))


@dataclass(frozen=True)
class DocumentPart:
    """A run of text from one place in a document: a PDF page (``page``) or a Word section (``heading``)."""

    text: str
    page: int | None = None
    heading: str = ""


@dataclass
class DocumentText:
    """A document as read: its title, its parts in order, and a note when only part of it was read."""

    title: str
    parts: list[DocumentPart] = field(default_factory=list)
    note: str = ""
