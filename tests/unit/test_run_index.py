"""The run index file on its own: a thread's mark changes with every checkpoint or write, rows round-trip, and a file
that cannot be used (another version, garbage, a folder that cannot be written) costs nothing but speed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from satiate.graph.checkpoint.index import INDEX_SCHEMA_VERSION, RunIndex, index_path, read_marks

ROW = {"thread_id": "marrow", "settled_status": "failed", "started": "2026-01-02T03:04:05+00:00",
       "updated": "2026-01-02T03:05:00+00:00", "question": "Who keeps the Marrowfield lamp?", "claims": 2}


def checkpoint_store(path: Path) -> sqlite3.Connection:
    """A file with the two tables LangGraph's SqliteSaver keeps, as far as the marks read them."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE checkpoints (thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, checkpoint BLOB, "
               "metadata BLOB)")
    db.execute("CREATE TABLE writes (thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, task_id TEXT, idx INT, "
               "channel TEXT, type TEXT, value BLOB)")
    return db


def test_a_mark_changes_with_each_checkpoint_and_write_and_counts_bytes(tmp_path: Path):
    path = tmp_path / "checkpoints.sqlite"
    db = checkpoint_store(path)
    db.execute("INSERT INTO checkpoints VALUES ('marrow', '', '1', x'0102', x'03')")
    db.execute("INSERT INTO checkpoints VALUES ('marrow', 'sub', '1', x'01', x'')")  # a subgraph's: size, not list
    db.execute("INSERT INTO checkpoints VALUES ('only-sub', 'sub', '1', x'01', x'')")
    db.commit()
    marks = read_marks(path)
    assert set(marks) == {"marrow"}
    first = marks["marrow"]
    assert (first.last_checkpoint_id, first.checkpoints, first.stored_bytes) == ("1", 2, 4)
    db.execute("INSERT INTO writes VALUES ('marrow', '', '1', 't', 0, '__error__', 'msgpack', x'0a0b')")
    db.commit()
    with_error = read_marks(path, "marrow")["marrow"]
    assert with_error.fingerprint != first.fingerprint and with_error.stored_bytes == 6
    db.execute("INSERT INTO checkpoints VALUES ('marrow', '', '2', x'01', x'')")
    db.commit()
    assert read_marks(path)["marrow"].last_checkpoint_id == "2"
    db.close()


def test_a_store_that_is_not_one_raises_for_the_slow_way_to_explain(tmp_path: Path):
    path = tmp_path / "checkpoints.sqlite"
    path.write_bytes(b"not a database" * 200)
    with pytest.raises(sqlite3.DatabaseError):
        read_marks(path)


def test_rows_round_trip_and_are_forgotten(tmp_path: Path):
    path = index_path(tmp_path / "checkpoints.sqlite")
    assert path.name == "checkpoints.sqlite-index"
    with RunIndex(path) as index:
        index.remember("marrow", "1|1|0|0", ROW)
        index.remember("quay", "7|3|1|9", {**ROW, "thread_id": "quay"})
    with RunIndex(path) as index:
        assert index.rows()["marrow"] == ("1|1|0|0", ROW)
        index.forget(["marrow"])
        assert set(index.rows()) == {"quay"}


def test_an_index_of_another_version_is_made_again(tmp_path: Path):
    path = index_path(tmp_path / "checkpoints.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (thread_id TEXT)")
        db.execute(f"PRAGMA user_version = {INDEX_SCHEMA_VERSION + 1}")
    with RunIndex(path) as index:
        index.remember("marrow", "1|1|0|0", ROW)
        assert index.rows() == {"marrow": ("1|1|0|0", ROW)}


def test_an_index_that_cannot_be_opened_is_no_index_and_is_left_alone(tmp_path: Path):
    path = index_path(tmp_path / "checkpoints.sqlite")
    path.mkdir()  # something else in its place (a folder): SQLite cannot open it, and it is not ours to remove
    (path / "keep.txt").write_text("x")
    with RunIndex(path) as index:
        index.remember("marrow", "1|1|0|0", ROW)  # skipped, not raised: the index is only a cache
        assert index.rows() == {}
    assert (path / "keep.txt").exists()


def test_a_row_mangled_in_the_file_is_left_out_not_fatal(tmp_path: Path):
    path = index_path(tmp_path / "checkpoints.sqlite")
    with RunIndex(path) as index:
        index.remember("marrow", "1|1|0|0", ROW)
        index.remember("quay", "7|3|1|9", ROW)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE runs SET row = '{not json' WHERE thread_id = 'quay'")
    with RunIndex(path) as index:
        assert set(index.rows()) == {"marrow"}
