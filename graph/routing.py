"""Pure routing: the graph's conditional edges, each a function of the state that names the next node.

The loop rules they apply (saturation, the circuit breaker, budgets, the stop decision) live in
``satiate.engine.policy``; an edge reads what a node decided with those rules, or calls a rule itself.
"""

from __future__ import annotations

from typing import Literal

from langgraph.types import Send

from satiate.engine.policy import search_chain, search_loop_done
from satiate.nodes.common import settings_of
from satiate.state.schema import ResearchState


def dispatch_searches(state: ResearchState) -> list[Send] | Literal["synthesize"]:
    """Fan the pending queries out to parallel ``gather`` branches, one per query; nothing pending -> synthesize."""
    pending = state.get("pending_queries") or []
    if not pending:
        return "synthesize"
    chain = search_chain(state, settings_of(state))
    if not chain:
        return "synthesize"  # every working backend is saturated for this cycle: nothing new to gather
    round_number = state.get("search_round", 0) + 1
    held = sorted(state.get("sources", {}))  # what is read already: gather spends its reading budget elsewhere
    return [
        Send(
            "gather",
            {
                "query": query,
                "index": index,
                "cycle": state.get("cycle", 1),
                "round": round_number,
                "backends": chain,
                "resolved_settings": state["resolved_settings"],
                "held": held,
            },
        )
        for index, query in enumerate(pending)
    ]


def route_after_gate(state: ResearchState) -> Literal["compress", "reflect", "synthesize"]:
    """Accepted -> compress; a round whose searches all failed -> reflect (reformulate); saturated or degraded ->
    synthesize."""
    verdict = state["novelty_scores"][-1]
    if verdict["decision"] == "accepted":
        return "compress"
    if verdict["decision"] == "failed":
        return "reflect"
    return "synthesize"


def route_after_reflect(state: ResearchState) -> list[Send] | Literal["synthesize"]:
    """Not sufficient and budget left -> gather again; sufficient, round cap or budget spent -> synthesize."""
    if search_loop_done(state, settings_of(state)):
        return "synthesize"
    return dispatch_searches(state)


def route_after_critic(state: ResearchState) -> list[Send] | Literal["finalize", "synthesize"]:
    """Two clean sign-offs, the budget or degraded mode -> finalize; otherwise gather on the next target.

    The critic node records ``stop_reason`` (from ``satiate.engine.policy.stop_reason``) before planning a next cycle
    it would not need; nothing pending after a sign-off means a dry re-check: synthesize and critique again.
    """
    if state.get("stop_reason"):
        return "finalize"
    return dispatch_searches(state)

