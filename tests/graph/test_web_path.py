"""The web path end to end through the real graph, fetcher and extractor, against the loopback SearXNG stand-in
(bench/web_standin.py) over invented passages: every source is a fetched page whose text goes beyond its snippet,
no page chrome or hidden text reaches a source, the pages are counted, and a corpus plus the web cite both."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from bench.web_standin import CHROME_MARKERS, WebStandin, snippet_of
from satiate.graph.builder import RECURSION_LIMIT, build_graph
from satiate.graph.deps import default_dependencies

MILL = ("Harrowgate Mill is a restored watermill on the river Tansy in the invented county of Brackenshire. It was "
        "built in 1781 by the millwright Oswin Pell, who also designed the sluice gates still in use today. The mill "
        "ground oats for the villages of the valley until 1932, when it closed, and it reopened as a working museum "
        "in 1988 after a long restoration paid for by the people of the valley.")
KETTLE = ("The Lumen kettle is a stovetop kettle made by Harbor Works, a small appliance maker in the invented port "
          "of Saltmere. Its whistle is tuned to a low note so that it does not wake a sleeping household, and its "
          "handle is carved from the wood of old pier timbers that the company buys from the harbour board.")
WEB_PASSAGES = [{"doc_id": "mill", "title": "Harrowgate Mill", "text": MILL},
                {"doc_id": "kettle", "title": "Lumen kettle", "text": KETTLE}]
PELL_NOTES = ("# Oswin Pell\n\nOswin Pell, the millwright who built Harrowgate Mill, was born in the village of "
              "Cardle Green in 1742. He learned the trade from his uncle and later built four mills along the river "
              "Tansy, of which only one still stands. His notebooks are kept in the parish archive of Cardle Green.\n")
RUN = {"tier": "simple", "max_cycles": 1, "max_search_rounds": 2, "seed": 3, "offline": False,
       "allow_private_addresses": True}  # the stand-in's pages are on loopback: the fetcher's guard is lifted here


@pytest.fixture
def web(tmp_path: Path):
    corpus = tmp_path / "web.jsonl"
    corpus.write_text("".join(json.dumps(p) + "\n" for p in WEB_PASSAGES), encoding="utf-8")
    with WebStandin(corpus, tmp_path / "standin-index") as running:
        yield running


def research(question: str, settings: dict) -> dict:
    app = build_graph(default_dependencies(), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": RECURSION_LIMIT}
    app.invoke({"question": question, "settings": settings}, config)
    return app.get_state(config).values["result"]


def test_every_source_is_a_fetched_page_beyond_its_snippet_and_free_of_chrome(web):
    result = research("Who built Harrowgate Mill?", {**RUN, "searxng_url": web.base_url, "backends": ["searxng"]})
    sources = result["sources"]
    assert sources and all((s["read_kind"], s["origin"]) == ("page", "web") for s in sources)
    cited = [s for s in sources if s["text"] is not None]
    assert cited and "Oswin Pell" in result["answer"]
    for source in cited:
        passage = next(p["text"] for p in WEB_PASSAGES if web.page_url(p["doc_id"]) == source["url"])
        assert len(source["text"]) > len(snippet_of(passage)) and "reopened as a working museum" in source["text"]
        assert not [marker for marker in CHROME_MARKERS if marker.lower() in source["text"].lower()]
    pages = result["pages"]
    assert pages["fetched"] == web.requests["page"] >= len(sources)
    assert pages["read"] == len(sources) and pages["failed"] == 0
    assert "Web pages: " in result["report"] and " — web: http://127.0.0.1:" in result["report"]


def test_a_corpus_and_the_web_are_searched_together_and_both_cited(web, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "oswin-pell.md").write_text(PELL_NOTES, encoding="utf-8")
    settings = {**RUN, "corpus": str(notes), "searxng_url": web.base_url, "max_search_rounds": 3}
    result = research("Where was the millwright who built Harrowgate Mill born?", settings)
    cited = {s["origin"] for s in result["sources"] if s["n"] is not None}
    assert cited == {"local", "web"}, [(s["title"], s["origin"], s["n"]) for s in result["sources"]]
    assert {"corpus", "searxng"} <= set(result["backends_used"])
    assert " — local: " in result["report"] and " — web: " in result["report"]

    offline = research("Where was the millwright who built Harrowgate Mill born?", {**settings, "offline": True})
    assert {s["origin"] for s in offline["sources"]} == {"local"} and offline["pages"]["fetched"] == 0
