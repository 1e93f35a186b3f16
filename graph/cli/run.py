"""``satiate run`` and ``satiate resume``: drive a research run to its end, streaming its progress to stderr, and
print its result; a failure or Ctrl-C leaves it checkpointed, to be resumed by thread ID."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from satiate.graph.cli.options import graph_config, open_store, overrides_from, settings_from, unknown_thread
from satiate.graph.cli.output import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    output_path,
    print_result,
    say,
    stored_run_settings,
)

if TYPE_CHECKING:
    import argparse

    from rich.console import Console


def _stream(app: Any, payload: Any, config: dict[str, Any], err: Console) -> None:
    from satiate.graph.progress import ProgressView, progress_line

    with ProgressView(err, progress_line) as view:  # a live totals footer when stderr is a terminal
        # durability="sync": each step is saved before the next starts, so a killed process loses at most the
        # steps in flight; a checkpoint of references costs about 1 ms (see graph/checkpoint.py).
        for chunk in app.stream(payload, config, stream_mode="custom", durability="sync"):
            if isinstance(chunk, dict):
                view.show(chunk)


def _preflight(settings: Any, err: Console) -> None:
    """Fail fast with a clear message: corpus missing, a named model that does not answer."""
    from rich.markup import escape

    from satiate.graph.deps import engine_for, search_service_for

    service = search_service_for(settings)
    engine = engine_for(settings)
    chain = ", ".join(f"{name} ({service.backends[name].description})" for name in settings.resolved_backends())
    err.print(f"engine: {escape(engine.label)}" + ("  [dim](no model: the deterministic engine decides)[/]"
                                                  if engine.label == "deterministic" else ""), highlight=False)
    notice = getattr(engine, "notice", None)  # the model probe's outcome, e.g. "start it with `ollama serve`"
    if notice:
        say(err, f"model: {notice}")
    if settings.metrics_port is not None:
        from satiate.graph.deps import metrics_for

        if metrics_for(settings) is None:
            say(err, f"metrics: port {settings.metrics_port} could not be opened; running without metrics")
        else:
            err.print(f"metrics: Prometheus on 127.0.0.1:{settings.metrics_port}", highlight=False)
    say(err, f"search: {chain}")
    for backend in service.backends.values():  # e.g. "skipped 2 malformed lines in notes.jsonl (first: line 7: ...)"
        for line in dict.fromkeys(getattr(backend, "notices", [])):  # a notice repeated by a backend is said once
            say(err, f"corpus: {line}")
    if "web" in settings.resolved_backends():
        from satiate.tools.fetch import extraction_degraded

        degraded = extraction_degraded()
        if degraded:
            say(err, f"warning: {degraded}")


def command_run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from rich.markup import escape

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import run_lock
    from satiate.nodes.plan import check_question

    overrides = overrides_from(args)
    settings = settings_from(args)
    check_question(args.question, settings.max_question_chars)
    output_path(args)
    thread_id = args.thread_id or str(uuid.uuid4())  # a UUID, so the LangGraph server and Studio accept it too
    _preflight(settings, err)
    with open_store(settings) as saver, run_lock(settings.data_path, thread_id):
        app = build_graph(checkpointer=saver)
        config = graph_config(thread_id)
        if app.get_state(config).values:
            raise UsageError(f"thread {thread_id} already exists: use 'satiate resume {thread_id}' or "
                             f"'satiate show {thread_id}'")
        err.print(f"thread: [bold]{escape(thread_id)}[/]  (resume with: satiate resume {escape(thread_id)})",
                  highlight=False)
        return _drive(app, {"question": args.question, "settings": overrides}, config, thread_id, args, out, err)


def _failed_tasks(snapshot: Any) -> list[str]:
    return [task.name for task in snapshot.tasks if task.error is not None] or list(snapshot.next)


def _drive(app: Any, payload: Any, config: dict[str, Any], thread_id: str, args: argparse.Namespace, out: Console,
           err: Console) -> int:
    """Run the graph to its end (or its failure) and say how it ended; the thread's row in the run index is
    refreshed however it ended, so ``satiate list`` reads it without loading its state."""
    try:
        return _drive_to_end(app, payload, config, thread_id, args, out, err)
    finally:
        _remember(app, thread_id)


def _remember(app: Any, thread_id: str) -> None:
    from satiate.graph.cli.listing import remember_run

    saver = getattr(app, "checkpointer", None)
    if saver is not None:
        remember_run(saver, app, thread_id)


def _drive_to_end(app: Any, payload: Any, config: dict[str, Any], thread_id: str, args: argparse.Namespace,
                  out: Console, err: Console) -> int:
    from satiate.graph.checkpoint import RunInProgress, is_finished
    from satiate.tools.store import StorageError

    try:
        _stream(app, payload, config, err)
    except KeyboardInterrupt:
        say(err, f"interrupted; resume with: satiate resume {thread_id}")
        return EXIT_INTERRUPTED
    except (UsageError, RunInProgress):  # another run writes this thread: refused before any step, exit 2
        raise
    except StorageError as exc:  # a full disk or a read-only store under the run: its saved steps are kept
        if exc.kind in ("full", "read_only"):
            raise StorageError(f"{exc}; then resume with: satiate resume {thread_id}", exc.kind) from None
        raise
    except Exception as exc:
        from satiate.state.settings import SettingsError

        if isinstance(exc, SettingsError):
            raise
        where = ", ".join(_failed_tasks(app.get_state(config))) or "?"
        say(err, f"error in {where}: {type(exc).__name__}: {exc}")
        say(err, f"the run is checkpointed; resume with: satiate resume {thread_id}")
        return EXIT_FAILED
    snapshot = app.get_state(config)
    if not is_finished(snapshot.values):  # the stream ended without finalize: nothing in satiate's graph does this
        say(err, f"the run stopped before it finished; resume with: satiate resume {thread_id}")
        return EXIT_FAILED
    print_result(snapshot.values, thread_id, args, out, err)
    return EXIT_OK


def command_resume(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import is_finished, run_lock

    settings = settings_from(args)
    output_path(args)
    with open_store(settings) as saver:
        app = build_graph(checkpointer=saver)
        config = graph_config(args.thread_id)
        if not app.get_state(config).values:
            raise unknown_thread(args.thread_id, settings)
        with run_lock(settings.data_path, args.thread_id):
            snapshot = app.get_state(config)  # again, now that no other process can be moving it on
            if is_finished(snapshot.values):
                say(err, f"thread {args.thread_id} already finished; showing it.")
                print_result(snapshot.values, args.thread_id, args, out, err)
                return EXIT_OK
            _preflight(stored_run_settings(snapshot.values), err)
            # An empty `next` with no result: the last step's writes were saved, the next checkpoint was not.
            where = ", ".join(snapshot.next) or "the step after the last one saved"
            say(err, f"resuming thread {args.thread_id} at: {where}")
            return _drive(app, None, config, args.thread_id, args, out, err)
