"""Shared fixtures: an isolated data directory per test and small corpora written by the tests themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satiate.graph.deps import reset as reset_dependencies
from satiate.tools.search.builtin_corpus import builtin_index_path


@pytest.fixture(scope="session")
def shared_builtin_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the built-in corpus index lives for the whole session: it is Python's documentation, the same for every
    test, and built (a few seconds) by the first test that searches it."""
    return tmp_path_factory.mktemp("builtin-corpus") / builtin_index_path(Path(".")).name


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_builtin_index: Path) -> Path:
    """Every test gets its own satiate data directory and no settings leaking in from the environment."""
    import os

    for key in list(os.environ):
        if key.startswith("SATIATE_"):
            monkeypatch.delenv(key)
    data_dir = tmp_path / "satiate-data"
    monkeypatch.setenv("SATIATE_DATA_DIR", str(data_dir))
    # The default engine is 'auto' (Ollama when it answers): a developer's running Ollama must not change what a
    # test sees, so tests use the deterministic engine unless they choose a model themselves.
    monkeypatch.setenv("SATIATE_LLM", "none")
    # Tests never reach the internet: with no corpus, 'auto' would search the web first. Tests of the web backend
    # plug in a stand-in or a loopback server and choose their backends themselves.
    monkeypatch.setenv("SATIATE_OFFLINE", "1")
    # Each data directory's built-in index is a link to the session's one (SQLite follows it, WAL files included).
    builtin_index = builtin_index_path(data_dir)
    builtin_index.parent.mkdir(parents=True)
    builtin_index.symlink_to(shared_builtin_index)
    reset_dependencies()  # engines, search services, stores and page readers are kept per process: none inherited
    yield data_dir
    reset_dependencies()


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """Write passages ``[{doc_id, title, text}, ...]`` to a JSONL corpus file and return its path."""

    def write(passages: list[dict], name: str = "corpus.jsonl") -> Path:
        path = tmp_path / name
        path.write_text("\n".join(json.dumps(p) for p in passages) + "\n", encoding="utf-8")
        return path

    return write


@pytest.fixture
def corpus(write_jsonl):
    """The fictional two-hop research corpus (``research_corpus.PASSAGES``) as a JSONL file."""
    from support.research_corpus import PASSAGES

    return write_jsonl(PASSAGES)

