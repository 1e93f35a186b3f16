"""The SearXNG backend against loopback servers: results, each failure told apart, and where it sits in the chain."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from bench.web_standin import SNIPPET_CHARS, WebStandin
from satiate.state.settings import Settings, SettingsError, resolve_settings
from satiate.tools.search.searxng import SearxngBackend, search_parameters
from satiate.tools.search.service import SearchService
from tests.support.loopback_pages import LoopbackSite

MILL = ("Harrowgate Mill is a restored watermill on the river Tansy in the invented county of Brackenshire. It was "
        "built in 1781 by the millwright Oswin Pell, who also designed the sluice gates still in use today. The mill "
        "ground oats for the villages of the valley until 1932, when it closed.")
PASSAGES = [
    {"doc_id": "mill", "title": "Harrowgate Mill", "text": MILL},
    {"doc_id": "pell", "title": "Oswin Pell", "text": "Oswin Pell was a millwright born in Cardle Green in 1742."},
]


@pytest.fixture
def standin_corpus(tmp_path: Path) -> Path:
    path = tmp_path / "web.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in PASSAGES), encoding="utf-8")
    return path


def backend(url: str, **settings) -> SearxngBackend:
    return SearxngBackend(Settings(searxng_url=url, web_timeout_s=3, **settings))


def run(searxng: SearxngBackend, attempts: int = 1):
    return SearchService({"searxng": searxng}, retry_attempts=attempts, retry_initial_wait=0,
                         retry_max_wait=0).run("searxng", "who built Harrowgate Mill", 10)


def test_results_become_hits_with_the_snippet_as_body_on_a_loopback_instance(standin_corpus, tmp_path):
    with WebStandin(standin_corpus, tmp_path / "index") as web:
        attempt = run(backend(web.base_url))  # loopback is allowed for the user's own instance, by default
    assert attempt.outcome == "ok"
    first = attempt.hits[0]
    assert (first.url, first.title) == (web.page_url("mill"), "Harrowgate Mill")
    assert first.body.endswith("…") and len(first.body) <= SNIPPET_CHARS + 2 and first.body != MILL
    assert web.requests["search"] == 1 and web.requests["page"] == 0  # searching reads no page


def test_engines_categories_and_language_go_into_the_query_string_only_when_set():
    plain = search_parameters("mill", Settings())
    assert plain == {"q": "mill", "format": "json"}
    chosen = search_parameters("mill", Settings(searxng_engines="wikipedia, duckduckgo", searxng_categories="general",
                                                searxng_language="de-CH"))
    assert chosen == {"q": "mill", "format": "json", "engines": "wikipedia,duckduckgo", "categories": "general",
                      "language": "de-CH"}


def test_json_format_off_is_a_final_failure_that_says_how_to_enable_it(standin_corpus, tmp_path):
    with WebStandin(standin_corpus, tmp_path / "index", json_enabled=False) as web:
        attempt = run(backend(web.base_url), attempts=3)
    assert attempt.outcome == "failed_final" and attempt.attempts == 1
    assert "HTTP 403" in attempt.error and "search: formats:" in attempt.error and "json" in attempt.error


def test_the_limiter_is_a_retryable_failure_that_names_the_setting(standin_corpus, tmp_path):
    with WebStandin(standin_corpus, tmp_path / "index", limited=True) as web:
        attempt = run(backend(web.base_url), attempts=2)
    assert attempt.outcome == "failed_retryable" and attempt.attempts == 2
    assert "429" in attempt.error and "limiter: false" in attempt.error


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_instance_that_is_down_fails_retryably_then_the_breaker_fails_fast():
    searxng = backend(f"http://127.0.0.1:{free_port()}", circuit_consecutive_failures=2)
    first = run(searxng)
    assert first.outcome == "failed_retryable"
    assert "not answering (connection refused)" in first.error and "is the instance running" in first.error
    run(searxng)
    fast = run(searxng)
    assert fast.outcome == "failed_final" and "not retrying" in fast.error


def test_a_page_that_is_not_json_is_a_final_failure():
    with LoopbackSite() as site:
        site.add("/search", "<html><body>a router login page</body></html>")
        attempt = run(backend(site.url("")), attempts=3)
    assert attempt.outcome == "failed_final" and "did not answer JSON" in attempt.error


def test_no_results_because_engines_failed_is_a_failure_and_plain_no_results_is_empty():
    with LoopbackSite() as site:
        site.add("/search", json.dumps({"results": [], "unresponsive_engines": [["brave", "timeout"]]}),
                 "application/json")
        failed = run(backend(site.url("")))
        site.add("/search", json.dumps({"results": [], "unresponsive_engines": []}), "application/json")
        empty = run(backend(site.url("")))
    assert failed.outcome == "failed_retryable" and "brave (timeout)" in failed.error
    assert empty.outcome == "empty" and empty.hits == []


def test_a_cloud_metadata_address_is_refused_without_retries():
    attempt = run(backend("http://169.254.169.254"), attempts=3)
    assert attempt.outcome == "failed_final" and attempt.attempts == 1


def test_searxng_goes_before_ddgs_and_beside_a_corpus(tmp_path):
    url = "http://localhost:8888"
    assert Settings(searxng_url=url).resolved_backends() == ["searxng", "web", "builtin"]
    assert Settings(searxng_url=url, backends=["web"]).resolved_backends() == ["searxng", "web"]
    both = Settings(searxng_url=url, corpus=str(tmp_path))
    assert both.resolved_backends() == ["corpus", "searxng", "web", "builtin"]
    assert both.search_sides(both.resolved_backends()) == [["corpus"], ["searxng", "web", "builtin"]]
    offline = Settings(searxng_url=url, corpus=str(tmp_path), offline=True)
    assert offline.resolved_backends() == ["corpus", "builtin"]
    assert offline.search_sides(offline.resolved_backends()) == [["corpus", "builtin"]]
    assert Settings(corpus=str(tmp_path)).resolved_backends() == ["corpus", "builtin"]  # no web unless asked
    explicit = Settings(corpus=str(tmp_path), backends=["web", "corpus"])  # a chain given by hand stays a chain
    assert explicit.search_sides(explicit.resolved_backends()) == [["web", "corpus"]]


def test_the_url_comes_from_the_environment_and_a_bad_one_is_refused_clearly():
    assert resolve_settings(environ={"SATIATE_SEARXNG_URL": "http://127.0.0.1:8888/"}).searxng_url == \
        "http://127.0.0.1:8888"
    with pytest.raises(SettingsError, match="searxng_url"):
        resolve_settings({"searxng_url": "localhost:8888"}, environ={})
