"""The novelty gate on its own: it judges this round's new results and records one verdict. The minimum rounds are
always accepted, a round that adds nothing after them is saturated unless the run's seeded ε draw lets it pass, a
round whose searches all failed is "failed" (never "nothing new"), and enough failures open the circuit."""

from __future__ import annotations

import pytest

from satiate.engine.base import Decision
from satiate.engine.policy import epsilon_draw
from satiate.nodes.novelty_gate import make_novelty_gate_node
from support.node_states import (
    EngineWith,
    node_deps,
    passage_key,
    resolved,
    search_record,
    stored_sources,
)
from support.research_corpus import PASSAGES, QUESTION

PASSAGE = {p["doc_id"]: p for p in PASSAGES}


@pytest.fixture
def gate(isolated_data_dir):
    """gate(records_of(settings), held=[doc ids], search_round=<rounds done>, engine=..., **settings) -> update."""

    def run(records_of, *, held=(), search_round=0, engine=None, **overrides) -> dict:
        settings = resolved(isolated_data_dir, **{"novelty_epsilon": 0.0, **overrides})
        state = {"question": QUESTION, "resolved_settings": settings, "cycle": 1, "search_round": search_round,
                 "sources": stored_sources(settings, [PASSAGE[d] for d in held]),
                 "search_results": records_of(settings)}
        return make_novelty_gate_node(node_deps(engine))(state)

    return run


def found(*doc_ids, search_round=1, **fields):
    """A search of round ``search_round`` that returned these passages."""
    return lambda settings: search_record(settings, [PASSAGE[d] for d in doc_ids], search_round=search_round, **fields)


def failed(search_round=1, **fields):
    return found(search_round=search_round, outcome="failed_final", error="HTTP 429", **fields)


def records(*makers):
    return lambda settings: [make(settings) for make in makers]


def test_the_minimum_rounds_are_accepted_even_when_nothing_is_new(gate):
    engine = EngineWith()
    update = gate(records(found("lumen", "harbor")), held=["lumen", "harbor"], engine=engine, searches_per_task=2)
    [verdict] = update["novelty_scores"]
    assert update["search_round"] == 1
    assert (verdict["decision"], verdict["reason"]) == ("accepted", "minimum rounds")
    assert (verdict["score"], verdict["new_hits"], verdict["total_hits"]) == (0, 0, 2)
    assert engine.calls == []  # a source already held adds nothing: there is nothing to score


def test_after_the_minimum_a_round_that_adds_nothing_is_saturated(gate):
    held = gate(records(found("lumen", search_round=3)), held=["lumen"], search_round=2)["novelty_scores"][0]
    assert (held["decision"], held["reason"], held["new_hits"]) == ("saturated", "saturated", 0)
    # new passages, but about other things: the deterministic engine scores them below the threshold
    off_topic = gate(records(found("toaster", "tea", "bristol", search_round=3)), held=["lumen"],
                     search_round=2)["novelty_scores"][0]
    assert off_topic["new_hits"] == 3 and off_topic["score"] < off_topic["threshold"]
    assert off_topic["decision"] == "saturated"
    on_topic = gate(records(found("harbor", "harbor-press", "pell-bio", search_round=3)), held=["lumen"],
                    search_round=2)["novelty_scores"][0]
    assert (on_topic["decision"], on_topic["reason"]) == ("accepted", "novel")
    assert on_topic["score"] >= on_topic["threshold"]


def scoring(score: int) -> tuple[EngineWith, list]:
    """An engine that gives every round ``score`` (costing 5 tokens), and the hits it was asked to score."""
    asked: list = []
    return EngineWith(novelty=lambda view, hits: asked.append(hits) or Decision(score, tokens=5)), asked


def test_the_engine_scores_only_the_unseen_hits_with_their_text_against_the_threshold(gate):
    round_3 = records(found("lumen", "harbor", search_round=3))
    engine, asked = scoring(3)
    update = gate(round_3, held=["lumen"], search_round=2, engine=engine, novelty_threshold=3)
    harbor = PASSAGE["harbor"]
    assert [[(h["key"], h["body"]) for h in hits] for hits in asked] == [[(passage_key(harbor), harbor["text"])]]
    verdict = update["novelty_scores"][0]
    assert (verdict["score"], verdict["decision"], verdict["reason"]) == (3, "accepted", "novel")
    assert (verdict["new_hits"], verdict["total_hits"], verdict["new_by_backend"]) == (1, 2, {"corpus": 1})
    assert update["tokens_used"] == 5  # the engine's cost is metered
    engine, _ = scoring(2)
    verdict = gate(round_3, held=["lumen"], search_round=2, engine=engine, novelty_threshold=3)["novelty_scores"][0]
    assert (verdict["score"], verdict["decision"]) == (2, "saturated")


def test_a_low_round_passes_when_the_runs_seeded_draw_falls_under_epsilon(gate):
    seed = next(s for s in range(100) if 0.05 < epsilon_draw(s, 1, 3) < 0.95)
    draw = epsilon_draw(seed, 1, 3)
    low = records(found("lumen", search_round=3))
    passed = gate(low, held=["lumen"], search_round=2, seed=seed, novelty_epsilon=draw + 0.01)["novelty_scores"][0]
    assert (passed["decision"], passed["reason"]) == ("accepted", "epsilon pass-through")
    assert passed["draw"] == round(draw, 6)  # the draw is on record, so the decision can be replayed
    stopped = gate(low, held=["lumen"], search_round=2, seed=seed, novelty_epsilon=draw - 0.01)["novelty_scores"][0]
    assert (stopped["decision"], stopped["draw"]) == ("saturated", round(draw, 6))


def test_a_round_whose_searches_all_failed_is_failed_not_saturated(gate):
    engine = EngineWith()
    update = gate(records(failed(search_round=3), failed(search_round=3)), held=["lumen"], search_round=2,
                  engine=engine, circuit_consecutive_failures=3)
    [verdict] = update["novelty_scores"]
    assert (verdict["decision"], verdict["failed_queries"], verdict["draw"]) == ("failed", 2, None)
    assert "degraded_mode" not in update and engine.calls == []
    # one failure beside an answer: the answer is judged, the failure counted
    mixed = gate(records(failed(search_round=3), found("harbor", search_round=3)), held=["lumen"], search_round=2,
                 circuit_consecutive_failures=3)["novelty_scores"][0]
    assert mixed["decision"] == "accepted" and mixed["failed_queries"] == 1 and mixed["total_hits"] == 1


def test_enough_failed_searches_open_the_circuit_and_turn_the_run_degraded(gate):
    update = gate(records(*[failed(search_round=3)] * 3), search_round=2, circuit_consecutive_failures=3)
    assert update["novelty_scores"][0]["decision"] == "circuit_open" and update["degraded_mode"] is True


def test_only_this_rounds_searches_count_and_its_time_is_its_slowest_branch(gate):
    update = gate(records(found("toaster", "tea", search_round=1, duration_s=9.0),
                          found("harbor", search_round=2, duration_s=0.5),
                          found("pell-bio", search_round=2, duration_s=1.5, backend="builtin")),
                  held=["lumen"], search_round=1, backends=["corpus", "builtin"])
    verdict = update["novelty_scores"][0]
    assert (verdict["round"], verdict["total_hits"]) == (2, 2)
    assert verdict["new_by_backend"] == {"corpus": 1, "builtin": 1}
    assert update["elapsed_s"] == 1.5  # branches ran in parallel: the slowest, not the sum
