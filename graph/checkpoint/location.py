"""Where the runs are stored: the checkpoint URL and the SQLite file it names, worked out without LangGraph or the
settings model, so that a quick command (``satiate list``) can find the store before deciding it needs either."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

# Deliberately an environment variable rather than a per-run setting: the store must be known before any run's
# settings are (resume, show, list), a per-run value could not move the server's store anyway, and a URL may carry
# a password that must not be copied into every checkpoint's stored settings.
CHECKPOINT_URL_ENV = "SATIATE_CHECKPOINT_URL"


def checkpoint_path(data_dir: Path) -> Path:
    return Path(data_dir) / "checkpoints.sqlite"


def checkpoint_url_in(data_dir: Path, environ: Mapping[str, str] | None = None) -> str:
    """Where runs are stored: ``SATIATE_CHECKPOINT_URL`` when set, else the SQLite file in the data directory."""
    environ = os.environ if environ is None else environ
    return environ.get(CHECKPOINT_URL_ENV, "").strip() or f"sqlite:///{checkpoint_path(data_dir)}"


def is_sqlite_url(url: str) -> bool:
    """A ``sqlite:///`` URL or a bare file path (what ``sqlite_path_of`` reads without complaint)."""
    return url.startswith("sqlite:///") or "://" not in url


def sqlite_path_of(url: str) -> Path:
    """``sqlite:///relative.sqlite``, ``sqlite:////absolute.sqlite`` (SQLAlchemy's spelling) or a bare file path."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///")).expanduser()
    if "://" in url:
        from satiate.state.settings import SettingsError

        raise SettingsError(
            f"{CHECKPOINT_URL_ENV} {url.split('://')[0]!r} is not supported: use sqlite:///PATH or postgresql://..."
        )
    return Path(url).expanduser()
