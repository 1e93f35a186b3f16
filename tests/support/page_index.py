"""A built-in-style page index written from a few invented passages, for the tests of the page finders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from satiate.tools.search.fts_index import FtsIndex, Passage


def pages_index(path: Path, pages: Sequence[Passage]) -> Path:
    """``pages`` indexed at ``path`` under the "stdlib" part, as the built-in corpus indexes its pages."""
    index = FtsIndex(path)
    index.sync({"stdlib": ("v1", lambda: iter(pages))})
    index.close()
    return path
