"""Lean state: checkpoints hold references, the store holds each source text once, and runs can be measured and
deleted with their texts (issue 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from satiate.graph.checkpoint import sqlite_checkpointer
from satiate.graph.deps import store_for
from satiate.state.settings import Settings
from satiate.tools.source_texts import SNIPPET_CHARS, TextsMissing, text_hash
from satiate.tools.store import StoredPage, source_texts, text_owners
from support.graph_support import FlakyEngine, build, corpus_deps, run_cli, run_settings
from support.research_corpus import PASSAGES, QUESTION

OTHER_QUESTION = "What did reviewers say about the Lumen kettle?"  # reads the kettle passages, not Ada Pell's


def research(capsys, corpus: Path, thread_id: str, question: str = QUESTION, *flags: str) -> dict:
    code, out, err = run_cli(capsys, "run", question, "--corpus", str(corpus), "--backends", "corpus", "--thread-id",
                             thread_id, "--max-results-per-query", "2", "--json", *flags)
    assert code == 0, err
    return json.loads(out)


def store_of(data_dir: Path):
    return store_for(Settings(data_dir=str(data_dir)))


def stored_hashes(data_dir: Path) -> set[str]:
    with store_of(data_dir).engine.connect() as connection:
        return set(connection.execute(select(source_texts.c.hash)).scalars())


def owned_by(data_dir: Path, owner: str) -> set[str]:
    with store_of(data_dir).engine.connect() as connection:
        return set(connection.execute(select(text_owners.c.hash).where(text_owners.c.owner == owner)).scalars())


def passage_of(doc_id: str | None) -> dict:
    return next(p for p in PASSAGES if p["doc_id"] == doc_id)


# --- the checkpoints hold references ----------------------------------------------------------------------------------
def test_no_checkpoint_or_write_holds_a_source_text_and_the_result_carries_only_the_cited_ones(capsys, corpus,
                                                                                              isolated_data_dir):
    result = research(capsys, corpus, "lean")
    read = [passage_of(s["doc_id"]) for s in result["sources"]]
    cited = {s["id"] for s in result["sources"] if s["n"] is not None}  # numbered in the answer or the report
    assert read and cited and {i for claim in result["claims"] for i in claim["source_ids"]} <= cited
    assert {s["id"] for s in result["sources"] if s["text"]} == cited  # the text of the cited sources, and only those
    assert all(s["text"] == passage_of(s["doc_id"])["text"] for s in result["sources"] if s["text"])
    assert {text_hash(p["text"]) for p in read} <= owned_by(isolated_data_dir, "lean")  # in the store, for this run

    with sqlite_checkpointer(isolated_data_dir) as saver:
        checkpoints = saver.conn.execute("SELECT checkpoint_id, checkpoint FROM checkpoints").fetchall()
        writes = saver.conn.execute("SELECT channel, value FROM writes").fetchall()
        with_result = {item.config["configurable"]["checkpoint_id"] for item in saver.list(None)
                       if "result" in item.checkpoint["channel_values"]}
        sources_written = b"".join(value for channel, value in writes if channel == "sources")
    assert len(checkpoints) > 10
    for passage in (p for p in read if len(p["text"]) > SNIPPET_CHARS):  # a shorter one is its own snippet
        text = passage["text"].encode("utf-8")
        holders = [cid for cid, blob in checkpoints if text in blob] + [ch for ch, blob in writes if text in blob]
        # only the finished result carries text (a cited source's), and the rolling knowledge state may quote it:
        # that one is capped at knowledge_max_chars, however many sources are read
        assert set(holders) <= with_result | {"result", "knowledge_state"}, (passage["doc_id"], holders)
    assert all(len(blob) <= Settings().knowledge_max_chars + 16 for channel, blob in writes
               if channel == "knowledge_state")
    assert len(sources_written) / len(read) < 1000  # a source in the state is a reference: well under 1 KB


def test_an_in_memory_store_serves_every_thread_of_a_run(corpus, isolated_data_dir):
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    out = build(deps).invoke({"question": QUESTION,
                              "settings": run_settings(corpus, isolated_data_dir, store_url="sqlite://")})
    cited = {i for claim in out["result"]["claims"] for i in claim["source_ids"]}
    assert cited and all(s["text"] for s in out["result"]["sources"] if s["id"] in cited)


# --- a run whose texts are gone says so -------------------------------------------------------------------------------
def interrupted_run(corpus: Path, data_dir: Path, thread_id: str, **settings) -> None:
    """A run stopped by an exception in its critic: checkpointed, its texts in the store, resumable."""
    deps, _ = corpus_deps(corpus, data_dir, engine=FlakyEngine(fail_method="critique"))
    with sqlite_checkpointer(data_dir) as saver, pytest.raises(RuntimeError, match="injected failure"):
        build(deps, saver).invoke({"question": QUESTION, "settings": run_settings(corpus, data_dir, **settings)},
                                  {"configurable": {"thread_id": thread_id}})


def test_a_run_whose_texts_were_deleted_says_so_instead_of_failing_deep_inside(capsys, corpus, isolated_data_dir):
    interrupted_run(corpus, isolated_data_dir, "lost")
    assert store_of(isolated_data_dir).release_texts("lost", now=time.time()) > 0  # the store loses them

    deps, _ = corpus_deps(corpus, isolated_data_dir)
    with sqlite_checkpointer(isolated_data_dir) as saver, pytest.raises(TextsMissing, match="no longer holds"):
        build(deps, saver).invoke(None, {"configurable": {"thread_id": "lost"}})
    code, _, err = run_cli(capsys, "resume", "lost")
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("satiate:")]
    assert len(errors) == 1 and "no longer holds" in errors[0] and "run the question again" in errors[0]


def test_a_run_resumes_in_another_process_from_the_store_its_settings_name(corpus, isolated_data_dir, tmp_path,
                                                                          capsys):
    shared = f"sqlite:///{tmp_path / 'shared-store.sqlite'}"
    interrupted_run(corpus, isolated_data_dir, "moved", store_url=shared)
    assert owned_by(isolated_data_dir, "moved") == set()  # not in the data directory's store: in the shared one
    child = subprocess.run(
        [sys.executable, "-c", "import sys; from satiate.graph.cli import main; sys.exit(main(sys.argv[1:]))",
         "resume", "moved", "--json"], capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "SATIATE_DATA_DIR": str(isolated_data_dir)})
    assert child.returncode == 0, child.stderr
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    whole = build(deps).invoke({"question": QUESTION,
                                "settings": run_settings(corpus, isolated_data_dir, store_url=shared)})
    assert json.loads(child.stdout)["answer"] == whole["answer"]  # the same answer as a run never interrupted


# --- runs users can manage --------------------------------------------------------------------------------------------
def test_list_shows_each_runs_checkpoints_and_texts(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "sized")
    code, out, err = run_cli(capsys, "list", "--json")
    assert code == 0, err
    row = json.loads(out)[0]
    store = store_of(isolated_data_dir)
    assert row["checkpoint_bytes"] > 0 and row["text_bytes"] == store.owned_text_bytes("sized") > 0
    assert row["stored_bytes"] == row["checkpoint_bytes"] + row["text_bytes"]
    code, out, _ = run_cli(capsys, "list")
    header, line = out.splitlines()
    assert header.split()[3] == "size" and " kB  " in line


def test_delete_removes_the_texts_no_other_run_uses_keeps_shared_ones_and_the_page_store(capsys, corpus,
                                                                                         isolated_data_dir):
    research(capsys, corpus, "first")
    research(capsys, corpus, "second", OTHER_QUESTION)
    first, second = owned_by(isolated_data_dir, "first"), owned_by(isolated_data_dir, "second")
    assert first & second and first - second  # some texts shared, some read by the first run only
    page = StoredPage(key="url:https://example.org/a", url="https://example.org/a", final_url="https://example.org/a",
                      outcome="read", status=200, content_type="text/html", title="A", text="a page", fetched_at=1.0)
    store_of(isolated_data_dir).put_page(page)

    code, out, err = run_cli(capsys, "delete", "first")
    assert code == 0 and out == "deleted first\n"
    assert f"deleted {len(first - second)} source text(s) no remaining run uses" in err
    left = stored_hashes(isolated_data_dir)
    assert second <= left and not (first - second) & left
    assert store_of(isolated_data_dir).page(page.key, now=2.0, ttl_s=1e9) is not None  # the page store is not texts
    code, out, err = run_cli(capsys, "show", "second", "--json")
    assert code == 0 and json.loads(out)["claims"], err


def test_prune_takes_the_texts_of_old_runs_and_of_runs_without_a_thread(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "old")
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    build(deps).invoke({"question": OTHER_QUESTION, "settings": run_settings(corpus, isolated_data_dir)})
    assert owned_by(isolated_data_dir, "") and owned_by(isolated_data_dir, "old")
    code, out, err = run_cli(capsys, "prune", "--older-than", "0s")
    assert code == 0 and "deleted old" in out, err
    assert stored_hashes(isolated_data_dir) == set() and store_of(isolated_data_dir).text_owner_ids() == set()
