"""The ``satiate`` command: run a question, resume or show a run by thread ID, list, delete and prune runs, look after
the cache, list the settings.

The package has one module a job: ``parser`` (the arguments), ``run`` (run and resume), ``listing`` (list, from the
run index), ``runs`` (show, delete, prune), ``cache``, ``settings``, ``output`` (what is printed and written),
``options`` (arguments to settings and store). Every bad input ends in one clear line on stderr and exit code 2, never
a traceback. Heavy modules (the settings model, the graph, LangGraph, rich's Markdown) are imported by the command that
needs them, so ``--help``, ``list`` and a rejected argument answer at once.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

from satiate.graph.cli.output import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, LazyConsole, UsageError
from satiate.graph.cli.parser import HANDLERS, build_parser, parse

# Commands that print plain lines and only ask their consoles whether stdout is a terminal, how wide, and to print a
# line: they get consoles made on first use. Others hand theirs to rich (a live progress display, Markdown).
PLAIN_COMMANDS = frozenset({"list"})
__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "UsageError", "build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run the command, and turn a known bad input into one line and exit code 2."""
    args = parse(argv)
    module, function = HANDLERS[args.command]
    handler = getattr(importlib.import_module(f"satiate.graph.cli.{module}"), function)
    if args.command in PLAIN_COMMANDS:  # rich is loaded only if one of them prints to a terminal
        out: Any = LazyConsole()
        err: Any = LazyConsole(stderr=True, soft_wrap=True)
    else:
        from rich.console import Console

        out, err = Console(), Console(stderr=True, soft_wrap=True)
    try:
        return handler(args, out, err)
    except Exception as exc:  # bad input, or known input errors raised below the CLI (settings, corpus, engine)
        from satiate.graph.terminal import strip_terminal_escapes

        if isinstance(exc, _known_errors()):  # the message may quote a thread ID or a question: shown literally
            print(f"satiate: {strip_terminal_escapes(str(exc))}", file=sys.stderr)
            return EXIT_USAGE
        raise


def _known_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's input, not satiate's fault: imported only once something failed."""
    from satiate.graph.checkpoint import RunInProgress
    from satiate.graph.deps import EngineUnavailable
    from satiate.nodes.plan import QuestionError
    from satiate.state.settings import SettingsError
    from satiate.tools.search.local_corpus import CorpusError
    from satiate.tools.store import StorageError

    return UsageError, SettingsError, QuestionError, CorpusError, EngineUnavailable, RunInProgress, StorageError
