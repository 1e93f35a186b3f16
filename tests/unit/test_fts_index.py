"""The FTS5 index file is shared: many connections opening and syncing a new index at once must all succeed."""

from __future__ import annotations

import subprocess
import sys
import threading

from satiate.tools.search.local_corpus import LocalCorpusBackend
from support.research_corpus import PASSAGES


def test_threads_opening_one_new_index_together_all_succeed(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES * 1)

    def open_index(barrier, data_dir, results) -> None:
        barrier.wait()
        try:
            backend = LocalCorpusBackend(corpus, data_dir)
            results.append(backend.index.count())
        except Exception as exc:  # recorded, so the assertion names it
            results.append(exc)

    for attempt in range(5):  # a fresh index each time: the race is in creating and filling it
        data_dir = isolated_data_dir / f"attempt-{attempt}"
        barrier = threading.Barrier(8)
        results: list[object] = []
        threads = [threading.Thread(target=open_index, args=(barrier, data_dir, results)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == [len(PASSAGES)] * 8, results
        hits = LocalCorpusBackend(corpus, data_dir).search("Harbor Works founded", 3)
        assert hits and hits[0].doc_id == "harbor"


def test_two_processes_building_one_index_agree(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(PASSAGES)
    script = ("import sys; from pathlib import Path; from satiate.tools.search.local_corpus import LocalCorpusBackend;"
              "print(LocalCorpusBackend(sys.argv[1], Path(sys.argv[2])).index.count())")
    runs = [subprocess.Popen([sys.executable, "-c", script, str(corpus), str(isolated_data_dir)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    assert [int(out.strip()) for out, _ in outputs] == [len(PASSAGES)] * 2


def test_a_query_names_a_titles_subject_only_as_a_whole_word_or_dotted_name():
    from satiate.tools.search.fts_index import names_subject

    assert names_subject("What does the zip function do?", "Python built-in: zip")
    assert names_subject("What does functools.lru_cache do?", "Python stdlib: functools.lru_cache")
    assert not names_subject("How do I unzip an archive?", "Python built-in: zip")
    assert not names_subject("What does functools.lru_cache do?", "Python stdlib: functools")  # only a part of it


def test_one_long_line_is_cut_into_pieces_of_about_the_limit_that_keep_every_word():
    from satiate.tools.search.fts_index import chunk_text

    words = [f"Velmora{n % 97} harbor stone" for n in range(4000)]
    line = ". ".join(words) + "."
    pieces = chunk_text(line, limit=300)
    assert len(pieces) > 100
    assert all(0 < len(piece) <= 300 for piece in pieces)
    assert " ".join(pieces).split() == line.split()


def _passages(count: int, stop_after: int | None = None):
    from satiate.tools.search.fts_index import Passage

    for n in range(count):
        if stop_after is not None and n == stop_after:
            raise KeyboardInterrupt  # the user pressed Ctrl-C in the middle of a first index
        yield Passage(f"ledger:{n}", f"Ledger {n}", "", f"Entry {n} of the Quillby ledger records tide{n} salt.")


def test_a_stopped_first_index_keeps_its_committed_batches_and_the_next_sync_adds_only_the_rest(
        tmp_path, monkeypatch):
    import pytest

    from satiate.tools.search import fts_index

    monkeypatch.setattr(fts_index, "COMMIT_EVERY_PASSAGES", 100)
    path = tmp_path / "ledger.sqlite"
    index = fts_index.FtsIndex(path, report=lambda line: None)
    with pytest.raises(KeyboardInterrupt):
        index.sync({"ledger.jsonl": ("v1", lambda: _passages(1000, stop_after=450))})
    index.close()
    kept = fts_index.FtsIndex(path, report=lambda line: None)
    assert kept.count() == 400  # four committed batches survive; the fifth was rolled back
    loaded: list[int] = []

    def loader():
        for passage in _passages(1000):
            loaded.append(1)
            yield passage

    assert kept.sync({"ledger.jsonl": ("v1", loader)}) == 1
    assert kept.count() == 1000
    assert [hit.doc_id for hit in kept.search("tide0", 5)] == ["ledger:0"]  # no passage indexed twice
    assert kept.sync({"ledger.jsonl": ("v1", loader)}) == 0  # complete now: nothing is read again
    assert len(loaded) == 1000


def test_a_long_index_reports_its_progress(tmp_path, monkeypatch):
    from satiate.tools.search import fts_index

    monkeypatch.setattr(fts_index, "COMMIT_EVERY_PASSAGES", 100)
    monkeypatch.setattr(fts_index, "PROGRESS_AFTER_S", 0.0)
    lines: list[str] = []
    index = fts_index.FtsIndex(tmp_path / "ledger.sqlite", report=lines.append)
    index.sync({"ledger.jsonl": ("v1", lambda: _passages(300))})
    assert lines[0].startswith("indexing ledger.sqlite: 100 passages, 0 of 1 files")
    assert lines[-1].startswith("indexed ledger.sqlite: 300 passages from 1 files")
