"""The critic node drives the outer loop: material gaps only, one expansion, two sign-offs, honest open questions."""

from __future__ import annotations

from satiate.engine.base import Decision
from satiate.engine.deterministic import DeterministicEngine
from satiate.nodes.common import Dependencies
from satiate.nodes.critic import make_critic_node
from satiate.state.contracts import CriticGap, CriticReport
from satiate.state.settings import Settings


class ScriptedCritic(DeterministicEngine):
    """The deterministic engine with a fixed critic report (the critic's judgement is what these tests vary)."""

    def __init__(self, report: CriticReport) -> None:
        self.report = report

    def critique(self, view):
        return Decision(self.report)


def gap(query: str, priority: float, material: bool, kind: str = "modality") -> CriticGap:
    return CriticGap(kind=kind, description=f"gap {query}", query=query, priority=priority, material=material)


def run_critic(report: CriticReport, **state_fields) -> dict:
    settings = Settings(data_dir="/tmp/unused", seed=1)
    node = make_critic_node(Dependencies(engine_for=lambda s: ScriptedCritic(report), search_for=lambda s: None))
    state = {"question": "Who founded the company that makes the Lumen kettle?",
             "resolved_settings": settings.model_dump(mode="json"), "cycle": 1, "search_round": 2, "sources": {},
             "search_results": [], "claims": [], **state_fields}
    return node(state)


def test_cosmetic_gaps_do_not_block_signoff():
    update = run_critic(CriticReport(gaps=[gap("one more citation", 2, False)], signoff=False), clean_signoffs=0)
    assert update["clean_signoffs"] == 1 and update["critic_reports"][0]["signoff"] is True
    assert update["rounds"][0]["open_gaps"] == 0


def test_one_material_gap_resets_clean_signoffs():
    update = run_critic(CriticReport(gaps=[gap("Harbor Works founder", 8, True)], signoff=False), clean_signoffs=1)
    assert update["clean_signoffs"] == 0 and update["rounds"][0]["signoff"] is False


def test_second_consecutive_signoff_stops_the_run():
    update = run_critic(CriticReport(gaps=[], signoff=True), clean_signoffs=1)
    assert update["clean_signoffs"] == 2 and update["stop_reason"].startswith("converged")
    assert "pending_queries" not in update


def test_only_the_top_material_gap_expands():
    report = CriticReport(gaps=[gap("toaster browning levels", 3, True), gap("Harbor Works founder", 8, True)],
                          signoff=False)
    update = run_critic(report)
    assert update["critic_reports"][0]["target"] == "Harbor Works founder"
    queries = [q["query"] for q in update["pending_queries"]]
    assert queries[0] == "Harbor Works founder"
    assert not any("toaster" in q for q in queries)
    assert update["cycle"] == 2 and update["search_round"] == 0


def test_a_gap_already_searched_becomes_an_open_question_and_leaves_the_count():
    searched = [{"query": "Harbor Works founder", "cycle": 1, "round": 1, "outcome": "empty", "hits": [],
                 "backend": "corpus", "angle": "question"}]
    update = run_critic(CriticReport(gaps=[gap("founder Harbor Works", 8, True)], signoff=False),
                        search_results=searched)
    assert update["critic_reports"][0]["signoff"] is True
    assert update["open_questions"][0]["reason"].startswith("searched for 'founder Harbor Works' already")
    assert update["rounds"][0]["open_gaps"] == 0
