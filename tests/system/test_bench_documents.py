"""bench.documents at a tiny size: the second index re-reads only the changed PDF and finds its new sentence on the
page it was written to (it asserts behaviour, never a time: the numbers belong to the benchmark's output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_a_second_index_rereads_only_the_changed_pdf(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SATIATE_")}
    command = [sys.executable, "-m", "bench.documents", "--files", "3", "--pages", "2", "--no-trace",
               "--out", str(tmp_path / "results")]
    completed = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads((tmp_path / "results" / "summary.json").read_text())
    assert [summary[run]["reindexed"] for run in ("first", "unchanged", "changed_one")] == [3, 0, 1]
    assert summary["changed_one"]["found"] is True and summary["changed_one"]["found_page"] == 2
    assert summary["first"]["notices"] == [] and summary["first"]["passages"] > 0
    assert "| reopen, one file changed |" in (tmp_path / "results" / "table.md").read_text()
