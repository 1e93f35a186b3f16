"""Checkpoint storage: every run is saved after each step under its thread ID, so it can be resumed or shown."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver


def checkpoint_path(data_dir: Path) -> Path:
    return Path(data_dir) / "checkpoints.sqlite"


@contextmanager
def sqlite_checkpointer(data_dir: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on ``<data_dir>/checkpoints.sqlite`` (WAL, so a reader never blocks a running writer)."""
    path = checkpoint_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, check_same_thread=False, timeout=30)
    connection.execute("PRAGMA journal_mode=WAL")
    try:
        saver = SqliteSaver(connection)
        saver.setup()
        yield saver
    finally:
        connection.close()


def thread_ids(saver: SqliteSaver) -> list[str]:
    """Thread IDs with at least one checkpoint, most recently updated first."""
    seen: dict[str, None] = {}
    for checkpoint in saver.list(None):
        seen.setdefault(checkpoint.config["configurable"]["thread_id"], None)
    return list(seen)
