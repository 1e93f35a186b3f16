"""satiate's public API: build the research graph, or use the compiled default.

    from satiate.graph import graph                 # compiled without a checkpointer (LangGraph server, subgraphs)
    from satiate.graph import build_graph           # build_graph(deps, checkpointer=...) for your own wiring
    out = graph.invoke({"question": "...", "settings": {"llm": "none"}})
    result = ResearchResult.model_validate(out["result"])

Names are loaded on first use, so importing a submodule (``satiate.graph.routing``) does not build the graph.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "build_graph": "satiate.graph.builder",
    "NODE_NAMES": "satiate.graph.builder",
    "RECURSION_LIMIT": "satiate.graph.builder",
    "SatiateContext": "satiate.graph.builder",
    "AgentResponse": "satiate.state.contracts",
    "ResearchInput": "satiate.state.contracts",
    "ResearchResult": "satiate.state.contracts",
    "InputState": "satiate.state.schema",
    "OutputState": "satiate.state.schema",
    "ResearchState": "satiate.state.schema",
}
__all__ = [*_EXPORTS, "graph"]


def __getattr__(name: str) -> Any:
    if name == "graph":
        from satiate.graph.builder import build_graph

        compiled = build_graph()
        globals()["graph"] = compiled
        return compiled
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'satiate.graph' has no attribute {name!r}")
