"""The configurations compared by the multi-hop benchmark, each as plain settings of the real graph.

Every configuration runs through ``build_graph`` with the same corpus, engine and ``max_results_per_query``; only
the overrides below differ. One-shot BM25 is the only configuration that bypasses the graph: it is a single call of
the same FTS5 index (``LocalCorpusBackend.search(question, k)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Configuration:
    name: str
    label: str
    how: str
    overrides: dict[str, Any] = field(default_factory=dict)
    uses_epsilon: bool = False
    graph: bool = True


FULL = "satiate"

CONFIGURATIONS: tuple[Configuration, ...] = (
    Configuration(
        "bm25_oneshot", "one-shot BM25 (k = satiate's passages read)",
        "LocalCorpusBackend.search(question, k) on the same FTS5 index; k = passages the full loop read for this "
        "question and seed. No graph.", graph=False,
    ),
    Configuration(
        "dual_search", "fixed dual search (design §3)",
        "max_queries_per_round=2, max_search_rounds=1, searches_per_task=1, max_cycles=1: one round of the "
        "planner's first two queries (the question, then its first named entity or first angle), the quality-floor "
        "fallback on the first, no novelty gate decision (round 1 is always accepted), critic cannot start a cycle.",
        {"max_queries_per_round": 2, "max_search_rounds": 1, "searches_per_task": 1, "max_cycles": 1},
    ),
    Configuration(
        "fixed3_single", "fixed 3 loops, 1 query a loop",
        "max_queries_per_round=1, searches_per_task=3, max_search_rounds=3, novelty_threshold=0, max_cycles=1: "
        "local-deep-researcher's shape (search, summarise, reflect, one follow-up query, three times); every round "
        "is accepted, reflect picks the next query, critic cannot start a cycle.",
        {"max_queries_per_round": 1, "searches_per_task": 3, "max_search_rounds": 3, "novelty_threshold": 0,
         "max_cycles": 1},
    ),
    Configuration(
        "fixed3_fanout", "fixed 3 loops, satiate's fan-out",
        "searches_per_task=3, max_search_rounds=3, novelty_threshold=0, max_cycles=1: the same three accepted "
        "rounds but with satiate's multi-angle fan-out per round; isolates gating + critic from query width.",
        {"searches_per_task": 3, "max_search_rounds": 3, "novelty_threshold": 0, "max_cycles": 1},
    ),
    Configuration(
        FULL, "satiate full loop",
        "defaults: a local search reads its best few unread results (question 4, a name 1, a breadcrumb 2), "
        "saturation gate on evidence novelty (threshold 3, ε 0.15, minimum 2 rounds, cap 5), reflect with breadcrumbs "
        "(bridge + relation), passed-over results read when they rank among the best evidence, the loop and the "
        "critic stop once the short answer is supported, critic-driven cycles (standard tier: up to 5) until 2 clean "
        "sign-offs.",
        uses_epsilon=True,
    ),
    Configuration(
        "no_epsilon", "ablation: no ε", "novelty_epsilon=0: a saturated round is never let through.",
        {"novelty_epsilon": 0.0},
    ),
    Configuration(
        "no_breadcrumbs", "ablation: no breadcrumbs",
        "max_breadcrumbs=0: reflect follows no breadcrumb (the critic's unread-source gaps still name them).",
        {"max_breadcrumbs": 0}, uses_epsilon=True,
    ),
    Configuration(
        "no_critic", "ablation: no critic", "max_cycles=1: one gathering loop, the critic cannot start a cycle.",
        {"max_cycles": 1}, uses_epsilon=True,
    ),
)

BY_NAME = {c.name: c for c in CONFIGURATIONS}


def select(names: list[str] | None) -> list[Configuration]:
    """The named configurations in table order; the full loop is always included (BM25's k comes from it)."""
    if not names:
        return list(CONFIGURATIONS)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise SystemExit(f"unknown configuration(s) {unknown}; choose from {list(BY_NAME)}")
    wanted = set(names) | {FULL}
    return [c for c in CONFIGURATIONS if c.name in wanted]
