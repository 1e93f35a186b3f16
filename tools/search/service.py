"""Running one query against one backend: retries for transient failures, and a classified outcome.

Outcomes are ok / empty / failed_retryable / failed_final. Tier 1 of seed 002's error handling (exponential backoff
with jitter, a few attempts) lives here, done by tenacity; each failed attempt is reported so the node can log it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from satiate.state.records import SearchOutcome
from satiate.state.settings import Settings
from satiate.tools.search.base import RawHit, SearchBackend, SearchFailure


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


def _retryable(error: BaseException) -> bool:
    return isinstance(error, SearchFailure) and error.retryable


class SearchService:
    """The backends of a run by name, plus how to call them."""

    def __init__(
        self,
        backends: dict[str, SearchBackend],
        *,
        retry_attempts: int = 3,
        retry_initial_wait: float = 0.5,
        retry_max_wait: float = 4.0,
    ) -> None:
        self.backends = backends
        self.retry_attempts = retry_attempts
        self.retry_initial_wait = retry_initial_wait
        self.retry_max_wait = retry_max_wait

    def describe(self) -> dict[str, str]:
        return {name: backend.description for name, backend in self.backends.items()}

    def run(self, backend_name: str, query: str, max_results: int) -> SearchAttempt:
        backend = self.backends[backend_name]
        attempt_errors: list[str] = []

        def record(state) -> None:  # tenacity's before_sleep hook: a failed attempt that will be retried
            attempt_errors.append(f"attempt {state.attempt_number}: {state.outcome.exception()}")

        retrying = Retrying(
            stop=stop_after_attempt(self.retry_attempts),
            wait=wait_exponential_jitter(initial=self.retry_initial_wait, max=self.retry_max_wait),
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


BackendFactory = Callable[[Settings], SearchBackend]
_SERVICES: dict[tuple, SearchService] = {}
_SERVICES_LOCK = threading.Lock()


def build_backend(name: str, settings: Settings) -> SearchBackend:
    """Construct one named backend from settings (raises CorpusError / SettingsError with a clear message)."""
    data_dir = Path(settings.data_path)
    if name == "corpus":
        from satiate.tools.search.local_corpus import CorpusError, LocalCorpusBackend

        if not settings.corpus:
            raise CorpusError("backend 'corpus' needs a corpus path (--corpus PATH)")
        return LocalCorpusBackend(settings.corpus, data_dir)
    if name == "builtin":
        from satiate.tools.search.builtin_corpus import BuiltinCorpusBackend

        return BuiltinCorpusBackend(data_dir)
    if name == "web":
        from satiate.tools.search.web import WebBackend

        return WebBackend(settings)
    raise ValueError(f"unknown backend {name!r}")


def search_service_for(settings: Settings) -> SearchService:
    """The (shared, per-process) search service for these settings; indexes open once, not per node call."""
    key = (settings.data_dir, settings.corpus, tuple(settings.resolved_backends()), settings.retry_attempts)
    with _SERVICES_LOCK:
        if key not in _SERVICES:
            backends = {name: build_backend(name, settings) for name in settings.resolved_backends()}
            _SERVICES[key] = SearchService(backends, retry_attempts=settings.retry_attempts)
        return _SERVICES[key]
