"""Run every benchmark in turn: ``python -m bench`` (add ``--questions N`` for a stratified multihop subset)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import multihop, overhead, repeat_work, scaling
from bench.data import DEFAULT_DATA


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--questions", type=int, default=None, help="multihop: stratified subset of this many")
    args = parser.parse_args(argv)
    data = ["--data", str(args.data)]
    questions = ["--questions", str(args.questions)] if args.questions else []
    codes = [multihop.main(data + questions), overhead.main(data), repeat_work.main(data), scaling.main(data)]
    return max(codes)


if __name__ == "__main__":
    raise SystemExit(main())
