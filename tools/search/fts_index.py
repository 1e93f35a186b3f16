"""A passage index in one SQLite file, searched with FTS5 and ranked by BM25.

Documents arrive in *units* (a file, a JSONL file, an installed distribution); each unit has a signature, and a
re-sync re-reads only the units whose signature changed, so re-indexing a large folder after one edit is cheap.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from satiate.engine.text import content_terms, unique, words
from satiate.tools.search.base import RawHit

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


class FtsIndex:
    """The index file; safe to share between threads of one process and between processes (SQLite locking)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(path, check_same_thread=False, timeout=60)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.executescript(SCHEMA)

    def close(self) -> None:
        self._connection.close()

    def sync(self, units: dict[str, tuple[str, Callable[[], Iterable[Passage]]]]) -> int:
        """Bring the index in line with ``units`` (unit -> (signature, loader)); returns how many units were re-read."""
        with self._lock:
            connection = self._connection
            stored = dict(connection.execute("SELECT unit, signature FROM units"))
            changed = [u for u, (sig, _) in units.items() if stored.get(u) != sig]
            removed = [u for u in stored if u not in units]
            if not changed and not removed:
                return 0
            connection.execute("BEGIN IMMEDIATE")
            try:
                for unit in removed + changed:
                    self._delete_unit(unit)
                for unit in changed:
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
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            return len(changed) + len(removed)

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
            return self._connection.execute("SELECT count(*) FROM passages").fetchone()[0]

    def search(self, query: str, max_results: int) -> list[RawHit]:
        expression = fts_query(query)
        if not expression:
            return []
        with self._lock:
            rows = self._connection.execute(
                "SELECT p.doc_id, p.title, p.url, p.text FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid "
                "WHERE passages_fts MATCH ? ORDER BY bm25(passages_fts, 2.0, 1.0) LIMIT ?",
                (expression, max_results),
            ).fetchall()
        return [RawHit(doc_id=doc_id, title=title, url=url, body=text) for doc_id, title, url, text in rows]


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
