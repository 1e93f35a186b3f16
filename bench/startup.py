"""How quickly the quick commands answer: ``satiate list``, ``show``, ``--help`` and a rejected argument, each timed
as a whole process against a bare Python start (``python -c pass``), as the median of N runs and its ratio.

    python -m bench.startup                    # 3 stored runs, median of 5
    python -m bench.startup --repeats 9 --stored 10
    python -m bench.startup --data-dir DIR     # time against the runs already stored in DIR (nothing is added)

The runs are made first with ``satiate run`` on a small invented corpus (no model, no network) in a folder of their
own. Commands are timed round-robin (one of each, then again), so a burst of load on a shared machine falls on all
of them alike; the load average before and after is printed with the table. "list, index removed" deletes the run
index before each timing: what ``list`` costs when it reads every run's state (the way it always did before the index).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.environment import command_line, git_version, machine

# An invented corpus: fictional ferries, firms and people, so a run has something to find and cite.
PASSAGES = [
    {"doc_id": "quillmere", "title": "Quillmere ferry",
     "text": "The Quillmere ferry crosses the Tarn estuary twice an hour. It is run by Saltmoor Lines, a shipping firm "
             "based in the port of Dunhallow."},
    {"doc_id": "saltmoor", "title": "Saltmoor Lines",
     "text": "Saltmoor Lines was founded in 1952 by the captain Orla Venn in Dunhallow. It runs three ferries."},
    {"doc_id": "venn", "title": "Orla Venn",
     "text": "Orla Venn was a sea captain from Dunhallow who founded a ferry company after twenty years at sea."},
    {"doc_id": "tarn", "title": "Tarn estuary",
     "text": "The Tarn estuary separates Dunhallow from the village of Brackwater. Its tides are among the fastest "
             "on the coast."},
]
QUESTIONS = ["Who founded the firm that runs the Quillmere ferry?", "Where is Saltmoor Lines based?",
             "What does the Tarn estuary separate?", "When was Saltmoor Lines founded?"]
RUN_TIMEOUT_S = 600


def satiate_command() -> list[str]:
    """This environment's ``satiate`` script (what a user types), else the module."""
    script = Path(sys.executable).with_name("satiate")
    return [str(script)] if script.exists() else [sys.executable, "-m", "satiate.graph.cli"]


def make_runs(data_dir: Path, count: int, env: dict[str, str]) -> list[str]:
    """``count`` finished runs in ``data_dir``, made with ``satiate run``; their thread IDs."""
    corpus = data_dir.parent / "startup-corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(p) for p in PASSAGES) + "\n", encoding="utf-8")
    threads = []
    for number in range(count):
        thread_id = f"startup-{number + 1}"
        command = [*satiate_command(), "run", QUESTIONS[number % len(QUESTIONS)], "--llm", "none", "--corpus",
                   str(corpus), "--backends", "corpus", "--thread-id", thread_id, "--json"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        if done.returncode != 0:
            raise SystemExit(f"bench.startup: making run {thread_id} failed: {done.stderr.strip()[-400:]}")
        threads.append(thread_id)
    return threads


def stored_threads(data_dir: Path, env: dict[str, str]) -> list[str]:
    done = subprocess.run([*satiate_command(), "list", "--json"], env=env, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S)
    if done.returncode != 0:
        raise SystemExit(f"bench.startup: listing {data_dir} failed: {done.stderr.strip()}")
    return [row["thread_id"] for row in json.loads(done.stdout)]


def cases(thread_id: str | None) -> dict[str, list[str]]:
    satiate = satiate_command()
    found = {"python -c pass": [sys.executable, "-c", "pass"],
             "satiate --help": [*satiate, "--help"],
             "satiate list --jsn (rejected)": [*satiate, "list", "--jsn"],
             "satiate run --help": [*satiate, "run", "--help"],
             "satiate list": [*satiate, "list"],
             "satiate list --json": [*satiate, "list", "--json"],
             "satiate list, index removed": [*satiate, "list"]}
    if thread_id is not None:
        found["satiate show ID --json"] = [*satiate, "show", thread_id, "--json"]
    return found


def time_once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S)
    return time.perf_counter() - start


def index_files(data_dir: Path) -> list[Path]:
    return [path for path in data_dir.glob("checkpoints.sqlite-index*") if path.is_file()]


def measure(data_dir: Path, repeats: int, env: dict[str, str], thread_id: str | None) -> dict[str, list[float]]:
    timed: dict[str, list[float]] = {name: [] for name in cases(thread_id)}
    for _ in range(repeats):
        for name, command in cases(thread_id).items():
            if name.endswith("index removed"):
                for path in index_files(data_dir):
                    path.unlink()
            timed[name].append(time_once(command, env))
    return timed


def load_average() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "?"


def table(timed: dict[str, list[float]]) -> list[str]:
    bare = statistics.median(timed["python -c pass"])
    lines = [f"{'command':<32} {'median s':>9} {'min s':>7} {'x python':>9}"]
    for name, seconds in timed.items():
        median = statistics.median(seconds)
        lines.append(f"{name:<32} {median:>9.3f} {min(seconds):>7.3f} {median / bare:>9.1f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timings of each command; the median is shown")
    parser.add_argument("--stored", type=int, default=3, help="runs to store first (ignored with --data-dir)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="time against the runs stored here instead of making new ones")
    parser.add_argument("--jobs", type=int, default=1, choices=[1],
                        help="commands are timed one at a time (two at once would time each other's load)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.stored < 0:
        parser.error("--repeats must be at least 1 and --stored at least 0")
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("SATIATE_") and key not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["SATIATE_OFFLINE"] = "1"
    made = None
    if args.data_dir is None:
        made = Path(tempfile.mkdtemp(prefix="satiate-startup-"))
        data_dir = made / "data"
    else:
        data_dir = args.data_dir.expanduser().resolve()
    env["SATIATE_DATA_DIR"] = str(data_dir)
    try:
        if made is not None:
            print(f"making {args.stored} run(s) in {data_dir} ...", file=sys.stderr)
            make_runs(data_dir, args.stored, env)
        threads = stored_threads(data_dir, env)
        before = load_average()
        timed = measure(data_dir, args.repeats, env, threads[0] if threads else None)
        after = load_average()
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    print(f"# bench.startup · {command_line('bench.startup')} · satiate {git_version()}")
    print(f"# {machine()['summary']}")
    print(f"# {len(threads)} stored run(s), median of {args.repeats}; load average before {before}, after {after}")
    print("\n".join(table(timed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
