"""Many workers, one PostgreSQL store: two worker processes run two threads at once, one crashes mid-search, and the
other process resumes that thread without repeating a finished search.

The test starts a real PostgreSQL server on loopback from the binaries on the machine (``initdb``/``pg_ctl`` on PATH
or in ``/usr/lib/postgresql/*/bin``). PostgreSQL refuses to run as root, so as root the cluster is run as the
``postgres`` system user (created if missing). The test is skipped, with the reason, only when the server binaries
are absent. Workers reach the store exactly as the CLI does: ``SATIATE_CHECKPOINT_URL`` and ``open_checkpointer``.

Run as a script (``python test_postgres.py worker``) this file is the worker: it reads one JSON command a line on
stdin and answers one JSON line on stdout.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from support.studio_support import InjectedCrash, counting_dependencies, free_port, write_corpus  # noqa: E402

QUESTION = "What is a Python generator?"
CLUSTER_USER = "postgres"
STARTUP_ATTEMPTS = 3  # a free port can be taken between choosing it and binding it
WORKER_REPLY_TIMEOUT_S = 90.0  # a run here takes about a second; this only turns a hang into a failure


def postgres_bin_dir() -> Path | None:
    """Where initdb, pg_ctl and postgres live: PATH first, else the newest Debian version directory."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl") and shutil.which("postgres"):
        return Path(os.path.realpath(on_path)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def cluster_account() -> str | None:
    """The account to run the cluster as: none needed when not root; the postgres system user (made if missing)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(CLUSTER_USER)
    except KeyError:
        created = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                  CLUSTER_USER], capture_output=True, text=True)
        if created.returncode != 0:
            pytest.skip(f"running as root and cannot create the {CLUSTER_USER!r} user PostgreSQL needs: "
                        f"{created.stderr.strip()}")
    return CLUSTER_USER


def as_account(account: str | None, command: list[str]) -> list[str]:
    if account is None:
        return command
    if shutil.which("runuser"):
        return ["runuser", "-u", account, "--", *command]
    return ["su", account, "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command)]


@dataclass
class PostgresCluster:
    url: str
    bin_dir: Path
    data_dir: Path
    account: str | None

    def stop(self) -> None:
        subprocess.run(as_account(self.account, [str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m",
                                                 "immediate", "-w", "stop"]), capture_output=True, timeout=60)


def stop_when_gone(test_pid: int, cluster: PostgresCluster, root: Path) -> None:
    """A detached watchdog that stops the cluster if the test process dies without its teardown (kill -9, Ctrl-C
    twice), so no PostgreSQL server is left running in the background."""
    stop = " ".join(as_account(cluster.account, [str(cluster.bin_dir / "pg_ctl"), "-D", str(cluster.data_dir), "-m",
                                                   "immediate", "stop"]))
    script = (f"while kill -0 {test_pid} 2>/dev/null && [ -d {root} ]; do sleep 1; done; "
              f"[ -d {root} ] && {{ {stop}; rm -rf {root}; }}; exit 0")
    subprocess.Popen(["sh", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH or in "
                    "/usr/lib/postgresql/*/bin: install Debian's 'postgresql' package to run this test")
    account = cluster_account()
    root = Path(tempfile.mkdtemp(prefix="satiate-pg-"))  # under /tmp, reachable by the cluster's account
    data_dir, socket_dir = root / "data", root / "socket"
    socket_dir.mkdir()
    if account is not None:
        shutil.chown(root, account)
        shutil.chown(socket_dir, account)
    initdb = subprocess.run(
        as_account(account, [str(bin_dir / "initdb"), "-D", str(data_dir), "-U", "satiate", "--auth=trust",
                             "--encoding=UTF8", "--no-sync", "--no-instructions"]),
        capture_output=True, text=True, timeout=120,
    )
    assert initdb.returncode == 0, initdb.stderr
    cluster = None
    try:
        for _ in range(STARTUP_ATTEMPTS):
            port = free_port()
            options = (f"-h 127.0.0.1 -p {port} -k {socket_dir} -c fsync=off -c synchronous_commit=off "
                       "-c full_page_writes=off")
            started = subprocess.run(
                as_account(account, [str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-l", str(root / "server.log"),
                                     "-o", options, "-w", "-t", "60", "start"]),
                capture_output=True, text=True, timeout=90,
            )
            if started.returncode == 0:
                cluster = PostgresCluster(f"postgresql://satiate@127.0.0.1:{port}/postgres", bin_dir, data_dir,
                                          account)
                stop_when_gone(os.getpid(), cluster, root)
                break
        assert cluster is not None, (root / "server.log").read_text(errors="replace")[-3000:]
        yield cluster.url
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


class Worker:
    """A worker process of this file, talked to one JSON line at a time."""

    def __init__(self, name: str, env: dict[str, str], errors: Path) -> None:
        self.name = name
        self.errors = errors
        with errors.open("w") as stderr:
            self.process = subprocess.Popen([sys.executable, __file__, "worker"], env=env, text=True,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in iter(self.process.stdout.readline, ""):
            self.lines.put(line)
        self.lines.put("")  # end of output: the worker exited

    def send(self, **command: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def reply(self) -> dict[str, Any]:
        """The next answer; a hung or dead worker fails the test instead of hanging it."""
        try:
            line = self.lines.get(timeout=WORKER_REPLY_TIMEOUT_S)
        except queue.Empty:
            self.process.kill()
            raise AssertionError(f"worker {self.name} gave no answer in {WORKER_REPLY_TIMEOUT_S:.0f} s: "
                                 f"{self.errors.read_text()[-3000:]}") from None
        if not line:
            raise AssertionError(f"worker {self.name} died: {self.errors.read_text()[-3000:]}")
        return json.loads(line)

    def ask(self, **command: Any) -> dict[str, Any]:
        self.send(**command)
        return self.reply()

    def close(self) -> None:
        if self.process.poll() is None:
            self.send(op="quit")
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.process.stdin:
            self.process.stdin.close()


def worker_env(postgres_url: str, data_dir: Path, corpus: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SATIATE_")}
    return {**env, "SATIATE_CHECKPOINT_URL": postgres_url, "SATIATE_DATA_DIR": str(data_dir),
            "SATIATE_TEST_CORPUS": str(corpus)}


def test_two_workers_share_threads_and_one_resumes_the_others_crashed_run(
        postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path / "corpus.jsonl")
    first = Worker("first", worker_env(postgres_url, tmp_path / "first", corpus), tmp_path / "first.err")
    second = Worker("second", worker_env(postgres_url, tmp_path / "second", corpus), tmp_path / "second.err")
    try:
        # Both start at once (and both migrate the tables at once), each on its own thread.
        first.send(op="run", thread="thread-a")
        second.send(op="run", thread="thread-b", crash_in="gather", crash_on_call=3)
        finished_a, crashed_b = first.reply(), second.reply()
        assert finished_a["next"] == [] and finished_a["claims"] > 0
        assert crashed_b["crashed"] and set(crashed_b["next"]) == {"gather"}  # the unfinished branches
        assert crashed_b["search_records"] == crashed_b["searches"] > 0  # every finished search is stored

        resumed_b = first.ask(op="resume", thread="thread-b")  # the other process picks the thread up
        assert resumed_b["next"] == [] and resumed_b["claims"] > 0
        assert 0 < resumed_b["searches"] < resumed_b["search_records"]
        assert crashed_b["searches"] + resumed_b["searches"] == resumed_b["search_records"], "a search ran twice"

        seen_from_second = second.ask(op="show", thread="thread-a")
        assert seen_from_second["answer"] == finished_a["answer"]
    finally:
        first.close()
        second.close()

    # The CLI reaches the same store through the same setting.
    from satiate.graph import cli

    monkeypatch.setenv("SATIATE_CHECKPOINT_URL", postgres_url)
    assert cli.main(["show", "thread-b", "--json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["answer"] == resumed_b["answer"]
    assert cli.main(["list"]) == cli.EXIT_OK
    listing = capsys.readouterr().out
    assert "thread-a" in listing and "thread-b" in listing


def serve_commands() -> None:
    """Worker loop: one checkpointer (a connection pool) for the process's life, as a long-running worker has."""
    from satiate.graph.builder import RECURSION_LIMIT, build_graph
    from satiate.graph.checkpoint import open_checkpointer
    from satiate.state.settings import resolve_settings

    corpus = Path(os.environ["SATIATE_TEST_CORPUS"])
    settings = resolve_settings()
    with open_checkpointer(settings) as saver:
        for line in sys.stdin:
            command = json.loads(line)
            if command["op"] == "quit":
                return
            deps, backend = counting_dependencies(corpus, settings.data_path, crash_in=command.get("crash_in"),
                                                  crash_on_call=command.get("crash_on_call", 1),
                                                  hard_kill=command.get("hard_kill", False))
            app = build_graph(deps, checkpointer=saver)
            config = {"configurable": {"thread_id": command["thread"]}, "recursion_limit": RECURSION_LIMIT}
            crashed = False
            if command["op"] in ("run", "resume"):
                payload = None if command["op"] == "resume" else {
                    "question": QUESTION,
                    "settings": {"llm": "none", "corpus": str(corpus), "backends": ["corpus"], "seed": 1}}
                try:
                    app.invoke(payload, config)
                except InjectedCrash:
                    crashed = True
            snapshot = app.get_state(config)
            print(json.dumps({
                "crashed": crashed, "next": list(snapshot.next), "searches": len(backend.queries),
                "search_records": len(snapshot.values.get("search_results", [])),
                "claims": len(snapshot.values.get("claims", [])), "answer": snapshot.values.get("answer"),
            }), flush=True)



def test_the_server_checkpointer_and_the_cli_share_one_postgres_store(postgres_url: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """langgraph.json's checkpointer (async, on the server's event loop) writes what the CLI's saver reads."""
    import asyncio

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import open_checkpointer
    from satiate.graph.server import checkpointer as server_checkpointer
    from satiate.state.settings import resolve_settings

    corpus = write_corpus(tmp_path / "corpus.jsonl")
    monkeypatch.setenv("SATIATE_CHECKPOINT_URL", postgres_url)
    deps, backend = counting_dependencies(corpus, tmp_path / "data")
    config = {"configurable": {"thread_id": "server-thread"}}
    payload = {"question": QUESTION, "settings": {"llm": "none", "corpus": str(corpus), "backends": ["corpus"],
                                                  "seed": 1}}

    async def run_on_the_server_side() -> dict[str, Any]:
        async with server_checkpointer() as saver:
            assert type(saver).__name__ == "AsyncPostgresSaver"
            return await build_graph(deps, checkpointer=saver).ainvoke(payload, config)

    served = asyncio.run(run_on_the_server_side())
    with open_checkpointer(resolve_settings()) as saver:
        stored = build_graph(deps, checkpointer=saver).get_state(config)
    assert stored.next == () and stored.values["answer"] == served["answer"]
    assert len(stored.values["search_results"]) == len(backend.queries) > 0


def test_one_writer_per_thread_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    """Two calls at once on one thread (one PostgresSaver, as an embedding agent would hold it): one is refused; a
    worker SIGKILLed mid-run leaves no lock behind, so another process resumes its thread at once."""
    import threading

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import ThreadBusy
    from satiate.graph.postgres import postgres_checkpointer

    corpus = write_corpus(tmp_path / "corpus.jsonl")
    payload = {"question": QUESTION, "settings": {"llm": "none", "corpus": str(corpus), "backends": ["corpus"],
                                                  "seed": 1}}
    with postgres_checkpointer(postgres_url) as saver:
        deps, backend = counting_dependencies(corpus, tmp_path / "data")
        one_returned = threading.Event()
        search = backend.search

        def gated_search(query: str, max_results: int):  # the run searching waits until the other call returned
            one_returned.wait(timeout=10)
            return search(query, max_results)

        backend.search = gated_search
        graph = build_graph(deps, checkpointer=saver)
        config = {"configurable": {"thread_id": "contended"}}
        start, outcomes = threading.Barrier(2), []

        def call() -> None:
            start.wait()
            try:
                outcomes.append(graph.invoke(payload, config))
            except Exception as exc:  # noqa: BLE001 - the outcome is what the test inspects
                outcomes.append(exc)
            one_returned.set()

        callers = [threading.Thread(target=call) for _ in range(2)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(timeout=120)
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert len(outcomes) == 2 and len(refused) == 1 and isinstance(refused[0], ThreadBusy), outcomes
        answered = next(o for o in outcomes if isinstance(o, dict))
        assert graph.get_state(config).values["answer"] == answered["answer"]

    killed = Worker("killed", worker_env(postgres_url, tmp_path / "killed", corpus), tmp_path / "killed.err")
    try:
        killed.send(op="run", thread="killed-thread", crash_in="gather", crash_on_call=3, hard_kill=True)
        killed.process.wait(timeout=WORKER_REPLY_TIMEOUT_S)
        assert killed.process.returncode == -9
    finally:
        killed.close()
    resumer = Worker("resumer", worker_env(postgres_url, tmp_path / "resumer", corpus), tmp_path / "resumer.err")
    try:
        resumed = resumer.ask(op="resume", thread="killed-thread")
        assert resumed["next"] == [] and resumed["claims"] > 0
    finally:
        resumer.close()


def test_one_writer_per_thread_through_the_server_checkpointer(postgres_url: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The async path (the LangGraph server's saver, ``ainvoke``) takes the same advisory lock."""
    import asyncio

    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import ThreadBusy, thread_writer
    from satiate.graph.postgres import postgres_checkpointer
    from satiate.graph.server import checkpointer as server_checkpointer

    corpus = write_corpus(tmp_path / "corpus.jsonl")
    monkeypatch.setenv("SATIATE_CHECKPOINT_URL", postgres_url)
    deps, _ = counting_dependencies(corpus, tmp_path / "data")
    payload = {"question": QUESTION, "settings": {"llm": "none", "corpus": str(corpus), "backends": ["corpus"],
                                                  "seed": 1}}
    config = {"configurable": {"thread_id": "async-thread"}}

    async def run_while_another_session_writes() -> None:
        async with server_checkpointer() as saver:
            graph = build_graph(deps, checkpointer=saver)
            with postgres_checkpointer(postgres_url) as other, thread_writer(other, "async-thread"):
                with pytest.raises(ThreadBusy):
                    await graph.ainvoke(payload, config)
            assert (await graph.ainvoke(payload, config))["answer"]

    asyncio.run(run_while_another_session_writes())


def test_checkpoint_urls_choose_the_store(tmp_path: Path) -> None:
    from satiate.graph.checkpoint import CHECKPOINT_URL_ENV, checkpoint_url, sqlite_path_of
    from satiate.graph.postgres import is_postgres_url, redacted
    from satiate.state.settings import Settings, SettingsError

    settings = Settings(data_dir=str(tmp_path / "data"))
    default = checkpoint_url(settings, environ={})
    assert sqlite_path_of(default) == tmp_path / "data" / "checkpoints.sqlite"
    assert checkpoint_url(settings, environ={CHECKPOINT_URL_ENV: "  "}) == default  # blank means not set
    assert sqlite_path_of("sqlite:////srv/runs.sqlite") == Path("/srv/runs.sqlite")  # SQLAlchemy's spelling
    assert sqlite_path_of("sqlite:///runs.sqlite") == Path("runs.sqlite")
    assert sqlite_path_of(str(tmp_path / "plain.sqlite")) == tmp_path / "plain.sqlite"
    assert is_postgres_url("postgresql://u@db:5432/runs") and is_postgres_url("postgres://db/runs")
    assert not is_postgres_url(default)
    with pytest.raises(SettingsError, match="mysql"):
        sqlite_path_of("mysql://db/runs")
    assert redacted("postgresql://satiate:s3cret@db:5432/runs") == "postgresql://satiate:***@db:5432/runs"
    assert redacted("postgresql://satiate@db/runs") == "postgresql://satiate@db/runs"


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    serve_commands()
