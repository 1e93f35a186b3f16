"""``satiate list``: the stored runs, the most recently started first, read from the run index when it is current.

On a SQLite store a run's row comes from the index (``graph/checkpoint/index.py``) while the thread's mark in the
checkpoints is the one the row was made from; only a thread that is new or moved on since is read the slow way (the
graph built, its state loaded), and its row refreshed. A new, emptied or unreadable file is opened the slow way too,
which is what makes it or says what is wrong with it. Only the data directory is read from the settings (flag, then
``SATIATE_DATA_DIR``), so listing needs neither the settings model nor, when the index is current, LangGraph. Another
store (PostgreSQL) is listed the slow way with the full settings.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satiate.graph.cli.options import check_data_dir, open_store, settings_from
from satiate.graph.cli.output import (
    EXIT_OK,
    iso_time,
    local_time,
    may_be_terminal,
    say,
    size_text,
    stored_run_settings,
)

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

LIST_QUESTION_MIN_CHARS = 20  # on a narrow terminal the question is cut to fit, but never below this


# --- a run's row --------------------------------------------------------------------------------------------------
def settled_row(app: Any, thread: Any) -> dict[str, Any]:
    """What the checkpoints decide of a run (all the index keeps): its status as if no process were running it,
    times, question, where it stopped, counts, and the bytes of the source texts it uses in its store."""
    from satiate.graph.checkpoint import run_status, step_errors

    snapshot = app.get_state({"configurable": {"thread_id": thread.thread_id}})
    values = snapshot.values
    errors = step_errors(snapshot)
    return {
        "thread_id": thread.thread_id,
        "settled_status": run_status(snapshot, False),
        "started": iso_time(thread.started),
        "updated": iso_time(thread.updated),
        "question": str(values.get("question", "")),
        "next": list(snapshot.next),
        "error": _error_text(errors[0]) if errors else None,
        "stop_reason": values.get("stop_reason") or None,
        "claims": len(values.get("claims", [])),
        "sources": len(values.get("sources", {})),
        "text_bytes": _text_bytes(thread.thread_id, values),
    }


def listed_row(settled: dict[str, Any], running: bool, checkpoint_bytes: int | None) -> dict[str, Any]:
    """The row ``satiate list --json`` prints: the settled part, whether a process runs it now, and its size."""
    status = settled["settled_status"]
    if status != "finished" and running:  # the order run_status decides in: finished, running, failed, interrupted
        status = "running"
    text_bytes = settled["text_bytes"]
    total = None if checkpoint_bytes is None or text_bytes is None else checkpoint_bytes + text_bytes
    return {"thread_id": settled["thread_id"], "status": status,
            **{key: settled[key] for key in ("started", "updated", "question", "next", "error", "stop_reason",
                                             "claims", "sources")},
            "checkpoint_bytes": checkpoint_bytes, "text_bytes": text_bytes, "stored_bytes": total}


def _text_bytes(thread_id: str, values: dict[str, Any]) -> int | None:
    """The source texts a run uses in its store (a text shared with other runs counts for each); None where the store
    cannot say (a store that cannot be opened, a read-only one that predates the text tables)."""
    if not (values.get("sources") or values.get("search_results")):
        return 0
    from sqlalchemy.exc import SQLAlchemyError

    from satiate.graph.deps import store_for
    from satiate.tools.source_texts import run_text_bytes
    from satiate.tools.store import StorageError

    try:
        return run_text_bytes(store_for(stored_run_settings(values)), thread_id)
    except (StorageError, SQLAlchemyError):
        return None


def _error_text(error: Any) -> str:
    return error if isinstance(error, str) else f"{type(error).__name__}: {error}"


def run_rows(saver: Any, data_dir: Path, threads: list[Any] | None = None) -> list[dict[str, Any]]:
    """One row per stored run (or per given thread), the most recently started first, read the slow way: the graph
    reads each run's state."""
    from satiate.graph.checkpoint import is_running, stored_threads, thread_storage

    threads = stored_threads(saver) if threads is None else threads
    if not threads:
        return []
    from satiate.graph.builder import build_graph  # the graph reads a run's state; no run, no graph to build

    app = build_graph(checkpointer=saver)
    rows = []
    for thread in threads:
        stored = thread_storage(saver, thread.thread_id)
        rows.append(listed_row(settled_row(app, thread), is_running(data_dir, thread.thread_id),
                               stored.total_bytes if stored is not None else None))
    return rows


# --- the index ----------------------------------------------------------------------------------------------------
def remember_run(saver: Any, app: Any, thread_id: str) -> None:
    """Refresh a thread's row in the run index after a run or resume moved it on, so the next ``satiate list`` reads
    it from the index. Only for a SQLite store; a failure here is the index's, never the run's."""
    from satiate.graph.checkpoint.index import RunIndex, index_path, read_marks
    from satiate.graph.checkpoint.runs import stored_thread
    from satiate.graph.checkpoint.writer import sqlite_database
    from satiate.tools.store import StorageError

    database = sqlite_database(saver)
    if database is None:
        return
    try:
        mark = read_marks(database, thread_id).get(thread_id)  # read before the state: a row is never newer than it
        thread = stored_thread(saver, thread_id)
        if mark is None or thread is None:
            return
        settled = settled_row(app, thread)
    except (sqlite3.Error, OSError, StorageError):  # the store failed under the run: it said so already
        return
    if settled["text_bytes"] is not None:  # a store that could not say is asked again next time
        with RunIndex(index_path(database)) as index:
            index.remember(thread_id, mark.fingerprint, settled)


def forget_run(saver: Any, thread_id: str) -> None:
    """Drop a deleted thread's row from the run index (a row whose thread is gone is never shown; this keeps the
    file small)."""
    from satiate.graph.checkpoint.index import RunIndex, index_path
    from satiate.graph.checkpoint.writer import sqlite_database

    database = sqlite_database(saver)
    if database is not None and index_path(database).exists():
        with RunIndex(index_path(database)) as index:
            index.forget([thread_id])


def _sqlite_rows(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str] | None:
    """The rows and the store's name for a SQLite store, from the run index where it is current; None for another
    store (PostgreSQL), which the settings model opens."""
    from satiate.graph.checkpoint.index import RunIndex, index_path, read_marks
    from satiate.graph.checkpoint.location import checkpoint_url_in, is_sqlite_url, sqlite_path_of
    from satiate.graph.checkpoint.locks import is_running
    from satiate.state.data_dir import data_dir_of

    data_dir = data_dir_of(args.setting_data_dir)
    check_data_dir(data_dir)
    url = checkpoint_url_in(data_dir)
    if not is_sqlite_url(url):
        return None
    database = sqlite_path_of(url)
    try:
        marks = read_marks(database) if database.is_file() and database.stat().st_size else None
    except (sqlite3.Error, OSError):
        marks = None
    if marks is None:  # a new, emptied or unreadable file: the saver makes it, or says what is wrong with it
        from satiate.graph.checkpoint import sqlite_checkpointer_at

        with sqlite_checkpointer_at(database, read_only_ok=True) as saver:
            return run_rows(saver, data_dir), str(database)
    with RunIndex(index_path(database)) as index:
        indexed = index.rows()
        settled = {thread_id: indexed[thread_id][1] for thread_id, mark in marks.items()
                   if thread_id in indexed and indexed[thread_id][0] == mark.fingerprint}
        stale = [thread_id for thread_id in marks if thread_id not in settled]
        if stale:
            settled.update(_read_slowly(database, index, stale, marks))
    rows = [listed_row(settled[thread_id], is_running(data_dir, thread_id), marks[thread_id].stored_bytes)
            for thread_id in marks if thread_id in settled]
    rows.sort(key=lambda row: datetime.fromisoformat(row["started"]), reverse=True)
    return rows, str(database)


def _read_slowly(database: Path, index: Any, thread_ids: list[str], marks: dict[str, Any]
                 ) -> dict[str, dict[str, Any]]:
    """The settled rows of threads the index does not have (or has from before they moved on), read from their
    state and written to the index."""
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import sqlite_checkpointer_at, stored_thread

    found = {}
    with sqlite_checkpointer_at(database, read_only_ok=True) as saver:
        app = build_graph(checkpointer=saver)
        for thread_id in thread_ids:
            thread = stored_thread(saver, thread_id)
            if thread is None:  # deleted since the marks were read
                continue
            settled = settled_row(app, thread)
            found[thread.thread_id] = settled
            if settled["text_bytes"] is not None:
                index.remember(thread.thread_id, marks[thread.thread_id].fingerprint, settled)
    return found


# --- the command --------------------------------------------------------------------------------------------------
def command_list(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.terminal import json_safe_for_terminal, strip_terminal_escapes

    on_sqlite = _sqlite_rows(args)
    if on_sqlite is not None:
        rows, label = on_sqlite
    else:
        from satiate.graph.checkpoint import store_label

        settings = settings_from(args)
        with open_store(settings, read_only_ok=True) as saver:
            rows = run_rows(saver, settings.data_path)
        label = store_label(settings)
    if args.json:
        sys.stdout.write(json_safe_for_terminal(json.dumps(rows, indent=2, ensure_ascii=False)) + "\n")
        return EXIT_OK
    if not rows:
        say(err, f"no runs stored in {label}")
        return EXIT_OK
    # Plain columns, thread IDs whole: they are what people copy into `satiate show`. Only the question, last, is
    # cut, and only to fit a terminal; a pipe gets it whole.
    id_width = max(len("thread"), *(len(row["thread_id"]) for row in rows))
    status_width = max(len(status) for status in ("status", *(row["status"] for row in rows)))
    size_width = max(len(text) for text in ("size", *(size_text(row["stored_bytes"]) for row in rows)))
    lines = [f"{'thread':<{id_width}}  {'started':<16}  {'status':<{status_width}}  {'size':>{size_width}}  question"]
    room = None
    if may_be_terminal() and out.is_terminal:
        room = max(LIST_QUESTION_MIN_CHARS, out.width - id_width - 16 - status_width - size_width - 8)
    for row in rows:
        question = " ".join(strip_terminal_escapes(row["question"]).split())
        if room is not None and len(question) > room:
            question = question[:room - 1] + "…"
        lines.append(f"{strip_terminal_escapes(row['thread_id']):<{id_width}}  {local_time(row['started'])}  "
                     f"{row['status']:<{status_width}}  {size_text(row['stored_bytes']):>{size_width}}  {question}")
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
