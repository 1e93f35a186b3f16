"""gather: run one query (one parallel branch per query), falling through the backend chain on failure.

With a corpus and the web together (local + web mode) the query runs on both sides, each through its own chain
(``Settings.search_sides``): a fallback chain would search the web only when the corpus failed.

Each branch gets only its Send payload. Finished branches keep their writes in the checkpoint, so a resumed run
repeats none of the searches that completed. A failed search is recorded as failed, never as an empty result.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NotRequired

from typing_extensions import TypedDict

from satiate.engine.canonical import canonical_key
from satiate.nodes.common import Dependencies, emit, error_record, keep_bodies, settings_of
from satiate.state.records import ErrorRecord, Hit, QueryPlan, SearchRecord, search_failed
from satiate.state.settings import Settings
from satiate.state.updates import GatherUpdate
from satiate.tools.search.base import LOCAL_BACKENDS, failure_reason
from satiate.tools.search.service import SearchAttempt
from satiate.tools.text import normalize_query, simplify_query


class GatherTask(TypedDict):
    """The Send payload of one branch."""

    query: QueryPlan
    index: int
    cycle: int
    round: int
    backends: list[str]
    resolved_settings: dict[str, Any]
    held: NotRequired[list[str]]  # canonical keys of the sources already read: a hit among them is not read again


def read_limit(query: QueryPlan, settings: Settings) -> int:
    """How many of a local search's results become sources: a few for the question, fewer for a name or an angle."""
    if query["angle"] == "seen":
        return 1  # a passage seen before, asked for by its title and own words: exactly that one
    if query.get("origin") == "breadcrumb" or query["angle"] == "breadcrumb":
        return settings.breadcrumb_results
    if query["angle"] == "question":
        return settings.question_results
    return settings.angle_results


def split_for_reading(hits: list[Hit], held: set[str], limit: int) -> tuple[list[Hit], list[Hit]]:
    """The hits to read (the best ``limit`` not read before, in the backend's order) and the ones passed over.

    A hit already held costs nothing and adds nothing, so it does not use up the reading budget: the next unread
    hit takes its place. Passed-over hits stay on record as seen, their text in the store: a later round ranks them
    against the question and the bridges found by then, and reads the ones that matter.
    """
    chosen: list[Hit] = []
    passed: list[Hit] = []
    for hit in hits:
        if hit["key"] not in held and len(chosen) < limit and all(hit["key"] != c["key"] for c in chosen):
            chosen.append(hit)
        else:
            passed.append(hit)
    return chosen, passed


def to_hits(attempt: SearchAttempt) -> list[Hit]:
    hits: list[Hit] = []
    for rank, raw in enumerate(attempt.hits, 1):
        hit = Hit(title=raw.title or raw.url or (raw.doc_id or ""), url=raw.url, body=raw.body,
                  key=canonical_key(raw.url, raw.doc_id, raw.body), backend=attempt.backend, rank=rank)
        if raw.doc_id:
            hit["doc_id"] = raw.doc_id
        if raw.page:
            hit["page"] = raw.page
        if raw.source_type:
            hit["source_type"] = raw.source_type
        hits.append(hit)
    return hits


def to_record(task: GatherTask, query: QueryPlan, attempt: SearchAttempt, duration: float,
              settings: Settings | None = None) -> SearchRecord:
    hits = to_hits(attempt)
    result_chars = sum(len(h["body"]) for h in hits)
    passed: list[Hit] = []
    if settings is not None and attempt.backend in LOCAL_BACKENDS:
        hits, passed = split_for_reading(hits, set(task.get("held", [])), read_limit(query, settings))
    record = SearchRecord(
        cycle=task["cycle"], round=task["round"], query=query["query"], angle=query["angle"], origin=query["origin"],
        backend=attempt.backend, outcome=attempt.outcome, hits=hits, result_chars=result_chars,
        attempts=attempt.attempts, cached=attempt.cached, error=attempt.error, duration_s=round(duration, 4),
    )
    if passed:
        record["passed_over"] = passed
    if query.get("breadcrumb"):
        record["breadcrumb"] = query["breadcrumb"]
    return record


def make_gather_node(deps: Dependencies) -> Callable[[GatherTask], GatherUpdate]:
    def gather(task: GatherTask) -> GatherUpdate:
        settings = settings_of(task)
        service = deps.search_for(settings)
        # The whole result list is asked for (and cached); on a local backend only the best few unread become
        # sources (``read_limit``), the rest stay on record as seen.
        max_results = settings.budget.max_results_per_query
        records: list[SearchRecord] = []
        errors: list[ErrorRecord] = []

        def run_chain(query: QueryPlan, chain: list[str]) -> SearchRecord | None:
            """Try the backends in order until one answers (ok or empty); every attempt is on record."""
            failed_on: list[str] = []
            for backend in chain:
                started = time.perf_counter()
                attempt = service.run(backend, query["query"], max_results)
                record = to_record(task, query, attempt, time.perf_counter() - started, settings)
                records.append(record)
                if attempt.cache_error:  # the search still ran; the cache being unreadable is worth knowing
                    errors.append(error_record("gather", "cache_error", attempt.cache_error, retryable=True,
                                               cycle=task["cycle"], round=task["round"], query=query["query"]))
                for message in attempt.attempt_errors:
                    errors.append(error_record("gather", "search_retry", message, retryable=True, cycle=task["cycle"],
                                               round=task["round"], query=query["query"]))
                failed = search_failed(attempt.outcome)
                emit("search", query=query["query"], angle=query["angle"], backend=backend, outcome=attempt.outcome,
                     hits=len(record["hits"]), cached=attempt.cached,
                     **({"error": failure_reason(attempt.error or "")} if failed else {}))
                if not failed:
                    if failed_on:  # error level 4 (design §14): a fallback backend served this query
                        emit("fallback", query=query["query"], failed=failed_on, served_by=backend)
                        counters["backend_fallbacks"] = counters.get("backend_fallbacks", 0) + 1
                    return record
                failed_on.append(backend)
                errors.append(error_record("gather", f"search_{attempt.outcome}", attempt.error or "search failed",
                                           retryable=attempt.outcome == "failed_retryable", cycle=task["cycle"],
                                           round=task["round"], query=query["query"]))
            return None

        sides = settings.search_sides(list(task["backends"]))

        def run(query: QueryPlan) -> list[SearchRecord]:
            """The query on every side (a corpus and the web each get it, local + web mode), each through its chain."""
            return [record for chain in sides if (record := run_chain(query, chain)) is not None]

        counters: dict[str, int] = {}
        answered = run(task["query"])
        result_chars = sum(record["result_chars"] for record in answered)
        # The quality floor (design §3): a round's first query with thin results gets one simplified fallback query.
        if answered and task["index"] == 0 and result_chars < settings.search_quality_floor:
            fallback = simplify_query(task["query"]["query"])
            if normalize_query(fallback) != normalize_query(task["query"]["query"]):
                emit("quality_floor", query=task["query"]["query"], fallback=fallback, chars=result_chars)
                counters["quality_floor_fallbacks"] = 1
                run(QueryPlan(query=fallback, angle=task["query"]["angle"], intent="quality-floor fallback",
                              origin="quality_floor"))
        # the hits' text goes to the store, the search log keeps its hash (saved before the log that refers to it)
        update: GatherUpdate = {"search_results": keep_bodies(deps.store, settings, records),
                                  "counters": {**counters, "searches": len(records)}}
        if errors:
            update["error_log"] = errors
        return update

    return gather
