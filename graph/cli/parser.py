"""The ``satiate`` argument parser: the commands, their flags, and one flag per setting, generated from the settings
object so each knob has one home.

Building it imports nothing heavy: ``run``'s setting flags are added only when ``run`` is parsed or its help shown,
and a command's handler is named here and imported only when it runs. A bad argument is one line naming the fix,
not the command's whole usage.
"""

from __future__ import annotations

import argparse
import sys
import types
import typing
from typing import Any, NoReturn

from satiate.graph.cli.output import EXIT_USAGE

# the handler of each command: module in satiate.graph.cli, function name
HANDLERS = {
    "run": ("run", "command_run"),
    "resume": ("run", "command_resume"),
    "show": ("runs", "command_show"),
    "list": ("listing", "command_list"),
    "delete": ("runs", "command_delete"),
    "prune": ("runs", "command_prune"),
    "cache": ("cache", "command_cache"),
    "settings": ("settings", "command_settings"),
}
DESCRIPTION = "satiate: research a question, resume or show a run by thread ID, list, delete and prune runs."
EPILOG = ("exit codes: 0 done, 1 the run failed (it is checkpointed: resume it), 2 bad input, a named model that does "
          "not answer, a store that cannot be used (damaged, read-only, a full disk) or a thread another run is "
          "writing, 130 interrupted")
METAVARS = {int: "N", float: "NUMBER", str: "TEXT"}


class OneLineErrors(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (the error and where help is), exit code 2."""

    def error(self, message: str) -> NoReturn:
        from satiate.graph.terminal import strip_terminal_escapes

        self.exit(EXIT_USAGE, f"{self.prog}: {strip_terminal_escapes(message)} (see '{self.prog} --help')\n")


class CommandParser(OneLineErrors):
    """A command's parser that adds some of its arguments only when it is used, so ``satiate --help`` or
    ``satiate list`` need not import the settings model to build ``run``'s many flags."""

    def __init__(self, *args: Any, complete: typing.Callable[[argparse.ArgumentParser], None] | None = None,
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


# --- argument types ---------------------------------------------------------------------------------------------------
def question_text(text: str) -> str:
    """The question as given, refused when the shell passed bytes that are not UTF-8 (Python keeps them as lone
    surrogates, which no later step could store or print)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raw = text[exc.start].encode("utf-8", "surrogateescape")
        raise argparse.ArgumentTypeError(f"the question is not valid UTF-8 text (byte 0x{raw.hex()} at character "
                                         f"{exc.start + 1}): type it again, or convert it with iconv") from None
    return text


# --- settings flags ---------------------------------------------------------------------------------------------------
def _flag_options(annotation: Any) -> dict[str, Any]:
    """argparse options for a setting of this type: a switch for a bool, choices for a Literal, a number type."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _flag_options(args[0])
    if annotation is bool:
        return {"action": argparse.BooleanOptionalAction}
    if origin is typing.Literal:
        return {"choices": list(typing.get_args(annotation))}
    if annotation in (int, float):
        return {"type": annotation}
    if origin in (list, dict):
        return {"type": str, "metavar": "A,B"}
    return {"type": str}


def _metavar(name: str, options: dict[str, Any]) -> str | None:
    """A placeholder that says what to give: URL, SECONDS, DIR, PATH, MODEL, N, NUMBER or TEXT."""
    if "metavar" in options or "type" not in options:
        return options.get("metavar")
    for ending, metavar in (("_url", "URL"), ("_s", "SECONDS"), ("_dir", "DIR")):
        if name.endswith(ending):
            return metavar
    if name == "corpus":
        return "PATH"
    if name.startswith("llm"):
        return "MODEL"
    return METAVARS[options["type"]]


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per setting: the common ones in their groups with their help, the rest accepted but listed by
    ``satiate settings`` (so ``run --help`` fits on a few screens)."""
    from satiate.graph.cli.settings import COMMON_SETTINGS, flag_of, setting_groups
    from satiate.state.settings import Settings

    for title, names in setting_groups().items():
        shown = [name for name in names if name in COMMON_SETTINGS]
        group = parser.add_argument_group(f"settings: {title}") if shown else parser
        for name in names:
            field = Settings.model_fields[name]
            # argparse formats help with %: a description saying "40 % fewer" must not be read as a format directive
            text = (field.description or "").replace("%", "%%") if name in shown else argparse.SUPPRESS
            target = group if name in shown else parser
            options = _flag_options(field.annotation)
            metavar = _metavar(name, options)
            if metavar is not None:
                options["metavar"] = metavar
            target.add_argument(flag_of(name), dest=f"setting_{name}", default=None, help=text, **options)


def _complete_run(parser: argparse.ArgumentParser) -> None:
    add_setting_flags(parser)


# --- the commands -----------------------------------------------------------------------------------------------------
def _add_result_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--agent", action="store_true",
                        help="print the compact answer (summary and cited sources) as JSON")
    parser.add_argument("--output", metavar="PATH",
                        help="write to this file instead of stdout: PATH.md the Markdown report, PATH.json the "
                        "result object")


def _add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", dest="setting_data_dir", default=None, metavar="DIR",
                        help="where runs are stored")


def _add_cache_parser(commands: argparse._SubParsersAction) -> None:
    from satiate.graph.cli.cache import TABLE_CHOICES

    cache = commands.add_parser("cache", help="show, prune or clear the search cache and page store")
    cache.add_argument("action", choices=("stats", "clear", "prune"),
                       help="stats: what is stored; prune: delete expired rows; clear: delete all rows")
    cache.add_argument("--table", choices=TABLE_CHOICES, default="all", help="which table (default: all)")
    _add_data_dir(cache)
    cache.add_argument("--store-url", dest="setting_store_url", default=None, metavar="URL",
                       help="SQLAlchemy URL of the store (default: store.sqlite in the data directory)")
    cache.add_argument("--cache-ttl-s", dest="setting_cache_ttl_s", type=float, default=None, metavar="SECONDS",
                       help="time-to-live in seconds deciding fresh vs expired (default: the cache_ttl_s setting)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrors(prog="satiate", description=DESCRIPTION, epilog=EPILOG)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)

    run = commands.add_parser(
        "run", help="research a question", complete=_complete_run,
        epilog="Only the common settings are shown: every setting is a flag (--name-with-dashes) and an environment "
        "variable SATIATE_<NAME>. 'satiate settings' lists them all with their defaults (also docs/settings.md).")
    run.add_argument("question", type=question_text, help="the question, in quotes")
    run.add_argument("--thread-id", metavar="ID", help="thread ID to store the run under (default: a new random one)")
    _add_result_flags(run)

    for name, text in (("resume", "continue an interrupted or failed run"), ("show", "print a run's report")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("thread_id")
        _add_result_flags(sub)
        _add_data_dir(sub)
        if name == "show":
            sub.add_argument("--plot", metavar="PNG",
                             help="also write the convergence curves to this PNG file (into it, for a folder)")

    listing = commands.add_parser("list", help="list stored runs, the most recently started first")
    listing.add_argument("--json", action="store_true", help="print a JSON list of objects, one per run")
    _add_data_dir(listing)

    delete = commands.add_parser("delete", help="delete runs: every checkpoint of the thread, and the source texts "
                                 "no other run uses")
    delete.add_argument("thread_ids", nargs="+", metavar="thread_id")
    delete.add_argument("--vacuum", action="store_true", help="then give the space back to the disk (SQLite)")
    _add_data_dir(delete)

    prune = commands.add_parser("prune", help="delete runs whose last step is older than an age (with the source "
                                "texts no other run uses)")
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 30d, 12h, 90m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only print what would be deleted")
    prune.add_argument("--vacuum", action="store_true", help="then give the space back to the disk (SQLite)")
    _add_data_dir(prune)

    _add_cache_parser(commands)

    settings = commands.add_parser("settings", help="list every setting with its flag, default and description")
    settings.add_argument("--markdown", action="store_true", help="print the tables of docs/settings.md")
    return parser


def parse(argv: typing.Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed arguments; a bad one exits 2 with one line on stderr."""
    return build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
