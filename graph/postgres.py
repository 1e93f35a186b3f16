"""PostgreSQL checkpoints: many workers (CLI processes, LangGraph server replicas) sharing one store of runs.

SQLite is the right store for one machine; once several processes on several machines run and resume research
threads, they need a server that takes concurrent writers. ``langgraph-checkpoint-postgres`` provides the savers;
this module opens them on a connection pool and runs their table migrations under an advisory lock, because two
workers starting at the same moment would otherwise race to create the same tables.

The lock is polled with ``pg_try_advisory_lock``, never waited for with ``pg_advisory_lock``: the migrations build
indexes with ``CREATE INDEX CONCURRENTLY``, which waits for every open transaction, including a second worker's
``SELECT pg_advisory_lock(...)`` blocked on the first worker's lock. PostgreSQL cannot see that cycle (the lock is
held by another session of the same client), so both workers would wait forever.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any
from urllib.parse import urlsplit

from satiate.state.settings import redacted

POSTGRES_SCHEMES = ("postgresql", "postgres")
# One run fans out a handful of searches at once; each branch may write a checkpoint, so a few connections suffice.
POOL_MAX_SIZE = 8
# Any fixed 64-bit number, shared by every satiate process: it names the lock that serializes table migrations.
MIGRATION_LOCK_KEY = 0x5A7_1A7E
MIGRATION_LOCK_POLL_S = 0.05
MIGRATION_LOCK_TIMEOUT_S = 120.0  # migrations take well under a second; longer means a stuck worker


class MigrationLockTimeout(RuntimeError):
    """Another satiate process has held the migration lock too long; the message says which database."""


def is_postgres_url(url: str) -> bool:
    return urlsplit(url).scheme in POSTGRES_SCHEMES


def _connection_kwargs() -> dict[str, Any]:
    """What the savers need of every connection (the same options their own ``from_conn_string`` uses)."""
    from psycopg.rows import dict_row

    return {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}


def _missing_driver(exc: ImportError) -> RuntimeError:
    return RuntimeError(f"PostgreSQL checkpoints need the 'postgres' extra: pip install 'satiate[postgres]' ({exc})")


def _lock_timeout(url: str) -> MigrationLockTimeout:
    return MigrationLockTimeout(f"waited {MIGRATION_LOCK_TIMEOUT_S:.0f} s for another satiate process to finish "
                                f"creating the checkpoint tables in {redacted(url)}")


@contextmanager
def _migration_lock(url: str) -> Iterator[None]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        deadline = time.monotonic() + MIGRATION_LOCK_TIMEOUT_S
        while not (connection.execute("SELECT pg_try_advisory_lock(%s)",
                                      (MIGRATION_LOCK_KEY,)).fetchone() or [False])[0]:
            if time.monotonic() > deadline:
                raise _lock_timeout(url)
            time.sleep(MIGRATION_LOCK_POLL_S)
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


@asynccontextmanager
async def _async_migration_lock(url: str) -> AsyncIterator[None]:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        deadline = time.monotonic() + MIGRATION_LOCK_TIMEOUT_S
        while not ((await (await connection.execute("SELECT pg_try_advisory_lock(%s)",
                                                    (MIGRATION_LOCK_KEY,))).fetchone()) or [False])[0]:
            if time.monotonic() > deadline:
                raise _lock_timeout(url)
            await asyncio.sleep(MIGRATION_LOCK_POLL_S)
        try:
            yield
        finally:
            await connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


@contextmanager
def postgres_checkpointer(url: str) -> Iterator[Any]:
    """A ``PostgresSaver`` on a connection pool, tables created or migrated once under the migration lock."""
    try:
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg_pool import ConnectionPool
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _missing_driver(exc) from exc

    with ConnectionPool(url, min_size=1, max_size=POOL_MAX_SIZE, kwargs=_connection_kwargs(), open=False) as pool:
        saver = PostgresSaver(pool)  # type: ignore[arg-type]  # its rows are dicts (_connection_kwargs)
        with _migration_lock(url):
            saver.setup()
        yield saver


@asynccontextmanager
async def async_postgres_checkpointer(url: str) -> AsyncIterator[Any]:
    """The async twin of ``postgres_checkpointer``, for the LangGraph server's event loop."""
    try:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from psycopg_pool import AsyncConnectionPool
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise _missing_driver(exc) from exc

    async with AsyncConnectionPool(url, min_size=1, max_size=POOL_MAX_SIZE, kwargs=_connection_kwargs(),
                                   open=False) as pool:
        saver = AsyncPostgresSaver(pool)  # type: ignore[arg-type]  # its rows are dicts (_connection_kwargs)
        async with _async_migration_lock(url):
            await saver.setup()
        yield saver
