"""Storage faults end in one line, never a traceback (issue 12, items 6 and 7): a damaged or truncated checkpoint
store, a read-only data directory (whose runs can still be listed and shown), a full disk while indexing or while
checkpointing, a damaged corpus index or search cache (derived data: rebuilt), a data directory that is a file, and
integer settings too large to checkpoint (refused at start, not at the first checkpoint).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from satiate.graph.checkpoint import checkpoint_path
from support.graph_support import run_cli
from support.research_corpus import PASSAGES, QUESTION

FINISHED = "finished-run"


def research(capsys, corpus: Path, thread_id: str, *flags: str) -> tuple[int, str, str]:
    return run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus", "--thread-id", thread_id,
                   "--seed", "5", "--max-results-per-query", "2", "--json", *flags)


def assert_one_line(err: str, *needles: str) -> str:
    """The last stderr line is the one error line (progress lines may come before it), naming what it must."""
    assert "Traceback" not in err and "cannot rollback" not in err, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("satiate: "), err
    for needle in needles:
        assert needle in line, line
    return line


@pytest.fixture
def finished(capsys, corpus: Path, isolated_data_dir: Path) -> dict:
    code, out, err = research(capsys, corpus, FINISHED)
    assert code == 0, err
    return json.loads(out)


# --- a damaged or truncated checkpoint store --------------------------------------------------------------------------
def damage(path: Path, how: str) -> None:
    if how == "header":  # "file is not a database"
        with path.open("r+b") as handle:
            handle.write(b"this is no longer an SQLite file" * 4)
    elif how == "pages":  # the header and schema read, the rows do not
        scramble_pages(path)
    else:  # truncated mid-file: "database disk image is malformed"
        os.truncate(path, path.stat().st_size // 3)


@pytest.mark.parametrize("how", ["header", "truncated", "pages"])
def test_a_damaged_checkpoint_store_is_one_line_naming_it_and_the_fix(capsys, corpus, finished, isolated_data_dir,
                                                                      how):
    store = checkpoint_path(isolated_data_dir)
    damage(store, how)
    commands = [("list",), ("show", FINISHED), ("resume", FINISHED), ("delete", FINISHED),
                ("prune", "--older-than", "0s"), ("run", QUESTION, "--corpus", str(corpus), "--backends", "corpus")]
    for command in commands:
        code, _, err = run_cli(capsys, *command)
        assert code == 2, (command, err)
        assert_one_line(err, str(store), "is damaged", f"mv {store} {store}.damaged", ".recover")


def test_an_emptied_checkpoint_store_is_refused_for_every_command_not_read_as_no_runs(capsys, corpus, finished,
                                                                                      isolated_data_dir):
    store = checkpoint_path(isolated_data_dir)
    os.truncate(store, 0)
    commands = [("list",), ("show", FINISHED), ("resume", FINISHED), ("delete", FINISHED),
                ("run", QUESTION, "--corpus", str(corpus), "--backends", "corpus", "--thread-id", "new")]
    for command in commands:
        code, out, err = run_cli(capsys, *command)
        assert code == 2, (command, err)
        assert_one_line(err, str(store), "is empty (0 bytes)", f"rm {store}")
        assert "no runs" not in out
    assert store.stat().st_size == 0  # nothing was written into it


# --- a read-only data directory ---------------------------------------------------------------------------------------
@contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """The folder, read-only. As root (whom file modes do not stop) a read-only bind mount of it; otherwise its
    modes."""
    if os.geteuid() != 0:
        paths = [folder, *folder.rglob("*")]
        modes = {path: path.stat().st_mode for path in paths if not path.is_symlink()}
        for path in modes:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield folder
        finally:
            for path in sorted(modes, key=lambda p: len(p.parts)):
                path.chmod(modes[path])
        return
    view = folder.with_name(folder.name + "-read-only")
    view.mkdir()
    bound = subprocess.run(["mount", "--bind", str(folder), str(view)], capture_output=True, text=True)
    if bound.returncode != 0:
        pytest.skip(f"cannot make a read-only folder as root here (mount --bind: {bound.stderr.strip()})")
    try:
        remount = subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True, text=True)
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remount.stderr.strip()}")
        yield view
    finally:
        unmount(view)


def unmount(folder: Path) -> None:
    from satiate.graph.deps import reset

    reset()  # the process's stores and indexes hold files in the folder open
    if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "--lazy", str(folder)], capture_output=True)


def test_a_read_only_store_can_be_listed_and_shown_and_refuses_writes_in_one_line(capsys, corpus, finished,
                                                                                   isolated_data_dir):
    with read_only(isolated_data_dir) as folder:
        code, out, err = run_cli(capsys, "list", "--json", "--data-dir", str(folder))
        assert code == 0, err
        assert [(row["thread_id"], row["status"]) for row in json.loads(out)] == [(FINISHED, "finished")]
        code, out, err = run_cli(capsys, "show", FINISHED, "--json", "--data-dir", str(folder))
        assert code == 0, err
        assert json.loads(out)["answer"] == finished["answer"]
        for command in (("resume", FINISHED), ("delete", FINISHED)):
            code, _, err = run_cli(capsys, *command, "--data-dir", str(folder))
            assert code == 2, err
            assert_one_line(err, str(checkpoint_path(folder)), "cannot be written", "listed and shown")
        code, _, err = research(capsys, corpus, "another", "--data-dir", str(folder))
        assert code == 2
        assert_one_line(err, str(folder), "cannot be written")


# --- a full disk ------------------------------------------------------------------------------------------------------
def big_corpus(write_jsonl) -> Path:
    """About 2 MB of text: its index does not fit on the small disks below."""
    words = "kettle harbor founder engineer appliance bristol pump navy yard review water litre".split()
    passages = [{"doc_id": f"d{n}", "title": f"Document {n}",
                 "text": " ".join(words[(n * 7 + k) % len(words)] + str(k % 97) for k in range(300))}
                for n in range(1000)]
    return write_jsonl(passages, "big.jsonl")


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a small disk (tmpfs) needs root to mount; the injected full disk below covers the same path")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True,
                             text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()}); the injected full disk covers the path")
    try:
        yield folder
    finally:
        unmount(folder)


def test_a_full_disk_while_indexing_says_so_in_one_line(capsys, tmp_path, write_jsonl):
    corpus = big_corpus(write_jsonl)
    with small_disk(tmp_path / "small-disk", "512k") as disk:
        code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus",
                               "--data-dir", str(disk / "data"))
        assert code == 2
        assert_one_line(err, str(disk / "data" / "corpora"), "the disk is full (database or disk is full)")


@contextmanager
def sqlite_files_limited(monkeypatch, name_part: str, max_pages: int) -> Iterator[None]:
    """Every SQLite file whose path contains ``name_part`` may grow to ``max_pages`` pages: past that SQLite fails
    as on a full disk ("database or disk is full", the transaction rolled back), on any machine, no root needed."""
    real_connect = sqlite3.connect

    def connect(database, *args, **kwargs):
        connection = real_connect(database, *args, **kwargs)
        if name_part in str(database):
            connection.execute(f"PRAGMA max_page_count = {max_pages}")
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect)
    yield
    monkeypatch.setattr(sqlite3, "connect", real_connect)


def test_a_full_disk_while_indexing_injected(capsys, tmp_path, write_jsonl, isolated_data_dir, monkeypatch):
    corpus = big_corpus(write_jsonl)
    with sqlite_files_limited(monkeypatch, "big-", max_pages=40):
        code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus")
    assert code == 2
    assert_one_line(err, str(isolated_data_dir / "corpora" / "big-"), "the disk is full (database or disk is full)",
                    "free space")


def test_a_full_disk_while_checkpointing_stops_in_one_line_and_the_run_resumes(capsys, corpus, finished,
                                                                             isolated_data_dir, monkeypatch):
    store = checkpoint_path(isolated_data_dir)
    pages = store.stat().st_size // 4096
    with sqlite_files_limited(monkeypatch, "checkpoints.sqlite", max_pages=pages + 12):
        code, _, err = research(capsys, corpus, "filled")
    assert code == 2
    assert_one_line(err, str(store), "the disk is full", "then resume with: satiate resume filled")
    code, out, err = run_cli(capsys, "resume", "filled", "--json")
    assert code == 0, err
    assert json.loads(out)["answer"] == finished["answer"]  # the steps before the full disk were kept


# --- derived data: a damaged corpus index or search cache is rebuilt --------------------------------------------------
def index_file(data_dir: Path, corpus: Path) -> Path:
    [path] = (data_dir / "corpora").glob(f"{corpus.stem}-*.sqlite")
    return path


def scramble_pages(path: Path) -> None:
    """Overwrite the file's pages after the first with noise: it opens, but reading its tables fails."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(4096)
        handle.write(bytes((n * 131 + 7) % 256 for n in range(size - 4096)))


def as_a_new_process() -> None:
    """Close the indexes this process has open (their WAL is folded into the file, as when a process exits) and
    forget its services, so the next run opens every file afresh."""
    from satiate.graph.deps import reset

    reset()


@pytest.mark.parametrize("how", ["header", "truncated", "pages"])
def test_a_damaged_corpus_index_is_rebuilt(capsys, caplog, corpus, finished, isolated_data_dir, how):
    as_a_new_process()
    index = index_file(isolated_data_dir, corpus)
    scramble_pages(index) if how == "pages" else damage(index, how)
    code, out, err = research(capsys, corpus, f"after-{how}")
    assert code == 0, err
    result = json.loads(out)
    assert result["answer"] == finished["answer"]  # from the corpus, rebuilt; not from a fallback backend
    assert {source["doc_id"] for source in result["sources"]} <= {p["doc_id"] for p in PASSAGES}
    assert any("damaged" in message and str(index) in message for message in caplog.messages)  # said, as a warning
    with sqlite3.connect(index) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.parametrize("how", ["header", "truncated"])
def test_a_damaged_store_is_moved_aside_and_the_run_says_so(capsys, caplog, corpus, finished, isolated_data_dir, how):
    as_a_new_process()
    store = isolated_data_dir / "store.sqlite"
    damage(store, how)
    damaged_bytes = store.read_bytes()
    code, out, err = research(capsys, corpus, f"after-store-{how}")
    assert code == 0, err
    assert json.loads(out)["answer"] == finished["answer"]
    [moved] = isolated_data_dir.glob("store.sqlite.damaged-*[0-9TZ]")
    assert moved.read_bytes() == damaged_bytes  # kept to salvage from, not deleted
    [said] = [message for message in caplog.messages if "was damaged" in message]
    assert str(store) in said and f"moved aside to {moved}" in said
    with sqlite3.connect(store) as db:  # the new store holds this run's texts
        assert db.execute("SELECT count(*) FROM source_texts").fetchone()[0] > 0


def test_a_store_moved_aside_by_another_process_is_not_moved_again(isolated_data_dir):
    from satiate.tools.store import Store, default_store_url, move_aside, still_damaged

    path = isolated_data_dir / "store.sqlite"
    Store(default_store_url(isolated_data_dir)).engine.dispose()
    assert not still_damaged(path)  # the healthy store another process started: left in place
    damage(path, "header")
    assert still_damaged(path)
    moved = move_aside(path)
    assert not path.exists() and moved.name.startswith("store.sqlite.damaged-")
    damage_again = Store(default_store_url(isolated_data_dir))
    assert damage_again.moved_to is None and path.exists()  # a new store, nothing moved


# --- item 7 leftovers: the data directory, integer settings -----------------------------------------------------------
def test_a_data_directory_that_is_a_file_is_one_line(capsys, corpus, tmp_path):
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    for data_dir in (a_file, a_file / "below"):
        for command in (("list",), ("show", "x"), ("run", QUESTION, "--corpus", str(corpus))):
            code, _, err = run_cli(capsys, *command, "--data-dir", str(data_dir))
            assert code == 2
            assert_one_line(err, str(data_dir), "is not a folder", "--data-dir")


def integer_settings() -> list[str]:
    import typing

    from satiate.state.settings import Settings

    return [name for name, field in Settings.model_fields.items()
            if int in (typing.get_args(field.annotation) or (field.annotation,)) and name != "query_ceilings"]


@pytest.mark.parametrize("name", integer_settings())
def test_every_integer_setting_is_bounded_so_a_huge_value_fails_at_start(name):
    from satiate.state.settings import SettingsError, resolve_settings

    for value in (2**63, 2**64, -(2**63) - 1):
        with pytest.raises(SettingsError, match=name):
            resolve_settings({name: value})


def test_query_ceilings_are_bounded_too():
    from satiate.state.settings import SettingsError, resolve_settings

    with pytest.raises(SettingsError, match="query_ceilings"):
        resolve_settings({"query_ceilings": {"corpus": 2**64}})


def test_a_huge_integer_flag_is_one_line_before_the_run_starts(capsys, corpus):
    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--token-budget", str(2**64))
    assert code == 2
    line = assert_one_line(err, "token_budget")
    assert "resume" not in err and "thread:" not in err  # refused before any thread was made
    assert line.startswith("satiate: invalid setting")


# --- issue 24: a disk full at the start of a run --------------------------------------------------------------------
class FullDiskFile:
    """A real file whose writes fail as on a full disk when flushed (what the OS says once the buffer reaches it)."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - closed through close()

    def __getattr__(self, name: str):
        return getattr(self._file, name)

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_disk_full_when_the_run_lock_is_written_is_one_line_naming_the_lock_file(capsys, corpus, finished,
                                                                                  isolated_data_dir, monkeypatch):
    from satiate.graph.checkpoint import locks

    real_open = open
    with monkeypatch.context() as patch:
        patch.setattr(locks, "open", lambda path, *args, **kwargs: FullDiskFile(path) if args[:1] == ("a+",)
                      else real_open(path, *args, **kwargs), raising=False)
        code, _, err = research(capsys, corpus, "no-room")
    assert code == 2
    line = assert_one_line(err, str(isolated_data_dir / "running"), ".lock: the disk is full", "free space")
    assert "resume" not in line and "thread:" not in err  # refused before the run started: nothing to resume
    code, out, err = research(capsys, corpus, "no-room")  # with room again the same thread runs from the start
    assert code == 0, err
    assert json.loads(out)["answer"] == finished["answer"]


def test_a_full_disk_at_start_on_a_real_small_disk_is_one_line(capsys, corpus, tmp_path):
    with small_disk(tmp_path / "small-disk", "2m") as disk:
        data_dir = disk / "data"
        code, _, err = research(capsys, corpus, "with-room", "--data-dir", str(data_dir))
        assert code == 0, err
        subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'filler'}", "bs=4k"], capture_output=True)
        code, _, err = research(capsys, corpus, "without-room", "--data-dir", str(data_dir))
        assert code == 2
        assert_one_line(err, str(data_dir), "the disk is full", "free space")


# --- issue 24: a storage fault under parallel gather branches ---------------------------------------------------------
def test_a_storage_fault_in_parallel_gather_branches_is_one_line_without_tracebacks(capsys, caplog, corpus,
                                                                                  isolated_data_dir, monkeypatch):
    """Every branch of the first gather step fails on a full disk. The race that printed ~40 lines of traceback:
    a branch's future is marked done, the run stops and shuts LangGraph's pool, and only then does the branch's
    callback try to save its error. The callbacks are delayed here so that the race is always lost."""
    import concurrent.futures
    import time

    from satiate.nodes import common
    from satiate.tools.store import StorageError

    store = isolated_data_dir / "store.sqlite"
    failed: list[int] = []

    def full_disk(_store, _texts):
        failed.append(1)
        if len(failed) > 1:
            time.sleep(0.1)  # the other branches fail while the first error stops the run
        raise StorageError(f"{store}: the disk is full (database or disk is full): free space on it", "full")

    real_callbacks = concurrent.futures.Future._invoke_callbacks
    late: list[object] = []

    def late_callbacks(future):
        if future._exception is not None and isinstance(future._exception, StorageError):
            late.append(future)
            if len(late) > 1:  # a later branch's worker is descheduled between "done" and its callbacks
                time.sleep(0.3)
        real_callbacks(future)

    monkeypatch.setattr(common, "keep_texts", full_disk)
    monkeypatch.setattr(concurrent.futures.Future, "_invoke_callbacks", late_callbacks)
    code, _, err = research(capsys, corpus, "branches-fail")
    time.sleep(0.5)  # the late callbacks run (and log, if they do) before the process would exit
    assert len(failed) >= 2  # several branches of one step failed
    assert code == 2
    assert_one_line(err, str(store), "the disk is full", "then resume with: satiate resume branches-fail")
    assert [record.getMessage() for record in caplog.records if record.name == "concurrent.futures"] == []


def test_the_late_branch_filter_drops_only_the_shutdown_race():
    import logging
    import sys

    from satiate.graph.builder import LateBranchFailure

    def record(error: BaseException) -> logging.LogRecord:
        try:
            raise error
        except BaseException:
            exc_info = sys.exc_info()
        return logging.LogRecord("concurrent.futures", logging.ERROR, __file__, 1, "exception calling callback for %r",
                                 ("future",), exc_info)

    late = LateBranchFailure()
    assert not late.filter(record(RuntimeError("cannot schedule new futures after shutdown")))
    assert late.filter(record(RuntimeError("something else broke")))
    assert late.filter(record(ValueError("cannot schedule new futures after shutdown")))


# --- issue 24: finite float settings, a question that is not Unicode --------------------------------------------------
def float_settings() -> list[str]:
    import typing

    from satiate.state.settings import Settings

    return [name for name, field in Settings.model_fields.items()
            if float in (typing.get_args(field.annotation) or (field.annotation,))]


@pytest.mark.parametrize("name", float_settings())
def test_every_float_setting_is_finite_and_bounded(name):
    from satiate.state.settings import Settings, SettingsError, resolve_settings

    field = Settings.model_fields[name]
    assert any(hasattr(rule, "le") or hasattr(rule, "lt") for rule in field.metadata), f"{name} has no upper bound"
    for value in (float("inf"), float("-inf"), float("nan"), "inf", "NaN", 1e308):
        with pytest.raises(SettingsError, match=name):
            resolve_settings({name: value})
    with pytest.raises(SettingsError, match=name):  # from the environment too
        resolve_settings(environ={f"SATIATE_{name.upper()}": "inf"})


def test_an_infinite_time_budget_flag_is_one_line_before_the_run_starts(capsys, corpus):
    code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--max-execution-time-s", "inf")
    assert code == 2
    line = assert_one_line(err, "max_execution_time_s", "finite")
    assert "thread:" not in err and "resume" not in line


def test_a_question_that_is_not_unicode_is_refused_before_a_thread_is_made():
    """The graph's own check (the API and embedding callers; the command line refuses such argv while parsing, see
    test_cli_front_door.py)."""
    from satiate.nodes.plan import QuestionError, check_question

    question = b"Who founded the \xff\xfe kettle maker?".decode("utf-8", "surrogateescape")  # argv of bad bytes
    with pytest.raises(QuestionError, match="character 17 is not Unicode"):
        check_question(question, 4000)
    with pytest.raises(QuestionError, match="not valid text"):
        check_question("a lone \ud800 surrogate", 4000)
