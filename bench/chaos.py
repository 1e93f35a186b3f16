"""Chaos: SIGKILL a run at a random moment and resume it, many times; inject faults; count exact endings.

    python -m bench.chaos                         # 100 kills of one multihop question, then every fault scenario
    python -m bench.chaos --kills 10 --faults search,page

Every run is the real CLI in its own process (``satiate run`` / ``satiate resume`` on one question of the benchmark,
its local corpus, ``--llm none --offline``, a fixed seed). First two uninterrupted runs give the reference (and show
the run is reproducible at all). Then each kill: start a run, wait until it has printed its thread, sleep a random
share of the reference's duration, SIGKILL it, check the store (``PRAGMA quick_check``), and ``satiate resume`` it.
A resume is *exact* when its answer text and claims equal the reference's; a kill *lost data* when the store was
damaged, or a thread with saved steps could not be resumed to a result.

Fault scenarios, each ending compared with the reference the same way:

- ``search``: the corpus backend fails (retryably) on the first attempt of a third of the queries;
- ``disk``: the data directory is a small tmpfs (root only; else SQLite's page limit, the same "database or disk is
  full"): the run must stop with one line, and resume exactly once there is room;
- ``page``: the run is killed, pages of its corpus index are overwritten, and the resume must rebuild the index;
- ``model``: ``--llm ollama:junk`` against a local stand-in that answers every call with junk: each call must fall
  back to the deterministic engine, and the run end as the deterministic reference;
- ``start``: the disk is already full when a run starts (a filled tmpfs as root, else the run lock's write failing
  with ENOSPC): one line and exit 2, then with room again the run ends as the reference;
- ``store``: the store's pages are damaged under the run's parallel gather branches: one line and exit 2; after the
  fix the line gives (moving it aside) the resume ends as the reference. A store whose header is damaged is moved
  aside by the run itself, which says so and ends as the reference;
- ``checkpoints``: the checkpoints file emptied (0 bytes) or its pages damaged: a new run and ``list`` refuse it in
  one line (never "no runs stored"); after the fix the line gives, the run ends as the reference;
- ``input``: a question of bytes that are not UTF-8, and ``--max-execution-time-s inf``: one line and exit 2 before
  any run starts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import closing
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.data import DEFAULT_DATA, REPO_ROOT, RESULTS_DIR, corpus_path, load_questions
from bench.environment import code_changed_lines, command_line, git_version, machine
from bench.report import write_outputs

FAULTS = ("search", "disk", "page", "model", "start", "store", "checkpoints", "input")
RUN_TIMEOUT_S = 600.0
THREAD_LINE_TIMEOUT_S = 120.0
KILL_ATTEMPTS_PER_KILL = 3  # a kill drawn after the run already ended is drawn again, this many times per kill


# --- one satiate process ---------------------------------------------------------------------------------------------
def satiate(*args: str) -> list[str]:
    return [sys.executable, "-m", "satiate.graph.cli", *args]


def with_fault(fault: dict[str, Any], *args: str) -> list[str]:
    """The same command, run by this module's child mode with a fault injected into the process."""
    return [sys.executable, "-m", "bench.chaos", "--child", json.dumps(fault), "--", *args]


def child_env(data_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    return {**env, "SATIATE_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}


@dataclass
class Running:
    """A satiate process; its stderr is read as it comes, so a kill can wait for a line and say where it struck."""

    command: list[str]
    env: dict[str, str]
    lines: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.command, cwd=REPO_ROOT, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self._line_seen = threading.Condition()
        self._readers = [threading.Thread(target=self._read_err, daemon=True),
                         threading.Thread(target=lambda: self.out.append(self.process.stdout.read()), daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read_err(self) -> None:
        for line in iter(self.process.stderr.readline, ""):
            with self._line_seen:
                self.lines.append(line.rstrip("\n"))
                self._line_seen.notify_all()
        with self._line_seen:
            self._line_seen.notify_all()

    def wait_for(self, prefix: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._line_seen:
            while not any(line.startswith(prefix) for line in self.lines):
                if self.process.poll() is not None and not self._readers[0].is_alive():
                    return False
                waited = self._line_seen.wait(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                if not waited and time.monotonic() > deadline:
                    return False
        return True

    def kill(self) -> str:
        """SIGKILL (unless it has already ended); returns the last progress line printed before it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        with self._line_seen:
            return self.lines[-1] if self.lines else ""

    def finish(self, timeout: float = RUN_TIMEOUT_S) -> tuple[int, str, str]:
        self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=30)
        return self.process.returncode, "".join(self.out), "\n".join(self.lines)


def run_to_end(command: list[str], env: dict[str, str]) -> tuple[int, str, str, float]:
    started = time.monotonic()
    code, out, err = Running(command, env).finish()
    return code, out, err, time.monotonic() - started


# --- comparing endings -----------------------------------------------------------------------------------------------
def ending(stdout: str) -> dict[str, Any] | None:
    """What is compared with the reference: the answer text and the claims (text, citations, support, verdict)."""
    try:
        result = json.loads(stdout)
    except json.JSONDecodeError:
        return None
    return {"answer": result.get("answer"), "claims": result.get("claims"),
            "sources": [source.get("doc_id") for source in result.get("sources", [])]}


def same(found: dict[str, Any] | None, reference: dict[str, Any]) -> bool:
    return found is not None and found["answer"] == reference["answer"] and found["claims"] == reference["claims"]


def one_line_error(err: str) -> bool:
    lines = err.strip().splitlines()
    # "satiate: ..." for a fault, "satiate run: ..." for an argument the parser refuses
    return bool(lines) and re.match(r"satiate( \w+)?: ", lines[-1]) is not None and "Traceback" not in err


def stored_checkpoints(data_dir: Path, thread_id: str) -> int:
    path = data_dir / "checkpoints.sqlite"
    if not path.exists():
        return 0
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute("SELECT count(*) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
                          (thread_id,)).fetchone()[0]


def quick_check(path: Path) -> bool:
    if not path.exists():
        return True
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute("PRAGMA quick_check").fetchone()[0] == "ok"


# --- kills ------------------------------------------------------------------------------------------------------------
@dataclass
class Bench:
    question: str
    flags: list[str]
    data_dir: Path  # shared by the reference and the kills: the corpus is indexed once
    reference: dict[str, Any] = field(default_factory=dict)
    span_s: float = 0.0  # from the "thread:" line to the "done" line of an uninterrupted run: where kills strike
    written: dict[str, int] = field(default_factory=dict)  # bytes one uninterrupted run leaves in each file

    def run_command(self, thread_id: str, *extra: str) -> list[str]:
        return satiate("run", self.question, *self.flags, "--thread-id", thread_id, "--json", *extra)


def reference_runs(bench: Bench) -> dict[str, Any]:
    """Two uninterrupted runs: the reference ending, and whether a second process ends the same way."""
    endings, spans = [], []
    for number in range(2):
        running = Running(bench.run_command(f"reference-{number}"), child_env(bench.data_dir))
        if not running.wait_for("thread:", THREAD_LINE_TIMEOUT_S):
            raise RuntimeError(f"the reference run printed no thread line: {running.finish()[2][-2000:]}")
        seen_thread = time.monotonic()
        running.wait_for("done ", RUN_TIMEOUT_S)  # the last progress line: the result is written
        spans.append(time.monotonic() - seen_thread)
        code, out, err = running.finish()
        if code != 0:
            raise RuntimeError(f"the reference run failed ({code}): {err[-2000:]}")
        endings.append(ending(out))
    bench.reference, bench.span_s = endings[0], max(spans)
    for name in ("checkpoints.sqlite", "store.sqlite"):  # what the two runs wrote, their WAL folded in
        bench.written[name] = folded(bench.data_dir / name) // 2
    return {"reproducible": same(endings[1], endings[0]), "span_s": round(bench.span_s, 2),
            "claims": len(endings[0]["claims"]), "sources": len(endings[0]["sources"])}


def kill_and_resume(bench: Bench, number: int, rng: random.Random) -> dict[str, Any]:
    thread_id = f"kill-{number}-{uuid.uuid4().hex[:6]}"
    env = child_env(bench.data_dir)
    running = Running(bench.run_command(thread_id), env)
    if not running.wait_for("thread:", THREAD_LINE_TIMEOUT_S):
        code, _, err = running.finish()
        return {"thread": thread_id, "killed": False, "error": f"run ended before its thread line ({code}): "
                f"{err.strip().splitlines()[-1:]}"}
    delay = rng.uniform(0.0, bench.span_s)
    time.sleep(delay)
    if running.process.poll() is not None:
        code, out, _ = running.finish()
        return {"thread": thread_id, "killed": False, "delay_s": round(delay, 3), "exit": code,
                "exact": same(ending(out), bench.reference)}
    stage = running.kill()
    running.finish()
    row: dict[str, Any] = {"thread": thread_id, "killed": True, "delay_s": round(delay, 3), "stage": stage,
                           "checkpoints": stored_checkpoints(bench.data_dir, thread_id),
                           "store_ok": quick_check(bench.data_dir / "checkpoints.sqlite")}
    if row["checkpoints"] == 0:  # killed before its first step was saved: nothing to resume, so run it again
        code, out, err, seconds = run_to_end(bench.run_command(thread_id), env)
        row.update(resumed_by="run again", exit=code, seconds=round(seconds, 2))
    else:
        code, out, err, seconds = run_to_end(satiate("resume", thread_id, "--json"), env)
        row.update(resumed_by="resume", exit=code, seconds=round(seconds, 2),
                   resumed_at=next((line.split(" at: ", 1)[1] for line in err.splitlines()
                                    if line.startswith("resuming thread")), None))
    found = ending(out) if code == 0 else None
    row["exact"] = same(found, bench.reference)
    row["same_sources"] = found is not None and found["sources"] == bench.reference["sources"]
    row["lost_data"] = not row["store_ok"] or code != 0 or found is None or not found.get("answer")
    if code != 0:
        row["error"] = err.strip().splitlines()[-1:] if err.strip() else []
    return row


# --- faults -----------------------------------------------------------------------------------------------------------
def fault_search(bench: Bench, scratch: Path) -> list[dict[str, Any]]:
    """Search exceptions: transient ones (a third of the queries fail on their first attempt, the retry answers)
    must not change the ending; persistent ones (a fifth of the queries raise every time) must not stop the run,
    and are on record in its errors (the answer may then differ: it had less to read)."""
    rows = []
    for mode, note in (("transient", "first attempt of 1/3 of the queries fails (retryable), retried"),
                       ("persistent", "1/5 of the queries raise on every attempt (a backend bug)")):
        thread_id = f"fault-search-{mode}"
        code, out, _, seconds = run_to_end(
            with_fault({"kind": "search", "mode": mode}, *bench.run_command(thread_id)[3:]), child_env(bench.data_dir))
        found = ending(out) if code == 0 else None
        errors = len(json.loads(out).get("errors", [])) if found is not None else None
        rows.append({"fault": f"search ({mode})", "exit": code, "exact": same(found, bench.reference),
                     "exact_expected": mode == "transient", "lost_data": found is None, "errors_on_record": errors,
                     "seconds": round(seconds, 2), "note": note + (f"; {errors} errors on record" if errors else "")})
    return rows


def folded(path: Path) -> int:
    """Fold the SQLite file's WAL into it (a process may leave one behind) and return its size: a copy of the file
    alone then holds everything, and its size is what it takes."""
    if not path.exists():
        return 0
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


def copy_index(source: Path, target: Path) -> None:
    """The corpus index of the shared data directory, copied into another one (so its faults stay there)."""
    (target / "corpora").mkdir(parents=True, exist_ok=True)
    for path in (source / "corpora").iterdir():
        if path.is_file() and path.suffix in (".sqlite", ".json"):
            if path.suffix == ".sqlite":
                folded(path)
            (target / "corpora" / path.name).write_bytes(path.read_bytes())


def mount_small_disk(folder: Path, size_bytes: int) -> bool:
    if os.geteuid() != 0:
        return False
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_bytes}", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


def fault_disk(bench: Bench, scratch: Path) -> dict[str, Any]:
    """The disk fills up in the middle of the run: one line and exit 2, then, with room again, an exact resume."""
    disk = scratch / "small-disk"
    index_bytes = sum(folded(p) if p.suffix == ".sqlite" else p.stat().st_size
                      for p in (bench.data_dir / "corpora").iterdir() if p.suffix in (".sqlite", ".json"))
    # room for half of what the reference run wrote: the disk fills mid-run (its WAL grows before it is folded in)
    checkpoint_bytes = bench.written.get("checkpoints.sqlite") or 600_000
    mounted = mount_small_disk(disk, index_bytes + (checkpoint_bytes + bench.written.get("store.sqlite", 0)) // 2)
    data_dir = disk / "data" if mounted else scratch / "page-limited"
    copy_index(bench.data_dir, data_dir)
    env = child_env(data_dir)
    command = bench.run_command("fault-disk")
    if not mounted:  # no tmpfs: SQLite's page limit on the checkpoint file raises the same "database or disk is full"
        command = with_fault({"kind": "disk", "max_pages": checkpoint_bytes // 2 // 4096}, *command[3:])
    try:
        code, out, err, _ = run_to_end(command, env)
        row: dict[str, Any] = {"fault": "disk", "how": "tmpfs" if mounted else "SQLite page limit", "first_exit": code,
                               "one_line": one_line_error(err), "said": err.strip().splitlines()[-1:] }
        if mounted:
            subprocess.run(["mount", "-o", f"remount,size={index_bytes + 50_000_000}", str(disk)], check=True)
        code, out, err, seconds = run_to_end(satiate("resume", "fault-disk", "--json"), env)
        found = ending(out) if code == 0 else None
        row.update(exit=code, exact=same(found, bench.reference), lost_data=found is None,
                   store_ok=quick_check(data_dir / "checkpoints.sqlite"), seconds=round(seconds, 2))
        row["note"] = ("the data directory on a tmpfs with room for the index and half a run, remounted larger "
                       "before the resume" if mounted else "the checkpoint file limited to half a run, then lifted")
        if row["first_exit"] == 0:
            row["note"] = "the disk did not fill up: give it less room"
        return row
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], capture_output=True)


def fault_page(bench: Bench, scratch: Path, rng: random.Random) -> dict[str, Any]:
    """Killed mid-run, then pages of its corpus index are overwritten: the resume rebuilds the index."""
    data_dir = scratch / "damaged-index"
    copy_index(bench.data_dir, data_dir)
    env = child_env(data_dir)
    running = Running(bench.run_command("fault-page"), env)
    running.wait_for("compress ", THREAD_LINE_TIMEOUT_S)  # the first round's sources are stored
    running.kill()
    running.finish()
    damaged = []
    for index in (data_dir / "corpora").glob("*.sqlite"):
        with index.open("r+b") as handle:
            size = index.stat().st_size
            for _ in range(8):
                handle.seek(rng.randrange(4096, max(4097, size - 4096)) // 4096 * 4096)
                handle.write(rng.randbytes(4096))
        damaged.append(index.name)
    code, out, err, seconds = run_to_end(satiate("resume", "fault-page", "--json"), env)
    found = ending(out) if code == 0 else None
    return {"fault": "page", "exit": code, "exact": same(found, bench.reference), "lost_data": found is None,
            "rebuilt": "was damaged" in err, "seconds": round(seconds, 2),
            "note": f"8 random pages of {', '.join(damaged)} overwritten after a kill"}


class JunkModel:
    """A local stand-in for Ollama whose every chat answer is junk (not JSON, not what was asked)."""

    def __enter__(self) -> str:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def _send(self, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path == "/api/tags":
                    self._send({"models": [{"name": "junk:latest", "model": "junk:latest", "size": 1,
                                            "digest": "0" * 12, "details": {"family": "junk"}}]})
                else:
                    self._send({"version": "0.0.0-junk"})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if self.path == "/api/show":
                    self._send({"modelfile": "", "parameters": "", "template": "{{ .Prompt }}",
                                "details": {"family": "junk"}, "capabilities": ["completion"]})
                    return
                junk = "}{ not json, and no answer: " + hashlib.sha1(json.dumps(body).encode()).hexdigest()
                message = {"model": body.get("model"), "created_at": "2026-01-01T00:00:00Z",
                           "message": {"role": "assistant", "content": junk}, "done": True, "done_reason": "stop",
                           "prompt_eval_count": 10, "eval_count": 10}
                if body.get("stream", True):
                    data = (json.dumps(message) + "\n").encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-ndjson")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                else:
                    self._send(message)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def fault_model(bench: Bench, scratch: Path) -> dict[str, Any]:
    """Every model call answers junk: each falls back to the deterministic engine, the run ends as the reference."""
    with JunkModel() as url:
        flags = list(bench.flags)
        where = flags.index("--llm")
        flags[where + 1] = "ollama:junk"
        command = satiate("run", bench.question, *flags, "--ollama-base-url", url, "--model-max-retries", "1",
                          "--thread-id", "fault-model", "--json")
        code, out, _, seconds = run_to_end(command, child_env(bench.data_dir))
    found = ending(out) if code == 0 else None
    return {"fault": "model", "exit": code, "exact": same(found, bench.reference), "lost_data": found is None,
            "seconds": round(seconds, 2), "note": "every model answer is junk; each call falls back to the "
            "deterministic engine"}


def last_line(err: str) -> list[str]:
    return err.strip().splitlines()[-1:]


def scramble(path: Path) -> None:
    """Overwrite every page after the first with noise: the file opens (header, schema) but its rows cannot be read."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(4096)
        handle.write(bytes((n * 131 + 7) % 256 for n in range(max(0, size - 4096))))


def fresh_data_dir(bench: Bench, folder: Path, *files: str) -> Path:
    """A data directory with the shared corpus index and copies of the shared ``files`` (their WAL folded in)."""
    copy_index(bench.data_dir, folder)
    for name in files:
        folded(bench.data_dir / name)
        (folder / name).write_bytes((bench.data_dir / name).read_bytes())
    return folder


def fault_start(bench: Bench, scratch: Path) -> list[dict[str, Any]]:
    """The disk is full before the run starts: one line and exit 2, then, with room again, the run as the reference.
    Two ways: a tmpfs filled up (root only; the first write to fail is SQLite's), and the run lock's write failing
    with ENOSPC (the write nothing else makes first)."""
    rows = []
    for how in ("tmpfs filled", "lock write ENOSPC"):
        disk = scratch / f"full-at-start-{how.split()[0]}"
        index_bytes = sum(p.stat().st_size for p in (bench.data_dir / "corpora").iterdir() if p.is_file())
        mounted = how == "tmpfs filled" and mount_small_disk(disk, index_bytes + 4_000_000)
        if how == "tmpfs filled" and not mounted:
            continue
        data_dir = fresh_data_dir(bench, disk / "data")
        env = child_env(data_dir)
        command = bench.run_command("fault-start")
        try:
            if mounted:
                subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'filler'}", "bs=4k"], capture_output=True)
            else:
                command = with_fault({"kind": "lock"}, *command[3:])
            code, _, err, _ = run_to_end(command, env)
            row: dict[str, Any] = {"fault": "disk full at start", "how": how, "first_exit": code,
                                   "one_line": one_line_error(err), "said": last_line(err)}
            (disk / "filler").unlink(missing_ok=True)
            code, out, err, seconds = run_to_end(bench.run_command("fault-start"), env)
            found = ending(out) if code == 0 else None
            row.update(exit=code, exact=same(found, bench.reference), lost_data=found is None,
                       seconds=round(seconds, 2), note="refused before its first step; with room again, run again")
            rows.append(row)
        finally:
            if mounted:
                subprocess.run(["umount", str(disk)], capture_output=True)
    return rows


def fault_store(bench: Bench, scratch: Path) -> list[dict[str, Any]]:
    """A store damaged under the run: its pages (read by the parallel gather branches) or its header."""
    data_dir = fresh_data_dir(bench, scratch / "damaged-store", "store.sqlite")
    store = data_dir / "store.sqlite"
    scramble(store)
    env = child_env(data_dir)
    code, _, err, _ = run_to_end(bench.run_command("fault-store"), env)
    row: dict[str, Any] = {"fault": "store pages damaged during gather", "first_exit": code,
                           "one_line": one_line_error(err) and "store.sqlite" in err, "said": last_line(err)}
    store.rename(store.with_name("store.sqlite.damaged"))  # the fix the line gives
    for suffix in ("-wal", "-shm"):
        store.with_name(store.name + suffix).unlink(missing_ok=True)
    command = satiate("resume", "fault-store", "--json") if stored_checkpoints(data_dir, "fault-store") else \
        bench.run_command("fault-store")
    code, out, err, seconds = run_to_end(command, env)
    found = ending(out) if code == 0 else None
    row.update(exit=code, exact=same(found, bench.reference), lost_data=found is None, seconds=round(seconds, 2),
               note="every page after the first overwritten; moved aside as the line says, then resumed")
    rows = [row]

    data_dir = fresh_data_dir(bench, scratch / "store-header", "store.sqlite")
    with (data_dir / "store.sqlite").open("r+b") as handle:
        handle.write(b"no longer an SQLite file" * 4)
    code, out, err, seconds = run_to_end(bench.run_command("fault-store-header"), child_env(data_dir))
    found = ending(out) if code == 0 else None
    moved = sorted(path.name for path in data_dir.glob("store.sqlite.damaged-*"))
    said = "moved aside" in err and any(name in err for name in moved)
    note = f"moved aside to {moved[0] if moved else '?'}, and the run said so: {'yes' if said else 'no'}"
    rows.append({"fault": "store header damaged", "exit": code, "exact": same(found, bench.reference),
                 "lost_data": found is None, "seconds": round(seconds, 2), "note": note})
    return rows


def fault_checkpoints(bench: Bench, scratch: Path) -> list[dict[str, Any]]:
    """The checkpoints file emptied or damaged: a new run and ``list`` refuse it in one line; the fix, then a run."""
    rows = []
    for how, fix in (("emptied (0 bytes)", "rm"), ("pages damaged", "mv")):
        data_dir = fresh_data_dir(bench, scratch / f"checkpoints-{fix}", "checkpoints.sqlite")
        path = data_dir / "checkpoints.sqlite"
        os.truncate(path, 0) if fix == "rm" else scramble(path)
        env = child_env(data_dir)
        code, _, err, _ = run_to_end(bench.run_command("fault-checkpoints"), env)
        listed, listed_out, listed_err, _ = run_to_end(satiate("list"), env)
        row: dict[str, Any] = {"fault": f"checkpoints {how}", "first_exit": code, "list_exit": listed,
                               "one_line": one_line_error(err) and one_line_error(listed_err)
                               and "checkpoints.sqlite" in err and "no runs stored" not in listed_out + listed_err,
                               "said": last_line(err)}
        path.rename(path.with_name("checkpoints.sqlite.damaged")) if fix == "mv" else path.unlink()
        code, out, err, seconds = run_to_end(bench.run_command("fault-checkpoints"), env)
        found = ending(out) if code == 0 else None
        row.update(exit=code, exact=same(found, bench.reference), lost_data=found is None,
                   seconds=round(seconds, 2), note=f"a new run and `list` refused (exit {row['first_exit']}, "
                   f"{listed}); after `{fix}` as the line says, the run")
        rows.append(row)
    return rows


def fault_input(bench: Bench, scratch: Path) -> list[dict[str, Any]]:
    """Input refused before any run starts: a question of bytes that are not UTF-8, an infinite time budget."""
    env = child_env(fresh_data_dir(bench, scratch / "input"))
    cut = len(bench.question) // 2
    not_utf8 = bench.question[:cut] + "\udcff\udcfe" + bench.question[cut:]  # the bytes 0xff 0xfe in argv
    cases = (("question not UTF-8", satiate("run", not_utf8, *bench.flags, "--json")),
             ("--max-execution-time-s inf", bench.run_command("fault-inf", "--max-execution-time-s", "inf")))
    rows = []
    for name, command in cases:
        code, _, err, seconds = run_to_end(command, env)
        rows.append({"fault": name, "exit": code, "one_line": code == 2 and one_line_error(err)
                     and "thread:" not in err, "exact": None, "lost_data": False, "said": last_line(err),
                     "seconds": round(seconds, 2), "note": "refused before a thread was made"})
    return rows


# --- the child: the CLI with a fault injected ------------------------------------------------------------------------
def child(fault: dict[str, Any], argv: list[str]) -> int:
    if fault["kind"] == "search":
        from satiate.tools.search.base import SearchFailure
        from satiate.tools.search.local_corpus import LocalCorpusBackend

        search = LocalCorpusBackend.search
        tried: set[str] = set()

        def failing_search(self: Any, query: str, max_results: int):
            first = query not in tried
            tried.add(query)
            draw = int(hashlib.sha1(query.encode()).hexdigest(), 16)
            if fault.get("mode") == "persistent" and draw % 5 == 0:
                raise RuntimeError("injected: the backend raised")
            if fault.get("mode") != "persistent" and first and draw % 3 == 0:
                raise SearchFailure("injected: the backend failed on the first attempt", retryable=True)
            return search(self, query, max_results)

        LocalCorpusBackend.search = failing_search
    elif fault["kind"] == "disk":
        connect = sqlite3.connect

        def limited(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
            connection = connect(database, *args, **kwargs)
            if str(database).endswith("checkpoints.sqlite"):
                connection.execute(f"PRAGMA max_page_count = {int(fault['max_pages'])}")
            return connection

        sqlite3.connect = limited
    elif fault["kind"] == "lock":  # the disk fills before the run lock's process ID is written
        import errno

        from satiate.graph.checkpoint import locks

        class FullDisk:
            def __init__(self, handle: Any) -> None:
                self._handle = handle

            def __getattr__(self, name: str) -> Any:
                return getattr(self._handle, name)

            def flush(self) -> None:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        locks.open = lambda path, *args, **kwargs: FullDisk(open(path, *args, **kwargs))
    from satiate.graph.cli import main as cli_main

    return cli_main(argv)


# --- the report -------------------------------------------------------------------------------------------------------
def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "–"


def table(summary: dict[str, Any], kills: list[dict], faults: list[dict]) -> list[str]:
    killed = [row for row in kills if row.get("killed")]
    resumed = [row for row in killed if row.get("resumed_by") == "resume"]
    lines = ["| kills | resumed from a checkpoint | killed before the first checkpoint (run again) | exact | "
             "exact (of resumed) | lost data | store damaged | different answer |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|",
             f"| {len(killed)} | {len(resumed)} | {len(killed) - len(resumed)} | "
             f"{sum(r['exact'] for r in killed)} ({percent(sum(r['exact'] for r in killed), len(killed))}) | "
             f"{sum(r['exact'] for r in resumed)} ({percent(sum(r['exact'] for r in resumed), len(resumed))}) | "
             f"{sum(r['lost_data'] for r in killed)} | {sum(not r['store_ok'] for r in killed)} | "
             f"{sum(not r['exact'] and not r['lost_data'] for r in killed)} |"]
    stages: dict[str, int] = {}
    for row in killed:
        stage = (row.get("stage") or "").split()[0] if (row.get("stage") or "").strip() else "?"
        stages[stage] = stages.get(stage, 0) + 1
    lines += ["", "Where the kills struck (the last progress line before the kill): "
              + ", ".join(f"{stage} {count}" for stage, count in sorted(stages.items(), key=lambda s: -s[1])) + "."]
    if faults:
        lines += ["", "| fault | exit | one line | exact | lost data | note |", "|---|---:|:---:|:---:|:---:|---|"]
        for row in faults:
            lines.append(f"| {row['fault']}{' (' + row['how'] + ')' if row.get('how') else ''} | "
                         f"{row.get('first_exit', row['exit'])}"
                         f"{' → ' + str(row['exit']) if 'first_exit' in row else ''}"
                         f" | {'yes' if row.get('one_line', True) else 'no'} | "
                         f"{'–' if row['exact'] is None else 'yes' if row['exact'] else 'no'}"
                         f"{'' if row.get('exact_expected', True) else ' (not expected)'} | "
                         f"{'yes' if row['lost_data'] else 'no'} | {row.get('note', '')} |")
    bad = [row for row in killed if not row["exact"]]
    if bad:
        lines += ["", "Kills that did not end exactly:", ""]
        lines += [f"- {row['thread']}: killed at `{row.get('stage')}`, {row.get('resumed_by')} exit {row.get('exit')}"
                  f"{', resumed at ' + str(row.get('resumed_at')) if row.get('resumed_at') else ''}"
                  f"{', same sources' if row.get('same_sources') else ''}"
                  f"{', ' + str(row['error']) if row.get('error') else ''}"
                  for row in bad]
    lines += ["", f"Reference: {summary['reference']['claims']} claims from {summary['reference']['sources']} "
              f"sources; a second uninterrupted run ended the same way: {summary['reference']['reproducible']}."]
    return lines


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="benchmark folder (corpus.jsonl, "
                        "questions.jsonl)")
    parser.add_argument("--question", type=int, default=0, help="which question of questions.jsonl (0 = the first)")
    parser.add_argument("--kills", type=int, default=100, help="SIGKILL and resume this many runs")
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"comma list of {', '.join(FAULTS)} ('' for none)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the runs and of the kill moments")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "chaos")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return child(json.loads(args.child), [part for part in args.rest if part != "--"])
    faults = [name for name in args.faults.split(",") if name.strip()]
    unknown = sorted(set(faults) - set(FAULTS))
    if unknown:
        raise SystemExit(f"unknown fault(s) {unknown}: use {', '.join(FAULTS)}")
    command = command_line("bench.chaos")
    code_at_start = git_version()
    question = load_questions(args.data)[args.question]
    rng = random.Random(args.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="satiate-chaos-") as scratch_name:
        scratch = Path(scratch_name)
        flags = ["--corpus", str(corpus_path(args.data).resolve()), "--backends", "corpus", "--llm", "none",
                 "--offline", "--seed", str(args.seed)]
        bench = Bench(question.question, flags, scratch / "data")
        print(f"command: {command}\nquestion {question.qid}: {question.question}\nflags: {' '.join(flags)}",
              flush=True)
        reference = reference_runs(bench)
        print(f"reference: {reference}", flush=True)
        kills: list[dict] = []
        attempts = 0
        while sum(row.get("killed", False) for row in kills) < args.kills:
            attempts += 1
            if attempts > args.kills * KILL_ATTEMPTS_PER_KILL:
                break
            row = kill_and_resume(bench, len(kills), rng)
            kills.append(row)
            print(f"  kill {len(kills)}: {json.dumps(row)}", flush=True)
        fault_rows = []
        for name in faults:
            if name == "search":
                rows = fault_search(bench, scratch)
            elif name == "disk":
                rows = [fault_disk(bench, scratch)]
            elif name == "page":
                rows = [fault_page(bench, scratch, rng)]
            elif name == "model":
                rows = [fault_model(bench, scratch)]
            elif name == "start":
                rows = fault_start(bench, scratch)
            elif name == "store":
                rows = fault_store(bench, scratch)
            elif name == "checkpoints":
                rows = fault_checkpoints(bench, scratch)
            else:
                rows = fault_input(bench, scratch)
            fault_rows += rows
            for row in rows:
                print(f"  fault {json.dumps(row)}", flush=True)
    killed = [row for row in kills if row.get("killed")]
    summary = {
        "command": command, "question": {"qid": question.qid, "question": question.question}, "flags": flags,
        "reference": reference, "kills": len(killed),
        "exact": sum(row["exact"] for row in killed), "lost_data": sum(row["lost_data"] for row in killed),
        "exact_share": sum(row["exact"] for row in killed) / len(killed) if killed else None,
        "faults": fault_rows, "kill_rows": kills, "elapsed_s": round(time.monotonic() - started, 1),
        "git": git_version(), "machine": machine(),
    }
    summary["code_changed_during_run"] = code_at_start != summary["git"]
    lines = ["# Chaos: SIGKILL and resume, injected faults", "", f"Command: `{command}`  ",
             f"Question {question.qid}; git {summary['git']}; {summary['machine']['summary']}; "
             f"took {summary['elapsed_s']:.0f} s.", "", *table(summary, kills, fault_rows)]
    lines += code_changed_lines(code_at_start, summary["git"], "processes ran different versions.")
    write_outputs(args.out, summary, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
