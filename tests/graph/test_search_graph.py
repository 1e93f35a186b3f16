"""The search layer inside the real graph: warm-cache reruns, the visible fallback when the web is down, page
reading."""

from __future__ import annotations

import re
import uuid

import pytest
from ddgs.exceptions import DDGSException
from langgraph.checkpoint.memory import InMemorySaver

from satiate.graph.builder import RECURSION_LIMIT, build_graph
from satiate.graph.deps import engine_for, store_for
from satiate.nodes.common import Dependencies, hydrate, settings_of
from satiate.state.records import search_failed
from satiate.state.settings import Settings, resolve_settings
from satiate.tools.search.base import RawHit
from satiate.tools.search.service import SearchService, build_backend
from satiate.tools.search.web import WebBackend
from support.loopback_pages import LoopbackSite
from support.research_corpus import GENERATOR_PASSAGES

FAST = {"tier": "simple", "max_cycles": 1, "max_search_rounds": 2, "seed": 7}
QUESTION = "How do Python generators save memory?"


class CountingWeb:
    """A web stand-in: answers every query with hits whose URLs ``url_for`` makes; counts calls."""

    name = "web"
    description = "test web"

    def __init__(self, url_for) -> None:
        self.url_for = url_for
        self.calls: list[str] = []

    def search(self, query: str, max_results: int) -> list[RawHit]:
        self.calls.append(query)
        slug = re.sub(r"\W+", "-", query.lower()).strip("-")[:40]
        return [RawHit(title=f"{query} ({n})", url=self.url_for(f"{slug}-{n}"),
                       body=f"Result {n} for {query}: generators produce items lazily and keep little in memory.")
                for n in range(3)]


def run(deps: Dependencies, settings: dict) -> dict:
    app = build_graph(deps, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": RECURSION_LIMIT}
    app.invoke({"question": QUESTION, "settings": settings}, config)
    return app.get_state(config).values


def service_with(settings: Settings, web) -> SearchService:
    """The run's service with ``web`` standing in for DuckDuckGo (settings resolved with the test's data dir)."""
    backends = {name: (web if name == "web" else build_backend(name, settings))
                for name in settings.resolved_backends()}
    return SearchService(backends, retry_attempts=3, retry_initial_wait=0, retry_max_wait=0,
                         store=store_for(settings), cache_ttl_s=settings.cache_ttl_s)


def test_warm_cache_rerun_of_a_question_makes_no_backend_call(isolated_data_dir):
    overrides = {**FAST, "backends": ["web"], "url_enrich_count": 0}
    web = CountingWeb(lambda slug: f"https://example.org/{slug}")
    service = service_with(resolve_settings(overrides), web)
    deps = Dependencies(engine_for=engine_for, search_for=lambda settings: service)

    cold = run(deps, overrides)
    calls_after_cold = len(web.calls)
    warm = run(deps, overrides)

    assert calls_after_cold > 0 and len(web.calls) == calls_after_cold
    assert all(r["cached"] for r in warm["search_results"])
    assert [r["query"] for r in warm["search_results"]] == [r["query"] for r in cold["search_results"]]
    assert warm["result"]["answer"] == cold["result"]["answer"]


def test_web_down_falls_back_to_the_next_backend_visibly(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(GENERATOR_PASSAGES)
    overrides = {**FAST, "backends": ["web", "corpus"], "corpus": str(corpus)}
    settings = resolve_settings(overrides)

    class Offline:
        calls = 0

        def text(self, query, **kwargs):
            Offline.calls += 1
            raise DDGSException(DDGSException("DNSError: error resolving DNS > DNS error: no records found"))

    web = WebBackend(settings, client_factory=lambda timeout: Offline())
    state = run(Dependencies(engine_for=engine_for, search_for=lambda s: service_with(settings, web)), overrides)
    result = state["result"]

    web_records = [r for r in state["search_results"] if r["backend"] == "web"]
    assert web_records and all(search_failed(r["outcome"]) for r in web_records)
    assert result["backends_used"] == ["corpus"] and result["sources"]
    assert any(e["type"].startswith("search_failed") and "web unreachable" in e["message"] for e in result["errors"])
    assert {r["round"] for r in web_records} == {1}  # the circuit stays open: later rounds go straight to corpus
    # after three connection failures the backend failed fast: retries did not go to the network
    assert Offline.calls < len(web_records) * 3


@pytest.fixture
def site():
    with LoopbackSite() as running:
        yield running


def test_web_hits_are_read_as_pages_once_and_served_from_the_store_after(site, isolated_data_dir):
    overrides = {**FAST, "backends": ["web"], "allow_private_addresses": True, "url_enrich_count": 2}
    web = CountingWeb(lambda slug: site.url(f"/article/{slug}"))
    service = service_with(resolve_settings(overrides), web)
    deps = Dependencies(engine_for=engine_for, search_for=lambda settings: service)

    state = run(deps, overrides)
    pages = [s for s in state["sources"].values() if s["read_kind"] == "page"]
    pages, _ = hydrate(store_for, settings_of(state), pages, [])  # the state holds references; the text is in the store
    assert pages and all("study measured how generators" in s["text"] for s in pages)
    assert state["counters"]["pages_read"] == len(pages)
    assert len(pages) <= overrides["url_enrich_count"] * len({r["round"] for r in state["search_results"]})
    fetched = sum(count for path, count in site.hits.items() if path.startswith("/article/"))
    assert fetched == len(pages)

    again = run(deps, overrides)
    assert sum(count for path, count in site.hits.items() if path.startswith("/article/")) == fetched
    assert again["counters"]["pages_from_store"] == again["counters"]["pages_read"] == len(pages)
