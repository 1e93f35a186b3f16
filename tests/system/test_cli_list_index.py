"""``satiate list`` from the run index: quick when the index is current, right when it is not (a run written without
it, a run moved on since, a damaged or locked index file), and never missing a run."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from satiate.graph.checkpoint import checkpoint_path, sqlite_checkpointer
from satiate.graph.checkpoint.index import index_path
from support.graph_support import FlakyEngine, build, corpus_deps, run_cli
from support.research_corpus import QUESTION

HEAVY = {"langgraph", "langchain_core", "pydantic", "sqlalchemy"}


def research(capsys, corpus: Path, thread_id: str) -> None:
    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus", "--thread-id",
                           thread_id, "--max-results-per-query", "2", "--json")
    assert code == 0, err


def listed(capsys) -> dict[str, dict]:
    code, out, err = run_cli(capsys, "list", "--json")
    assert code == 0, err
    return {row["thread_id"]: row for row in json.loads(out)}


def fail_a_run_through_the_api(corpus: Path, data_dir: Path, thread_id: str) -> None:
    """A run written the way the server or the Python API writes one: no CLI, so no index row."""
    deps, _ = corpus_deps(corpus, data_dir, engine=FlakyEngine(fail_method="critique"))
    settings = {"corpus": str(corpus), "backends": ["corpus"], "seed": 3, "max_results_per_query": 2}
    with sqlite_checkpointer(data_dir) as saver, pytest.raises(RuntimeError):
        build(deps, saver).invoke({"question": "Who makes the Lumen kettle?", "settings": settings},
                                  {"configurable": {"thread_id": thread_id}})


def indexed(data_dir: Path) -> dict[str, tuple[str, dict]]:
    with sqlite3.connect(index_path(checkpoint_path(data_dir))) as db:
        return {thread_id: (status, json.loads(row))
                for thread_id, status, row in db.execute("SELECT thread_id, status, row FROM runs")}


def list_in_a_fresh_process(data_dir: Path) -> tuple[list[dict], set[str]]:
    """``satiate list --json`` in a new interpreter: its rows, and the top-level modules it loaded."""
    script = ("import json, sys\nfrom satiate.graph.cli import main\nmain(['list', '--json'])\n"
              "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)")
    env = {**os.environ, "SATIATE_DATA_DIR": str(data_dir)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_a_cli_run_is_listed_from_the_index_without_loading_langgraph(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "quarry")
    assert indexed(isolated_data_dir)["quarry"][0] == "finished"  # written as the run ended
    slow = listed(capsys)["quarry"]
    rows, loaded = list_in_a_fresh_process(isolated_data_dir)
    assert not loaded & HEAVY, loaded & HEAVY
    assert rows == [slow]  # the same row, size and counts included, as reading the run's state gives


def test_a_run_written_without_the_index_is_listed_and_then_indexed(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "quarry")
    fail_a_run_through_the_api(corpus, isolated_data_dir, "api-run")
    assert "api-run" not in indexed(isolated_data_dir)
    rows = listed(capsys)
    assert rows["api-run"]["status"] == "failed" and rows["api-run"]["next"] == ["critic"]
    assert "injected failure" in rows["api-run"]["error"] and rows["quarry"]["status"] == "finished"
    assert indexed(isolated_data_dir)["api-run"][0] == "failed"  # the slow read refreshed its row
    again, loaded = list_in_a_fresh_process(isolated_data_dir)
    assert [row["thread_id"] for row in again] == ["api-run", "quarry"] and not loaded & HEAVY


def test_the_index_row_follows_a_run_that_moves_on(capsys, corpus, isolated_data_dir):
    fail_a_run_through_the_api(corpus, isolated_data_dir, "mended")
    assert listed(capsys)["mended"]["status"] == "failed"
    before = indexed(isolated_data_dir)["mended"][1]
    code, _, err = run_cli(capsys, "resume", "mended")
    assert code == 0, err
    after = indexed(isolated_data_dir)["mended"][1]
    assert after["settled_status"] == "finished" and after["claims"] > 0 and after != before
    row = listed(capsys)["mended"]
    assert row["status"] == "finished" and row["next"] == [] and row["error"] is None


def test_a_row_moved_on_behind_the_index_is_read_again(capsys, corpus, isolated_data_dir):
    """The index is trusted only for the checkpoints it was made from: here the thread's later checkpoints go (as
    a kill mid-run leaves it) and the row says so, not what the index remembered."""
    research(capsys, corpus, "cut")
    assert listed(capsys)["cut"]["status"] == "finished"
    with sqlite3.connect(checkpoint_path(isolated_data_dir)) as db:
        ids = [row[0] for row in db.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'cut' AND "
                                            "checkpoint_ns = '' ORDER BY checkpoint_id")]
        for table in ("checkpoints", "writes"):
            db.execute(f"DELETE FROM {table} WHERE thread_id = 'cut' AND checkpoint_id > ?", (ids[len(ids) // 2],))
    assert listed(capsys)["cut"]["status"] == "interrupted"
    assert indexed(isolated_data_dir)["cut"][0] == "interrupted"


@pytest.mark.parametrize("damage", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_damaged_index_is_rebuilt_and_loses_no_run(capsys, corpus, isolated_data_dir, damage):
    research(capsys, corpus, "quarry")
    fail_a_run_through_the_api(corpus, isolated_data_dir, "api-run")
    expected = listed(capsys)
    index_path(checkpoint_path(isolated_data_dir)).write_bytes(damage)
    assert listed(capsys) == expected
    assert set(indexed(isolated_data_dir)) == {"quarry", "api-run"}  # a working index again, every run in it


def test_a_locked_index_is_passed_by(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "quarry")
    expected = listed(capsys)
    holder = sqlite3.connect(index_path(checkpoint_path(isolated_data_dir)), isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of writing it
        assert listed(capsys) == expected
    finally:
        holder.close()
    assert "quarry" in indexed(isolated_data_dir)  # not deleted for being locked


def test_delete_drops_the_row(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "gone")
    research(capsys, corpus, "kept")
    code, _, err = run_cli(capsys, "delete", "gone")
    assert code == 0, err
    assert set(indexed(isolated_data_dir)) == {"kept"} and set(listed(capsys)) == {"kept"}


def test_listing_needs_only_the_data_directory_from_the_settings(capsys, corpus, isolated_data_dir, monkeypatch):
    """A setting that only matters to a run (here an unknown tier in the environment) does not stop the runs being
    listed: the rest of the settings model is never built for it."""
    research(capsys, corpus, "quarry")
    monkeypatch.setenv("SATIATE_TIER", "enormous")
    assert list(listed(capsys)) == ["quarry"]
    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus))
    assert code == 2 and "invalid setting tier" in err  # a run still refuses it
