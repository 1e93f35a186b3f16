"""Pure routing: every conditional edge and loop policy of the graph as a function of the state.

No I/O and no hidden randomness: the ε draw of the saturation gate comes from a generator seeded with the run's
seed and the round's position, so the same seed and the same search results give the same decisions on replay and
after a resume.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from langgraph.types import Send

from satiate.state.records import SearchRecord
from satiate.state.schema import ResearchState
from satiate.state.settings import Settings

FAILED = ("failed_retryable", "failed_final")


# --- the saturation gate (seed 001) -------------------------------------------------------------------------------------
def epsilon_draw(seed: int, cycle: int, search_round: int) -> float:
    """The ε-greedy draw for one round: uniform in [0, 1), a pure function of (seed, cycle, round)."""
    return random.Random(f"{seed}:{cycle}:{search_round}").random()


def saturation_decision(score: int, search_round: int, settings: Settings, draw: float) -> tuple[bool, str]:
    """Accept the round or call it saturated.

    The first ``searches_per_task`` rounds are always accepted; after that a round scoring below the threshold is
    saturated, except that with probability ε it passes anyway (the threshold is not reset: the next low round
    faces the same gate).
    """
    if search_round <= settings.searches_per_task:
        return True, "minimum rounds"
    if score >= settings.novelty_threshold:
        return True, "novel"
    if draw < settings.novelty_epsilon:
        return True, "epsilon pass-through"
    return False, "saturated"


# --- the circuit breaker and fallback chain (seed 002 §10) --------------------------------------------------------------
def backend_circuit_open(records: Sequence[SearchRecord], backend: str, settings: Settings) -> bool:
    """Open after N consecutive failed searches on this backend, or when at least half of its searches failed."""
    outcomes = [r["outcome"] in FAILED for r in records if r["backend"] == backend]
    if not outcomes:
        return False
    consecutive = 0
    for failed in reversed(outcomes):
        if not failed:
            break
        consecutive += 1
    if consecutive >= settings.circuit_consecutive_failures:
        return True
    enough = len(outcomes) >= settings.circuit_consecutive_failures
    return enough and sum(outcomes) / len(outcomes) >= settings.circuit_failure_ratio


def live_backends(state: ResearchState, settings: Settings) -> list[str]:
    """The fallback chain without the backends whose circuit is open, in order (tier 4)."""
    records = state.get("search_results", [])
    return [b for b in settings.resolved_backends() if not backend_circuit_open(records, b, settings)]


def backend_saturated(state: ResearchState, backend: str, settings: Settings) -> bool:
    """Seed 004's per-source saturation, per cycle: the backend's query ceiling is reached, or its last rounds
    brought nothing new."""
    cycle = state.get("cycle", 1)
    used = sum(1 for r in state.get("search_results", []) if r["cycle"] == cycle and r["backend"] == backend)
    if used >= settings.query_ceilings.get(backend, used + 1):
        return True
    verdicts = [v for v in state.get("novelty_scores", []) if v["cycle"] == cycle and backend in v.get("new_by_backend", {})]
    recent = verdicts[-settings.duplicate_rounds_stop:]
    return len(recent) == settings.duplicate_rounds_stop and all(v["new_by_backend"][backend] == 0 for v in recent)



# --- budgets and stopping ------------------------------------------------------------------------------------------------
def budget_spent(state: ResearchState, settings: Settings) -> str | None:
    """Why the hard budget is spent, or None: time (summed over nodes), tokens."""
    if state.get("elapsed_s", 0.0) >= settings.max_execution_time_s:
        return "time budget spent"
    if settings.token_budget and state.get("tokens_used", 0) >= settings.token_budget:
        return "token budget spent"
    return None


def stop_reason(state: ResearchState, settings: Settings) -> str | None:
    """After a critic pass: why the outer loop ends now, or None to keep going."""
    if state.get("degraded_mode"):
        return "degraded: search kept failing"
    if state.get("clean_signoffs", 0) >= settings.required_signoffs:
        return f"converged: {settings.required_signoffs} consecutive clean sign-offs"
    if state.get("cycle", 1) >= settings.budget.max_cycles:
        return "cycle budget spent"
    return budget_spent(state, settings)


# --- conditional edges ---------------------------------------------------------------------------------------------------
def dispatch_searches(state: ResearchState) -> list[Send] | Literal["synthesize"]:
    """Fan the pending queries out to parallel ``gather`` branches, one per query; nothing pending -> synthesize."""
    pending = state.get("pending_queries") or []
    if not pending:
        return "synthesize"
    settings = Settings.model_validate(state["resolved_settings"])
    live = live_backends(state, settings)
    chain = [b for b in live if not backend_saturated(state, b, settings)]
    if live and not chain:
        return "synthesize"  # every working backend is saturated for this cycle: nothing new to gather
    chain = chain or settings.resolved_backends()[-1:]  # all circuits open: the gate will call it degraded
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
    """Accepted -> compress; a round whose searches all failed -> reflect (reformulate); saturated or degraded -> synthesize."""
    verdict = state["novelty_scores"][-1]
    if verdict["decision"] == "accepted":
        return "compress"
    if verdict["decision"] == "failed":
        return "reflect"
    return "synthesize"


def route_after_reflect(state: ResearchState) -> list[Send] | Literal["synthesize"]:
    """Not sufficient and budget left -> gather again; sufficient, round cap or budget spent -> synthesize."""
    settings = Settings.model_validate(state["resolved_settings"])
    if budget_spent(state, settings) or state.get("search_round", 0) >= settings.max_search_rounds:
        return "synthesize"
    below_minimum = state.get("search_round", 0) < settings.searches_per_task
    if state.get("sufficient") and not below_minimum:
        return "synthesize"
    return dispatch_searches(state)


def route_after_critic(state: ResearchState) -> list[Send] | Literal["finalize", "synthesize"]:
    """Two clean sign-offs, the budget or degraded mode -> finalize; otherwise gather on the next target.

    The critic node records ``stop_reason`` (from ``stop_reason()`` below) before planning a next cycle it would not
    need; nothing pending after a sign-off means a dry re-check: synthesize and critique again.
    """
    if state.get("stop_reason"):
        return "finalize"
    return dispatch_searches(state)

