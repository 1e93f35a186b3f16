"""The search-backend interface: a backend answers a query with ``RawHit``s or raises ``SearchFailure``.

Backends never report a failure as an empty list: a rate limit, a DNS error or a time-out raises, so the loop can
count it towards the circuit breaker instead of mistaking it for saturation.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field


class RawHit(BaseModel):
    """One result as a backend returns it."""

    title: str = ""
    url: str = ""
    body: str = ""
    doc_id: str | None = None
    source_type: str | None = Field(None, description="peer | primary | press | practitioner, when known.")


class SearchFailure(Exception):
    """A search that did not complete. ``retryable`` says whether trying again could help."""

    def __init__(self, message: str, *, retryable: bool, backend: str = "") -> None:
        super().__init__(message)
        self.retryable = retryable
        self.backend = backend


@runtime_checkable
class SearchBackend(Protocol):
    """A place to search. ``description`` is what the planner is told about it (seed 004's source characteristics)."""

    name: str
    description: str
    query_ceiling: int

    def search(self, query: str, max_results: int) -> list[RawHit]:
        """Results best first; an empty list only when the backend answered and found nothing."""
        ...
