"""Test support: an Ollama-compatible HTTP server on 127.0.0.1, and a "brain" that answers satiate's prompts.

The server implements as much of Ollama's API as ChatOllama and satiate's probe use: ``GET /api/tags``,
``GET /api/version``, ``POST /api/show`` (404 for a model it does not have) and ``POST /api/chat`` (streamed NDJSON or
one JSON object; 404 "model not found" for a missing model). Every request is recorded so tests can assert what was
sent: the JSON-schema ``format``, ``options.num_ctx``, temperature, the output cap.

The brain reads a rendered satiate prompt (its ``Task: <name>.`` line and the quoted data tags) and writes a valid
answer built from that data: claims are the first sentences of the quoted sources, cited by their ids. It stands in
for a well-behaved model; tests wrap it to misbehave in specific ways.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# --- the brain --------------------------------------------------------------------------------------------------------
_TASK = re.compile(r"^Task: (\w+)\.", re.M)
FOLLOW_UP_QUERY = "itertools islice chain"  # finds the one sample passage the question's own searches miss
_SOURCE = re.compile(r'<source id="([^"]+)"[^>]*>\n(.*?)\n</source>', re.S)


def task_of(prompt: str) -> str | None:
    match = _TASK.search(prompt)
    return match.group(1) if match else None


def tag_text(prompt: str, tag: str) -> str:
    match = re.search(rf"<{tag}[^>]*>\n(.*?)\n</{tag}>", prompt, re.S)
    return match.group(1).strip() if match else ""


def quoted_sources(prompt: str) -> list[tuple[str, str]]:
    return [(sid, text.strip()) for sid, text in _SOURCE.findall(prompt)]


def evidence_sentences(prompt: str) -> list[tuple[str, str]]:
    """(id, sentence) of the numbered sentences a synthesis prompt quotes: ``E2 [S5 · Title] The sentence.``"""
    return re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", tag_text(prompt, "evidence"), re.M)


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0].rstrip("…").strip()


def brain_answer(prompt: str) -> str:
    """A valid answer to a satiate prompt, from the data the prompt quotes."""
    task = task_of(prompt)
    if task == "plan":
        target = tag_text(prompt, "target") or tag_text(prompt, "question")
        return json.dumps({
            "queries": [
                {"query": target, "intent": "the target", "angle": "question"},
                {"query": f"{target} limitations criticism", "intent": "opposing view", "angle": "counter_argument"},
            ],
            "tier": "simple",
        })
    if task == "reflect":
        # First pass: one follow-up search (so a second round, and a model compression, happen); then sufficient.
        if FOLLOW_UP_QUERY not in tag_text(prompt, "searches"):
            return json.dumps({"sufficient": False, "confidence": 0.4, "gaps": ["lazy iteration tools"],
                               "new_queries": [{"query": FOLLOW_UP_QUERY, "intent": "tools that consume "
                                                "generators", "angle": "entity"}]})
        return json.dumps({"sufficient": True, "confidence": 0.9, "gaps": [], "new_queries": []})
    if task == "synthesize":
        # The numbered sentences quoted in <evidence>: each claim restates one and cites its id.
        claims = [{"evidence": [eid], "claim": text} for eid, text in evidence_sentences(prompt)[:3]]
        return json.dumps({"claims": claims, "short_answer": ""})
    if task == "critic":
        return json.dumps({"reason": "The claims answer the question from the sources read.", "gaps": [],
                           "signoff": True})
    if task == "compress":
        lines = [f"- {first_sentence(text)}" for _, text in quoted_sources(prompt)[:5]]
        return "\n".join(lines) or "- nothing new"
    if task == "novelty":
        return "6"
    if task == "plan_query":
        return f"{tag_text(prompt, 'question')} overview"
    return "I do not know this task."


def chat_text(messages: list[dict]) -> str:
    return "\n".join(str(m.get("content", "")) for m in messages)


# --- the server -------------------------------------------------------------------------------------------------------
class OllamaStub:
    """``with OllamaStub() as stub:`` serves on ``stub.url``; ``stub.requests`` records (path, body) of each request."""

    def __init__(self, models: tuple[str, ...] = ("tiny:latest",),
                 responder: Callable[[dict], str] | None = None) -> None:
        self.models = models
        self.responder = responder or (lambda body: brain_answer(chat_text(body.get("messages", []))))
        self.requests: list[tuple[str, dict]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "stub not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def chat_requests(self) -> list[dict]:
        with self._lock:
            return [body for path, body in self.requests if path == "/api/chat"]

    def has_model(self, name: str) -> bool:
        return name in self.models or f"{name}:latest" in self.models

    def start(self) -> OllamaStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                return

            def _send(self, status: int, payload: Any, content_type: str = "application/json") -> None:
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                stub._record(self.path, {})
                if self.path == "/api/tags":
                    self._send(200, {"models": [{"name": m, "model": m, "size": 1, "digest": "0" * 12,
                                                 "details": {"family": "stub"}} for m in stub.models]})
                elif self.path == "/api/version":
                    self._send(200, {"version": "0.0.0-stub"})
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                stub._record(self.path, body)
                model = str(body.get("model") or body.get("name") or "")
                if self.path == "/api/show":
                    if stub.has_model(model):
                        self._send(200, {"modelfile": "", "parameters": "", "template": "{{ .Prompt }}",
                                         "details": {"family": "stub"}, "capabilities": ["completion"]})
                    else:
                        self._send(404, {"error": f"model '{model}' not found"})
                elif self.path == "/api/chat":
                    if not stub.has_model(model):
                        self._send(404, {"error": f'model "{model}" not found, try pulling it first'})
                        return
                    self._chat(body, model)
                else:
                    self._send(404, {"error": "not found"})

            def _chat(self, body: dict, model: str) -> None:
                content = stub.responder(body)
                prompt_tokens = len(chat_text(body.get("messages", []))) // 4
                final = {"model": model, "created_at": "2026-01-01T00:00:00Z",
                         "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                         "total_duration": 1000, "prompt_eval_count": prompt_tokens,
                         "eval_count": max(1, len(content) // 4)}
                if body.get("stream", True):
                    first = {"model": model, "created_at": final["created_at"],
                             "message": {"role": "assistant", "content": content}, "done": False}
                    lines = (json.dumps(first) + "\n" + json.dumps(final) + "\n").encode()
                    self._send(200, lines, "application/x-ndjson")
                else:
                    final["message"]["content"] = content
                    self._send(200, final)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def _record(self, path: str, body: dict) -> None:
        with self._lock:
            self.requests.append((path, body))

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> OllamaStub:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def closed_port_url() -> str:
    """A loopback URL nothing listens on (connection refused at once)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# --- a small corpus the model tests research --------------------------------------------------------------------------
SAMPLE_PASSAGES = [
    {"doc_id": "gen-basics", "title": "Generator functions",
     "text": "A generator function in Python is a function that contains a yield statement. Calling a generator "
             "function returns a generator object without running its body. Each call to next() resumes the "
             "function until it reaches the next yield statement, which hands a value back to the caller."},
    {"doc_id": "gen-lazy", "title": "Lazy evaluation with generators",
     "text": "Python generators produce values lazily, one at a time, which keeps memory use low for large "
             "sequences. A generator expression such as (x * x for x in range(10)) builds a generator without a "
             "def statement. Generators suit pipelines that read large files line by line."},
    {"doc_id": "gen-history", "title": "History of Python generators",
     "text": "Generators were introduced to Python by PEP 255 in Python 2.2, released in 2001. PEP 342 later added "
             "the send() method so that Python generators can work as simple coroutines. The yield from syntax was "
             "added by PEP 380 in Python 3.3 to delegate work to a subgenerator."},
    {"doc_id": "gen-limits", "title": "Limitations of generators",
     "text": "A limitation of Python generators is that a generator can be iterated only once. After a generator is "
             "exhausted, calling next() raises StopIteration. Critics of generator-heavy code note that errors "
             "raised inside a generator can be hard to debug because the traceback shows where it was resumed."},
    {"doc_id": "itertools", "title": "The itertools module",
     "text": "The itertools module offers building blocks such as islice and chain that consume iterators lazily. "
             "islice takes a slice of any iterator without building a list, and chain joins several iterators into "
             "one. Both work on any iterable object, such as a list or an open file."},
    {"doc_id": "bread", "title": "Sourdough bread",
     "text": "Sourdough bread is leavened with a culture of wild yeast and lactic acid bacteria rather than with "
             "baker's yeast. The starter is fed with flour and water every day, and the long fermentation gives the "
             "bread its sour taste."},
]
