"""The overhead benchmark's floor: a run's shape read back from its checkpoints and replayed with idle nodes.

``bench.floor`` stands for "what LangGraph costs for this many steps and tasks"; that only holds if the replay has
exactly the run's steps and tasks, which these tests check on a real run. The smoke run checks that
``python -m bench.overhead`` reports the floor and satiate's share beside the overhead (no timing is asserted).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.graph_support import build, corpus_deps, run_settings, saver_at
from support.research_corpus import QUESTION, write_benchmark_data

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def floor(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(REPO_ROOT))  # bench/ is the repository's, not the package's
    import bench.floor

    return bench.floor


def test_the_replay_has_the_steps_and_tasks_of_the_run_it_replays(floor, corpus, isolated_data_dir, tmp_path):
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    saver = saver_at(tmp_path / "checkpoints.sqlite")
    run = {"configurable": {"thread_id": "real"}}
    build(deps, saver).invoke({"question": QUESTION, "settings": run_settings(corpus, isolated_data_dir)}, run)
    shape = floor.run_shape(build(deps, saver), run)

    assert shape[0] == 1 and max(shape) > 1  # plan, then at least one step with a gather branch per query
    assert floor.replayable(shape)
    replay = {"configurable": {"thread_id": "replay"}}
    stepper = floor.stepper_graph(saver)
    stepper.invoke({"shape": shape, "step": 0, "log": []}, replay)
    assert floor.run_shape(stepper, replay) == shape
    assert floor.floor_seconds(floor.stepper_graph(), shape, repeats=1) > 0


def test_a_shape_whose_fan_out_is_not_joined_in_one_task_is_refused(floor):
    assert not floor.replayable([1, 3, 2, 1])
    with pytest.raises(ValueError, match="single-task step"):
        floor.floor_seconds(floor.stepper_graph(), [1, 3, 2, 1], repeats=1)


def test_overhead_benchmark_reports_the_floor_and_satiates_share(tmp_path: Path) -> None:
    data = write_benchmark_data(tmp_path / "bench-data")
    out = tmp_path / "results"
    env = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    command = [sys.executable, "-m", "bench.overhead", "--data", str(data), "--qids", "kettle", "--repeats", "1",
               "--delay-ms", "5", "--out", str(out)]
    completed = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]

    summary = json.loads((out / "summary.json").read_text())["summary"]
    assert set(summary) == {"no checkpointer", "SQLite, durability=sync", "SQLite, durability=async"}
    for mode, row in summary.items():
        assert row["tasks"] > row["steps"] > 0, mode  # a gather step has several tasks
        assert 0 < row["floor_s"] < row["wall_s"], mode
        assert row["own_share"] == pytest.approx(row["graph_and_checkpoints"] - row["floor"]), mode
    saved = summary["SQLite, durability=sync"]
    assert saved["checkpoints"] == saved["steps"] + 2  # the input step and the final checkpoint besides each step
    assert "LangGraph floor" in (out / "table.md").read_text()
