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
