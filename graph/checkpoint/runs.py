"""Runs in the store: which threads it holds, whether each finished, failed or was interrupted, what each
takes, and deleting one.

A run is finished when ``finalize`` has written its ``result``, and only then. An empty ``next`` does not say so: a
process killed after a step's writes were saved but before the next checkpoint leaves a snapshot with nothing "next"
although the run has steps left.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from satiate.graph.checkpoint.faults import checkpoint_fault
from satiate.graph.checkpoint.locks import writer_lock_path
from satiate.graph.checkpoint.writer import saver_kind, sqlite_database, thread_writer

FINISHED_KEY = "result"  # written by finalize, the graph's last node


def is_finished(values: Mapping[str, Any]) -> bool:
    """Has the run ended? Only ``finalize`` writes ``result``; an empty ``next`` can also mean "killed mid-way"."""
    return FINISHED_KEY in values


def _is_interruption(error: Any) -> bool:
    # LangGraph stores a task's error as its repr when it cannot keep the exception: match both forms
    if isinstance(error, (KeyboardInterrupt, asyncio.CancelledError)):
        return True
    return isinstance(error, str) and error.startswith(("KeyboardInterrupt(", "CancelledError("))


def step_errors(snapshot: Any) -> list[Any]:
    """The errors the last step's tasks raised and LangGraph stored, Ctrl-C and cancellation left out."""
    return [task.error for task in snapshot.tasks if task.error is not None and not _is_interruption(task.error)]


def run_status(snapshot: Any, running: bool = False) -> str:
    """finished (``result`` written) / running (a satiate process holds the thread's run lock) / failed (a task of
    the last step raised and LangGraph stored the error) / interrupted (anything else: Ctrl-C, a kill, a full disk).
    """
    if is_finished(snapshot.values):
        return "finished"
    if running:
        return "running"
    if step_errors(snapshot):
        return "failed"
    return "interrupted"


@dataclass(frozen=True)
class StoredThread:
    """A thread in the store: when its first and its last checkpoint were written."""

    thread_id: str
    started: datetime
    updated: datetime


def _checkpoint_time(checkpoint: Mapping[str, Any]) -> datetime:
    return datetime.fromisoformat(checkpoint["ts"])


def stored_threads(saver: Any) -> list[StoredThread]:
    """Every thread of the root graph with a checkpoint, the most recently started first."""
    if isinstance(saver, SqliteSaver):
        found = _sqlite_threads(saver)
    else:  # any other saver (PostgreSQL): one pass over its checkpoints, newest first
        first: dict[str, datetime] = {}
        last: dict[str, datetime] = {}
        for item in saver.list(None):
            if item.config["configurable"].get("checkpoint_ns", ""):
                continue
            thread_id = item.config["configurable"]["thread_id"]
            first[thread_id] = _checkpoint_time(item.checkpoint)
            last.setdefault(thread_id, first[thread_id])
        found = [StoredThread(thread_id, first[thread_id], last[thread_id]) for thread_id in first]
    return sorted(found, key=lambda thread: thread.started, reverse=True)


def stored_thread(saver: Any, thread_id: str) -> StoredThread | None:
    """One thread of the root graph, if it has a checkpoint (on SQLite without a pass over the other threads)."""
    if isinstance(saver, SqliteSaver):
        found = _sqlite_threads(saver, thread_id)
        return found[0] if found else None
    return next((thread for thread in stored_threads(saver) if thread.thread_id == thread_id), None)


def _sqlite_threads(saver: SqliteSaver, thread_id: str | None = None) -> list[StoredThread]:
    # Checkpoint IDs sort by time, so the first and last are found without loading any checkpoint but those two.
    one = "" if thread_id is None else "AND thread_id = ? "
    with saver.cursor(transaction=False) as cursor:
        rows = cursor.execute("SELECT thread_id, MIN(checkpoint_id), MAX(checkpoint_id) FROM checkpoints "
                              f"WHERE checkpoint_ns = '' {one}GROUP BY thread_id",
                              () if thread_id is None else (thread_id,)).fetchall()
    found = []
    for thread_id, first_id, last_id in rows:
        times = []
        for checkpoint_id in (first_id, last_id):
            item = saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": "",
                                                     "checkpoint_id": checkpoint_id}})
            if item is not None:  # pruned between the two reads: the thread is listed by what is left
                times.append(_checkpoint_time(item.checkpoint))
        if times:
            found.append(StoredThread(thread_id, times[0], times[-1]))
    return found


def thread_ids(saver: Any) -> list[str]:
    """Thread IDs with at least one checkpoint, the most recently started first."""
    return [thread.thread_id for thread in stored_threads(saver)]


def has_thread(saver: Any, thread_id: str) -> bool:
    return saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}) is not None


def delete_thread(saver: Any, thread_id: str) -> None:
    """Remove every checkpoint and pending write of the thread (its subgraphs' too), through the saver's own API,
    never while a run writes it (ThreadBusy)."""
    with thread_writer(saver, thread_id):
        saver.delete_thread(thread_id)
        database = sqlite_database(saver)
        if database is not None:  # the thread's writer lock file goes with it (removed while held)
            writer_lock_path(database, thread_id).unlink(missing_ok=True)


@dataclass(frozen=True)
class ThreadStorage:
    """What a thread's checkpoints take in the store: the checkpoints (with metadata and, on PostgreSQL, the channel
    blobs they point to) and the writes of its tasks, subgraphs included."""

    checkpoints: int
    checkpoint_bytes: int
    write_bytes: int
    largest_checkpoint: int

    @property
    def total_bytes(self) -> int:
        return self.checkpoint_bytes + self.write_bytes


_SQLITE_STORAGE = ("SELECT count(*), coalesce(sum(length(checkpoint) + length(metadata)), 0), "
                   "coalesce(max(length(checkpoint) + length(metadata)), 0) FROM checkpoints WHERE thread_id = ?",
                   "SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?")
_POSTGRES_STORAGE = ("SELECT count(*) AS n, coalesce(sum(pg_column_size(checkpoint) + pg_column_size(metadata)), 0) "
                     "AS bytes, coalesce(max(pg_column_size(checkpoint) + pg_column_size(metadata)), 0) AS largest "
                     "FROM checkpoints WHERE thread_id = %s",
                     "SELECT coalesce(sum(octet_length(blob)), 0) AS bytes FROM checkpoint_writes WHERE thread_id = %s",
                     "SELECT coalesce(sum(octet_length(blob)), 0) AS bytes FROM checkpoint_blobs WHERE thread_id = %s")


def thread_storage(saver: Any, thread_id: str) -> ThreadStorage | None:
    """Bytes a thread takes in a SQLite or PostgreSQL store (measured by the database); None for any other saver."""
    kind = saver_kind(saver)
    if kind == "sqlite" and isinstance(saver.conn, sqlite3.Connection):
        with saver.cursor(transaction=False) as cursor:
            count, stored, largest = cursor.execute(_SQLITE_STORAGE[0], (thread_id,)).fetchone()
            writes = cursor.execute(_SQLITE_STORAGE[1], (thread_id,)).fetchone()[0]
        return ThreadStorage(count, stored, writes, largest)
    if kind == "postgres" and hasattr(saver, "_cursor"):
        with saver._cursor() as cursor:
            head = cursor.execute(_POSTGRES_STORAGE[0], (thread_id,)).fetchone()
            writes = cursor.execute(_POSTGRES_STORAGE[1], (thread_id,)).fetchone()["bytes"]
            blobs = cursor.execute(_POSTGRES_STORAGE[2], (thread_id,)).fetchone()["bytes"]
        return ThreadStorage(head["n"], int(head["bytes"]) + int(blobs), int(writes), int(head["largest"]))
    return None


def vacuum(saver: Any) -> bool:
    """Give the space of deleted runs back to the file system (SQLite only; PostgreSQL's autovacuum does this)."""
    if not isinstance(saver, SqliteSaver):
        return False
    with saver.lock:
        saver.conn.commit()  # VACUUM cannot run inside a transaction
        try:
            saver.conn.execute("VACUUM")
        except sqlite3.OperationalError as exc:  # VACUUM needs room for a full copy of the file
            raise checkpoint_fault(getattr(saver, "path", Path("checkpoints.sqlite")), exc) from None
    return True
