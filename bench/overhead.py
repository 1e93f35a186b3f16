"""Orchestration overhead: a full run with a search backend of fixed latency, with and without the checkpointer.

    python -m bench.overhead                     # 5 questions, 50 ms a search, 2 repeats
    python -m bench.overhead --delay-ms 200 --questions 10

overhead = (wall - time inside search and model calls) / wall, where "time inside" is the wall time covered by at
least one open call (gather branches search in parallel, so summed call time would overstate it). With the
deterministic engine no model call happens, so its decision time counts as overhead; the "orchestration" column
removes engine decision time too and leaves LangGraph, state reducers and checkpoint writes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from satiate.graph import RECURSION_LIMIT, build_graph
from satiate.graph.checkpoint import checkpoint_path, sqlite_checkpointer
from satiate.graph.deps import engine_for
from satiate.nodes.common import Dependencies
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService

from bench.report import write_outputs
from bench.data import DEFAULT_DATA, RESULTS_DIR, corpus_path, load_questions, stratified_subset
from bench.environment import command_line, git_version, machine
from bench.instruments import SleepyBackend, SpanClock, TimedEngine

MODES = ("no checkpointer", "SQLite checkpointer")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.overhead", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--questions", type=int, default=5, help="stratified subset of this many questions")
    parser.add_argument("--delay-ms", type=float, default=50.0, help="sleep per backend query")
    parser.add_argument("--repeats", type=int, default=2, help="runs per question and mode")
    parser.add_argument("--llm", default="none")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "overhead")
    return parser.parse_args(argv)


class Instrumented:
    """A graph's dependencies with every search and engine decision timed."""

    def __init__(self, corpus: Path, data_dir: Path, delay_s: float) -> None:
        self.search_clock, self.engine_clock, self.model_clock = SpanClock(), SpanClock(), SpanClock()
        backend = SleepyBackend(LocalCorpusBackend(corpus, data_dir), delay_s, self.search_clock)
        self.service = SearchService({"corpus": backend})  # no store: every query pays the latency
        self.deps = Dependencies(
            engine_for=lambda settings: TimedEngine(engine_for(settings), self.engine_clock, self.model_clock),
            search_for=lambda settings: self.service,
        )

    def reset(self) -> None:
        for clock in (self.search_clock, self.engine_clock, self.model_clock):
            clock.reset()


def measure(graph, tools: Instrumented, question: str, settings: dict[str, Any], config: dict) -> dict[str, float]:
    tools.reset()
    started = time.perf_counter()
    output = graph.invoke({"question": question, "settings": settings}, {"recursion_limit": RECURSION_LIMIT, **config})
    wall = time.perf_counter() - started
    search = tools.search_clock.covered()
    outside_search_and_model = wall - tools.search_clock.covered(tools.model_clock)
    outside_everything = wall - tools.search_clock.covered(tools.engine_clock)
    return {
        "wall_s": wall,
        "searches": len(tools.search_clock.spans),
        "search_covered_s": search,
        "search_summed_s": tools.search_clock.total(),
        "engine_covered_s": tools.engine_clock.covered(),
        "model_covered_s": tools.model_clock.covered(),
        "overhead": outside_search_and_model / wall,
        "orchestration": outside_everything / wall,
        "orchestration_s": outside_everything,
        "sources": len(output["result"]["sources"]),
    }


def summarize(runs: list[dict]) -> dict[str, Any]:
    keys = [k for k in runs[0] if isinstance(runs[0][k], (int, float)) and k not in ("repeat",)]
    return {k: statistics.fmean(r[k] for r in runs) for k in keys} | {"runs": len(runs)}


def table(summary: dict[str, dict], delay_ms: float) -> list[str]:
    lines = ["| mode | runs | wall s | searches | search time s (covered / summed) | engine s | overhead | "
             "orchestration | checkpoints | ms a checkpoint |", "|---|" + "---:|" * 9]
    base_wall = summary[MODES[0]]["wall_s"]
    for mode, row in summary.items():
        checkpoints = row.get("checkpoints")
        per_checkpoint = "–"
        if checkpoints:
            per_checkpoint = f"{1000 * (row['wall_s'] - base_wall) / checkpoints:.2f}"
        lines.append(
            f"| {mode} | {row['runs']} | {row['wall_s']:.3f} | {row['searches']:.1f} | "
            f"{row['search_covered_s']:.3f} / {row['search_summed_s']:.3f} | {row['engine_covered_s']:.3f} | "
            f"{100 * row['overhead']:.1f}% | {100 * row['orchestration']:.1f}% | "
            f"{checkpoints if checkpoints is not None else '–'} | {per_checkpoint} |"
        )
    lines += ["", f"Backend latency {delay_ms:.0f} ms a query (sleep) plus the real FTS5 search. overhead = (wall − "
              "time covered by search and model calls) / wall; orchestration additionally removes engine decision "
              "time. ms a checkpoint = (wall with − wall without checkpointer) / checkpoints written."]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = command_line("bench.overhead")
    questions = stratified_subset(load_questions(args.data), args.questions)
    corpus = corpus_path(args.data)
    with tempfile.TemporaryDirectory(prefix="satiate-overhead-") as scratch:
        data_dir = Path(scratch)
        settings = {"corpus": str(corpus.resolve()), "llm": args.llm, "seed": args.seed, "backends": ["corpus"],
                    "data_dir": str(data_dir)}
        print(f"command: {command}\nsettings: {json.dumps(settings)}", flush=True)
        tools = Instrumented(corpus, data_dir, args.delay_ms / 1000)
        plain = build_graph(tools.deps)
        measure(plain, tools, questions[0].question, settings, {})  # warm-up: imports, index, caches of the engine
        runs: dict[str, list[dict]] = {mode: [] for mode in MODES}
        checkpoints: list[int] = []
        with sqlite_checkpointer(data_dir) as saver:
            saved = build_graph(tools.deps, checkpointer=saver)
            for repeat in range(args.repeats):
                for question in questions:
                    runs[MODES[0]].append({**measure(plain, tools, question.question, settings, {}),
                                           "repeat": repeat})
                    thread = {"configurable": {"thread_id": f"overhead-{uuid.uuid4().hex[:8]}"}}
                    row = measure(saved, tools, question.question, settings, thread)
                    checkpoints.append(sum(1 for _ in saver.list(thread)))
                    runs[MODES[1]].append({**row, "repeat": repeat})
            database_bytes = checkpoint_path(data_dir).stat().st_size
    summary = {mode: summarize(rows) for mode, rows in runs.items()}
    summary[MODES[1]]["checkpoints"] = round(statistics.fmean(checkpoints), 1)
    summary[MODES[1]]["checkpoint_db_bytes_total"] = database_bytes
    report = {"command": command, "settings": settings, "questions": [q.qid for q in questions],
              "delay_ms": args.delay_ms, "repeats": args.repeats, "summary": summary, "runs": runs,
              "git": git_version(), "machine": machine()}
    lines = ["# Orchestration overhead", "", f"Command: `{command}`  ", f"{len(questions)} questions x "
             f"{args.repeats} repeats; git {report['git']}; {report['machine']['summary']}.", "",
             *table(summary, args.delay_ms)]
    write_outputs(args.out, report, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
