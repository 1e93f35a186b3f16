"""Shared fixtures: an isolated data directory per test and small corpora written by the tests themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satiate.tools.search import service as search_service


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
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
    reset_process_caches()
    yield data_dir
    reset_process_caches()


def reset_process_caches() -> None:
    """Search services, stores and page readers are cached per process; a test must not inherit another's."""
    from satiate.tools import reader, store

    search_service._SERVICES.clear()
    reader._READERS.clear()
    for cached in list(store._STORES.values()):
        cached.engine.dispose()
    store._STORES.clear()


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """Write passages ``[{doc_id, title, text}, ...]`` to a JSONL corpus file and return its path."""

    def write(passages: list[dict], name: str = "corpus.jsonl") -> Path:
        path = tmp_path / name
        path.write_text("\n".join(json.dumps(p) for p in passages) + "\n", encoding="utf-8")
        return path

    return write
