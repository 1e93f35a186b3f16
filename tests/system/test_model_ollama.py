"""The Ollama path at the protocol level, against an Ollama-compatible server on 127.0.0.1, and through the CLI.

What goes over the wire (the JSON schema as ``format``, ``num_ctx`` and the other options), what a missing server
or a missing model looks like to the user, and that ``satiate run --llm ollama:MODEL`` finishes with valid output.
"""

from __future__ import annotations

import json

import pytest

from satiate.engine.base import ResearchView
from satiate.engine.model import ModelEngine
from satiate.graph import build_graph
from satiate.graph.cli import main
from satiate.graph.deps import EngineUnavailable, engine_for
from satiate.graph.deps import reset as reset_dependencies
from satiate.state.settings import Settings
from satiate.tools.llm.factory import chat_model_for
from satiate.tools.llm.probe import probe_ollama
from support.ollama_stub import SAMPLE_PASSAGES, OllamaStub, chat_text, closed_port_url, task_of

QUESTION = "What is a Python generator?"
# The model-facing schemas: what each task's grammar lets the model write (engine/model_answers.py, engine/evidence.py).
SCHEMAS = {"plan": "ModelPlan", "reflect": "ReflectionResponse", "synthesize": "EvidenceAnswer",
           "critic": "ModelCriticReport"}


@pytest.fixture(autouse=True)
def fresh_model_caches():
    reset_dependencies()
    yield
    reset_dependencies()


@pytest.fixture
def stub():
    with OllamaStub() as server:
        yield server


@pytest.fixture
def corpus(write_jsonl):
    return write_jsonl(SAMPLE_PASSAGES)


def by_task(stub: OllamaStub) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for body in stub.chat_requests:
        grouped.setdefault(task_of(chat_text(body["messages"])) or "?", []).append(body)
    return grouped


def test_requests_carry_the_json_schema_num_ctx_and_options(stub, corpus) -> None:
    settings = {"llm": "ollama:tiny", "ollama_base_url": stub.url, "num_ctx": 4096, "temperature": 0.2,
                "num_predict": 512, "novelty_mode": "model", "searches_per_task": 1, "tier": "standard",
                "corpus": str(corpus), "backends": "corpus", "seed": 1}
    out = build_graph().invoke({"question": QUESTION, "settings": settings})
    assert out["result"]["engine"] == "model:ollama:tiny"
    requests = by_task(stub)
    assert set(requests) >= {*SCHEMAS, "novelty", "compress"}
    for task, title in SCHEMAS.items():
        for body in requests[task]:
            assert body["model"] == "tiny"
            assert body["format"]["title"] == title and body["format"]["properties"]
            assert body["options"] == {"num_ctx": 4096, "num_predict": 512, "temperature": 0.2}
            assert [m["role"] for m in body["messages"]] == ["system", "user"]
    for body in requests["novelty"]:  # design §5: temperature 0 and a few output tokens, plain text
        assert body.get("format") is None
        assert body["options"] == {"num_ctx": 4096, "num_predict": 3, "temperature": 0.0}
    for body in requests["compress"]:
        assert body.get("format") is None and body["options"]["num_predict"] <= 512
    # The start-up probe ran once for the whole run, not once per node.
    assert [path for path, _ in stub.requests if path == "/api/show"] == ["/api/show"]


def test_no_server_says_start_it_with_ollama_serve() -> None:
    result = probe_ollama(closed_port_url(), "tiny", timeout_s=2)
    assert not result.ok and result.kind == "no_server"
    assert "`ollama serve`" in result.message


def test_missing_model_says_pull_it(stub) -> None:
    result = probe_ollama(stub.url, "qwen2.5:14b", timeout_s=2)
    assert not result.ok and result.kind == "model_missing"
    assert "`ollama pull qwen2.5:14b`" in result.message
    assert probe_ollama(stub.url, "tiny", timeout_s=2).ok  # 'tiny' means 'tiny:latest', as in Ollama


def test_an_unreachable_named_model_stops_with_the_fix() -> None:
    url = closed_port_url()
    for fallback in (True, False):  # allow_engine_fallback covers a model lost mid-run, not one missing at the start
        with pytest.raises(EngineUnavailable, match="ollama serve") as failed:
            engine_for(Settings(llm="ollama:tiny", ollama_base_url=url, allow_engine_fallback=fallback))
        assert "llm to 'auto'" in str(failed.value) and "through the API" in str(failed.value)  # both audiences


def test_auto_takes_a_pulled_chat_model_and_falls_back_without_a_server() -> None:
    with OllamaStub(models=("nomic-embed-text:latest", "llama3.2:3b")) as server:
        engine = engine_for(Settings(llm="auto", ollama_base_url=server.url))
        assert engine.label == "model:ollama:llama3.2:3b"  # the embedding model is skipped
    with OllamaStub(models=("llama3.2:3b", "qwen2.5:7b")) as server:
        engine = engine_for(Settings(llm="auto", ollama_base_url=server.url))
        assert engine.label == "model:ollama:qwen2.5:7b"  # the preferred default, when pulled
    # 'auto' means "Ollama if it answers": no server is never an error, whatever allow_engine_fallback says.
    engine = engine_for(Settings(llm="auto", ollama_base_url=closed_port_url(), allow_engine_fallback=False))
    assert engine.label == "deterministic (model unavailable)"


def test_a_model_missing_at_call_time_falls_back_with_a_typed_error(stub) -> None:
    settings = Settings(ollama_base_url=stub.url)
    engine = ModelEngine(chat_model_for("ollama:ghost", settings), settings)
    view = ResearchView(question=QUESTION, settings=settings, sources=[], knowledge_state="", search_results=[])
    decision = engine.plan(view, QUESTION)
    assert decision.fallbacks == 1 and decision.model_calls == 1
    assert decision.errors[0]["type"] == "model_missing" and decision.errors[0]["node"] == "plan"
    assert decision.value.queries[0].query == QUESTION  # the deterministic plan


# --- the CLI ---------------------------------------------------------------------------------------------------------
def cli_run(capsys, *flags: str) -> tuple[int, dict | None, str]:
    code = main(["run", QUESTION, "--seed", "1", "--backends", "corpus", "--json", *flags])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if code == 0 else None), captured.err


def test_cli_run_with_an_ollama_model(stub, corpus, capsys) -> None:
    code, result, err = cli_run(capsys, "--llm", "ollama:tiny", "--ollama-base-url", stub.url, "--corpus", str(corpus))
    assert code == 0, err
    assert result["engine"] == "model:ollama:tiny"
    assert f"Ollama at {stub.url} serves 'tiny'" in err
    ids = {s["id"] for s in result["sources"]}
    assert result["claims"] and all(set(c["source_ids"]) <= ids for c in result["claims"])
    assert not [e for e in result["errors"] if e["type"].startswith("model_")]
    assert len(stub.chat_requests) >= 4


def test_cli_auto_without_a_server_says_so_and_continues(corpus, capsys) -> None:
    code, result, err = cli_run(capsys, "--llm", "auto", "--ollama-base-url", closed_port_url(),
                                "--corpus", str(corpus))
    assert code == 0, err
    assert "start it with `ollama serve`" in err
    assert result["engine"] == "deterministic (model unavailable)"
    unavailable = [e for e in result["errors"] if e["type"] == "model_unavailable"]
    assert len(unavailable) == 1 and "ollama serve" in unavailable[0]["message"]
    assert result["claims"]


def test_cli_without_a_server_and_without_fallback_stops_with_the_fix(corpus, capsys) -> None:
    code, _, err = cli_run(capsys, "--llm", "ollama:tiny", "--ollama-base-url", closed_port_url(),
                           "--corpus", str(corpus), "--no-allow-engine-fallback")
    assert code == 2
    assert "ollama serve" in err and "Traceback" not in err


def test_cli_with_a_model_that_is_not_pulled(stub, corpus, capsys) -> None:
    code, _, err = cli_run(capsys, "--llm", "ollama:qwen3:8b", "--ollama-base-url", stub.url,
                           "--corpus", str(corpus))
    assert code == 2
    assert "pull it with `ollama pull qwen3:8b`" in err and len(err.strip().splitlines()) == 1
