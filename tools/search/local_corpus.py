"""Search a local corpus: a folder of .md/.txt/.html files or a JSONL file of ``{doc_id, title, text}``.

HTML files are read as a browser shows them: hidden elements are dropped (``tools.html_text``), the same rule as for
web pages. A malformed JSONL line (not JSON, not an object, not UTF-8) is skipped, not fatal: the backend counts
them per file and says so in ``notices`` ("skipped 2 malformed lines in x.jsonl (first: line 7: ...)"), also on
later runs that reuse the index.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from satiate.tools.html_text import html_to_text, visible_text
from satiate.tools.search.base import RawHit
from satiate.tools.search.fts_index import FtsIndex, Passage, Units, passages_of

__all__ = ["CorpusError", "LocalCorpusBackend", "html_to_text", "read_jsonl_lines", "read_text_file", "visible_text"]

logger = logging.getLogger(__name__)

TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".rst", ".html", ".htm"}


class CorpusError(ValueError):
    """The corpus path is missing or unreadable; the message says which path and why."""


def read_text_file(path: Path, root: Path) -> list[Passage]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    title = path.stem.replace("_", " ").replace("-", " ")
    if path.suffix.lower() in {".html", ".htm"}:
        html_title, raw = visible_text(raw)
        title = html_title or title
    else:
        heading = re.search(r"^#\s+(.+)$", raw, re.MULTILINE)
        title = heading.group(1).strip() if heading else title
    relative = path.relative_to(root).as_posix()
    return passages_of(relative, title, path.resolve().as_uri(), raw)


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
class SkipLedger:
    """Malformed-line counts per JSONL unit and signature, kept beside the index so a run that reuses the index (and
    so reads no file) still reports them."""

    path: Path
    entries: dict[str, dict[str, object]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> SkipLedger:
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entries = {}
        return cls(path, entries if isinstance(entries, dict) else {})

    def notices(self, signatures: dict[str, str]) -> list[str]:
        """The notices of units whose file is unchanged since it was read."""
        return [str(entry.get("notice")) for unit, entry in sorted(self.entries.items())
                if isinstance(entry, dict) and entry.get("signature") == signatures.get(unit) and entry.get("notice")]

    def update(self, read: dict[str, SkippedLines], signatures: dict[str, str]) -> None:
        entries = {unit: entry for unit, entry in self.entries.items() if unit in signatures and unit not in read}
        entries.update({unit: {"signature": signatures[unit], "notice": skipped.notice()}
                        for unit, skipped in read.items() if skipped.count})
        if entries == self.entries:
            return
        self.entries = entries
        try:  # written whole and renamed, so a concurrent reader sees the old or the new ledger, never half
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(entries, out)
            os.replace(temporary, self.path)
        except OSError:
            logger.debug("could not write %s; malformed lines will be reported only when re-read", self.path)


class LocalCorpusBackend:
    """A folder or JSONL file indexed once into SQLite FTS5 (re-indexed incrementally when files change)."""

    def __init__(self, corpus: str | Path, data_dir: Path, name: str = "corpus") -> None:
        self.root = Path(corpus).expanduser()
        if not self.root.exists():
            raise CorpusError(f"corpus not found: {self.root}")
        self.name = name
        self.description = f"local corpus {self.root.name}: passages searched with BM25; exact words matter"
        index_path = index_path_for(data_dir, self.root)
        self.index = FtsIndex(index_path)
        self._skipped: dict[str, SkippedLines] = {}
        units = self._units()
        self.reindexed = self.index.sync(units)
        signatures = {unit: signature for unit, (signature, _) in units.items()}
        ledger = SkipLedger.load(index_path.with_name(index_path.stem + ".skipped.json"))
        ledger.update(self._skipped, signatures)
        # What the CLI should print about this corpus (malformed JSONL lines skipped, per file).
        self.notices: list[str] = ledger.notices(signatures)
        for notice in self.notices:  # info, not warning: the CLI prints `notices`, a warning would say it twice
            logger.info("corpus %s: %s", self.root, notice)
        if self.index.count() == 0:
            detail = f" ({'; '.join(self.notices)})" if self.notices else ""
            raise CorpusError(f"corpus has no readable .md/.txt/.html/.jsonl text: {self.root}{detail}")

    def _jsonl_loader(self, path: Path, unit: str):
        def load() -> Iterator[Passage]:
            self._skipped[unit] = skipped = SkippedLines(unit)
            yield from read_jsonl_lines(path, skipped)

        return load

    def _units(self) -> Units:
        root = self.root
        if root.is_file():
            if root.suffix.lower() == ".jsonl":
                return {root.name: (_signature(root), self._jsonl_loader(root, root.name))}
            if root.suffix.lower() in TEXT_SUFFIXES:
                return {root.name: (_signature(root), lambda: read_text_file(root, root.parent))}
            raise CorpusError(f"unsupported corpus file type {root.suffix!r}: use a folder, .jsonl, .md, .txt or .html")
        units: Units = {}
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.name.startswith("."):
                continue
            unit = path.relative_to(root).as_posix()
            suffix = path.suffix.lower()
            if suffix == ".jsonl":
                loader = self._jsonl_loader(path, unit)
            elif suffix in TEXT_SUFFIXES:
                loader = functools.partial(read_text_file, path, root)
            else:
                continue
            units[unit] = (_signature(path), loader)
        return units

    def search(self, query: str, max_results: int) -> list[RawHit]:
        return self.index.search(query, max_results)

    def close(self) -> None:
        self.index.close()
