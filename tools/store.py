"""The store: a search cache, a page store and the source texts runs read, in one SQLAlchemy database, shareable
by many workers.

A SQLite file in the data directory by default, any SQLAlchemy URL (PostgreSQL) by setting. Times are epoch seconds
as floats (SQLAlchemy's timezone-aware DateTime loses its zone on SQLite). Freshness is decided by the caller's clock
and TTL, never by the database, so tests inject time instead of sleeping.

SQLite is opened in WAL mode with a busy time-out, and every write is one short upsert transaction retried on
"database is locked", so two processes writing the same file neither corrupt it nor lose a write.

The source texts are kept once each, by the SHA-256 of the text (``source_texts``), with one row per run that
refers to it (``text_owners``, the owner being the run's thread ID): the graph state holds only the hashes, so a
checkpoint grows with references, not with text. A text is deleted when its last owner is released (``satiate
delete``/``prune``); the search cache and page store are not texts and are never touched by that.

The cache and pages are derived data (they save repeated work, never hold a result), so a damaged SQLite store file
is moved aside (renamed ``store.sqlite.damaged-<UTC time>``, to salvage from) and a new one started, with a warning;
the texts of unfinished runs stay in the old file, and such a run says so when it resumes
(``satiate.tools.source_texts.TextsMissing``). ``StorageError`` and ``storage_fault`` name a file satiate cannot use
(damaged, read-only, on a full disk) and the fix, for every SQLite file satiate keeps: this store, the checkpoints,
the corpus indexes.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import StaticPool
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential, wait_random

from satiate.state.settings import Settings, SettingsError

logger = logging.getLogger(__name__)

STORE_FILE = "store.sqlite"
BUSY_TIMEOUT_S = 30.0
WRITE_ATTEMPTS = 6
TEXT_CACHE_CHARS = 32_000_000  # texts never change under their hash, so a process may keep the recent ones
OWNED_CACHE_ENTRIES = 65_536  # (run, text) pairs known stored: a run keeping a text again costs no write
# Runs without a thread ID share the owner "": `prune` dates their texts by their last keep, so a keep re-dates a
# text it already stored, but at most this often (prune counts in days).
REDATE_S = 3600.0
SQL_IN_CHUNK = 500  # hashes per "IN (...)": under every database's limit on bound parameters

metadata = MetaData()

search_cache = Table(
    "search_cache",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("backend", String(200), nullable=False),
    Column("query", Text, nullable=False),
    Column("max_results", Integer, nullable=False),
    Column("hits", JSON, nullable=False),
    Column("created_at", Float, nullable=False, index=True),
)

page_store = Table(
    "page_store",
    metadata,
    Column("key", String(2048), primary_key=True),
    Column("url", Text, nullable=False),
    Column("final_url", Text, nullable=False),
    Column("outcome", String(20), nullable=False),
    Column("status", Integer, nullable=True),
    Column("content_type", String(200), nullable=False),
    Column("title", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("fetched_at", Float, nullable=False, index=True),
)

# Not in TABLES: `satiate cache clear/prune` must never delete what a stored run refers to.
source_texts = Table(
    "source_texts",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("text", Text, nullable=False),
    Column("bytes", Integer, nullable=False),
    Column("used_at", Float, nullable=False),  # PostgreSQL: touched by every keep, so a release never races one
)

text_owners = Table(
    "text_owners",
    metadata,
    Column("owner", String, primary_key=True),  # the run's thread ID; "" for a run without one
    Column("hash", String(64), primary_key=True, index=True),
    Column("created_at", Float, nullable=False, index=True),
)

TABLES: dict[str, Table] = {"search": search_cache, "pages": page_store}
_TIME_COLUMN = {"search": "created_at", "pages": "fetched_at"}


# --- storage faults, for every SQLite file satiate keeps --------------------------------------------------------------
class StorageError(RuntimeError):
    """A file satiate keeps its data in cannot be used (damaged, read-only, on a full disk); the message names the
    file and what to do, ``kind`` says which fault it is (see ``fault_kind``)."""

    def __init__(self, message: str, kind: str = "other") -> None:
        super().__init__(message)
        self.kind = kind


_DAMAGED_MARKERS = ("malformed", "not a database", "corrupt", "file is encrypted")
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def fault_kind(error: BaseException) -> str:
    """``full``, ``read_only``, ``damaged``, ``unopenable`` (SQLite cannot open the file: a missing or read-only
    folder, a folder in its place) or ``other``; SQLAlchemy's wrapped errors are judged by the driver's error."""
    error = getattr(error, "orig", None) or error
    if isinstance(error, OSError) and not isinstance(error, sqlite3.Error):
        if error.errno in _FULL_ERRNOS:
            return "full"
        return "read_only" if error.errno in _READ_ONLY_ERRNOS else "other"
    text = str(error).lower()
    if "disk is full" in text:
        return "full"
    if "readonly" in text or "read-only" in text:
        return "read_only"
    if any(marker in text for marker in _DAMAGED_MARKERS):
        return "damaged"
    if "unable to open" in text:
        return "unopenable"
    return "other"


FULL_BELOW_BYTES = 1 << 20  # a disk with less room than this is full for SQLite (a page, its WAL, its -shm file)


def _no_room(path: Path) -> bool:
    """Is the file system holding ``path`` (or its nearest existing folder) out of room? SQLite reports a write to
    a full tmpfs (its shared-memory file) as a plain "disk I/O error"."""
    folder = path if path.is_dir() else path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < FULL_BELOW_BYTES


def _reason(error: BaseException) -> str:
    error = getattr(error, "orig", None) or error
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def storage_fault(path: Path, error: BaseException, *, damaged: str, read_only: str = "") -> StorageError:
    """One line for a file that failed: what is wrong with ``path`` and what to do (``damaged``: the fix for a
    damaged file; ``read_only``: what still works when it cannot be written)."""
    reason = _reason(error)
    kind = fault_kind(error)
    if kind == "other" and "disk i/o error" in reason.lower() and _no_room(path):
        kind = "full"
    if kind == "unopenable" and path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        kind, reason = "read_only", f"{reason}: its folder is read-only"  # SQLite cannot make its WAL files there
    elsewhere = "or use another data directory (--data-dir)"
    if kind == "full":
        message = f"{path}: the disk is full ({reason}): free space on it, {elsewhere}"
    elif kind == "read_only":
        message = f"{path} cannot be written ({reason}): {read_only or 'make it writable, ' + elsewhere}"
    elif kind == "damaged":
        message = f"{path} is damaged ({reason}): {damaged}"
    elif kind == "unopenable":
        message = (f"{path} cannot be opened ({reason}): check that its folder exists and may be read and written, "
                   f"{elsewhere}")
    else:
        message = f"{path}: {reason}"
    return StorageError(message, kind)


def discard_sqlite_file(path: Path) -> None:
    """Delete a damaged SQLite file of derived data, with its WAL and shared-memory files (kept, it could only
    take the room its rebuilt copy needs)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def move_aside(path: Path) -> Path:
    """Rename a damaged SQLite file (and its WAL, which holds its latest pages) to ``<name>.damaged-<UTC time>``
    beside it, so whatever it held can still be salvaged; its shared-memory file is only an index of the WAL and is
    removed. Returns the new name."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    path.rename(target)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        wal.rename(target.with_name(target.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return target


def still_damaged(path: Path) -> bool:
    """Is the file at ``path`` still the damaged one? Another process may have moved it aside and started a new
    store there since this one found the damage: that one must be kept."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            return connection.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    except sqlite3.DatabaseError:
        return True


@dataclass(frozen=True)
class StoredPage:
    """A page as the store holds it (the outcome says whether it was readable)."""

    key: str
    url: str
    final_url: str
    outcome: str
    status: int | None
    content_type: str
    title: str
    text: str
    fetched_at: float


@dataclass(frozen=True)
class TableStats:
    rows: int
    fresh: int
    expired: int
    oldest: float | None
    newest: float | None


def default_store_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / STORE_FILE).as_posix()}"


def store_url_for(settings: Settings) -> str:
    return settings.store_url or default_store_url(settings.data_path)


def _is_locked(error: BaseException) -> bool:
    text = str(error).lower()
    return isinstance(error, OperationalError) and ("locked" in text or "busy" in text)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Busy time-out first (switching to WAL needs the lock), then WAL: readers never block the writer."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Store:
    """The search cache and page store behind one engine; safe to share between threads."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except ArgumentError as exc:
            raise SettingsError(f"invalid store_url {url!r}: {exc}") from None
        self.url = url
        self.label = parsed.render_as_string(hide_password=True)
        self._texts: OrderedDict[str, str] = OrderedDict()  # hash -> text, the most recently used last
        self._text_chars = 0
        self._owned: OrderedDict[tuple[str, str], float] = OrderedDict()  # (owner, hash) -> when this process kept it
        self._texts_lock = threading.Lock()
        self._one_at_a_time: Any = contextlib.nullcontext()  # an in-memory database: a lock (one shared connection)
        # a file database: one write transaction at a time in this process, queued on a lock (SQLite's own lock
        # would make parallel branches busy-wait in sleeps of milliseconds)
        self._one_writer: Any = contextlib.nullcontext()
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.path: Path | None = None
        self.moved_to: Path | None = None  # where a damaged SQLite store was moved aside to, when it was
        options: dict[str, Any] = {}
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                self.path = Path(parsed.database).expanduser()
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise storage_fault(self.path, exc, damaged="") from None
            options["connect_args"] = {"timeout": BUSY_TIMEOUT_S}
            if self.path is None:  # in memory: one connection for every thread, or each would see its own database
                options.update(poolclass=StaticPool, connect_args={"check_same_thread": False})
                self._one_at_a_time = threading.RLock()
            else:
                self._one_writer = threading.Lock()
        try:
            self.engine: Engine = create_engine(url, **options)
        except (ArgumentError, NoSuchModuleError, ImportError) as exc:
            raise SettingsError(f"store_url {parsed.render_as_string(hide_password=True)!r} cannot be used: "
                                f"{exc}") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            self._write(lambda connection: metadata.create_all(connection))
        except SQLAlchemyError as exc:
            if self.path is None:
                raise SettingsError(
                    f"store_url {parsed.render_as_string(hide_password=True)!r} cannot be opened: "
                    f"{exc.__class__.__name__}: {str(exc).splitlines()[0]}"
                ) from None
            self._recreate_if_damaged(exc)

    def _recreate_if_damaged(self, error: SQLAlchemyError) -> None:
        """A damaged SQLite store cannot be read anyway: move it aside (renamed, so it can be salvaged) and start a
        new one, saying so (the cached searches and pages come back by themselves; an unfinished run whose texts it
        held says so when resumed). Any other fault (a full disk, a read-only folder) is a StorageError naming the
        file and the fix."""
        assert self.path is not None
        if fault_kind(error) != "damaged":
            raise storage_fault(self.path, error, damaged="") from None
        self.engine.dispose()
        self.moved_to = None
        try:
            if still_damaged(self.path):
                self.moved_to = move_aside(self.path)
        except FileNotFoundError:  # another process moved it aside first
            pass
        except OSError as exc:
            raise storage_fault(self.path, exc, damaged="") from None
        if self.moved_to is not None:
            logger.warning("the store %s (search cache, pages, source texts) was damaged (%s): moved aside to %s; "
                           "started a new one", self.path, _reason(error), self.moved_to)
        try:
            self._write(lambda connection: metadata.create_all(connection))
        except SQLAlchemyError as exc:
            raise storage_fault(self.path, exc, damaged=f"delete it (a cache, and the texts of runs, which must then "
                                f"be run again): rm {self.path}") from None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Any]:
        with self._one_at_a_time, self.engine.connect() as connection:
            yield connection

    # --- writing ------------------------------------------------------------------------------------------------------
    def _write(self, action) -> Any:
        """Run one short write transaction, retried with jittered backoff while another writer holds the lock.

        Two processes creating the tables at once can also race on "already exists": the retry then sees them.
        """
        retrying = Retrying(
            stop=stop_after_attempt(WRITE_ATTEMPTS),
            wait=wait_exponential(multiplier=0.05, max=1.0) + wait_random(0, 0.1),
            retry=retry_if_exception(lambda e: _is_locked(e) or "already exists" in str(e).lower()),
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                with self._one_writer, self._one_at_a_time, self.engine.begin() as connection:
                    return action(connection)
        return None  # pragma: no cover - Retrying either returns or raises

    def _upsert(self, table: Table, row: dict[str, Any]) -> None:
        dialect = self.engine.dialect.name
        if dialect in ("sqlite", "postgresql"):
            if dialect == "sqlite":
                from sqlalchemy.dialects.sqlite import insert as dialect_insert
            else:
                from sqlalchemy.dialects.postgresql import insert as dialect_insert  # type: ignore[assignment]
            statement = dialect_insert(table).values(**row)
            updates = {name: statement.excluded[name] for name in row if name != "key"}
            statement = statement.on_conflict_do_update(index_elements=["key"], set_=updates)
            self._write(lambda connection: connection.execute(statement))
            return

        def replace(connection) -> None:  # any other database: delete and insert in one transaction
            connection.execute(delete(table).where(table.c.key == row["key"]))
            connection.execute(insert(table).values(**row))

        self._write(replace)

    # --- the search cache ---------------------------------------------------------------------------------------------
    def cached_search(self, key: str, *, now: float, ttl_s: float) -> list[dict[str, Any]] | None:
        """The stored hits of a search still fresh at ``now``, else None."""
        with self._reading() as connection:
            row = connection.execute(
                select(search_cache.c.hits, search_cache.c.created_at).where(search_cache.c.key == key)
            ).first()
        if row is None or now - row.created_at >= ttl_s:
            return None
        return list(row.hits)

    def put_search(self, key: str, *, backend: str, query: str, max_results: int, hits: list[dict[str, Any]],
                   now: float) -> None:
        self._upsert(search_cache, dict(key=key, backend=backend, query=query, max_results=max_results, hits=hits,
                                        created_at=now))

    # --- the page store -----------------------------------------------------------------------------------------------
    def page(self, key: str, *, now: float, ttl_s: float) -> StoredPage | None:
        """The stored page under this canonical key if fetched within the TTL, else None."""
        with self._reading() as connection:
            row = connection.execute(select(page_store).where(page_store.c.key == key)).first()
        if row is None or now - row.fetched_at >= ttl_s:
            return None
        return StoredPage(**row._asdict())

    def put_page(self, page: StoredPage) -> None:
        self._upsert(page_store, dict(page.__dict__))

    # --- source texts -------------------------------------------------------------------------------------------------
    def keep_texts(self, owner: str, texts: Mapping[str, str], *, now: float) -> None:
        """Store each text under its hash (once, whoever stores it first) and record that ``owner`` uses it, in one
        transaction, so no run ever holds a reference whose text was not saved."""
        with self._texts_lock:
            new = {h: t for h, t in sorted(texts.items()) if not self._kept_lately(owner, h, now)}
        if not new:
            return
        rows = [dict(hash=h, text=t, bytes=len(t.encode("utf-8")), used_at=now) for h, t in new.items()]
        owned = [dict(owner=owner, hash=h, created_at=now) for h in new]
        self._write(lambda connection: self._insert_texts(connection, rows, owned))
        with self._texts_lock:
            for text_hash in new:
                self._owned[owner, text_hash] = now
                self._owned.move_to_end((owner, text_hash))
            while len(self._owned) > OWNED_CACHE_ENTRIES:
                self._owned.popitem(last=False)
            for text_hash, text in new.items():
                self._remember(text_hash, text)

    def _kept_lately(self, owner: str, text_hash: str, now: float) -> bool:
        """Did this process store the text for this owner already (for the shared owner "": within REDATE_S)?"""
        kept = self._owned.get((owner, text_hash))
        return kept is not None and (bool(owner) or now - kept < REDATE_S)

    @functools.cached_property
    def _keep_statements(self) -> tuple[Any, Any] | None:
        """The two upserts that keep texts, built once (a keep is on every search's path), or None for a database
        without ON CONFLICT."""
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            from sqlalchemy.dialects.sqlite import insert as dialect_insert
        elif dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as dialect_insert  # type: ignore[assignment]
        else:
            return None
        keep = dialect_insert(source_texts)
        owned = dialect_insert(text_owners)
        if dialect == "sqlite":
            # SQLite runs one write transaction at a time: a release either commits before this keep (which then
            # stores the text again) or sees the owner row it adds. Leaving a stored text alone spares rewriting it.
            keep_text = keep.on_conflict_do_nothing(index_elements=["hash"])
        else:
            # transactions overlap: touching used_at takes the row's lock, so a concurrent release sees the text in
            # use (see release_texts)
            keep_text = keep.on_conflict_do_update(index_elements=["hash"], set_={"used_at": keep.excluded.used_at})
        return (keep_text,
                owned.on_conflict_do_update(index_elements=["owner", "hash"],
                                            set_={"created_at": owned.excluded.created_at}))

    def _insert_texts(self, connection: Any, rows: list[dict[str, Any]], owned: list[dict[str, Any]]) -> None:
        statements = self._keep_statements
        if statements is not None:
            connection.execute(statements[0], rows)
            connection.execute(statements[1], owned)
            return
        for row in rows:  # any other database: row by row
            touched = connection.execute(update(source_texts).where(source_texts.c.hash == row["hash"])
                                         .values(used_at=row["used_at"])).rowcount
            if not touched:
                connection.execute(insert(source_texts).values(**row))
        for row in owned:
            mine = (text_owners.c.owner == row["owner"]) & (text_owners.c.hash == row["hash"])
            if not connection.execute(update(text_owners).where(mine).values(created_at=row["created_at"])).rowcount:
                connection.execute(insert(text_owners).values(**row))

    def _remember(self, text_hash: str, text: str) -> None:
        if text_hash not in self._texts:
            self._text_chars += len(text)
        self._texts[text_hash] = text
        self._texts.move_to_end(text_hash)
        while self._text_chars > TEXT_CACHE_CHARS and len(self._texts) > 1:
            self._text_chars -= len(self._texts.popitem(last=False)[1])

    def drop_cached_texts(self) -> None:
        """Forget this process's copies of texts: the next read asks the database."""
        with self._texts_lock:
            self._texts.clear()
            self._text_chars = 0

    def texts(self, hashes: Iterable[str]) -> dict[str, str]:
        """The stored texts of these hashes; a hash the store does not hold is left out (the caller says so)."""
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, str] = {}
        with self._texts_lock:
            for text_hash in wanted:
                if text_hash in self._texts:
                    self._texts.move_to_end(text_hash)
                    found[text_hash] = self._texts[text_hash]
        unread = [h for h in wanted if h not in found]
        if not unread:
            return found
        with self._reading() as connection:
            for start in range(0, len(unread), SQL_IN_CHUNK):
                chunk = unread[start:start + SQL_IN_CHUNK]
                rows = connection.execute(select(source_texts.c.hash, source_texts.c.text)
                                          .where(source_texts.c.hash.in_(chunk)))
                found.update((text_hash, text) for text_hash, text in rows)
        with self._texts_lock:
            for text_hash in unread:
                if text_hash in found:
                    self._remember(text_hash, found[text_hash])
        return found

    def owned_text_bytes(self, owner: str) -> int:
        """Bytes of the texts ``owner`` uses (a text shared with other runs counts for each of them)."""
        with self._reading() as connection:
            return int(connection.execute(
                select(func.coalesce(func.sum(source_texts.c.bytes), 0))
                .select_from(text_owners.join(source_texts, text_owners.c.hash == source_texts.c.hash))
                .where(text_owners.c.owner == owner)).scalar_one())

    def release_texts(self, owner: str, *, now: float, before: float | None = None) -> int:
        """Forget that ``owner`` uses its texts (only the uses last recorded before ``before``, when given) and
        delete every one of them no other owner uses; returns how many texts were deleted.

        A text another run keeps at the same moment is not deleted: keeping it touches ``used_at``, and only texts
        untouched since ``now`` go."""
        def release(connection: Any) -> list[str]:
            mine = text_owners.c.owner == owner
            if before is not None:
                mine = mine & (text_owners.c.created_at < before)
            hashes = list(connection.execute(select(text_owners.c.hash).where(mine)).scalars())
            connection.execute(delete(text_owners).where(mine))
            deleted: list[str] = []
            for start in range(0, len(hashes), SQL_IN_CHUNK):
                chunk = hashes[start:start + SQL_IN_CHUNK]
                unused = (source_texts.c.hash.in_(chunk) & (source_texts.c.used_at <= now)
                          & ~exists().where(text_owners.c.hash == source_texts.c.hash))
                gone = list(connection.execute(select(source_texts.c.hash).where(unused)).scalars())
                connection.execute(delete(source_texts).where(unused))
                deleted += gone
            return deleted

        deleted = self._write(release)
        with self._texts_lock:
            self._owned = OrderedDict((pair, at) for pair, at in self._owned.items() if pair[0] != owner)
            for text_hash in deleted:
                self._text_chars -= len(self._texts.pop(text_hash, ""))
        return len(deleted)

    def text_owner_ids(self) -> set[str]:
        """Every owner with a text in the store (the thread IDs of runs, "" for runs without one)."""
        with self._reading() as connection:
            return set(connection.execute(select(text_owners.c.owner).distinct()).scalars())

    # --- maintenance --------------------------------------------------------------------------------------------------
    def stats(self, *, now: float, ttl_s: float) -> dict[str, TableStats]:
        found: dict[str, TableStats] = {}
        with self._reading() as connection:
            for name, table in TABLES.items():
                stamp = table.c[_TIME_COLUMN[name]]
                rows, oldest, newest = connection.execute(select(func.count(), func.min(stamp), func.max(stamp))).one()
                fresh = connection.execute(select(func.count()).where(stamp > now - ttl_s)).scalar_one()
                found[name] = TableStats(rows=rows, fresh=fresh, expired=rows - fresh, oldest=oldest, newest=newest)
        return found

    def clear(self, tables: tuple[str, ...] = tuple(TABLES)) -> dict[str, int]:
        """Delete every row of the named tables; returns rows deleted per table."""
        return {name: self._write(lambda c, t=TABLES[name]: c.execute(delete(t)).rowcount) for name in tables}

    def prune(self, *, now: float, ttl_s: float, tables: tuple[str, ...] = tuple(TABLES)) -> dict[str, int]:
        """Delete rows older than the TTL; returns rows deleted per table."""
        deleted: dict[str, int] = {}
        for name in tables:
            table = TABLES[name]
            stamp = table.c[_TIME_COLUMN[name]]
            deleted[name] = self._write(
                lambda c, t=table, s=stamp: c.execute(delete(t).where(s <= now - ttl_s)).rowcount
            )
        return deleted

    def size_bytes(self) -> int | None:
        """Size of a SQLite store on disk (with its WAL), None for a server database."""
        if self.path is None or not self.path.exists():
            return None
        wal = self.path.with_name(self.path.name + "-wal")
        return self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)

    def dispose(self) -> None:
        self.engine.dispose()
