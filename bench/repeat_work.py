"""Zero repeated work: backend calls on a rerun, and repeated searches after a SIGKILL mid-gather and a resume.

    python -m bench.repeat_work                   # 3 questions; kill points after 2, 5 and 9 finished searches

Every run happens in a child process (``--child SPEC``) so the rerun and the resume start cold, as a user's would.
The backend is the real local corpus behind a counting wrapper that appends ``start``/``end`` lines per call to a
log file; it is cacheable (like the web backend), so the search cache sits in front of it. "Searches issued" counts
calls the graph made to the search service (cache hits included); "backend calls" counts what reached the backend.
The kill scenarios run with the cache on and off, to separate what the checkpoint saves from what the cache saves.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from bench.data import DEFAULT_DATA, REPO_ROOT, RESULTS_DIR, corpus_path, load_questions, stratified_subset
from bench.environment import code_changed_lines, command_line, git_version, machine
from bench.instruments import read_call_log
from bench.report import write_outputs

DELAYS_S = (0.05, 0.4, 0.15, 0.7, 0.25, 0.1, 0.5)  # uneven, so a round's branches finish at different moments


# --- the child: one run or one resume ---------------------------------------------------------------------------------
def child(spec: dict[str, Any]) -> dict[str, Any]:
    from bench.instruments import CountingBackend
    from satiate.graph import RECURSION_LIMIT, build_graph
    from satiate.graph.checkpoint import sqlite_checkpointer
    from satiate.graph.deps import engine_for, store_for
    from satiate.nodes.common import Dependencies
    from satiate.state.settings import resolve_settings
    from satiate.tools.search.local_corpus import LocalCorpusBackend
    from satiate.tools.search.service import SearchService

    settings = resolve_settings(spec["settings"])
    log = Path(spec["log"])

    def note(event: str, query: str) -> None:
        line = f"{os.getpid()}\t{event}\t{' '.join(query.split())}\n".encode()
        descriptor = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)

    class CountingService(SearchService):
        """Logs every search the graph asks for ("issued", before the cache) and its completion ("done", after the
        answer is cached), so "finished" means finished as far as the search service is concerned."""

        def run(self, backend_name: str, query: str, max_results: int):
            note("issued", query)
            attempt = super().run(backend_name, query, max_results)
            note("done", query)
            return attempt

    backend = CountingBackend(LocalCorpusBackend(settings.corpus, settings.data_path), log, tuple(spec["delays"]))
    store = store_for(settings) if settings.cache_ttl_s > 0 else None
    service = CountingService({"corpus": backend}, store=store, cache_ttl_s=settings.cache_ttl_s)
    deps = Dependencies(engine_for=engine_for, search_for=lambda _settings: service)
    config = {"recursion_limit": RECURSION_LIMIT, "configurable": {"thread_id": spec["thread_id"]}}
    payload = None if spec["mode"] == "resume" else {"question": spec["question"], "settings": spec["settings"]}
    with sqlite_checkpointer(settings.data_path) as saver:
        graph = build_graph(deps, checkpointer=saver)
        last: dict = {}
        for value in graph.stream(payload, config, stream_mode="values"):
            last = value
    result = last.get("result", {})
    return {"read": [s.get("doc_id") for s in result.get("sources", [])], "answer": result.get("answer", ""),
            "searches": len(last.get("search_results", []))}


def spawn_child(spec: dict[str, Any]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bench.repeat_work", "--child", json.dumps(spec)], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen, timeout: float = 300) -> dict[str, Any]:
    out, err = process.communicate(timeout=timeout)
    if process.returncode != 0:
        raise RuntimeError(f"child failed ({process.returncode}): {err[-2000:]}")
    return json.loads(out.strip().splitlines()[-1])


# --- the parent: scenarios --------------------------------------------------------------------------------------------
def events(log: Path, pid: int, kind: str) -> Counter[str]:
    return Counter(query for p, event, query in read_call_log(log) if p == pid and event == kind)


def rerun_scenario(question: str, base: dict[str, Any], scratch: Path) -> dict[str, Any]:
    """Run, then rerun the same question with the same seed in a new process: backend calls on the rerun."""
    log = scratch / "rerun.log"
    specs = [{"mode": "run", "question": question, "settings": base, "thread_id": uuid.uuid4().hex, "log": str(log),
              "delays": [0.0]} for _ in range(2)]
    first_process = spawn_child(specs[0])
    first = finish(first_process)
    second_process = spawn_child(specs[1])
    second = finish(second_process)
    return {
        "first_backend_calls": sum(events(log, first_process.pid, "start").values()),
        "rerun_issued": sum(events(log, second_process.pid, "issued").values()),
        "rerun_backend_calls": sum(events(log, second_process.pid, "start").values()),
        "same_passages": first["read"] == second["read"],
        "same_answer": first["answer"] == second["answer"],
    }


def kill_scenario(question: str, base: dict[str, Any], scratch: Path, kill_after: int, cached: bool,
                  reference: dict[str, Any]) -> dict[str, Any]:
    """SIGKILL a run once ``kill_after`` searches finished while others are in flight; resume by thread ID."""
    data_dir = scratch / f"kill-{kill_after}-{'cache' if cached else 'nocache'}"
    settings = {**base, "data_dir": str(data_dir), "cache_ttl_s": base.get("cache_ttl_s", 86400.0) if cached else 0}
    log = data_dir / "calls.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    thread_id = uuid.uuid4().hex
    spec = {"mode": "run", "question": question, "settings": settings, "thread_id": thread_id, "log": str(log),
            "delays": list(DELAYS_S)}
    process = spawn_child(spec)
    deadline = time.monotonic() + 120
    killed_at: dict[str, int] | None = None
    while process.poll() is None and time.monotonic() < deadline:
        done = sum(events(log, process.pid, "done").values())
        in_flight = sum(events(log, process.pid, "issued").values()) - done
        if done >= kill_after and in_flight > 0:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            killed_at = {"finished": done, "in_flight": in_flight}
            break
        time.sleep(0.005)
    if killed_at is None:
        process.kill()
        process.wait()
        return {"kill_after": kill_after, "cached": cached, "killed": False}
    finished_before = events(log, process.pid, "done")
    resume = spawn_child({**spec, "mode": "resume"})
    resumed = finish(resume)
    issued_after = events(log, resume.pid, "issued")
    called_after = events(log, resume.pid, "start")
    return {
        "kill_after": kill_after,
        "cached": cached,
        "killed": True,
        **killed_at,
        "resume_issued": sum(issued_after.values()),
        "resume_backend_calls": sum(called_after.values()),
        "repeated_issued_of_finished": sum(min(issued_after[q], n) for q, n in finished_before.items()),
        "repeated_backend_calls_of_finished": sum(min(called_after[q], n) for q, n in finished_before.items()),
        "repeated_queries": sorted(q for q in finished_before if issued_after[q]),
        "same_passages_as_uninterrupted": resumed["read"] == reference["read"],
        "same_answer_as_uninterrupted": resumed["answer"] == reference["answer"],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.repeat_work", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--kill-after", type=int, nargs="+", default=[2, 5, 9],
                        help="kill once this many searches have finished (and others are in flight)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "repeat_work")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def table(rerun: list[dict], kills: list[dict]) -> list[str]:
    lines = ["## Rerun, same question and seed, new process", "",
             "| question | backend calls (first run) | searches issued (rerun) | backend calls (rerun) | "
             "same passages | same answer |", "|---|---:|---:|---:|:---:|:---:|"]
    for row in rerun:
        lines.append(f"| {row['qid']} | {row['first_backend_calls']} | {row['rerun_issued']} | "
                     f"{row['rerun_backend_calls']} | {row['same_passages']} | {row['same_answer']} |")
    lines += ["", "## SIGKILL mid-gather, resume by thread ID in a new process", "",
              "| question | cache | killed after (finished / in flight) | searches issued on resume | of which "
              "finished before | backend calls on resume | of which finished before | same passages as "
              "uninterrupted | same answer |", "|---|:---:|---:|---:|---:|---:|---:|:---:|:---:|"]
    for row in kills:
        if not row["killed"]:
            lines.append(f"| {row['qid']} | {'on' if row['cached'] else 'off'} | run ended before "
                         f"{row['kill_after']} searches | – | – | – | – | – | – |")
            continue
        lines.append(
            f"| {row['qid']} | {'on' if row['cached'] else 'off'} | {row['finished']} / {row['in_flight']} | "
            f"{row['resume_issued']} | {row['repeated_issued_of_finished']} | {row['resume_backend_calls']} | "
            f"{row['repeated_backend_calls_of_finished']} | {row['same_passages_as_uninterrupted']} | "
            f"{row['same_answer_as_uninterrupted']} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    command = command_line("bench.repeat_work")
    code_at_start = git_version()  # every child imports the code afresh: an edit mid-run would mix versions
    questions = stratified_subset(load_questions(args.data), args.questions)
    rerun_rows: list[dict] = []
    kill_rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="satiate-repeat-") as scratch_name:
        scratch = Path(scratch_name)
        base = {"corpus": str(corpus_path(args.data).resolve()), "llm": "none", "seed": args.seed,
                "backends": ["corpus"]}
        print(f"command: {command}\nsettings: {json.dumps(base)} (+ a fresh data_dir per scenario)", flush=True)
        for number, question in enumerate(questions):
            folder = scratch / f"q{number}"
            rerun = rerun_scenario(question.question, {**base, "data_dir": str(folder / "rerun")}, folder)
            rerun_rows.append({"qid": question.qid, **rerun})
            reference_spec = {"mode": "run", "question": question.question, "thread_id": uuid.uuid4().hex,
                              "settings": {**base, "data_dir": str(folder / "reference"), "cache_ttl_s": 0},
                              "log": str(folder / "reference.log"), "delays": [0.0]}
            reference = finish(spawn_child(reference_spec))
            for cached in (True, False):
                for kill_after in args.kill_after:
                    row = kill_scenario(question.question, base, folder, kill_after, cached, reference)
                    kill_rows.append({"qid": question.qid, **row})
                    print(f"  {question.qid} {row}", flush=True)
    code_at_end = git_version()
    report = {"command": command, "settings": base, "delays_s": DELAYS_S, "rerun": rerun_rows, "kills": kill_rows,
              "git": code_at_end, "code_changed_during_run": code_at_start != code_at_end, "machine": machine()}
    lines = ["# Zero repeated work", "", f"Command: `{command}`  ", f"git {report['git']}; "
             f"{report['machine']['summary']}.", "", *table(rerun_rows, kill_rows)]
    lines += code_changed_lines(code_at_start, code_at_end, "children ran different versions, so 'same as "
                                "uninterrupted' compares versions, not a resume.")
    write_outputs(args.out, report, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
