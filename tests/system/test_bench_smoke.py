"""CI smoke run of the multi-hop benchmark: a few questions, one seed, the deterministic engine.

It checks that the pipeline produces every metric for every configuration and that the baselines are scored at the
budgets they claim; it asserts no timing and no recall level (numbers belong to ``bench/``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA = REPO_ROOT.parent / "shared" / "bench" / "multihop"

pytestmark = pytest.mark.skipif(
    not (DATA / "corpus.jsonl").is_file() or not (DATA / "questions.jsonl").is_file(),
    reason=f"multi-hop benchmark data not found at {DATA} (corpus.jsonl + questions.jsonl)",
)

GRAPH_CONFIGS = ("dual_search", "fixed3_single", "fixed3_fanout", "satiate", "no_epsilon", "no_breadcrumbs",
                 "no_critic")
# The metrics: evidence recall, all-gold, passages read, searches, rounds, model calls, tokens, wall time,
# the short answer's EM and F1, the answer in the first sentence, abstentions; plus the equal-budget comparisons.
GRAPH_METRICS = ("recall", "all_gold", "recall_kstar", "bm25_same_k", "recall_at_10", "bm25_at_10", "recall_at_20",
                 "bm25_at_20", "recall_at_40", "bm25_at_40", "seen_recall", "cited_recall", "passages",
                 "searches", "search_rounds", "saturated_rounds", "cycles", "model_calls", "tokens", "wall_s",
                 "answered", "answer_found", "first_found", "short_em", "short_f1", "abstained")
BM25_METRICS = ("recall", "all_gold", "recall_kstar", "passages", "searches", "wall_s")
QUESTIONS = 3


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench-out")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SATIATE_")}
    command = [sys.executable, "-m", "bench.multihop", "--data", str(DATA), "--questions", str(QUESTIONS),
               "--seeds", "1", "--jobs", "2", "--llm", "none", "--curve-k", "20", "--out", str(out / "results"),
               "--data-dir", str(out / "satiate-data")]
    completed = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "command: python -m bench.multihop" in completed.stdout  # the command line is printed for reruns
    return out / "results"


def runs_of(results: Path) -> list[dict]:
    return [json.loads(line) for line in (results / "runs.jsonl").read_text().splitlines()]


def test_every_configuration_reports_every_metric(smoke_run: Path) -> None:
    summary = json.loads((smoke_run / "summary.json").read_text())
    assert summary["questions"] == QUESTIONS
    assert set(summary["summary"]) == {"bm25_oneshot", *GRAPH_CONFIGS}
    for config in GRAPH_CONFIGS:
        overall = summary["summary"][config]["all"]
        missing = [m for m in GRAPH_METRICS if m not in overall]
        assert not missing, f"{config} lacks {missing}"
        for name in ("recall", "all_gold", "recall_kstar", "bm25_same_k", "answer_found", "first_found", "short_em",
                     "abstained"):
            assert 0.0 <= overall[name]["mean"] <= 1.0
        assert overall["searches"]["mean"] >= 1 and overall["search_rounds"]["mean"] >= 1
    bm25 = summary["summary"]["bm25_oneshot"]["all"]
    assert all(m in bm25 for m in BM25_METRICS)
    assert "answer_found" not in bm25 and "short_em" not in bm25  # no answer text: answer metrics do not apply
    assert set(summary["groups"]) >= {"all", "hotpotqa"}  # aggregated by dataset and hop kind too


def test_answer_metrics_exist_wherever_an_answer_was_produced(smoke_run: Path) -> None:
    for run in runs_of(smoke_run):
        if run["config"] == "bm25_oneshot":
            continue
        metrics = run["metrics"]
        assert all(name in metrics for name in GRAPH_METRICS)
        # an abstention is an explicit null short answer, and it scores as a miss, never as a match
        assert (metrics["abstained"] == 1.0) == (run["short_answer"] is None)
        if run["short_answer"] is None:
            assert metrics["short_em"] == 0.0 and metrics["short_f1"] == 0.0
        assert metrics["first_found"] <= metrics["answer_found"]  # the lead is part of the answer


def test_baselines_are_scored_at_the_budgets_they_claim(smoke_run: Path) -> None:
    runs = runs_of(smoke_run)
    full = {(r["qid"], r["seed"]): r for r in runs if r["config"] == "satiate"}
    bm25 = [r for r in runs if r["config"] == "bm25_oneshot"]
    assert len(bm25) == len(full) == QUESTIONS
    for row in bm25:  # one-shot BM25 reads exactly as many passages as the full loop did for that question
        assert row["metrics"]["passages"] == full[(row["qid"], row["seed"])]["metrics"]["passages"]
        assert row["metrics"]["searches"] == 1
    for run in runs:  # k* is the fewest passages any graph run read, so recall@k* never exceeds recall
        if run["metrics"]["passages"]:
            assert 0 < run["k_star"] <= run["metrics"]["passages"]
        assert run["metrics"]["recall_kstar"] <= run["metrics"]["recall"]
        assert run["metrics"]["recall"] <= run["metrics"]["seen_recall"]
    by_config = {r["config"] for r in runs}
    assert by_config == {"bm25_oneshot", *GRAPH_CONFIGS}


def test_reading_order_is_compared_with_bm25_at_equal_budgets(smoke_run: Path) -> None:
    summary = json.loads((smoke_run / "summary.json").read_text())
    for run in runs_of(smoke_run):
        if run["config"] == "bm25_oneshot":
            continue
        metrics = run["metrics"]
        # reading order: recall grows with the budget and reaches the run's recall once every passage read counts
        assert metrics["recall_at_10"] <= metrics["recall_at_20"] <= metrics["recall_at_40"] <= metrics["recall"]
        assert metrics["bm25_at_10"] <= metrics["bm25_at_20"] <= metrics["bm25_at_40"]
        if metrics["passages"] <= 10:
            assert metrics["recall_at_10"] == metrics["recall"]
        assert metrics["saturated_rounds"] == sum(g["decision"] == "saturated" for g in run["gate"])
    # the gate's saturated rounds are counted per configuration, and every graph configuration has its curve
    gate = summary["gate_decisions"]["satiate"]
    assert 0 <= gate["saturated"] <= gate["rounds"] and gate["rounds"] >= QUESTIONS
    assert set(summary["reading_curves"]) == set(GRAPH_CONFIGS)
    curve = summary["reading_curves"]["satiate"]
    assert len(curve) == 20 and all(a <= b for a, b in zip(curve, curve[1:]))
    table = (smoke_run / "table.md").read_text()
    assert "## Reading order against one-shot BM25 at equal k" in table and "r@10 / BM25@10" in table
    assert "rounds judged saturated" in table


def test_table_and_plot_are_written(smoke_run: Path) -> None:
    table = (smoke_run / "table.md").read_text()
    for column in ("recall", "all-gold", "recall@k*", "BM25@k", "searches", "s-rounds", "cycles", "model calls",
                   "tokens", "wall s", "found", "first", "short EM", "short F1", "abstain"):
        assert f"| {column} |" in table or f"| {column} " in table, column
    assert "## Columns" in table and "python -m bench.multihop" in table
    assert (smoke_run / "recall_vs_searches.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
