"""Running one query against one backend: retries for transient failures, and a classified outcome.

Outcomes are ok / empty / failed_retryable / failed_final. Error level 1 of the error handling (design §14: exponential
backoff with jitter, a few attempts) lives here, done by tenacity; each failed attempt is reported so the node
can log it.

The search cache (design §15) sits in front of the backends: an answer (ok or empty, never a failure) is stored under a
hash of the backend's cache scope, the normalised query and the result count, and served again within the TTL with
``cached=True`` and no backend call. The clock is injectable so tests move time instead of sleeping.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential, wait_random

from satiate.state.records import SearchOutcome, search_failed
from satiate.state.settings import WEB_BACKENDS, Settings, SettingsError, setting_default
from satiate.tools.search.base import RawHit, SearchBackend, SearchFailure

if TYPE_CHECKING:
    from satiate.tools.store import Store

log = logging.getLogger(__name__)


@dataclass
class SearchAttempt:
    """What one query against one backend produced."""

    backend: str
    outcome: SearchOutcome
    hits: list[RawHit] = field(default_factory=list)
    attempts: int = 1
    cached: bool = False
    error: str | None = None
    attempt_errors: list[str] = field(default_factory=list)
    cache_error: str | None = None


def normalize_cache_query(query: str) -> str:
    """Case and spacing do not change what a search engine answers; word order and stopwords can, so they stay."""
    return " ".join(query.casefold().split())


def cache_scope(backend: SearchBackend) -> str:
    """What, besides the query, decides a backend's answer (e.g. ``web:duckduckgo``); its name by default."""
    return str(getattr(backend, "cache_scope", None) or backend.name)


def search_cache_key(scope: str, query: str, max_results: int) -> str:
    """Key of one cached search: a hash of backend scope, normalised query and result count."""
    material = json.dumps([scope, normalize_cache_query(query), int(max_results)], ensure_ascii=False)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _first_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


def _retryable(error: BaseException) -> bool:
    return isinstance(error, SearchFailure) and error.retryable


class SearchService:
    """The backends of a run by name, plus how to call them."""

    def __init__(
        self,
        backends: dict[str, SearchBackend],
        *,
        retry_attempts: int = setting_default("retry_attempts"),
        retry_initial_wait: float = 0.5,
        retry_max_wait: float = 4.0,
        store: Store | None = None,
        cache_ttl_s: float = 0.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.backends = backends
        self.retry_attempts = retry_attempts
        self.retry_initial_wait = retry_initial_wait
        self.retry_max_wait = retry_max_wait
        self.store = store
        self.cache_ttl_s = cache_ttl_s
        self.clock = clock

    @classmethod
    def from_settings(cls, settings: Settings, store: Store | None) -> SearchService:
        """The service the settings ask for (each backend built, its index opened), caching answers in ``store``."""
        backends = {name: build_backend(name, settings) for name in settings.resolved_backends()}
        return cls(backends, retry_attempts=settings.retry_attempts, store=store, cache_ttl_s=settings.cache_ttl_s)

    def close(self) -> None:
        """Close what the backends hold open (their indexes)."""
        for backend in self.backends.values():
            close = getattr(backend, "close", None)
            if callable(close):
                close()

    def caches(self, backend_name: str) -> bool:
        """Local corpora opt out (``cacheable = False``): they answer in milliseconds from an index that re-syncs
        when files change, which a 24 h cache would hide."""
        backend = self.backends[backend_name]
        return self.store is not None and self.cache_ttl_s > 0 and getattr(backend, "cacheable", True)

    def run(self, backend_name: str, query: str, max_results: int) -> SearchAttempt:
        """Answer from the cache when fresh, else search live (with retries) and cache an answer."""
        backend = self.backends[backend_name]
        if not self.caches(backend_name):
            return self._run_live(backend_name, query, max_results)
        key = search_cache_key(cache_scope(backend), query, max_results)
        cache_error = None
        try:
            stored = self.store.cached_search(key, now=self.clock(), ttl_s=self.cache_ttl_s)  # type: ignore[union-attr]
        except Exception as exc:  # a cache outage costs speed, not the search
            stored, cache_error = None, f"cache read failed: {_first_line(exc)}"
            log.warning(cache_error)
        if stored is not None:
            hits = [RawHit.model_validate(hit) for hit in stored][:max_results]
            return SearchAttempt(backend_name, "ok" if hits else "empty", hits=hits, attempts=0, cached=True)
        attempt = self._run_live(backend_name, query, max_results)
        attempt.cache_error = cache_error
        if not search_failed(attempt.outcome):  # a failure is never cached: the next run must try again
            try:
                self.store.put_search(key, backend=cache_scope(backend), query=query, max_results=max_results,  # type: ignore[union-attr]
                                      hits=[hit.model_dump(mode="json") for hit in attempt.hits], now=self.clock())
            except Exception as exc:
                failure = f"cache write failed: {_first_line(exc)}"
                attempt.cache_error = f"{cache_error}; {failure}" if cache_error else failure
                log.warning(failure)
        return attempt

    def _run_live(self, backend_name: str, query: str, max_results: int) -> SearchAttempt:
        backend = self.backends[backend_name]
        attempt_errors: list[str] = []

        def record(state) -> None:  # tenacity's before_sleep hook: a failed attempt that will be retried
            attempt_errors.append(f"attempt {state.attempt_number}: {state.outcome.exception()}")

        retrying = Retrying(
            stop=stop_after_attempt(self.retry_attempts),
            # exponential backoff plus up to 1 s of jitter (tenacity's wait_exponential_jitter, without its
            # deprecated 'initial' argument and working on tenacity 8 and 9 alike)
            wait=wait_exponential(multiplier=self.retry_initial_wait, max=self.retry_max_wait)
            + wait_random(0, min(1.0, self.retry_max_wait)),
            retry=retry_if_exception(_retryable),
            before_sleep=record,
            reraise=True,
        )
        try:
            hits = retrying(backend.search, query, max_results)
        except SearchFailure as failure:
            outcome: SearchOutcome = "failed_retryable" if failure.retryable else "failed_final"
            return SearchAttempt(backend_name, outcome, attempts=len(attempt_errors) + 1, error=str(failure),
                                 attempt_errors=attempt_errors)
        except Exception as exc:  # a backend bug must not take the run down: it is a final failure, on record
            return SearchAttempt(backend_name, "failed_final", attempts=len(attempt_errors) + 1,
                                 error=f"{type(exc).__name__}: {exc}", attempt_errors=attempt_errors)
        outcome = "ok" if hits else "empty"
        return SearchAttempt(backend_name, outcome, hits=hits[:max_results], attempts=len(attempt_errors) + 1,
                             attempt_errors=attempt_errors)


def build_backend(name: str, settings: Settings) -> SearchBackend:
    """Construct one named backend from settings (raises CorpusError / SettingsError with a clear message)."""
    data_dir = Path(settings.data_path)
    if name == "corpus":
        from satiate.tools.documents.base import document_limits
        from satiate.tools.search.local_corpus import CorpusError, LocalCorpusBackend

        if not settings.corpus:
            raise CorpusError("backend 'corpus' needs a corpus path (--corpus PATH)")
        corpus = LocalCorpusBackend(settings.corpus, data_dir, limits=document_limits(settings))
        corpus.cacheable = False  # type: ignore[attr-defined]  # see SearchService.caches
        return corpus
    if name == "builtin":
        from satiate.tools.search.builtin_corpus import BuiltinCorpusBackend

        builtin = BuiltinCorpusBackend(data_dir)
        builtin.cacheable = False  # type: ignore[attr-defined]
        return builtin
    if name in WEB_BACKENDS and settings.offline:
        raise SettingsError(f"backend {name!r} searches the internet, but offline is set: drop {name!r} from "
                            "backends, or unset offline (--no-offline, SATIATE_OFFLINE)")
    if name == "web":
        from satiate.tools.search.web import WebBackend

        return WebBackend(settings)
    if name == "searxng":
        from satiate.tools.search.searxng import SearxngBackend

        if not settings.searxng_url:
            raise SettingsError("backend 'searxng' needs the instance's URL: --searxng-url URL (SATIATE_SEARXNG_URL)")
        return SearxngBackend(settings)
    raise ValueError(f"unknown backend {name!r}")
