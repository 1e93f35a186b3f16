"""``satiate show``, ``delete`` and ``prune``: a stored run looked at, and runs looked after (``list`` is in
``listing``)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satiate.graph.cli.listing import forget_run
from satiate.graph.cli.options import open_store, settings_from, unknown_thread
from satiate.graph.cli.output import (
    EXIT_OK,
    UsageError,
    iso_time,
    local_time,
    output_path,
    print_result,
    say,
    stored_run_settings,
)

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

AGE_UNITS_S = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}


# --- show -------------------------------------------------------------------------------------------------------------
def command_show(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import is_running, run_status

    settings = settings_from(args)
    output_path(args)
    with open_store(settings, read_only_ok=True) as saver:
        app = build_graph(checkpointer=saver)
        snapshot = app.get_state({"configurable": {"thread_id": args.thread_id}})
        if not snapshot.values:
            raise unknown_thread(args.thread_id, settings)
        status = run_status(snapshot, is_running(settings.data_path, args.thread_id))
        if status != "finished":
            at = f", next: {', '.join(snapshot.next)}" if snapshot.next else ""
            say(err, f"thread {args.thread_id} is unfinished ({status}{at}); showing what it has.")
        if "resolved_settings" not in snapshot.values:
            raise UsageError(f"thread {args.thread_id} stopped before planning; resume it first")
        if args.plot:  # checked first: a bad --plot must not leave a report written and an exit code 2
            from satiate.graph.plot import plot_file_name, plot_rounds

            try:
                written = plot_rounds(snapshot.values.get("rounds", []), args.plot, snapshot.values["question"],
                                      name=plot_file_name(args.thread_id))
            except (RuntimeError, ValueError) as exc:
                raise UsageError(str(exc)) from None
            print_result(snapshot.values, args.thread_id, args, out, err)
            say(err, f"plot written to {written}")
        else:
            print_result(snapshot.values, args.thread_id, args, out, err)
        return EXIT_OK


# --- delete and prune -------------------------------------------------------------------------------------------------
def _delete_run(saver: Any, data_dir: Path, thread_id: str) -> int:
    """Delete the run's checkpoints, then the source texts no other run uses; returns how many texts went. The
    checkpoints go first: a failure in between leaves texts nobody refers to, never a run missing its texts."""
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import delete_thread, forget_run_lock, run_lock
    from satiate.graph.deps import store_for
    from satiate.tools.source_texts import release_run_texts

    with run_lock(data_dir, thread_id):  # never delete a run another process is writing
        values = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}}).values
        delete_thread(saver, thread_id)
        forget_run(saver, thread_id)
        forget_run_lock(data_dir, thread_id)
        if not (values.get("sources") or values.get("search_results")):
            return 0  # stopped before it read anything: it has no texts
        return release_run_texts(store_for(stored_run_settings(values)), thread_id)


def _say_texts_deleted(err: Console, count: int) -> None:
    if count:
        say(err, f"deleted {count} source text(s) no remaining run uses")


def _vacuum(saver: Any, settings: Any, err: Console) -> None:
    from satiate.graph.checkpoint import checkpoint_url, sqlite_path_of, vacuum

    if vacuum(saver):
        path = sqlite_path_of(checkpoint_url(settings))
        say(err, f"compacted {path} (now {path.stat().st_size / 1_048_576:.2f} MiB)")
    else:
        say(err, "--vacuum applies to the SQLite store only; PostgreSQL reclaims the space with autovacuum")


def command_delete(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.checkpoint import has_thread

    settings = settings_from(args)
    with open_store(settings) as saver:
        missing = [thread_id for thread_id in args.thread_ids if not has_thread(saver, thread_id)]
        if missing:  # all or nothing: a typo in one ID must not leave the others half done
            raise UsageError(f"unknown thread id {missing[0]!r}: nothing deleted (see 'satiate list')")
        texts = 0
        for thread_id in dict.fromkeys(args.thread_ids):
            texts += _delete_run(saver, settings.data_path, thread_id)
            sys.stdout.write(f"deleted {thread_id}\n")
        _say_texts_deleted(err, texts)
        if args.vacuum:
            _vacuum(saver, settings, err)
    return EXIT_OK


def parse_age(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``2w``, ``45s`` -> seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text, flags=re.IGNORECASE)
    if not match:
        raise UsageError(f"--older-than {text!r}: give a number and a unit (s, m, h, d, w), e.g. 30d or 12h")
    return float(match.group(1)) * AGE_UNITS_S[match.group(2).lower()]


def _release_threadless_texts(settings: Any, cutoff: float) -> int:
    """Texts kept by runs without a thread ID (``graph.invoke`` with no checkpointer) before ``cutoff``: nothing can
    resume or show those runs, so their texts go with the age, like the runs a thread keeps."""
    from satiate.graph.deps import store_for

    return store_for(settings).release_texts("", now=time.time(), before=cutoff)


def command_prune(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.checkpoint import RunInProgress, is_running, stored_threads

    age_s = parse_age(args.older_than)
    settings = settings_from(args)
    cutoff = time.time() - age_s
    verb = "would delete" if args.dry_run else "deleted"
    removed = texts = 0
    with open_store(settings) as saver:
        for thread in stored_threads(saver):
            if thread.updated.timestamp() >= cutoff:
                continue
            if is_running(settings.data_path, thread.thread_id):
                say(err, f"skipped {thread.thread_id}: a satiate process is running it")
                continue
            if not args.dry_run:
                try:
                    texts += _delete_run(saver, settings.data_path, thread.thread_id)
                except RunInProgress as exc:  # it started between the check and the delete
                    say(err, f"skipped {thread.thread_id}: {exc}")
                    continue
            removed += 1
            sys.stdout.write(f"{verb} {thread.thread_id}  (last step {local_time(iso_time(thread.updated))})\n")
        if not args.dry_run:
            texts += _release_threadless_texts(settings, cutoff)
        if args.vacuum and removed and not args.dry_run:
            _vacuum(saver, settings, err)
    say(err, f"{verb} {removed} run(s) whose last step is older than {args.older_than.strip()}")
    _say_texts_deleted(err, texts)
    return EXIT_OK
