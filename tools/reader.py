"""Gated page reading (design §6): which web hits get their full page read, and the source text each hit yields.

Reading a page is the expensive step (seconds each, and it dilutes the context), so it is gated:

- a hit whose snippet overlaps the knowledge state more than ``enrich_max_overlap`` is skipped (we know it already),
  and the skip is reported with its overlap;
- at most ``url_enrich_count`` pages are *read* per round, trying at most ``enrich_max_fetches`` fetches, best
  ranks first across the round's queries; a fetch that yields no readable page does not use up a read.

The gate compares snippets with the knowledge state *before* this round is folded in: folding first and then
gating would make every snippet of the round overlap itself. The page store (TTL = ``cache_ttl_s``) means a page is
fetched at most once within the TTL, by any run or worker sharing the store.

A page under ``min_source_chars`` (``thin``) is most often a 404 page, a paywall or a script shell; but when its
text holds the hit's snippet it is what the engine found, only short (a stub article, a one-paragraph entry), and it
is read (``short_page_snippet_cover``).

What a hit yields: its page text (``read_kind="page"``) when the page was read, else nothing. Hits are leads and
pages are sources: a snippet is a search engine's excerpt, cut mid-sentence and out of context, so it never backs a
claim on its own, however long. A hit gated out stays on record as seen (its snippet still feeds novelty).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Literal

from satiate.state.records import Hit
from satiate.state.settings import Settings
from satiate.tools.fetch import FetchedPage, PageFetcher
from satiate.tools.store import Store, StoredPage
from satiate.tools.text import snippet_overlap, words

UNREADABLE = frozenset({"thin", "http_error", "unsupported"})  # the page answered: there is nothing to read


@dataclass(frozen=True)
class EnrichmentSkip:
    """A page not read, and why: its snippet overlaps the knowledge state, or the round's budget was spent."""

    url: str
    key: str
    overlap: float
    reason: Literal["overlap", "budget"]


@dataclass(frozen=True)
class SourceText:
    text: str
    read_kind: Literal["page"]
    title: str = ""


@dataclass
class ReadingReport:
    """The source text per canonical key, plus every skip and page attempt, for the node to log and count."""

    texts: dict[str, SourceText] = field(default_factory=dict)
    skips: list[EnrichmentSkip] = field(default_factory=list)
    pages: list[FetchedPage] = field(default_factory=list)

    def counters(self) -> dict[str, int]:
        counts = {
            "pages_fetched": sum(not p.from_store and p.outcome != "refused" for p in self.pages),  # asked of a host
            "pages_read": sum(p.readable for p in self.pages),
            "pages_from_store": sum(p.from_store for p in self.pages),
            "pages_unreadable": sum(p.outcome in UNREADABLE for p in self.pages),
            "pages_failed": sum(p.outcome in ("failed", "refused") for p in self.pages),
            "pages_degraded": sum(bool(p.notes) for p in self.pages),
            "enrich_skipped_overlap": sum(s.reason == "overlap" for s in self.skips),
            "enrich_skipped_budget": sum(s.reason == "budget" for s in self.skips),
        }
        return {name: value for name, value in counts.items() if value}

    def notices(self) -> list[str]:
        """Each distinct way a page was read degraded, once ("page extraction degraded: trafilatura unavailable
        (...)", a charset that could not be used), for the run's error log and progress output."""
        return list(dict.fromkeys(note for page in self.pages for note in page.notes))


def gate_by_overlap(hits: Sequence[Hit], knowledge_state: str, max_overlap: float
                    ) -> tuple[list[tuple[Hit, float]], list[EnrichmentSkip]]:
    """The reading gate (design §6): (candidates with their overlap, skips) — a snippet overlapping more than
    ``max_overlap`` is already known. Pure."""
    candidates: list[tuple[Hit, float]] = []
    skips: list[EnrichmentSkip] = []
    for hit in hits:
        overlap = snippet_overlap(hit["body"], knowledge_state)
        if overlap > max_overlap:
            skips.append(EnrichmentSkip(hit["url"], hit["key"], round(overlap, 3), "overlap"))
        else:
            candidates.append((hit, overlap))
    return candidates, skips


def vouched_short_page(hit: Hit, page: FetchedPage, settings: Settings) -> FetchedPage:
    """``page``, read after all when it is thin but holds its hit's snippet (a short page, not a 404 or a paywall)."""
    snippet_words = set(words(hit["body"]))
    if page.outcome != "thin" or len(snippet_words) < settings.short_page_min_snippet_words:
        return page
    if snippet_overlap(hit["body"], page.text) < settings.short_page_snippet_cover:
        return page
    return replace(page, outcome="read", error=None)


class PageReader:
    """Reads a page through the page store: a page stored within the TTL is never fetched again."""

    def __init__(self, fetcher: PageFetcher, store: Store | None, ttl_s: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.fetcher = fetcher
        self.store = store
        self.ttl_s = ttl_s
        self.clock = clock

    @classmethod
    def from_settings(cls, settings: Settings, store: Store | None) -> PageReader:
        """A reader fetching within the settings' limits, through ``store``'s pages for ``cache_ttl_s``."""
        return cls(PageFetcher.from_settings(settings), store, settings.cache_ttl_s)

    def close(self) -> None:
        self.fetcher.close()

    def read(self, url: str, key: str) -> FetchedPage:
        if self.store is not None and self.ttl_s > 0:
            try:
                stored = self.store.page(key, now=self.clock(), ttl_s=self.ttl_s)
            except Exception:  # a store outage costs a fetch, not the page
                stored = None
            if stored is not None:
                return FetchedPage(url, stored.outcome, final_url=stored.final_url, status=stored.status,  # type: ignore[arg-type]
                                   content_type=stored.content_type, title=stored.title, text=stored.text,
                                   from_store=True)
        page = self.fetcher.fetch(url)
        if self.store is not None and self.ttl_s > 0 and page.storable:
            try:
                self.store.put_page(StoredPage(key=key, url=url, final_url=page.final_url, outcome=page.outcome,
                                               status=page.status, content_type=page.content_type, title=page.title,
                                               text=page.text, fetched_at=self.clock()))
            except Exception:
                pass  # not stored means fetched again next time; the read itself succeeded
        return page


def read_web_hits(hits: Sequence[Hit], knowledge_state: str, settings: Settings, reader: PageReader) -> ReadingReport:
    """Gate, read (in parallel batches, best ranks first) and turn each hit into its page's text, or nothing.

    The round's hits come query after query; they are read by rank across the queries (every query's first hit,
    then every second one...), so the budget is not spent on the first query's results alone: each query of a
    round (the question, a name, a breadcrumb) is a different lead.
    """
    report = ReadingReport()
    by_rank = sorted(hits, key=lambda hit: hit["rank"])  # stable: a query's order, and the queries' order
    candidates, report.skips = gate_by_overlap(by_rank, knowledge_state, settings.enrich_max_overlap)
    pages: dict[str, FetchedPage] = {}
    reads = tried = position = 0
    while position < len(candidates):
        batch_size = min(settings.url_enrich_count - reads, settings.enrich_max_fetches - tried)
        if batch_size <= 0:
            break
        batch = candidates[position: position + batch_size]
        position += len(batch)
        tried += len(batch)
        with ThreadPoolExecutor(max_workers=len(batch), thread_name_prefix="satiate-read") as pool:
            fetched = list(pool.map(lambda item: reader.read(item[0]["url"], item[0]["key"]), batch))
        for (hit, _), page in zip(batch, fetched):
            page = vouched_short_page(hit, page, settings)
            pages[hit["key"]] = page
            report.pages.append(page)
            reads += page.readable
    report.skips += [EnrichmentSkip(hit["url"], hit["key"], round(overlap, 3), "budget")
                     for hit, overlap in candidates[position:]]
    for hit in hits:
        read = pages.get(hit["key"])
        if read is not None and read.readable:
            report.texts[hit["key"]] = SourceText(read.text, "page", read.title)
    return report
