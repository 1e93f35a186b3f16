"""Where satiate keeps its data: the one rule, readable without the settings model.

The settings object takes its ``data_dir`` default from here, and the quick commands (``satiate list``) resolve the
folder with it directly, so they need not import pydantic to know where the runs are.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DATA_DIR_ENV = "SATIATE_DATA_DIR"


def default_data_dir(environ: Mapping[str, str] | None = None) -> str:
    """``SATIATE_DATA_DIR`` if set and not empty, else the per-user data folder."""
    environ = os.environ if environ is None else environ
    if environ.get(DATA_DIR_ENV):
        return environ[DATA_DIR_ENV]
    import platformdirs

    return platformdirs.user_data_dir("satiate", appauthor=False)


def data_dir_of(given: str | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The data folder a command uses: the value given (a flag) beats ``SATIATE_DATA_DIR``, which beats the default;
    ``~`` expanded as the settings object's ``data_path`` does."""
    return Path(given if given is not None else default_data_dir(environ)).expanduser()
