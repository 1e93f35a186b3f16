"""Gated page reading (design §6) against a real loopback server and a real store."""

from __future__ import annotations

from pathlib import Path

import pytest

from satiate.engine.canonical import canonical_key
from satiate.state.records import Hit
from satiate.state.settings import Settings
from satiate.tools.fetch import AddressPolicy, FetchLimits, PageFetcher
from satiate.tools.reader import PageReader, gate_by_overlap, read_web_hits
from satiate.tools.store import Store, default_store_url
from support.loopback_pages import LoopbackSite

DAY = 86_400.0
LONG_SNIPPET = "A long search snippet about lazy generator pipelines and memory use in Python programs. " * 3
KNOWLEDGE = "generators yield values lazily one at a time"


@pytest.fixture(scope="module")
def site():
    with LoopbackSite() as running:
        yield running


class Clock:
    def __init__(self) -> None:
        self.now = 5_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(default_store_url(tmp_path))
    yield opened
    opened.dispose()


@pytest.fixture
def reader(store):
    fetcher = PageFetcher(FetchLimits(timeout_s=2.0), AddressPolicy(allow_private=True))
    yield PageReader(fetcher, store, DAY, clock=Clock())
    fetcher.close()


def hit(url: str, body: str = "new words entirely unrelated", rank: int = 1) -> Hit:
    return Hit(title=url.rsplit("/", 1)[-1], url=url, body=body, key=canonical_key(url), backend="web", rank=rank)


def settings(**overrides) -> Settings:
    return Settings(**{"url_enrich_count": 3, "enrich_max_fetches": 6, **overrides})


def test_gate_skips_snippets_that_overlap_the_knowledge_state_more_than_the_limit():
    known = hit("https://a.example/known", "generators yield values lazily")  # 4/4 words known
    half = hit("https://a.example/half", "generators yield brand new")  # 2/4 known
    fresh = hit("https://a.example/fresh", "completely different vocabulary")
    candidates, skips = gate_by_overlap([known, half, fresh], KNOWLEDGE, 0.6)
    assert [h["url"] for h, _ in candidates] == [half["url"], fresh["url"]]
    assert [(s.url, s.overlap, s.reason) for s in skips] == [(known["url"], 1.0, "overlap")]
    assert [overlap for _, overlap in candidates] == [0.5, 0.0]
    at_limit, _ = gate_by_overlap([half], KNOWLEDGE, 0.5)
    assert len(at_limit) == 1  # "more than" the limit is skipped; at the limit is read


def test_pages_are_read_up_to_the_count_in_result_order_and_a_snippet_alone_is_never_a_source(site, reader):
    hits = [hit(site.url(f"/article/r{n}"), LONG_SNIPPET if n == 3 else "short", n) for n in range(4)]
    report = read_web_hits(hits, "", settings(url_enrich_count=2), reader)
    assert [p.url for p in report.pages] == [hits[0]["url"], hits[1]["url"]]
    assert [report.texts[h["key"]].read_kind for h in hits[:2]] == ["page", "page"]
    assert "r0 study measured" in report.texts[hits[0]["key"]].text
    # not read (over the round's budget): a lead only, even with a snippet longer than min_source_chars
    assert hits[2]["key"] not in report.texts and hits[3]["key"] not in report.texts
    assert [(s.url, s.reason) for s in report.skips] == [(hits[2]["url"], "budget"), (hits[3]["url"], "budget")]
    assert report.counters() == {"pages_fetched": 2, "pages_read": 2, "enrich_skipped_budget": 2}


def test_unreadable_pages_do_not_use_up_the_budget_and_are_not_sources(site, reader):
    hits = [hit(site.url("/missing"), LONG_SNIPPET), hit(site.url("/thin"), LONG_SNIPPET),
            hit(site.url("/article/u1")), hit(site.url("/article/u2"))]
    report = read_web_hits(hits, "", settings(url_enrich_count=2), reader)
    assert [p.outcome for p in report.pages] == ["http_error", "thin", "read", "read"]
    # a 404 or a thin page is not a source, even with a long snippet: we looked and found nothing to read
    assert set(report.texts) == {hits[2]["key"], hits[3]["key"]}
    assert report.counters() == {"pages_fetched": 4, "pages_read": 2, "pages_unreadable": 2}


def test_fetch_attempts_are_capped_so_dead_links_cannot_stall_a_round(site, reader):
    hits = [hit(site.url(f"/gone-{n}")) for n in range(5)]
    before = sum(site.hits[f"/gone-{n}"] for n in range(5))
    report = read_web_hits(hits, "", settings(url_enrich_count=2, enrich_max_fetches=3), reader)
    assert sum(site.hits[f"/gone-{n}"] for n in range(5)) - before == 3
    assert [s.reason for s in report.skips] == ["budget", "budget"]


def test_overlapping_snippets_are_skipped_and_never_fetched(site, reader):
    known = hit(site.url("/article/known"), "generators yield values lazily")
    report = read_web_hits([known], KNOWLEDGE, settings(), reader)
    assert report.pages == [] and site.hits["/article/known"] == 0
    assert [(s.reason, s.overlap) for s in report.skips] == [("overlap", 1.0)]


def test_a_page_is_fetched_once_within_the_ttl_and_again_after_it(site, reader):
    target = hit(site.url("/article/once"))
    first = read_web_hits([target], "", settings(), reader)
    second = read_web_hits([target], "", settings(), reader)
    assert site.hits["/article/once"] == 1
    assert second.pages[0].from_store and second.texts == first.texts
    assert second.counters() == {"pages_read": 1, "pages_from_store": 1}
    reader.clock.now += DAY
    read_web_hits([target], "", settings(), reader)
    assert site.hits["/article/once"] == 2


def test_a_404_is_remembered_but_a_server_error_is_tried_again(site, reader):
    missing = site.add("/remembered-404", "<html><body>gone</body></html>", status=404)
    broken = site.add("/retried-500", "<html><body>oops</body></html>", status=500)
    for _ in range(2):
        read_web_hits([hit(missing), hit(broken)], "", settings(), reader)
    assert site.hits["/remembered-404"] == 1 and site.hits["/retried-500"] == 2


def test_the_store_is_shared_by_readers_of_different_workers(site, store):
    url = site.url("/article/shared")
    for _ in range(2):  # two readers = two workers with their own connection pools, one store
        fetcher = PageFetcher(FetchLimits(timeout_s=2.0), AddressPolicy(allow_private=True))
        read_web_hits([hit(url)], "", settings(), PageReader(fetcher, store, DAY, clock=Clock()))
        fetcher.close()
    assert site.hits["/article/shared"] == 1


STUB = "Cardle Green is a village on the river Tansy, known for its lantern fair held each October since 1850."


def test_a_short_page_showing_its_snippet_is_read_and_a_short_page_without_it_is_not(site, reader):
    site.add("/stub", f"<html><body><nav><a href='/'>Home</a></nav><p>{STUB}</p></body></html>")
    site.add("/soft-404", "<html><body><p>Sorry, this page has moved. Try the search box.</p></body></html>")
    short = hit(site.url("/stub"), STUB[:80] + " …")
    gone = hit(site.url("/soft-404"), STUB[:80] + " …")
    few_words = hit(site.url("/stub"), "Cardle Green village")  # too few words to vouch for any page
    report = read_web_hits([short, gone], "", settings(url_enrich_count=2, min_source_chars=200), reader)
    assert [p.outcome for p in report.pages] == ["read", "thin"]
    assert set(report.texts) == {short["key"]} and "lantern fair" in report.texts[short["key"]].text
    assert report.counters()["pages_unreadable"] == 1
    alone = read_web_hits([few_words], "", settings(min_source_chars=200), reader)
    assert alone.texts == {} and [p.outcome for p in alone.pages] == ["thin"]


def test_a_rounds_queries_each_get_their_best_hit_read_before_any_second_one(site, reader):
    first_query = [hit(site.url(f"/article/a{n}"), rank=n) for n in (1, 2, 3)]
    second_query = [hit(site.url(f"/article/b{n}"), rank=n) for n in (1, 2)]
    report = read_web_hits(first_query + second_query, "", settings(url_enrich_count=2), reader)
    assert [p.url for p in report.pages] == [first_query[0]["url"], second_query[0]["url"]]
    assert [s.url for s in report.skips] == [first_query[1]["url"], second_query[1]["url"], first_query[2]["url"]]
