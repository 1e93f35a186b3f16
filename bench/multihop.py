"""Evidence recall on real multi-hop questions: satiate's loop against fixed loops and one-shot BM25.

    python -m bench.multihop                      # all 150 questions, 3 seeds, every configuration
    python -m bench.multihop --questions 20       # a stratified subset (dataset x hop kind)
    python -m bench.multihop --configs satiate dual_search --seeds 1
    python -m bench.multihop --web --questions 30 --seeds 1   # the full loop locally and through the web path

Every graph configuration runs the real graph (``build_graph``) over the whole corpus with the local-corpus backend
only, no network; ``--web`` adds a row through the web path against a loopback stand-in (bench/web_mode.py).
Results: ``<out>/summary.json``, ``table.md``, ``recall_vs_searches.png``, ``runs.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.bm25 import OneShotBM25
from bench.configs import FULL, Configuration, select
from bench.data import (
    DEFAULT_DATA,
    HALVES,
    RESULTS_DIR,
    Question,
    corpus_path,
    half_of,
    load_questions,
    stratified_subset,
)
from bench.environment import command_line, git_version, machine
from bench.metrics import EQUAL_BUDGETS, METRICS, aggregate, bold_metrics, k_star, run_metrics, short_answer_summary
from bench.report import halves_table, markdown, plot, risk_coverage_table
from bench.runner import Unit, run_unit
from bench.scoring import recall_at
from bench.web_mode import WEB, as_doc_ids, web_configuration, web_summary, web_table
from bench.web_standin import WebStandin

DEFAULT_OUT = RESULTS_DIR / "multihop"
DEFAULT_DATA_DIR = RESULTS_DIR / "satiate-data"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.multihop", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with corpus.jsonl and questions.jsonl")
    parser.add_argument("--questions", type=int, default=None, help="stratified subset of this many questions")
    parser.add_argument("--qids", nargs="*", default=None, help="only these question ids")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3],
                        help="seeds for configurations that use ε (others run with the first seed)")
    parser.add_argument("--configs", nargs="*", default=None, help="configurations to run (default: all)")
    parser.add_argument("--llm", default="none", help="engine setting for every graph run (default: none)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="extra satiate setting for every graph run (JSON value or plain string)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results folder")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                        help="satiate data dir shared by all runs (the corpus index is built here once)")
    parser.add_argument("--web", action="store_true",
                        help="also run the full loop through the web path: SearXNG stand-in, fetcher and extractor on "
                        "127.0.0.1 (default configurations then: satiate and satiate_web)")
    parser.add_argument("--rescore", type=Path, default=None, metavar="RUNS_JSONL",
                        help="score the runs of an earlier benchmark again (its runs.jsonl) and print the halves and "
                        "the risk-coverage curve, without running anything")
    parser.add_argument("--curve-k", type=int, default=200, help="largest k of the BM25 recall@k curve in the plot")
    return parser.parse_args(argv)


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        try:
            overrides[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            overrides[key.strip()] = raw
    return overrides


def plan_units(questions: list[Question], configs: list[Configuration], seeds: list[int],
               base: dict[str, Any]) -> list[Unit]:
    """Every graph run to do. The question text goes to the worker; gold and answers stay with the scorer."""
    units: list[Unit] = []
    for question in questions:
        for config in configs:
            if not config.graph:
                continue
            for seed in seeds if config.uses_epsilon else seeds[:1]:
                settings = {**base, **config.overrides, "seed": seed}
                units.append(Unit(question.qid, question.question, config.name, seed, settings,
                                  trace_hits=config.name == FULL and seed == seeds[0]))
    return units


def run_units(units: list[Unit], jobs: int) -> list[dict]:
    """Run the units, in ``jobs`` worker processes when more than one; progress goes to stderr."""
    records: list[dict] = []
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 25 == 0 or done == len(units):
            print(f"  {done}/{len(units)} runs, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    if jobs <= 1:
        for unit in units:
            records.append(run_unit(unit))
            progress(len(records))
        return records
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes=jobs) as pool:
        for record in pool.imap_unordered(run_unit, units, chunksize=1):
            records.append(record)
            progress(len(records))
    return records


def bm25_records(questions: list[Question], records: list[dict], bm25: OneShotBM25) -> list[dict]:
    """One-shot BM25 with k = the passages the full loop read for that question and seed."""
    by_text = {q.qid: q.question for q in questions}
    rows: list[dict] = []
    for record in records:
        if record["config"] != FULL or "failure" in record:
            continue
        ids, seconds = bm25.top(by_text[record["qid"]], len(record["read"]))
        rows.append({"qid": record["qid"], "config": "bm25_oneshot", "seed": record["seed"], "read": ids,
                     "seen": ids, "searches": 1, "search_rounds": 1, "cycles": 0, "model_calls": 0, "tokens": 0,
                     "wall_s": seconds})
    return rows


def bm25_curve(questions: list[Question], bm25: OneShotBM25, largest_k: int) -> list[float]:
    """Mean one-shot BM25 recall@k for k = 1..largest_k (prefixes of one top-``largest_k`` list per question)."""
    if not questions or largest_k <= 0:
        return []
    curve = [0.0] * largest_k
    for question in questions:
        ids, _ = bm25.top(question.question, largest_k)
        for k in range(1, largest_k + 1):
            curve[k - 1] += recall_at(ids, question.gold_doc_ids, k) / len(questions)
    return curve


def question_groups(questions: list[Question]) -> dict[str, set[str]]:
    groups: dict[str, set[str]] = {"all": {q.qid for q in questions}}
    for half in HALVES:  # tune on one, report the other (bench.data.half_of)
        groups[half] = {q.qid for q in questions if half_of(q.qid) == half}
    for dataset in sorted({q.dataset for q in questions}):
        groups[dataset] = {q.qid for q in questions if q.dataset == dataset}
    for group in sorted({q.group for q in questions}):
        groups[group] = {q.qid for q in questions if q.group == group}
    return groups


def score(questions: list[Question], records: list[dict], bm25: OneShotBM25) -> list[dict]:
    """Per-run metric rows for graph runs and the BM25 rows derived from the full loop's budget."""
    by_qid = {q.qid: q for q in questions}
    ok = [r for r in records if "failure" not in r]
    all_runs = ok + bm25_records(questions, ok, bm25)
    fewest = k_star(ok)
    rows: list[dict] = []
    for record in all_runs:
        question = by_qid[record["qid"]]
        same_k = top = None
        if record["config"] != "bm25_oneshot":
            ids, _ = bm25.top(question.question, len(record["read"]))
            same_k = recall_at(ids, question.gold_doc_ids, len(ids)) if ids else 0.0
            top, _ = bm25.top(question.question, max(EQUAL_BUDGETS))
        metrics = run_metrics(record, question, fewest.get(record["qid"], 0), same_k, top)
        rows.append({**{k: v for k, v in record.items() if k != "queries"}, "group": question.group,
                     "k_star": fewest.get(record["qid"], 0), "metrics": metrics, "queries": record.get("queries")})
    return rows


def gate_decisions(rows: list[dict], config: str) -> dict[str, Any]:
    """How the novelty gate decided, over every round of every run of a configuration: its score histogram, and
    how many rounds it judged saturated out of how many it judged at all."""
    decisions: Counter[str] = Counter()
    scores: Counter[int] = Counter()
    for row in rows:
        if row["config"] != config:
            continue
        for verdict in row.get("gate", []):
            decisions[f"{verdict['decision']}: {verdict['reason']}"] += 1
            scores[verdict["score"]] += 1
    saturated = sum(n for key, n in decisions.items() if key.startswith("saturated"))
    return {"decisions": dict(decisions.most_common()), "scores": {str(k): scores[k] for k in sorted(scores)},
            "saturated": saturated, "rounds": sum(decisions.values()),
            "runs_ended_saturated": sum(1 for row in rows if row["config"] == config and row.get("gate")
                                        and row["gate"][-1]["decision"] == "saturated")}


def reading_curve(rows: list[dict], config: str, largest_k: int) -> list[float]:
    """Mean evidence recall of the first k passages read, k = 1..largest_k, over the runs of one configuration (its
    first seed): the agent's reading order as a recall@k curve, comparable point by point with one-shot BM25's."""
    runs = [row for row in rows if row["config"] == config]
    if not runs or largest_k <= 0:
        return []
    first_seed = min(row["seed"] for row in runs)
    runs = [row for row in runs if row["seed"] == first_seed]
    return [sum(recall_at(row["read"], row["gold"], k) for row in runs) / len(runs) for k in range(1, largest_k + 1)]


def rescore(runs_path: Path, questions: list[Question]) -> dict[str, Any]:
    """The short-answer and half summaries of an earlier run's rows, scored again with today's scorer: comparing
    answers before and after a change needs no rerun of the unchanged side."""
    by_qid = {q.qid: q for q in questions}
    rows = [json.loads(line) for line in runs_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [row for row in rows if row["qid"] in by_qid and "answer" in row]
    for row in rows:
        row["metrics"] = {**row["metrics"], **bold_metrics(row, by_qid[row["qid"]])}
    groups = question_groups([q for q in questions if q.qid in {row["qid"] for row in rows}])
    configs = list(dict.fromkeys(row["config"] for row in rows))
    return {"summary": aggregate(rows, groups),
            "short_answers": {config: {group: short_answer_summary([r for r in rows if r["config"] == config], by_qid,
                                                                    groups[group]) for group in ("all", *HALVES)}
                              for config in configs}}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.rescore is not None:
        report = rescore(args.rescore, load_questions(args.data))
        print("\n".join([*halves_table(report), "", *risk_coverage_table(report)]))
        return 0
    started = time.perf_counter()
    questions = load_questions(args.data)
    if args.qids:
        questions = [q for q in questions if q.qid in set(args.qids)]
    selection = "all" if args.questions is None and not args.qids else "chosen ids" if args.qids else \
        "stratified subset by dataset x hop kind, file order"
    questions = stratified_subset(questions, args.questions)
    configs = select(args.configs or ([FULL] if args.web else None))  # --web: the full loop beside its web row
    corpus = corpus_path(args.data)
    base = {"corpus": str(corpus.resolve()), "llm": args.llm, "backends": ["corpus"],
            "data_dir": str(args.data_dir.resolve()), **parse_overrides(args.overrides)}
    command = command_line("bench.multihop")
    code_at_start = git_version()
    print(f"command: {command}")
    print(f"base settings: {json.dumps(base)}")
    for config in configs:
        seeds = args.seeds if config.uses_epsilon or not config.graph else args.seeds[:1]
        print(f"  {config.name}: {json.dumps(config.overrides)} seeds={seeds}")
    bm25 = OneShotBM25(corpus, args.data_dir)  # builds the shared FTS5 index once, before the workers start
    standin = WebStandin(corpus, args.data_dir).start() if args.web else None
    if standin is not None:
        configs = [*configs, web_configuration(standin)]
        print(f"  {WEB}: {json.dumps(configs[-1].overrides)} seeds={args.seeds}")
    units = plan_units(questions, configs, args.seeds, base)
    print(f"{len(questions)} questions, {len(units)} graph runs, {args.jobs} worker(s)", flush=True)
    records = run_units(units, args.jobs)
    if standin is not None:
        standin.stop()
        records = [as_doc_ids(r) if r["config"] == WEB else r for r in records]
    rows = score(questions, records, bm25)
    groups = question_groups(questions)
    wanted = {c.name for c in configs}
    ordered = [c.name for c in configs]
    rows = sorted((r for r in rows if r["config"] in wanted), key=lambda r: (ordered.index(r["config"]), r["seed"]))
    report: dict[str, Any] = {
        "command": command,
        "questions": len(questions),
        "selection": selection,
        "seeds": args.seeds,
        "base_settings": base,
        "configurations": [{"name": c.name, "label": c.label, "how": c.how, "overrides": c.overrides,
                            "uses_epsilon": c.uses_epsilon,
                            "seeds": args.seeds if c.uses_epsilon or not c.graph else args.seeds[:1]}
                           for c in configs],
        "metrics": [{"name": m.name, "column": m.column, "meaning": m.meaning} for m in METRICS],
        "groups": {name: len(qids) for name, qids in groups.items()},
        "summary": aggregate(rows, groups),
        "short_answers": {c.name: {group: short_answer_summary([r for r in rows if r["config"] == c.name],
                                                               {q.qid: q for q in questions}, groups[group])
                                   for group in ("all", *HALVES)} for c in configs if c.graph},
        "stop_reasons": {c.name: dict(Counter(r.get("stop_reason", "") for r in rows if r["config"] == c.name))
                         for c in configs if c.graph},
        "gate_decisions": {c.name: gate_decisions(rows, c.name) for c in configs if c.graph},
        "failures": [r for r in records if "failure" in r],
        "git": code_at_start,
        "code_changed_during_run": git_version() != code_at_start,
        "machine": machine(),
        "jobs": args.jobs,
    }
    curve = bm25_curve(questions, bm25, args.curve_k)
    report["bm25_curve"] = curve
    gold_of = {q.qid: q.gold_doc_ids for q in questions}
    with_gold = [{**row, "gold": gold_of[row["qid"]]} for row in rows]
    report["reading_curves"] = {c.name: reading_curve(with_gold, c.name, args.curve_k) for c in configs if c.graph}
    report["elapsed_s"] = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    with (args.out / "runs.jsonl").open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    table = markdown(report, groups)
    if standin is not None:
        report["web"] = web_summary(rows, report["failures"], standin.passages)
        table += "\n\n## Web path (loopback stand-in) beside the local corpus\n\n" + web_table(report["web"]) + "\n"
        (args.out / "summary.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (args.out / "table.md").write_text(table, encoding="utf-8")
    plot(report, curve, args.out / "recall_vs_searches.png")
    print(table)
    print(f"wrote {args.out}/summary.json, table.md, runs.jsonl, recall_vs_searches.png")
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
