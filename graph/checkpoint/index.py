"""The run index: one row per thread of a SQLite checkpoint store, what ``satiate list`` shows of it, so listing
reads two small tables with ``sqlite3`` instead of building the graph to read every run's state.

The index is a cache and never the record: a row is used only while the thread's mark in the checkpoints (its newest
checkpoint ID, how many checkpoints and writes it has, the bytes of its writes) is the one the row was made from.
A thread written without the index (an older satiate, the LangGraph server, a run through the Python API) or moved on
since has no matching row, and is read the slow way and its row refreshed. A damaged index file is deleted and
built again; one that is locked or cannot be written is ignored. Either way no run goes missing from the list.

Only what the checkpoints decide is indexed: whether a run is running (a lock file) and what its checkpoints take
are read afresh each time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INDEX_SUFFIX = "-index"  # beside the store: checkpoints.sqlite-index, like SQLite's own -wal and -shm
INDEX_SCHEMA_VERSION = 1  # a file of another version is rebuilt
INDEX_BUSY_TIMEOUT_S = 0.5  # another process writing the index: wait this long, then list without it
_DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")  # what makes an index file worth deleting rather than ignoring

_MARKS = """
SELECT c.thread_id, c.last_id, t.checkpoints, t.checkpoint_bytes, coalesce(w.writes, 0), coalesce(w.write_bytes, 0)
FROM (SELECT thread_id, MAX(checkpoint_id) AS last_id FROM checkpoints WHERE checkpoint_ns = '' {where}
      GROUP BY thread_id) AS c
JOIN (SELECT thread_id, count(*) AS checkpoints, sum(length(checkpoint) + length(metadata)) AS checkpoint_bytes
      FROM checkpoints {where_all} GROUP BY thread_id) AS t ON t.thread_id = c.thread_id
LEFT JOIN (SELECT thread_id, count(*) AS writes, sum(length(value)) AS write_bytes FROM writes {where_all}
           GROUP BY thread_id) AS w ON w.thread_id = c.thread_id
"""


@dataclass(frozen=True)
class ThreadMark:
    """What the checkpoint store says of a thread right now, read without loading a checkpoint."""

    last_checkpoint_id: str
    checkpoints: int
    checkpoint_bytes: int
    writes: int
    write_bytes: int

    @property
    def fingerprint(self) -> str:
        """Changes whenever the thread's state or its last step's errors can have changed."""
        return f"{self.last_checkpoint_id}|{self.checkpoints}|{self.writes}|{self.write_bytes}"

    @property
    def stored_bytes(self) -> int:
        """What ``thread_storage`` reports as the thread's total: checkpoints with metadata, and task writes."""
        return self.checkpoint_bytes + self.write_bytes


def index_path(checkpoint_file: Path) -> Path:
    return checkpoint_file.with_name(checkpoint_file.name + INDEX_SUFFIX)


def read_marks(checkpoint_file: Path, thread_id: str | None = None) -> dict[str, ThreadMark]:
    """Every root thread's mark (or one thread's), read-only; raises sqlite3.Error for a store it cannot read, and
    the caller takes the slow way, which says what is wrong with the file."""
    connection = sqlite3.connect(f"{checkpoint_file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        parameters: tuple[str, ...] = ()
        if thread_id is None:
            query = _MARKS.format(where="", where_all="")
        else:
            query = _MARKS.format(where="AND thread_id = ?", where_all="WHERE thread_id = ?")
            parameters = (thread_id, thread_id, thread_id)
        rows = connection.execute(query, parameters).fetchall()
    finally:
        connection.close()
    return {row[0]: ThreadMark(row[1], row[2], row[3] or 0, row[4], row[5]) for row in rows}


class RunIndex:
    """The index file, or nothing when it cannot be used (locked, read-only): then every read finds no row and every
    write is skipped, and the list is made the slow way."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection = _open(path)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> RunIndex:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def rows(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """thread ID -> (the fingerprint its row was made from, the row)."""
        if self._connection is None:
            return {}
        try:
            found = self._connection.execute("SELECT thread_id, fingerprint, row FROM runs").fetchall()
        except sqlite3.Error:  # damaged under us or locked: no row is trusted, none is lost
            return {}
        rows = {}
        for thread_id, fingerprint, text in found:
            try:
                rows[thread_id] = (fingerprint, json.loads(text))
            except ValueError:  # a row mangled in the file: read that thread the slow way
                continue
        return rows

    def remember(self, thread_id: str, fingerprint: str, row: dict[str, Any]) -> None:
        """Store a thread's row; skipped quietly when the index cannot be written (it is only a cache)."""
        if self._connection is None:
            return
        try:
            with self._connection:
                self._connection.execute(
                    "INSERT OR REPLACE INTO runs (thread_id, fingerprint, question, status, started, updated, row) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (thread_id, fingerprint, str(row.get("question", "")), str(row.get("settled_status", "")),
                     str(row.get("started", "")), str(row.get("updated", "")), json.dumps(row, ensure_ascii=False)))
        except sqlite3.Error:
            pass

    def forget(self, thread_ids: Iterable[str]) -> None:
        """Drop deleted threads' rows (a row whose thread is gone is never shown, but need not be kept)."""
        if self._connection is None:
            return
        try:
            with self._connection:
                self._connection.executemany("DELETE FROM runs WHERE thread_id = ?", [(t,) for t in thread_ids])
        except sqlite3.Error:
            pass


def _open(path: Path) -> sqlite3.Connection | None:
    """The index, its table made; a damaged file (or one of another version) deleted and made again; None when it
    cannot be used now (locked by a writer, a read-only folder)."""
    for attempt in range(2):
        connection = None
        try:
            connection = sqlite3.connect(path, timeout=INDEX_BUSY_TIMEOUT_S, check_same_thread=False)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, INDEX_SCHEMA_VERSION):
                raise sqlite3.DatabaseError("an index of another version")
            if version == 0:  # a new file: made once, so that reading it later writes nothing
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS runs (thread_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
                    "question TEXT, status TEXT, started TEXT, updated TEXT, row TEXT NOT NULL)")
                connection.execute(f"PRAGMA user_version = {INDEX_SCHEMA_VERSION}")
                connection.commit()
            connection.execute("SELECT count(*) FROM runs").fetchone()
            return connection
        except sqlite3.Error as exc:
            if connection is not None:
                connection.close()
            damaged = getattr(exc, "sqlite_errorname", None) in _DAMAGE or type(exc) is sqlite3.DatabaseError
            if not damaged or attempt:
                return None
            _remove(path)
        except OSError:
            return None
    return None


def _remove(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + "-journal")):
        try:
            leftover.unlink(missing_ok=True)
        except OSError:
            return
