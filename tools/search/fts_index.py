"""A passage index in one SQLite file, searched with FTS5 and ranked by BM25.

Documents arrive in *units* (a file, a JSONL file, an installed distribution); each unit has a signature, and a
re-sync re-reads only the units whose signature changed, so re-indexing a large folder after one edit is cheap.

The index is derived data: when SQLite finds it damaged (opening, syncing, counting or searching), it is deleted and
rebuilt from its units, and the operation runs again. A full disk or a read-only folder is a StorageError that
names the file.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tenacity import Retrying, retry_if_exception, stop_after_delay, wait_random

from satiate.tools.search.base import RawHit
from satiate.tools.store import StorageError, discard_sqlite_file, fault_kind, storage_fault
from satiate.tools.text import content_terms, page_subject, unique, words

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: two processes could both rebuild a damaged index, harmlessly
    fcntl = None

logger = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS units (unit TEXT PRIMARY KEY, signature TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY, unit TEXT NOT NULL, doc_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL, url TEXT NOT NULL, text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_unit ON passages(unit);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    title, text, content='passages', content_rowid='id', tokenize='porter unicode61'
);
"""
CHUNK_CHARS = 1500
EXACT_RERANK_POOL = 4  # candidates per wanted result that the exact-word re-ranking looks at


@dataclass(frozen=True)
class Passage:
    doc_id: str
    title: str
    url: str
    text: str


def chunk_text(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """Split long text at paragraph (then sentence) boundaries into pieces of about ``limit`` characters."""
    text = text.strip()
    if len(text) <= limit * 1.3:
        return [text] if text else []
    pieces: list[str] = []
    current = ""
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        while len(paragraph) > limit:
            cut = paragraph.rfind(". ", 0, limit)
            cut = cut + 1 if cut > limit // 3 else limit
            if current:
                pieces.append(current)
                current = ""
            pieces.append(paragraph[:cut].strip())
            paragraph = paragraph[cut:].strip()
        if current and len(current) + len(paragraph) + 2 > limit:
            pieces.append(current)
            current = paragraph
        else:
            current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        pieces.append(current)
    return pieces


def passages_of(doc_id: str, title: str, url: str, text: str) -> list[Passage]:
    """One passage per chunk; a chunked document's ids get a ``#pN`` suffix."""
    chunks = chunk_text(text)
    if len(chunks) == 1:
        return [Passage(doc_id, title, url, chunks[0])]
    return [Passage(f"{doc_id}#p{n}", title, f"{url}#p{n}" if url else "", chunk) for n, chunk in enumerate(chunks, 1)]


def fts_query(query: str) -> str:
    """A free-text query as an FTS5 OR-query of its content words (quoted, so no word is read as an operator)."""
    terms = unique(content_terms(query)) or unique(words(query))
    return " OR ".join(f'"{term}"' for term in terms[:32])


def _locked(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


Units = dict[str, tuple[str, Callable[[], Iterable[Passage]]]]
Progress = Callable[[int, int], None]  # (units re-read so far, units to re-read), after each one


class FtsIndex:
    """The index file; safe to share between threads of one process and between processes (SQLite locking)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._units: Units | None = None  # what the last sync indexed: what a damaged index is rebuilt from
        self.rebuilt: str | None = None  # why the index was rebuilt, when it was
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._fault(exc) from None
        try:
            self._connect()
        except sqlite3.DatabaseError as exc:
            if fault_kind(exc) != "damaged":
                raise self._fault(exc) from None
            self._replace_damaged(exc)

    def _connect(self) -> None:
        # Autocommit: every write below runs in an explicit BEGIN IMMEDIATE, which waits on the busy timeout. (An
        # implicit transaction that upgrades from read to write can fail at once with "database is locked" when
        # several connections open the same new index together: parallel searches, worker processes.)
        self._connection = sqlite3.connect(self.path, check_same_thread=False, timeout=60, isolation_level=None)
        try:
            # Switching a new file to WAL needs it to itself and does not wait on the busy timeout: retry briefly.
            Retrying(
                retry=retry_if_exception(_locked), stop=stop_after_delay(60), wait=wait_random(0.02, 0.2),
                reraise=True,
            )(self._ensure_schema)
            self._inode = os.stat(self.path).st_ino  # which file this connection found (see _replace_damaged)
        except BaseException:
            self._connection.close()
            raise

    def _ensure_schema(self) -> None:
        connection = self._connection
        if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'passages_fts'").fetchone():
            return
        with self._immediate():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)

    def _fault(self, error: BaseException) -> StorageError:
        return storage_fault(self.path, error, damaged=f"delete it, it is rebuilt from the corpus: rm {self.path}")

    def _replace_damaged(self, error: BaseException) -> None:
        """Delete the damaged file and open a new, empty one. Another process may have found the same damage: the
        folder's lock makes one of them delete it, and the other, seeing a new file there, simply opens it."""
        self._connection.close()
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            if fcntl is not None:
                fcntl.flock(folder, fcntl.LOCK_EX)
            try:
                current = os.stat(self.path).st_ino
            except FileNotFoundError:
                current = None
            if current == getattr(self, "_inode", current):
                discard_sqlite_file(self.path)
            self.rebuilt = str(error).splitlines()[0]
            logger.warning("corpus index %s was damaged (%s): rebuilding it from the corpus", self.path, self.rebuilt)
            try:
                self._connect()
            except sqlite3.DatabaseError as exc:
                raise self._fault(exc) from None
        finally:
            os.close(folder)  # closing the descriptor also releases its lock

    def _recovering(self, operation: Callable[[], object], *, resync: bool) -> object:
        """Run ``operation`` (the caller holds ``self._lock``); a damaged index is rebuilt (and re-synced from the
        last units, when ``resync``) and the operation runs once more; a full disk or a read-only folder becomes a
        StorageError naming the file."""
        try:
            return operation()
        except sqlite3.DatabaseError as exc:
            kind = fault_kind(exc)
            if kind in ("full", "read_only", "unopenable"):
                raise self._fault(exc) from None
            if kind != "damaged":
                raise
            if resync and self._units is None:  # nothing to rebuild it from
                raise self._fault(exc) from None
            self._replace_damaged(exc)
        try:
            if resync:
                self._sync(self._units or {})
            return operation()
        except sqlite3.DatabaseError as exc:
            raise self._fault(exc) from None

    @contextmanager
    def _immediate(self) -> Iterator[None]:
        """One write transaction, taken up front (BEGIN IMMEDIATE), committed or rolled back."""
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            # SQLite has already rolled back after some errors ("database or disk is full"): a second rollback would
            # fail with "no transaction is active" and hide the error that matters
            if self._connection.in_transaction:
                try:
                    self._connection.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise
        self._connection.execute("COMMIT")

    def close(self) -> None:
        self._connection.close()

    def sync(self, units: Units, progress: Progress | None = None) -> int:
        """Bring the index in line with ``units`` (unit -> (signature, loader)); returns how many units were re-read.
        ``progress`` hears how far the re-reading is, for an index of a large folder to show."""
        with self._lock:
            self._units = units
            return self._recovering(lambda: self._sync(units, progress), resync=False)

    def _sync(self, units: Units, progress: Progress | None = None) -> int:
        connection = self._connection
        if not any(self._changes(units)):
            return 0
        with self._immediate():
            # decided again inside the write lock: another process may have synced meanwhile
            changed, removed = self._changes(units)
            for unit in removed + changed:
                self._delete_unit(unit)
            for done, unit in enumerate(changed, 1):
                signature, loader = units[unit]
                seen: set[str] = set()
                for passage in loader():
                    if passage.doc_id in seen or not passage.text.strip():
                        continue
                    seen.add(passage.doc_id)
                    cursor = connection.execute(
                        "INSERT OR REPLACE INTO passages(unit, doc_id, title, url, text) VALUES (?,?,?,?,?)",
                        (unit, passage.doc_id, passage.title, passage.url, passage.text),
                    )
                    connection.execute(
                        "INSERT INTO passages_fts(rowid, title, text) VALUES (?,?,?)",
                        (cursor.lastrowid, passage.title, passage.text),
                    )
                connection.execute("INSERT OR REPLACE INTO units VALUES (?,?)", (unit, signature))
                if progress is not None:
                    progress(done, len(changed))
        return len(changed) + len(removed)

    def _changes(self, units: Units) -> tuple[list[str], list[str]]:
        """Units whose signature differs from the index's (changed), and indexed units no longer present (removed)."""
        stored = dict(self._connection.execute("SELECT unit, signature FROM units"))
        changed = [u for u, (sig, _) in units.items() if stored.get(u) != sig]
        return changed, [u for u in stored if u not in units]

    def _delete_unit(self, unit: str) -> None:
        rows = self._connection.execute("SELECT id, title, text FROM passages WHERE unit=?", (unit,)).fetchall()
        for row_id, title, text in rows:
            self._connection.execute(
                "INSERT INTO passages_fts(passages_fts, rowid, title, text) VALUES ('delete', ?, ?, ?)",
                (row_id, title, text),
            )
        self._connection.execute("DELETE FROM passages WHERE unit=?", (unit,))
        self._connection.execute("DELETE FROM units WHERE unit=?", (unit,))

    def count(self) -> int:
        with self._lock:
            return self._recovering(lambda: self._connection.execute("SELECT count(*) FROM passages").fetchone()[0],
                                    resync=True)

    def search(self, query: str, max_results: int, *, unit_weights: Mapping[str, float] | None = None,
               exact_bonus: float = 0.0, subject_bonus: float = 0.0) -> list[RawHit]:
        """Passages best first by BM25 (a title match counts double).

        ``unit_weights`` maps a unit-name prefix to a factor on its passages' scores (below 1 ranks that material
        lower without dropping it). ``exact_bonus`` re-ranks the best candidates by the share of query words they
        contain as written: the Porter stemmer makes "generator", "generic" and "general" one term, and this tells
        them apart again; ``subject_bonus`` (with it) also lifts a page whose title's subject the query names as a
        word ("zip" in "what does the zip function do?" for "Python built-in: zip", over zlib's page, which says
        "function" and "zip" too).
        """
        expression = fts_query(query)
        if not expression:
            return []
        weights = list((unit_weights or {}).items())
        # bm25() is negative, best lowest: scaling it towards zero demotes a passage
        factor = "".join(" WHEN substr(p.unit, 1, ?) = ? THEN ?" for _ in weights)
        score = "bm25(passages_fts, 2.0, 1.0)" + (f" * CASE{factor} ELSE 1.0 END" if weights else "")
        parameters = [value for prefix, weight in weights for value in (len(prefix), prefix, float(weight))]
        limit = max_results * EXACT_RERANK_POOL if exact_bonus else max_results
        with self._lock:
            rows = self._recovering(lambda: self._connection.execute(
                f"SELECT {score} AS score, p.doc_id, p.title, p.url, p.text FROM passages_fts "
                "JOIN passages p ON p.id = passages_fts.rowid WHERE passages_fts MATCH ? ORDER BY score LIMIT ?",
                (*parameters, expression, limit),
            ).fetchall(), resync=True)
        if exact_bonus:
            terms = unique(content_terms(query)) or unique(words(query))
            rows.sort(key=lambda row: row[0] * (1.0 + exact_bonus * exact_share(terms, f"{row[2]} {row[4]}"))
                      * (1.0 + subject_bonus * names_subject(query, row[2])))
        return [RawHit(doc_id=doc_id, title=title, url=url, body=text)
                for _, doc_id, title, url, text in rows[:max_results]]


def names_subject(query: str, title: str) -> bool:
    """Does the query name the title's subject (``page_subject``) as a whole word or dotted name?"""
    subject = page_subject(title)
    return bool(subject) and re.search(rf"(?<![\w.]){re.escape(subject)}(?![\w.])", query, re.IGNORECASE) is not None


def exact_share(terms: list[str], text: str) -> float:
    """Share of ``terms`` that occur in ``text`` as words, a plural ending allowed (not just the same stem)."""
    if not terms:
        return 0.0
    lowered = text.lower()
    found = sum(1 for term in terms if re.search(rf"\b{re.escape(term)}(?:s|es)?\b", lowered))
    return found / len(terms)


def read_jsonl(path: Path) -> Iterator[Passage]:
    """Passages of a JSONL corpus: one ``{doc_id, title, text}`` object a line (``id`` and ``url`` accepted too)."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not a JSON object ({exc.msg})") from None
            doc_id = str(record.get("doc_id") or record.get("id") or f"{path.stem}:{number}")
            text = str(record.get("text") or record.get("body") or "")
            title = str(record.get("title") or doc_id)
            yield from passages_of(doc_id, title, str(record.get("url") or ""), text)
