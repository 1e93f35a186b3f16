"""The composition root (graph/deps.py): one object per distinct value of the settings fields its build read, built
once even when threads ask at the same moment, and everything forgotten and closed by one ``reset``."""

from __future__ import annotations

import sqlite3
import threading
import time
from types import SimpleNamespace

import httpx
import pytest

from satiate.graph.deps import (
    SettingsMemo,
    complete,
    engine_for,
    metrics_for,
    reader_for,
    reset,
    search_service_for,
    store_for,
)
from satiate.nodes.common import Dependencies, MissingDependency, view_of
from satiate.state.settings import Settings


def built_from(*fields: str):
    """A memo whose build reads exactly ``fields`` (and nothing else), and the list of settings it was built with."""
    builds: list[dict] = []

    def build(settings: Settings) -> SimpleNamespace:
        values = {name: getattr(settings, name) for name in fields}
        builds.append(values)
        return SimpleNamespace(**values)

    return SettingsMemo(build), builds


# --- keys are the fields a build read ---------------------------------------------------------------------------------
def test_a_field_the_build_read_changes_the_object_and_one_it_did_not_read_does_not():
    memo, builds = built_from("fetch_timeout_s")  # a field listed in no key anywhere: only the build knows it reads it
    first = memo(Settings(fetch_timeout_s=5))
    assert memo(Settings(fetch_timeout_s=5, seed=3, web_timeout_s=30)) is first  # unread fields: the same object
    changed = memo(Settings(fetch_timeout_s=6))
    assert changed is not first and changed.fetch_timeout_s == 6
    assert memo(Settings(fetch_timeout_s=5)) is first  # both kept
    assert len(builds) == 2


def test_fields_read_through_properties_and_methods_are_keys_too():
    budget = SettingsMemo(lambda s: s.budget.max_queries_per_round)  # a property over tier and the overrides
    backends = SettingsMemo(lambda s: SimpleNamespace(chain=s.resolved_backends()))
    assert budget(Settings(tier="simple")) != budget(Settings(tier="deep"))
    auto = backends(Settings(backends=["auto"], corpus="/c", offline=True))
    assert backends(Settings(backends=["auto"], corpus="/c", offline=True, seed=4)) is auto
    assert backends(Settings(backends=["auto"], corpus=None, offline=True)) is not auto  # 'auto' reads the corpus
    explicit = backends(Settings(backends=["builtin"], corpus="/c"))
    assert explicit is not auto
    assert backends(Settings(backends=["builtin"], corpus=None)) is explicit  # an explicit chain does not


def test_reading_the_whole_settings_reads_every_field():
    memo = SettingsMemo(lambda s: SimpleNamespace(dumped=s.model_dump()))
    first = memo(Settings())
    assert memo(Settings()) is first
    assert memo(Settings(max_question_chars=123)) is not first  # model_dump read it, as it reads everything
    copied = SettingsMemo(lambda s: SimpleNamespace(copy=s.model_copy()))
    assert copied(Settings(seed=1)) is not copied(Settings(seed=2))


@pytest.mark.parametrize("inner_built_first", [False, True])
def test_a_nested_build_adds_the_fields_it_read_to_its_callers(inner_built_first):
    inner, _ = built_from("store_url")
    outer = SettingsMemo(lambda s: SimpleNamespace(inner=inner(s), seed=s.seed))
    a = Settings(store_url="sqlite:///a.sqlite", seed=1)
    if inner_built_first:  # the outer's build finds it kept, and must still depend on store_url
        inner(a)
    first = outer(a)
    other = outer(Settings(store_url="sqlite:///b.sqlite", seed=1))
    assert other is not first and other.inner.store_url == "sqlite:///b.sqlite"
    assert outer(Settings(store_url="sqlite:///a.sqlite", seed=1, max_claims=3)) is first


def test_a_failed_build_is_not_kept_and_a_stale_object_is_built_again():
    attempts = []

    def flaky(settings: Settings) -> object:
        attempts.append(settings.llm)
        if len(attempts) == 1:
            raise RuntimeError("model server down")
        return object()

    memo = SettingsMemo(flaky)
    with pytest.raises(RuntimeError):
        memo(Settings())
    kept = memo(Settings())
    assert memo(Settings()) is kept and len(attempts) == 2

    now = [0.0]
    aging = SettingsMemo(lambda s: object(), stale=lambda value, age_s: age_s >= 60, clock=lambda: now[0])
    young = aging(Settings())
    now[0] = 59.0
    assert aging(Settings()) is young
    now[0] = 60.0
    assert aging(Settings()) is not young


# --- threads ----------------------------------------------------------------------------------------------------------
def test_threads_asking_at_once_share_one_build_per_distinct_settings():
    calls: list[int] = []
    start = threading.Barrier(16)

    def slow(settings: Settings) -> object:
        calls.append(settings.max_claims)
        time.sleep(0.05)  # a build that takes a while: every thread arrives while it runs
        return object()

    memo = SettingsMemo(slow)
    got: list[object] = [None] * 16

    def ask(index: int) -> None:
        start.wait()
        got[index] = memo(Settings(max_claims=4 + index % 2))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(calls) == [4, 5]
    assert len({id(value) for value in got[0::2]}) == 1 and len({id(value) for value in got[1::2]}) == 1
    assert got[0] is not got[1]


# --- the real factories -----------------------------------------------------------------------------------------------
def test_the_search_service_depends_on_web_settings_only_when_it_builds_the_web_backend(write_jsonl, tmp_path):
    corpus = write_jsonl([{"doc_id": "d1", "title": "Generators", "text": "A generator yields values lazily."}])
    local = dict(corpus=str(corpus), backends=["corpus"], data_dir=str(tmp_path))
    service = search_service_for(Settings(**local))
    assert search_service_for(Settings(**local, web_timeout_s=30, seed=5)) is service
    assert search_service_for(Settings(**local, cache_ttl_s=0)) is not service  # no cache: no store

    web = dict(backends=["web"], offline=False, data_dir=str(tmp_path))
    with_web = search_service_for(Settings(**web))
    assert search_service_for(Settings(**web, web_timeout_s=30)) is not with_web
    assert search_service_for(Settings(**web, web_engine="duckduckgo")) is not with_web
    assert search_service_for(Settings(**web, seed=5)) is with_web


def test_stores_are_one_per_url_and_readers_follow_their_fetch_limits(tmp_path):
    here = Settings(data_dir=str(tmp_path / "a"))
    store = store_for(here)
    assert store_for(Settings(data_dir=str(tmp_path / "a"), seed=9, fetch_timeout_s=3)) is store
    assert store_for(Settings(data_dir=str(tmp_path / "b"))) is not store
    reader = reader_for(here)
    assert reader.store is store
    assert reader_for(Settings(data_dir=str(tmp_path / "a"), seed=9)) is reader
    assert reader_for(Settings(data_dir=str(tmp_path / "a"), fetch_timeout_s=3)) is not reader
    assert reader_for(Settings(data_dir=str(tmp_path / "a"), page_max_chars=5000)) is not reader
    assert engine_for(Settings(llm="none")) is engine_for(Settings(llm="none", num_ctx=4096, seed=2))


def test_reset_forgets_and_closes_everything_it_built(write_jsonl, tmp_path):
    corpus = write_jsonl([{"doc_id": "d1", "title": "Generators", "text": "A generator yields values lazily."}])
    settings = Settings(corpus=str(corpus), backends=["corpus"], data_dir=str(tmp_path), metrics_port=0)
    store, service, reader = store_for(settings), search_service_for(settings), reader_for(settings)
    exporter = metrics_for(settings)
    assert exporter is not None and metrics_for(Settings(metrics_port=None)) is None
    url = f"http://127.0.0.1:{exporter.port}/metrics"
    assert httpx.get(url, timeout=5).status_code == 200
    assert service.run("corpus", "generator", 3).outcome == "ok"
    pool = store.engine.pool

    reset()
    assert store_for(settings) is not store and search_service_for(settings) is not service
    assert reader_for(settings) is not reader
    assert store.engine.pool is not pool  # disposed: its connections closed
    with pytest.raises(sqlite3.ProgrammingError):  # the old service's index was closed
        service.backends["corpus"].index.search("generator", 3)
    assert reader.fetcher.client.is_closed
    with pytest.raises(httpx.TransportError):  # the exporter stopped serving
        httpx.get(url, timeout=2)


def test_memo_clear_disposes_each_object_once():
    disposed: list[object] = []
    memo = SettingsMemo(lambda s: SimpleNamespace(seed=s.seed), dispose=disposed.append)
    kept = [memo(Settings(seed=1)), memo(Settings(seed=2))]
    memo.clear()
    assert [id(value) for value in disposed] == [id(value) for value in kept] and len(memo) == 0
    assert all(memo(Settings(seed=1)) is not value for value in kept)


# --- Dependencies -----------------------------------------------------------------------------------------------------
def test_dependencies_left_out_come_from_the_root_and_a_node_says_what_is_missing(tmp_path):
    bare = Dependencies(engine_for=engine_for, search_for=search_service_for)
    full = complete(bare)
    assert full.store_for is store_for and full.reader_for is reader_for and full.metrics_for is metrics_for
    mine = store_for(Settings(data_dir=str(tmp_path / "mine")))
    own = Dependencies(engine_for=engine_for, search_for=search_service_for, store_for=lambda s: mine)
    assert complete(own).store_for is own.store_for
    settings = Settings(data_dir=str(tmp_path)).model_dump(mode="json")
    state = {"question": "q", "resolved_settings": settings,
             "sources": {"k": {"id": "S1", "key": "k", "text_hash": "0" * 64}}, "search_results": []}
    with pytest.raises(MissingDependency, match="store_for"):
        view_of(state, bare.store)  # type: ignore[arg-type]


def test_a_taken_metrics_port_leaves_the_run_without_metrics_instead_of_failing_it(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert metrics_for(Settings(data_dir=str(tmp_path), metrics_port=port)) is None
