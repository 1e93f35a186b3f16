"""``satiate list``, ``delete`` and ``prune`` on a PostgreSQL store (a throw-away local cluster, loopback only)."""

from __future__ import annotations

import json

from test_postgres import postgres_url  # noqa: F401  (the module-scoped cluster fixture)

from support.graph_support import run_cli
from support.research_corpus import PASSAGES, QUESTION


def test_list_delete_and_prune_on_postgres(capsys, write_jsonl, postgres_url, monkeypatch):  # noqa: F811
    corpus = write_jsonl(PASSAGES)
    monkeypatch.setenv("SATIATE_CHECKPOINT_URL", postgres_url)
    for thread_id in ("pg-keep", "pg-drop"):
        code, _, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus",
                               "--thread-id", thread_id, "--max-results-per-query", "2", "--json")
        assert code == 0, err

    code, out, _ = run_cli(capsys, "list", "--json")
    rows = {row["thread_id"]: row for row in json.loads(out)}
    assert {"pg-keep", "pg-drop"} <= set(rows) and rows["pg-drop"]["status"] == "finished"
    assert rows["pg-drop"]["checkpoint_bytes"] > 0 and rows["pg-drop"]["text_bytes"] > 0  # measured by PostgreSQL
    assert rows["pg-drop"]["started"] >= rows["pg-keep"]["started"]

    code, out, err = run_cli(capsys, "delete", "pg-drop", "--vacuum")
    assert code == 0 and out == "deleted pg-drop\n" and "SQLite store only" in err
    code, out, _ = run_cli(capsys, "list", "--json")
    assert "pg-drop" not in {row["thread_id"] for row in json.loads(out)}
    code, _, err = run_cli(capsys, "delete", "pg-drop")
    assert code == 2 and "unknown thread id 'pg-drop'" in err

    code, out, err = run_cli(capsys, "prune", "--older-than", "0s", "--dry-run")
    assert code == 0 and "would delete pg-keep" in out


def test_the_text_store_on_postgres_keeps_each_text_once_and_releases_it_with_its_last_run(postgres_url):  # noqa: F811
    import time

    from satiate.tools.store import Store

    store = Store(postgres_url.replace("postgresql://", "postgresql+psycopg://", 1))
    now = time.time()
    store.keep_texts("run-a", {"h-shared": "shared text", "h-a": "only a"}, now=now)
    store.keep_texts("run-b", {"h-shared": "shared text"}, now=now)
    store.drop_cached_texts()  # read from the server, not this process's copies
    assert store.texts(["h-shared", "h-a", "h-missing"]) == {"h-shared": "shared text", "h-a": "only a"}
    assert store.owned_text_bytes("run-a") == len("shared text") + len("only a")
    assert store.release_texts("run-a", now=time.time()) == 1  # the shared text stays for run-b
    store.drop_cached_texts()
    assert set(store.texts(["h-shared", "h-a"])) == {"h-shared"}
    store.dispose()
