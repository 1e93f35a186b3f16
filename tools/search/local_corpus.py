"""Search a local corpus: a folder of documents (.pdf, .docx, .md, .txt, .rst, .html) or a JSONL file of
``{doc_id, title, text}``.

HTML files are read as a browser shows them: hidden elements are dropped (``tools.html_text``), the same rule as for
web pages. PDF and Word files are read by ``tools.documents``: a PDF page by page, so each passage links to its page
(``file:///.../x.pdf#page=N``, and a hit carries ``page``). Nothing in the folder stops the run: a malformed JSONL
line (not JSON, not an object, not UTF-8) is skipped, and so is a document that cannot be read (damaged, encrypted,
no text layer, empty, too big); the backend says so once per file in ``notices`` ("skipped 2 malformed lines in
x.jsonl (first: line 7: ...)", "scan.pdf: no text layer; OCR is not supported"), also on later runs that reuse the
index.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from satiate.tools.documents.base import DocumentLimits, DocumentText, UnreadableDocument
from satiate.tools.documents.passages import document_passages
from satiate.tools.documents.plain import markdown_sections, plain_title
from satiate.tools.documents.reading import DOCUMENT_SUFFIXES, read_document
from satiate.tools.documents.tables import markdown_tables
from satiate.tools.html_text import html_to_text, visible_text
from satiate.tools.search.base import RawHit
from satiate.tools.search.fts_index import FtsIndex, Passage, Units, passages_of

__all__ = ["CorpusError", "LocalCorpusBackend", "html_to_text", "read_jsonl_lines", "read_text_file", "visible_text"]

logger = logging.getLogger(__name__)

TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".rst", ".html", ".htm"}
TEXT_READING = "sections-and-table-rows"  # how text files are read: an index kept by an older reading re-reads
READABLE = "a folder, .jsonl, .pdf, .docx, .md, .txt or .html"
_PAGE_LINK = re.compile(r"^file:.*#page=(\d+)$")


class CorpusError(ValueError):
    """The corpus path is missing or unreadable; the message says which path and why."""


def stem_title(path: Path) -> str:
    return path.stem.replace("_", " ").replace("-", " ")


def read_text_file(path: Path, root: Path) -> list[Passage]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() in {".html", ".htm"}:
        html_title, raw = visible_text(raw)
        title = html_title or stem_title(path)
    else:
        title = plain_title(raw, stem_title(path))
        parts = markdown_sections(markdown_tables(raw))
        document = DocumentText(title=title, parts=parts)
        return document_passages(path.relative_to(root).as_posix(), path.resolve().as_uri(), document)
    relative = path.relative_to(root).as_posix()
    return passages_of(relative, title, path.resolve().as_uri(), raw)


def page_of(url: str) -> int | None:
    """The page a local document's link opens at (``file:///.../x.pdf#page=N``), if it names one."""
    match = _PAGE_LINK.match(url)
    return int(match.group(1)) if match else None


@dataclass
class SkippedLines:
    """Lines of one JSONL file that were not a JSON object, and the first one's number and reason."""

    unit: str
    count: int = 0
    first: str = ""

    def add(self, number: int, reason: str) -> None:
        self.count += 1
        if not self.first:
            self.first = f"line {number}: {reason}"

    def notice(self) -> str:
        plural = "s" if self.count != 1 else ""
        return f"skipped {self.count} malformed line{plural} in {self.unit} (first: {self.first})"


def read_jsonl_lines(path: Path, skipped: SkippedLines) -> Iterator[Passage]:
    """Passages of a JSONL corpus: one ``{doc_id, title, text}`` object a line (``id``, ``body``, ``url`` accepted).

    A line that is not UTF-8, not JSON or not an object is counted in ``skipped`` and passed over: one bad line of a
    large export must not cost the whole corpus.
    """
    with path.open("rb") as handle:
        for number, raw_line in enumerate(handle, 1):
            if number == 1 and raw_line.startswith(b"\xef\xbb\xbf"):
                raw_line = raw_line[3:]  # a UTF-8 byte-order mark
            try:
                line = raw_line.decode("utf-8").strip()
            except UnicodeDecodeError as exc:
                skipped.add(number, f"not UTF-8 (byte 0x{raw_line[exc.start]:02x} at column {exc.start + 1})")
                continue
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                skipped.add(number, f"not JSON ({exc.msg} at column {exc.colno})")
                continue
            except (ValueError, RecursionError) as exc:  # an integer of 5,000 digits, arrays nested 100,000 deep
                skipped.add(number, f"not usable JSON ({type(exc).__name__})")
                continue
            if not isinstance(record, dict):
                skipped.add(number, f"a JSON {type(record).__name__}, not an object")
                continue
            doc_id = str(record.get("doc_id") or record.get("id") or f"{path.stem}:{number}")
            text = str(record.get("text") or record.get("body") or "")
            title = str(record.get("title") or doc_id)
            yield from passages_of(doc_id, title, str(record.get("url") or ""), text)


def index_path_for(data_dir: Path, corpus: Path) -> Path:
    digest = hashlib.sha1(str(corpus.resolve()).encode()).hexdigest()[:12]
    slug = re.sub(r"[^a-z0-9]+", "-", corpus.stem.lower()).strip("-")[:40] or "corpus"
    return data_dir / "corpora" / f"{slug}-{digest}.sqlite"


def _signature(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


@dataclass
class NoticeLedger:
    """What went wrong reading each unit (malformed JSONL lines, an unreadable document), per unit and signature,
    kept beside the index so a run that reuses the index (and so reads no file) still reports it."""

    path: Path
    entries: dict[str, dict[str, object]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> NoticeLedger:
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entries = {}
        return cls(path, entries if isinstance(entries, dict) else {})

    def notices(self, signatures: dict[str, str]) -> list[str]:
        """The notices of units whose file is unchanged since it was read."""
        return [str(entry.get("notice")) for unit, entry in sorted(self.entries.items())
                if isinstance(entry, dict) and entry.get("signature") == signatures.get(unit) and entry.get("notice")]

    def update(self, read: dict[str, str], signatures: dict[str, str]) -> None:
        """Record the notices of the units read this time (``""``: read cleanly), keep the others'."""
        entries = {unit: entry for unit, entry in self.entries.items() if unit in signatures and unit not in read}
        entries.update({unit: {"signature": signatures[unit], "notice": notice}
                        for unit, notice in read.items() if notice})
        if entries == self.entries:
            return
        self.entries = entries
        try:  # written whole and renamed, so a concurrent reader sees the old or the new ledger, never half
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(entries, out)
            os.replace(temporary, self.path)
        except OSError:
            logger.debug("could not write %s; its notices will be reported only when the files are re-read", self.path)


class LocalCorpusBackend:
    """A folder or JSONL file indexed once into SQLite FTS5 (re-indexed incrementally when files change)."""

    def __init__(self, corpus: str | Path, data_dir: Path, name: str = "corpus", *,
                 limits: DocumentLimits | None = None) -> None:
        self.root = Path(corpus).expanduser()
        if not self.root.exists():
            raise CorpusError(f"corpus not found: {self.root}")
        self.name = name
        self.description = f"local corpus {self.root.name}: passages searched with BM25; exact words matter"
        self.limits = limits or DocumentLimits()
        index_path = index_path_for(data_dir, self.root)
        self.index = FtsIndex(index_path)
        self._skipped: dict[str, SkippedLines] = {}
        self._unreadable: dict[str, str] = {}  # document unit -> why it gave no text ("" when read), this sync
        units = self._units()
        self.reindexed = self.index.sync(units)
        signatures = {unit: signature for unit, (signature, _) in units.items()}
        ledger = NoticeLedger.load(index_path.with_name(index_path.stem + ".skipped.json"))
        read = {unit: skipped.notice() if skipped.count else "" for unit, skipped in self._skipped.items()}
        ledger.update(read | self._unreadable, signatures)
        # What the CLI should print about this corpus: malformed JSONL lines skipped, documents not read, per file.
        self.notices: list[str] = ledger.notices(signatures)
        for notice in self.notices:  # info, not warning: the CLI prints `notices`, a warning would say it twice
            logger.info("corpus %s: %s", self.root, notice)
        if self.index.count() == 0:
            detail = f" ({'; '.join(self.notices)})" if self.notices else ""
            raise CorpusError(f"corpus has no readable text ({READABLE}): {self.root}{detail}")

    def _jsonl_loader(self, path: Path, unit: str):
        def load() -> Iterator[Passage]:
            self._skipped[unit] = skipped = SkippedLines(unit)
            yield from read_jsonl_lines(path, skipped)

        return load

    def _document_loader(self, path: Path, unit: str):
        def load() -> list[Passage]:
            try:
                document = read_document(path, self.limits)
            except UnreadableDocument as reason:
                self._unreadable[unit] = f"{unit}: {reason}; skipped"
                return []
            except OSError as exc:  # gone or unreadable since the folder was listed
                self._unreadable[unit] = f"{unit}: could not be opened ({exc.strerror or exc}); skipped"
                return []
            self._unreadable[unit] = f"{unit}: {document.note}" if document.note else ""
            document.title = document.title or stem_title(path)
            return document_passages(unit, path.resolve().as_uri(), document)

        return load

    def _unit(self, path: Path, unit: str, text_root: Path) -> tuple[str, Callable[[], Iterable[Passage]]] | None:
        """(signature, loader) of one file, or None for a file the corpus does not read."""
        suffix = path.suffix.lower()
        if suffix == ".jsonl":
            return _signature(path), self._jsonl_loader(path, unit)
        if suffix in TEXT_SUFFIXES:  # how text is read is in the signature: a changed reading re-reads the files
            return f"{_signature(path)}:{TEXT_READING}", functools.partial(read_text_file, path, text_root)
        if suffix in DOCUMENT_SUFFIXES:  # the caps are in the signature: changing one re-reads the documents
            return f"{_signature(path)}:{self.limits.label()}", self._document_loader(path, unit)
        return None

    def _units(self) -> Units:
        root = self.root
        if root.is_file():
            unit = self._unit(root, root.name, root.parent)
            if unit is None:
                raise CorpusError(f"unsupported corpus file type {root.suffix!r}: use {READABLE}")
            return {root.name: unit}
        units: Units = {}
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.name.startswith("."):
                continue
            name = path.relative_to(root).as_posix()
            unit = self._unit(path, name, root)
            if unit is not None:
                units[name] = unit
        return units

    def search(self, query: str, max_results: int) -> list[RawHit]:
        hits = self.index.search(query, max_results)
        for hit in hits:
            hit.page = page_of(hit.url)
        return hits

    def close(self) -> None:
        self.index.close()
