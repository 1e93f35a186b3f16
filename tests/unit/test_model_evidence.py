"""The answer written by a model from numbered sentences: the sentence-id grounding contract, the fallback to the
deterministic synthesis, the small-model profile, and budgets that follow a slow model's measured speed.

No real model: ``ScriptedChatModel`` answers, and plays a slow one by reporting Ollama-style durations on a
simulated clock.
"""

from __future__ import annotations

import json
import re

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from satiate.engine.base import ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.engine.evidence import EvidenceAnswer, EvidenceClaim, evidence_items, judge_answer
from satiate.engine.grounding import sentence_support_problem
from satiate.engine.model import ModelEngine
from satiate.graph import RECURSION_LIMIT, build_graph
from satiate.graph.deps import search_service_for
from satiate.nodes.common import Dependencies
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.pace import CallTiming, PaceMeter, Speed, call_budget
from satiate.tools.llm.tokens import estimate_tokens, message_text
from support.node_states import read_source
from support.ollama_stub import SAMPLE_PASSAGES, brain_answer, task_of
from support.scripted_chat import ScriptedCall, ScriptedChatModel, SimulatedClock

QUESTION = "Where was the founder of the Velmora Harbor Works born?"


def source(number: int, title: str, text: str) -> SourceRecord:
    return read_source(number, title, text, QUESTION)


SOURCES = [
    source(1, "Velmora Harbor Works", "The Velmora Harbor Works were founded in 1882 by Ada Pell. The works built "
           "fishing boats for the northern coast of the island. Its breakwater is 17 metres high and shelters the "
           "yard."),
    source(2, "Ada Pell", "Ada Pell was born in Dunmore in 1850. She trained as a shipwright in Glasgow before "
           "founding her own yard."),
    source(3, "Dunmore", "Dunmore is a small town on the river Aske. The town is known for its annual boat festival."),
]


def view_of(settings: Settings, sources: list[SourceRecord] = SOURCES, question: str = QUESTION) -> ResearchView:
    return ResearchView(question=question, settings=settings, sources=sources, knowledge_state="", search_results=[])


def shown_sentences(call: ScriptedCall) -> dict[str, str]:
    """The numbered sentences a synthesis call showed: id -> sentence."""
    return dict(re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", call.text, re.M))


def answer(*claims: tuple[list[str], str], short: str) -> str:
    return json.dumps({"claims": [{"evidence": ids, "claim": text} for ids, text in claims], "short_answer": short})


def ids_of(call: ScriptedCall) -> dict[str, str]:
    """Which shown id holds which fact (the prompt's own example sentences are not in the <evidence> block)."""
    block = re.search(r"<evidence>\n(.*?)\n</evidence>", call.text, re.S).group(1)
    found = dict(re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", block, re.M))
    return {"born": next(i for i, t in found.items() if "born in Dunmore" in t),
            "founded": next(i for i, t in found.items() if "founded in 1882" in t),
            "boats": next(i for i, t in found.items() if "fishing boats" in t)}


def good_answer(call: ScriptedCall) -> str:
    ids = ids_of(call)
    return answer(([ids["founded"]], "Ada Pell founded the Velmora Harbor Works in 1882."),
                  ([ids["born"]], "Ada Pell was born in Dunmore."), short="Dunmore")


# --- the pure check ---------------------------------------------------------------------------------------------------
def test_a_claim_rests_only_on_the_sentences_it_cites() -> None:
    cited = ["Ada Pell: Ada Pell was born in Dunmore in 1850."]
    assert sentence_support_problem("Pell was born in 1850 in the town of Dunmore.", cited, 0.6) is None
    assert "1851" in sentence_support_problem("Ada Pell was born in Dunmore in 1851.", cited, 0.6)
    assert "Glasgow" in sentence_support_problem("Ada Pell was born in Glasgow.", cited, 0.6)
    assert "words" in sentence_support_problem("The island exports fishing boats every spring.", cited, 0.6)
    assert sentence_support_problem("Ada Pell was born in Dunmore.", [], 0.6) == "it cites no sentence"


def test_judging_keeps_paraphrases_cuts_wrong_ids_and_sets_roles() -> None:
    items = evidence_items(QUESTION, SOURCES, 10)
    born = next(i.id for i in items if "born" in i.text)
    founded = next(i.id for i in items if "founded" in i.text)
    model_answer = EvidenceAnswer(claims=[
        EvidenceClaim(evidence=[founded], claim="The Velmora Harbor Works were set up by Ada Pell in 1882."),
        EvidenceClaim(evidence=[founded], claim="Ada Pell was born in Dunmore."),  # true, but not what it cites
        EvidenceClaim(evidence=["E42"], claim="Ada Pell was born in Dunmore."),  # an id that was never shown
        EvidenceClaim(evidence=[f"[{born.lower()}]"], claim="Ada Pell was born in Dunmore in 1850."),
    ], short_answer="Dunmore.")
    judged = judge_answer(model_answer, items, QUESTION, SOURCES, 0.6)
    assert (judged.written, judged.kept) == (4, 2)
    assert [c["evidence"] for c in judged.cut] == [[founded], ["E42"]]
    claims = judged.synthesis.claims
    assert [(c.role, c.source_ids) for c in claims] == [("hop", ["S1"]), ("answer", ["S2"])]
    assert judged.synthesis.short_answer == "Dunmore" and judged.synthesis.answer_kind == "place"


def test_a_short_answer_no_kept_claim_states_is_not_kept() -> None:
    items = evidence_items(QUESTION, SOURCES, 10)
    born = next(i.id for i in items if "born" in i.text)
    judged = judge_answer(EvidenceAnswer(claims=[EvidenceClaim(evidence=[born], claim="Ada Pell was born in Dunmore.")],
                                         short_answer="Glasgow"), items, QUESTION, SOURCES, 0.6)
    assert judged.kept == 1 and judged.synthesis.short_answer is None
    assert "Glasgow" in judged.answer_problem


# --- through the engine -----------------------------------------------------------------------------------------------
def test_a_correct_paraphrase_is_kept_and_on_a_tie_the_deterministic_chain_leads() -> None:
    settings = Settings()
    model = ScriptedChatModel(responder=good_answer)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings))
    assert decision.fallbacks == 0 and decision.model_calls == 1
    synthesis = decision.value
    assert synthesis.short_answer == "Dunmore"
    # The model's answer ties with the deterministic one (the same short answer, as well supported): the
    # deterministic chain leads, and the model's paraphrases, which say nothing it does not, are not repeated.
    assert [(c.role, c.source_ids) for c in synthesis.claims[:2]] == [("answer", ["S2"]), ("hop", ["S1"])]
    assert {c.role for c in synthesis.claims[2:]} == {"claim"}
    assert not any(c.claim in ("Ada Pell was born in Dunmore.", "Ada Pell founded the Velmora Harbor Works in 1882.")
                   for c in synthesis.claims)
    assert any("fishing boats" in c.claim for c in synthesis.claims[2:])
    assert decision.counters()["model_claims"] == decision.counters()["model_claims_kept"] == 2
    # The model was shown whole sentences with their sources, never the pages; it wrote no source id itself.
    prompt = model.calls[0].text
    assert "E1 [S" in prompt and "Ada Pell was born in Dunmore in 1850." in prompt
    assert model.calls[0].schema["properties"]["claims"]["items"]["$ref"]
    assert model.calls[0].schema["$defs"]["EvidenceClaim"]["properties"]["evidence"]["items"]["enum"][0] == "E1"


def test_a_claim_copied_from_one_sentence_but_citing_another_is_re_anchored_to_the_sentence_it_copies() -> None:
    settings = Settings()

    def wrong_id(call: ScriptedCall) -> str:
        ids = ids_of(call)
        return answer(([ids["boats"]], "Ada Pell was born in Dunmore in 1850."), short="Dunmore")

    model = ScriptedChatModel(responder=wrong_id)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings))
    assert len(model.calls) == 1 and decision.fallbacks == 0
    assert decision.value.short_answer == "Dunmore"
    lead = decision.value.claims[0]
    assert (lead.role, lead.source_ids, lead.claim) == ("answer", ["S2"], "Ada Pell was born in Dunmore in 1850.")
    counters = decision.counters()
    assert (counters["model_claims"], counters["model_claims_kept"], counters["model_claims_reanchored"]) == (1, 1, 1)
    assert counters["model_claims_cut"] == 0


def test_a_short_answer_a_shown_sentence_states_survives_its_mis_cited_claim() -> None:
    settings = Settings()

    def invented_year(call: ScriptedCall) -> str:  # no shown sentence has 1849: the claim is cut whatever it cites
        return answer(([ids_of(call)["boats"]], "Ada Pell was born in Dunmore in 1849."), short="Dunmore")

    model = ScriptedChatModel(responder=invented_year)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings))
    assert len(model.calls) == 1 and decision.fallbacks == 0
    synthesis = decision.value
    assert synthesis.short_answer == "Dunmore"
    answering = [c for c in synthesis.claims if c.role == "answer"]
    assert [(c.claim, c.source_ids) for c in answering] == [("Ada Pell was born in Dunmore in 1850.", ["S2"])]
    assert "1849" not in " ".join(c.claim for c in synthesis.claims)
    counters = decision.counters()
    assert counters["model_answers_rescued"] == 1 and counters["model_claims_kept"] == 0
    assert counters["model_claims_cut"] == 1


def test_a_reply_no_shown_sentence_supports_is_cut_re_asked_then_replaced_by_the_deterministic_answer() -> None:
    settings = Settings()

    def unsupported(call: ScriptedCall) -> str:
        temperature = call.temperature if call.temperature is not None else 0.0
        return answer(([ids_of(call)["boats"]], f"Ada Pell was born in Kestrel Bay (try at {temperature})."),
                      short="Kestrel Bay")

    model = ScriptedChatModel(responder=unsupported)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings))
    assert len(model.calls) == 1 + settings.model_max_retries
    assert all(c.temperature == 0.7 for c in model.calls[1:])  # re-asks sample warmer
    assert "cites" in model.calls[1].messages[-1].content  # the cut reason was fed back
    assert decision.fallbacks == 1 and decision.value.short_answer == "Dunmore"  # the deterministic finder's
    counters = decision.counters()
    assert counters["model_claims"] == 3 and counters["model_claims_kept"] == 0
    assert counters["model_claims_reanchored"] == counters["model_answers_rescued"] == 0
    kinds = [e["type"] for e in decision.errors]
    assert kinds.count("model_claim_cut") == 3 and "model_output_invalid" in kinds
    assert decision.value == DeterministicEngine().synthesize(view_of(settings)).value


def test_a_reply_that_copies_the_prompts_example_is_sent_back_and_not_counted_as_a_claim() -> None:
    settings = Settings()
    replies: list[str] = []

    def copies_then_answers(call: ScriptedCall) -> str:
        if not replies:  # the worked example of the instructions, word for word, as a small model sometimes does
            replies.append("echo")
            return answer((["E1"], "The Velmora Harbor Works were founded in 1882 in Dunmore."),
                          (["E2"], "Dunmore lies on the river Aske."), short="the river Aske")
        return good_answer(call)

    model = ScriptedChatModel(responder=copies_then_answers)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings))
    assert len(model.calls) == 2 and "copied the worked example" in model.calls[1].messages[-1].content
    assert decision.fallbacks == 0 and decision.value.short_answer == "Dunmore"
    counters = decision.counters()
    assert counters["model_example_echoes"] == 2
    assert counters["model_claims"] == counters["model_claims_kept"] == 2  # the echoes were never claims
    assert "Aske" not in " ".join(c.claim for c in decision.value.claims)


def test_claims_kept_without_an_answer_are_led_by_the_deterministic_answer() -> None:
    settings = Settings()

    def no_answer(call: ScriptedCall) -> str:
        return answer(([ids_of(call)["boats"]], "The Velmora Harbor Works built fishing boats for the island's "
                       "northern coast."), short="")

    decision = ModelEngine(ScriptedChatModel(responder=no_answer), settings, pace=PaceMeter()).synthesize(
        view_of(settings))
    synthesis = decision.value
    assert synthesis.short_answer == "Dunmore" and decision.fallbacks == 1
    assert synthesis.claims[0].role == "answer" and "Dunmore" in synthesis.claims[0].claim
    assert ("The Velmora Harbor Works built fishing boats for the island's northern coast."
            in [c.claim for c in synthesis.claims if c.role == "claim"])
    assert [e["type"] for e in decision.errors] == ["model_answer_ungrounded"]


def test_the_same_sentences_are_not_asked_twice_in_one_run() -> None:
    settings = Settings(seed=3)
    model = ScriptedChatModel(responder=good_answer)
    engine = ModelEngine(model, settings, pace=PaceMeter())
    first = engine.synthesize(view_of(settings))
    again = engine.synthesize(view_of(settings))
    assert len(model.calls) == 1 and again.model_calls == 0
    assert again.value == first.value


# --- budgets that follow the model's speed ----------------------------------------------------------------------------
def test_call_budget_shrinks_the_prompt_for_a_slow_model_and_refuses_a_call_that_cannot_fit() -> None:
    def budget(speed: Speed, seconds: float):
        return call_budget(num_ctx=8192, output_cap=1024, output_expected=320, output_floor=140, prompt_floor=500,
                           seconds_left=seconds, speed=speed, context_share=0.8)

    fast, slow = Speed(3000, 100, True), Speed(30, 6, True)
    assert budget(fast, 100).prompt_tokens == int((8192 - 1024) * 0.8) and budget(fast, 100).limited_by == "context"
    assert budget(slow, 100).prompt_tokens < 2000 and budget(slow, 100).limited_by == "time"
    assert budget(slow, 100).output_tokens < 1024  # a measured slow model's answer is capped to the time left
    assert budget(slow, 60).prompt_tokens < budget(slow, 100).prompt_tokens
    assert budget(slow, 25) is None


def test_the_pace_meter_learns_each_models_speed_from_reported_durations() -> None:
    meter = PaceMeter()
    assert not meter.speed("m").measured
    meter.record("m", CallTiming(1000, 200, 60.0, prompt_seconds=33.3, output_seconds=25.0))
    speed = meter.speed("m")
    assert speed.measured and speed.prompt_tps == pytest.approx(30, rel=0.01) and speed.output_tps == 8
    meter.record("m", CallTiming(1000, 200, 45.0))  # no split reported: both sides estimated from the total
    assert 30 < meter.speed("m").prompt_tps and meter.speed("other") == Speed()


def many_sources(count: int) -> list[SourceRecord]:
    return [source(n, f"Harbor record {n}", f"Ada Pell inspected the Velmora Harbor Works breakwater number {n} in "
            f"the spring. The founder of the Velmora Harbor Works kept a log for dock {n} there.")
            for n in range(4, 4 + count)] + SOURCES


def test_a_slow_model_is_sent_a_smaller_prompt_than_a_fast_one() -> None:
    settings = Settings(num_ctx=8192)
    sources = many_sources(30)
    prompts = {}
    for name, reads, writes in (("fast", 4000.0, 200.0), ("slow", 20.0, 5.0)):
        clock = SimulatedClock()
        model = ScriptedChatModel(responder=good_answer, reads_per_s=reads, writes_per_s=writes, clock=clock,
                                  model_name=name)
        engine = ModelEngine(model, settings, pace=PaceMeter(), clock=clock)
        engine.pace.record(f"ScriptedChatModel:{name}", CallTiming(2000, 200, 0.0, 2000 / reads, 200 / writes))
        engine.synthesize(view_of(settings, sources))
        prompts[name] = model.calls[0]
    fast_tokens = sum(estimate_tokens(message_text(m)) for m in prompts["fast"].messages)
    slow_tokens = sum(estimate_tokens(message_text(m)) for m in prompts["slow"].messages)
    assert slow_tokens < 0.75 * fast_tokens
    assert slow_tokens / 20 + 100 / 5 < 0.6 * settings.max_execution_time_s  # it fits the share of the time left
    assert prompts["slow"].max_tokens is not None and prompts["slow"].max_tokens < settings.num_predict
    assert prompts["slow"].timeout_s <= settings.max_execution_time_s  # the call carries the time left as its limit


def test_with_the_time_nearly_spent_the_deterministic_synthesis_is_the_answer_and_says_so() -> None:
    settings = Settings(max_execution_time_s=60)
    clock = SimulatedClock()
    model = ScriptedChatModel(responder=good_answer, model_name="slow")
    engine = ModelEngine(model, settings, pace=PaceMeter(), clock=clock)
    engine.pace.record("ScriptedChatModel:slow", CallTiming(1000, 100, 0.0, 1000 / 30, 100 / 6))
    engine.seconds_left(view_of(settings))  # the run starts now ...
    clock.advance(45)  # ... and most of its minute has gone on searching
    decision = engine.synthesize(view_of(settings))
    assert not model.calls
    assert decision.fallbacks == 1 and decision.value.short_answer == "Dunmore" and decision.value.claims
    record = decision.errors[-1]
    assert record["type"] == "model_time_budget" and "deterministic synthesis of what was read" in record["message"]


def test_with_the_time_nearly_spent_an_earlier_model_answer_of_the_run_is_kept() -> None:
    settings = Settings(max_execution_time_s=200, seed=5)
    clock = SimulatedClock()
    model = ScriptedChatModel(responder=good_answer, reads_per_s=30, writes_per_s=6, clock=clock, model_name="slow")
    engine = ModelEngine(model, settings, pace=PaceMeter(), clock=clock)
    first = engine.synthesize(view_of(settings))
    assert len(model.calls) == 1 and first.value.short_answer == "Dunmore"
    clock.advance(150)
    more = view_of(settings,
                   SOURCES + [source(9, "Pell family", "Ada Pell was born in a house by the harbor of Dunmore.")])
    later = engine.synthesize(more)
    assert len(model.calls) == 1 and later.fallbacks == 0
    assert later.value.short_answer == "Dunmore" and later.errors[0]["type"] == "model_time_budget"
    assert "earlier synthesis of this run" in later.errors[0]["message"]


# --- the small-model profile through the graph ------------------------------------------------------------------------
def test_the_small_profile_asks_the_model_only_for_the_answer(write_jsonl) -> None:
    corpus = write_jsonl(SAMPLE_PASSAGES)
    model = ScriptedChatModel(responder=lambda call: brain_answer(call.text))
    deps = Dependencies(engine_for=lambda s: ModelEngine(model, s, label="model:scripted", pace=PaceMeter()),
                        search_for=search_service_for)
    app = build_graph(deps, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "small"}, "recursion_limit": RECURSION_LIMIT}
    settings = {"corpus": str(corpus), "backends": "corpus", "seed": 1, "max_cycles": 2, "model_profile": "small",
                "novelty_mode": "model"}
    out = app.invoke({"question": "What is a Python generator?", "settings": settings}, config)
    state = app.get_state(config).values
    assert model.calls and {task_of(c.text) for c in model.calls} == {"synthesize"}
    assert state["counters"]["model_fallbacks"] == 0
    assert state["counters"]["model_claims_kept"] == state["counters"]["model_claims"] > 0
    shown = {text for call in model.calls for text in shown_sentences(call).values()}
    assert any(claim["claim"] in shown for claim in out["result"]["claims"])  # the model's claims are the answer
    # Every other decision was the deterministic engine's, by choice: no error record, no fallback.
    assert not [e for e in out["result"]["errors"] if e["type"].startswith("model_")]


def test_the_small_profile_leaves_verdict_questions_to_the_deterministic_comparison() -> None:
    question = "Were Ada Pell and the Velmora Harbor Works founder born in the same town?"
    answers = {}
    for profile in ("small", "full"):
        settings = Settings(model_profile=profile)
        model = ScriptedChatModel(responder=lambda call: answer(([ids_of(call)["born"]],
                                                                 "Ada Pell was born in Dunmore."), short="yes"))
        answers[profile] = (ModelEngine(model, settings, pace=PaceMeter()).synthesize(
            view_of(settings, question=question)), len(model.calls))
    decision, calls = answers["small"]
    assert calls == 0 and decision.fallbacks == 0 and not decision.errors  # deterministic by choice
    assert decision.value == DeterministicEngine().synthesize(view_of(Settings(), question=question)).value
    assert answers["full"][1] == 1  # the full profile asks the model


def test_the_answer_schema_lets_a_grammar_write_only_shown_ids_and_for_yes_no_only_yes_or_no() -> None:
    from satiate.engine.evidence import answer_schema

    schema = answer_schema(["E1", "E2"], 3, "Were Ada Pell and Tom Reed born in the same town?").model_json_schema()
    assert schema["properties"]["short_answer"]["enum"] == ["yes", "no", ""]
    assert schema["$defs"]["EvidenceClaim"]["properties"]["evidence"]["items"]["enum"] == ["E1", "E2"]
    assert schema["properties"]["claims"]["minItems"] == 1 and schema["required"] == ["claims", "short_answer"]
    named = answer_schema(["E1"], 3, QUESTION).model_json_schema()["properties"]["short_answer"]
    assert named["maxLength"] == 60 and "enum" not in named


# --- schemas that force content (the full profile's planner and critic) -----------------------------------------------
def test_a_plan_of_the_question_alone_and_a_bare_sign_off_are_sent_back() -> None:
    settings = Settings(seed=2)
    lone = json.dumps({"queries": [{"query": QUESTION, "intent": "the question", "angle": "question"}],
                       "tier": "simple"})
    echo = json.dumps({"queries": [{"query": QUESTION, "intent": "the question", "angle": "question"},
                                   {"query": QUESTION.lower(), "intent": "again", "angle": "entity"}],
                       "tier": "simple"})
    good = json.dumps({"queries": [{"query": QUESTION, "intent": "the question", "angle": "question"},
                                   {"query": "Ada Pell shipwright birthplace", "intent": "the founder",
                                    "angle": "entity"}],
                       "tier": "simple"})
    model = ScriptedChatModel([lone, echo, good])
    decision = ModelEngine(model, settings, pace=PaceMeter()).plan(view_of(settings), QUESTION)
    assert "at least 2 items" in model.calls[1].messages[-1].content
    assert "repeats the target" in model.calls[2].messages[-1].content
    assert decision.fallbacks == 0 and [q.query for q in decision.value.queries][:2] == [
        QUESTION, "Ada Pell shipwright birthplace"]
    critic = ScriptedChatModel([json.dumps({"signoff": True}),
                                json.dumps({"reason": "Both hops are stated by the sources read.", "gaps": [],
                                            "signoff": True})])
    report = ModelEngine(critic, settings, pace=PaceMeter()).critique(view_of(settings))
    assert "reason: Field required" in critic.calls[1].messages[-1].content
    assert report.fallbacks == 0 and report.model_calls == 2
    assert critic.calls[0].schema["required"] == ["reason", "gaps", "signoff"]


def test_the_short_answer_schema_allows_a_few_words_and_a_re_ask_asks_for_fewer_claims_from_fewer_sentences() -> None:
    settings = Settings()
    sources = [*SOURCES, *many_sources(8)]

    def sentence_then_answer(call: ScriptedCall) -> str:
        if call.index == 0:  # the short answer written as a whole sentence, and no claim the sentences support
            return answer((["E1"], "Ada Pell was born in the harbour town of Kestrel Bay, far from the coast."),
                          short="Ada Pell was born in the harbour town of Kestrel Bay")
        return good_answer(call)

    model = ScriptedChatModel(responder=sentence_then_answer)
    decision = ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings, sources))
    pattern = re.compile(model.calls[0].schema["properties"]["short_answer"]["pattern"])
    assert pattern.match("Dunmore") and pattern.match("") and pattern.match("the river Aske")
    assert not pattern.match("Ada Pell was born in the harbour town of Kestrel Bay")
    first, reask = model.calls[0].text, model.calls[1].text
    assert "at most 4 claims" in first and "at most 2 claims" in reask
    assert len(shown_sentences(model.calls[1])) < len(shown_sentences(model.calls[0]))
    assert decision.value.short_answer == "Dunmore" and decision.model_calls == 2
