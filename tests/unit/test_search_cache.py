"""The search cache in front of the backends: keys, TTL (injected time), what is and is not cached."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from satiate.graph.deps import search_service_for
from satiate.state.settings import Settings
from satiate.tools.search.base import RawHit, SearchFailure
from satiate.tools.search.service import SearchService, search_cache_key
from satiate.tools.store import Store, default_store_url

DAY = 86_400.0


class CountingBackend:
    """A real backend object that answers from a dict and counts its calls; raises on demand."""

    description = "test backend"

    def __init__(self, name: str = "web", fail_with: SearchFailure | None = None, cache_scope: str | None = None):
        self.name = name
        self.calls: list[str] = []
        self.fail_with = fail_with
        if cache_scope:
            self.cache_scope = cache_scope

    def search(self, query: str, max_results: int) -> list[RawHit]:
        self.calls.append(query)
        if self.fail_with:
            raise self.fail_with
        return [RawHit(title=f"{query} {n}", url=f"https://example.org/{n}", body=f"about {query}")
                for n in range(max_results)]


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = Store(default_store_url(tmp_path))
    yield opened
    opened.dispose()


def cached_service(store: Store, *backends: CountingBackend, clock: Clock | None = None) -> SearchService:
    return SearchService({b.name: b for b in backends}, retry_attempts=2, retry_initial_wait=0, retry_max_wait=0,
                         store=store, cache_ttl_s=DAY, clock=clock or Clock())


def test_second_search_is_served_from_the_cache_without_a_backend_call(store):
    backend = CountingBackend()
    service = cached_service(store, backend)
    first = service.run("web", "python generators", 3)
    second = service.run("web", "python generators", 3)
    assert (first.cached, second.cached) == (False, True)
    assert second.outcome == "ok" and second.attempts == 0 and second.hits == first.hits
    assert backend.calls == ["python generators"]


def test_entry_expires_at_the_ttl(store):
    clock = Clock()
    backend = CountingBackend()
    service = cached_service(store, backend, clock=clock)
    service.run("web", "q", 3)
    clock.now += DAY - 1
    assert service.run("web", "q", 3).cached
    clock.now += 1
    assert not service.run("web", "q", 3).cached and len(backend.calls) == 2
    clock.now += 10
    assert service.run("web", "q", 3).cached  # refreshed by the live search
    assert len(backend.calls) == 2


def test_key_normalises_case_and_spacing_but_keeps_words_count_and_scope():
    key = search_cache_key("web:auto", "Python  Generators ", 5)
    assert key == search_cache_key("web:auto", "python generators", 5)
    assert key != search_cache_key("web:auto", "generators python", 5)  # word order changes a web answer
    assert key != search_cache_key("web:auto", "python generators", 6)
    assert key != search_cache_key("web:duckduckgo", "python generators", 5)


def test_failures_are_never_cached(store):
    backend = CountingBackend(fail_with=SearchFailure("rate limited", retryable=True))
    service = cached_service(store, backend)
    assert service.run("web", "q", 3).outcome == "failed_retryable"
    backend.fail_with = None
    attempt = service.run("web", "q", 3)
    assert attempt.outcome == "ok" and not attempt.cached and len(backend.calls) == 3


def test_an_empty_answer_is_cached_as_empty(store):
    class Nothing(CountingBackend):
        def search(self, query, max_results):
            self.calls.append(query)
            return []

    backend = Nothing()
    service = cached_service(store, backend)
    service.run("web", "q", 3)
    again = service.run("web", "q", 3)
    assert again.cached and again.outcome == "empty" and len(backend.calls) == 1


def test_backends_with_different_scopes_do_not_share_entries(store):
    auto, ddg = CountingBackend("web", cache_scope="web:auto"), CountingBackend("web2", cache_scope="web:duckduckgo")
    service = cached_service(store, auto, ddg)
    service.run("web", "q", 3)
    assert not service.run("web2", "q", 3).cached


def test_cache_is_shared_through_the_store_between_services(store):
    one, two = CountingBackend(), CountingBackend()
    cached_service(store, one).run("web", "q", 3)
    assert cached_service(store, two).run("web", "q", 3).cached and two.calls == []


def test_a_broken_cache_costs_speed_not_the_search(store):
    backend = CountingBackend()
    service = cached_service(store, backend)
    connection = sqlite3.connect(store.path)
    connection.execute("DROP TABLE search_cache")
    connection.commit()
    attempt = service.run("web", "q", 3)
    assert attempt.outcome == "ok" and len(attempt.hits) == 3 and not attempt.cached
    assert attempt.cache_error and "cache read failed" in attempt.cache_error


def test_local_corpora_are_searched_live_and_the_default_service_caches_web(write_jsonl, tmp_path):
    corpus = write_jsonl([{"doc_id": "d1", "title": "Generators", "text": "A generator yields values lazily."}])
    settings = Settings(corpus=str(corpus), backends=["corpus"], data_dir=str(tmp_path / "data"))
    service = search_service_for(settings)
    assert service.store is not None and not service.caches("corpus")
    service.run("corpus", "generator", 3)
    assert service.store.stats(now=2e9, ttl_s=DAY)["search"].rows == 0

    uncached = search_service_for(Settings(corpus=str(corpus), backends=["corpus"], cache_ttl_s=0,
                                           data_dir=str(tmp_path / "data")))
    assert uncached.store is None
