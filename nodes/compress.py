"""compress: store an accepted round's new sources and fold them into the rolling knowledge state.

Runs only for accepted rounds (seed 001's invariant): a rejected round makes no model call and changes nothing.
Sources get stable ids S1, S2, ... in the order they are accepted; the same canonical source is stored once.
"""

from __future__ import annotations

from typing import Any

from satiate.engine.novelty import unseen_hits
from satiate.nodes.common import Dependencies, decision_update, emit, merge_updates, settings_of, timed, view_of
from satiate.nodes.novelty_gate import round_records
from satiate.graph.routing import FAILED
from satiate.state.records import Hit, SearchRecord, SourceRecord
from satiate.state.schema import ResearchState

LOCAL_BACKENDS = frozenset({"corpus", "builtin"})


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
    for optional in ("doc_id", "source_type"):
        if hit.get(optional):
            source[optional] = hit[optional]  # type: ignore[literal-required]
    if record.get("breadcrumb"):
        source["breadcrumb"] = record["breadcrumb"]
    return source


def make_compress_node(deps: Dependencies):
    @timed
    def compress(state: ResearchState) -> dict[str, Any]:
        settings = settings_of(state)
        records = [r for r in round_records(state, state["cycle"], state["search_round"]) if r["outcome"] not in FAILED]
        store = state.get("sources", {})
        fresh = unseen_hits((h for r in records for h in r["hits"]), store)
        origin = hit_origin(records)
        new_sources: dict[str, SourceRecord] = {}
        skipped = 0
        for hit in fresh:
            # Local passages are the documents themselves; web hits hold only their snippet until a page is read.
            local = hit["backend"] in LOCAL_BACKENDS
            text = hit["body"]
            if not local and len(text) < settings.min_source_chars:
                skipped += 1  # seed 003 §4: too little readable text is not a source
                continue
            source_id = f"S{len(store) + len(new_sources) + 1}"
            new_sources[hit["key"]] = to_source(hit, source_id, origin[hit["key"]], text,
                                                "passage" if local else "snippet")
        decision = deps.engine_for(settings).compress(view_of(state), list(new_sources.values()))
        emit("compress", new_sources=len(new_sources), skipped=skipped, knowledge_chars=len(decision.value))
        update = {"sources": new_sources, "knowledge_state": decision.value, "counters": {"thin_hits_skipped": skipped}}
        return merge_updates(update, decision_update(decision))

    return compress
