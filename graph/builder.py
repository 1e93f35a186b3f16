"""Build the research graph: seven nodes (plus finalize), three conditional loops, one typed state.

    START -> plan =(Send per query)=> gather -> novelty_gate -> compress -> reflect =(Send)=> gather ...
                                                   |  saturated / circuit open -> synthesize
                                                   |  all searches failed -> reflect (reformulate)
    reflect -- sufficient / round cap / budget -> synthesize -> critic
    critic =(Send: top material gap, fanned out)=> gather ...; 2 clean sign-offs / budget / degraded -> finalize -> END
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.graph import END, START, StateGraph

from satiate.graph.checkpoint import one_writer
from satiate.graph.deps import complete, default_dependencies
from satiate.graph.routing import dispatch_searches, route_after_critic, route_after_gate, route_after_reflect
from satiate.nodes.common import Dependencies
from satiate.nodes.compress import make_compress_node
from satiate.nodes.critic import make_critic_node
from satiate.nodes.finalize import make_finalize_node
from satiate.nodes.gather import make_gather_node
from satiate.nodes.novelty_gate import make_novelty_gate_node
from satiate.nodes.plan import make_plan_node
from satiate.nodes.reflect import make_reflect_node
from satiate.nodes.synthesize import make_synthesize_node
from satiate.state.schema import InputState, OutputState, ResearchState
from satiate.state.settings import Settings


class LateBranchFailure(logging.Filter):
    """Drop the traceback Python logs when a parallel branch (a Send) fails after the run has already stopped.

    When a step's branches fail together (a full disk or a damaged store under every gather), the first error ends
    the run and LangGraph shuts its thread pool; a branch ending after that cannot save its error, and
    ``concurrent.futures`` logs "exception calling callback" with ~40 lines of traceback before the run's one-line
    error. That branch's writes are lost either way (a resume runs it again), and the first error says what to do.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (isinstance(error, RuntimeError) and "cannot schedule new futures after shutdown" in str(error))


_LATE_BRANCH_FAILURE = LateBranchFailure()


def quiet_late_branch_failures() -> None:
    """Install ``LateBranchFailure`` on the ``concurrent.futures`` logger (once per process)."""
    logger = logging.getLogger("concurrent.futures")
    if _LATE_BRANCH_FAILURE not in logger.filters:
        logger.addFilter(_LATE_BRANCH_FAILURE)


# Loops are bounded by the run's own budgets (cycles x rounds); this only guards against a routing bug.
RECURSION_LIMIT = 2000
NODE_NAMES = ("plan", "gather", "novelty_gate", "compress", "reflect", "synthesize", "critic", "finalize")


def _optional_settings_model() -> type:
    """A pydantic model with every Settings field optional and described, for LangGraph's context schema."""
    from pydantic import create_model

    fields: dict[str, Any] = {}
    for name, field in Settings.model_fields.items():
        fields[name] = (field.annotation | None, None)  # type: ignore[operator]
    model = create_model("SatiateContext", **fields)
    for name, field in Settings.model_fields.items():
        model.model_fields[name].description = field.description
    model.model_rebuild(force=True)
    return model


SatiateContext = _optional_settings_model()


def build_graph(deps: Dependencies | None = None, *, checkpointer: Any = None, name: str = "satiate"):
    """Compile the research graph. ``deps`` injects the engine and search service (tests, embedders); the parts it
    leaves out are the process's own (``satiate.graph.deps``).

    Each run holds its thread's writer lock (``graph.checkpoint.OneWriterGraph``): a second run of a thread while
    one is writing it raises ThreadBusy instead of interleaving their checkpoints.
    """
    deps = complete(deps) if deps is not None else default_dependencies()
    quiet_late_branch_failures()
    builder = StateGraph(ResearchState, context_schema=SatiateContext, input_schema=InputState,
                         output_schema=OutputState)
    builder.add_node("plan", make_plan_node(deps))
    builder.add_node("gather", make_gather_node(deps))
    builder.add_node("novelty_gate", make_novelty_gate_node(deps))
    builder.add_node("compress", make_compress_node(deps))
    builder.add_node("reflect", make_reflect_node(deps))
    builder.add_node("synthesize", make_synthesize_node(deps))
    builder.add_node("critic", make_critic_node(deps))
    builder.add_node("finalize", make_finalize_node(deps))

    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", dispatch_searches, ["gather", "synthesize"])
    builder.add_edge("gather", "novelty_gate")
    builder.add_conditional_edges("novelty_gate", route_after_gate, ["compress", "reflect", "synthesize"])
    builder.add_edge("compress", "reflect")
    builder.add_conditional_edges("reflect", route_after_reflect, ["gather", "synthesize"])
    builder.add_edge("synthesize", "critic")
    builder.add_conditional_edges("critic", route_after_critic, ["gather", "synthesize", "finalize"])
    builder.add_edge("finalize", END)
    return one_writer(builder.compile(checkpointer=checkpointer, name=name))
