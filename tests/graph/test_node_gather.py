"""The gather node on its own: one query down the backend chain. A failed search is on record as failed (never as an
empty answer), the next backend serves what the first could not, a local search reads only its best few unread
results and keeps the rest as seen, and a thin first query gets one simplified fallback."""

from __future__ import annotations

import pytest

from satiate.engine.canonical import canonical_key
from satiate.nodes.gather import make_gather_node
from satiate.tools.search.base import RawHit, SearchFailure
from satiate.tools.search.local_corpus import LocalCorpusBackend
from satiate.tools.search.service import SearchService
from satiate.tools.source_texts import text_hash
from support.node_states import node_deps, resolved, stored_texts
from support.research_corpus import PASSAGES, QUESTION


class StandInWeb:
    """A web backend on this machine: fails with ``failures`` in turn, then answers with ``hits`` (counting calls)."""

    name = "web"
    description = "a stand-in for the web"

    def __init__(self, failures: list[SearchFailure] | None = None, hits: list[RawHit] | None = None) -> None:
        self.failures = list(failures or [])
        self.hits = hits or []
        self.calls: list[str] = []

    def search(self, query: str, max_results: int) -> list[RawHit]:
        self.calls.append(query)
        if self.failures:
            raise self.failures.pop(0)
        return self.hits[:max_results]


def rate_limited() -> SearchFailure:
    return SearchFailure("HTTP 429: rate limited", retryable=False, backend="web")


def web_pages(count: int) -> list[RawHit]:
    return [RawHit(title=f"Lumen kettle page {n}", url=f"https://kettles.example/{n}",
                   body=f"Page {n}: the Lumen kettle is made by Harbor Works in Bristol.") for n in range(count)]


@pytest.fixture
def gather_with(corpus, isolated_data_dir):
    """gather(query, backends, web=..., index=..., held=..., **settings) -> (update, settings): one branch's run."""

    def run(query: str, backends: list[str], *, web: StandInWeb | None = None, angle: str = "question", index: int = 1,
            held: list[str] | None = None, retry_attempts: int = 1, **overrides) -> tuple[dict, dict]:
        settings = resolved(isolated_data_dir, corpus=str(corpus), backends=backends, **overrides)
        service = SearchService({"corpus": LocalCorpusBackend(corpus, isolated_data_dir), "web": web or StandInWeb()},
                                retry_attempts=retry_attempts, retry_initial_wait=0, retry_max_wait=0)
        node = make_gather_node(node_deps(search=service))
        task = {"query": {"query": query, "angle": angle, "intent": "test", "origin": "plan"}, "index": index,
                "cycle": 1, "round": 1, "backends": backends, "resolved_settings": settings, "held": held or []}
        return node(task), settings

    return run


def test_a_failed_search_is_recorded_as_failed_with_its_error_and_an_empty_one_as_an_answer(gather_with):
    failed, _ = gather_with(QUESTION, ["web"], web=StandInWeb([rate_limited()]))
    [record] = failed["search_results"]
    assert record["outcome"] == "failed_final" and record["hits"] == [] and "429" in record["error"]
    [error] = failed["error_log"]
    assert (error["node"], error["type"], error["retryable"], error["query"]) == \
        ("gather", "search_failed_final", False, QUESTION)
    empty, _ = gather_with("zebra quantum", ["corpus"])
    [answered] = empty["search_results"]
    assert answered["outcome"] == "empty" and answered["error"] is None and "error_log" not in empty


def test_a_failing_backend_falls_through_to_the_next_which_serves_the_query(gather_with):
    update, _ = gather_with(QUESTION, ["web", "corpus"], web=StandInWeb([rate_limited()]))
    assert [(r["backend"], r["outcome"]) for r in update["search_results"]] == [("web", "failed_final"),
                                                                               ("corpus", "ok")]
    assert update["counters"] == {"backend_fallbacks": 1, "searches": 2}
    assert [e["type"] for e in update["error_log"]] == ["search_failed_final"]


def test_an_empty_answer_does_not_fall_through(gather_with):
    web = StandInWeb(hits=web_pages(2))
    update, _ = gather_with("zebra quantum", ["corpus", "web"], web=web)
    assert [(r["backend"], r["outcome"]) for r in update["search_results"]] == [("corpus", "empty")]
    assert web.calls == []  # "nothing found" is an answer: the chain stops there


def test_a_transient_failure_is_retried_and_each_failed_attempt_logged(gather_with):
    flaky = StandInWeb([SearchFailure("timed out", retryable=True)] * 2, hits=web_pages(2))
    update, _ = gather_with(QUESTION, ["web"], web=flaky, retry_attempts=3)
    [record] = update["search_results"]
    assert record["outcome"] == "ok" and record["attempts"] == 3 and len(flaky.calls) == 3
    assert [(e["type"], e["retryable"]) for e in update["error_log"]] == [("search_retry", True)] * 2
    down = StandInWeb([SearchFailure("timed out", retryable=True)] * 3)
    [gave_up] = gather_with(QUESTION, ["web"], web=down, retry_attempts=3)[0]["search_results"]
    assert gave_up["outcome"] == "failed_retryable" and gave_up["attempts"] == 3


def test_a_local_search_reads_its_best_unread_hits_and_keeps_the_rest_as_seen(gather_with, corpus, isolated_data_dir):
    ranked = LocalCorpusBackend(corpus, isolated_data_dir).search(QUESTION, 8)
    held = canonical_key("", ranked[0].doc_id)  # the best result is read already: it must not use up the budget
    update, settings = gather_with(QUESTION, ["corpus"], held=[held], question_results=2, max_results_per_query=8)
    [record] = update["search_results"]
    expected = [canonical_key("", h.doc_id) for h in ranked if canonical_key("", h.doc_id) != held][:2]
    assert [h["key"] for h in record["hits"]] == expected
    assert {h["key"] for h in record["passed_over"]} == {canonical_key("", h.doc_id) for h in ranked} - set(expected)
    assert record["result_chars"] == sum(len(h.body) for h in ranked)  # everything returned counts as seen text
    # the state holds each body's hash; the text itself is in the store, read and passed-over alike
    logged = record["hits"] + record["passed_over"]
    assert all("body" not in h for h in logged)
    bodies = stored_texts(settings, [h["body_hash"] for h in logged])
    by_doc = {p["doc_id"]: p["text"] for p in PASSAGES}
    assert all(bodies[h["body_hash"]] == by_doc[h["doc_id"]] == bodies[text_hash(by_doc[h["doc_id"]])] for h in logged)


def test_a_web_search_keeps_every_hit_for_compress_to_read(gather_with):
    update, _ = gather_with("Lumen", ["web"], web=StandInWeb(hits=web_pages(3)), angle="entity")
    [record] = update["search_results"]
    assert len(record["hits"]) == 3 and "passed_over" not in record  # the local reading limit does not apply


def test_a_thin_first_query_gets_one_simplified_fallback_and_later_queries_do_not(gather_with):
    first, _ = gather_with(QUESTION, ["corpus"], index=0, search_quality_floor=100_000)
    original, fallback = first["search_results"]
    assert original["query"] == QUESTION and original["result_chars"] < 100_000
    assert fallback["origin"] == "quality_floor" and fallback["query"] != QUESTION
    assert set(fallback["query"].lower().split()) <= set(QUESTION.lower().rstrip("?").split())
    assert first["counters"]["quality_floor_fallbacks"] == 1
    later, _ = gather_with(QUESTION, ["corpus"], index=1, search_quality_floor=100_000)
    assert len(later["search_results"]) == 1
    rich, _ = gather_with(QUESTION, ["corpus"], index=0, search_quality_floor=10)
    assert len(rich["search_results"]) == 1
