"""The ``satiate`` command: run a question, resume or show a run by thread ID, list, delete and prune runs.

Every bad input ends in one clear line on stderr and exit code 2, never a traceback. Heavy modules (the settings
model, the graph, rich's Markdown) are imported by the command that needs them, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import types
import typing
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
SHORT_FLAGS = {"corpus", "llm", "tier", "seed", "web", "offline", "data_dir", "backends"}
OUTPUT_SUFFIXES = {".md": "report", ".json": "result"}
AGE_UNITS_S = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}
LIST_QUESTION_MIN_CHARS = 20  # on a narrow terminal the question is cut to fit, but never below this


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


# --- settings flags, generated from the settings object so there is one place for each knob ---------------------------
def _flag_type(annotation: Any) -> tuple[Any, dict[str, Any]]:
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _flag_type(args[0])
    if annotation is bool:
        return None, {"action": argparse.BooleanOptionalAction}
    if origin is typing.Literal:
        return None, {"choices": list(typing.get_args(annotation))}
    if annotation in (int, float):
        return annotation, {}
    return str, {}


def add_setting_flags(parser: argparse.ArgumentParser, advanced: argparse._ArgumentGroup) -> None:
    from satiate.state.settings import Settings

    for name, field in Settings.model_fields.items():
        kind, extra = _flag_type(field.annotation)
        # argparse formats help with %: a description saying "40 % fewer" must not be read as a format directive
        text = (field.description or "").replace("%", "%%")
        options: dict[str, Any] = {"dest": f"setting_{name}", "default": None, "help": text, **extra}
        if kind is not None and "choices" not in extra:
            options["type"] = kind
        target = parser if name in SHORT_FLAGS else advanced
        target.add_argument(f"--{name.replace('_', '-')}", **options)


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser that adds some of its arguments only when it is used, so ``satiate --help`` or
    ``satiate list`` need not import the settings model to build ``run``'s many flags."""

    def __init__(self, *args: Any, complete: Callable[[argparse.ArgumentParser], None] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._complete = complete

    def _completed(self) -> None:
        if self._complete is not None:
            complete, self._complete = self._complete, None
            complete(self)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._completed()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._completed()
        return super().format_help()

    def format_usage(self) -> str:
        self._completed()
        return super().format_usage()


def overrides_from(args: argparse.Namespace) -> dict[str, Any]:
    found = {key.removeprefix("setting_"): value for key, value in vars(args).items()
             if key.startswith("setting_") and value is not None}
    if "corpus" in found:
        found["corpus"] = str(Path(found["corpus"]).expanduser().resolve())
    return found


def _settings(args: argparse.Namespace) -> Any:
    from satiate.state.settings import resolve_settings

    settings = resolve_settings(overrides_from(args))
    _check_data_dir(settings.data_path)
    return settings


def _check_data_dir(path: Path) -> None:
    """The data directory, or the nearest part of its path that exists, must be a folder (it is made if missing)."""
    for part in (path, *path.parents):
        if part.exists():
            if not part.is_dir():
                where = "" if part == path else f" ({part} is a file)"
                raise UsageError(f"data directory {path} is not a folder{where}: give a folder with --data-dir or "
                                 "SATIATE_DATA_DIR (it is created if missing)")
            return


def _say(err: Console, text: str) -> None:
    """One line on stderr, shown literally: thread IDs, questions and errors may contain ``[`` or escapes."""
    from satiate.graph.terminal import strip_terminal_escapes

    err.print(strip_terminal_escapes(text), markup=False, highlight=False)


# --- output -----------------------------------------------------------------------------------------------------------
def output_path(args: argparse.Namespace) -> Path | None:
    """The ``--output`` file, checked before any work is done: its suffix picks the format."""
    if not getattr(args, "output", None):
        return None
    path = Path(args.output).expanduser()
    if path.suffix.lower() not in OUTPUT_SUFFIXES:
        raise UsageError(f"--output {args.output}: use a name ending in .md (the Markdown report) or .json "
                         "(the result object)")
    if args.json or args.agent:
        raise UsageError("--output picks the format from its suffix: leave out --json and --agent")
    if path.is_dir():
        raise UsageError(f"--output {args.output} is a folder: give a file name ending in .md or .json")
    return path


def _write_atomically(path: Path, text: str) -> None:
    """A half-written file is worse than none: write beside it, then rename over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _result_of(state_values: dict[str, Any], thread_id: str) -> Any:
    """A finished run's stored result (it carries the texts its claims cite, so showing it needs no store, not even a
    writable one), else the result built from the state so far."""
    from pydantic import ValidationError

    from satiate.graph.checkpoint import is_finished
    from satiate.graph.deps import store_for
    from satiate.nodes.report import build_result
    from satiate.state.contracts import ResearchResult

    if is_finished(state_values):
        try:
            return ResearchResult.model_validate({**state_values["result"], "thread_id": thread_id})
        except ValidationError:  # a result stored by an older satiate: built again from the state
            pass
    return build_result(state_values, thread_id, store_for)


def _print_result(state_values: dict[str, Any], thread_id: str, args: argparse.Namespace, out: Console,
                  err: Console) -> None:
    from satiate.graph.terminal import json_safe_for_terminal, strip_terminal_escapes

    result = _result_of(state_values, thread_id)
    target = output_path(args)
    if target is not None:
        kind = OUTPUT_SUFFIXES[target.suffix.lower()]
        text = result.report if kind == "report" else json_safe_for_terminal(result.model_dump_json(indent=2)) + "\n"
        _write_atomically(target, text)
        _say(err, f"{kind} written to {target}")
    elif args.agent:  # design §18: summary plus only the sources the gated claims cite
        from satiate.state.contracts import AgentResponse

        sys.stdout.write(json_safe_for_terminal(AgentResponse.from_result(result).model_dump_json(indent=2)) + "\n")
    elif args.json:
        sys.stdout.write(json_safe_for_terminal(result.model_dump_json(indent=2)) + "\n")
    elif out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(strip_terminal_escapes(result.report)))
    else:  # a pipe or a file: the Markdown itself, for the next program to read
        sys.stdout.write(result.report)
        sys.stdout.flush()


# --- commands ---------------------------------------------------------------------------------------------------------
def _open(settings: Any, *, read_only_ok: bool = False) -> Any:
    """The run store: SQLite in the data directory, or the ``SATIATE_CHECKPOINT_URL`` (e.g. PostgreSQL); opened
    for reading when it cannot be written and ``read_only_ok`` (list, show)."""
    from satiate.graph.checkpoint import open_checkpointer

    return open_checkpointer(settings, read_only_ok=read_only_ok)


def _unknown_thread(thread_id: str, settings: Any) -> UsageError:
    from satiate.graph.checkpoint import store_label

    return UsageError(f"unknown thread id {thread_id!r} in {store_label(settings)} (see 'satiate list'; a run "
                      "stopped before its first step was saved has nothing to resume: run the question again)")


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
        _say(err, f"model: {notice}")
    if settings.metrics_port is not None:
        from satiate.graph.deps import metrics_for

        if metrics_for(settings) is None:
            _say(err, f"metrics: port {settings.metrics_port} could not be opened; running without metrics")
        else:
            err.print(f"metrics: Prometheus on 127.0.0.1:{settings.metrics_port}", highlight=False)
    _say(err, f"search: {chain}")
    for backend in service.backends.values():  # e.g. "skipped 2 malformed lines in notes.jsonl (first: line 7: ...)"
        for line in getattr(backend, "notices", []):
            _say(err, f"corpus: {line}")
    if "web" in settings.resolved_backends():
        from satiate.tools.fetch import extraction_degraded

        degraded = extraction_degraded()
        if degraded:
            _say(err, f"warning: {degraded}")


def _graph_config(thread_id: str) -> dict[str, Any]:
    from satiate.graph.builder import RECURSION_LIMIT

    return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


def command_run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from rich.markup import escape

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import run_lock
    from satiate.nodes.plan import check_question

    overrides = overrides_from(args)
    settings = _settings(args)
    check_question(args.question, settings.max_question_chars)
    output_path(args)
    thread_id = args.thread_id or str(uuid.uuid4())  # a UUID, so the LangGraph server and Studio accept it too
    _preflight(settings, err)
    with _open(settings) as saver, run_lock(settings.data_path, thread_id):
        app = build_graph(checkpointer=saver)
        config = _graph_config(thread_id)
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
    from satiate.graph.checkpoint import RunInProgress, is_finished
    from satiate.tools.store import StorageError

    try:
        _stream(app, payload, config, err)
    except KeyboardInterrupt:
        _say(err, f"interrupted; resume with: satiate resume {thread_id}")
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
        _say(err, f"error in {where}: {type(exc).__name__}: {exc}")
        _say(err, f"the run is checkpointed; resume with: satiate resume {thread_id}")
        return EXIT_FAILED
    snapshot = app.get_state(config)
    if not is_finished(snapshot.values):  # the stream ended without finalize: nothing in satiate's graph does this
        _say(err, f"the run stopped before it finished; resume with: satiate resume {thread_id}")
        return EXIT_FAILED
    _print_result(snapshot.values, thread_id, args, out, err)
    return EXIT_OK


def _run_settings(values: dict[str, Any]) -> Any:
    """The settings a stored run decides with: frozen at planning, or (stopped before planning) its own overrides."""
    from satiate.state.settings import Settings, resolve_settings

    if "resolved_settings" in values:
        return Settings.model_validate(values["resolved_settings"])
    return resolve_settings(values.get("settings") or {})


def command_resume(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import is_finished, run_lock

    settings = _settings(args)
    output_path(args)
    with _open(settings) as saver:
        app = build_graph(checkpointer=saver)
        config = _graph_config(args.thread_id)
        if not app.get_state(config).values:
            raise _unknown_thread(args.thread_id, settings)
        with run_lock(settings.data_path, args.thread_id):
            snapshot = app.get_state(config)  # again, now that no other process can be moving it on
            if is_finished(snapshot.values):
                _say(err, f"thread {args.thread_id} already finished; showing it.")
                _print_result(snapshot.values, args.thread_id, args, out, err)
                return EXIT_OK
            _preflight(_run_settings(snapshot.values), err)
            # An empty `next` with no result: the last step's writes were saved, the next checkpoint was not.
            where = ", ".join(snapshot.next) or "the step after the last one saved"
            _say(err, f"resuming thread {args.thread_id} at: {where}")
            return _drive(app, None, config, args.thread_id, args, out, err)


def command_show(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import is_running, run_status

    settings = _settings(args)
    output_path(args)
    with _open(settings, read_only_ok=True) as saver:
        app = build_graph(checkpointer=saver)
        snapshot = app.get_state({"configurable": {"thread_id": args.thread_id}})
        if not snapshot.values:
            raise _unknown_thread(args.thread_id, settings)
        status = run_status(snapshot, is_running(settings.data_path, args.thread_id))
        if status != "finished":
            at = f", next: {', '.join(snapshot.next)}" if snapshot.next else ""
            _say(err, f"thread {args.thread_id} is unfinished ({status}{at}); showing what it has.")
        if "resolved_settings" not in snapshot.values:
            raise UsageError(f"thread {args.thread_id} stopped before planning; resume it first")
        if args.plot:  # checked first: a bad --plot must not leave a report written and an exit code 2
            from satiate.graph.plot import plot_file_name, plot_rounds

            try:
                written = plot_rounds(snapshot.values.get("rounds", []), Path(args.plot), snapshot.values["question"],
                                      name=plot_file_name(args.thread_id))
            except (RuntimeError, ValueError) as exc:
                raise UsageError(str(exc)) from None
            _print_result(snapshot.values, args.thread_id, args, out, err)
            _say(err, f"plot written to {written}")
        else:
            _print_result(snapshot.values, args.thread_id, args, out, err)
        return EXIT_OK


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def run_rows(saver: Any, data_dir: Path) -> list[dict[str, Any]]:
    """One row per stored run, the most recently started first (what ``satiate list --json`` prints)."""
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import is_running, run_status, step_errors, stored_threads

    app = build_graph(checkpointer=saver)
    rows = []
    for thread in stored_threads(saver):
        snapshot = app.get_state({"configurable": {"thread_id": thread.thread_id}})
        values = snapshot.values
        errors = step_errors(snapshot)
        rows.append({
            "thread_id": thread.thread_id,
            "status": run_status(snapshot, is_running(data_dir, thread.thread_id)),
            "started": _iso(thread.started),
            "updated": _iso(thread.updated),
            "question": str(values.get("question", "")),
            "next": list(snapshot.next),
            "error": _error_text(errors[0]) if errors else None,
            "stop_reason": values.get("stop_reason") or None,
            "claims": len(values.get("claims", [])),
            "sources": len(values.get("sources", {})),
            **_stored_size(saver, thread.thread_id, values),
        })
    return rows


def _stored_size(saver: Any, thread_id: str, values: dict[str, Any]) -> dict[str, int | None]:
    """What a run takes: its checkpoints (and task writes) and the source texts it uses in its store (a text shared
    with other runs counts for each); None where the store cannot say (another saver, a store that cannot be opened)."""
    from sqlalchemy.exc import SQLAlchemyError

    from satiate.graph.checkpoint import thread_storage
    from satiate.graph.deps import store_for
    from satiate.tools.source_texts import run_text_bytes
    from satiate.tools.store import StorageError

    stored = thread_storage(saver, thread_id)
    checkpoint_bytes = stored.total_bytes if stored is not None else None
    text_bytes: int | None = 0
    if values.get("sources") or values.get("search_results"):
        try:
            text_bytes = run_text_bytes(store_for(_run_settings(values)), thread_id)
        except (StorageError, SQLAlchemyError):  # e.g. a read-only store that predates the text tables
            text_bytes = None
    total = None if checkpoint_bytes is None or text_bytes is None else checkpoint_bytes + text_bytes
    return {"checkpoint_bytes": checkpoint_bytes, "text_bytes": text_bytes, "stored_bytes": total}


def _size_text(size: int | None) -> str:
    if size is None:
        return "?"
    for unit, scale in (("MB", 1_000_000), ("kB", 1_000)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def _error_text(error: Any) -> str:
    return error if isinstance(error, str) else f"{type(error).__name__}: {error}"


def _local_time(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")


def command_list(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.checkpoint import store_label
    from satiate.graph.terminal import json_safe_for_terminal, strip_terminal_escapes

    settings = _settings(args)
    with _open(settings, read_only_ok=True) as saver:
        rows = run_rows(saver, settings.data_path)
    if args.json:
        sys.stdout.write(json_safe_for_terminal(json.dumps(rows, indent=2, ensure_ascii=False)) + "\n")
        return EXIT_OK
    if not rows:
        _say(err, f"no runs stored in {store_label(settings)}")
        return EXIT_OK
    # Plain columns, thread IDs whole: they are what people copy into `satiate show`. Only the question, last, is
    # cut, and only to fit a terminal; a pipe gets it whole.
    id_width = max(len("thread"), *(len(row["thread_id"]) for row in rows))
    status_width = max(len(status) for status in ("status", *(row["status"] for row in rows)))
    size_width = max(len(text) for text in ("size", *(_size_text(row["stored_bytes"]) for row in rows)))
    lines = [f"{'thread':<{id_width}}  {'started':<16}  {'status':<{status_width}}  {'size':>{size_width}}  question"]
    room = None
    if out.is_terminal:
        room = max(LIST_QUESTION_MIN_CHARS, out.width - id_width - 16 - status_width - size_width - 8)
    for row in rows:
        question = " ".join(strip_terminal_escapes(row["question"]).split())
        if room is not None and len(question) > room:
            question = question[:room - 1] + "…"
        lines.append(f"{strip_terminal_escapes(row['thread_id']):<{id_width}}  {_local_time(row['started'])}  "
                     f"{row['status']:<{status_width}}  {_size_text(row['stored_bytes']):>{size_width}}  {question}")
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


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
        forget_run_lock(data_dir, thread_id)
        if not (values.get("sources") or values.get("search_results")):
            return 0  # stopped before it read anything: it has no texts
        return release_run_texts(store_for(_run_settings(values)), thread_id)


def _say_texts_deleted(err: Console, count: int) -> None:
    if count:
        _say(err, f"deleted {count} source text(s) no remaining run uses")


def _vacuum(saver: Any, settings: Any, err: Console) -> None:
    from satiate.graph.checkpoint import checkpoint_url, sqlite_path_of, vacuum

    if vacuum(saver):
        path = sqlite_path_of(checkpoint_url(settings))
        _say(err, f"compacted {path} (now {path.stat().st_size / 1_048_576:.2f} MiB)")
    else:
        _say(err, "--vacuum applies to the SQLite store only; PostgreSQL reclaims the space with autovacuum")


def command_delete(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.checkpoint import has_thread

    settings = _settings(args)
    with _open(settings) as saver:
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
    settings = _settings(args)
    cutoff = time.time() - age_s
    verb = "would delete" if args.dry_run else "deleted"
    removed = texts = 0
    with _open(settings) as saver:
        for thread in stored_threads(saver):
            if thread.updated.timestamp() >= cutoff:
                continue
            if is_running(settings.data_path, thread.thread_id):
                _say(err, f"skipped {thread.thread_id}: a satiate process is running it")
                continue
            if not args.dry_run:
                try:
                    texts += _delete_run(saver, settings.data_path, thread.thread_id)
                except RunInProgress as exc:  # it started between the check and the delete
                    _say(err, f"skipped {thread.thread_id}: {exc}")
                    continue
            removed += 1
            sys.stdout.write(f"{verb} {thread.thread_id}  (last step {_local_time(_iso(thread.updated))})\n")
        if not args.dry_run:
            texts += _release_threadless_texts(settings, cutoff)
        if args.vacuum and removed and not args.dry_run:
            _vacuum(saver, settings, err)
    _say(err, f"{verb} {removed} run(s) whose last step is older than {args.older_than.strip()}")
    _say_texts_deleted(err, texts)
    return EXIT_OK


# --- the parser -------------------------------------------------------------------------------------------------------
def _add_result_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--agent", action="store_true",
                        help="print the compact answer (summary and cited sources) as JSON")
    parser.add_argument("--output", metavar="PATH",
                        help="write to this file instead of stdout: PATH.md the Markdown report, PATH.json the "
                        "result object")


def _add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", dest="setting_data_dir", default=None, help="where runs are stored")


def _complete_run(parser: argparse.ArgumentParser) -> None:
    add_setting_flags(parser, parser.add_argument_group("advanced settings (also SATIATE_<NAME> in the environment)"))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="satiate", description=__doc__.splitlines()[0],
        epilog="exit codes: 0 done, 1 the run failed (it is checkpointed: resume it), 2 bad input, a named model "
        "that does not answer, a store that cannot be used (damaged, read-only, a full disk) or a thread another run "
        "is writing, 130 interrupted")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)

    run = commands.add_parser("run", help="research a question", complete=_complete_run)
    run.add_argument("question", help="the question, in quotes")
    run.add_argument("--thread-id", help="thread ID to store the run under (default: a new random one)")
    _add_result_flags(run)
    run.set_defaults(handler=command_run)

    for name, handler, text in (("resume", command_resume, "continue an interrupted or failed run"),
                                ("show", command_show, "print a run's report")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("thread_id")
        _add_result_flags(sub)
        _add_data_dir(sub)
        if name == "show":
            sub.add_argument("--plot", metavar="PNG",
                             help="also write the convergence curves to this PNG file (into it, for a folder)")
        sub.set_defaults(handler=handler)

    listing = commands.add_parser("list", help="list stored runs, the most recently started first")
    listing.add_argument("--json", action="store_true", help="print a JSON list of objects, one per run")
    _add_data_dir(listing)
    listing.set_defaults(handler=command_list)

    delete = commands.add_parser("delete", help="delete runs: every checkpoint of the thread, and the source texts "
                                 "no other run uses")
    delete.add_argument("thread_ids", nargs="+", metavar="thread_id")
    delete.add_argument("--vacuum", action="store_true", help="then give the space back to the disk (SQLite)")
    _add_data_dir(delete)
    delete.set_defaults(handler=command_delete)

    prune = commands.add_parser("prune", help="delete runs whose last step is older than an age (with the source "
                                "texts no other run uses)")
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 30d, 12h, 90m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only print what would be deleted")
    prune.add_argument("--vacuum", action="store_true", help="then give the space back to the disk (SQLite)")
    _add_data_dir(prune)
    prune.set_defaults(handler=command_prune)

    from satiate.graph.cache_cli import add_cache_parser

    add_cache_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from rich.console import Console

    out = Console()
    err = Console(stderr=True, soft_wrap=True)
    try:
        return args.handler(args, out, err)
    except Exception as exc:  # bad input, or known input errors raised below the CLI (settings, corpus, engine)
        from satiate.graph.checkpoint import RunInProgress
        from satiate.graph.deps import EngineUnavailable
        from satiate.graph.terminal import strip_terminal_escapes
        from satiate.nodes.plan import QuestionError
        from satiate.state.settings import SettingsError
        from satiate.tools.search.local_corpus import CorpusError
        from satiate.tools.store import StorageError

        known = (UsageError, SettingsError, QuestionError, CorpusError, EngineUnavailable, RunInProgress,
                 StorageError)
        if isinstance(exc, known):  # the message may quote a thread ID or a question: shown literally
            print(f"satiate: {strip_terminal_escapes(str(exc))}", file=sys.stderr)
            return EXIT_USAGE
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
