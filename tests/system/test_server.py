"""satiate on the LangGraph API server (what Studio talks to), started for real with ``langgraph dev``.

One server for the module, on a free loopback port, telemetry off, serving the project's own ``langgraph.json`` with
satiate's checkpointer. The tests drive it the ways the README documents: the Python SDK (threads, streamed custom
progress events, final state), plain HTTP as ``curl`` sends it (runs/wait, runs/stream, a background run polled
until done), the settings form (context), and the shared checkpoint store (a Studio run resumed by the CLI and a
CLI run resumed by the server, by thread ID). The graph's nodes are sync functions: a run that completes under the
dev server's blocking-call detector shows they run off the event loop.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from support.studio_support import (  # noqa: E402
    DevServer,
    InjectedCrash,
    counting_dependencies,
    langgraph_executable,
    start_dev_server,
    write_corpus,
)

pytest.importorskip("langgraph_sdk", reason="the server tests need the 'server' extra (langgraph-sdk)")
if langgraph_executable() is None:  # pragma: no cover - depends on the installed extras
    pytest.skip("the langgraph CLI is not installed (pip install 'satiate[server]')", allow_module_level=True)

from langgraph_sdk import get_sync_client  # noqa: E402

from satiate.graph import cli  # noqa: E402
from satiate.state.settings import Settings  # noqa: E402

QUESTION = "What is a Python generator?"
ENV_MAX_CLAIMS = 2  # the server's environment sets SATIATE_MAX_CLAIMS to this
POLL_INTERVAL_S = 0.2
RUN_TIMEOUT_S = 60.0


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("studio")
    corpus = write_corpus(root / "corpus.jsonl")
    data_dir = root / "satiate-data"
    server = start_dev_server(root / "project", {"SATIATE_DATA_DIR": str(data_dir),
                                                 "SATIATE_MAX_CLAIMS": str(ENV_MAX_CLAIMS)})
    print(f"\nlanggraph dev answered /ok after {server.started_in_s:.1f} s at {server.url}")
    try:
        yield {"server": server, "corpus": corpus, "data_dir": data_dir, "project": root / "project"}
    finally:
        server.stop()
    assert "BlockingError" not in server.log, server.log[-4000:]


def research_input(corpus: Path, question: str = QUESTION, **settings: Any) -> dict[str, Any]:
    return {"question": question, "settings": {"llm": "none", "corpus": str(corpus), "seed": 1, **settings}}


def test_sdk_streams_progress_events_and_the_final_state(served: dict[str, Any]) -> None:
    server: DevServer = served["server"]
    client = get_sync_client(url=server.url)
    thread = client.threads.create()

    custom: list[dict[str, Any]] = []
    updated_nodes: list[str] = []
    for part in client.runs.stream(thread["thread_id"], "satiate", input=research_input(served["corpus"]),
                                   stream_mode=["custom", "updates"]):
        if part.event == "custom":
            custom.append(part.data)
        elif part.event == "updates":
            updated_nodes.extend(part.data)
        assert part.event != "error", part.data

    kinds = [event["event"] for event in custom]
    assert kinds[0] == "plan" and kinds[-1] == "finalize"
    assert {"search", "gate", "synthesize", "critic"} <= set(kinds)
    searches = [event for event in custom if event["event"] == "search"]
    assert all(event["backend"] == "corpus" and event["angle"] and event["outcome"] == "ok" for event in searches)
    assert {"plan", "gather", "novelty_gate", "synthesize", "critic", "finalize"} <= set(updated_nodes)

    state = client.threads.get_state(thread["thread_id"])
    values = state["values"]
    assert state["next"] == []
    assert values["resolved_settings"]["corpus"] == str(served["corpus"])
    assert len(values["search_results"]) == len(searches)  # every streamed search is in the stored state
    texts = {source["id"]: source["text"] for source in values["result"]["sources"]}
    assert values["result"]["claims"] and all(
        texts[source_id] for claim in values["result"]["claims"] for source_id in claim["source_ids"])
    finalize = custom[-1]
    assert finalize["claims"] == len(values["result"]["claims"])


def test_settings_form_is_described_and_its_values_beat_the_environment(served: dict[str, Any]) -> None:
    client = get_sync_client(url=served["server"].url)
    default_assistant = client.assistants.search(graph_id="satiate", metadata={"created_by": "system"})[0]
    schemas = client.assistants.get_schemas(default_assistant["assistant_id"])
    # Studio draws its input form from these; on Python < 3.12 a typing.TypedDict state gives null here.
    assert {"question", "settings"} <= set(schemas["input_schema"]["properties"])
    assert {"answer", "result"} <= set(schemas["output_schema"]["properties"])
    schema = schemas["context_schema"]["properties"]
    assert set(schema) == set(Settings.model_fields)
    assert schema["novelty_threshold"]["description"] == Settings.model_fields["novelty_threshold"].description

    def resolved(**kwargs: Any) -> dict[str, Any]:
        assistant = kwargs.pop("assistant_id", "satiate")
        out = client.runs.wait(None, assistant, **kwargs)
        return out["result"]["settings"]

    corpus = served["corpus"]
    assert resolved(input=research_input(corpus))["max_claims"] == ENV_MAX_CLAIMS  # environment beats the default
    chosen = resolved(input=research_input(corpus), context={"max_claims": 3, "tier": None})
    assert chosen["max_claims"] == 3  # the form beats the environment
    assert chosen["tier"] == Settings.model_fields["tier"].default  # a blank field masks nothing
    assert resolved(input=research_input(corpus, max_claims=4), context={"max_claims": 3})["max_claims"] == 4
    saved_form = client.assistants.create("satiate", context={"max_claims": 5}, name="five claims")
    assert resolved(assistant_id=saved_form["assistant_id"], input=research_input(corpus))["max_claims"] == 5


def sse_events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    """Server-sent events as (event, JSON data) pairs, parsed the way any SSE client would."""
    event, data = "", []
    for line in response.iter_lines():
        if line.startswith("event:"):
            event = line.removeprefix("event:").strip()
        elif line.startswith("data:"):
            data.append(line.removeprefix("data:").strip())
        elif not line and event:
            yield event, json.loads("\n".join(data)) if data else None
            event, data = "", []


def test_http_calls_from_the_readme(served: dict[str, Any]) -> None:
    """The README's curl examples, sent as the same HTTP requests: /run, streaming, and job polling."""
    body = {"assistant_id": "satiate", "input": research_input(served["corpus"])}
    with httpx.Client(base_url=served["server"].url, timeout=RUN_TIMEOUT_S) as http:
        # /run: one request, answer back (POST /runs/wait, no thread kept)
        answer = http.post("/runs/wait", json=body).raise_for_status().json()
        assert answer["answer"] and answer["result"]["claims"]

        # stream=true: progress as server-sent events (POST /threads/{id}/runs/stream)
        thread_id = http.post("/threads", json={}).raise_for_status().json()["thread_id"]
        with http.stream("POST", f"/threads/{thread_id}/runs/stream",
                         json={**body, "stream_mode": ["custom", "values"]}) as response:
            events = list(sse_events(response.raise_for_status()))
        custom = [data["event"] for name, data in events if name == "custom"]
        assert custom[0] == "plan" and custom[-1] == "finalize" and "search" in custom
        last_values = [data for name, data in events if name == "values"][-1]
        assert last_values["answer"] == answer["answer"]  # same question, same seed, same corpus

        # async=true: start a background run, get its ID at once, poll until done, then read the result
        job_thread = http.post("/threads", json={}).raise_for_status().json()["thread_id"]
        run = http.post(f"/threads/{job_thread}/runs", json=body).raise_for_status().json()
        assert run["status"] in {"pending", "running"}
        deadline = time.monotonic() + RUN_TIMEOUT_S
        status = run["status"]
        while status in {"pending", "running"} and time.monotonic() < deadline:
            time.sleep(POLL_INTERVAL_S)
            status = http.get(f"/threads/{job_thread}/runs/{run['run_id']}").raise_for_status().json()["status"]
        assert status == "success"
        state = http.get(f"/threads/{job_thread}/state").raise_for_status().json()
        assert state["values"]["answer"] == answer["answer"]
        joined = http.get(f"/threads/{job_thread}/runs/{run['run_id']}/join").raise_for_status().json()
        assert joined["answer"] == answer["answer"]


def test_a_studio_run_is_resumed_and_shown_by_the_cli(served: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    client = get_sync_client(url=served["server"].url)
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(thread_id, "satiate", input=research_input(served["corpus"]), interrupt_before=["synthesize"])
    paused = client.threads.get_state(thread_id)
    assert paused["next"] == ["synthesize"]
    searched = paused["values"]["search_results"]

    monkeypatch.setenv("SATIATE_DATA_DIR", str(served["data_dir"]))  # the server's store, as a user's shell would
    assert cli.main(["resume", thread_id, "--json"]) == cli.EXIT_OK
    printed = json.loads(capsys.readouterr().out)

    final = client.threads.get_state(thread_id)  # the server sees what the CLI wrote
    assert final["next"] == []
    assert final["values"]["answer"] == printed["answer"] and printed["claims"]
    assert final["values"]["search_results"][: len(searched)] == searched
    assert all(record["cycle"] > 1 for record in final["values"]["search_results"][len(searched):])
    assert cli.main(["show", thread_id, "--json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["answer"] == printed["answer"]


def test_a_cli_run_that_crashed_is_resumed_by_the_server(served: dict[str, Any]) -> None:
    from satiate.graph.builder import build_graph
    from satiate.graph.checkpoint import sqlite_checkpointer

    thread_id = str(uuid.uuid4())  # the API server's thread IDs are UUIDs
    corpus = served["corpus"]
    deps, backend = counting_dependencies(corpus, served["data_dir"], crash_in="critic")
    with sqlite_checkpointer(served["data_dir"]) as saver:  # the CLI's store and saver
        app = build_graph(deps, checkpointer=saver)
        with pytest.raises(InjectedCrash):
            app.invoke(research_input(corpus, backends=["corpus"]), {"configurable": {"thread_id": thread_id}})
    searched = len(backend.queries)

    client = get_sync_client(url=served["server"].url)
    client.threads.create(thread_id=thread_id, graph_id="satiate", if_exists="do_nothing")
    stopped = client.threads.get_state(thread_id)
    assert stopped["next"] == ["critic"] and len(stopped["values"]["search_results"]) == searched
    client.runs.wait(thread_id, "satiate", input=None)
    final = client.threads.get_state(thread_id)
    assert final["next"] == [] and final["values"]["answer"]
    records = final["values"]["search_results"]
    assert records[:searched] == stopped["values"]["search_results"]
    assert all(record["cycle"] > 1 for record in records[searched:])  # no cycle-1 search ran twice
