"""What every node shares: its dependencies, a read-only view of the state, progress events, timing, and the few
record helpers more than one node (or the report) uses, so no node imports another.

The state holds sources and search hits by reference (the hash of their text); ``view_of`` reads the texts back from
the store in one call, so the engines, the grounding gate and the report get full records and never touch the
store. ``satiate.tools.source_texts.read_texts`` is the one reader of source text.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

from satiate.engine.base import Decision, ResearchEngine, ResearchView
from satiate.state.contracts import PlanQueryModel
from satiate.state.records import ErrorRecord, Hit, QueryPlan, SearchRecord, SourceRecord, search_failed, source_number
from satiate.state.schema import ResearchState
from satiate.state.settings import WEB_BACKENDS, Settings
from satiate.state.updates import MeteredUpdate
from satiate.tools.search.base import failure_reason
from satiate.tools.search.service import SearchService
from satiate.tools.source_texts import keep_texts, read_texts, snippet, text_hash
from satiate.tools.text import SCAN_CHARS, sentences, truncate
from satiate.tools.text_safety import instruction_like

if TYPE_CHECKING:
    from satiate.tools.metrics import PrometheusExporter
    from satiate.tools.reader import PageReader
    from satiate.tools.store import Store

StoreFor = Callable[[Settings], "Store"]
UpdateT = TypeVar("UpdateT", bound=MeteredUpdate)
NodeArgs = ParamSpec("NodeArgs")


class MissingDependency(RuntimeError):
    """A node needs a part its ``Dependencies`` were built without."""


@dataclass(frozen=True)
class Dependencies:
    """The side-effecting parts a graph is built with; tests and embedders pass real local ones.

    A part left out (None) is filled by ``build_graph`` from ``satiate.graph.deps``, the process's shared ones; a node
    called directly gets them from ``satiate.graph.deps.complete(deps)``. No metrics: nothing is exported."""

    engine_for: Callable[[Settings], ResearchEngine]
    search_for: Callable[[Settings], SearchService]
    store_for: StoreFor | None = None  # source texts, search cache and page store
    reader_for: Callable[[Settings], PageReader] | None = None  # web pages, for compress
    metrics_for: Callable[[Settings], PrometheusExporter | None] | None = None  # the exporter a run reports to

    def store(self, settings: Settings) -> Store:
        """The run's store; MissingDependency, saying what to pass, when none was given."""
        return self._part("store_for")(settings)

    def reader(self, settings: Settings) -> PageReader:
        """The run's page reader; MissingDependency, saying what to pass, when none was given."""
        return self._part("reader_for")(settings)

    def _part(self, name: str) -> Callable[[Settings], Any]:
        part = getattr(self, name)
        if part is None:
            raise MissingDependency(f"these Dependencies have no {name}: build the graph with build_graph(deps), or "
                                    "pass satiate.graph.deps.complete(deps) to a node called directly")
        return part


DERIVED_VALUES = 2048  # stored values (log entries, settings) whose derived copy the process keeps (a few runs)
_derived: OrderedDict[int, tuple[Any, Any]] = OrderedDict()  # id(value) -> (value, derived copy)
_derived_lock = threading.Lock()


def _known(record: Any) -> Any:
    with _derived_lock:
        entry = _derived.get(id(record))
    return entry[1] if entry is not None and entry[0] is record else None


def _remember(record: Any, full: Any) -> Any:
    with _derived_lock:  # the entry is held with its copy, so its id cannot be reused while cached
        _derived[id(record)] = (record, full)
        while len(_derived) > DERIVED_VALUES:
            _derived.popitem(last=False)
    return full


def forget_derived() -> None:
    """Drop the derived copies this process keeps (``satiate.graph.deps.reset``): the next view reads the store."""
    with _derived_lock:
        _derived.clear()


def settings_of(state: Mapping[str, Any]) -> Settings:
    """The run's resolved settings, as stored at plan time (validated once per stored value, not once per call).

    The one way in for a run's settings: nodes, gather's Send payload and the routing edges all read them here."""
    resolved = state["resolved_settings"]
    return _known(resolved) or _remember(resolved, Settings.model_validate(resolved))


def logged_hits(record: SearchRecord) -> list[Hit]:
    """Every hit a search returned: the ones read and the ones passed over."""
    return [*record["hits"], *record.get("passed_over", [])]


def with_text(source: SourceRecord, texts: dict[str, str]) -> SourceRecord:
    """The source with its text (a record from before texts moved to the store carries its own)."""
    return {**source, "text": texts[source["text_hash"]]} if "text_hash" in source else source


def with_bodies(record: SearchRecord, texts: dict[str, str]) -> SearchRecord:
    """The search record with its hits' (read and passed over) bodies."""
    def full(hit: Hit) -> Hit:
        return {**hit, "body": texts[hit["body_hash"]]} if "body_hash" in hit else hit

    hydrated: SearchRecord = {**record, "hits": [full(h) for h in record["hits"]]}
    if "passed_over" in record:
        hydrated["passed_over"] = [full(h) for h in record["passed_over"]]
    return hydrated


def hydrate(store_for: StoreFor, settings: Settings, sources: list[SourceRecord],
            searches: list[SearchRecord]) -> tuple[list[SourceRecord], list[SearchRecord]]:
    """Sources with their text and searches with their hits' bodies, read from the settings' store in one call.

    A log entry never changes once written, so the process keeps its full copy: each node reads the store only for
    the entries it has not seen (every step would otherwise copy the whole log again)."""
    known_sources, known_searches = [_known(s) for s in sources], [_known(r) for r in searches]
    hashes = [s["text_hash"] for s, full in zip(sources, known_sources) if full is None and "text_hash" in s]
    hashes += [h["body_hash"] for r, full in zip(searches, known_searches) if full is None
               for h in logged_hits(r) if "body_hash" in h]
    texts = read_texts(store_for(settings), hashes) if hashes else {}
    return ([full if full is not None else _remember(s, with_text(s, texts))
             for s, full in zip(sources, known_sources)],
            [full if full is not None else _remember(r, with_bodies(r, texts))
             for r, full in zip(searches, known_searches)])


def as_reference(source: SourceRecord) -> SourceRecord:
    """What the state keeps of a source whose text is stored: everything but the text, plus its start."""
    kept = {name: value for name, value in source.items() if name != "text"}
    return {**kept, "snippet": snippet(source["text"])}  # type: ignore[typeddict-item]


def keep_sources(store_for: StoreFor, settings: Settings,
                 sources: dict[str, SourceRecord]) -> dict[str, SourceRecord]:
    """Store the sources' texts and return the references the state keeps (text saved before the reference)."""
    if sources:
        keep_texts(store_for(settings), [s["text"] for s in sources.values()])
    return {key: {**as_reference(s), "text_hash": text_hash(s["text"])} for key, s in sources.items()}


def keep_bodies(store_for: StoreFor, settings: Settings, records: list[SearchRecord]) -> list[SearchRecord]:
    """Store the hits' bodies and return the search records the state keeps: each hit with its body's hash."""
    bodies = [h["body"] for r in records for h in logged_hits(r) if "body" in h]
    if bodies:
        keep_texts(store_for(settings), bodies)

    def reference(hit: Hit) -> Hit:
        if "body" not in hit:
            return hit
        kept = {name: value for name, value in hit.items() if name != "body"}
        return {**kept, "body_hash": text_hash(hit["body"])}  # type: ignore[typeddict-item]

    logged: list[SearchRecord] = []
    for record in records:
        entry: SearchRecord = {**record, "hits": [reference(h) for h in record["hits"]]}
        if "passed_over" in record:
            entry["passed_over"] = [reference(h) for h in record["passed_over"]]
        logged.append(entry)
    return logged


def view_of(state: ResearchState, store_for: StoreFor, **overrides: Any) -> ResearchView:
    """The engines' read-only view: sources in id order with their text, searches with their hits' bodies (read
    from the store ``store_for`` gives for the run's settings)."""
    settings = settings_of(state)
    ordered = sorted(state.get("sources", {}).values(), key=lambda s: source_number(s["id"]))
    sources, searches = hydrate(store_for, settings, ordered, state.get("search_results", []))
    fields: dict[str, Any] = dict(
        question=state["question"],
        settings=settings,
        sources=sources,
        knowledge_state=state.get("knowledge_state", ""),
        search_results=searches,
        claims=state.get("claims", []),
        contradictions=state.get("contradictions", []),
        target=state.get("target", ""),
        cycle=state.get("cycle", 1),
        search_round=state.get("search_round", 0),
        degraded=state.get("degraded_mode", False),
        tokens_used=state.get("tokens_used", 0),
        run_id=current_thread_id(),
    )
    fields.update(overrides)
    return ResearchView(**fields)


def current_thread_id() -> str | None:
    """The thread of the run being executed, or None outside a graph run or in a graph without a checkpointer."""
    try:
        from langgraph.config import get_config

        thread_id = get_config().get("configurable", {}).get("thread_id")
    except RuntimeError:  # outside a graph run (unit tests calling a node directly)
        return None
    return str(thread_id) if thread_id is not None else None


def emit(event: str, **data: Any) -> None:
    """A custom stream event (``stream_mode="custom"``); silently nothing when the run is not streamed."""
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except Exception:  # outside a graph run (unit tests calling a node directly)
        return
    writer({"event": event, **data})


def emit_round_start(cycle: int, search_round: int, queries: list) -> None:
    """The "round started" progress event, sent by whichever node dispatches the next round's queries."""
    if queries:
        emit("round", cycle=cycle, round=search_round, queries=[q["query"] for q in queries])


def error_record(node: str, kind: str, message: str, *, retryable: bool = False, cycle: int = 0, round: int = 0,
                 query: str | None = None) -> ErrorRecord:
    record = ErrorRecord(node=node, type=kind, message=message, retryable=retryable, cycle=cycle, round=round)
    if query is not None:
        record["query"] = query
    return record


def decision_update(decision: Decision) -> MeteredUpdate:
    """The meters and error records an engine decision adds to the state."""
    update: MeteredUpdate = {"tokens_used": decision.tokens, "counters": decision.counters()}
    if decision.errors:
        update["error_log"] = list(decision.errors)
    return update


def merge_updates(update: UpdateT, *more: Mapping[str, Any]) -> UpdateT:
    """Combine partial updates from one node (lists concatenated, counters and meters added) into the first's type."""
    merged: dict[str, Any] = {}
    parts: tuple[Mapping[str, Any], ...] = (update, *more)
    for part in parts:
        for key, value in part.items():
            if key in merged and isinstance(value, list):
                merged[key] = [*merged[key], *value]
            elif key in merged and isinstance(value, dict) and key == "counters":
                merged[key] = {k: merged[key].get(k, 0) + value.get(k, 0) for k in {*merged[key], *value}}
            elif key in merged and isinstance(value, (int, float)) and key in {"tokens_used", "elapsed_s"}:
                merged[key] = merged[key] + value
            else:
                merged[key] = value
    return cast(UpdateT, merged)


def timed(node: Callable[NodeArgs, UpdateT]) -> Callable[NodeArgs, UpdateT]:
    """Add the node's own duration to ``elapsed_s``: the time budget is summed over nodes, so it survives resume."""

    @functools.wraps(node)
    def wrapper(*args: NodeArgs.args, **kwargs: NodeArgs.kwargs) -> UpdateT:
        started = time.perf_counter()
        update = node(*args, **kwargs)
        metered: MeteredUpdate = update
        metered["elapsed_s"] = metered.get("elapsed_s", 0.0) + (time.perf_counter() - started)
        return update

    return wrapper


def as_query_plans(queries: Iterable[PlanQueryModel], origin: str) -> list[QueryPlan]:
    """An engine's proposed queries as the state's plans, each with where it came from (a breadcrumb and a
    reformulation say so whatever node proposed them)."""
    plans: list[QueryPlan] = []
    for query in queries:
        chosen = origin
        if query.angle == "breadcrumb":
            chosen = "breadcrumb"
        elif query.intent.startswith("reformulation"):
            chosen = "reformulation"
        plan = QueryPlan(query=query.query, angle=query.angle, intent=query.intent, origin=chosen)  # type: ignore[typeddict-item]
        if query.angle == "breadcrumb":
            plan["breadcrumb"] = query.intent.removeprefix("breadcrumb: ")
        plans.append(plan)
    return plans


def round_records(records: Sequence[SearchRecord], cycle: int, search_round: int) -> list[SearchRecord]:
    """The searches of one round of one cycle."""
    return [r for r in records if r["cycle"] == cycle and r["round"] == search_round]


def suspicion(text: str) -> str | None:
    """Why a source looks like it addresses the reader or a model with instructions (prompt injection), or None."""
    for sentence in sentences(text[:SCAN_CHARS]):
        reason = instruction_like(sentence.text)
        if reason:
            return f"{reason}: \"{truncate(sentence.text, 120)}\""
    return None


WEB_UNREACHED_NOTE = "The web could not be reached ({reason}); this answer comes from {served_by} only."
WEB_UNREACHED_ALONE_NOTE = "The web could not be reached ({reason}), and no other source answered."
FALLBACK_NAMES = {"builtin": "the built-in offline corpus (Python's own documentation)", "corpus": "the local corpus"}


def web_unreached_note(records: Sequence[SearchRecord]) -> str | None:
    """The note an answer carries when the web was searched but never answered: every web search of the run failed.

    The run goes on with the next backends of the chain, so this is not degraded mode (which stops the run); the
    answer is still marked degraded, and says where it came from instead.
    """
    web = [r for r in records if r["backend"] in WEB_BACKENDS]
    if not web or any(not search_failed(r["outcome"]) for r in web):
        return None
    reason = failure_reason(next((r["error"] for r in web if r.get("error")), "") or "every web search failed")
    answered = sorted({r["backend"] for r in records if not search_failed(r["outcome"])})
    if not answered:
        return WEB_UNREACHED_ALONE_NOTE.format(reason=reason)
    served_by = " and ".join(FALLBACK_NAMES.get(name, f"the {name} backend") for name in answered)
    return WEB_UNREACHED_NOTE.format(reason=reason, served_by=served_by)
