"""Issue 11 item 4: with no corpus satiate searches the web and falls back to the built-in corpus; ``offline`` keeps
it off the internet; a web that cannot be reached is said once on screen, and the answer says where it came from."""

from __future__ import annotations

import io
import uuid

import pytest
from ddgs.exceptions import DDGSException
from langgraph.checkpoint.memory import InMemorySaver
from rich.console import Console

from satiate.graph.builder import RECURSION_LIMIT, build_graph
from satiate.graph.deps import engine_for, store_for
from satiate.graph.progress import ProgressView, progress_line
from satiate.nodes.common import Dependencies
from satiate.state.settings import SettingsError, resolve_settings
from satiate.tools.search.base import failure_reason
from satiate.tools.search.service import SearchService, build_backend
from satiate.tools.search.web import WebBackend
from support.research_corpus import GENERATOR_PASSAGES

FAST = {"tier": "simple", "max_cycles": 1, "max_search_rounds": 2, "seed": 7}
QUESTION = "How do Python generators save memory?"
DNS_ERROR = "DNSError: error sending request > error resolving DNS > DNS error: no records found for www.mojeek.com"


@pytest.mark.parametrize(("settings", "environ", "chain"), [
    ({}, {}, ["web", "builtin"]),
    ({"corpus": "docs"}, {}, ["corpus", "builtin"]),
    ({"corpus": "docs", "web": True}, {}, ["corpus", "web", "builtin"]),
    ({"web": False}, {}, ["builtin"]),
    ({}, {"SATIATE_OFFLINE": "1"}, ["builtin"]),
    ({"web": True}, {"SATIATE_OFFLINE": "true"}, ["builtin"]),
    ({"corpus": "docs", "offline": True}, {}, ["corpus", "builtin"]),
    ({"offline": False}, {"SATIATE_OFFLINE": "1"}, ["web", "builtin"]),  # the per-run value beats the environment
    ({"backends": ["builtin", "web"]}, {}, ["builtin", "web"]),
])
def test_auto_searches_the_web_unless_a_corpus_is_given_or_satiate_is_offline(settings, environ, chain):
    assert resolve_settings(settings, environ=environ).resolved_backends() == chain


def test_offline_refuses_an_explicit_web_backend_with_what_to_do(isolated_data_dir):
    settings = resolve_settings({"backends": ["web", "builtin"]}, environ={"SATIATE_OFFLINE": "1"})
    with pytest.raises(SettingsError, match="offline is set.*--no-offline"):
        build_backend("web", settings)


def test_tests_run_offline():
    """conftest pins offline, so no test reaches the internet by default."""
    assert resolve_settings().offline and "web" not in resolve_settings().resolved_backends()


@pytest.mark.parametrize(("message", "reason"), [
    (f"web unreachable: {DNS_ERROR}", "DNS lookup failed"),
    ("web unreachable (DNS lookup failed): 3 connection failures in a row; not retrying", "DNS lookup failed"),
    ("web unreachable: [Errno 111] Connection refused", "connection refused"),
    ("web search timed out after 8 s: operation timed out", "timed out"),
    ("web search returned no results (ddgs cannot tell this from a rate limit)", "no results, or rate-limited"),
    ("web search failed: " + "x" * 200, "web search failed: " + "x" * 60 + "…"),
])
def test_a_failure_is_told_in_a_few_words(message, reason):
    assert failure_reason(message) == reason


class DnsDown:
    """A ddgs client on a machine without DNS."""

    calls = 0

    def text(self, query, **kwargs):
        DnsDown.calls += 1
        raise DDGSException(DNS_ERROR)


def run_streamed(deps: Dependencies, settings: dict) -> tuple[dict, str]:
    """Run the graph as the CLI does: custom events rendered by the progress view; returns (state, screen)."""
    app = build_graph(deps, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": RECURSION_LIMIT}
    screen = io.StringIO()
    with ProgressView(Console(file=screen, width=300, color_system=None), progress_line) as view:
        for event in app.stream({"question": QUESTION, "settings": settings}, config, stream_mode="custom"):
            view.show(event)
    return app.get_state(config).values, screen.getvalue()


def test_web_down_is_said_once_and_the_answer_says_where_it_came_from(write_jsonl, isolated_data_dir):
    corpus = write_jsonl(GENERATOR_PASSAGES)
    overrides = {**FAST, "backends": ["web", "corpus"], "corpus": str(corpus), "offline": False}
    settings = resolve_settings(overrides)
    web = WebBackend(settings, client_factory=lambda timeout: DnsDown())
    service = SearchService({"web": web, "corpus": build_backend("corpus", settings)}, retry_attempts=3,
                            retry_initial_wait=0, retry_max_wait=0, store=store_for(settings), cache_ttl_s=0)

    state, screen = run_streamed(Dependencies(engine_for=engine_for, search_for=lambda s: service), overrides)
    result = state["result"]

    failed_lines = [line for line in screen.splitlines() if "→ web: failed" in line]
    assert len(failed_lines) > 1  # every query tried the web first ...
    assert screen.count("DNS lookup failed") == 1  # ... and the reason is said once, on the first of them
    assert "(DNS lookup failed)" in failed_lines[0]
    note = "The web could not be reached (DNS lookup failed); this answer comes from the local corpus only."
    assert result["degraded"] and f"> {note}" in result["answer"]
    assert note in result["report"] and "Degraded mode: yes." in result["report"]
    assert result["backends_used"] == ["corpus"] and result["claims"]
    # the full error stays on record, and a fail-fast failure still says why the web was unreachable
    assert any("(DNS lookup failed)" in e["message"] for e in result["errors"] if e["type"] == "search_failed_final")


def test_an_answer_from_a_web_that_answered_is_not_marked(isolated_data_dir):
    from satiate.tools.search.base import RawHit

    class Web:
        name, description = "web", "test web"

        def search(self, query, max_results):
            return [RawHit(title=f"{query} {n}", url=f"https://example.org/{abs(hash(query))}/{n}",
                           body=f"Generators yield items lazily, so they keep little in memory ({n}). " * 6)
                    for n in range(3)]

    overrides = {**FAST, "backends": ["web", "builtin"], "url_enrich_count": 0}
    service = SearchService({"web": Web(), "builtin": build_backend("builtin", resolve_settings(overrides))},
                            retry_attempts=1)
    state, screen = run_streamed(Dependencies(engine_for=engine_for, search_for=lambda s: service), overrides)
    assert not state["result"]["degraded"] and "could not be reached" not in state["result"]["answer"]
    assert "failed" not in screen
