"""satiate inside another agent: a parent graph with its own state schema runs satiate as a subgraph, under the
parent's checkpointer. A run stopped part-way (an exception, or a real SIGKILL of the process) resumes without
repeating any search that had finished.

Each search is counted by a counting wrapper around a real local corpus backend; one backend call makes one search
record, so "searches before the stop + searches after the resume == searches in the result" holds exactly when no
finished search was run twice.
"""

from __future__ import annotations

import json
import operator
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from satiate.graph import build_graph  # noqa: E402
from satiate.state.contracts import ResearchResult  # noqa: E402
from support.studio_support import InjectedCrash, counting_dependencies, write_corpus  # noqa: E402

QUESTION = "What is a Python generator?"


class ParentState(TypedDict, total=False):
    """The parent's own schema: it shares only satiate's input/output keys, plus fields satiate knows nothing of."""

    question: str
    settings: dict[str, Any]
    answer: str
    result: dict[str, Any]
    notes: Annotated[list[str], operator.add]


class WrapperParentState(TypedDict, total=False):
    """A schema with no key in common with satiate: a wrapper function maps it."""

    topic: str
    corpus: str
    report: str
    claim_count: int
    searches: int
    notes: Annotated[list[str], operator.add]


def build_parent(deps, mode: str, checkpointer):
    """``node``: the compiled satiate graph added as a node; ``wrapper``: satiate invoked inside a node function."""
    research = build_graph(deps)
    if mode == "node":
        builder = StateGraph(ParentState)
        builder.add_node("prepare", lambda state: {"notes": ["prepared"]})
        builder.add_node("research", research)
        builder.add_node("review", lambda state: {"notes": [f"reviewed {len(state['result']['claims'])} claims"]})
    else:
        def run_research(state: WrapperParentState) -> dict[str, Any]:
            settings = {"llm": "none", "corpus": state["corpus"], "backends": ["corpus"], "seed": 1}
            out = research.invoke({"question": state["topic"], "settings": settings})
            result = ResearchResult.model_validate(out["result"])
            return {"report": out["answer"], "claim_count": len(result.claims), "searches": result.searches}

        builder = StateGraph(WrapperParentState)
        builder.add_node("prepare", lambda state: {"notes": ["prepared"]})
        builder.add_node("research", run_research)
        builder.add_node("review", lambda state: {"notes": [f"reviewed {state['claim_count']} claims"]})
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "research")
    builder.add_edge("research", "review")
    builder.add_edge("review", END)
    return builder.compile(checkpointer=checkpointer)


def parent_input(mode: str, corpus: Path) -> dict[str, Any]:
    if mode == "node":
        return {"question": QUESTION, "settings": {"llm": "none", "corpus": str(corpus), "backends": ["corpus"],
                                                   "seed": 1}}
    return {"topic": QUESTION, "corpus": str(corpus)}


def searches_in(mode: str, out: dict[str, Any]) -> int:
    return out["result"]["searches"] if mode == "node" else out["searches"]


def open_saver(path: Path) -> SqliteSaver:
    return SqliteSaver(sqlite3.connect(path, check_same_thread=False))


@pytest.mark.parametrize("mode", ["node", "wrapper"])
@pytest.mark.parametrize("crash_in, crash_on_call", [("critic", 1), ("gather", 3)])
def test_parent_resumes_satiate_without_repeating_finished_searches(tmp_path: Path, mode: str, crash_in: str,
                                                                    crash_on_call: int) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    data_dir = tmp_path / "satiate-data"
    config = {"configurable": {"thread_id": f"parent-{mode}-{crash_in}"}}
    saver = open_saver(tmp_path / "parent.sqlite")

    crashing, first_backend = counting_dependencies(corpus, data_dir, crash_in=crash_in, crash_on_call=crash_on_call)
    with pytest.raises(InjectedCrash):
        build_parent(crashing, mode, saver).invoke(parent_input(mode, corpus), config)
    stopped = build_parent(crashing, mode, saver).get_state(config, subgraphs=True)
    assert stopped.next == ("research",)
    inner = stopped.tasks[0].state  # satiate's own checkpoint, inside the parent's
    assert inner.next and inner.next[0] == crash_in
    before = list(first_backend.queries)
    assert before and len(inner.values["search_results"]) == len(before)

    healthy, second_backend = counting_dependencies(corpus, data_dir)
    out = build_parent(healthy, mode, saver).invoke(None, config)

    after = list(second_backend.queries)
    assert out["notes"][0] == "prepared" and out["notes"][-1].startswith("reviewed")
    assert len(before) + len(after) == searches_in(mode, out), "a finished search was run again on resume"
    if crash_in == "critic":
        assert after == []  # every search had finished before the crash
    else:
        assert 0 < len(after) < searches_in(mode, out)  # only the unfinished branches ran again


def run_parent_until_killed(corpus: Path, data_dir: Path, checkpoint_file: Path, log_file: Path, mode: str) -> None:
    """Child-process entry: run the parent; satiate's critic SIGKILLs the process on its first call.

    ``durability="sync"``: with LangGraph's default ("async") checkpoints are written in the background and a
    SIGKILL loses the ones still queued (seen here: 3 of 12 of satiate's checkpoints survived), so a caller that
    can be killed, not just interrupted, asks for every step to be on disk before the next one starts.
    """
    deps, _ = counting_dependencies(corpus, data_dir, log_file=log_file, crash_in="critic", hard_kill=True)
    app = build_parent(deps, mode, open_saver(checkpoint_file))
    app.invoke(parent_input(mode, corpus), {"configurable": {"thread_id": "killed-parent"}}, durability="sync")


def test_parent_killed_mid_subgraph_resumes_in_another_process(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    data_dir = tmp_path / "satiate-data"
    checkpoint_file, log_file = tmp_path / "parent.sqlite", tmp_path / "searches.log"
    child = subprocess.run(
        [sys.executable, __file__, "child", str(corpus), str(data_dir), str(checkpoint_file), str(log_file), "node"],
        capture_output=True, text=True, timeout=120,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
    before = log_file.read_text(encoding="utf-8").splitlines()
    assert before

    config = {"configurable": {"thread_id": "killed-parent"}}
    healthy, backend = counting_dependencies(corpus, data_dir)
    app = build_parent(healthy, "node", open_saver(checkpoint_file))
    assert app.get_state(config).next == ("research",)
    out = app.invoke(None, config)

    assert backend.queries == [], "the resumed parent searched again"
    assert out["result"]["searches"] == len(before)
    assert out["result"]["claims"] and out["notes"][-1].startswith("reviewed")


if __name__ == "__main__" and sys.argv[1:2] == ["child"]:
    corpus_arg, data_arg, checkpoint_arg, log_arg, mode_arg = sys.argv[2:7]
    run_parent_until_killed(Path(corpus_arg), Path(data_arg), Path(checkpoint_arg), Path(log_arg), mode_arg)
    print(json.dumps({"finished": True}))  # reached only if the kill did not happen
