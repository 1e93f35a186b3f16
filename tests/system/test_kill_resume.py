"""A real SIGKILL in the middle of gathering: the run resumes in a new process and repeats no finished search."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from support.research_corpus import PASSAGES, QUESTION

CHILD = r'''
import sys, time, json
from pathlib import Path
from satiate.graph.builder import build_graph
from satiate.graph.checkpoint import sqlite_checkpointer
from satiate.graph.deps import deterministic_engine
from satiate.nodes.common import Dependencies
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService

mode, corpus, data_dir, log = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])

class SlowLoggedBackend:
    """The real corpus backend, slowed down, writing 'start'/'end' lines per query to a shared log."""
    def __init__(self, inner):
        self.inner, self.name, self.description = inner, inner.name, inner.description
    def search(self, query, max_results):
        with log.open("a") as handle:
            handle.write(json.dumps(["start", query, time.time()]) + "\n")
        time.sleep(0.4)
        hits = self.inner.search(query, max_results)
        with log.open("a") as handle:
            handle.write(json.dumps(["end", query, time.time()]) + "\n")
        return hits

service = SearchService({"corpus": SlowLoggedBackend(LocalCorpusBackend(corpus, data_dir))}, retry_attempts=1)
deps = Dependencies(engine_for=lambda s: deterministic_engine(), search_for=lambda s: service)
settings = {"corpus": corpus, "backends": ["corpus"], "data_dir": str(data_dir), "seed": 4, "max_results_per_query": 2}
config = {"configurable": {"thread_id": "killed"}}
with sqlite_checkpointer(data_dir) as saver:
    app = build_graph(deps, checkpointer=saver)
    payload = {"question": sys.argv[5], "settings": settings} if mode == "run" else None
    out = app.invoke(payload, config, durability="sync")
    print(json.dumps({"answer": out["answer"]}))
'''


def log_lines(log: Path) -> list[tuple[str, str]]:
    if not log.exists():
        return []
    return [tuple(json.loads(line)[:2]) for line in log.read_text().splitlines() if line.strip()]


def ended_before(log: Path, moment: float) -> set[str]:
    return {entry[1] for entry in map(json.loads, log.read_text().splitlines())
            if entry[0] == "end" and entry[2] < moment}


def test_sigkill_mid_gather_then_resume_in_a_new_process(tmp_path, write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    log = tmp_path / "searches.log"
    args = [sys.executable, str(script), "run", str(corpus), str(isolated_data_dir), str(log), QUESTION]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    # wait until round 2 is under way: at least one finished search after the first round's barrier
    while time.monotonic() < deadline:
        ended = [q for kind, q in log_lines(log) if kind == "end"]
        if len(ended) >= 7:
            break
        assert child.poll() is None, child.stderr.read().decode()
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    killed_at = time.time()
    child.wait()
    lines_before = log_lines(log)
    # a search whose branch returned well before the kill has its result in the checkpoint; one that returned in the
    # last instant may not have been written yet (that one is served by the search cache in real use)
    finished_before = ended_before(log, killed_at - 0.25)

    resumed = subprocess.run([*args[:2], "resume", *args[3:]], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    after = [q for kind, q in log_lines(log)[len(lines_before):] if kind == "start"]
    assert after, "the kill came mid-run, so the resumed run had searches left to do"
    repeated = [q for q in after if q in finished_before]
    assert repeated == [], f"finished searches repeated after resume: {repeated}"
    assert "Ada Pell" in json.loads(resumed.stdout.strip().splitlines()[-1])["answer"]
