"""``bench.diagnose --replay``: the finder and the commitment run again over what a saved run read, on an invented
corpus and run."""

from __future__ import annotations

from bench.data import Question
from bench.diagnose import replay, replay_summary

CORPUS = {
    "inv:1": {"doc_id": "inv:1", "title": "Harbor Works",
              "text": "Harbor Works is a shipyard in Velmora. Harbor Works was founded in 1887 by Ada Pell."},
    "inv:2": {"doc_id": "inv:2", "title": "Ada Pell", "text": "Ada Pell was a Welsh engineer born in Tarrow."},
}


def question(text: str, *answers: str) -> Question:
    return Question(qid="inv-1", dataset="invented", type="bridge", question=text, answers=answers,
                    gold_doc_ids=("inv:1",))


def test_a_replay_finds_the_answer_from_the_passages_read_and_ranks_the_right_candidate():
    run = {"qid": "inv-1", "read": ["inv:1", "inv:2", "inv:404"]}  # a passage no longer in the corpus is skipped
    row = replay(run, question("Who founded Harbor Works?", "Ada Pell"), CORPUS, threshold=0.8)
    assert row["candidate"] == "Ada Pell" and row["right"] and row["right_rank"] == 1
    assert row["bold"] == (row["confidence"] >= 0.8)
    assert row["evidence"][0].endswith("founded in 1887 by Ada Pell.")


def test_a_replay_that_read_nothing_useful_has_no_right_candidate_and_the_summary_counts_it():
    run = {"qid": "inv-1", "read": ["inv:2"]}
    row = replay(run, question("Who founded Harbor Works?", "Ada Pell"), CORPUS, threshold=0.8)
    assert not row["bold"] and row["right_rank"] == 0
    table = replay_summary([row])
    half = row["half"]
    line = next(line for line in table if line.startswith(f"| {half} "))
    assert line.endswith("| 0 | 0 | 1 |")  # none on top, none lower, one with no right candidate
