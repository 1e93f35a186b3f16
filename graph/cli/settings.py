"""``satiate settings``: every setting, grouped, with its flag, default and description (``--markdown``: the tables
of docs/settings.md). ``satiate run --help`` shows only the common ones; this is the full list.

The groups follow the order of the fields in ``state/settings.py``: a group starts at its first setting and runs to
the next group's, so a setting added to a section lands in that section's group without an entry here.
"""

from __future__ import annotations

import sys
import textwrap
from typing import TYPE_CHECKING

from satiate.graph.cli.output import EXIT_OK

if TYPE_CHECKING:
    import argparse

    from rich.console import Console

# group title -> the first setting of the group, in the order of the settings object
GROUP_STARTS = {
    "engine and sources": "llm",
    "search rounds and the cache": "searches_per_task",
    "saturation, novelty and page reading": "max_search_rounds",
    "tier, budgets and errors": "tier",
    "web search, the store and page fetching": "web_engine",
    "the model": "llm_planner",
    "angles, breadcrumbs, critic and claims": "angles",
    "run identity and limits": "seed",
}
# What `satiate run --help` shows: the settings most runs change. Every other setting is still a flag.
COMMON_SETTINGS = ("llm", "model_profile", "ollama_base_url", "corpus", "backends", "web", "offline", "data_dir",
                   "tier", "max_search_rounds", "max_execution_time_s", "seed")
HELP_WIDTH = 100


def setting_groups() -> dict[str, list[str]]:
    """Group title -> setting names, every setting in exactly one group, in the settings object's order."""
    from satiate.state.settings import Settings

    names = list(Settings.model_fields)
    missing = [first for first in GROUP_STARTS.values() if first not in names]
    if missing:
        raise RuntimeError(f"GROUP_STARTS names unknown settings: {', '.join(missing)}")
    starts = sorted((names.index(first), title) for title, first in GROUP_STARTS.items())
    groups: dict[str, list[str]] = {}
    for number, (index, title) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(names)
        groups[title] = names[index:end]
    if starts[0][0] > 0:  # settings before the first group's start: never silently dropped
        groups = {"general": names[:starts[0][0]], **groups}
    return groups


def flag_of(name: str) -> str:
    return f"--{name.replace('_', '-')}"


def default_text(name: str) -> str:
    """A setting's default as the docs and ``satiate settings`` show it."""
    from satiate.state.settings import Settings

    field = Settings.model_fields[name]
    if name == "data_dir":
        return "per-user data dir"
    value = field.default_factory() if field.default_factory else field.default  # type: ignore[call-arg]
    if value is None:
        return "—"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def markdown_tables() -> str:
    """One table a group: the settings section of docs/settings.md."""
    from satiate.state.settings import Settings

    parts = []
    for title, names in setting_groups().items():
        rows = [f"| `{name}` | {default_text(name)} | {Settings.model_fields[name].description} |" for name in names]
        parts.append(f"### {title[0].upper()}{title[1:]}\n\n| Setting | Default | Description |\n|---|---|---|\n"
                     + "\n".join(rows))
    return "\n\n".join(parts) + "\n"


def plain_listing() -> str:
    from satiate.state.settings import Settings

    lines = ["Every setting is a flag of `satiate run` and an environment variable SATIATE_<NAME>; a flag beats the",
             "environment, which beats the default. In Studio they are the run's configuration form.", ""]
    for title, names in setting_groups().items():
        lines.append(f"{title}:")
        for name in names:
            lines.append(f"  {flag_of(name)}  (default: {default_text(name)})")
            text = Settings.model_fields[name].description or ""
            lines.extend(textwrap.wrap(text, HELP_WIDTH, initial_indent="      ", subsequent_indent="      "))
        lines.append("")
    return "\n".join(lines)


def command_settings(args: argparse.Namespace, out: Console, err: Console) -> int:
    sys.stdout.write(markdown_tables() if args.markdown else plain_listing())
    return EXIT_OK

