"""Smoke run of the chaos benchmark: two SIGKILLs and resumes plus the search, page and model faults, on a small
corpus.

It checks that ``python -m bench.chaos`` runs end to end, writes its summary and table, and that every killed or
faulted run ended exactly as the uninterrupted one (the property the benchmark measures, here on a few runs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from support.research_corpus import write_benchmark_data

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_chaos_benchmark_smoke(tmp_path: Path) -> None:
    data = write_benchmark_data(tmp_path / "bench-data")
    out = tmp_path / "results"
    env = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    command = [sys.executable, "-m", "bench.chaos", "--data", str(data), "--kills", "2", "--faults",
               "search,page,model", "--out", str(out)]
    completed = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "command: python -m bench.chaos" in completed.stdout

    summary = json.loads((out / "summary.json").read_text())
    assert summary["reference"]["reproducible"] is True
    assert summary["kills"] == 2 and summary["exact"] == 2 and summary["lost_data"] == 0
    assert [row["fault"] for row in summary["faults"]] == ["search (transient)", "search (persistent)", "page",
                                                           "model"]
    for row in summary["faults"]:
        assert row["exit"] == 0 and not row["lost_data"], row
        assert row["exact"] or row.get("exact_expected") is False, row
    assert summary["faults"][1]["errors_on_record"] > 0  # failed searches are on record, not silent
    table = (out / "table.md").read_text()
    assert "| kills |" in table and "| fault |" in table and "python -m bench.chaos" in table


def test_chaos_storage_and_input_faults_each_end_in_one_line(tmp_path: Path) -> None:
    """Issue 24: the disk full at the start, a store damaged under the parallel gather (or in its header), the
    checkpoints file emptied or damaged, a question that is not UTF-8, an infinite time budget: each ends in one
    line (exit 2, no traceback) and, after the fix the line gives, the run ends as the reference."""
    data = write_benchmark_data(tmp_path / "bench-data")
    out = tmp_path / "results"
    env = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    command = [sys.executable, "-m", "bench.chaos", "--data", str(data), "--kills", "0", "--faults",
               "start,store,checkpoints,input", "--out", str(out)]
    completed = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert completed.returncode == 0, completed.stderr[-3000:]
    rows = json.loads((out / "summary.json").read_text())["faults"]
    names = [row["fault"] for row in rows]
    assert "disk full at start" in names and "store pages damaged during gather" in names
    assert {"checkpoints emptied (0 bytes)", "question not UTF-8", "--max-execution-time-s inf"} <= set(names)
    for row in rows:
        assert row.get("one_line", True), row
        assert row.get("first_exit", row["exit"]) == (0 if row["fault"] == "store header damaged" else 2), row
        assert row["exact"] is not False and not row["lost_data"], row
