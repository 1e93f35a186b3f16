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
    search_service._SERVICES.clear()
    yield data_dir
    search_service._SERVICES.clear()


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """Write passages ``[{doc_id, title, text}, ...]`` to a JSONL corpus file and return its path."""

    def write(passages: list[dict], name: str = "corpus.jsonl") -> Path:
        path = tmp_path / name
        path.write_text("\n".join(json.dumps(p) for p in passages) + "\n", encoding="utf-8")
        return path

    return write
