"""The search-backend interface: a backend answers a query with ``RawHit``s or raises ``SearchFailure``.

Backends never report a failure as an empty list: a rate limit, a DNS error or a time-out raises, so the loop can
count it towards the circuit breaker instead of mistaking it for saturation.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

# The backends that search text on this machine: nothing to fetch, nothing to wait for, no network to fail.
LOCAL_BACKENDS = frozenset({"corpus", "builtin"})


class RawHit(BaseModel):
    """One result as a backend returns it."""

    title: str = ""
    url: str = ""
    body: str = ""
    doc_id: str | None = None
    page: int | None = Field(None, description="The page of a local document (a PDF) the passage is on, from 1.")
    source_type: str | None = Field(None, description="peer | primary | press | practitioner, when known.")


class SearchFailure(Exception):
    """A search that did not complete. ``retryable`` says whether trying again could help."""

    def __init__(self, message: str, *, retryable: bool, backend: str = "") -> None:
        super().__init__(message)
        self.retryable = retryable
        self.backend = backend


_FAILURE_REASONS = (  # (pattern in a failure message, what to tell the user), first match wins
    (re.compile(r"dns|name or service|getaddrinfo|resolv|nodename", re.IGNORECASE), "DNS lookup failed"),
    (re.compile(r"refused", re.IGNORECASE), "connection refused"),
    (re.compile(r"timed out|timeout", re.IGNORECASE), "timed out"),
    (re.compile(r"unreachable|no route|network is down", re.IGNORECASE), "network unreachable"),
    (re.compile(r"tls|ssl|certificate", re.IGNORECASE), "TLS error"),
    (re.compile(r"no results", re.IGNORECASE), "no results, or rate-limited"),
)


def failure_reason(message: str, limit: int = 80) -> str:
    """A failure message as a few words a person can act on ("DNS lookup failed"), else its first ``limit`` chars."""
    for pattern, reason in _FAILURE_REASONS:
        if pattern.search(message):
            return reason
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    return first if len(first) <= limit else first[: limit - 1] + "…"


@runtime_checkable
class SearchBackend(Protocol):
    """A place to search. ``description`` is for people: ``satiate run`` and ``resume`` print it beside the name."""

    name: str
    description: str

    def search(self, query: str, max_results: int) -> list[RawHit]:
        """Results best first; an empty list only when the backend answered and found nothing."""
        ...
