"""Reading a PDF's text layer with pypdf: page by page, laid out as paragraphs (``pdf_layout``), with its title."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError

from satiate.tools.documents.base import DocumentLimits, DocumentPart, DocumentText, UnreadableDocument
from satiate.tools.documents.pdf_layout import pages_as_paragraphs

# pypdf logs every repair it makes to a damaged file; the corpus names the file once, in its own words, instead
logging.getLogger("pypdf").setLevel(logging.ERROR)

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
    title = " ".join(str((reader.metadata or {}).get("/Title") or "").split())
    return "" if _PRODUCER_TITLE.match(title) else title


def heading_title(paragraphs: list[str]) -> str:
    """The first heading-like paragraph: short, with a letter, not ending like a sentence."""
    for paragraph in paragraphs[:5]:
        if len(paragraph) <= HEADING_MAX_CHARS and re.search(r"[^\W\d_]", paragraph) and paragraph[-1] not in ".,;:":
            return paragraph
    return ""


def read_pdf(path: Path, limits: DocumentLimits) -> DocumentText:
    """The PDF's pages as parts (``page`` 1-based); raises UnreadableDocument when none has text."""
    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            _unlock(reader)
        total = len(reader.pages)
        read = min(total, limits.max_pages)
        pages = [(reader.pages[number].extract_text() or "").splitlines() for number in range(read)]
        title = metadata_title(reader)
    except UnreadableDocument:
        raise
    except Exception as exc:  # a damaged file makes pypdf raise almost anything; each means "damaged"
        raise UnreadableDocument(f"damaged PDF, could not be read ({_first_line(exc)})") from None
    if total == 0:
        raise UnreadableDocument("damaged PDF: it has no pages")
    laid_out = pages_as_paragraphs(pages)
    parts = [DocumentPart("\n\n".join(paragraphs), page=number)
             for number, paragraphs in enumerate(laid_out, 1) if paragraphs]
    if not any(line.strip() for lines in pages for line in lines):
        raise UnreadableDocument("no text layer; OCR is not supported (a scanned PDF needs OCR before satiate can "
                                 "read it)")
    if not parts:
        raise UnreadableDocument("no text beyond page numbers and running headers")
    note = f"read the first {read} of {total} pages (document_max_pages)" if read < total else ""
    return DocumentText(title=title or heading_title(laid_out[0] if laid_out else []), parts=parts, note=note)
