"""The warm-up call: a model's speed measured once at load, so the first real call is sized to it.

No real model: ``ScriptedChatModel`` plays a slow model (reported speeds, a simulated clock; nothing sleeps).
"""

from __future__ import annotations

from satiate.engine.base import ResearchView
from satiate.engine.model import ModelEngine
from satiate.engine.model_calls import model_key
from satiate.engine.model_warmup import warm_up
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.pace import PRIOR_PROMPT_TPS, PaceMeter, Speed, call_budget
from satiate.tools.llm.tokens import estimate_tokens
from support.scripted_chat import ScriptedChatModel, SimulatedClock

QUESTION = "Which river flows past the town of Orrinford?"
COUNTING = " ".join(str(n) for n in range(1, 41))


def many_sources(count: int) -> list[SourceRecord]:
    return [SourceRecord(id=f"S{n}", key=f"doc:{n}", url="", title=f"Orrinford mill {n}",
                         text=f"The Orrinford mill number {n} stands on the river Calder near Orrinford. It was built "
                         f"in {1800 + n} and ground wheat for the Tessel valley.",
                         backend="corpus", read_kind="passage", query=QUESTION, angle="question", cycle=1, round=1)
            for n in range(1, count + 1)]


def slow_model(clock: SimulatedClock) -> ScriptedChatModel:
    return ScriptedChatModel(responder=lambda call: COUNTING, reads_per_s=8.0, writes_per_s=2.0, clock=clock)


def test_the_warm_up_measures_both_speeds_once_per_model() -> None:
    clock = SimulatedClock()
    model = slow_model(clock)
    engine = ModelEngine(model, Settings(model_profile="small"), pace=PaceMeter(), clock=clock)
    notices = warm_up(engine, ["synthesizer", "critic"])  # one model for both roles: one call
    assert len(model.calls) == 1 and model.calls[0].max_tokens == 24 and model.calls[0].temperature == 0.0
    # The warm-up is the synthesis prompt itself: its instructions stay in a local model's cache for the runs.
    system = model.calls[0].messages[0].content
    assert system.startswith("Task: synthesize.") and "Orrinford" in model.calls[0].text
    assert engine.cached_prompt_tokens(model, "synthesize") == estimate_tokens(system) > 100
    assert engine.cached_prompt_tokens(model, "plan") == 0
    speed = engine.pace.speed(model_key(model))
    assert speed.measured and round(speed.prompt_tps) == 8 and round(speed.output_tps) == 2
    assert len(notices) == 1 and notices[0].startswith("warm-up: reads 8 tokens/s, writes 2.")
    assert warm_up(engine, ["synthesizer"]) == [] and len(model.calls) == 1  # measured already: no second call


def test_after_a_warm_up_the_first_call_of_a_slow_model_is_sized_to_its_speed() -> None:
    settings = Settings(model_profile="small", max_execution_time_s=120)
    view = ResearchView(question=QUESTION, settings=settings, sources=many_sources(30), knowledge_state="",
                        search_results=[])
    budgets, seconds_left = [], 0.0
    for warmed in (False, True):
        clock = SimulatedClock()
        engine = ModelEngine(slow_model(clock), settings, pace=PaceMeter(), clock=clock)
        if warmed:
            warm_up(engine, ["synthesizer"])
        engine.runs.start(view)
        budgets.append(engine.call_budget_for("synthesize", view, engine.models["synthesizer"]))
        seconds_left = engine.seconds_left(view)
    guessed, measured = budgets
    assert guessed is not None and measured is not None
    # Planned from the prior (PRIOR_PROMPT_TPS), the first prompt alone would take this model (8 tokens/s) longer
    # than the run has left; planned from the warm-up, prompt and answer fit.
    assert PRIOR_PROMPT_TPS > 8 and guessed.prompt_tokens / 8 > seconds_left
    assert measured.prompt_tokens < guessed.prompt_tokens and measured.output_tokens < guessed.output_tokens
    assert measured.seconds <= seconds_left  # planned at the measured speeds


def test_instructions_already_in_the_models_cache_cost_no_reading_time() -> None:
    slow = Speed(prompt_tps=10.0, output_tps=5.0, measured=True)
    common = dict(num_ctx=8192, output_cap=1024, output_expected=200, output_floor=100, prompt_floor=300,
                  seconds_left=90.0, speed=slow, context_share=0.8)
    cold = call_budget(**common)
    warm = call_budget(**common, cached_prompt=500)
    assert cold is not None and warm is not None
    assert warm.prompt_tokens == cold.prompt_tokens + 500  # the cached start is free; the rest is read as before
    assert warm.seconds == slow.seconds(warm.prompt_tokens - 500, 200) <= 90.0
