"""Web search through a SearXNG instance's JSON API: ``GET {base}/search?q=...&format=json``.

A self-hosted SearXNG is the usual answer to free search engines that rate-limit and silently return nothing, so
each way it can fail is told apart and said in words a person can act on:

- the instance does not answer (refused, DNS, time-out): retryable, and after ``circuit_consecutive_failures`` in a
  row the backend fails fast for ``web_circuit_cooldown_s`` (the ddgs backend's breaker), so the chain falls back;
- HTTP 403: the JSON format is off (SearXNG's default): final, with the settings.yml line that enables it;
- HTTP 429: the instance's limiter: retryable, with the setting that turns it off on a private instance;
- no results while engines were unresponsive: a failure (the engines behind it failed), never an empty result.

The endpoint is the user's own choice (``searxng_url``), usually on localhost or the local network, so private and
loopback addresses are allowed here; cloud metadata addresses stay refused, as for every fetch. The pages behind the
hits are fetched by ``tools.fetch`` with the full SSRF guard: a hit's URL comes from the web, not from the user.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from satiate.state.settings import Settings, redacted
from satiate.tools.fetch import AddressPolicy, Resolver, guarded_transport, system_resolver
from satiate.tools.search.base import RawHit, SearchFailure, failure_reason
from satiate.tools.search.web import ConnectivityBreaker

JSON_FORMAT_HELP = ("enable the JSON format on the instance: add `json` under `search: formats:` in its settings.yml "
                    "(formats: [html, json]) and restart it")
LIMITER_HELP = "on a private instance, set `server: limiter: false` in its settings.yml"
USER_AGENT = "satiate/0.1 (research agent)"


def search_parameters(query: str, settings: Settings) -> dict[str, str]:
    """The query string of one search: the query, ``format=json``, and the engines/categories/language set."""
    parameters = {"q": query, "format": "json"}
    for name, value in (("engines", settings.searxng_engines), ("categories", settings.searxng_categories),
                        ("language", settings.searxng_language)):
        if value and value.strip():
            parameters[name] = ",".join(part.strip() for part in value.split(",") if part.strip())
    return parameters


def to_raw_hits(results: list[Any], max_results: int) -> list[RawHit]:
    """SearXNG results {url, title, content} as RawHits; a result without a URL is dropped (nothing to read)."""
    hits: list[RawHit] = []
    seen: set[str] = set()
    for row in results:
        if not isinstance(row, dict):
            continue
        url = str(row.get("url") or "").strip()
        if not url or url in seen:  # several engines return the same page; SearXNG usually merges, not always
            continue
        seen.add(url)
        hits.append(RawHit(title=str(row.get("title") or "").strip(), url=url,
                           body=" ".join(str(row.get("content") or "").split())))
    return hits[:max_results]


def unresponsive(payload: dict[str, Any]) -> list[str]:
    """The engines SearXNG says failed, as "name (reason)"."""
    named: list[str] = []
    for entry in payload.get("unresponsive_engines") or []:
        if isinstance(entry, (list, tuple)) and entry:
            named.append(f"{entry[0]} ({entry[1]})" if len(entry) > 1 and entry[1] else str(entry[0]))
        elif entry:
            named.append(str(entry))
    return named


class SearxngBackend:
    """A SearXNG instance as a search backend."""

    name = "searxng"

    def __init__(
        self,
        settings: Settings,
        *,
        resolver: Resolver = system_resolver,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not settings.searxng_url:
            raise ValueError("backend 'searxng' needs searxng_url (--searxng-url URL, SATIATE_SEARXNG_URL)")
        self.settings = settings
        self.base_url = settings.searxng_url.rstrip("/")
        self.shown_url = redacted(self.base_url)
        self.timeout_s = settings.web_timeout_s
        self.cache_scope = "searxng:" + json.dumps(
            [self.shown_url, settings.searxng_engines, settings.searxng_categories, settings.searxng_language])
        self.description = f"web search via the SearXNG instance at {self.shown_url}"
        self.breaker = ConnectivityBreaker(settings.circuit_consecutive_failures, settings.web_circuit_cooldown_s,
                                           clock)
        # the user's own instance may be on loopback or the LAN; metadata addresses are refused in every form
        self.client = httpx.Client(transport=guarded_transport(AddressPolicy(allow_private=True), resolver),
                                   timeout=httpx.Timeout(self.timeout_s), follow_redirects=True, max_redirects=3,
                                   trust_env=False, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})

    def close(self) -> None:
        self.client.close()

    def search(self, query: str, max_results: int) -> list[RawHit]:
        wait = self.breaker.open_for()
        if wait is not None:
            cause = f" ({self.breaker.last_reason})" if self.breaker.last_reason else ""
            raise SearchFailure(f"SearXNG at {self.shown_url} unreachable{cause}: {self.breaker.threshold} connection "
                                f"failures in a row; not retrying for {wait:.0f} s (setting web_circuit_cooldown_s)",
                                retryable=False, backend=self.name)
        try:
            response = self.client.get(f"{self.base_url}/search", params=search_parameters(query, self.settings))
        except httpx.TimeoutException as exc:
            self.breaker.failure(f"timed out after {self.timeout_s:g} s")
            raise SearchFailure(f"SearXNG at {self.shown_url} timed out after {self.timeout_s:g} s "
                                "(setting web_timeout_s)", retryable=True, backend=self.name) from exc
        except (httpx.HTTPError, OSError) as exc:  # includes the guard's refusal of a metadata address
            reason = failure_reason(str(exc))
            self.breaker.failure(reason)
            refused = "FetchRefused" in type(exc).__name__ or "resolves to" in str(exc)
            raise SearchFailure(f"SearXNG at {self.shown_url} is not answering ({reason}): is the instance running "
                                "and is searxng_url right?", retryable=not refused, backend=self.name) from exc
        self.breaker.success()  # the instance answered, whatever it said
        return to_raw_hits(self._results(response), max_results)

    def _results(self, response: httpx.Response) -> list[Any]:
        status = response.status_code
        if status == 403:
            raise SearchFailure(f"SearXNG at {self.shown_url} refused format=json (HTTP 403): {JSON_FORMAT_HELP}",
                                retryable=False, backend=self.name)
        if status == 429:
            raise SearchFailure(f"SearXNG at {self.shown_url} rate-limited the search (HTTP 429, its limiter): "
                                f"{LIMITER_HELP}", retryable=True, backend=self.name)
        if status >= 400:
            raise SearchFailure(f"SearXNG at {self.shown_url} answered HTTP {status}", retryable=status >= 500,
                                backend=self.name)
        try:
            payload = response.json()
        except ValueError as exc:
            raise SearchFailure(f"SearXNG at {self.shown_url} did not answer JSON (content type "
                                f"{response.headers.get('content-type', '?')!r}): is it a SearXNG instance?",
                                retryable=False, backend=self.name) from exc
        if not isinstance(payload, dict) or not isinstance(payload.get("results", []), list):
            raise SearchFailure(f"SearXNG at {self.shown_url} answered JSON without a results list",
                                retryable=False, backend=self.name)
        results = payload.get("results") or []
        failed_engines = unresponsive(payload)
        if not results and failed_engines:  # nothing found because the engines behind it failed, not "nothing new"
            raise SearchFailure(f"SearXNG found nothing: its engines did not answer ({', '.join(failed_engines[:5])})",
                                retryable=True, backend=self.name)
        return results
