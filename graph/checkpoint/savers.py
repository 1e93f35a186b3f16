"""Opening the checkpoint store: the SQLite file (or a PostgreSQL URL) the CLI and the server share.

The store is chosen by URL (``SATIATE_CHECKPOINT_URL``): by default ``<data_dir>/checkpoints.sqlite``. SQLite runs in
WAL mode with ``synchronous=NORMAL``. A damaged, 0-byte, read-only or full file is a StorageError naming the file
and the fix (``faults``), for new runs as much as for ``list`` and ``show``.
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

from satiate.graph.checkpoint.faults import checkpoint_fault, emptied_fault, is_emptied, is_store_error
from satiate.graph.checkpoint.location import (
    checkpoint_path,
    checkpoint_url_in,
    sqlite_path_of,
)
from satiate.state.settings import Settings
from satiate.tools.store import fault_kind

SQLITE_BUSY_TIMEOUT_S = 30.0  # a CLI run and the server may write the same file; wait for the other writer


@contextmanager
def sqlite_checkpointer(data_dir: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on ``<data_dir>/checkpoints.sqlite``."""
    with sqlite_checkpointer_at(checkpoint_path(data_dir)) as saver:
        yield saver


def checkpoint_url(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored: ``SATIATE_CHECKPOINT_URL`` when set, else the SQLite file in the data directory."""
    return checkpoint_url_in(settings.data_path, environ)


def store_label(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored, fit for a message: the SQLite file, or the PostgreSQL URL with its password masked."""
    from satiate.graph.postgres import is_postgres_url
    from satiate.state.settings import redacted

    url = checkpoint_url(settings, environ)
    return redacted(url) if is_postgres_url(url) else str(sqlite_path_of(url))


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
            if not is_store_error(exc):
                raise
            raise checkpoint_fault(self.path, exc) from None


# WAL with synchronous=NORMAL: a commit is in the WAL file (the OS has it) when put() returns, so a killed process
# loses no saved step; only an OS crash or power cut can take back the last steps, and a resume then redoes them.
# FULL would fsync every write: 2-6 ms each here, several a step, for no gain against a kill.
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def create_whole(path: Path) -> None:
    """Make a new store appear whole. ``sqlite3.connect`` leaves a 0-byte file until its first write, and another
    process opening the store in that moment would refuse it as emptied (``is_emptied``). So a new store is made
    under a private name with its header written (WAL mode) and hard-linked into place: a second process either finds
    no file or a whole one; whoever links second uses the first one's file. Where the file system has no hard links
    the store is created in place, as SQLite would."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        connection = sqlite3.connect(draft)
        try:
            connection.execute(SQLITE_PRAGMAS[0])
        finally:
            connection.close()
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        except OSError:
            pass  # no hard links here: _open_for_writing creates it in place
    finally:
        draft.unlink(missing_ok=True)


def _open_for_writing(path: Path) -> FileSqliteSaver:
    create_whole(path)
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
    if is_emptied(path):
        raise emptied_fault(path)
    try:
        saver = _open_for_writing(path)
    except (sqlite3.DatabaseError, OSError) as exc:
        if isinstance(exc, sqlite3.DatabaseError) and not is_store_error(exc):
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

    if await asyncio.to_thread(is_emptied, path):
        raise emptied_fault(path)
    await asyncio.to_thread(create_whole, path)  # blocking file I/O: keep it off the server's event loop
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
