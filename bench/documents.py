"""How long a folder of PDFs takes to index, and to index again after one file changed, with peak memory.

    python -m bench.documents                     # 200 PDFs of 20 pages each
    python -m bench.documents --files 20 --pages 5

The PDFs are generated into a temp folder by the same small hand-written PDF writer the tests use (one Helvetica
text object a page, FlateDecode content, a running header and a page number on every page), filled with invented
prose. Each index runs in a fresh child process so its peak memory is its own: ``ru_maxrss`` growth over the child's
baseline after imports (whole process, SQLite included) and, in a separate traced run, tracemalloc's peak (Python
objects only; tracing slows allocation, so that run reports memory only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.data import REPO_ROOT, RESULTS_DIR
from bench.environment import command_line, git_version, machine, max_rss_mb, run_child
from bench.report import write_outputs

sys.path.insert(0, str(REPO_ROOT / "tests"))  # the tests' PDF writer: one hand-written writer, not two
from support.document_files import write_pdf  # noqa: E402

LINES_PER_PAGE = 40
LINE_CHARS = 78
# Invented words only: the text is filler with the shape of prose, so BM25 and the layout rules have real work to do
SUBJECTS = ("the parish clerk", "the miller of Fernhollow", "the Larkspur committee", "the ferryman", "the treasurer",
            "the bell founder", "the orchard guild", "the toll keeper", "the schoolmistress", "the reeve")
VERBS = ("recorded", "disputed", "repaired", "measured", "proposed", "rejected", "inspected", "funded", "postponed")
OBJECTS = ("the north sluice", "the tithe barn roof", "the lower weir", "the chapel bells", "the grain ledger",
           "the ferry rope", "the pasture boundary", "the lamp oil accounts", "the flood bank", "the market cross")
TAILS = ("after the spring flood", "at the autumn meeting", "for the third year running", "with some reluctance",
         "before the harvest", "against the advice of the elders", "at a cost of {n} crowns", "in {n} working days")
CHANGED_SENTENCE = "The quartermaster of Vellbrook counted {n} lanterns in the granary loft."



def invented_page(rng: random.Random) -> list[str]:
    sentences = []
    while sum(len(s) + 1 for s in sentences) < LINES_PER_PAGE * LINE_CHARS * 0.9:
        tail = rng.choice(TAILS).format(n=rng.randint(2, 900))
        sentence = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {tail}."
        sentences.append(sentence[0].upper() + sentence[1:])
    return textwrap.wrap(" ".join(sentences), LINE_CHARS)[: LINES_PER_PAGE - 2]


def write_document(path: Path, number: int, pages: int, rng: random.Random, extra: str = "") -> None:
    header = f"Fernhollow Parish Record, volume {number}"
    body = [invented_page(rng) for _ in range(pages)]
    if extra:
        body[-1] = body[-1][:-1] + [extra]
    write_pdf(path, [[header, *lines, str(page)] for page, lines in enumerate(body, 1)],
              title=f"Fernhollow Parish Record {number}")


def generate(folder: Path, files: int, pages: int, seed: int) -> int:
    """``files`` PDFs of ``pages`` pages each; returns their total size in bytes."""
    rng = random.Random(seed)
    for number in range(1, files + 1):
        write_document(folder / f"record-{number:04d}.pdf", number, pages, rng)
    return sum(path.stat().st_size for path in folder.iterdir())


def change_one(folder: Path, pages: int, seed: int) -> tuple[Path, str]:
    """Rewrite the first PDF with a sentence no other file has, its mtime moved on; returns it and the sentence."""
    path = sorted(folder.iterdir())[0]
    sentence = CHANGED_SENTENCE.format(n=seed + 17)
    write_document(path, 1, pages, random.Random(seed + 1), extra=sentence)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2 * 10**9))
    return path, sentence


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Open (and so index) the corpus in this fresh process: seconds, files re-read, passages, peak memory."""
    from satiate.tools.search.local_corpus import LocalCorpusBackend

    baseline = max_rss_mb()
    if spec.get("traced"):
        tracemalloc.start()
    started = time.perf_counter()
    backend = LocalCorpusBackend(spec["corpus"], Path(spec["data_dir"]))
    result: dict[str, Any] = {"open_s": time.perf_counter() - started, "reindexed": backend.reindexed,
                              "passages": backend.index.count(), "notices": backend.notices}
    if spec.get("traced"):
        result["tracemalloc_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    if spec.get("query"):
        hits = backend.search(spec["query"], 1)
        result["found"] = bool(hits) and spec["sentence"] in hits[0].body
        result["found_page"] = hits[0].page if hits else None
    result.update(peak_rss_mb=max_rss_mb(), rss_growth_mb=max_rss_mb() - baseline,
                  index_bytes=backend.index.path.stat().st_size)
    return result



def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.documents", description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--pages", type=int, default=20, help="pages per PDF")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc run (it takes as long again)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "documents")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    command = command_line("bench.documents")
    print(f"command: {command}", flush=True)
    with tempfile.TemporaryDirectory(prefix="satiate-documents-") as scratch_name:
        scratch = Path(scratch_name)
        folder = scratch / "pdfs"
        folder.mkdir()
        started = time.perf_counter()
        size = generate(folder, args.files, args.pages, args.seed)
        print(f"  generated {args.files} PDFs x {args.pages} pages ({size / 2**20:.1f} MB) in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        base = {"corpus": str(folder), "data_dir": str(scratch / "data")}
        first = run_child("bench.documents", base)
        print(f"  first index: {first['open_s']:.1f} s, {first['passages']} passages", flush=True)
        unchanged = run_child("bench.documents", base)
        path, sentence = change_one(folder, args.pages, args.seed)
        second = run_child("bench.documents", {**base, "query": sentence, "sentence": sentence})
        print(f"  after changing {path.name}: {second['open_s']:.2f} s, {second['reindexed']} file re-read", flush=True)
        traced = None if args.no_trace else run_child("bench.documents",
                                                      {**base, "data_dir": str(scratch / "traced"), "traced": True})
    pages = args.files * args.pages
    lines = ["# Indexing a folder of PDFs", "", f"Command: `{command}`  ",
             f"git {git_version()}; {machine()['summary']}.", "",
             "| run | seconds | files re-read | passages | pages/s | RSS growth MB | tracemalloc peak MB |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    peak = f"{traced['tracemalloc_peak_mb']:.1f}" if traced else "-"
    lines.append(f"| first index ({args.files} PDFs x {args.pages} pages) | {first['open_s']:.1f} | "
                 f"{first['reindexed']} | {first['passages']} | {pages / first['open_s']:.0f} | "
                 f"{first['rss_growth_mb']:.1f} | {peak} |")
    lines.append(f"| reopen, nothing changed | {unchanged['open_s']:.2f} | {unchanged['reindexed']} | "
                 f"{unchanged['passages']} | - | {unchanged['rss_growth_mb']:.1f} | - |")
    lines.append(f"| reopen, one file changed | {second['open_s']:.2f} | {second['reindexed']} | {second['passages']} "
                 f"| - | {second['rss_growth_mb']:.1f} | - |")
    lines += ["", f"Corpus: {size / 2**20:.1f} MB of generated PDFs; index {first['index_bytes'] / 2**20:.1f} MB. "
              f"The changed file's new sentence is found after the second index: {second['found']} "
              f"(page {second['found_page']}). Notices: {len(first['notices'])}.",
              "RSS growth = peak RSS minus the child's RSS after imports; tracemalloc sees Python objects only."]
    report = {"command": command, "files": args.files, "pages": args.pages, "corpus_bytes": size, "first": first,
              "unchanged": unchanged, "changed_one": second, "traced": traced, "git": git_version(),
              "machine": machine()}
    write_outputs(args.out, report, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
