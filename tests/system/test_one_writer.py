"""One writer per thread: a second run of a thread while one is writing it is refused, never interleaved.

Through the Python API (two ``invoke`` calls at once on one SQLite checkpointer, threads of one process) and through
the CLI (two real ``satiate run`` processes started together on one thread ID, many pairs): exactly one run writes,
the other is refused with one clear line, and the stored thread is one unbroken chain of checkpoints whose answer is
the winner's.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from satiate.graph.builder import build_graph
from satiate.graph.checkpoint import (
    RunInProgress,
    ThreadBusy,
    is_running,
    sqlite_checkpointer,
    thread_writer,
)
from satiate.graph.deps import deterministic_engine
from satiate.nodes.common import Dependencies
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService
from support.research_corpus import PASSAGES, QUESTION

CLI_PAIRS = 8
CLI_PAIR_TIMEOUT_S = 120
GATE_TIMEOUT_S = 10  # how long a gated search waits for the other call: only reached when both calls run


class GatedBackend:
    """The real corpus backend whose searches wait until ``gate`` opens (or a time-out), so a run is surely still
    running when a second call on its thread starts."""

    def __init__(self, inner, gate: threading.Event) -> None:
        self.inner, self.name, self.description = inner, inner.name, inner.description
        self.gate = gate

    def search(self, query: str, max_results: int):
        self.gate.wait(timeout=GATE_TIMEOUT_S)
        return self.inner.search(query, max_results)


def gated_dependencies(corpus: Path, data_dir: Path, gate: threading.Event) -> Dependencies:
    service = SearchService({"corpus": GatedBackend(LocalCorpusBackend(corpus, data_dir), gate)}, retry_attempts=1)
    return Dependencies(engine_for=lambda _settings: deterministic_engine(), search_for=lambda _settings: service)


def assert_one_chain(saver, thread_id: str) -> None:
    """Every root checkpoint of the thread has the one before it as its parent: no second history woven in."""
    items = list(saver.list({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}))  # newest first
    assert items, "the thread has no checkpoint"
    for newer, older in itertools.pairwise(items):
        assert newer.parent_config["configurable"]["checkpoint_id"] == older.config["configurable"]["checkpoint_id"]
    assert items[-1].parent_config is None


def test_two_api_runs_of_one_thread_at_once_one_is_refused(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    one_returned = threading.Event()  # the running call's searches wait for the other call to return
    deps = gated_dependencies(corpus, isolated_data_dir, one_returned)
    payload = {"question": QUESTION, "settings": {"corpus": str(corpus), "backends": ["corpus"], "seed": 2,
                                                   "max_results_per_query": 2}}
    config = {"configurable": {"thread_id": "shared"}}
    start = threading.Barrier(2)
    outcomes: list[object] = [None, None]
    with sqlite_checkpointer(isolated_data_dir) as saver:
        graph = build_graph(deps, checkpointer=saver)  # one compiled graph, as another agent would import it

        def call(slot: int) -> None:
            start.wait()
            try:
                outcomes[slot] = graph.invoke(payload, config)
            except Exception as exc:  # noqa: BLE001 - the outcome is what the test inspects
                outcomes[slot] = exc
            one_returned.set()

        callers = [threading.Thread(target=call, args=(slot,)) for slot in (0, 1)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(timeout=120)
        refused = [o for o in outcomes if isinstance(o, Exception)]
        answered = [o for o in outcomes if isinstance(o, dict)]
        assert len(refused) == 1 and len(answered) == 1, outcomes
        assert isinstance(refused[0], ThreadBusy) and "one writer at a time" in str(refused[0])
        stored = graph.get_state(config).values
        assert stored["answer"] == answered[0]["answer"] and "Ada Pell" in stored["answer"]
        assert_one_chain(saver, "shared")

        # the lock is the run's, not the thread's for ever: once the run ended, the thread can be run again
        assert graph.invoke(None, config)["answer"] == stored["answer"]


def test_update_state_and_delete_wait_for_no_writer(write_jsonl, isolated_data_dir):
    """Every writer of a thread takes the same lock: update_state and delete are refused while a run holds it."""
    from satiate.graph.checkpoint import delete_thread

    corpus = write_jsonl(PASSAGES)
    config = {"configurable": {"thread_id": "held"}}
    with sqlite_checkpointer(isolated_data_dir) as saver:
        open_gate = threading.Event()
        open_gate.set()
        graph = build_graph(gated_dependencies(corpus, isolated_data_dir, open_gate), checkpointer=saver)
        graph.invoke({"question": QUESTION, "settings": {"corpus": str(corpus), "backends": ["corpus"], "seed": 1}},
                     config)
        assert not is_running(isolated_data_dir, "held")
        with thread_writer(saver, "held"):  # what a run holds while it writes
            assert is_running(isolated_data_dir, "held")  # `satiate list` shows an API run as running
            with pytest.raises(ThreadBusy):
                graph.update_state(config, {"question": QUESTION})
            with pytest.raises(ThreadBusy):
                delete_thread(saver, "held")
            with pytest.raises(ThreadBusy):
                graph.invoke(None, config)
        delete_thread(saver, "held")
        assert not graph.get_state(config).values
        assert not list((isolated_data_dir / "checkpoints.sqlite-writers").iterdir())  # its lock file went too


def test_in_memory_savers_are_guarded_within_the_process():
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    with thread_writer(saver, "t"):
        with pytest.raises(ThreadBusy, match="another call in this process"):
            with thread_writer(saver, "t"):
                pass
        with thread_writer(saver, "other thread"):
            pass
    with thread_writer(saver, "t"):  # released
        pass


# --- the CLI: two real processes started together ---------------------------------------------------------------------
# Each worker process imports everything once, then runs `satiate run` (cli.main) on the thread ID it reads from
# stdin; both workers get the same ID at the same moment, so each pair is a race between two processes.
WORKER = r"""
import contextlib, io, json, sys
from satiate.graph import cli
import satiate.graph.builder, satiate.tools.search.local_corpus
output_dir, common = sys.argv[1], sys.argv[2:]
print("ready", flush=True)
for line in sys.stdin:
    thread_id = line.strip()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main([*common, "--thread-id", thread_id, "--output", f"{output_dir}/{thread_id}.json"])
    print(json.dumps({"code": code, "err": err.getvalue()}), flush=True)
"""


def test_two_cli_runs_of_one_thread_started_together_one_is_refused(tmp_path, write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    env = {**os.environ, "SATIATE_DATA_DIR": str(isolated_data_dir)}
    common = ["run", QUESTION, "--corpus", str(corpus), "--backends", "corpus", "--seed", "3",
              "--max-results-per-query", "2"]
    workers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        workers.append(subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / name), *common], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    both_won = []
    try:
        for worker in workers:
            assert worker.stdout.readline().strip() == "ready"
        for pair in range(CLI_PAIRS):
            thread_id = f"pair-{pair}"
            for worker in workers:
                worker.stdin.write(thread_id + "\n")
            for worker in workers:
                worker.stdin.flush()
            results = [json.loads(worker.stdout.readline()) for worker in workers]
            codes = sorted(result["code"] for result in results)
            if codes == [0, 0]:
                both_won.append(thread_id)
                continue
            assert codes == [0, 2], results
            loser_err = next(result["err"] for result in results if result["code"] == 2)
            assert "Traceback" not in loser_err
            # refused while the winner runs, or (had the winner already finished) because the thread exists
            last = loser_err.splitlines()[-1]
            assert last.startswith(f"satiate: thread {thread_id} ") and ("is being run by" in last
                                                                          or "already exists" in last), loser_err
            winner = next(name for name, result in zip("ab", results) if result["code"] == 0)
            answer = json.loads((tmp_path / winner / f"{thread_id}.json").read_text())["answer"]
            with sqlite_checkpointer(isolated_data_dir) as saver:
                stored = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}})
                assert stored.values["answer"] == answer
                assert_one_chain(saver, thread_id)
    finally:
        for worker in workers:
            worker.stdin.close()
            worker.wait(timeout=CLI_PAIR_TIMEOUT_S)
    assert not both_won, f"both runs of one thread exited 0 in {len(both_won)} of {CLI_PAIRS} pairs: {both_won}"


def test_run_in_progress_is_what_the_cli_reports():
    assert issubclass(ThreadBusy, RunInProgress)  # the CLI turns both into one line and exit code 2
