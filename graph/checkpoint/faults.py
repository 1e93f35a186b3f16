"""Storage faults of the checkpoint store: one line naming the file and the fix."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from satiate.tools.store import StorageError, storage_fault


def checkpoint_fault(path: Path, error: BaseException) -> StorageError:
    """A StorageError for the SQLite checkpoint file: damaged, read-only, a full disk, cannot be opened."""
    return storage_fault(
        path, error,
        damaged=f"move it aside to start an empty store (mv {path} {path}.damaged), after salvaging what its runs "
        f"hold if you need them: sqlite3 {path}.damaged .recover | sqlite3 {path}",
        read_only="its runs can still be listed and shown; to run, resume or delete one, make it writable or use "
        "another data directory (--data-dir)",
    )


def is_store_error(error: BaseException) -> bool:
    # what SQLite raises for the file's condition (damaged, full, read-only, locked too long), not for a bad query
    return isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError
