"""Lock files: which runs a satiate process is working on (one OS file lock per thread).

Taking a lock writes the holder's process ID; a full disk or a read-only folder while doing so is a StorageError
naming the file, never a traceback.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from satiate.graph.checkpoint.location import checkpoint_path

# --- which runs a process is working on ------------------------------------------------------------------------------
# A checkpoint cannot tell "running" from "killed": both look like a run with steps left. So a satiate process holds
# an OS file lock per thread while it runs or resumes it. The OS drops the lock when the process dies, however it
# dies, so a lock that can be taken means nobody is running that thread. This sees satiate CLI processes that share
# the data directory, and runs of the graph through the Python API on the default SQLite store (their writer lock,
# below); a run driven by the LangGraph server or on another machine sharing a PostgreSQL store is shown as
# "interrupted" while it runs.
RUN_LOCK_DIR = "running"
RUN_LOCK_ATTEMPTS = 10  # a `satiate list` probing the lock holds it for microseconds: retry a little first
RUN_LOCK_RETRY_S = 0.02

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no run locks, so no run is ever shown as running
    fcntl = None  # type: ignore[assignment]


class RunInProgress(RuntimeError):
    """Another process is running this thread; the message says which."""


class ThreadBusy(RunInProgress):
    """Another run is writing this thread's checkpoints: a thread has one writer at a time."""


def _lock_file_name(thread_id: str) -> str:
    return hashlib.sha256(thread_id.encode("utf-8")).hexdigest()[:32] + ".lock"  # any thread ID, a safe file name


def _lock_path(data_dir: Path, thread_id: str) -> Path:
    return Path(data_dir) / RUN_LOCK_DIR / _lock_file_name(thread_id)


def _try_lock(handle: Any) -> bool:
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _lock_fault(path: Path, error: OSError) -> Exception:
    from satiate.tools.store import storage_fault  # the store module loads SQLAlchemy: only once a lock failed

    return storage_fault(path, error, damaged="")


def take_lock_file(path: Path) -> Any | None:
    """The open, flock-ed lock file with this process's ID written in it, or None when another holder has it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")
    except OSError as exc:
        raise _lock_fault(path, exc) from None
    if not _try_lock(handle):
        handle.close()
        return None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
    except OSError as exc:  # a disk full (or remounted read-only) before the run starts: nothing was written yet
        release_lock_file(handle)
        raise _lock_fault(path, exc) from None
    return handle


def release_lock_file(handle: Any) -> None:
    try:
        handle.truncate(0)
    except OSError:  # a full disk or a read-only remount must not keep the lock
        pass
    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    try:
        handle.close()
    except OSError:  # what a full disk kept in the buffer is lost with it: the file's content is only a hint
        pass


def lock_holder(path: Path) -> str:
    try:
        holder = path.read_text(encoding="utf-8").strip()
    except OSError:
        return "another process"
    if holder == str(os.getpid()):
        return "another call in this process"
    return f"pid {holder}" if holder else "another process"


@contextmanager
def run_lock(data_dir: Path, thread_id: str) -> Iterator[None]:
    """Hold the thread's run lock while the block runs; RunInProgress when another process holds it."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    path = _lock_path(data_dir, thread_id)
    for _attempt in range(RUN_LOCK_ATTEMPTS):
        handle = take_lock_file(path)
        if handle is not None:
            break
        time.sleep(RUN_LOCK_RETRY_S)
    else:
        raise RunInProgress(f"thread {thread_id} is being run by another satiate process ({lock_holder(path)}); "
                            "wait for it to end or stop it first")
    try:
        yield
    finally:
        release_lock_file(handle)


def is_running(data_dir: Path, thread_id: str) -> bool:
    """Does a satiate process hold the thread's run lock, or a run through the API the default store's writer
    lock, right now?"""
    if fcntl is None:
        return False
    for path in (_lock_path(data_dir, thread_id), writer_lock_path(checkpoint_path(data_dir), thread_id)):
        try:
            handle = open(path, encoding="utf-8")  # never created here: a store may be read-only
        except OSError:
            continue
        with handle:
            if not _try_lock(handle):
                return True
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return False


def forget_run_lock(data_dir: Path, thread_id: str) -> None:
    """Remove a deleted thread's lock file (called while holding its lock)."""
    _lock_path(data_dir, thread_id).unlink(missing_ok=True)


WRITER_LOCK_SUFFIX = "-writers"


def writer_lock_path(database: Path, thread_id: str) -> Path:
    return database.with_name(database.name + WRITER_LOCK_SUFFIX) / _lock_file_name(thread_id)
