"""The tolerant structured-output layer: each repair on its own, the bounded re-ask loop, and the scripted model."""

from __future__ import annotations

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from satiate.state.contracts import CriticReport, PlanResponse, ReflectionResponse, SynthesisResponse
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.structured import (
    CallFailed,
    OutputInvalid,
    Reask,
    call_structured,
    call_text,
    parse_structured,
    repair_json,
    strip_reasoning,
)
from support.scripted_chat import ScriptedChatModel, ScriptExhausted

PROMPT = [SystemMessage("Task: plan."), HumanMessage("plan something")]


# --- parsing ---------------------------------------------------------------------------------------------------------
def test_think_block_is_removed_before_parsing() -> None:
    parsed = parse_structured('<think>maybe {"queries": []} is wrong</think>\n{"queries": [{"query": "a b"}]}',
                              PlanResponse)
    assert [q.query for q in parsed.value.queries] == ["a b"]
    assert "reasoning_stripped" in parsed.repairs


def test_lone_closing_think_tag_cuts_the_reasoning_before_it() -> None:
    # Qwen-style templates put the opening tag in the prompt: only the closing one arrives.
    assert strip_reasoning('I should answer {"x": 1} quickly</think>{"y": 2}') == '{"y": 2}'


def test_fenced_json_with_prose_trailing_commas_and_python_literals() -> None:
    reply = 'Here you go:\n```json\n{"sufficient": True, "confidence": 0.4, "gaps": ["when",],}\n```\nAnything else?'
    parsed = parse_structured(reply, ReflectionResponse)
    assert parsed.value.sufficient is True and parsed.value.gaps == ["when"]
    assert {"fences_stripped", "json_repaired"} <= set(parsed.repairs)


def test_answer_cut_off_by_the_token_limit_is_closed() -> None:
    reply = '{"sufficient": false, "confidence": 0.3, "gaps": ["history"], "new_queries": [{"query": "pep 255", "int'
    parsed = parse_structured(reply, ReflectionResponse)
    assert parsed.value.gaps == ["history"]
    assert [q.query for q in parsed.value.new_queries] == ["pep 255"]


def test_single_quotes_bare_keys_and_bare_words_are_repaired() -> None:
    text = repair_json("{queries: [{'query': 'it\\'s here', angle: entity}], tier: simple}")
    parsed = parse_structured(text, PlanResponse)
    assert parsed.value.queries[0].query == "it's here"
    assert parsed.value.queries[0].angle == "entity" and parsed.value.tier == "simple"


def test_camel_case_keys_become_snake_case() -> None:
    parsed = parse_structured('{"claims": [{"claim": "x", "sourceIds": ["S1"]}], "openQuestions": ["y"]}',
                              SynthesisResponse)
    assert parsed.value.claims[0].source_ids == ["S1"] and parsed.value.open_questions == ["y"]
    assert "keys_renamed" in parsed.repairs


def test_out_of_range_numbers_are_clamped_and_named() -> None:
    # Small models (and llama.cpp grammars) ignore minimum/maximum: we enforce the bounds ourselves.
    parsed = parse_structured('{"sufficient": false, "confidence": 7}', ReflectionResponse)
    assert parsed.value.confidence == 1.0
    assert "clamped confidence" in parsed.repairs
    report = parse_structured('{"gaps": [{"kind": "modality", "description": "d", "query": "q", "priority": -3, '
                              '"material": true}], "signoff": false}', CriticReport)
    assert report.value.gaps[0].priority == 0.0


def test_near_miss_enum_values_are_mapped_and_unknown_ones_rejected() -> None:
    parsed = parse_structured('{"gaps": [{"kind": "Missing counterarg", "description": "d", "query": "q", '
                              '"priority": 5, "material": true}], "signoff": false}', CriticReport)
    assert parsed.value.gaps[0].kind == "missing-counterarg"
    with pytest.raises(OutputInvalid, match="kind"):
        parse_structured('{"gaps": [{"kind": "vibes", "description": "d", "query": "q", "priority": 5, '
                         '"material": true}], "signoff": false}', CriticReport)


def test_bare_list_and_wrapped_object_are_reshaped() -> None:
    assert parse_structured('[{"query": "a"}, {"query": "b"}]', PlanResponse).value.queries[1].query == "b"
    wrapped = parse_structured('{"PlanResponse": {"queries": [{"query": "a"}]}}', PlanResponse)
    assert "unwrapped" in wrapped.repairs


def test_one_bad_list_item_is_dropped_not_the_answer() -> None:
    parsed = parse_structured('{"queries": [{"query": ""}, {"query": "kept"}]}', PlanResponse)
    assert [q.query for q in parsed.value.queries] == ["kept"]


@pytest.mark.parametrize("reply, fragment", [
    ("I cannot help with that.", "no JSON object"),
    ("", "empty"),
    ('{"answer": "generators are functions"}', "queries: Field required"),
])
def test_unusable_answers_raise_a_problem_worded_for_the_model(reply: str, fragment: str) -> None:
    with pytest.raises(OutputInvalid, match=fragment):
        parse_structured(reply, PlanResponse)


@pytest.mark.parametrize("reply", [
    '{"queries": [{"query": "orren cider press", "angle": "entity"},],}',  # trailing commas
    "{'queries': [{'query': 'orren cider press', 'angle': 'entity'}]}",  # single quotes
    '{"queries": [{"query": "orren cider press", "angle": "entity"}]',  # the closing brace is missing
])
def test_a_scripted_malformed_reply_is_repaired_on_the_first_call(reply: str) -> None:
    parsed = parse_structured(reply, PlanResponse)
    assert [(q.query, q.angle) for q in parsed.value.queries] == [("orren cider press", "entity")]
    assert "json_repaired" in parsed.repairs
    model = ScriptedChatModel([reply])
    answer = call_structured(model, PlanResponse, PROMPT, max_retries=0)  # no re-ask is needed
    assert answer.value == parsed.value and answer.calls == 1


def test_a_reply_that_stays_invalid_after_repair_is_a_typed_error_not_a_guess() -> None:
    # json-repair mends this bracket into some object; the schema, not the repair, decides it is unusable.
    with pytest.raises(OutputInvalid, match="queries: Field required"):
        parse_structured("{ plans :::: ??? }", PlanResponse)
    model = ScriptedChatModel(["{ plans :::: ??? }"])
    with pytest.raises(CallFailed) as failed:
        call_structured(model, PlanResponse, PROMPT, max_retries=0)
    assert failed.value.failure.kind == "model_output_invalid"


# --- the bounded re-ask loop -----------------------------------------------------------------------------------------
def test_invalid_answer_is_re_asked_with_the_validation_error_fed_back() -> None:
    model = ScriptedChatModel(['{"queries": "none"}', '{"queries": [{"query": "python generator"}]}'])
    reply = call_structured(model, PlanResponse, PROMPT, max_retries=2)
    assert reply.value.queries[0].query == "python generator"
    assert reply.calls == 2 and reply.retries == 1
    retry = model.calls[1]
    assert retry.is_retry
    assert isinstance(retry.messages[-2], AIMessage) and retry.messages[-2].content == '{"queries": "none"}'
    assert "queries" in retry.messages[-1].content and "could not be used" in retry.messages[-1].content
    # The retry repeats the original prompt plus only the last exchange: the context does not grow per attempt.
    assert len(retry.messages) == len(PROMPT) + 2


def test_always_invalid_stops_after_the_bounded_retries() -> None:
    model = ScriptedChatModel(responder=lambda call: f"no json here, try {call.index}")
    with pytest.raises(CallFailed) as failed:
        call_structured(model, PlanResponse, PROMPT, max_retries=2)
    assert failed.value.failure.kind == "model_output_invalid"
    assert failed.value.calls == 3 and len(model.calls) == 3
    assert failed.value.tokens > 0


def test_an_answer_repeated_byte_for_byte_ends_the_re_asks() -> None:
    model = ScriptedChatModel(responder=lambda call: '{"queries": "none"}')
    with pytest.raises(CallFailed) as failed:
        call_structured(model, PlanResponse, PROMPT, max_retries=4)
    assert len(model.calls) == 2  # the second identical answer shows a third try would only repeat it
    assert "repeats an answer already rejected" in failed.value.failure.message


def test_re_asks_sample_warmer_start_from_the_simpler_request_and_stop_when_time_is_up() -> None:
    simpler = [SystemMessage("Task: plan."), HumanMessage("plan something small")]
    model = ScriptedChatModel(['{"queries": 1}', '{"queries": 2}', '{"queries": [{"query": "ok"}]}'], temperature=0.1)
    reply = call_structured(model, PlanResponse, PROMPT, max_retries=2, reask=Reask(0.7, simpler))
    assert reply.value.queries[0].query == "ok"
    assert [c.temperature for c in model.calls] == [0.1, 0.7, 0.7]
    assert model.calls[0].messages[1].content == "plan something"
    assert all(c.messages[1].content == "plan something small" for c in model.calls[1:])
    asked: list[int] = []
    out_of_time = ScriptedChatModel(['{"queries": 1}', '{"queries": [{"query": "ok"}]}'])
    with pytest.raises(CallFailed, match="no time was left"):
        call_structured(out_of_time, PlanResponse, PROMPT, max_retries=2,
                        reask=Reask(keep_going=lambda n: asked.append(n) or False))
    assert asked == [1] and len(out_of_time.calls) == 1


def test_each_call_is_observed_with_its_timing() -> None:
    seen: list = []
    model = ScriptedChatModel(['{"queries": 1}', '{"queries": [{"query": "ok"}]}'], reads_per_s=50, writes_per_s=5)
    call_structured(model, PlanResponse, PROMPT, max_retries=1, observe=seen.append)
    assert len(seen) == 2
    assert all(t.prompt_tokens > 0 and t.prompt_seconds == pytest.approx(t.prompt_tokens / 50, rel=1e-3)
               for t in seen)


def test_refine_problems_are_fed_back_like_validation_errors() -> None:
    def refine(plan: PlanResponse) -> PlanResponse:
        if plan.queries[0].query == "old":
            raise OutputInvalid("that query was already sent")
        return plan

    model = ScriptedChatModel(['{"queries": [{"query": "old"}]}', '{"queries": [{"query": "new"}]}'])
    reply = call_structured(model, PlanResponse, PROMPT, max_retries=1, refine=refine)
    assert reply.value.queries[0].query == "new"
    assert "already sent" in model.calls[1].messages[-1].content


def test_connection_errors_are_classified_and_not_retried() -> None:
    model = ScriptedChatModel([httpx.ConnectError("Connection refused")])
    with pytest.raises(CallFailed) as failed:
        call_structured(model, PlanResponse, PROMPT, max_retries=2)
    assert failed.value.failure.kind == "model_unreachable" and failed.value.failure.transport
    assert len(model.calls) == 1


def test_plain_text_calls_strip_reasoning_and_use_the_refiner() -> None:
    model = ScriptedChatModel(["<think>hmm, 3 or 4?</think> 8"])
    reply = call_text(model, PROMPT, max_retries=0, refine=lambda text: int(text))
    assert reply.value == 8 and reply.repairs == ("reasoning_stripped",)


# --- the scripted model itself ---------------------------------------------------------------------------------------
def test_scripted_model_binds_the_schema_like_chat_ollama_and_reports_usage() -> None:
    model = ScriptedChatModel(['{"queries": [{"query": "q"}]}'])
    output = model.with_structured_output(PlanResponse, include_raw=True).invoke(
        PROMPT, config={"metadata": {"satiate_task": "plan"}})
    assert isinstance(output["parsed"], PlanResponse)
    assert output["raw"].usage_metadata["total_tokens"] > 0
    call = model.calls[0]
    assert call.schema == PlanResponse.model_json_schema() and call.task == "plan"


def test_scripted_model_copies_share_one_script_and_report_their_options() -> None:
    model = ScriptedChatModel(["1", "2"])
    tuned = with_call_options(model, temperature=0.0, max_tokens=3)
    assert model.invoke("a").content == "1" and tuned.invoke("b").content == "2"
    assert [(c.temperature, c.max_tokens) for c in model.calls] == [(None, None), (0.0, 3)]
    with pytest.raises(ScriptExhausted):
        model.invoke("c")


def test_an_answer_cut_by_its_time_limit_fails_at_once_as_such() -> None:
    cut = AIMessage(content='{"queries": [{"query": "pyth', response_metadata={"done_reason": "time_limit"})
    model = ScriptedChatModel([cut, '{"queries": [{"query": "python generator"}]}'])
    with pytest.raises(CallFailed) as failed:
        call_structured(model, CriticReport, PROMPT, max_retries=2)
    assert failed.value.failure.kind == "model_time_limit" and not failed.value.failure.transport
    assert len(model.calls) == 1  # no re-ask: the time it would need is gone
