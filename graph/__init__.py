"""satiate's public API: build the research graph, or use the compiled default.

    from satiate.graph import graph                 # compiled without a checkpointer (LangGraph server, subgraphs)
    from satiate.graph import build_graph           # build_graph(deps, checkpointer=...) for your own wiring
    out = graph.invoke({"question": "...", "settings": {"llm": "none"}})
    result = ResearchResult.model_validate(out["result"])
"""

from satiate.graph.builder import NODE_NAMES, RECURSION_LIMIT, SatiateContext, build_graph
from satiate.state.contracts import AgentResponse, ResearchInput, ResearchResult
from satiate.state.schema import InputState, OutputState, ResearchState

graph = build_graph()

__all__ = [
    "AgentResponse",
    "InputState",
    "NODE_NAMES",
    "OutputState",
    "RECURSION_LIMIT",
    "ResearchInput",
    "ResearchResult",
    "ResearchState",
    "SatiateContext",
    "build_graph",
    "graph",
]
