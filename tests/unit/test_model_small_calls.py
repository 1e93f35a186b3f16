"""The small profile's one compact call a run: few sentences, few claims, no re-ask beyond the run's calls, the
model's answer merged into later syntheses without asking again, and no call at all when the warm-up's speed says
none fits the run's budget.

No real model: ``ScriptedChatModel`` answers (and plays a slow one on a simulated clock). Invented towns only.
"""

from __future__ import annotations

import json

from satiate.engine.base import ResearchView
from satiate.engine.model import ModelEngine
from satiate.engine.model_warmup import call_plan, warm_up
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.meters import model_metrics
from satiate.tools.llm.pace import PaceMeter
from support.node_states import read_source, research_view
from support.scripted_chat import ScriptedCall, ScriptedChatModel, SimulatedClock

QUESTION = "Which river flows past the town where the painter Mira Skelde was born?"


def source(number: int, title: str, text: str) -> SourceRecord:
    return read_source(number, title, text, QUESTION)


SOURCES = [
    source(1, "Mira Skelde", "Mira Skelde was a painter born in Orrinford in 1842. She moved to Calmouth in 1870."),
    source(2, "Orrinford", "Orrinford is a market town in the Tessel valley. The river Calder flows past Orrinford "
           "before it meets the sea."),
]
MORE = [*SOURCES, source(3, "River Calder", "The river Calder rises in the Harn hills and flows past the town of "
                         "Orrinford to the sea.")]
MANY = [source(n, f"Orrinford mill {n}", f"The Orrinford mill number {n} stands on the river Calder near Orrinford, "
               f"where the painter Mira Skelde was born. It was built in {1800 + n}.") for n in range(1, 20)]


def view_of(settings: Settings, sources: list[SourceRecord]) -> ResearchView:
    return research_view(QUESTION, settings, sources)


def calder_reply(call: ScriptedCall) -> str:
    ids = {text: key for key, text in call.shown_evidence.items()}
    moved = next(i for t, i in ids.items() if "moved to Calmouth" in t)
    return json.dumps({"claims": [{"evidence": [moved], "claim": "She moved to Calmouth in 1870."}],
                       "short_answer": "the river Calder"})


def test_a_small_profile_call_shows_few_sentences_and_asks_for_two_claims() -> None:
    settings = Settings(model_profile="small")
    model = ScriptedChatModel(responder=lambda call: json.dumps(
        {"claims": [{"evidence": ["E1"], "claim": call.shown_evidence["E1"]}], "short_answer": ""}))
    ModelEngine(model, settings, pace=PaceMeter()).synthesize(view_of(settings, MANY))
    assert len(model.calls) == 1
    assert len(model.calls[0].shown_evidence) == 6 and "at most 2 claims" in model.calls[0].text
    assert model.calls[0].schema["properties"]["claims"]["maxItems"] == 2


def test_a_run_makes_one_call_and_later_syntheses_merge_its_answer_without_asking_again() -> None:
    settings = Settings(model_profile="small")
    model = ScriptedChatModel(responder=calder_reply)
    engine = ModelEngine(model, settings, pace=PaceMeter())
    first = engine.synthesize(view_of(settings, SOURCES))
    assert first.model_calls == 1 and first.counters()["model_claims_kept"] == 1
    later = engine.synthesize(view_of(settings, MORE))  # more read: a new synthesis, but the run's call is spent
    assert len(model.calls) == 1 and later.model_calls == 0
    model_answer = engine.runs.model_answer(view_of(settings, MORE))
    stated = "The river Calder flows past Orrinford before it meets the sea."  # the model's answer, as its sentence
    assert model_answer is not None and model_answer.short_answer == "the river Calder"
    assert stated in [c.claim for c in model_answer.claims]
    found = engine.fallback.synthesize(view_of(settings, MORE)).value
    assert any("Harn hills" in c.claim for c in found.claims) and stated not in [c.claim for c in found.claims]
    # What the later synthesis read, and the model's answer it does not state (its claim on Calmouth it does).
    assert [c.claim for c in later.value.claims] == [*(c.claim for c in found.claims), stated]
    other_run = engine.synthesize(ResearchView(question=QUESTION, settings=settings, sources=MORE, knowledge_state="",
                                               search_results=[], run_id="thread-2"))
    assert other_run.model_calls == 1 and len(model.calls) == 2  # the limit is per run


def test_an_unusable_answer_is_not_re_asked_beyond_the_runs_calls() -> None:
    def cut(call: ScriptedCall) -> str:  # a different unsupported claim each time (a repeated reply ends re-asks)
        return json.dumps({"claims": [{"evidence": ["E1"], "claim": f"Orrinford was founded by sailors from Tarn in "
                                       f"{1700 + call.index}."}], "short_answer": ""})

    for calls, asked in ((1, 1), (2, 2), (0, 3)):  # 0: no limit, the re-asks of model_max_retries (2)
        settings = Settings(model_profile="small", small_model_calls=calls)
        model = ScriptedChatModel(responder=cut)
        engine = ModelEngine(model, settings, pace=PaceMeter())
        decision = engine.synthesize(view_of(settings, SOURCES))
        assert len(model.calls) == asked and decision.counters()["model_fallbacks"] == 1
        assert decision.value == engine.fallback.synthesize(view_of(settings, SOURCES)).value  # the deterministic one


def test_no_call_is_made_when_the_warm_up_says_none_fits_the_budget_and_the_metrics_say_so() -> None:
    clock = SimulatedClock()

    def reply(call: ScriptedCall) -> str:  # the warm-up's reply is not read: any text of 40 tokens
        return " ".join(str(n) for n in range(1, 41)) if call.task == "warm_up" else calder_reply(call)

    model = ScriptedChatModel(responder=reply, reads_per_s=8.0, writes_per_s=2.0, clock=clock)
    settings = Settings(model_profile="small", max_execution_time_s=40)
    engine = ModelEngine(model, settings, pace=PaceMeter(), clock=clock)
    notices = warm_up(engine, ["synthesizer"], settings.max_execution_time_s)
    assert "no model call will be made" in notices[0]
    view = view_of(settings, SOURCES)
    engine.runs.start(view)
    decision = engine.synthesize(view)
    assert len(model.calls) == 1 and decision.model_calls == 0  # the warm-up only
    assert decision.counters()["model_calls_skipped"] == 1
    assert model_metrics(decision.counters())["model_calls_skipped"] == 1.0
    assert [e["type"] for e in decision.errors] == ["model_time_budget"]
    assert decision.value == engine.fallback.synthesize(view).value


def test_the_call_plan_compares_a_compact_call_with_the_budget() -> None:
    assert "within the run's 600 s budget" in call_plan(8.0, 2.0, 600)
    assert "no model call will be made" in call_plan(8.0, 2.0, 60)  # 1 + 252/8 + 90/2 = 77.5 s
    assert call_plan(100.0, 20.0, None) == "a synthesis call of 6 sentences takes about 8 s"
