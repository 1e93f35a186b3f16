"""The model engine through the real graph, with a scripted chat model and a local JSONL corpus.

Each scenario is a way small models misbehave: invalid JSON, ``<think>`` leaks, the wrong schema, answers that never
become valid, a hallucinated source id. The run must finish, the grounding gate must hold, and every fallback must
be on record (``result["errors"]`` and the state's counters).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from satiate.engine.model import ModelEngine
from satiate.graph import RECURSION_LIMIT, build_graph
from satiate.graph.deps import metrics_for, search_service_for
from satiate.nodes.common import Dependencies
from satiate.state.settings import Settings
from support.ollama_stub import SAMPLE_PASSAGES, brain_answer, task_of
from support.scripted_chat import ScriptedCall, ScriptedChatModel

QUESTION = "What is a Python generator?"
STRUCTURED = {"plan", "reflect", "synthesize", "critic"}
MODEL_ERRORS = {"model_output_invalid", "model_unreachable", "model_timeout", "model_missing", "model_error",
                "model_circuit_open", "model_unavailable"}


def run(model: ScriptedChatModel | ModelEngine, corpus, **overrides: Any) -> tuple[dict, dict]:
    """One research run through the compiled graph; returns (result, final state values).

    Given a scripted model, every node gets a fresh ModelEngine on it (the script is shared), reporting its calls to
    the run's exporter as a built engine does; given an engine, every node gets that one engine, as
    ``satiate.graph.deps.engine_for`` does in a real process.
    """
    if isinstance(model, ModelEngine):
        engine = model
        deps = Dependencies(engine_for=lambda s: engine, search_for=search_service_for)
    else:
        deps = Dependencies(engine_for=lambda s: ModelEngine(model, s, label="model:scripted", metrics=metrics_for(s)),
                            search_for=search_service_for)
    app = build_graph(deps, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": RECURSION_LIMIT}
    settings = {"corpus": str(corpus), "backends": "corpus", "seed": 1, "max_cycles": 2, **overrides}
    out = app.invoke({"question": QUESTION, "settings": settings}, config)
    return out["result"], app.get_state(config).values


@pytest.fixture
def corpus(write_jsonl):
    return write_jsonl(SAMPLE_PASSAGES)


def brain(call: ScriptedCall) -> str:
    return brain_answer(call.text)


def model_errors(result: dict) -> list[dict]:
    return [e for e in result["errors"] if e["type"] in MODEL_ERRORS]


def assert_grounded(result: dict) -> None:
    ids = {s["id"] for s in result["sources"]}
    assert result["claims"], "the run produced no claim"
    for claim in result["claims"]:
        assert claim["source_ids"] and set(claim["source_ids"]) <= ids


def test_valid_answers_drive_the_run_without_fallbacks(corpus) -> None:
    model = ScriptedChatModel(responder=brain)
    result, state = run(model, corpus)
    assert result["engine"] == "model:scripted"
    assert_grounded(result)
    counters = state["counters"]
    assert counters["model_fallbacks"] == 0 and counters["model_retries"] == 0
    assert counters["model_calls"] == len(model.calls) > 0
    assert {c.task for c in model.calls} >= STRUCTURED | {"compress"}
    assert not model_errors(result)
    # The second round's compression is the model's bullet list (the first round takes the fast path of design §6).
    compress_call = model.calls_for("compress")[-1]
    assert state["knowledge_state"] == brain_answer(compress_call.text)
    # The model's claims (first sentences of the sources it was shown) are what the answer says.
    texts = {p["text"].split(". ")[0] for p in SAMPLE_PASSAGES}
    assert any(claim["claim"].rstrip(".") in texts for claim in result["claims"])
    assert state["tokens_used"] > 0


def test_planner_tier_applies_unless_the_user_chose_one(corpus, monkeypatch) -> None:
    _, state = run(ScriptedChatModel(responder=brain), corpus)
    assert state["resolved_settings"]["tier"] == "simple"  # the brain classifies the question as simple
    _, state = run(ScriptedChatModel(responder=brain), corpus, tier="deep")
    assert state["resolved_settings"]["tier"] == "deep"
    monkeypatch.setenv("SATIATE_TIER", "standard")
    _, state = run(ScriptedChatModel(responder=brain), corpus)
    assert state["resolved_settings"]["tier"] == "standard"


def test_invalid_json_then_valid_is_repaired_by_one_retry(corpus) -> None:
    def first_wrong(call: ScriptedCall) -> str:
        if task_of(call.text) in STRUCTURED and not call.is_retry:
            return "Sure! I would search for generators, then write it up."
        return brain(call)

    model = ScriptedChatModel(responder=first_wrong)
    result, state = run(model, corpus)
    structured_first_tries = [c for c in model.calls if c.schema is not None and not c.is_retry]
    retries = [c for c in model.calls if c.is_retry]
    assert len(retries) == len(structured_first_tries) == state["counters"]["model_retries"] > 0
    assert all("no JSON object" in c.messages[-1].content for c in retries)
    assert state["counters"]["model_fallbacks"] == 0 and not model_errors(result)
    assert_grounded(result)


def test_always_invalid_falls_back_per_call_and_the_run_still_finishes(corpus) -> None:
    def useless(call: ScriptedCall) -> str:
        return "" if call.schema is None else f"I am unable to produce JSON (try {call.index})."

    model = ScriptedChatModel(responder=useless)
    result, state = run(model, corpus)
    assert result["stop_reason"] and result["answer"]
    assert_grounded(result)  # the deterministic engine's claims, still through the grounding gate
    errors = model_errors(result)
    assert errors and all(e["type"] == "model_output_invalid" for e in errors)
    assert all("deterministic engine answered" in e["message"] for e in errors)
    counters = state["counters"]
    assert counters["model_fallbacks"] == len(errors)
    # Bounded: each decision asked at most 1 + model_max_retries (2) times.
    decisions = [c for c in model.calls if not c.is_retry]
    assert len(model.calls) == 3 * len(decisions) == counters["model_calls"]
    assert {e["node"] for e in errors} >= {"plan", "synthesize", "critic"}
    # the report says how the model behaved, with the counts from the state
    assert (f"Model: {counters['model_calls']} calls" in result["report"]
            and f"{counters['model_fallbacks']} decisions made by the deterministic engine" in result["report"])
    assert result["metrics"]["model_fallbacks_total"] == counters["model_fallbacks"]


def test_think_prefixes_are_stripped_without_a_retry(corpus) -> None:
    def thinking(call: ScriptedCall) -> str:
        return "<think>The user wants JSON like {\"queries\": []}. Let me think.</think>\n" + brain(call)

    model = ScriptedChatModel(responder=thinking)
    result, state = run(model, corpus)
    counters = state["counters"]
    assert counters["model_retries"] == 0 and counters["model_fallbacks"] == 0
    assert counters["model_repairs"] == len(model.calls)
    assert_grounded(result)


def test_wrong_schema_is_fed_back_then_falls_back(corpus) -> None:
    def wrong_shape(call: ScriptedCall) -> str:
        if call.schema is not None:
            return json.dumps({"answer": "Generators are functions that yield.", "sources": [1, 2]})
        return brain(call)

    model = ScriptedChatModel(responder=wrong_shape)
    result, state = run(model, corpus)
    feedback = {c.task: c.messages[-1].content for c in model.calls if c.is_retry}
    assert "queries: Field required" in feedback["plan"]
    assert "signoff: Field required" in feedback["critic"]
    assert "claims: Field required" in feedback["synthesize"]
    fell_back = {e["node"] for e in model_errors(result)}
    assert {"plan", "synthesize", "critic"} <= fell_back
    assert state["counters"]["model_fallbacks"] == len(model_errors(result))
    assert_grounded(result)


def test_an_invented_sentence_id_or_fact_is_cut_before_the_gate_and_recorded(corpus) -> None:
    invented = "Generators were invented in 1960 by a committee in Geneva."

    def hallucinate(call: ScriptedCall) -> str:
        answer = brain(call)
        if task_of(call.text) == "synthesize":
            data = json.loads(answer)
            data["claims"][:0] = [{"evidence": ["E99"], "claim": invented}, {"evidence": ["E1"], "claim": invented}]
            return json.dumps(data)
        return answer

    model = ScriptedChatModel(responder=hallucinate)
    result, state = run(model, corpus)
    assert all(c["claim"] != invented for c in result["claims"])
    cut = [e for e in result["errors"] if e["type"] == "model_claim_cut"]
    assert any("E99" in e["message"] and invented[:40] in e["message"] for e in cut)
    assert any("do not state 1960" in e["message"] for e in cut)  # a real sentence id does not carry the invention
    counters = state["counters"]
    assert counters["model_claims"] - counters["model_claims_kept"] == len(cut) >= 2
    assert counters["model_fallbacks"] == 0 and counters["claims_cut"] == 0  # cut before the gate, not by it
    assert_grounded(result)


def test_model_novelty_uses_temperature_zero_a_few_tokens_and_neutral_five(corpus) -> None:
    def vague_novelty(call: ScriptedCall) -> str:
        return "quite new" if task_of(call.text) == "novelty" else brain(call)

    model = ScriptedChatModel(responder=vague_novelty)
    result, state = run(model, corpus, novelty_mode="model", tier="standard", searches_per_task=1)
    novelty_calls = model.calls_for("novelty")
    assert novelty_calls, "novelty_mode=model made no novelty call"
    assert all(c.temperature == 0.0 and c.max_tokens == 3 and c.schema is None for c in novelty_calls)
    assert all(v["score"] == 5 for v in state["novelty_scores"] if v["new_hits"])
    neutral = [e for e in result["errors"] if e["node"] == "novelty_gate" and e["type"] == "model_output_invalid"]
    assert len(neutral) == len(novelty_calls)
    assert all("neutral value" in e["message"] for e in neutral)


def test_heuristic_novelty_makes_no_model_call(corpus) -> None:
    model = ScriptedChatModel(responder=brain)
    run(model, corpus)
    assert not model.calls_for("novelty")


def test_an_unreachable_model_mid_run_opens_the_circuit(corpus) -> None:
    import httpx

    model = ScriptedChatModel(responder=lambda call: httpx.ConnectError("Connection refused"))
    engine = ModelEngine(model, Settings(model_circuit_failures=2), label="model:scripted")
    result, state = run(engine, corpus)
    kinds = [e["type"] for e in model_errors(result)]
    assert kinds[:2] == ["model_unreachable", "model_unreachable"]
    assert set(kinds[2:]) == {"model_circuit_open"}
    assert len(model.calls) == 2  # after the circuit opened, the model was not asked again
    assert_grounded(result)



# --- design §18: metrics from the run, and through Prometheus --------------------------------------------------------
def test_run_metrics_follow_the_state(corpus) -> None:
    from satiate.tools.metrics import run_metrics

    def useless(call: ScriptedCall) -> str:
        return "" if call.schema is None else "no"

    _, state = run(ScriptedChatModel(responder=useless), corpus)
    numbers = run_metrics(state)
    assert numbers["model_fallbacks_total"] == state["counters"]["model_fallbacks"] > 0
    assert numbers["model_calls_total"] == state["counters"]["model_calls"]
    assert numbers["iterations_per_request"] == len(state["novelty_scores"])
    assert numbers["research_loop_duration_seconds"] == state["elapsed_s"] > 0


def test_the_run_output_reports_what_became_of_the_models_claims(corpus) -> None:
    def swapped_ids(call: ScriptedCall) -> str:  # each of the first two claims cites the other's sentence
        answer = brain(call)
        if task_of(call.text) == "synthesize":
            data = json.loads(answer)
            first, second = data["claims"][:2]
            first["evidence"], second["evidence"] = second["evidence"], first["evidence"]
            return json.dumps(data)
        return answer

    result, state = run(ScriptedChatModel(responder=swapped_ids), corpus)
    counters, numbers = state["counters"], result["metrics"]  # result["metrics"] is what --json prints
    assert numbers["model_claims_reanchored"] == counters["model_claims_reanchored"] >= 2
    assert numbers["model_claims_written"] == counters["model_claims"] > 0
    assert numbers["model_claims_kept"] + numbers["model_claims_cut"] == numbers["model_claims_written"]
    assert numbers["model_claims_kept_share"] == round(counters["model_claims_kept"] / counters["model_claims"], 3)
    assert numbers["model_prompt_tokens"] == counters["model_prompt_tokens"] > 0
    calls = counters["model_calls"]
    assert numbers["model_seconds_per_call"] == round(counters["model_call_ms"] / 1000 / calls, 3)
    assert not [e for e in result["errors"] if e["type"] == "model_claim_cut"]  # moved, not cut
    assert_grounded(result)


def test_prometheus_exporter_serves_run_and_model_call_metrics(corpus) -> None:
    import httpx

    from satiate.tools.metrics import run_metrics

    exporter = metrics_for(Settings(metrics_port=0))  # 0: a free port on 127.0.0.1, shared by runs asking for port 0
    _, state = run(ScriptedChatModel(responder=brain), corpus, metrics_port=0)  # finalize observes the finished run
    numbers = run_metrics(state)
    body = httpx.get(f"http://127.0.0.1:{exporter.port}/metrics", timeout=5).text  # stopped by graph.deps.reset
    assert "research_loop_duration_seconds_count 1.0" in body
    assert f"iterations_per_request_sum {numbers['iterations_per_request']}" in body
    assert 'model_calls_total{outcome="ok",task="plan"} 1.0' in body
    assert "search_failures_total 0.0" in body
