"""The finalize node on its own: the answer leads with the short answer and the claim that states it, cited; the
result carries the text of the sources its claims cite (and of no other), the run's errors, and says when the
answer rests on partial information. The state it finishes is the one synthesize leaves over stored sources."""

from __future__ import annotations

import re

import pytest

from satiate.nodes.common import error_record
from satiate.nodes.finalize import make_finalize_node
from satiate.nodes.synthesize import make_synthesize_node
from satiate.state.contracts import DEGRADED_NOTE, ResearchResult
from satiate.tools.source_texts import TextsMissing, text_hash
from support.node_states import node_deps, resolved, search_record, stored_sources
from support.research_corpus import PASSAGES, QUESTION

READ = ["lumen", "harbor", "harbor-press", "kettle-review", "pell-bio", "toaster", "tea"]  # S1 .. S7
PASSAGE = {p["doc_id"]: p for p in PASSAGES}


@pytest.fixture
def finished(isolated_data_dir):
    """A state as critic hands it to finalize: sources read and stored, synthesized by the deterministic engine."""
    settings = resolved(isolated_data_dir)
    state = {"question": QUESTION, "resolved_settings": settings, "engine": "deterministic", "cycle": 1,
             "search_round": 2, "sources": stored_sources(settings, [PASSAGE[d] for d in READ]),
             "search_results": [search_record(settings, [PASSAGE["lumen"]]),
                                search_record(settings, [], backend="builtin", outcome="failed_final", error="boom")],
             "stop_reason": "converged: 2 consecutive clean sign-offs"}
    synthesized = make_synthesize_node(node_deps())(state)
    return {**state, **{k: v for k, v in synthesized.items() if k not in ("counters", "elapsed_s", "tokens_used")}}


def run(state: dict, thread_id: str = "thread-7") -> tuple[str, dict]:
    update = make_finalize_node(node_deps())(state, {"configurable": {"thread_id": thread_id}})
    return update["answer"], update["result"]


def test_the_answer_leads_with_the_short_answer_and_the_claim_that_states_it_cited(finished):
    answer, result = run(finished)
    lead = answer.split("\n\n")[0]
    assert lead.startswith(f"**{finished['short_answer']['text']}** — ")
    stating = next(c for c in finished["claims"] if c.get("role") == "answer")
    number = {s["id"]: s["n"] for s in result["sources"]}[stating["source_ids"][0]]
    assert number == 1 and "[1]" in lead  # numbered in order of first use: the answer's own citation comes first
    assert stating["claim"].rstrip(".")[:40] in lead
    assert result["answer"] == answer and result["short_answer"] == finished["short_answer"]["text"]


def test_the_result_carries_the_text_of_every_source_it_numbers_and_only_those(finished):
    _, result = run(finished)
    claimed = {i for claim in finished["claims"] for i in claim["source_ids"]}
    by_id = {s["id"]: s for s in result["sources"]}
    assert set(by_id) == {f"S{n}" for n in range(1, len(READ) + 1)}  # every source read is listed ...
    numbered = {i for i, source in by_id.items() if source["n"] is not None}
    assert claimed and claimed <= numbered < set(by_id)
    assert numbered - claimed, "the fixture should also number a source only a dispute or key actor cites"
    for number, doc_id in enumerate(READ, 1):
        source = by_id[f"S{number}"]
        if source["n"] is not None:  # ... with its text when the answer or report cites it, read back from the store
            assert source["text"] == PASSAGE[doc_id]["text"]
            assert f"[{source['n']}]" in result["answer"] + result["report"]
        else:
            assert source["text"] is None
    assert {c["claim"] for c in result["claims"]} == {c["claim"] for c in finished["claims"]}


def test_the_result_is_the_published_contract_with_the_runs_thread_errors_and_backends(finished):
    problem = error_record("gather", "search_failed_final", "boom", cycle=1, round=1, query=QUESTION)
    _, result = run({**finished, "error_log": [problem]}, thread_id="kettle-run")
    parsed = ResearchResult.model_validate(result)
    assert parsed.thread_id == "kettle-run" and parsed.question == QUESTION
    assert parsed.errors == [problem] and parsed.stop_reason == finished["stop_reason"]
    assert parsed.backends_used == ["corpus"] and parsed.searches == 2  # the failed builtin search answered nothing
    assert parsed.degraded is False and parsed.settings == finished["resolved_settings"]


def test_the_result_shows_no_password_of_the_runs_settings(finished):
    settings = {**finished["resolved_settings"], "ollama_base_url": "http://research:s3cret@127.0.0.1:11434"}
    _, result = run({**finished, "resolved_settings": settings})
    assert result["settings"]["ollama_base_url"] == "http://research:***@127.0.0.1:11434"
    assert "s3cret" not in str(result)
    assert result["settings"]["store_url"] == settings["store_url"]  # a URL without a password is shown as it is


def test_degraded_mode_is_said_in_the_answer_and_the_result(finished):
    answer, result = run({**finished, "degraded_mode": True})
    assert f"> {DEGRADED_NOTE}" in answer.split("\n\n")[:2] and result["degraded"] is True
    assert DEGRADED_NOTE not in run(finished)[0]


def test_without_a_grounded_claim_the_answer_says_so_instead_of_guessing(finished):
    answer, result = run({**finished, "claims": [], "contradictions": [], "key_actors": [],
                          "short_answer": {"text": None, "kind": "person", "reason": "no claim passed"}})
    assert answer.startswith("The sources read do not support an answer")
    assert result["short_answer"] is None and result["short_answer_reason"] == "no claim passed"
    assert all(s["text"] is None and s["n"] is None for s in result["sources"])
    assert not re.search(r"\[\d+\]", answer)


def test_a_cited_text_the_store_no_longer_holds_stops_with_what_to_do(finished):
    cited = next(c for c in finished["claims"])["source_ids"][0]
    lost = {key: ({**s, "text_hash": text_hash("a text never stored")} if s["id"] == cited else s)
            for key, s in finished["sources"].items()}
    with pytest.raises(TextsMissing, match="run the question again"):
        run({**finished, "sources": lost})
