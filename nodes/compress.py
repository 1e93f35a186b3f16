"""compress: store an accepted round's new sources and fold them into the rolling knowledge state.

Runs only for accepted rounds (the invariant of design §4): a rejected round makes no model call and changes nothing.
Sources get stable ids S1, S2, ... in the order they are accepted; the same canonical source is stored once. Its text
goes to the store and the state keeps a reference (``keep_sources``); the engine folds the full text.
"""

from __future__ import annotations

from collections.abc import Callable

from satiate.engine.novelty import unseen_hits
from satiate.nodes.common import (
    Dependencies,
    decision_update,
    emit,
    error_record,
    keep_sources,
    merge_updates,
    round_records,
    settings_of,
    suspicion,
    timed,
    view_of,
)
from satiate.state.records import ErrorRecord, Hit, SearchRecord, SourceRecord, search_failed
from satiate.state.schema import ResearchState
from satiate.state.settings import Settings
from satiate.state.updates import CompressUpdate
from satiate.tools.reader import PageReader, ReadingReport, read_web_hits
from satiate.tools.search.base import LOCAL_BACKENDS


def hit_origin(records: list[SearchRecord]) -> dict[str, SearchRecord]:
    """For each canonical key, the search that first brought it (for provenance: query, angle, breadcrumb)."""
    origin: dict[str, SearchRecord] = {}
    for record in records:
        for hit in record["hits"]:
            origin.setdefault(hit["key"], record)
    return origin


def to_source(hit: Hit, source_id: str, record: SearchRecord, text: str, read_kind: str) -> SourceRecord:
    source = SourceRecord(
        id=source_id, key=hit["key"], url=hit["url"], title=hit["title"], text=text, backend=hit["backend"],
        read_kind=read_kind, query=record["query"], angle=record["angle"], cycle=record["cycle"], round=record["round"],  # type: ignore[typeddict-item]
    )
    for optional in ("doc_id", "page", "source_type"):
        if hit.get(optional):
            source[optional] = hit[optional]  # type: ignore[literal-required]
    if record.get("breadcrumb"):
        source["breadcrumb"] = record["breadcrumb"]
    return source


def read_fresh_web_hits(hits: list[Hit], state: ResearchState, settings: Settings,
                        reader: Callable[[Settings], PageReader]) -> ReadingReport:
    """Reading the round's new web hits (design §6), gated on the knowledge state before this round."""
    if not hits:
        return ReadingReport()
    reading = read_web_hits(hits, state.get("knowledge_state", ""), settings, reader(settings))
    for skip in reading.skips:
        emit("enrich_skip", url=skip.url, overlap=skip.overlap, reason=skip.reason)
    for page in reading.pages:
        emit("page", url=page.url, outcome=page.outcome, chars=len(page.text), from_store=page.from_store)
    return reading


def reading_errors(reading: ReadingReport, state: ResearchState) -> list[ErrorRecord]:
    """Pages that could not be read are errors on record (a dead link, a refused address, a time-out)."""
    cycle, search_round = state.get("cycle", 1), state.get("search_round", 0)
    failed = [error_record("compress", f"page_{page.outcome}", f"{page.url}: {page.error or page.outcome}",
                           retryable=page.outcome == "failed", cycle=cycle, round=search_round)
              for page in reading.pages if not page.readable and not page.from_store]
    # a degraded reading (no main-text extractor, an unusable charset) is said, never silent
    return failed + [error_record("compress", "page_degraded", note, retryable=False, cycle=cycle, round=search_round)
                     for note in reading.notices()]


def make_compress_node(deps: Dependencies) -> Callable[[ResearchState], CompressUpdate]:
    @timed
    def compress(state: ResearchState) -> CompressUpdate:
        settings = settings_of(state)
        view = view_of(state, deps.store)
        records = [r for r in round_records(view.search_results, state["cycle"], state["search_round"])
                   if not search_failed(r["outcome"])]
        store = state.get("sources", {})
        fresh = unseen_hits((h for r in records for h in r["hits"]), store)
        origin = hit_origin(records)
        new_sources: dict[str, SourceRecord] = {}
        skipped = 0
        # Local passages are the documents themselves; web hits are read through the reading gate (design §6).
        reading = read_fresh_web_hits([h for h in fresh if h["backend"] not in LOCAL_BACKENDS], state, settings,
                                      deps.reader)
        for hit in fresh:
            if hit["backend"] in LOCAL_BACKENDS:
                text, read_kind = hit["body"], "passage"
            elif hit["key"] in reading.texts:
                text, read_kind = reading.texts[hit["key"]].text, reading.texts[hit["key"]].read_kind
            else:
                skipped += 1  # design §6: a hit without readable text is not a source
                continue
            source_id = f"S{len(store) + len(new_sources) + 1}"
            new_sources[hit["key"]] = to_source(hit, source_id, origin[hit["key"]], text, read_kind)
        decision = deps.engine_for(settings).compress(view, list(new_sources.values()))
        emit("compress", new_sources=len(new_sources), skipped=skipped, knowledge_chars=len(decision.value))
        for source in new_sources.values():  # judged once, on the text read, so the report needs no text for it
            flag = suspicion(source["text"])
            if flag:
                source["suspicious"] = flag
        update: CompressUpdate = {"sources": keep_sources(deps.store, settings, new_sources),
                                  "knowledge_state": decision.value,
                                  "counters": {"thin_hits_skipped": skipped, **reading.counters()}}
        page_errors = reading_errors(reading, state)
        if page_errors:
            update["error_log"] = page_errors
        return merge_updates(update, decision_update(decision))

    return compress
