"""Indexing: one long line must index about as fast as the same words in paragraphs (chunking is linear).

    python -m bench.indexing                 # 40 MB, each shape once
    python -m bench.indexing --mb 8

Writes two ``.txt`` files of the same invented words (seeded): one a single line with no line break, one with a
blank line every few sentences; indexes each into a fresh data directory through the local-corpus backend (reading,
chunking, FTS5 inserts, commits), and prints both times and their ratio. The target: the single line within 2.5x
(+5 s) of the paragraphs.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

VOCABULARY = ("quillby", "harbor", "velmora", "saltreach", "lantern", "ferry", "tide", "ledger", "granary", "mill",
              "orchard", "bellfounder", "weir", "causeway", "market", "charter", "1874", "warden", "stone", "river")
TARGET_RATIO = 2.5
TARGET_SLACK_S = 5.0


def sentences(total_chars: int, seed: int = 7) -> list[str]:
    """Invented sentences of eight to twenty words, about ``total_chars`` in all."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < total_chars:
        sentence = " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(8, 20))).capitalize() + "."
        out.append(sentence)
        size += len(sentence) + 1
    return out


def index_seconds(corpus: Path, data_dir: Path) -> tuple[float, int]:
    from satiate.tools.search.local_corpus import LocalCorpusBackend

    started = time.perf_counter()
    backend = LocalCorpusBackend(corpus, data_dir)
    elapsed = time.perf_counter() - started
    passages = backend.index.count()
    backend.index.close()
    return elapsed, passages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.indexing", description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=40.0, help="size of each file in megabytes")
    args = parser.parse_args(argv)
    text = sentences(int(args.mb * 1_000_000))
    with tempfile.TemporaryDirectory(prefix="satiate-bench-indexing-") as folder:
        root = Path(folder)
        shapes = {
            "paragraphs": "\n\n".join(" ".join(text[n:n + 6]) for n in range(0, len(text), 6)),
            "single line": " ".join(text),
        }
        times: dict[str, float] = {}
        for shape, content in shapes.items():
            corpus = root / shape.replace(" ", "-") / "notes.txt"
            corpus.parent.mkdir()
            corpus.write_text(content, encoding="utf-8")
            seconds, passages = index_seconds(corpus, root / f"data-{shape.replace(' ', '-')}")
            times[shape] = seconds
            print(f"{shape:12s} {len(content) / 1e6:6.1f} MB  {passages:7,d} passages  {seconds:7.1f} s", flush=True)
    limit = TARGET_RATIO * times["paragraphs"] + TARGET_SLACK_S
    within = times["single line"] <= limit
    print(f"single line / paragraphs: {times['single line'] / times['paragraphs']:.2f}x "
          f"(target: within {TARGET_RATIO}x + {TARGET_SLACK_S:.0f} s = {limit:.1f} s): {'yes' if within else 'no'}")
    return 0 if within else 1


if __name__ == "__main__":
    raise SystemExit(main())
