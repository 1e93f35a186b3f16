"""Checkpoint storage: every run is saved after each step under its thread ID, so it can be resumed or shown.

The store is chosen by URL (``SATIATE_CHECKPOINT_URL``): by default the SQLite file ``<data_dir>/checkpoints.sqlite``,
or ``postgresql://...`` for many workers on many machines. The CLI opens it with ``open_checkpointer`` and the
LangGraph server with ``open_async_checkpointer`` (see ``graph/server.py``), so both see the same threads.

A run is finished when ``finalize`` has written its ``result``, and only then. An empty ``next`` does not say so: a
process killed after a step's writes were saved but before the next checkpoint leaves a snapshot with nothing "next"
although the run has steps left (``stream(None, config)`` applies the saved writes and carries on).

What a checkpoint costs (``python -m bench.overhead``): the state holds references (source texts live once in the
store, the logs are LangGraph DeltaChannels that checkpoint only each step's writes), so a checkpoint is a few KB
and a 60-step run under 1 MB. The serde is LangGraph's default (msgpack: the records are plain JSON values, no
pickle). SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit is safe from a killed process, and only an
OS crash or power cut can take back the last steps, which a resume runs again; FULL would fsync every write (2-6 ms
each here, several a step). Durability: ``satiate run``/``resume`` use "sync" (each step saved before the next
starts, about 1 ms a step), so a kill loses at most the step in flight; the LangGraph server chooses its own (the
API's ``durability``, "async" by default, the write overlapping the next step); a graph run as a subgraph inherits
its parent's. "exit" would save nothing until the run ends: no resume after a crash.

A thread has one writer at a time: every run of the compiled graph holds the thread's writer lock while it runs, and
a second one is refused with ThreadBusy (see "one writer per thread" below). What SQLite reports about the file itself
(damaged, read-only, a full disk) is a StorageError naming the file and the fix; a store that cannot be written can
still be read (``satiate list``, ``satiate show``).

The package, one module a job:
- ``location``: where the store is (the URL, the SQLite file), without LangGraph or the settings model;
- ``savers``: opening the store (the SQLite file or PostgreSQL) for the CLI and the server;
- ``runs``: which runs the store holds, their status and size, deleting one;
- ``locks``: the lock files that tell which runs a satiate process is working on;
- ``writer``: one writer per thread (``OneWriterGraph``);
- ``faults``: what the store's file reports (damaged, empty, read-only, a full disk) as one line naming the fix;
- ``index``: the run index beside the SQLite file, so ``satiate list`` reads a run's row without LangGraph.

Names are loaded on first use (``locks`` and ``location`` need no LangGraph; ``savers``, ``runs`` and ``writer``
do), so a quick command that only probes a lock file or finds the store stays quick.
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> the submodule that defines it
_EXPORTS = {
    "checkpoint_fault": "faults",
    "CHECKPOINT_URL_ENV": "location",
    "checkpoint_path": "location",
    "checkpoint_url_in": "location",
    "sqlite_path_of": "location",
    "RUN_LOCK_ATTEMPTS": "locks",
    "RUN_LOCK_DIR": "locks",
    "RUN_LOCK_RETRY_S": "locks",
    "RunInProgress": "locks",
    "ThreadBusy": "locks",
    "WRITER_LOCK_SUFFIX": "locks",
    "forget_run_lock": "locks",
    "is_running": "locks",
    "run_lock": "locks",
    "FINISHED_KEY": "runs",
    "StoredThread": "runs",
    "ThreadStorage": "runs",
    "delete_thread": "runs",
    "has_thread": "runs",
    "is_finished": "runs",
    "run_status": "runs",
    "step_errors": "runs",
    "stored_thread": "runs",
    "stored_threads": "runs",
    "thread_ids": "runs",
    "thread_storage": "runs",
    "vacuum": "runs",
    "FileSqliteSaver": "savers",
    "SQLITE_BUSY_TIMEOUT_S": "savers",
    "SQLITE_PRAGMAS": "savers",
    "async_sqlite_checkpointer_at": "savers",
    "checkpoint_url": "savers",
    "open_async_checkpointer": "savers",
    "open_checkpointer": "savers",
    "sqlite_checkpointer": "savers",
    "sqlite_checkpointer_at": "savers",
    "store_label": "savers",
    "OneWriterGraph": "writer",
    "POSTGRES_HOLDER": "writer",
    "POSTGRES_KEEPALIVES": "writer",
    "WRITER_KEY_PREFIX": "writer",
    "async_thread_writer": "writer",
    "one_writer": "writer",
    "thread_writer": "writer",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Load a name's submodule the first time the name is used (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value
