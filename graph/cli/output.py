"""What the ``satiate`` command prints and writes: exit codes, the one-line error, a run's result on stdout or in a
file, sizes and times in a listing.

Everything shown comes from a question, a corpus or a web page, so it is shown literally: escape sequences and
control characters removed, on a terminal or a pipe alike (a file written with ``--output`` keeps the text as is).
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

    from satiate.state.schema import ResearchState

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
OUTPUT_SUFFIXES = {".md": "report", ".json": "result"}


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


class LazyConsole:
    """A rich Console made on first use: importing rich costs more than a ``satiate list`` into a pipe takes."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return getattr(self._console, name)


def may_be_terminal() -> bool:
    """Could rich take stdout for a terminal? Not for a pipe or a file unless told to (TTY_COMPATIBLE, FORCE_COLOR):
    only then is rich asked (and loaded), so a command writing plain text into a pipe stays quick."""
    return sys.stdout.isatty() or any(name in os.environ for name in ("TTY_COMPATIBLE", "FORCE_COLOR"))


def say(err: Console, text: str) -> None:
    """One line on stderr, shown literally: thread IDs, questions and errors may contain ``[`` or escapes."""
    from satiate.graph.terminal import strip_terminal_escapes

    err.print(strip_terminal_escapes(text), markup=False, highlight=False)


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


def write_atomically(path: Path, text: str) -> None:
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


def stored_run_settings(values: dict[str, Any]) -> Any:
    """The settings a stored run decides with: frozen at planning, or (stopped before planning) its own overrides."""
    from satiate.state.settings import Settings, resolve_settings

    if "resolved_settings" in values:
        return Settings.model_validate(values["resolved_settings"])
    return resolve_settings(values.get("settings") or {})


def result_of(state_values: dict[str, Any], thread_id: str) -> Any:
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
    return build_result(cast("ResearchState", state_values), thread_id, store_for)  # a snapshot's values: the state


def print_result(state_values: dict[str, Any], thread_id: str, args: argparse.Namespace, out: Console,
                 err: Console) -> None:
    """The result on stdout (Markdown, JSON, or the agent's compact JSON) or in the ``--output`` file."""
    from satiate.graph.terminal import json_safe_for_terminal, strip_terminal_escapes

    result = result_of(state_values, thread_id)
    target = output_path(args)
    if target is not None:
        kind = OUTPUT_SUFFIXES[target.suffix.lower()]
        text = result.report if kind == "report" else json_safe_for_terminal(result.model_dump_json(indent=2)) + "\n"
        write_atomically(target, text)
        say(err, f"{kind} written to {target}")
    elif args.agent:  # design §18: summary plus only the sources the gated claims cite
        from satiate.state.contracts import AgentResponse

        sys.stdout.write(json_safe_for_terminal(AgentResponse.from_result(result).model_dump_json(indent=2)) + "\n")
    elif args.json:
        sys.stdout.write(json_safe_for_terminal(result.model_dump_json(indent=2)) + "\n")
    elif out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(strip_terminal_escapes(result.report)))
    else:  # a pipe: the Markdown itself, for the next program to read, with nothing a terminal down the pipe obeys
        sys.stdout.write(strip_terminal_escapes(result.report))
        sys.stdout.flush()


def iso_time(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def local_time(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")


def size_text(size: int | None) -> str:
    if size is None:
        return "?"
    for unit, scale in (("MB", 1_000_000), ("kB", 1_000)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"
