"""The benchmark's split into a tuning and a reporting half, and its short-answer commitment metrics, on invented
questions and runs."""

from __future__ import annotations

from bench.data import HALVES, Question, half_of
from bench.metrics import bold_metrics, short_answer_summary


def question(qid: str, *answers: str) -> Question:
    return Question(qid=qid, dataset="invented", type="bridge", question=f"Who keeps the lighthouse {qid}?",
                    answers=answers, gold_doc_ids=("doc",))


def run(qid: str, short: str | None, candidate: str | None, confidence: float) -> dict:
    return {"qid": qid, "config": "satiate", "seed": 1, "answer": "text", "short_answer": short,
            "short_answer_candidate": candidate, "short_answer_confidence": confidence}


def test_the_halves_are_fixed_by_the_id_and_split_many_ids_roughly_evenly():
    ids = [f"q{n}" for n in range(400)]
    first = [half_of(i) for i in ids]
    assert first == [half_of(i) for i in ids]
    assert set(first) == set(HALVES)
    assert 150 < first.count("tuning") < 250


def test_a_committed_answer_is_right_or_wrong_and_an_abstention_is_neither():
    keeper = question("a", "Ilse Marrow")
    assert bold_metrics(run("a", "Ilse Marrow", "Ilse Marrow", 0.9), keeper) == \
        {"bold": 1.0, "bold_right": 1.0, "bold_wrong": 0.0}
    assert bold_metrics(run("a", "Port Quell", "Port Quell", 0.9), keeper) == \
        {"bold": 1.0, "bold_right": 0.0, "bold_wrong": 1.0}
    assert bold_metrics(run("a", None, "Port Quell", 0.1), keeper) == \
        {"bold": 0.0, "bold_right": 0.0, "bold_wrong": 0.0}


def test_coverage_precision_and_the_risk_coverage_curve():
    questions = {q.qid: q for q in (question("a", "Ilse Marrow"), question("b", "Tam Osk"), question("c", "Bel Ard"),
                                    question("d", "Ryn Vale"))}
    rows = [run("a", "Ilse Marrow", "Ilse Marrow", 0.9),  # right, committed
            run("b", "Port Quell", "Port Quell", 0.6),  # wrong, committed
            run("c", None, "Bel Ard", 0.3),  # right, held back
            run("d", None, None, 0.0)]  # nothing found
    summary = short_answer_summary(rows, questions, set(questions))
    assert summary["coverage"] == 0.5 and summary["precision"] == 0.5
    assert summary["wrong_bold"] == 0.25 and summary["right_bold"] == 0.25
    by_threshold = {point["threshold"]: point for point in summary["curve"]}
    assert by_threshold[0.0]["coverage"] == 0.75 and round(by_threshold[0.0]["precision"], 3) == 0.667
    assert by_threshold[0.7] == {"threshold": 0.7, "coverage": 0.25, "precision": 1.0, "right_bold": 0.25,
                                 "wrong_bold": 0.0}
    assert by_threshold[1.0]["coverage"] == 0.0
