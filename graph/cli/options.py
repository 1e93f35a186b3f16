"""From parsed arguments to what a command works with: the settings (flags beat ``SATIATE_*`` beat defaults) and the
run store they name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from satiate.graph.cli.output import UsageError

if TYPE_CHECKING:
    import argparse

SETTING_PREFIX = "setting_"  # parsed setting flags are stored as setting_<name>, apart from a command's own flags


def overrides_from(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags (a flag left out is not an override: the environment or the default decides)."""
    found = {key.removeprefix(SETTING_PREFIX): value for key, value in vars(args).items()
             if key.startswith(SETTING_PREFIX) and value is not None}
    if "corpus" in found:
        found["corpus"] = str(Path(found["corpus"]).expanduser().resolve())
    return found


def settings_from(args: argparse.Namespace) -> Any:
    """The resolved settings of a command, its data directory checked."""
    from satiate.state.settings import resolve_settings

    settings = resolve_settings(overrides_from(args))
    check_data_dir(settings.data_path)
    return settings


def check_data_dir(path: Path) -> None:
    """The data directory, or the nearest part of its path that exists, must be a folder (it is made if missing)."""
    for part in (path, *path.parents):
        if part.exists():
            if not part.is_dir():
                where = "" if part == path else f" ({part} is a file)"
                raise UsageError(f"data directory {path} is not a folder{where}: give a folder with --data-dir or "
                                 "SATIATE_DATA_DIR (it is created if missing)")
            return


def open_store(settings: Any, *, read_only_ok: bool = False) -> Any:
    """The run store: SQLite in the data directory, or the ``SATIATE_CHECKPOINT_URL`` (e.g. PostgreSQL); opened
    for reading when it cannot be written and ``read_only_ok`` (list, show)."""
    from satiate.graph.checkpoint import open_checkpointer

    return open_checkpointer(settings, read_only_ok=read_only_ok)


def unknown_thread(thread_id: str, settings: Any) -> UsageError:
    from satiate.graph.checkpoint import store_label

    return UsageError(f"unknown thread id {thread_id!r} in {store_label(settings)} (see 'satiate list'; a run "
                      "stopped before its first step was saved has nothing to resume: run the question again)")


def graph_config(thread_id: str) -> dict[str, Any]:
    from satiate.graph.builder import RECURSION_LIMIT

    return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}
