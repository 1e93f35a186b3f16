"""One writer per thread: a second run of a thread while one is writing it is refused, never interleaved.

Through the Python API (two ``invoke`` calls at once on one SQLite checkpointer, threads of one process) and through
the CLI (two real ``satiate run`` processes started together on one thread ID, many pairs): exactly one run writes,
the other is refused with one clear line, and the stored thread is one unbroken chain of checkpoints whose answer is
the winner's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from research_corpus import PASSAGES, QUESTION

from satiate.graph.builder import build_graph
from satiate.graph.checkpoint import RunInProgress, ThreadBusy, sqlite_checkpointer, thread_writer
from satiate.graph.deps import deterministic_engine
from satiate.nodes.common import Dependencies
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService

SEARCH_DELAY_S = 0.05  # long enough for two runs started together to overlap, short enough for a quick test
CLI_PAIRS = 8
CLI_PAIR_TIMEOUT_S = 120


class SlowBackend:
    """The real corpus backend, a little slower, so a run lasts long enough to be overlapped."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.description, self.query_ceiling = inner, inner.name, inner.description, 40

    def search(self, query: str, max_results: int):
        time.sleep(SEARCH_DELAY_S)
        return self.inner.search(query, max_results)


def slow_dependencies(corpus: Path, data_dir: Path) -> Dependencies:
    service = SearchService({"corpus": SlowBackend(LocalCorpusBackend(corpus, data_dir))}, retry_attempts=1)
    return Dependencies(engine_for=lambda _settings: deterministic_engine(), search_for=lambda _settings: service)


def assert_one_chain(saver, thread_id: str) -> None:
    """Every root checkpoint of the thread has the one before it as its parent: no second history woven in."""
    items = list(saver.list({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}))  # newest first
    assert items, "the thread has no checkpoint"
    for newer, older in zip(items, items[1:]):
        assert newer.parent_config["configurable"]["checkpoint_id"] == older.config["configurable"]["checkpoint_id"]
    assert items[-1].parent_config is None


def test_two_api_runs_of_one_thread_at_once_one_is_refused(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    deps = slow_dependencies(corpus, isolated_data_dir)
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
        graph = build_graph(slow_dependencies(corpus, isolated_data_dir), checkpointer=saver)
        graph.invoke({"question": QUESTION, "settings": {"corpus": str(corpus), "backends": ["corpus"], "seed": 1}},
                     config)
        with thread_writer(saver, "held"):  # what a run holds while it writes
            with pytest.raises(ThreadBusy):
                graph.update_state(config, {"question": QUESTION})
            with pytest.raises(ThreadBusy):
                delete_thread(saver, "held")
            with pytest.raises(ThreadBusy):
                graph.invoke(None, config)
        delete_thread(saver, "held")
        assert not graph.get_state(config).values


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


# --- the CLI: two real processes started together ----------------------------------------------------------------------
STARTER = r'''
import sys, time
from satiate.graph import cli
import satiate.graph.builder, satiate.tools.search.local_corpus  # imported before the start line, as warm as can be
start_at = float(sys.argv[1])
while time.time() < start_at:
    time.sleep(0.0005)
sys.exit(cli.main(sys.argv[2:]))
'''


def test_two_cli_runs_of_one_thread_started_together_one_is_refused(tmp_path, write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    starter = tmp_path / "starter.py"
    starter.write_text(STARTER)
    env = {**os.environ, "SATIATE_DATA_DIR": str(isolated_data_dir)}
    common = ["run", QUESTION, "--corpus", str(corpus), "--backends", "corpus", "--seed", "3", "--json",
              "--max-results-per-query", "2"]
    # index the corpus once, so both processes of a pair do the same (small) work before the race
    warm = subprocess.run([sys.executable, str(starter), "0", *common, "--thread-id", "warm"], env=env,
                          capture_output=True, text=True, timeout=CLI_PAIR_TIMEOUT_S)
    assert warm.returncode == 0, warm.stderr
    both_won = []
    for pair in range(CLI_PAIRS):
        thread_id = f"pair-{pair}"
        start_at = time.time() + 1.5  # both import everything first, then start within a millisecond
        processes = [subprocess.Popen([sys.executable, str(starter), str(start_at), *common, "--thread-id",
                                       thread_id], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True) for _ in range(2)]
        results = [(p.returncode, out, err) for p in processes
                   for out, err in [p.communicate(timeout=CLI_PAIR_TIMEOUT_S)]]
        codes = sorted(code for code, _, _ in results)
        if codes == [0, 0]:
            both_won.append(thread_id)
            continue
        assert codes == [0, 2], results
        winner = next(out for code, out, _ in results if code == 0)
        loser_err = next(err for code, _, err in results if code == 2)
        assert "Traceback" not in loser_err
        # refused while the winner runs, or (had the winner already finished) because the thread exists
        last = loser_err.splitlines()[-1]
        assert last.startswith(f"satiate: thread {thread_id} ") and ("is being run by" in last
                                                                      or "already exists" in last), loser_err
        shown = subprocess.run([sys.executable, "-m", "satiate.graph.cli", "show", thread_id, "--json"], env=env,
                               capture_output=True, text=True, timeout=CLI_PAIR_TIMEOUT_S)
        assert json.loads(shown.stdout)["answer"] == json.loads(winner)["answer"]
    assert not both_won, f"both runs of one thread exited 0 in {len(both_won)} of {CLI_PAIRS} pairs: {both_won}"
    with sqlite_checkpointer(isolated_data_dir) as saver:
        for pair in range(CLI_PAIRS):
            assert_one_chain(saver, f"pair-{pair}")


def test_run_in_progress_is_what_the_cli_reports():
    assert issubclass(ThreadBusy, RunInProgress)  # the CLI turns both into one line and exit code 2
