"""A new checkpoint store appears whole: never as the 0-byte file another process would refuse as emptied."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from satiate.graph.checkpoint import savers
from satiate.graph.checkpoint.faults import is_emptied
from satiate.graph.checkpoint.savers import create_whole, sqlite_checkpointer_at
from satiate.tools.store import StorageError


def _drafts(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.new"))


def test_the_file_linked_into_place_already_has_its_header(tmp_path, monkeypatch):
    seen: list[tuple[bool, int, bool]] = []
    real_link = os.link

    def watching_link(src, dst):
        seen.append((Path(dst).exists(), Path(src).stat().st_size, is_emptied(Path(dst))))
        real_link(src, dst)

    monkeypatch.setattr(savers.os, "link", watching_link)
    path = tmp_path / "data" / "checkpoints.sqlite"
    with sqlite_checkpointer_at(path) as saver:
        saver.conn.execute("SELECT count(*) FROM checkpoints").fetchone()
    assert len(seen) == 1
    existed, size, emptied = seen[0]
    assert not existed and size > 0 and not emptied
    assert _drafts(path.parent) == []


def test_an_opener_that_loses_the_race_uses_the_winners_store(tmp_path, monkeypatch):
    path = tmp_path / "checkpoints.sqlite"
    real_link = os.link

    def another_process_wins(src, dst):
        winner = sqlite3.connect(dst)
        winner.execute("CREATE TABLE made_by_the_winner (x)")
        winner.commit()
        winner.close()
        real_link(src, dst)  # raises FileExistsError, as os.link does when the name is taken

    monkeypatch.setattr(savers.os, "link", another_process_wins)
    with sqlite_checkpointer_at(path) as saver:
        tables = {row[0] for row in saver.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "made_by_the_winner" in tables and "checkpoints" in tables
    assert _drafts(tmp_path) == []


def test_without_hard_links_the_store_is_still_made(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(savers.os, "link", no_links)
    path = tmp_path / "checkpoints.sqlite"
    with sqlite_checkpointer_at(path) as saver:
        saver.conn.execute("SELECT count(*) FROM writes").fetchone()
    assert path.stat().st_size > 0 and _drafts(tmp_path) == []


def test_an_existing_store_is_left_alone(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    with sqlite_checkpointer_at(path):
        pass
    before = path.stat().st_ino, path.stat().st_mtime_ns
    create_whole(path)
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == before


def test_an_emptied_store_is_still_refused_not_recreated(tmp_path):
    path = tmp_path / "checkpoints.sqlite"
    path.write_bytes(b"")
    with pytest.raises(StorageError, match="is empty"):
        with sqlite_checkpointer_at(path):
            pass
    assert path.stat().st_size == 0
