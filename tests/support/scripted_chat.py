"""A chat model that replays scripted answers: the model tests and benchmarks plug into the real model engine.

It is a real LangChain ``BaseChatModel`` (so it runs through the same runnables, callbacks and structured-output
binding as ChatOllama) and adds what the fakes shipped in langchain-core lack: ``with_structured_output`` (binding the
JSON schema as ``format`` exactly as ChatOllama does, and parsing with the same pydantic parser) and usage metadata.
Answers come from a list (replayed in order) or from a function of the call; every call is recorded.

It can also play a slow model without being one: given ``reads_per_s`` / ``writes_per_s`` it reports each call's
durations as Ollama does (``prompt_eval_duration``, ``eval_duration``), and advances a ``SimulatedClock`` by them,
so time budgets can be tested in milliseconds.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from pydantic import BaseModel, PrivateAttr

from satiate.tools.llm.tokens import estimate_tokens, message_text


@dataclass(frozen=True)
class ScriptedCall:
    """One call the model received: the messages, the bound options (e.g. ``format``) and the task it was run for."""

    index: int
    messages: list[BaseMessage]
    options: dict[str, Any]
    metadata: dict[str, Any]
    temperature: float | None
    max_tokens: int | None
    timeout_s: float | None = None

    @property
    def task(self) -> str | None:
        return self.metadata.get("satiate_task")

    @property
    def schema(self) -> dict | None:
        """The JSON schema bound as ``format`` (structured calls), or None (plain-text calls)."""
        value = self.options.get("format")
        return value if isinstance(value, dict) else None

    @property
    def text(self) -> str:
        return "\n".join(message_text(m) for m in self.messages)

    @property
    def shown_evidence(self) -> dict[str, str]:
        """The numbered sentences of the prompt's evidence block, id -> sentence ("E3" -> "It was built in 1802.")."""
        block = re.search(r"<evidence>\n(.*?)\n</evidence>", self.text, re.S)
        return dict(re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", block.group(1), re.M)) if block else {}

    @property
    def is_retry(self) -> bool:
        """A re-ask after an unusable answer (the engine feeds the rejected answer back)."""
        return len(self.messages) > 2 and isinstance(self.messages[-2], AIMessage)


Reply = str | BaseMessage | Exception | Callable[[ScriptedCall], Any]


@dataclass
class _Script:
    """Shared by every copy of one scripted model (the engine copies models to change temperature per task)."""

    replies: list[Any]
    responder: Callable[[ScriptedCall], Any] | None
    cursor: int = 0
    calls: list[ScriptedCall] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class ScriptExhausted(RuntimeError):
    """The scripted list ran out of answers."""


class SimulatedClock:
    """A monotonic clock that only moves when told to (``advance``): pass it as an engine's ``clock``."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class ScriptedChatModel(BaseChatModel):
    """Replays ``replies`` in order, or asks ``responder(call)``; an Exception reply is raised (e.g.
    httpx.ConnectError)."""

    model_name: str = "scripted"
    temperature: float | None = None
    num_predict: int | None = None
    call_timeout_s: float | None = None
    reads_per_s: float | None = None  # play a model that reads the prompt this fast ...
    writes_per_s: float | None = None  # ... and writes this fast (reported, never slept)
    clock: Any = None  # a SimulatedClock advanced by each call's simulated duration
    _script: _Script = PrivateAttr()

    def __init__(
        self,
        replies: Sequence[Reply] | None = None,
        *,
        responder: Callable[[ScriptedCall], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if replies is None and responder is None:
            raise ValueError("give replies, a responder, or both (the responder answers after the replies run out)")
        self._script = _Script(list(replies or []), responder)

    @property
    def _llm_type(self) -> str:
        return "satiate-scripted"

    @property
    def calls(self) -> list[ScriptedCall]:
        return list(self._script.calls)

    def calls_for(self, task: str) -> list[ScriptedCall]:
        return [c for c in self._script.calls if c.task == task]

    def _next_reply(self, call: ScriptedCall) -> Any:
        script = self._script
        if script.cursor < len(script.replies):
            reply = script.replies[script.cursor]
            script.cursor += 1
        elif script.responder is not None:
            reply = script.responder
        else:
            raise ScriptExhausted(f"scripted model has no answer for call {call.index} (task {call.task})")
        return reply(call) if callable(reply) and not isinstance(reply, BaseMessage) else reply

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        metadata = dict(getattr(run_manager, "metadata", None) or {})
        options = {k: v for k, v in kwargs.items() if k != "ls_structured_output_format"}
        with self._script.lock:
            call = ScriptedCall(len(self._script.calls), list(messages), options, metadata, self.temperature,
                                self.num_predict, self.call_timeout_s)
            self._script.calls.append(call)
            reply = self._next_reply(call)
        if isinstance(reply, Exception):
            raise reply
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=message_text(reply)
                                                                         if isinstance(reply, BaseMessage)
                                                                         else str(reply))
        if message.usage_metadata is None:
            prompt_tokens = sum(estimate_tokens(message_text(m)) for m in messages)
            output_tokens = estimate_tokens(message_text(message))
            message = message.model_copy(update={"usage_metadata": {
                "input_tokens": prompt_tokens, "output_tokens": output_tokens,
                "total_tokens": prompt_tokens + output_tokens}})
        metadata = {**message.response_metadata, "model_name": self.model_name, **self._durations(message)}
        message = message.model_copy(update={"response_metadata": metadata})
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _durations(self, message: AIMessage) -> dict[str, int]:
        """Ollama's timing keys for a simulated speed (nanoseconds), and the simulated clock moved on by them."""
        if not self.reads_per_s or not self.writes_per_s:
            return {}
        usage = message.usage_metadata or {}
        prompt, output = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
        if self.num_predict is not None:
            output = min(output, self.num_predict)
        reading, writing = prompt / self.reads_per_s, output / self.writes_per_s
        if self.clock is not None:
            self.clock.advance(reading + writing)
        return {"prompt_eval_count": prompt, "prompt_eval_duration": int(reading * 1e9), "eval_count": output,
                "eval_duration": int(writing * 1e9)}

    def with_structured_output(
        self,
        schema: dict | type,
        *,
        method: str = "json_schema",
        include_raw: bool = False,
        **kwargs: Any,
    ) -> Runnable:
        """Bind the JSON schema as ``format`` (as ChatOllama's json_schema method does) and parse the answer."""
        if method not in ("json_schema", "json_mode"):
            raise NotImplementedError(f"scripted model supports json_schema and json_mode, not {method}")
        is_model = isinstance(schema, type) and issubclass(schema, BaseModel)
        json_schema = schema.model_json_schema() if is_model else schema
        bound = self.bind(format=json_schema if method == "json_schema" else "json")
        parser = PydanticOutputParser(pydantic_object=schema) if is_model else JsonOutputParser()
        if not include_raw:
            return bound | parser
        parse = RunnablePassthrough.assign(parsed=itemgetter("raw") | parser, parsing_error=lambda _: None)
        keep_raw = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=bound) | parse.with_fallbacks([keep_raw], exception_key="parsing_error")
