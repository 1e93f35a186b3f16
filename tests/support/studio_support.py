"""Helpers for tests that start real servers: a free loopback port, and ``langgraph dev`` as a child process.

The dev server silently moves to another port when the requested one is busy, so the port is read from what the
server prints, never assumed. The server runs in its own process group so that shutting it down also ends the
worker processes it starts.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[2]
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
API_LINE = re.compile(r"API:\s*http://127\.0\.0\.1:(\d+)")
SERVER_START_TIMEOUT_S = 60.0
TELEMETRY_OFF = {"LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1"}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def langgraph_executable() -> str | None:
    """The ``langgraph`` command of the interpreter running the tests (a venv need not be on PATH)."""
    beside = Path(sys.executable).with_name("langgraph")
    return str(beside) if beside.exists() else shutil.which("langgraph")


@dataclass
class DevServer:
    """A running ``langgraph dev``: its base URL, its log so far, and how long it took to answer ``/ok``."""

    process: subprocess.Popen
    url: str
    started_in_s: float
    log_lines: list[str] = field(default_factory=list)

    @property
    def log(self) -> str:
        return "".join(self.log_lines)

    def stop(self) -> None:
        """End the whole process group (the CLI, the API server and its workers)."""
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def _pump(stream, sink: list[str], port_found: threading.Event, port_box: list[int]) -> None:
    """Keep reading the server's output (a full pipe would stall it) and spot the port it reports."""
    for raw in iter(stream.readline, ""):
        line = ANSI_ESCAPE.sub("", raw)
        sink.append(line)
        match = API_LINE.search(line)
        if match and not port_found.is_set():
            port_box.append(int(match.group(1)))
            port_found.set()
    port_found.set()  # the stream closed: the server exited


def start_dev_server(workdir: Path, environment: dict[str, str], *, port: int | None = None) -> DevServer:
    """Copy the project's ``langgraph.json`` into ``workdir`` and serve it there (``.langgraph_api/`` lands there).

    Raises RuntimeError with the server's output when it does not come up.
    """
    executable = langgraph_executable()
    if executable is None:
        raise RuntimeError("the langgraph CLI is not installed: pip install 'satiate[server]'")
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO_ROOT / "langgraph.json", workdir / "langgraph.json")
    requested = port or free_port()
    inherited = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    env = {**inherited, **TELEMETRY_OFF, **environment, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    started = time.perf_counter()
    process = subprocess.Popen(
        [executable, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(requested),
         "--config", str(workdir / "langgraph.json")],
        cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    log_lines: list[str] = []
    port_found, port_box = threading.Event(), []
    threading.Thread(target=_pump, args=(process.stdout, log_lines, port_found, port_box), daemon=True).start()
    server = DevServer(process, "", 0.0, log_lines)
    try:
        if not port_found.wait(SERVER_START_TIMEOUT_S) or not port_box:
            raise RuntimeError("langgraph dev reported no API address:\n" + server.log[-4000:])
        server.url = f"http://127.0.0.1:{port_box[0]}"
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError("langgraph dev exited:\n" + server.log[-4000:])
            try:
                if httpx.get(f"{server.url}/ok", timeout=2).status_code == 200:
                    server.started_in_s = time.perf_counter() - started
                    return server
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError("langgraph dev did not answer /ok in time:\n" + server.log[-4000:])
    except BaseException:
        server.stop()
        raise


# --- counting and crashing dependencies, for kill-and-resume tests ----------------------------------------------------
class CountingBackend:
    """A real local backend that records every query it is asked, in memory and optionally in a file.

    The file survives a SIGKILL of the process that searched, so a test can count searches across processes.
    """

    def __init__(self, inner, log_file: Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.description = inner.description
        self.log_file = log_file
        self.queries: list[str] = []
        self._lock = threading.Lock()

    def search(self, query: str, max_results: int):
        hits = self.inner.search(query, max_results)
        with self._lock:  # gather branches search in parallel threads
            self.queries.append(query)
            if self.log_file is not None:
                with self.log_file.open("a", encoding="utf-8") as log:
                    log.write(query.replace("\n", " ") + "\n")
        return hits


class InjectedCrash(RuntimeError):
    """Raised on purpose to stop a run part-way, as a crash would."""


def counting_dependencies(corpus: Path, data_dir: Path, *, log_file: Path | None = None,
                          crash_in: str | None = None, crash_on_call: int = 1, hard_kill: bool = False):
    """Dependencies with a counting corpus backend; optionally a crash in ``critic`` or ``gather`` on the Nth call.

    ``hard_kill`` turns the crash into a SIGKILL of the whole process, so nothing gets to clean up.
    Returns ``(deps, backend)``; settings must name ``backends=["corpus"]`` and this corpus.
    """
    from satiate.graph.deps import engine_for
    from satiate.nodes.common import Dependencies
    from satiate.tools.search.local_corpus import LocalCorpusBackend
    from satiate.tools.search.service import SearchService

    backend = CountingBackend(LocalCorpusBackend(corpus, data_dir), log_file)
    calls = {"critic": 0, "gather": 0}

    def crash(where: str) -> None:
        calls[where] += 1
        if crash_in == where and calls[where] == crash_on_call:
            if hard_kill:
                os.kill(os.getpid(), signal.SIGKILL)
            raise InjectedCrash(f"injected crash in {where}, call {crash_on_call}")

    class CrashableService(SearchService):
        def run(self, backend_name: str, query: str, max_results: int):
            crash("gather")
            return super().run(backend_name, query, max_results)

    service = CrashableService({"corpus": backend}, retry_attempts=1)

    class CrashableEngine:
        def __init__(self, inner) -> None:
            self.inner = inner

        def __getattr__(self, name: str):
            return getattr(self.inner, name)

        def critique(self, view):
            crash("critic")
            return self.inner.critique(view)

    deps = Dependencies(engine_for=lambda settings: CrashableEngine(engine_for(settings)),
                        search_for=lambda settings: service)
    return deps, backend


GENERATOR_PASSAGES = [
    {"doc_id": "gen-1", "title": "Python generators",
     "text": "A generator function in Python uses the yield statement to produce a sequence of values lazily. Each "
             "call to next() resumes the function where it left off, and its local state is preserved between calls. "
             "Generators save memory because they never build the whole sequence at once, unlike a list "
             "comprehension, which evaluates every element immediately."},
    {"doc_id": "gen-2", "title": "Generator expressions",
     "text": "A generator expression looks like a list comprehension written with parentheses instead of brackets. "
             "It returns a lazy iterator rather than a list. A generator expression is consumed once: after it is "
             "exhausted, iterating again yields nothing. Generator expressions suit pipelines that stream large "
             "files line by line."},
    {"doc_id": "gen-3", "title": "Criticism of generators",
     "text": "Critics point out that generators can be harder to debug than lists, because values are produced on "
             "demand and an exception surfaces far from where the generator was created. A generator cannot be "
             "indexed or measured with len(), so code that needs random access must first turn it into a list."},
    {"doc_id": "gen-4", "title": "History of generators",
     "text": "Generators were introduced to Python in version 2.2 by PEP 255, which added the yield statement. "
             "PEP 342 in Python 2.5 turned generators into coroutines with send() and throw(), and PEP 380 in "
             "Python 3.3 added yield from to delegate to a subgenerator."},
]


def write_corpus(path: Path, passages: list[dict] | None = None) -> Path:
    """A small JSONL corpus a test can search offline."""
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(p) for p in (passages or GENERATOR_PASSAGES)) + "\n", encoding="utf-8")
    return path
