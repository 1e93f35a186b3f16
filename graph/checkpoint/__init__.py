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
- ``savers``: opening the store (the SQLite file or PostgreSQL) for the CLI and the server;
- ``runs``: which runs the store holds, their status and size, deleting one;
- ``locks``: the lock files that tell which runs a satiate process is working on;
- ``writer``: one writer per thread (``OneWriterGraph``);
- ``faults``: what the store's file reports (damaged, empty, read-only, a full disk) as one line naming the fix.
"""

from __future__ import annotations

from satiate.graph.checkpoint.faults import (
    checkpoint_fault,
)
from satiate.graph.checkpoint.locks import (
    RUN_LOCK_ATTEMPTS,
    RUN_LOCK_DIR,
    RUN_LOCK_RETRY_S,
    WRITER_LOCK_SUFFIX,
    RunInProgress,
    ThreadBusy,
    forget_run_lock,
    is_running,
    run_lock,
)
from satiate.graph.checkpoint.runs import (
    FINISHED_KEY,
    StoredThread,
    ThreadStorage,
    delete_thread,
    has_thread,
    is_finished,
    run_status,
    step_errors,
    stored_threads,
    thread_ids,
    thread_storage,
    vacuum,
)
from satiate.graph.checkpoint.savers import (
    CHECKPOINT_URL_ENV,
    SQLITE_BUSY_TIMEOUT_S,
    SQLITE_PRAGMAS,
    FileSqliteSaver,
    async_sqlite_checkpointer_at,
    checkpoint_path,
    checkpoint_url,
    open_async_checkpointer,
    open_checkpointer,
    sqlite_checkpointer,
    sqlite_checkpointer_at,
    sqlite_path_of,
    store_label,
)
from satiate.graph.checkpoint.writer import (
    POSTGRES_HOLDER,
    POSTGRES_KEEPALIVES,
    WRITER_KEY_PREFIX,
    OneWriterGraph,
    async_thread_writer,
    one_writer,
    thread_writer,
)

__all__ = [
    "CHECKPOINT_URL_ENV",
    "FINISHED_KEY",
    "FileSqliteSaver",
    "OneWriterGraph",
    "POSTGRES_HOLDER",
    "POSTGRES_KEEPALIVES",
    "RUN_LOCK_ATTEMPTS",
    "RUN_LOCK_DIR",
    "RUN_LOCK_RETRY_S",
    "RunInProgress",
    "SQLITE_BUSY_TIMEOUT_S",
    "SQLITE_PRAGMAS",
    "StoredThread",
    "ThreadBusy",
    "ThreadStorage",
    "WRITER_KEY_PREFIX",
    "WRITER_LOCK_SUFFIX",
    "async_sqlite_checkpointer_at",
    "async_thread_writer",
    "checkpoint_fault",
    "checkpoint_path",
    "checkpoint_url",
    "delete_thread",
    "forget_run_lock",
    "has_thread",
    "is_finished",
    "is_running",
    "one_writer",
    "open_async_checkpointer",
    "open_checkpointer",
    "run_lock",
    "run_status",
    "sqlite_checkpointer",
    "sqlite_checkpointer_at",
    "sqlite_path_of",
    "step_errors",
    "store_label",
    "stored_threads",
    "thread_ids",
    "thread_storage",
    "thread_writer",
    "vacuum",
]
