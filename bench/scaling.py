"""How indexing and searching the local corpus scale: time and peak memory at 1x, 4x and 16x the benchmark corpus.

    python -m bench.scaling                       # multiples 1 4 16, the 150 benchmark questions as queries

Larger corpora are synthesised by repeating every passage with a new id (``doc~2``, ``doc~3``, ...) into a temp
JSONL file. Each measurement runs in a fresh child process so peak memory is its own: ``ru_maxrss`` (whole process,
including SQLite's own allocations) relative to the child's baseline after imports, and tracemalloc's peak (Python
objects only).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.data import DEFAULT_DATA, RESULTS_DIR, corpus_path, load_questions
from bench.environment import command_line, git_version, machine, max_rss_mb, run_child
from bench.report import write_outputs


def synthesize_corpus(source: Path, multiple: int, target: Path) -> int:
    """Write ``multiple`` copies of every passage, copies after the first with new ids; returns passages written."""
    lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    written = 0
    with target.open("w", encoding="utf-8") as handle:
        for copy in range(1, multiple + 1):
            for row in lines:
                if copy > 1:
                    row = {**row, "doc_id": f"{row['doc_id']}~{copy}"}
                handle.write(json.dumps(row) + "\n")
                written += 1
    return written


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Index (``phase=index``) or open and search (``phase=search``) in this fresh process."""
    from satiate.tools.search.local_corpus import LocalCorpusBackend

    baseline = max_rss_mb()
    traced = spec.get("traced", False)
    if traced:  # tracing slows allocation, so traced runs report memory only, never time
        tracemalloc.start()
    started = time.perf_counter()
    backend = LocalCorpusBackend(spec["corpus"], Path(spec["data_dir"]))
    open_s = time.perf_counter() - started
    result: dict[str, Any] = {"open_s": open_s, "passages": backend.index.count(), "reindexed": backend.reindexed}
    if spec["phase"] == "search":
        latencies = []
        for query in spec["queries"]:
            begun = time.perf_counter()
            backend.search(query, spec["k"])
            latencies.append(time.perf_counter() - begun)
        latencies.sort()
        result.update(search_mean_ms=1000 * statistics.fmean(latencies),
                      search_p50_ms=1000 * latencies[len(latencies) // 2],
                      search_p95_ms=1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))],
                      searches=len(latencies))
    if traced:
        result["tracemalloc_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    result.update(baseline_rss_mb=baseline, peak_rss_mb=max_rss_mb(), rss_growth_mb=max_rss_mb() - baseline,
                  index_bytes=backend.index.path.stat().st_size)
    return result



def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.scaling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--multiples", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--k", type=int, default=15, help="results per search (the standard tier's)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "scaling")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    command = command_line("bench.scaling")
    print(f"command: {command}", flush=True)
    queries = [q.question for q in load_questions(args.data)]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="satiate-scaling-") as scratch_name:
        scratch = Path(scratch_name)
        for multiple in args.multiples:
            corpus = scratch / f"corpus-x{multiple}.jsonl"
            written = synthesize_corpus(corpus_path(args.data), multiple, corpus)
            data_dir = scratch / f"data-x{multiple}"
            base = {"corpus": str(corpus), "data_dir": str(data_dir), "queries": queries, "k": args.k}
            traced = run_child("bench.scaling", {**base, "data_dir": str(scratch / f"traced-x{multiple}"),
                                                 "phase": "index", "traced": True})
            indexed = run_child("bench.scaling", {**base, "phase": "index"})
            searched = run_child("bench.scaling", {**base, "phase": "search"})
            indexed["tracemalloc_peak_mb"] = traced["tracemalloc_peak_mb"]
            row = {"multiple": multiple, "passages_written": written, "corpus_mb": corpus.stat().st_size / 2**20,
                   "index": indexed, "search": searched}
            rows.append(row)
            print(f"  x{multiple}: indexed {indexed['passages']} passages in {indexed['open_s']:.2f} s, "
                  f"search mean {searched['search_mean_ms']:.2f} ms", flush=True)
    lines = ["# Local corpus scaling", "", f"Command: `{command}`  ",
             f"git {git_version()}; {machine()['summary']}.", "",
             "| corpus | passages | JSONL MB | index MB | index s | index RSS growth MB | index tracemalloc peak MB | "
             "reopen s | search mean ms | p50 ms | p95 ms | search RSS growth MB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        index, search = row["index"], row["search"]
        lines.append(
            f"| {row['multiple']}x | {index['passages']} | {row['corpus_mb']:.1f} | "
            f"{index['index_bytes'] / 2**20:.1f} | {index['open_s']:.2f} | {index['rss_growth_mb']:.1f} | "
            f"{index['tracemalloc_peak_mb']:.1f} | {search['open_s']:.3f} | {search['search_mean_ms']:.2f} | "
            f"{search['search_p50_ms']:.2f} | {search['search_p95_ms']:.2f} | {search['rss_growth_mb']:.1f} |")
    lines += ["", f"Searches: the {len(queries)} benchmark questions, k={args.k}, on the already-built index (reopen "
              "= opening it and checking it is current). RSS growth = peak RSS minus the child's RSS after imports; "
              "tracemalloc sees Python objects only, not SQLite's own memory."]
    report = {"command": command, "rows": rows, "git": git_version(), "machine": machine()}
    write_outputs(args.out, report, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
