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
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph.state import CompiledStateGraph

from satiate.state.settings import Settings, SettingsError
from satiate.tools.store import StorageError, fault_kind, storage_fault

try:  # the key LangGraph sets in the config of a graph run as a task of another graph
    from langgraph._internal._constants import CONFIG_KEY_TASK_ID
except ImportError:  # pragma: no cover - a LangGraph that moved it
    CONFIG_KEY_TASK_ID = "__pregel_task_id"

# Deliberately an environment variable rather than a per-run setting: the store must be known before any run's
# settings are (resume, show, list), a per-run value could not move the server's store anyway, and a URL may carry
# a password that must not be copied into every checkpoint's stored settings.
CHECKPOINT_URL_ENV = "SATIATE_CHECKPOINT_URL"
SQLITE_BUSY_TIMEOUT_S = 30.0  # a CLI run and the server may write the same file; wait for the other writer


def checkpoint_path(data_dir: Path) -> Path:
    return Path(data_dir) / "checkpoints.sqlite"


@contextmanager
def sqlite_checkpointer(data_dir: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on ``<data_dir>/checkpoints.sqlite``."""
    with sqlite_checkpointer_at(checkpoint_path(data_dir)) as saver:
        yield saver


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


def _sqlite_threads(saver: SqliteSaver) -> list[StoredThread]:
    # Checkpoint IDs sort by time, so the first and last are found without loading any checkpoint but those two.
    with saver.cursor(transaction=False) as cursor:
        rows = cursor.execute("SELECT thread_id, MIN(checkpoint_id), MAX(checkpoint_id) FROM checkpoints "
                              "WHERE checkpoint_ns = '' GROUP BY thread_id").fetchall()
    found = []
    for thread_id, first_id, last_id in rows:
        times = []
        for checkpoint_id in (first_id, last_id):
            item = saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": "",
                                                     "checkpoint_id": checkpoint_id}})
            times.append(_checkpoint_time(item.checkpoint))
        found.append(StoredThread(thread_id, times[0], times[1]))
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
        database = _sqlite_database(saver)
        if database is not None:  # the thread's writer lock file goes with it (removed while held)
            _writer_lock_path(database, thread_id).unlink(missing_ok=True)


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
    kind = _saver_kind(saver)
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
    fcntl = None


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


def _take_lock_file(path: Path) -> Any | None:
    """The open, flock-ed lock file with this process's ID written in it, or None when another holder has it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")
    except OSError as exc:
        raise storage_fault(path, exc, damaged="") from None
    if not _try_lock(handle):
        handle.close()
        return None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def _release_lock_file(handle: Any) -> None:
    try:
        handle.truncate(0)
    except OSError:  # a full disk or a read-only remount must not keep the lock
        pass
    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    handle.close()


def _lock_holder(path: Path) -> str:
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
        handle = _take_lock_file(path)
        if handle is not None:
            break
        time.sleep(RUN_LOCK_RETRY_S)
    else:
        raise RunInProgress(f"thread {thread_id} is being run by another satiate process ({_lock_holder(path)}); "
                            "wait for it to end or stop it first")
    try:
        yield
    finally:
        _release_lock_file(handle)


def is_running(data_dir: Path, thread_id: str) -> bool:
    """Does a satiate process hold the thread's run lock, or a run through the API the default store's writer
    lock, right now?"""
    if fcntl is None:
        return False
    for path in (_lock_path(data_dir, thread_id), _writer_lock_path(checkpoint_path(data_dir), thread_id)):
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


# --- one writer per thread --------------------------------------------------------------------------------------------
# Two runs of one thread at once (two processes, or two calls in one process) would interleave their checkpoints and
# one answer would be silently lost. So every run of the graph (stream and astream, hence invoke and ainvoke, and
# update_state) holds the thread's writer lock while it runs, taken once as it starts, and a second run is refused
# with ThreadBusy:
#   SQLite      an OS file lock in ``<file>-writers/`` beside the database file (flock: two calls in one process
#               conflict too, each opening the file for itself);
#   PostgreSQL  a session advisory lock (pg_try_advisory_lock) on a connection of the run's own;
#   in memory   a lock in this process.
# The OS or the server drops the lock with the process or its connection, however it ends, so a killed run never
# blocks its resume; no checkpoint write pays for it.
WRITER_LOCK_SUFFIX = "-writers"
WRITER_KEY_PREFIX = b"satiate-thread-writer\0"
# A PostgreSQL session whose client vanished without closing it (a machine lost, a network cut) keeps its locks until
# the server notices: these keepalives make it notice within a minute (ignored on Unix sockets).
POSTGRES_KEEPALIVES = {"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10", "tcp_keepalives_count": "3"}
POSTGRES_HOLDER = "another session of the PostgreSQL store (another process, or another call in this one)"
_LOCAL_WRITERS: set[tuple[int, str]] = set()
_LOCAL_WRITERS_LOCK = threading.Lock()


def _writer_lock_path(database: Path, thread_id: str) -> Path:
    return database.with_name(database.name + WRITER_LOCK_SUFFIX) / _lock_file_name(thread_id)


def _busy(thread_id: str, holder: str) -> ThreadBusy:
    return ThreadBusy(f"thread {thread_id} is being run by {holder}: a thread has one writer at a time; wait for "
                      f"that run to end (or stop it), then resume it")


def _postgres_key(thread_id: str) -> int:
    """The advisory lock key of a thread: 64 bits of a hash, so any thread ID maps to one lock."""
    digest = hashlib.sha256(WRITER_KEY_PREFIX + thread_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _saver_kind(saver: Any) -> str:
    for cls in type(saver).__mro__:  # a subclass (FileSqliteSaver) is what its base is
        if cls.__module__.startswith("langgraph.checkpoint.sqlite"):
            return "sqlite"
        if cls.__module__.startswith("langgraph.checkpoint.postgres"):
            return "postgres"
    return "local"


def _sqlite_file(rows: list[Any]) -> Path | None:
    """The main database's file from ``PRAGMA database_list``; None for an in-memory database."""
    for _seq, name, file in rows:
        if name == "main" and file:
            return Path(file).resolve()
    return None


def _sqlite_database(saver: Any) -> Path | None:
    """The file of a (sync) SQLite saver; None for any other saver or an in-memory database."""
    if _saver_kind(saver) != "sqlite" or not isinstance(saver.conn, sqlite3.Connection):
        return None
    with saver.lock:
        return _sqlite_file(saver.conn.execute("PRAGMA database_list").fetchall())


def _postgres_connect_args(saver: Any) -> tuple[str, dict[str, Any]]:
    """How to open one more connection to the saver's database: its pool's, or its connection's parameters."""
    from psycopg.rows import tuple_row

    conn = saver.conn
    if hasattr(conn, "conninfo"):  # a connection pool
        conninfo, kwargs = conn.conninfo, dict(getattr(conn, "kwargs", None) or {})
    else:  # one connection: its DSN leaves the password out
        conninfo = conn.info.dsn
        kwargs = {"password": conn.info.password} if conn.info.password else {}
    kwargs.update(autocommit=True, row_factory=tuple_row, prepare_threshold=None)
    return conninfo, kwargs


_POSTGRES_TAKE = ("SELECT " + ", ".join(f"set_config('{name}', '{value}', false)"
                                        for name, value in POSTGRES_KEEPALIVES.items())
                  + ", pg_try_advisory_lock(%s)")


@contextmanager
def _local_writer(saver: Any, thread_id: str) -> Iterator[None]:
    key = (id(getattr(saver, "storage", None) or saver), thread_id)  # a saver's shallow copies share its storage
    with _LOCAL_WRITERS_LOCK:
        if key in _LOCAL_WRITERS:
            raise _busy(thread_id, "another call in this process")
        _LOCAL_WRITERS.add(key)
    try:
        yield
    finally:
        with _LOCAL_WRITERS_LOCK:
            _LOCAL_WRITERS.discard(key)


@contextmanager
def _file_writer(database: Path, thread_id: str) -> Iterator[None]:
    path = _writer_lock_path(database, thread_id)
    for _attempt in range(RUN_LOCK_ATTEMPTS):
        handle = _take_lock_file(path)
        if handle is not None:
            break
        time.sleep(RUN_LOCK_RETRY_S)  # `satiate list` may be probing it
    else:
        raise _busy(thread_id, _lock_holder(path))
    try:
        yield
    finally:
        _release_lock_file(handle)


@contextmanager
def thread_writer(saver: Any, thread_id: str) -> Iterator[None]:
    """Hold the thread's writer lock in the saver's store while the block runs; ThreadBusy when another run has it."""
    kind = _saver_kind(saver)
    if kind == "sqlite" and fcntl is not None:
        database = _sqlite_database(saver)
        if database is not None:
            with _file_writer(database, thread_id):
                yield
            return
    elif kind == "postgres":
        import psycopg

        conninfo, kwargs = _postgres_connect_args(saver)
        with psycopg.connect(conninfo, **kwargs) as connection:
            for _attempt in range(RUN_LOCK_ATTEMPTS):  # a just-killed owner's session may take a moment to end
                if connection.execute(_POSTGRES_TAKE, (_postgres_key(thread_id),)).fetchone()[-1]:
                    break
                time.sleep(RUN_LOCK_RETRY_S)
            else:
                raise _busy(thread_id, POSTGRES_HOLDER)
            yield  # closing the connection ends the session, and with it the lock
        return
    with _local_writer(saver, thread_id):
        yield


@asynccontextmanager
async def async_thread_writer(saver: Any, thread_id: str) -> AsyncIterator[None]:
    """``thread_writer`` for async savers, on the event loop (the LangGraph server, ``ainvoke``)."""
    kind = _saver_kind(saver)
    if kind == "sqlite" and fcntl is not None and hasattr(saver.conn, "__aenter__"):  # aiosqlite
        async with saver.conn.execute("PRAGMA database_list") as cursor:
            database = _sqlite_file(list(await cursor.fetchall()))
        if database is not None:
            path = _writer_lock_path(database, thread_id)
            for _attempt in range(RUN_LOCK_ATTEMPTS):
                handle = await asyncio.to_thread(_take_lock_file, path)
                if handle is not None:
                    break
                await asyncio.sleep(RUN_LOCK_RETRY_S)
            else:
                raise _busy(thread_id, _lock_holder(path))
            try:
                yield
            finally:
                _release_lock_file(handle)
            return
    elif kind == "sqlite" and fcntl is not None:  # a sync SqliteSaver under an async caller
        with thread_writer(saver, thread_id):
            yield
        return
    elif kind == "postgres":
        import psycopg

        conninfo, kwargs = _postgres_connect_args(saver)
        async with await psycopg.AsyncConnection.connect(conninfo, **kwargs) as connection:
            for _attempt in range(RUN_LOCK_ATTEMPTS):
                if (await (await connection.execute(_POSTGRES_TAKE, (_postgres_key(thread_id),))).fetchone())[-1]:
                    break
                await asyncio.sleep(RUN_LOCK_RETRY_S)
            else:
                raise _busy(thread_id, POSTGRES_HOLDER)
            yield
        return
    with _local_writer(saver, thread_id):
        yield


def _writer_target(graph: Any, config: Mapping[str, Any] | None) -> tuple[Any, str] | None:
    """The saver and thread a run of ``graph`` with ``config`` writes, or None when it needs no writer lock: no
    checkpointer, no thread ID, or the graph runs as a subgraph of a run that holds the lock."""
    configurable = (config or {}).get("configurable") or {}
    if CONFIG_KEY_TASK_ID in configurable or configurable.get("checkpoint_ns"):
        return None
    saver = configurable.get(CONFIG_KEY_CHECKPOINTER) or graph.checkpointer
    thread_id = configurable.get("thread_id")
    if not isinstance(saver, BaseCheckpointSaver) or thread_id is None:
        return None
    return saver, str(thread_id)


class OneWriterGraph(CompiledStateGraph):
    """The compiled research graph, each run holding its thread's writer lock (``thread_writer``).

    ``invoke``/``ainvoke``/``batch`` go through ``stream``/``astream``, and ``update_state`` through
    ``bulk_update_state``, so these four cover every way in. ``copy`` (the LangGraph server attaching its
    checkpointer) keeps the class.
    """

    def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Iterator[Any]:
        target = _writer_target(self, config)
        if target is None:
            yield from super().stream(input, config, **kwargs)
            return
        with thread_writer(*target):
            yield from super().stream(input, config, **kwargs)

    async def astream(self, input: Any, config: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
        target = _writer_target(self, config)
        if target is None:
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk
            return
        async with async_thread_writer(*target):
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk

    def bulk_update_state(self, config: Any, supersteps: Any) -> Any:
        target = _writer_target(self, config)
        if target is None:
            return super().bulk_update_state(config, supersteps)
        with thread_writer(*target):
            return super().bulk_update_state(config, supersteps)

    async def abulk_update_state(self, config: Any, supersteps: Any) -> Any:
        target = _writer_target(self, config)
        if target is None:
            return await super().abulk_update_state(config, supersteps)
        async with async_thread_writer(*target):
            return await super().abulk_update_state(config, supersteps)


def one_writer(compiled: CompiledStateGraph) -> OneWriterGraph:
    """The same compiled graph, as a OneWriterGraph (built the way ``Pregel.copy`` rebuilds a graph)."""
    return OneWriterGraph(**{key: value for key, value in compiled.__dict__.items() if key != "__orig_class__"})


def checkpoint_url(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored: ``SATIATE_CHECKPOINT_URL`` when set, else the SQLite file in the data directory."""
    environ = os.environ if environ is None else environ
    return environ.get(CHECKPOINT_URL_ENV, "").strip() or f"sqlite:///{checkpoint_path(settings.data_path)}"


def store_label(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored, fit for a message: the SQLite file, or the PostgreSQL URL with its password masked."""
    from satiate.graph.postgres import is_postgres_url
    from satiate.state.settings import redacted

    url = checkpoint_url(settings, environ)
    return redacted(url) if is_postgres_url(url) else str(sqlite_path_of(url))


def sqlite_path_of(url: str) -> Path:
    """``sqlite:///relative.sqlite``, ``sqlite:////absolute.sqlite`` (SQLAlchemy's spelling) or a bare file path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///")).expanduser()
    if "://" in url:
        raise SettingsError(
            f"{CHECKPOINT_URL_ENV} {url.split('://')[0]!r} is not supported: use sqlite:///PATH or postgresql://..."
        )
    return Path(url).expanduser()


# --- storage faults: one line naming the file and the fix -------------------------------------------------------------
def checkpoint_fault(path: Path, error: BaseException) -> StorageError:
    """A StorageError for the SQLite checkpoint file: damaged, read-only, a full disk, cannot be opened."""
    return storage_fault(
        path, error,
        damaged=f"move it aside to start an empty store (mv {path} {path}.damaged), after salvaging what its runs "
        f"hold if you need them: sqlite3 {path}.damaged .recover | sqlite3 {path}",
        read_only="its runs can still be listed and shown; to run, resume or delete one, make it writable or use "
        "another data directory (--data-dir)",
    )


def _is_store_error(error: BaseException) -> bool:
    # what SQLite raises for the file's condition (damaged, full, read-only, locked too long), not for a bad query
    return isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError


class FileSqliteSaver(SqliteSaver):
    """A SqliteSaver that knows its file, so that what SQLite raises about the file (damaged, full, read-only)
    reaches the user as a StorageError naming it. Every read and write of SqliteSaver goes through ``cursor``."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, read_only: bool = False) -> None:
        super().__init__(conn)
        self.path = path
        self.read_only = read_only
        if read_only:
            self.is_setup = True  # setup() writes (creates tables, switches to WAL): a read-only file has them

    @contextmanager
    def cursor(self, transaction: bool = True) -> Iterator[sqlite3.Cursor]:
        try:
            with super().cursor(transaction) as cursor:
                yield cursor
        except sqlite3.DatabaseError as exc:
            if not _is_store_error(exc):
                raise
            raise checkpoint_fault(self.path, exc) from None


# WAL with synchronous=NORMAL: a commit is in the WAL file (the OS has it) when put() returns, so a killed process
# loses no saved step; only an OS crash or power cut can take back the last steps, and a resume then redoes them.
# FULL would fsync every write: 2-6 ms each here, several a step, for no gain against a kill.
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def _open_for_writing(path: Path) -> FileSqliteSaver:
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, check_same_thread=False, timeout=SQLITE_BUSY_TIMEOUT_S)
    try:
        for pragma in SQLITE_PRAGMAS:
            connection.execute(pragma)
        saver = FileSqliteSaver(connection, path)
        saver.setup()
    except BaseException:
        connection.close()
        raise
    return saver


def _open_for_reading(path: Path, first_error: BaseException) -> FileSqliteSaver:
    """The store read-only: ``mode=ro`` reads a WAL store whose shared-memory file exists; ``immutable=1`` one in a
    folder that cannot be written (no shared-memory file can be made, and no other process can be writing it)."""
    for option in ("mode=ro", "immutable=1"):
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?{option}", uri=True, check_same_thread=False)
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError:
            connection.close()
            continue
        return FileSqliteSaver(connection, path, read_only=True)
    raise checkpoint_fault(path, first_error)


@contextmanager
def sqlite_checkpointer_at(path: Path, *, read_only_ok: bool = False) -> Iterator[SqliteSaver]:
    """A SqliteSaver on any file (WAL, so a reader never blocks a running writer). With ``read_only_ok`` (listing,
    showing), a store that cannot be written is opened for reading. A fault is a StorageError naming the file."""
    try:
        saver = _open_for_writing(path)
    except (sqlite3.DatabaseError, OSError) as exc:
        if isinstance(exc, sqlite3.DatabaseError) and not _is_store_error(exc):
            raise
        if not (read_only_ok and path.is_file() and fault_kind(exc) in ("read_only", "unopenable")):
            raise checkpoint_fault(path, exc) from None
        saver = _open_for_reading(path, exc)
    try:
        yield saver
    finally:
        saver.conn.close()


@contextmanager
def open_checkpointer(settings: Settings, environ: Mapping[str, str] | None = None, *,
                      read_only_ok: bool = False) -> Iterator[Any]:
    """The CLI's checkpointer: PostgresSaver for a ``postgresql://`` URL, else SqliteSaver on the file (read-only
    when it cannot be written and ``read_only_ok``)."""
    from satiate.graph.postgres import is_postgres_url, postgres_checkpointer

    url = checkpoint_url(settings, environ)
    if is_postgres_url(url):
        with postgres_checkpointer(url) as saver:
            yield saver
    else:
        with sqlite_checkpointer_at(sqlite_path_of(url), read_only_ok=read_only_ok) as saver:
            yield saver


@asynccontextmanager
async def async_sqlite_checkpointer_at(path: Path) -> AsyncIterator[Any]:
    """An AsyncSqliteSaver on the same file and with the same pragmas as the CLI's SqliteSaver."""
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    # mkdir is blocking I/O: keep it off the server's event loop.
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    async with aiosqlite.connect(path, timeout=SQLITE_BUSY_TIMEOUT_S) as connection:
        for pragma in SQLITE_PRAGMAS:
            await connection.execute(pragma)
        saver = AsyncSqliteSaver(connection)
        await saver.setup()
        yield saver


@asynccontextmanager
async def open_async_checkpointer(settings: Settings, environ: Mapping[str, str] | None = None) -> AsyncIterator[Any]:
    """The server's checkpointer: AsyncPostgresSaver or AsyncSqliteSaver on the store the CLI uses."""
    from satiate.graph.postgres import async_postgres_checkpointer, is_postgres_url

    url = checkpoint_url(settings, environ)
    if is_postgres_url(url):
        async with async_postgres_checkpointer(url) as saver:
            yield saver
    else:
        async with async_sqlite_checkpointer_at(sqlite_path_of(url)) as saver:
            yield saver
