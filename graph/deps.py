"""The composition root: every engine, search service, page reader, store and metrics exporter a run uses is built
here, once per process and settings, and reaches the nodes through ``Dependencies``.

Each shared object is kept with the settings fields its build read (``SettingsMemo``): the build is handed a view of
the settings that notes each field read, and a later call gets the same object exactly when those fields are equal,
so a setting a factory starts to read can never be missed by a hand-written key. ``reset`` forgets and disposes
everything (tests; a process that wants its files closed).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import PrivateAttr

from satiate.engine.base import ResearchEngine
from satiate.engine.deterministic import DeterministicEngine
from satiate.nodes.common import Dependencies, forget_derived
from satiate.state.settings import Settings
from satiate.tools.reader import PageReader
from satiate.tools.search.service import SearchService
from satiate.tools.store import Store, store_url_for

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from satiate.tools.metrics import PrometheusExporter

T = TypeVar("T")
SETTING_NAMES = frozenset(Settings.model_fields)
_NO_SETTINGS = Settings.model_construct()  # for a build that reads none


class EngineUnavailable(RuntimeError):
    """The requested model engine cannot be used; the message says how to fix it."""


# --- settings that note what is read ----------------------------------------------------------------------------------
class RecordingSettings(Settings):
    """Settings that note every field read into each of their ``_reads`` (a nested build notes into its caller's too).

    A property or method (``budget``, ``resolved_backends()``) reads fields through the instance, so they are noted
    one by one; anything reading the whole instance (``model_dump``, ``model_copy``, iteration, ``repr``) goes
    through ``__dict__`` and is noted as reading every field."""

    _reads: tuple[dict[str, Any], ...] = PrivateAttr(default=())

    def __getattribute__(self, name: str) -> Any:
        if name in SETTING_NAMES:
            value = super().__getattribute__(name)
            for reads in object.__getattribute__(self, "__pydantic_private__")["_reads"]:
                reads.setdefault(name, value)
            return value
        if name == "__dict__":
            values = super().__getattribute__(name)
            for reads in object.__getattribute__(self, "__pydantic_private__")["_reads"]:
                for key in SETTING_NAMES:
                    reads.setdefault(key, values[key])
            return values
        return super().__getattribute__(name)


def recording(settings: Settings, reads: dict[str, Any]) -> RecordingSettings:
    """A view of ``settings`` noting each field read into ``reads`` (and, given a view, into its notes too)."""
    values = object.__getattribute__(settings, "__dict__")  # copying the values is not reading them
    view = RecordingSettings.model_construct(_fields_set=set(settings.model_fields_set), **values)
    outer = object.__getattribute__(settings, "__pydantic_private__")["_reads"] \
        if isinstance(settings, RecordingSettings) else ()
    object.__getattribute__(view, "__pydantic_private__")["_reads"] = (*outer, reads)
    return view


@dataclass(eq=False)
class _Built(Generic[T]):
    reads: dict[str, Any]  # field -> value the build read (still growing if the object kept its settings)
    value: T
    built_at: float


class SettingsMemo(Generic[T]):
    """``build(settings)`` called once per distinct value of the fields it reads; thread-safe.

    ``stale(value, age_s)`` says a kept object must be built again (a stand-in engine re-probes its model);
    ``dispose(value)`` closes what ``clear`` forgets. A build must copy what it needs from its settings, not keep
    them: a field read later is noted, but only from then on."""

    def __init__(self, build: Callable[[Settings], T], *, dispose: Callable[[T], None] | None = None,
                 stale: Callable[[T, float], bool] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.build = build
        self.dispose = dispose
        self.stale = stale
        self.clock = clock
        self._built: list[_Built[T]] = []
        self._lock = threading.RLock()

    def __call__(self, settings: Settings) -> T:
        with self._lock:
            for kept in self._built:
                if all(getattr(settings, name) == value for name, value in list(kept.reads.items())):
                    if self.stale is None or not self.stale(kept.value, self.clock() - kept.built_at):
                        return kept.value
                    self._built.remove(kept)
                    break
            reads: dict[str, Any] = {}
            value = self.build(recording(settings, reads))
            self._built.append(_Built(reads, value, self.clock()))
            return value

    def clear(self) -> None:
        """Forget every object built, disposing of each."""
        with self._lock:
            built, self._built = self._built, []
        if self.dispose is not None:
            for kept in built:
                self.dispose(kept.value)

    def __len__(self) -> int:
        return len(self._built)


# --- the factories ----------------------------------------------------------------------------------------------------
def _open_store(settings: Settings) -> Store:
    return Store(store_url_for(settings))


def _start_exporter(settings: Settings) -> PrometheusExporter | None:
    if settings.metrics_port is None:
        return None
    from satiate.tools.metrics import PrometheusExporter

    exporter = PrometheusExporter()
    try:
        exporter.serve(settings.metrics_port)
    except OSError as exc:  # a taken port must not fail the run that only wanted to report on it
        log.warning("metrics: cannot serve Prometheus on port %s (%s); running without metrics",
                    settings.metrics_port, exc)
        return None
    return exporter


def _search_service(settings: Settings) -> SearchService:
    return SearchService.from_settings(settings, store_for(settings) if settings.cache_ttl_s > 0 else None)


def _page_reader(settings: Settings) -> PageReader:
    return PageReader.from_settings(settings, store_for(settings) if settings.cache_ttl_s > 0 else None)


def _engine(settings: Settings) -> ResearchEngine:
    roles = (settings.llm_planner, settings.llm_compressor, settings.llm_synthesizer, settings.llm_critic)
    if settings.llm == "none" and all(role in (None, "none") for role in roles):
        return deterministic_engine()
    try:
        from satiate.engine.model_factory import build_model_engine
        from satiate.tools.llm.errors import ModelSetupError
    except ImportError as exc:  # pragma: no cover - the model layer ships with satiate
        raise EngineUnavailable(f"model engine unavailable ({exc}); set llm to 'none' (--llm none on the command "
                                "line)") from exc
    try:
        return build_model_engine(settings, metrics=metrics_for(settings))
    except ModelSetupError as exc:
        raise EngineUnavailable(str(exc)) from exc


def _rebuild_due(engine: Any, age_s: float) -> bool:
    """A deterministic stand-in for a model that did not answer is built again (and the model re-probed) after a
    while: a long-lived server may see the model come back."""
    return age_s >= getattr(engine, "rebuild_after_s", math.inf)


_stores: SettingsMemo[Store] = SettingsMemo(_open_store, dispose=Store.dispose)
_exporters: SettingsMemo[PrometheusExporter | None] = SettingsMemo(
    _start_exporter, dispose=lambda exporter: exporter.close() if exporter is not None else None)
_services: SettingsMemo[SearchService] = SettingsMemo(_search_service, dispose=SearchService.close)
_readers: SettingsMemo[PageReader] = SettingsMemo(_page_reader, dispose=PageReader.close)
_engines: SettingsMemo[ResearchEngine] = SettingsMemo(_engine, stale=_rebuild_due)
_deterministic: SettingsMemo[DeterministicEngine] = SettingsMemo(lambda _settings: DeterministicEngine())
MEMOS = (_engines, _deterministic, _readers, _services, _exporters, _stores)  # users before what they use


def store_for(settings: Settings) -> Store:
    """The store (search cache, page store, source texts) at the settings' ``store_url``: one engine and connection
    pool per URL for the process."""
    return _stores(settings)


def metrics_for(settings: Settings) -> PrometheusExporter | None:
    """The Prometheus exporter on the settings' ``metrics_port``, started on first use; None without a port."""
    return _exporters(settings)


def search_service_for(settings: Settings) -> SearchService:
    """The search service for these settings: indexes opened once, not per node call."""
    return _services(settings)


def reader_for(settings: Settings) -> PageReader:
    """The page reader for these settings (one connection pool, the store's page cache)."""
    return _readers(settings)


def deterministic_engine() -> DeterministicEngine:
    """The process's deterministic engine (it reads no settings: one for all)."""
    return _deterministic(_NO_SETTINGS)


def engine_for(settings: Settings) -> ResearchEngine:
    """'none' -> the deterministic engine; anything else -> the model engine (with per-call deterministic fallback).

    The model engine is built once per process and settings: Ollama is probed then, not at every node. When llm
    is 'auto' and no model answers, the deterministic stand-in runs (and says so in the run's error log and on the
    CLI); a model named explicitly that does not answer raises EngineUnavailable with the fix, whatever
    ``allow_engine_fallback`` says (that setting covers a model that stops answering during the run).
    """
    return _engines(settings)


def complete(deps: Dependencies) -> Dependencies:
    """``deps`` with the parts a caller left out (store, page reader, metrics) taken from this process's."""
    return replace(deps, store_for=deps.store_for or store_for, reader_for=deps.reader_for or reader_for,
                   metrics_for=deps.metrics_for or metrics_for)


def default_dependencies() -> Dependencies:
    return Dependencies(engine_for=engine_for, search_for=search_service_for, store_for=store_for,
                        reader_for=reader_for, metrics_for=metrics_for)


def reset() -> None:
    """Forget every engine, search service, page reader, exporter and store built (each disposed of: indexes and
    connection pools closed, exporters stopped), the texts views were given, and every model probe: the next call
    builds afresh."""
    for memo in MEMOS:
        memo.clear()
    forget_derived()
    try:
        from satiate.engine.model_factory import forget_probes
    except ImportError:  # pragma: no cover - the model layer ships with satiate
        return
    forget_probes()


__all__ = ["EngineUnavailable", "RecordingSettings", "SettingsMemo", "complete", "default_dependencies",
           "deterministic_engine", "engine_for", "metrics_for", "reader_for", "recording", "reset",
           "search_service_for", "store_for"]
