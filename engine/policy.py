"""The loop rules, in one place: saturation with its seeded ε pass-through, the circuit breaker and fallback chain,
per-backend saturation, budgets, the critic's sign-off and the stop decision.

Every rule is a pure function of the state and the settings: no I/O and no hidden randomness. The ε draw comes from
a generator seeded with the run's seed and the round's position, so the same seed and the same search results give
the same decisions on replay and after a resume. Nodes apply these rules and record what they decided; the graph's
edge functions (``graph/routing.py``) read those records, or call these rules, to pick the next node.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from satiate.state.records import GapRecord, SearchRecord, search_failed
from satiate.state.schema import ResearchState
from satiate.state.settings import Settings


# --- the saturation gate (design §4) ----------------------------------------------------------------------------------
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


# --- the circuit breaker and fallback chain (design §14) --------------------------------------------------------------
def backend_circuit_open(records: Sequence[SearchRecord], backend: str, settings: Settings) -> bool:
    """Open after N consecutive failed searches on this backend, or when at least half of its searches failed."""
    outcomes = [search_failed(r["outcome"]) for r in records if r["backend"] == backend]
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
    """The fallback chain without the backends whose circuit is open, in order (error level 4)."""
    records = state.get("search_results", [])
    return [b for b in settings.resolved_backends() if not backend_circuit_open(records, b, settings)]


def backend_saturated(state: ResearchState, backend: str, settings: Settings) -> bool:
    """Per-backend saturation (design §4), per cycle: the backend's query ceiling is reached, or its last rounds
    brought nothing new."""
    cycle = state.get("cycle", 1)
    used = sum(1 for r in state.get("search_results", []) if r["cycle"] == cycle and r["backend"] == backend)
    if used >= settings.query_ceilings.get(backend, used + 1):
        return True
    verdicts = [v for v in state.get("novelty_scores", [])
                if v["cycle"] == cycle and backend in v.get("new_by_backend", {})]
    recent = verdicts[-settings.duplicate_rounds_stop:]
    return len(recent) == settings.duplicate_rounds_stop and all(v["new_by_backend"][backend] == 0 for v in recent)


def search_chain(state: ResearchState, settings: Settings) -> list[str]:
    """The backends the next round tries, in fallback order; empty when every working backend is saturated.

    When every circuit is open the chain is the last backend alone, so the round still runs and the gate calls the
    run degraded.
    """
    live = live_backends(state, settings)
    chain = [b for b in live if not backend_saturated(state, b, settings)]
    if live and not chain:
        return []
    return chain or settings.resolved_backends()[-1:]


# --- budgets and stopping ---------------------------------------------------------------------------------------------
def budget_spent(state: ResearchState, settings: Settings) -> str | None:
    """Why the hard budget is spent, or None: time (summed over nodes), tokens."""
    if state.get("elapsed_s", 0.0) >= settings.max_execution_time_s:
        return "time budget spent"
    if settings.token_budget and state.get("tokens_used", 0) >= settings.token_budget:
        return "token budget spent"
    return None


def search_loop_done(state: ResearchState, settings: Settings) -> bool:
    """After reflect: the inner loop ends on a spent budget, at the round cap, or when reflect judged the knowledge
    sufficient once the minimum rounds are done."""
    search_round = state.get("search_round", 0)
    if budget_spent(state, settings) or search_round >= settings.max_search_rounds:
        return True
    return bool(state.get("sufficient")) and search_round >= settings.searches_per_task


@dataclass(frozen=True)
class Signoff:
    """The critic's verdict on a cycle: the gaps that block sign-off (most important first) and the sign-off streak."""

    material: list[GapRecord]
    clean_signoffs: int

    @property
    def signoff(self) -> bool:
        """A clean sign-off: no material gap is left."""
        return not self.material

    @property
    def target(self) -> str | None:
        """The next cycle's target: the query of the top material gap, if any."""
        return self.material[0]["query"] if self.material else None


def judge_signoff(gaps: Sequence[GapRecord], clean_signoffs_before: int) -> Signoff:
    """Only material gaps block sign-off (design §12): a clean sign-off extends the streak, a material gap resets
    it."""
    material = sorted((g for g in gaps if g["material"]), key=lambda g: -g["priority"])
    return Signoff(material=material, clean_signoffs=0 if material else clean_signoffs_before + 1)


def stop_reason(state: ResearchState, settings: Settings) -> str | None:
    """After a critic pass: why the outer loop ends now, or None to keep going."""
    if state.get("degraded_mode"):
        return "degraded: search kept failing"
    if state.get("clean_signoffs", 0) >= settings.required_signoffs:
        return f"converged: {settings.required_signoffs} consecutive clean sign-offs"
    if state.get("cycle", 1) >= settings.budget.max_cycles:
        return "cycle budget spent"
    return budget_spent(state, settings)
