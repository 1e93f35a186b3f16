"""Per-run model memory: two runs of the same question with the same seed, served by one engine (as in one server),
keep their own clock and their own last answer; a run's thread is what tells them apart.

No real model: ``ScriptedChatModel`` answers, on a simulated clock.
"""

from __future__ import annotations

import json
import re

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from satiate.engine.base import ResearchView
from satiate.engine.model import ModelEngine
from satiate.engine.model_calls import RUN_RESERVE_S
from satiate.engine.model_run import ModelRuns
from satiate.nodes.common import current_thread_id
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.pace import PaceMeter
from support.node_states import read_source
from support.scripted_chat import ScriptedCall, ScriptedChatModel, SimulatedClock

QUESTION = "Which river runs through the town of Orrinford?"


def source(number: int, title: str, text: str) -> SourceRecord:
    return read_source(number, title, text, QUESTION)


SOURCES = [
    source(1, "Orrinford", "Orrinford is a market town in the Tessel valley. The river Calder runs through Orrinford "
           "from north to south. The town holds a wool fair every autumn."),
    source(2, "River Calder", "The river Calder rises in the Brannock hills. It flows past Orrinford before it "
           "meets the sea at Saltmere."),
]


def view(settings: Settings, run_id: str | None) -> ResearchView:
    return ResearchView(question=QUESTION, settings=settings, sources=SOURCES, knowledge_state="", search_results=[],
                        run_id=run_id)


def calder_answer(call: ScriptedCall) -> str:
    block = re.search(r"<evidence>\n(.*?)\n</evidence>", call.text, re.S).group(1)
    found = dict(re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", block, re.M))
    runs = next(i for i, text in found.items() if "runs through Orrinford" in text)
    return json.dumps({"claims": [{"evidence": [runs], "claim": "The river Calder runs through Orrinford."}],
                       "short_answer": "Calder"})


def test_a_second_run_of_the_same_question_starts_its_own_clock_and_leaves_the_first_ones_alone() -> None:
    settings = Settings(max_execution_time_s=120, seed=7, model_profile="small")
    clock = SimulatedClock()
    engine = ModelEngine(ScriptedChatModel(responder=calder_answer), settings, pace=PaceMeter(), clock=clock)
    first, second = view(settings, "thread-a"), view(settings, "thread-b")
    engine.plan(first, QUESTION)  # the first run's time budget starts now ...
    clock.advance(45)
    engine.plan(second, QUESTION)  # ... and a second run of the same question starts 45 s later
    full = settings.max_execution_time_s - RUN_RESERVE_S
    assert engine.seconds_left(first) == full - 45  # not restarted by the second run's plan
    assert engine.seconds_left(second) == full  # not charged with the first run's 45 s


def test_a_run_does_not_reuse_the_answer_another_run_of_the_same_question_was_given() -> None:
    settings = Settings(seed=7)
    model = ScriptedChatModel(responder=calder_answer)
    engine = ModelEngine(model, settings, pace=PaceMeter(), clock=SimulatedClock())
    first = engine.synthesize(view(settings, "thread-a"))
    assert len(model.calls) == 1 and first.value.short_answer == "Calder"
    second = engine.synthesize(view(settings, "thread-b"))  # the same sentences, but another run: asked again
    assert len(model.calls) == 2 and second.model_calls == 1
    again = engine.synthesize(view(settings, "thread-a"))  # the first run's own answer is still its own
    assert len(model.calls) == 2 and again.model_calls == 0 and again.value.short_answer == "Calder"


def test_the_memory_keeps_a_bounded_number_of_runs_forgetting_the_least_recently_used() -> None:
    settings = Settings(seed=7)
    clock = SimulatedClock()
    runs = ModelRuns(clock, kept=2)
    opened = clock()
    runs.start(view(settings, "old"))
    clock.advance(10)
    runs.start(view(settings, "used"))
    runs.spend(view(settings, "old"), 5)  # "old" used again: "used" is now the least recent
    clock.advance(10)
    runs.start(view(settings, "new"))
    assert runs.started(view(settings, "old")) == opened and runs.tokens(view(settings, "old")) == 5
    assert runs.started(view(settings, "used")) == opened + 20  # forgotten: its clock restarts at its next call


class Probe(TypedDict, total=False):
    thread: str | None


def thread_probe(state: Probe) -> Probe:
    return {"thread": current_thread_id()}


def probe_graph(checkpointer: InMemorySaver | None):
    graph = StateGraph(Probe)
    graph.add_node("probe", thread_probe)
    graph.add_edge(START, "probe")
    graph.add_edge("probe", END)
    return graph.compile(checkpointer=checkpointer)


def test_a_node_knows_its_runs_thread_and_a_graph_without_a_checkpointer_has_none() -> None:
    with_threads = probe_graph(InMemorySaver())
    assert with_threads.invoke({}, {"configurable": {"thread_id": "orrinford-1"}})["thread"] == "orrinford-1"
    assert with_threads.invoke({}, {"configurable": {"thread_id": "orrinford-2"}})["thread"] == "orrinford-2"
    assert probe_graph(None).invoke({})["thread"] is None
    assert current_thread_id() is None  # outside a graph run
