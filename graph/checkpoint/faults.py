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


def is_emptied(path: Path) -> bool:
    """A checkpoint file of 0 bytes (and no WAL holding its pages) was emptied by something else: satiate writes the
    header the moment it creates one. SQLite would read it as a new, empty store and a run would write into it."""
    try:
        if path.stat().st_size != 0:
            return False
        wal = path.with_name(path.name + "-wal")
        return not wal.exists() or wal.stat().st_size == 0
    except OSError:  # missing (a new store) or unreadable (SQLite says why when it opens it)
        return False


def emptied_fault(path: Path) -> StorageError:
    return StorageError(f"{path} is empty (0 bytes): whatever runs it held are lost, and it is refused rather than "
                        f"read as a store with no runs; remove it to start an empty store (rm {path}), or restore it "
                        "from a backup", "damaged")


def is_store_error(error: BaseException) -> bool:
    # what SQLite raises for the file's condition (damaged, full, read-only, locked too long), not for a bad query
    return isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError
