"""LangGraph's own cost for a run's shape: the same steps and tasks, with nodes that do nothing.

A run of satiate is a sequence of supersteps, most with one task (plan, novelty_gate, compress, reflect, synthesize,
critic, finalize), some with one ``gather`` task per query (Send). ``run_shape`` reads that sequence back from a
checkpointed run; ``StepperGraph`` replays it with trivial nodes and a three-channel state, under the same
checkpointer and durability. What the replay costs is the floor no node or state design can go under: the per-step
and per-task price of LangGraph (and of the saver) for that many steps and tasks. The overhead benchmark reports it
beside the measured overhead, so what is satiate's own share stays visible.
"""

from __future__ import annotations

import operator
import statistics
import time
from typing import Annotated, Any, TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import Send


def run_shape(graph: Any, config: dict[str, Any]) -> list[int]:
    """Tasks per superstep of a finished checkpointed run, in order (the input step left out)."""
    snapshots = list(graph.get_state_history(config))
    counts = [len(snapshot.tasks) for snapshot in reversed(snapshots) if snapshot.tasks]
    return counts[1:]  # the first is LangGraph's own input task (__start__), which the replay has too


class StepState(TypedDict, total=False):
    shape: list[int]
    step: Annotated[int, operator.add]
    log: Annotated[list[int], operator.add]


def _one(state: StepState) -> dict[str, Any]:
    return {"step": 1}


def _many(task: dict[str, int]) -> dict[str, Any]:
    return {"step": 1} if task["i"] == 0 else {"log": [task["i"]]}


def _route(state: StepState) -> Any:
    shape, step = state["shape"], state.get("step", 0)
    if step >= len(shape):
        return "__end__"
    if shape[step] == 1:
        return "one"
    return [Send("many", {"i": i}) for i in range(shape[step])]


def stepper_graph(checkpointer: Any = None) -> Any:
    """One node for single-task steps, one fanned out by Send for the others (its branches join in ``one``)."""
    builder = StateGraph(StepState)
    builder.add_node("one", _one)
    builder.add_node("many", _many)
    builder.add_conditional_edges(START, _route, ["one", "many", "__end__"])
    builder.add_conditional_edges("one", _route, ["one", "many", "__end__"])
    builder.add_edge("many", "one")
    return builder.compile(checkpointer=checkpointer)


def replayable(shape: list[int]) -> bool:
    """The replay joins every fanned-out step in a single-task step, as satiate's gather joins in novelty_gate."""
    return bool(shape) and all(count == 1 for previous, count in zip(shape, shape[1:]) if previous > 1)


def floor_seconds(graph: Any, shape: list[int], *, repeats: int = 5, durability: str | None = None,
                  thread_prefix: str = "floor") -> float:
    """Median wall time of replaying ``shape`` on a ``stepper_graph``."""
    if not replayable(shape):
        raise ValueError(f"a fanned-out step must be followed by a single-task step: {shape}")
    options = {"durability": durability} if durability else {}
    times = []
    for repeat in range(repeats):
        config = {"configurable": {"thread_id": f"{thread_prefix}-{repeat}-{time.monotonic_ns()}"}}
        started = time.perf_counter()
        graph.invoke({"shape": shape, "step": 0, "log": []}, {"recursion_limit": 10 * len(shape) + 10, **config},
                     **options)
        times.append(time.perf_counter() - started)
    return statistics.median(times)
