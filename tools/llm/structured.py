"""Structured answers from models that do not always keep to the schema.

Small local models leak ``<think>`` blocks, wrap JSON in code fences or prose, leave trailing commas, get cut off
mid-object by the token limit, write ``sourceIds`` for ``source_ids`` and ignore numeric bounds. The parser here
undoes each of those before pydantic validates, and names every repair it made. What still does not validate is
re-asked with the validation error fed back, a bounded number of times; then the call fails with a typed
``CallFailed`` and the engine answers deterministically. There is no unbounded loop anywhere in this module.

A re-ask must be able to change the outcome: under near-greedy or grammar-constrained decoding the same prompt
returns the same bytes (measured with a 1.5B model: two re-asks, byte-identical answers). So a re-ask may sample at
another temperature and send a simpler request (``Reask``), and the loop stops as soon as an answer repeats one
already rejected, or when the caller says there is no time left for another try.
"""

from __future__ import annotations

import json
import re
import time
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import json_repair
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import BaseModel, ValidationError

from satiate.tools.llm.errors import CallFailure, classify_failure
from satiate.tools.llm.factory import TIME_LIMIT
from satiate.tools.llm.pace import CallTiming, timing_of
from satiate.tools.llm.tokens import call_tokens, message_text

M = TypeVar("M", bound=BaseModel)
V = TypeVar("V")

_CLOSED_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1\s*>", re.S | re.I)
_STRAY_CLOSE = re.compile(r"^.*?</(?:think|thinking|reasoning)\s*>", re.S | re.I)
_OPEN_REASONING = re.compile(r"<(?:think|thinking|reasoning)>", re.I)
_FENCE = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
MAX_JSON_STARTS = 20  # candidate '{' / '[' positions tried before giving up
MAX_FIX_PASSES = 10  # validation/repair passes per answer
FEEDBACK_ECHO_CHARS = 1500  # how much of a rejected answer is shown back to the model
MAX_PROBLEMS_SHOWN = 5


class OutputInvalid(ValueError):
    """A model answer that cannot be used; ``problem`` is worded to be fed back to the model."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(frozen=True)
class Parsed(Generic[M]):
    value: M
    repairs: tuple[str, ...] = ()


# --- cleaning the text ------------------------------------------------------------------------------------------------
def strip_reasoning(text: str) -> str:
    """Remove ``<think>…</think>`` blocks; a lone closing tag (the opening one was in the template) cuts what precedes
    it."""
    cleaned = _CLOSED_REASONING.sub("", text)
    cleaned = _STRAY_CLOSE.sub("", cleaned, count=1)
    return _OPEN_REASONING.sub("", cleaned).strip()


def strip_fences(text: str) -> str:
    """The body of the first code fence that holds JSON, or of the first fence; the text itself when unfenced."""
    if "```" not in text:
        return text
    bodies = [m.group(1) for m in _FENCE.finditer(text)]
    for body in bodies:
        if "{" in body or "[" in body:
            return body.strip()
    return bodies[0].strip() if bodies else text


def balanced_span(text: str, start: int) -> str:
    """From ``text[start]`` (an opening bracket) to its matching close, or to the end if the answer was cut off."""
    stack: list[str] = []
    quote: str | None = None
    index = start
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 2
                continue
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]":
            if stack and stack[-1] == char:
                stack.pop()
            if not stack:
                return text[start : index + 1]
        index += 1
    return text[start:]


def repair_json(text: str) -> str:
    """Near-JSON made JSON by json-repair: single quotes, Python literals, bare keys and words, comments, trailing
    commas, unescaped inner quotes, an answer cut off mid-object. What it cannot mend still fails to validate."""
    return json_repair.repair_json(text, skip_json_loads=True, ensure_ascii=False)


def find_json(text: str) -> tuple[Any, list[str]]:
    """The first JSON value in the text, with the repairs it needed; raises OutputInvalid when there is none."""
    stripped = text.strip()
    try:
        return json.loads(stripped), []
    except (json.JSONDecodeError, ValueError):
        pass
    starts = [i for i, c in enumerate(stripped) if c == "{"][:MAX_JSON_STARTS]
    starts += [i for i, c in enumerate(stripped) if c == "["][:MAX_JSON_STARTS]
    for start in starts:
        span = balanced_span(stripped, start)
        extracted = ["json_extracted"] if span.strip() != stripped else []
        try:
            return json.loads(span), extracted
        except (json.JSONDecodeError, ValueError):
            pass
        try:
            repaired = json.loads(repair_json(span), strict=False)
        except (json.JSONDecodeError, ValueError):
            continue
        if isinstance(repaired, dict | list):  # a bracket that mends to a bare string or number was no JSON value
            return repaired, [*extracted, "json_repaired"]
    shown = stripped[:120].replace("\n", " ")
    raise OutputInvalid(f"the reply contains no JSON object (it starts: {shown!r})" if shown else "the reply was empty")


# --- fitting the data to the schema -----------------------------------------------------------------------------------
def snake_key(key: str) -> str:
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key.strip())
    return re.sub(r"[^0-9a-zA-Z]+", "_", key).strip("_").lower()


def normalize_keys(data: Any) -> tuple[Any, bool]:
    """camelCase / spaced / hyphenated keys to snake_case, recursively (our contracts are all snake_case)."""
    if isinstance(data, dict):
        changed = False
        result: dict[str, Any] = {}
        for key, value in data.items():
            new_key = snake_key(str(key)) or str(key)
            new_value, inner = normalize_keys(value)
            changed |= inner or new_key != key
            result.setdefault(new_key, new_value)
        return result, changed
    if isinstance(data, list):
        items = [normalize_keys(item) for item in data]
        return [item for item, _ in items], any(changed for _, changed in items)
    return data, False


def _list_fields(schema: type[BaseModel]) -> list[str]:
    return [name for name, info in schema.model_fields.items() if typing.get_origin(info.annotation) is list]


def fit_shape(data: Any, schema: type[BaseModel]) -> tuple[Any, list[str]]:
    """Undo the usual shape slips: a bare list for a one-list object, or the object wrapped in one extra key."""
    fields = set(schema.model_fields)
    if isinstance(data, list):
        lists = _list_fields(schema)
        if len(lists) == 1:
            return {lists[0]: data}, ["wrapped_list"]
        return data, []
    if isinstance(data, dict) and len(data) == 1 and not (set(data) & fields):
        inner = next(iter(data.values()))
        if isinstance(inner, dict) and set(inner) & fields:
            return inner, ["unwrapped"]
        if isinstance(inner, list):
            wrapped, repairs = fit_shape(inner, schema)
            if repairs:
                return wrapped, ["unwrapped", *repairs]
    return data, []


def _parent(data: Any, loc: Sequence[Any]) -> tuple[Any, Any] | None:
    node = data
    for part in loc[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return (node, loc[-1]) if loc else None


def _literal_choice(value: Any, expected: str) -> str | None:
    """The one allowed literal the answer's value evidently meant ('Standard' -> 'standard', 'medium' -> 'med')."""
    choices = re.findall(r"'([^']*)'", expected)
    if not isinstance(value, str) or not choices:
        return None

    def squash(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    target = squash(value)
    if not target:
        return None
    exact = [c for c in choices if squash(c) == target]
    if exact:
        return exact[0]
    close = [c for c in choices if squash(c) and (squash(c) in target or target in squash(c))]
    return close[0] if len(close) == 1 else None


def _fix(data: Any, error: Mapping[str, Any]) -> str | None:
    """Repair one validation error in place; the repair's name, or None when it cannot be repaired this way."""
    loc = tuple(error.get("loc", ()))
    where = _parent(data, loc)
    if where is None:
        return None
    parent, key = where
    ctx = error.get("ctx") or {}
    kind = error.get("type", "")
    try:
        current = parent[key]
    except (KeyError, IndexError, TypeError):
        return None
    name = ".".join(str(p) for p in loc)
    if kind in ("greater_than_equal", "less_than_equal") and isinstance(current, (int, float)):
        parent[key] = ctx.get("ge", ctx.get("le"))
        return f"clamped {name}"
    if kind == "too_long" and isinstance(current, list) and "max_length" in ctx:
        parent[key] = current[: int(ctx["max_length"])]
        return f"truncated {name}"
    if kind == "string_too_long" and isinstance(current, str) and "max_length" in ctx:
        parent[key] = current[: int(ctx["max_length"])]
        return f"truncated {name}"
    if kind == "literal_error":
        choice = _literal_choice(current, str(ctx.get("expected", "")))
        if choice is not None:
            parent[key] = choice
            return f"mapped {name}"
    return None


def _drop_bad_items(data: Any, errors: Sequence[Mapping[str, Any]]) -> list[str]:
    """Remove list items that carry an unfixable error, keeping the rest of the list (deepest index first)."""
    dropped: list[str] = []
    targets: dict[tuple, int] = {}
    for error in errors:
        loc = tuple(error.get("loc", ()))
        for depth in range(len(loc) - 1, -1, -1):
            if isinstance(loc[depth], int):
                targets[loc[: depth + 1]] = 1
                break
    for loc in sorted(targets, key=lambda target: (len(target), target[-1]), reverse=True):
        where = _parent(data, loc)
        if where is None:
            continue
        parent, index = where
        if isinstance(parent, list) and 0 <= index < len(parent) and len(parent) > 1:
            del parent[index]
            dropped.append(f"dropped {'.'.join(str(p) for p in loc)}")
    return dropped


def describe_errors(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:MAX_PROBLEMS_SHOWN]:
        where = ".".join(str(p) for p in item.get("loc", ())) or "the object"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    more = error.error_count() - MAX_PROBLEMS_SHOWN
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def validate_lenient(data: Any, schema: type[M]) -> Parsed[M]:
    """Validate, repairing what can be repaired without asking again: out-of-range numbers are clamped to the bound,
    over-long lists cut, near-miss enum values mapped, and list items that stay invalid dropped."""
    repairs: list[str] = []
    last: ValidationError | None = None
    for _ in range(MAX_FIX_PASSES):
        try:
            return Parsed(schema.model_validate(data), tuple(repairs))
        except ValidationError as error:
            last = error
            fixes = [fix for item in error.errors() if (fix := _fix(data, item))]
            if not fixes:
                fixes = _drop_bad_items(data, error.errors())
            if not fixes:
                break
            repairs.extend(fixes)
    assert last is not None
    raise OutputInvalid(f"the JSON does not match the schema: {describe_errors(last)}")


def parse_structured(reply: str | dict | list, schema: type[M]) -> Parsed[M]:
    """Parse one model answer (text, or tool-call arguments) into ``schema``, naming each repair."""
    repairs: list[str] = []
    if isinstance(reply, str):
        text = strip_reasoning(reply)
        if text != reply.strip():
            repairs.append("reasoning_stripped")
        unfenced = strip_fences(text)
        if unfenced != text:
            repairs.append("fences_stripped")
        data, found = find_json(unfenced)
        repairs += found
    else:
        data = json.loads(json.dumps(reply))  # a private copy the repairs may edit
    data, renamed = normalize_keys(data)
    if renamed:
        repairs.append("keys_renamed")
    data, reshaped = fit_shape(data, schema)
    repairs += reshaped
    parsed = validate_lenient(data, schema)
    return Parsed(parsed.value, tuple(repairs) + parsed.repairs)


# --- calling the model ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelReply(Generic[V]):
    """A usable answer and what it took: calls made, tokens, repairs on the accepted answer, problems of rejected
    ones."""

    value: V
    calls: int
    tokens: int
    tokens_estimated: bool
    repairs: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def retries(self) -> int:
        return self.calls - 1


class CallFailed(Exception):
    """No usable answer: the model was unreachable, or every bounded attempt was invalid."""

    def __init__(self, failure: CallFailure, calls: int, tokens: int, problems: Sequence[str] = ()) -> None:
        super().__init__(failure.message)
        self.failure = failure
        self.calls = calls
        self.tokens = tokens
        self.problems = tuple(problems)


def feedback_message(problem: str) -> HumanMessage:
    return HumanMessage(
        f"Your previous reply could not be used: {problem}\n"
        "Answer again with only the JSON object the instructions describe: no prose before or after it, no code "
        "fence, no <think> block, every required field present."
    )


def bind_schema(model: Any, schema: type[BaseModel]) -> Runnable:
    """The model constrained to ``schema`` as far as its provider allows, returning the raw message alongside.

    Ollama and OpenAI-style providers take the JSON schema (grammar-constrained on Ollama); llama.cpp gets it as a
    ``response_format`` grammar; a model with no structured-output support is called plainly and the prompt (which
    always spells the schema out) has to do the work.
    """
    if any(cls.__name__ == "ChatLlamaCpp" for cls in type(model).__mro__):
        return model.bind(response_format={"type": "json_object", "schema": schema.model_json_schema()})
    for kwargs in ({"method": "json_schema"}, {}):
        try:
            return model.with_structured_output(schema, include_raw=True, **kwargs)
        except (NotImplementedError, TypeError, ValueError):
            continue
    return model


def split_output(output: Any) -> tuple[BaseMessage, Any]:
    """(raw message, already-parsed value or None) from whatever the bound runnable returned."""
    if isinstance(output, dict) and "raw" in output:
        return output["raw"], output.get("parsed")
    if isinstance(output, BaseMessage):
        return output, None
    return AIMessage(content=str(output)), None


def _accept(parsed: Any, raw: BaseMessage, schema: type[M]) -> Parsed[M]:
    if isinstance(parsed, schema):
        return Parsed(parsed)
    text = message_text(raw)
    tool_calls = getattr(raw, "tool_calls", None) or []
    if not text.strip() and tool_calls:
        return parse_structured(tool_calls[0].get("args") or {}, schema)
    return parse_structured(text, schema)


def _retry_history(messages: Sequence[BaseMessage], raw_text: str, problem: str) -> list[BaseMessage]:
    """The original prompt plus only the last rejected answer and its problem, so retries do not grow the context."""
    echo = raw_text if len(raw_text) <= FEEDBACK_ECHO_CHARS else raw_text[:FEEDBACK_ECHO_CHARS] + " …"
    return [*messages, AIMessage(content=echo or "(empty reply)"), feedback_message(problem)]


@dataclass(frozen=True)
class Reask:
    """How re-asks differ from the first try, so that one can change the outcome.

    ``temperature``: the re-asks sample at this temperature (near-greedy decoding repeats itself byte for byte).
    ``simpler``: the prompt re-asks start from (e.g. fewer quoted sentences); the first prompt when None.
    ``keep_going(n)``: asked before re-ask ``n`` (1, 2, ...); False ends the loop (e.g. no time left for it).
    """

    temperature: float | None = None
    simpler: Sequence[BaseMessage] | None = None
    keep_going: Callable[[int], bool] | None = None


REPEATED = "it repeats an answer already rejected"
NO_TIME = "no time was left for another try"


def _attempts(
    runnable_for: Callable[[int], Runnable],
    messages: Sequence[BaseMessage],
    accept: Callable[[Any, BaseMessage], tuple[V, tuple[str, ...]]],
    max_retries: int,
    config: RunnableConfig | None,
    reask: Reask | None = None,
    observe: Callable[[CallTiming], None] | None = None,
) -> ModelReply[V]:
    reask = reask or Reask()
    history = list(messages)
    calls = tokens = 0
    estimated = False
    problems: list[str] = []
    rejected: set[str] = set()
    for attempt in range(max_retries + 1):
        if attempt and reask.keep_going is not None and not reask.keep_going(attempt):
            problems.append(NO_TIME)
            break
        started = time.perf_counter()
        try:
            output = runnable_for(attempt).invoke(history, config=config)
        except Exception as error:  # transport and provider errors: classified, never retried here
            raise CallFailed(classify_failure(error), calls + 1, tokens, problems) from error
        calls += 1
        raw, parsed = split_output(output)
        count = call_tokens(history, raw)
        tokens += count.total
        estimated |= count.estimated
        if observe is not None:
            observe(timing_of(raw, time.perf_counter() - started))
        raw_text = message_text(raw)
        try:
            value, repairs = accept(parsed, raw)
        except OutputInvalid as invalid:
            problems.append(invalid.problem)
            if (getattr(raw, "response_metadata", None) or {}).get("done_reason") == TIME_LIMIT:
                # Stopped at its time limit (satiate's llama.cpp model): the time is gone, a re-ask cannot help.
                failure = CallFailure("model_time_limit", "the call reached its time limit before the answer was "
                                      f"complete ({invalid.problem})", True)
                raise CallFailed(failure, calls, tokens, problems) from None
            if raw_text in rejected:  # the same bytes again: another re-ask would only repeat them
                problems.append(REPEATED)
                break
            rejected.add(raw_text)
            history = _retry_history(list(reask.simpler or messages), raw_text, invalid.problem)
            continue
        return ModelReply(value, calls, tokens, estimated, repairs, tuple(problems))
    reason = problems[-1]
    if reason in (REPEATED, NO_TIME) and len(problems) > 1:
        reason = f"{problems[-2]} ({reason})"
    failure = CallFailure("model_output_invalid", f"no usable answer in {calls} call(s): {reason}", False)
    raise CallFailed(failure, calls, tokens, problems)


def _with_temperature(model: Any, temperature: float | None) -> Any:
    if temperature is None:
        return model
    from satiate.tools.llm.factory import with_call_options

    return with_call_options(model, temperature=temperature)


@typing.overload
def call_structured(model: Any, schema: type[M], messages: Sequence[BaseMessage], *, max_retries: int,
                    refine: None = None, config: RunnableConfig | None = None, reask: Reask | None = None,
                    observe: Callable[[CallTiming], None] | None = None) -> ModelReply[M]: ...


@typing.overload
def call_structured(model: Any, schema: type[M], messages: Sequence[BaseMessage], *, max_retries: int,
                    refine: Callable[[M], V], config: RunnableConfig | None = None, reask: Reask | None = None,
                    observe: Callable[[CallTiming], None] | None = None) -> ModelReply[V]: ...


def call_structured(
    model: Any,
    schema: type[M],
    messages: Sequence[BaseMessage],
    *,
    max_retries: int,
    refine: Callable[[M], Any] | None = None,
    config: RunnableConfig | None = None,
    reask: Reask | None = None,
    observe: Callable[[CallTiming], None] | None = None,
) -> ModelReply[Any]:
    """Ask for a ``schema`` object; tolerate and repair, re-ask at most ``max_retries`` times, else raise CallFailed.

    ``refine`` applies the caller's own checks (e.g. "every query was already searched"), may turn the answer into the
    caller's own type, and may raise OutputInvalid, which is fed back like a validation error. ``observe`` sees each
    call's timing.
    """
    first = bind_schema(model, schema)
    warmer = bind_schema(_with_temperature(model, reask.temperature), schema) if reask and reask.temperature \
        is not None else first

    def accept(parsed: Any, raw: BaseMessage) -> tuple[Any, tuple[str, ...]]:
        outcome = _accept(parsed, raw, schema)
        value = refine(outcome.value) if refine else outcome.value
        return value, outcome.repairs

    return _attempts(lambda attempt: warmer if attempt else first, messages, accept, max_retries, config, reask,
                     observe)


def call_text(
    model: Any,
    messages: Sequence[BaseMessage],
    *,
    max_retries: int,
    refine: Callable[[str], V],
    config: RunnableConfig | None = None,
    observe: Callable[[CallTiming], None] | None = None,
) -> ModelReply[V]:
    """Ask for plain text (a score, a query, bullet points): reasoning and fences removed, then ``refine`` checks it."""

    def accept(parsed: Any, raw: BaseMessage) -> tuple[V, tuple[str, ...]]:
        text = message_text(raw)
        cleaned = strip_reasoning(text)
        repairs: tuple[str, ...] = ("reasoning_stripped",) if cleaned != text.strip() else ()
        if cleaned.startswith("```"):
            cleaned = strip_fences(cleaned)
            repairs += ("fences_stripped",)
        return refine(cleaned), repairs

    return _attempts(lambda attempt: model, messages, accept, max_retries, config, observe=observe)

