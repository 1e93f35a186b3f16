"""The SQLAlchemy store: TTL by injected time, upserts, maintenance, and two real processes sharing one SQLite file."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from satiate.graph.cli import main
from satiate.state.settings import Settings, SettingsError
from satiate.tools.store import Store, StoredPage, default_store_url, store_url_for

DAY = 86_400.0


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = Store(default_store_url(tmp_path))
    yield opened
    opened.dispose()


def page(key: str, fetched_at: float, text: str = "body text") -> StoredPage:
    return StoredPage(key=key, url=f"https://{key}", final_url=f"https://{key}", outcome="read", status=200,
                      content_type="text/html", title="t", text=text, fetched_at=fetched_at)


def test_default_store_is_a_sqlite_file_in_the_data_dir(tmp_path: Path):
    settings = Settings(data_dir=str(tmp_path))
    assert store_url_for(settings) == f"sqlite:///{tmp_path}/store.sqlite"
    assert store_url_for(Settings(data_dir=str(tmp_path), store_url="postgresql+psycopg://db/x")).startswith("postgresql")


def test_sqlite_store_runs_in_wal_mode(store: Store):
    store.put_search("k", backend="web", query="q", max_results=5, hits=[], now=0.0)
    assert sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_search_entry_is_fresh_until_the_ttl_and_expired_from_then(store: Store):
    hits = [{"title": "T", "url": "https://a.example/x", "body": "b"}]
    store.put_search("k1", backend="web:auto", query="q", max_results=5, hits=hits, now=1000.0)
    assert store.cached_search("k1", now=1000.0 + DAY - 1, ttl_s=DAY) == hits
    assert store.cached_search("k1", now=1000.0 + DAY, ttl_s=DAY) is None
    assert store.cached_search("missing", now=1000.0, ttl_s=DAY) is None


def test_writing_a_key_again_replaces_it_and_restarts_its_ttl(store: Store):
    store.put_search("k", backend="web", query="q", max_results=5, hits=[{"title": "old"}], now=0.0)
    store.put_search("k", backend="web", query="q", max_results=5, hits=[{"title": "new"}], now=DAY)
    assert store.cached_search("k", now=DAY + 10, ttl_s=DAY) == [{"title": "new"}]
    assert store.stats(now=DAY, ttl_s=DAY)["search"].rows == 1


def test_page_store_round_trip_and_ttl(store: Store):
    store.put_page(page("a.example/x", 500.0, "the read text"))
    found = store.page("a.example/x", now=600.0, ttl_s=DAY)
    assert found == page("a.example/x", 500.0, "the read text")
    assert store.page("a.example/x", now=500.0 + DAY, ttl_s=DAY) is None


def test_stats_prune_and_clear(store: Store):
    for n in range(3):
        store.put_search(f"old{n}", backend="web", query="q", max_results=5, hits=[], now=0.0)
    store.put_search("new", backend="web", query="q", max_results=5, hits=[], now=2 * DAY)
    store.put_page(page("old", 0.0))
    store.put_page(page("new", 2 * DAY))
    stats = store.stats(now=2 * DAY + 1, ttl_s=DAY)
    assert (stats["search"].rows, stats["search"].fresh, stats["search"].expired) == (4, 1, 3)
    assert (stats["pages"].oldest, stats["pages"].newest) == (0.0, 2 * DAY)
    assert store.prune(now=2 * DAY + 1, ttl_s=DAY) == {"search": 3, "pages": 1}
    assert store.cached_search("new", now=2 * DAY + 1, ttl_s=DAY) == []
    assert store.clear(("pages",)) == {"pages": 1}
    assert store.stats(now=2 * DAY, ttl_s=DAY)["search"].rows == 1


def test_unusable_store_url_is_a_settings_error(tmp_path: Path):
    with pytest.raises(SettingsError, match="store_url"):
        Store("nosuchdialect://somewhere/db")
    with pytest.raises(SettingsError, match="invalid store_url"):
        Store("not a url at all")


WRITER = textwrap.dedent("""
    import sys, time
    from satiate.tools.store import Store, StoredPage
    url, name, count, start_at = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    store = Store(url)
    while time.time() < start_at:  # both processes begin writing at the same moment
        time.sleep(0.005)
    for n in range(count):
        store.put_search(f"{name}-{n}", backend="web", query=f"q{n}", max_results=5,
                         hits=[{"title": name, "n": n}], now=float(n))
        store.put_search(f"shared-{n}", backend="web", query="shared", max_results=5, hits=[{"title": name}],
                         now=float(n))
        store.put_page(StoredPage(key=f"{name}-page-{n}", url="u", final_url="u", outcome="read", status=200,
                                  content_type="text/html", title=name, text="x" * 2000, fetched_at=float(n)))
    print("done", name)
""")


def test_two_processes_writing_one_sqlite_store_lose_nothing(tmp_path: Path):
    url = default_store_url(tmp_path)
    count = 150
    start_at = time.time() + 1.5  # after both interpreters have imported satiate
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, url, name, str(count), str(start_at)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name in ("alpha", "beta")]
    results = [writer.communicate(timeout=60) for writer in writers]
    assert [w.returncode for w in writers] == [0, 0], [r[1][-2000:] for r in results]

    connection = sqlite3.connect(tmp_path / "store.sqlite")
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    keys = {row[0] for row in connection.execute("SELECT key FROM search_cache")}
    for name in ("alpha", "beta"):
        assert {f"{name}-{n}" for n in range(count)} <= keys
    assert {f"shared-{n}" for n in range(count)} <= keys
    assert len(keys) == 3 * count
    pages = connection.execute("SELECT count(*) FROM page_store").fetchone()[0]
    assert pages == 2 * count
    shared = [json.loads(row[0])[0]["title"] for row in connection.execute(
        "SELECT hits FROM search_cache WHERE key LIKE 'shared-%'")]
    assert set(shared) <= {"alpha", "beta"} and len(shared) == count


def test_cache_command_stats_prune_and_clear(tmp_path: Path, capsys):
    store = Store(default_store_url(tmp_path))
    store.put_search("stale", backend="web", query="q", max_results=5, hits=[], now=0.0)
    store.put_search("fresh", backend="web", query="q", max_results=5, hits=[], now=time.time())
    store.put_page(page("p", 0.0))
    store.dispose()
    args = ["--data-dir", str(tmp_path)]

    assert main(["cache", "stats", *args]) == 0
    out = capsys.readouterr().out
    assert "search" in out and "pages" in out and "size on disk" in out

    assert main(["cache", "prune", *args]) == 0
    assert "pruned 1 expired search rows, 1 expired pages rows" in capsys.readouterr().out

    assert main(["cache", "clear", "--table", "search", *args]) == 0
    assert "cleared 1 search rows" in capsys.readouterr().out
    check = Store(default_store_url(tmp_path))
    assert check.stats(now=0.0, ttl_s=DAY)["search"].rows == 0
    check.dispose()


def texts_row(store: Store, text_hash: str) -> tuple[float, list[tuple[str, float]]]:
    """A stored text's used_at and its owners with the time each kept it."""
    with store.engine.connect() as connection:
        used_at = connection.exec_driver_sql("SELECT used_at FROM source_texts WHERE hash = ?", (text_hash,)).scalar()
        owners = connection.exec_driver_sql("SELECT owner, created_at FROM text_owners WHERE hash = ? ORDER BY owner",
                                            (text_hash,)).all()
    return used_at, [tuple(row) for row in owners]


def test_a_text_is_stored_once_and_each_run_that_keeps_it_is_recorded(store: Store):
    store.keep_texts("run-a", {"h1": "a passage"}, now=10.0)
    store.keep_texts("run-b", {"h1": "a passage"}, now=20.0)
    # SQLite writes one transaction at a time, so a second keep leaves the stored text as it is (no rewrite)
    assert texts_row(store, "h1") == (10.0, [("run-a", 10.0), ("run-b", 20.0)])


def test_a_run_without_a_thread_redates_its_texts_at_most_once_an_hour(store: Store):
    from satiate.tools.store import REDATE_S

    store.keep_texts("", {"h1": "a passage"}, now=1000.0)
    store.keep_texts("", {"h1": "a passage"}, now=1000.0 + REDATE_S / 2)  # recently dated: no write
    assert texts_row(store, "h1")[1] == [("", 1000.0)]
    store.keep_texts("", {"h1": "a passage"}, now=1000.0 + REDATE_S)  # older than the window: dated again for prune
    assert texts_row(store, "h1")[1] == [("", 1000.0 + REDATE_S)]


def test_a_text_released_by_its_last_run_is_stored_again_by_the_next_keep(store: Store):
    store.keep_texts("run-a", {"h1": "a passage"}, now=10.0)
    assert store.release_texts("run-a", now=11.0) == 1
    store.keep_texts("run-b", {"h1": "a passage"}, now=12.0)
    assert store.texts({"h1"}) == {"h1": "a passage"}
    assert texts_row(store, "h1") == (12.0, [("run-b", 12.0)])
