"""Checkpoint storage: every run is saved after each step under its thread ID, so it can be resumed or shown.

The store is chosen by URL (``SATIATE_CHECKPOINT_URL``): by default the SQLite file ``<data_dir>/checkpoints.sqlite``,
or ``postgresql://...`` for many workers on many machines. The CLI opens it with ``open_checkpointer`` and the
LangGraph server with ``open_async_checkpointer`` (see ``graph/server.py``), so both see the same threads.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from satiate.state.settings import Settings, SettingsError

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


def thread_ids(saver: Any) -> list[str]:
    """Thread IDs with at least one checkpoint, most recently updated first."""
    seen: dict[str, None] = {}
    for checkpoint in saver.list(None):
        seen.setdefault(checkpoint.config["configurable"]["thread_id"], None)
    return list(seen)


def checkpoint_url(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored: ``SATIATE_CHECKPOINT_URL`` when set, else the SQLite file in the data directory."""
    environ = os.environ if environ is None else environ
    return environ.get(CHECKPOINT_URL_ENV, "").strip() or f"sqlite:///{checkpoint_path(settings.data_path)}"


def sqlite_path_of(url: str) -> Path:
    """``sqlite:///relative.sqlite``, ``sqlite:////absolute.sqlite`` (SQLAlchemy's spelling) or a bare file path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///")).expanduser()
    if "://" in url:
        raise SettingsError(
            f"{CHECKPOINT_URL_ENV} {url.split('://')[0]!r} is not supported: use sqlite:///PATH or postgresql://..."
        )
    return Path(url).expanduser()


@contextmanager
def sqlite_checkpointer_at(path: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on any file (WAL, so a reader never blocks a running writer)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, check_same_thread=False, timeout=SQLITE_BUSY_TIMEOUT_S)
    connection.execute("PRAGMA journal_mode=WAL")
    try:
        saver = SqliteSaver(connection)
        saver.setup()
        yield saver
    finally:
        connection.close()


@contextmanager
def open_checkpointer(settings: Settings, environ: Mapping[str, str] | None = None) -> Iterator[Any]:
    """The CLI's checkpointer: PostgresSaver for a ``postgresql://`` URL, else SqliteSaver on the file."""
    from satiate.graph.postgres import is_postgres_url, postgres_checkpointer

    url = checkpoint_url(settings, environ)
    if is_postgres_url(url):
        with postgres_checkpointer(url) as saver:
            yield saver
    else:
        with sqlite_checkpointer_at(sqlite_path_of(url)) as saver:
            yield saver


@asynccontextmanager
async def async_sqlite_checkpointer_at(path: Path) -> AsyncIterator[Any]:
    """An AsyncSqliteSaver on the same file and with the same pragmas as the CLI's SqliteSaver."""
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    # mkdir is blocking I/O: keep it off the server's event loop.
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    async with aiosqlite.connect(path, timeout=SQLITE_BUSY_TIMEOUT_S) as connection:
        await connection.execute("PRAGMA journal_mode=WAL")
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
