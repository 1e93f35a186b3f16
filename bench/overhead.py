"""Orchestration overhead: a full run with a search backend of fixed latency, with and without the checkpointer.

    python -m bench.overhead                     # 5 questions, 50 ms a search, 2 repeats
    python -m bench.overhead --delay-ms 200 --questions 10

overhead = (wall - time inside search and model calls) / wall, where "time inside" is the wall time covered by at
least one open call (gather branches search in parallel, so summed call time would overstate it). With the
deterministic engine no model call happens, so its decision time counts as overhead; the "orchestration" column
removes engine decision time too. Some decisions a node makes itself, not through the engine (the grounding gate,
the key actors, the suspicion check on a source read): "graph + checkpoints" removes those as well and leaves
LangGraph, the state's reducers, the checkpoint writes and the text store, which the "text store" column shows alone.

With a checkpointer it also measures what the checkpoints cost: bytes a run (checkpoints plus task writes), the
largest checkpoint, bytes a checkpoint, the time a checkpoint write takes (``put`` and ``put_writes`` timed in the
saver), and the source texts the run keeps in the store. The SQLite checkpointer runs in two durabilities:
``sync`` (what ``satiate run`` uses: each step on disk before the next starts) and ``async`` (LangGraph's default,
the server's: the write overlaps the next step).
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

from bench.data import DEFAULT_DATA, RESULTS_DIR, corpus_path, load_questions, stratified_subset
from bench.environment import command_line, git_version, machine
from bench.floor import floor_seconds, run_shape, stepper_graph
from bench.instruments import SleepyBackend, SpanClock, TimedEngine, clocked, timing
from bench.report import write_outputs
from satiate.graph import RECURSION_LIMIT, build_graph
from satiate.graph.checkpoint import checkpoint_path, sqlite_checkpointer, thread_storage
from satiate.graph.deps import engine_for
from satiate.nodes.common import Dependencies
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService

PLAIN = "no checkpointer"
DURABILITIES = {"SQLite, durability=sync": "sync", "SQLite, durability=async": "async"}
MODES = (PLAIN, *DURABILITIES)
# decisions nodes make themselves (not engine calls): told apart from graph and checkpoint time
NODE_DECISIONS = {"satiate.nodes.synthesize": ("gate_claims", "key_actors"), "satiate.nodes.compress": ("suspicion",)}
TEXT_STORE = {"satiate.nodes.common": ("keep_texts", "read_texts")}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.overhead", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--questions", type=int, default=5, help="stratified subset of this many questions")
    parser.add_argument("--qids", nargs="+", metavar="QID", help="these questions instead of a stratified subset")
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
        self.decision_clock, self.store_clock = SpanClock(), SpanClock()
        backend = SleepyBackend(LocalCorpusBackend(corpus, data_dir), delay_s, self.search_clock)
        self.service = SearchService({"corpus": backend})  # no store: every query pays the latency
        self.deps = Dependencies(
            engine_for=lambda settings: TimedEngine(engine_for(settings), self.engine_clock, self.model_clock),
            search_for=lambda settings: self.service,
        )

    def reset(self) -> None:
        """Clocks to zero, and the engine's memo of readings emptied: every run starts as a new process's would
        (the modes run the same question one after another, and the later ones would otherwise find its readings)."""
        from satiate.engine.answer import forget_readings

        forget_readings()
        for clock in (self.search_clock, self.engine_clock, self.model_clock, self.decision_clock, self.store_clock):
            clock.reset()


def time_writes(saver: Any, clock: SpanClock) -> None:
    """Time every checkpoint write of ``saver`` (``put`` and ``put_writes``) on ``clock``."""
    for name in ("put", "put_writes"):
        setattr(saver, name, clocked(getattr(saver, name), clock))


def measure(graph, tools: Instrumented, question: str, settings: dict[str, Any], config: dict,
            durability: str | None = None) -> tuple[dict[str, float], dict[str, Any]]:
    tools.reset()
    started = time.perf_counter()
    options = {"durability": durability} if durability else {}
    with timing(NODE_DECISIONS, tools.decision_clock), timing(TEXT_STORE, tools.store_clock):
        output = graph.invoke({"question": question, "settings": settings},
                              {"recursion_limit": RECURSION_LIMIT, **config}, **options)
    wall = time.perf_counter() - started
    search = tools.search_clock.covered()
    outside_search_and_model = wall - tools.search_clock.covered(tools.model_clock)
    outside_everything = wall - tools.search_clock.covered(tools.engine_clock)
    outside_decisions = wall - tools.search_clock.covered(tools.engine_clock, tools.decision_clock)
    row = {
        "wall_s": wall,
        "searches": len(tools.search_clock.spans),
        "search_covered_s": search,
        "search_summed_s": tools.search_clock.total(),
        "engine_covered_s": tools.engine_clock.covered(),
        "model_covered_s": tools.model_clock.covered(),
        "overhead": outside_search_and_model / wall,
        "orchestration": outside_everything / wall,
        "orchestration_s": outside_everything,
        "node_decisions_s": tools.decision_clock.covered(),
        "graph_and_checkpoints": outside_decisions / wall,
        "graph_and_checkpoints_s": outside_decisions,
        "text_store_s": tools.store_clock.total(),
        "sources": len(output["result"]["sources"]),
    }
    return row, output


def with_fresh_store(settings: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The settings with a text store of their own, created beforehand: each run keeps its texts as a first run
    does (a store that already holds them, from the same question run before, would only record the new owner)."""
    from satiate.graph.deps import store_for
    from satiate.state.settings import Settings

    fresh = {**settings, "store_url": f"sqlite:///{folder / f'texts-{uuid.uuid4().hex[:8]}.sqlite'}"}
    store_for(Settings.model_validate(fresh))
    return fresh


def with_floor(row: dict[str, float], floor_s: float) -> dict[str, float]:
    """The row plus LangGraph's floor for the run's shape, and what is left of the overhead above it: satiate's."""
    return {**row, "floor_s": floor_s, "floor": floor_s / row["wall_s"],
            "own_share": (row["graph_and_checkpoints_s"] - floor_s) / row["wall_s"]}


def storage_row(saver: Any, thread_id: str, writes: SpanClock, output: dict[str, Any]) -> dict[str, float]:
    """What one run's checkpoints cost: bytes (a run, a checkpoint, the largest), write time, texts kept."""
    from satiate.graph.deps import store_for
    from satiate.state.settings import Settings
    from satiate.tools.source_texts import run_text_bytes

    stored = thread_storage(saver, thread_id)
    assert stored is not None, "the SQLite saver measures its threads"
    sources = max(1, len(output["result"]["sources"]))
    return {
        "checkpoints": stored.checkpoints,
        "run_bytes": stored.total_bytes,
        "checkpoint_bytes": stored.checkpoint_bytes,
        "write_bytes": stored.write_bytes,
        "largest_checkpoint_bytes": stored.largest_checkpoint,
        "bytes_per_checkpoint": stored.checkpoint_bytes / max(1, stored.checkpoints),
        "largest_per_source": stored.largest_checkpoint / sources,
        "write_ms_per_checkpoint": 1000 * writes.total() / max(1, stored.checkpoints),
        "text_bytes": run_text_bytes(store_for(Settings.model_validate(output["result"]["settings"])), thread_id),
    }


def summarize(runs: list[dict]) -> dict[str, Any]:
    keys = [k for k in runs[0] if isinstance(runs[0][k], (int, float)) and k not in ("repeat",)]
    return {k: statistics.fmean(r[k] for r in runs) for k in keys} | {"runs": len(runs)}


def table(summary: dict, delay_ms: float) -> list[str]:
    lines = ["| mode | runs | wall s | steps / tasks | searches | search time s (covered / summed) | engine s | "
             "overhead | orchestration | node decisions s | text store s | graph + checkpoints | LangGraph floor | "
             "satiate's share |",
             "|---|" + "---:|" * 13]
    for mode, row in summary.items():
        lines.append(
            f"| {mode} | {row['runs']} | {row['wall_s']:.3f} | {row['steps']:.1f} / {row['tasks']:.1f} | "
            f"{row['searches']:.1f} | {row['search_covered_s']:.3f} / {row['search_summed_s']:.3f} | "
            f"{row['engine_covered_s']:.3f} | {100 * row['overhead']:.1f}% | {100 * row['orchestration']:.1f}% | "
            f"{row['node_decisions_s']:.3f} | {row['text_store_s']:.3f} | {100 * row['graph_and_checkpoints']:.1f}% | "
            f"{100 * row['floor']:.1f}% | {100 * row['own_share']:.1f}% |"
        )
    lines += ["", "| mode | checkpoints a run | KB a run (checkpoints + writes) | KB a checkpoint | largest "
              "checkpoint KB | largest per source, bytes | ms a checkpoint write | source texts KB a run |",
              "|---|" + "---:|" * 7]
    for mode, row in summary.items():
        if "checkpoints" not in row:
            continue
        lines.append(
            f"| {mode} | {row['checkpoints']:.1f} | {row['run_bytes'] / 1000:.1f} | "
            f"{row['bytes_per_checkpoint'] / 1000:.2f} | {row['largest_checkpoint_bytes'] / 1000:.1f} | "
            f"{row['largest_per_source']:.0f} | {row['write_ms_per_checkpoint']:.2f} | "
            f"{row['text_bytes'] / 1000:.1f} |")
    lines += ["", f"Backend latency {delay_ms:.0f} ms a query (sleep) plus the real FTS5 search. overhead = (wall − "
              "time covered by search and model calls) / wall; orchestration additionally removes engine decision "
              "time; graph + checkpoints also removes the decisions nodes make themselves (grounding gate, key "
              "actors, suspicion check). LangGraph floor = the same steps and tasks replayed with nodes that do "
              "nothing, under the same checkpointer and durability (bench/floor.py): no node or state design goes "
              "under it; satiate's share = graph + checkpoints − floor. ms a checkpoint write = time inside the "
              "saver's put and put_writes / checkpoints. KB a run counts the checkpoints and the task writes the "
              "database holds for the run; the source texts live once in the "
              "store, shared by the runs that read them. With durability=async the writes run in a background "
              "thread while the next step runs, so their time includes waiting for the interpreter lock: it is not "
              "time on the run's path."]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = command_line("bench.overhead")
    questions = load_questions(args.data)
    if args.qids:
        questions = [q for q in questions if q.qid in set(args.qids)]
    else:
        questions = stratified_subset(questions, args.questions)
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
        writes = SpanClock()
        shapes: dict[str, list[int]] = {}  # question -> tasks a step (the same decisions in every mode)
        floors: dict[tuple[str, str], float] = {}  # (question, mode) -> LangGraph's floor for that shape
        with sqlite_checkpointer(data_dir) as saver:
            time_writes(saver, writes)
            saved = build_graph(tools.deps, checkpointer=saver)
            steppers = {PLAIN: (stepper_graph(), None)} | {mode: (stepper_graph(saver), durability)
                                                            for mode, durability in DURABILITIES.items()}
            for repeat in range(args.repeats):
                for question in questions:
                    plain_row, _ = measure(plain, tools, question.question, with_fresh_store(settings, data_dir), {})
                    for mode, durability in DURABILITIES.items():
                        thread_id = f"overhead-{uuid.uuid4().hex[:8]}"
                        writes.reset()
                        config = {"configurable": {"thread_id": thread_id}}
                        row, output = measure(saved, tools, question.question, with_fresh_store(settings, data_dir),
                                              config, durability)
                        row |= storage_row(saver, thread_id, writes, output)
                        if question.qid not in shapes:
                            shape = shapes[question.qid] = run_shape(saved, config)
                            for floor_mode, (stepper, floor_durability) in steppers.items():
                                floors[question.qid, floor_mode] = floor_seconds(stepper, shape,
                                                                                 durability=floor_durability)
                        shape = shapes[question.qid]
                        runs[mode].append({**with_floor(row, floors[question.qid, mode]), "repeat": repeat,
                                           "qid": question.qid, "steps": len(shape), "tasks": sum(shape)})
                    runs[PLAIN].append({**with_floor(plain_row, floors[question.qid, PLAIN]), "repeat": repeat,
                                        "qid": question.qid, "steps": len(shape), "tasks": sum(shape)})
            database_bytes = checkpoint_path(data_dir).stat().st_size
    summary = {mode: summarize(rows) for mode, rows in runs.items()}
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
