"""The built-in offline corpus: documentation that every machine with satiate installed already has.

Python's language reference topics (``pydoc_data.topics``) and the long descriptions of the installed Python
distributions, indexed into FTS5 on first use. It is what answers when no corpus is given and the web is not in use
or not reachable, so satiate is useful on a machine with no network at all.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from satiate.tools.search.base import RawHit
from satiate.tools.search.fts_index import FtsIndex, Passage, passages_of

MIN_DESCRIPTION_CHARS = 200


def _topic_title(name: str, text: str) -> str:
    first = text.strip().splitlines()[0].strip() if text.strip() else name
    return first if 3 < len(first) < 90 else name.replace("-", " ")


def pydoc_topics() -> Iterator[Passage]:
    from pydoc_data.topics import topics

    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for name, text in sorted(topics.items()):
        url = f"https://docs.python.org/{version}/reference/#{name}"
        yield from passages_of(f"python:{name}", f"Python: {_topic_title(name, text)}", url, text)


def _description(distribution: importlib.metadata.Distribution) -> str:
    metadata = distribution.metadata
    body = metadata.get_payload() if hasattr(metadata, "get_payload") else ""
    return (body or metadata.get("Description") or "").strip()


def distributions() -> dict[str, importlib.metadata.Distribution]:
    found: dict[str, importlib.metadata.Distribution] = {}
    for distribution in importlib.metadata.distributions():
        name = (distribution.metadata.get("Name") or "").strip()
        if name and name.lower() not in found:
            found[name.lower()] = distribution
    return found


def distribution_passages(name: str, distribution: importlib.metadata.Distribution) -> Iterator[Passage]:
    text = _description(distribution)
    text = re.sub(r"<[^>]{1,200}>", " ", text)  # drop inline HTML tags that some READMEs carry
    if len(text) < MIN_DESCRIPTION_CHARS:
        return
    summary = distribution.metadata.get("Summary") or ""
    title = f"{distribution.metadata.get('Name', name)}: {summary}".strip(": ")
    yield from passages_of(f"pypi:{name}", title[:120], f"https://pypi.org/project/{name}/", text)


class BuiltinCorpusBackend:
    """Python's reference topics plus installed packages' descriptions, in a per-interpreter FTS5 index."""

    name = "builtin"
    description = "built-in offline corpus: the Python language reference and installed Python packages' documentation"
    query_ceiling = 12

    def __init__(self, data_dir: Path) -> None:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        self.index = FtsIndex(data_dir / "corpora" / f"builtin-python{version}.sqlite")
        units: dict[str, tuple[str, object]] = {"pydoc-topics": (sys.version, pydoc_topics)}
        for name, distribution in distributions().items():
            version_text = distribution.metadata.get("Version") or "?"
            units[f"dist:{name}"] = (version_text, lambda n=name, d=distribution: distribution_passages(n, d))
        self.reindexed = self.index.sync(units)

    def search(self, query: str, max_results: int) -> list[RawHit]:
        return self.index.search(query, max_results)
