"""The web backend's outcome classes, driven by a stand-in client that raises ddgs's real exception classes."""

from __future__ import annotations

import pytest
from ddgs.exceptions import DDGSException, TimeoutException

from satiate.state.settings import Settings
from satiate.tools.search.base import SearchFailure
from satiate.tools.search.service import SearchService
from satiate.tools.search.web import WebBackend, classify_ddgs_error

DNS_ERROR = DDGSException(DDGSException(
    "DNSError: DNSError('error sending request for url (https://html.duckduckgo.com/html/) > error resolving DNS > "
    "DNS error: no records found for Query { name: Name(\"html.duckduckgo.com.\"), query_type: A, query_class: IN }')"
))
ROWS = [
    {"title": "Generators", "href": "https://docs.python.org/3/glossary.html#term-generator",
     "body": "A function which returns a generator iterator."},
    {"title": "No link", "href": "", "body": "dropped: nothing to cite"},
    {"title": "PEP 255", "href": "https://peps.python.org/pep-0255/", "body": "Simple generators."},
]


class ScriptedClient:
    """Plays back one scripted outcome per call: a list of rows, or an exception to raise."""

    def __init__(self, script: list) -> None:
        self.script = list(script)
        self.calls: list[tuple[str, dict]] = []

    def factory(self, timeout_s: float) -> ScriptedClient:
        self.timeout_s = timeout_s
        return self

    def text(self, query: str, **kwargs) -> list[dict]:
        self.calls.append((query, kwargs))
        outcome = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def web(client: ScriptedClient, clock: Clock | None = None, **settings) -> WebBackend:
    return WebBackend(Settings(**settings), client_factory=client.factory, clock=clock or Clock())


def service(backend: WebBackend, attempts: int = 3) -> SearchService:
    return SearchService({"web": backend}, retry_attempts=attempts, retry_initial_wait=0, retry_max_wait=0)


def test_results_map_title_href_body_and_pass_engine_and_timeout():
    client = ScriptedClient([ROWS])
    hits = web(client, web_engine="duckduckgo", web_timeout_s=3.5).search("python generator", 5)
    assert [(h.title, h.url, h.body) for h in hits] == [
        ("Generators", ROWS[0]["href"], ROWS[0]["body"]), ("PEP 255", ROWS[2]["href"], ROWS[2]["body"])]
    assert client.calls == [("python generator", {"max_results": 5, "backend": "duckduckgo"})]
    assert client.timeout_s == 3.5


@pytest.mark.parametrize("error, kind", [
    (TimeoutException("https://lite.duckduckgo.com/lite/ 5 timed out"), "timeout"),
    (DDGSException("No results found."), "no_results"),
    (DNS_ERROR, "network"),
    (DDGSException("ConnectError: Connection refused (os error 111)"), "network"),
    (DDGSException("query is mandatory."), "invalid_query"),
    (DDGSException("something new"), "other"),
])
def test_ddgs_errors_are_classified(error, kind):
    assert classify_ddgs_error(error) == kind


def test_no_results_is_a_retryable_failure_never_an_empty_result():
    client = ScriptedClient([DDGSException("No results found.")])
    attempt = service(web(client)).run("web", "rate limited query", 5)
    assert attempt.outcome == "failed_retryable" and attempt.hits == []
    assert attempt.attempts == 3 and len(client.calls) == 3  # retried: a rate limit may lift
    assert "cannot tell this from a rate limit" in attempt.error


def test_timeout_then_success_is_ok_after_a_retry():
    client = ScriptedClient([TimeoutException("timed out"), ROWS])
    attempt = service(web(client)).run("web", "python generator", 5)
    assert attempt.outcome == "ok" and attempt.attempts == 2 and len(attempt.hits) == 2
    assert attempt.attempt_errors and "timed out" in attempt.attempt_errors[0]


def test_invalid_query_is_a_final_failure_without_retries():
    client = ScriptedClient([DDGSException("query is mandatory.")])
    attempt = service(web(client)).run("web", "", 5)
    assert attempt.outcome == "failed_final" and len(client.calls) == 1


def test_engine_answering_nothing_without_an_error_is_empty():
    attempt = service(web(ScriptedClient([[]]))).run("web", "q", 5)
    assert attempt.outcome == "empty"


def test_three_connection_failures_in_a_row_make_the_backend_fail_fast():
    client = ScriptedClient([DNS_ERROR])
    backend = web(client)
    attempt = service(backend, attempts=5).run("web", "offline query", 5)
    # three network attempts open the breaker; the fourth attempt fails final without touching the network
    assert len(client.calls) == 3
    assert attempt.outcome == "failed_final" and attempt.attempts == 4 and "not retrying" in attempt.error
    with pytest.raises(SearchFailure) as raised:
        backend.search("another query", 5)
    assert not raised.value.retryable and len(client.calls) == 3


def test_breaker_lets_a_probe_through_after_the_cooldown_and_closes_on_success():
    clock = Clock()
    client = ScriptedClient([DNS_ERROR, DNS_ERROR, DNS_ERROR, ROWS])
    backend = web(client, clock, web_circuit_cooldown_s=60)
    for _ in range(3):
        with pytest.raises(SearchFailure):
            backend.search("q", 5)
    clock.now += 59
    with pytest.raises(SearchFailure, match="not retrying for 1 s"):
        backend.search("q", 5)
    clock.now += 2
    assert len(backend.search("q", 5)) == 2  # the probe went out and the network answered
    assert backend.breaker.open_for() is None and len(client.calls) == 4


def test_a_failed_probe_reopens_the_breaker_at_once():
    clock = Clock()
    client = ScriptedClient([DNS_ERROR])
    backend = web(client, clock, web_circuit_cooldown_s=10)
    for _ in range(3):
        with pytest.raises(SearchFailure):
            backend.search("q", 5)
    clock.now += 11
    with pytest.raises(SearchFailure) as probe:
        backend.search("q", 5)
    assert probe.value.retryable and len(client.calls) == 4
    with pytest.raises(SearchFailure) as after:
        backend.search("q", 5)
    assert not after.value.retryable and len(client.calls) == 4


def test_an_answer_from_the_network_resets_the_connection_count():
    client = ScriptedClient([DNS_ERROR, DNS_ERROR, DDGSException("No results found."), DNS_ERROR, DNS_ERROR])
    backend = web(client)
    for _ in range(5):
        with pytest.raises(SearchFailure) as raised:
            backend.search("q", 5)
        assert raised.value.retryable  # never more than two network failures in a row
    assert len(client.calls) == 5


def test_cache_scope_names_the_engine():
    assert web(ScriptedClient([ROWS]), web_engine="duckduckgo").cache_scope == "web:duckduckgo"
