"""The ``satiate`` command: run a question, resume or show a run by thread ID, list runs.

Every bad input ends in one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import types
import typing
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown

from satiate.state.settings import Settings, SettingsError, resolve_settings

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
SHORT_FLAGS = {"corpus", "llm", "tier", "seed", "web", "data_dir", "backends"}


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


# --- settings flags, generated from the settings object so there is one place for each knob ----------------------------
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
    for name, field in Settings.model_fields.items():
        kind, extra = _flag_type(field.annotation)
        options: dict[str, Any] = {"dest": f"setting_{name}", "default": None, "help": field.description, **extra}
        if kind is not None and "choices" not in extra:
            options["type"] = kind
        target = parser if name in SHORT_FLAGS else advanced
        target.add_argument(f"--{name.replace('_', '-')}", **options)


def overrides_from(args: argparse.Namespace) -> dict[str, Any]:
    found = {key.removeprefix("setting_"): value for key, value in vars(args).items()
             if key.startswith("setting_") and value is not None}
    if "corpus" in found:
        found["corpus"] = str(Path(found["corpus"]).expanduser().resolve())
    return found



# --- commands -----------------------------------------------------------------------------------------------------------
def _open(settings: Settings):
    """The run store: SQLite in the data directory, or the ``SATIATE_CHECKPOINT_URL`` (e.g. PostgreSQL)."""
    from satiate.graph.checkpoint import open_checkpointer

    return open_checkpointer(settings)


def _stream(app, payload, config, err: Console) -> None:
    from satiate.graph.progress import ProgressView, progress_line

    with ProgressView(err, progress_line) as view:  # a live totals footer when stderr is a terminal
        # durability="sync": each step is on disk before the next starts, so a killed process loses at most the
        # steps in flight (the checkpoint write is cheap next to a search or a model call).
        for chunk in app.stream(payload, config, stream_mode="custom", durability="sync"):
            if isinstance(chunk, dict):
                view.show(chunk)


def _print_result(state_values: dict[str, Any], thread_id: str, args: argparse.Namespace, out: Console) -> None:
    from satiate.nodes.report import build_result
    from satiate.state.contracts import AgentResponse

    result = build_result(state_values, thread_id)
    if args.agent:  # seed 002 §5.5: summary plus only the sources the gated claims cite
        sys.stdout.write(AgentResponse.from_result(result).model_dump_json(indent=2) + "\n")
    elif args.json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        out.print(Markdown(result.report))


def _preflight(settings: Settings, err: Console) -> None:
    """Fail fast with a clear message: corpus missing, engine unavailable."""
    from satiate.graph.deps import engine_for
    from satiate.tools.search.service import search_service_for

    service = search_service_for(settings)
    engine = engine_for(settings)
    chain = ", ".join(f"{name} ({service.backends[name].description})" for name in settings.resolved_backends())
    err.print(f"engine: {engine.label}" + ("  [dim](no model: the deterministic engine decides)[/]"
                                          if engine.label == "deterministic" else ""), highlight=False)
    notice = getattr(engine, "notice", None)  # the model probe's outcome, e.g. "start it with `ollama serve`"
    if notice:
        err.print(f"model: {notice}", highlight=False, markup=False)
    if settings.metrics_port is not None:
        from satiate.tools.metrics import metrics_for

        metrics_for(settings)
        err.print(f"metrics: Prometheus on 127.0.0.1:{settings.metrics_port}", highlight=False)
    err.print(f"search: {chain}", highlight=False)


def command_run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import RECURSION_LIMIT, build_graph
    from satiate.nodes.plan import check_question

    overrides = overrides_from(args)
    settings = resolve_settings(overrides)
    check_question(args.question, settings.max_question_chars)
    thread_id = args.thread_id or str(uuid.uuid4())  # a UUID, so the LangGraph server and Studio accept it too
    _preflight(settings, err)
    with _open(settings) as saver:
        app = build_graph(checkpointer=saver)
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}
        if app.get_state(config).values:
            raise UsageError(f"thread {thread_id} already exists: use 'satiate resume {thread_id}' or 'satiate show {thread_id}'")
        err.print(f"thread: [bold]{thread_id}[/]  (resume with: satiate resume {thread_id})", highlight=False)
        return _drive(app, {"question": args.question, "settings": overrides}, config, thread_id, args, out, err)


def _drive(app, payload, config, thread_id: str, args, out: Console, err: Console) -> int:
    try:
        _stream(app, payload, config, err)
    except KeyboardInterrupt:
        err.print(f"interrupted; resume with: satiate resume {thread_id}")
        return EXIT_INTERRUPTED
    except (SettingsError, UsageError):
        raise
    except Exception as exc:
        snapshot = app.get_state(config)
        where = ", ".join(snapshot.next) or "?"
        err.print(f"[red]error[/] in {where}: {type(exc).__name__}: {exc}", highlight=False)
        err.print(f"the run is checkpointed; resume with: satiate resume {thread_id}", highlight=False)
        return EXIT_FAILED
    snapshot = app.get_state(config)
    _print_result(snapshot.values, thread_id, args, out)
    return EXIT_OK


def command_resume(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import RECURSION_LIMIT, build_graph

    settings = resolve_settings(overrides_from(args))
    with _open(settings) as saver:
        app = build_graph(checkpointer=saver)
        config = {"configurable": {"thread_id": args.thread_id}, "recursion_limit": RECURSION_LIMIT}
        snapshot = app.get_state(config)
        if not snapshot.values:
            raise UsageError(f"unknown thread id {args.thread_id!r} in {settings.data_path} (see 'satiate list')")
        if not snapshot.next:
            err.print(f"thread {args.thread_id} already finished; showing it.")
            _print_result(snapshot.values, args.thread_id, args, out)
            return EXIT_OK
        err.print(f"resuming thread {args.thread_id} at: {', '.join(snapshot.next)}", highlight=False)
        return _drive(app, None, config, args.thread_id, args, out, err)


def command_show(args: argparse.Namespace, out: Console, err: Console) -> int:
    from satiate.graph.builder import build_graph

    settings = resolve_settings(overrides_from(args))
    with _open(settings) as saver:
        app = build_graph(checkpointer=saver)
        snapshot = app.get_state({"configurable": {"thread_id": args.thread_id}})
        if not snapshot.values:
            raise UsageError(f"unknown thread id {args.thread_id!r} in {settings.data_path} (see 'satiate list')")
        if snapshot.next:
            err.print(f"thread {args.thread_id} is unfinished (next: {', '.join(snapshot.next)}); showing what it has.")
        if "resolved_settings" not in snapshot.values:
            raise UsageError(f"thread {args.thread_id} stopped before planning; resume it first")
        _print_result(snapshot.values, args.thread_id, args, out)
        if args.plot:
            from satiate.graph.plot import plot_rounds

            try:
                written = plot_rounds(snapshot.values.get("rounds", []), Path(args.plot), snapshot.values["question"])
            except (RuntimeError, ValueError) as exc:
                raise UsageError(str(exc)) from None
            err.print(f"plot written to {written}", highlight=False)
        return EXIT_OK


def command_list(args: argparse.Namespace, out: Console, err: Console) -> int:
    from rich.table import Table

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import thread_ids

    settings = resolve_settings(overrides_from(args))
    with _open(settings) as saver:
        app = build_graph(checkpointer=saver)
        table = Table("thread", "status", "question", "claims", "sources")
        for thread_id in thread_ids(saver):
            snapshot = app.get_state({"configurable": {"thread_id": thread_id}})
            values = snapshot.values
            status = "finished" if not snapshot.next else f"stopped before {', '.join(snapshot.next)}"
            table.add_row(thread_id, status, str(values.get("question", ""))[:60], str(len(values.get("claims", []))),
                          str(len(values.get("sources", {}))))
        out.print(table)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="satiate", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="research a question")
    run.add_argument("question", help="the question, in quotes")
    run.add_argument("--thread-id", help="thread ID to store the run under (default: a new random one)")
    run.add_argument("--json", action="store_true", help="print the result as one JSON object")
    run.add_argument("--agent", action="store_true", help="print the compact answer (summary and cited sources) as JSON")
    add_setting_flags(run, run.add_argument_group("advanced settings (also SATIATE_<NAME> in the environment)"))
    run.set_defaults(handler=command_run)

    for name, handler, text in (("resume", command_resume, "continue an interrupted run"),
                                ("show", command_show, "print a run's report")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("thread_id")
        sub.add_argument("--json", action="store_true", help="print the result as one JSON object")
        sub.add_argument("--agent", action="store_true", help="print the compact answer (summary and cited sources) as JSON")
        sub.add_argument("--data-dir", dest="setting_data_dir", default=None, help="where runs are stored")
        if name == "show":
            sub.add_argument("--plot", metavar="PNG", help="also write the convergence curves to this PNG file")
        sub.set_defaults(handler=handler)

    listing = commands.add_parser("list", help="list stored runs")
    listing.add_argument("--data-dir", dest="setting_data_dir", default=None, help="where runs are stored")
    listing.set_defaults(handler=command_list)

    from satiate.graph.cache_cli import add_cache_parser

    add_cache_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    out = Console()
    err = Console(stderr=True, soft_wrap=True)
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args, out, err)
    except (SettingsError, UsageError) as exc:
        print(f"satiate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # known input errors raised below the CLI (corpus, question, engine)
        from satiate.graph.deps import EngineUnavailable
        from satiate.nodes.plan import QuestionError
        from satiate.tools.search.local_corpus import CorpusError

        if isinstance(exc, (QuestionError, CorpusError, EngineUnavailable)):
            print(f"satiate: {exc}", file=sys.stderr)
            return EXIT_USAGE
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
