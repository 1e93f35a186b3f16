"""One writer per thread: every run of the compiled graph holds its thread's writer lock while it runs."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph.state import CompiledStateGraph

from satiate.graph.checkpoint.locks import (
    RUN_LOCK_ATTEMPTS,
    RUN_LOCK_RETRY_S,
    ThreadBusy,
    fcntl,
    lock_holder,
    release_lock_file,
    take_lock_file,
    writer_lock_path,
)

try:  # the key LangGraph sets in the config of a graph run as a task of another graph
    from langgraph._internal._constants import CONFIG_KEY_TASK_ID
except ImportError:  # pragma: no cover - a LangGraph that moved it
    CONFIG_KEY_TASK_ID = "__pregel_task_id"



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
WRITER_KEY_PREFIX = b"satiate-thread-writer\0"
# A PostgreSQL session whose client vanished without closing it (a machine lost, a network cut) keeps its locks until
# the server notices: these keepalives make it notice within a minute (ignored on Unix sockets).
POSTGRES_KEEPALIVES = {"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10", "tcp_keepalives_count": "3"}
POSTGRES_HOLDER = "another session of the PostgreSQL store (another process, or another call in this one)"
_LOCAL_WRITERS: set[tuple[int, str]] = set()
_LOCAL_WRITERS_LOCK = threading.Lock()


def _busy(thread_id: str, holder: str) -> ThreadBusy:
    return ThreadBusy(f"thread {thread_id} is being run by {holder}: a thread has one writer at a time; wait for "
                      f"that run to end (or stop it), then resume it")


def _postgres_key(thread_id: str) -> int:
    """The advisory lock key of a thread: 64 bits of a hash, so any thread ID maps to one lock."""
    digest = hashlib.sha256(WRITER_KEY_PREFIX + thread_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def saver_kind(saver: Any) -> str:
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


def sqlite_database(saver: Any) -> Path | None:
    """The file of a (sync) SQLite saver; None for any other saver or an in-memory database."""
    if saver_kind(saver) != "sqlite" or not isinstance(saver.conn, sqlite3.Connection):
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
    path = writer_lock_path(database, thread_id)
    for _attempt in range(RUN_LOCK_ATTEMPTS):
        handle = take_lock_file(path)
        if handle is not None:
            break
        time.sleep(RUN_LOCK_RETRY_S)  # `satiate list` may be probing it
    else:
        raise _busy(thread_id, lock_holder(path))
    try:
        yield
    finally:
        release_lock_file(handle)


@contextmanager
def thread_writer(saver: Any, thread_id: str) -> Iterator[None]:
    """Hold the thread's writer lock in the saver's store while the block runs; ThreadBusy when another run has it."""
    kind = saver_kind(saver)
    if kind == "sqlite" and fcntl is not None:
        database = sqlite_database(saver)
        if database is not None:
            with _file_writer(database, thread_id):
                yield
            return
    elif kind == "postgres":
        import psycopg

        conninfo, kwargs = _postgres_connect_args(saver)
        with psycopg.connect(conninfo, **kwargs) as connection:
            for _attempt in range(RUN_LOCK_ATTEMPTS):  # a just-killed owner's session may take a moment to end
                taken = connection.execute(_POSTGRES_TAKE, (_postgres_key(thread_id),)).fetchone()
                if taken is not None and taken[-1]:
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
    kind = saver_kind(saver)
    if kind == "sqlite" and fcntl is not None and hasattr(saver.conn, "__aenter__"):  # aiosqlite
        async with saver.conn.execute("PRAGMA database_list") as cursor:
            database = _sqlite_file(list(await cursor.fetchall()))
        if database is not None:
            path = writer_lock_path(database, thread_id)
            for _attempt in range(RUN_LOCK_ATTEMPTS):
                handle = await asyncio.to_thread(take_lock_file, path)
                if handle is not None:
                    break
                await asyncio.sleep(RUN_LOCK_RETRY_S)
            else:
                raise _busy(thread_id, lock_holder(path))
            try:
                yield
            finally:
                release_lock_file(handle)
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
                taken = await (await connection.execute(_POSTGRES_TAKE, (_postgres_key(thread_id),))).fetchone()
                if taken is not None and taken[-1]:
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
