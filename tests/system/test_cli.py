"""The satiate command: a cited answer, runs read back by thread ID, and one clear line for every bad input."""

from __future__ import annotations

import json

import pytest

from satiate.graph.checkpoint import sqlite_checkpointer
from support.graph_support import FlakyEngine, build, corpus_deps, run_cli
from support.research_corpus import QUESTION


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "   "], "the question is empty"),
        (["run", "x" * 5000], "the limit is 4000"),
        (["run", "q?", "--corpus", "/no/such/corpus.jsonl"], "corpus not found: /no/such/corpus.jsonl"),
        (["run", "q?", "--novelty-threshold", "11"], "invalid setting novelty_threshold"),
        (["run", "q?", "--backends", "gopher"], "invalid setting backends"),
        (["resume", "no-such-thread"], "unknown thread id 'no-such-thread'"),
        (["show", "no-such-thread"], "unknown thread id 'no-such-thread'"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_run_json_then_show_list_and_resume_a_finished_run(capsys, corpus):
    code, out, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--seed", "3", "--json",
                             "--thread-id", "kettle", "--max-results-per-query", "2")
    assert code == 0, err
    result = json.loads(out)
    assert {"thread_id", "question", "answer", "claims", "sources", "rounds", "open_questions", "errors",
            "degraded"} <= set(result)
    assert result["thread_id"] == "kettle" and result["degraded"] is False
    assert "Ada Pell" in result["answer"]
    cited = {s["id"]: s for s in result["sources"] if s["n"] is not None}
    assert all(i in cited for claim in result["claims"] for i in claim["source_ids"])
    assert any(s["doc_id"] == "harbor" for s in result["sources"])  # JSONL doc ids survive into the output
    assert "thread: kettle" in err and "engine: deterministic" in err

    code, shown, _ = run_cli(capsys, "show", "kettle", "--json")
    assert code == 0 and json.loads(shown)["answer"] == result["answer"]

    code, out, _ = run_cli(capsys, "list")
    assert code == 0 and "kettle" in out and "finished" in out

    code, out, err = run_cli(capsys, "resume", "kettle")
    assert code == 0 and "already finished" in err and "Ada Pell" in out

    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--thread-id", "kettle")
    assert code == 2 and "already exists" in err


def test_markdown_report_has_citations_sources_and_convergence_table(capsys, corpus):
    code, out, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--seed", "3",
                             "--max-results-per-query", "2")
    assert code == 0, err
    assert "[1]" in out and "Sources" in out and "Sign-off" in out and "How this was researched" in out


def test_cli_resumes_a_run_that_died_in_a_node(capsys, corpus, isolated_data_dir):
    settings = {"corpus": str(corpus), "backends": ["corpus"], "seed": 3, "max_results_per_query": 2}
    deps, backend = corpus_deps(corpus, isolated_data_dir, engine=FlakyEngine(fail_method="critique"))
    with sqlite_checkpointer(isolated_data_dir) as saver:
        with pytest.raises(RuntimeError):
            build(deps, saver).invoke({"question": QUESTION, "settings": settings},
                                      {"configurable": {"thread_id": "died"}})
    code, out, _ = run_cli(capsys, "list")
    assert "died" in out and "failed" in out  # the critic's error is stored with the step
    code, out, err = run_cli(capsys, "resume", "died", "--json")
    assert code == 0, err
    assert "resuming thread died at: critic" in err
    assert "Ada Pell" in json.loads(out)["answer"]


def test_show_plot_writes_the_convergence_png(capsys, corpus, tmp_path):
    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--thread-id", "plotme",
                           "--max-results-per-query", "2")
    assert code == 0, err
    png = tmp_path / "curves.png"
    code, _, err = run_cli(capsys, "show", "plotme", "--plot", str(png))
    assert code == 0 and f"plot written to {png}" in err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_a_long_question_within_the_limit_is_researched(capsys, corpus):
    question = "Who founded the company that makes the Lumen kettle, and " * 12 + "when?"
    assert 400 < len(question) < 4000
    code, out, err = run_cli(capsys, "run", question, "--corpus", str(corpus), "--json", "--max-results-per-query", "2")
    assert code == 0, err
    result = json.loads(out)
    assert result["claims"] and result["metrics"]["searches_total"] == result["searches"] > 0


def test_agent_response_carries_the_summary_and_only_cited_sources(capsys, corpus):
    code, out, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--thread-id", "agent",
                             "--max-results-per-query", "2")
    assert code == 0, err
    code, agent, _ = run_cli(capsys, "show", "agent", "--agent")
    code_json, full, _ = run_cli(capsys, "show", "agent", "--json")
    assert code == code_json == 0
    agent, full = json.loads(agent), json.loads(full)
    assert agent["summary"] == full["answer"]
    cited = {i for claim in full["claims"] for i in claim["source_ids"]}
    assert {s["id"] for s in agent["sources"]} == cited
    # the set-aside side of the planted dispute is cited in the report but backs no claim, so it is left out
    assert any(s["doc_id"] == "harbor-press" and s["n"] for s in full["sources"])
    assert not any(s["doc_id"] == "harbor-press" for s in agent["sources"])
