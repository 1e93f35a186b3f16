"""Reading a PDF's text layer with pypdf: page by page, laid out as paragraphs (``pdf_layout``), with its title."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError

from satiate.tools.documents.base import DocumentLimits, DocumentPart, DocumentText, UnreadableDocument
from satiate.tools.documents.pdf_layout import pages_as_paragraphs


class _PypdfErrors(logging.Handler):
    """pypdf logs (rather than raises) some damage, e.g. a page whose content will not decompress, and returns no text
    for it; this hears those warnings and errors, per thread, while a page is read."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.local = threading.local()

    def emit(self, record: logging.LogRecord) -> None:
        found = getattr(self.local, "found", None)
        if found is not None:
            found.append(record.getMessage())

    @contextmanager
    def collecting(self) -> Iterator[list[str]]:
        self.local.found = []
        try:
            yield self.local.found
        finally:
            self.local.found = None


# pypdf logs every repair it makes to a damaged file; the corpus names the file once, in its own words, instead: its
# records go to this handler only, not to the user's terminal
PYPDF_ERRORS = _PypdfErrors()
_pypdf_logger = logging.getLogger("pypdf")
_pypdf_logger.setLevel(logging.WARNING)
_pypdf_logger.addHandler(PYPDF_ERRORS)
_pypdf_logger.propagate = False

HEADING_MAX_CHARS = 120  # a first line longer than this is prose, not the document's title
_PRODUCER_TITLE = re.compile(r"^(?:untitled|microsoft word - .*|document\d*|.*\.(?:docx?|pdf|tex|indd))$",
                             re.IGNORECASE)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:120]}" if text else type(error).__name__


def _unlock(reader: PdfReader) -> None:
    """Open an encrypted PDF with the empty password (a PDF locked only against printing or copying opens so)."""
    try:
        unlocked = reader.decrypt("") != PasswordType.NOT_DECRYPTED
    except DependencyError as exc:
        raise UnreadableDocument(f"encrypted, and opening it needs a package that is missing ({exc})") from None
    if not unlocked:
        raise UnreadableDocument("encrypted with a password; satiate does not take passwords: save an unlocked copy")


def metadata_title(reader: PdfReader) -> str:
    """The document information's title, unless it is empty or a producer's placeholder ("Microsoft Word - x.docx")."""
    metadata = reader.metadata
    title = " ".join(str((metadata.get("/Title") if metadata else None) or "").split())
    return "" if _PRODUCER_TITLE.match(title) else title


def heading_title(paragraphs: list[str]) -> str:
    """The first heading-like paragraph: short, with a letter, not ending like a sentence."""
    for paragraph in paragraphs[:5]:
        if len(paragraph) <= HEADING_MAX_CHARS and re.search(r"[^\W\d_]", paragraph) and paragraph[-1] not in ".,;:":
            return paragraph
    return ""


def _page_lines(reader: PdfReader, number: int, damaged: list[tuple[int, str]]) -> list[str]:
    """A page's text lines; a page whose content is damaged gives none and is noted (the other pages still count)."""
    try:
        with PYPDF_ERRORS.collecting() as errors:
            text = reader.pages[number].extract_text() or ""
    except Exception as exc:  # as for the whole file: any exception from pypdf means the page is damaged
        damaged.append((number + 1, _first_line(exc)))
        return []
    if errors and not text.strip():
        damaged.append((number + 1, errors[0].splitlines()[0][:120] if errors[0].strip() else "damaged content"))
    return text.splitlines()


def _damage_note(damaged: list[tuple[int, str]]) -> str:
    shown = ", ".join(str(page) for page, _ in damaged[:10]) + (", ..." if len(damaged) > 10 else "")
    return f"{len(damaged)} damaged page{'s' if len(damaged) > 1 else ''} not read ({shown})"


def read_pdf(path: Path, limits: DocumentLimits) -> DocumentText:
    """The PDF's pages as parts (``page`` 1-based); raises UnreadableDocument when none has text."""
    damaged: list[tuple[int, str]] = []
    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            _unlock(reader)
        total = len(reader.pages)
        read = min(total, limits.max_pages)
        pages = [_page_lines(reader, number, damaged) for number in range(read)]
        title = metadata_title(reader)
    except UnreadableDocument:
        raise
    except Exception as exc:  # a damaged file makes pypdf raise almost anything; each means "damaged"
        raise UnreadableDocument(f"damaged PDF, could not be read ({_first_line(exc)})") from None
    if total == 0:
        raise UnreadableDocument("damaged PDF: it has no pages")
    if damaged and len(damaged) == read:
        raise UnreadableDocument(f"damaged PDF, no page could be read ({damaged[0][1]})")
    laid_out = pages_as_paragraphs(pages)
    parts = [DocumentPart("\n\n".join(paragraphs), page=number)
             for number, paragraphs in enumerate(laid_out, 1) if paragraphs]
    if not any(line.strip() for lines in pages for line in lines):
        raise UnreadableDocument("no text layer; OCR is not supported (a scanned PDF needs OCR before satiate can "
                                 "read it)")
    if not parts:
        raise UnreadableDocument("no text beyond page numbers and running headers")
    notes = [_damage_note(damaged)] if damaged else []
    if read < total:
        notes.append(f"read the first {read} of {total} pages (document_max_pages)")
    first_text = next((paragraphs for paragraphs in laid_out if paragraphs), [])
    return DocumentText(title=title or heading_title(first_text), parts=parts, note="; ".join(notes))
