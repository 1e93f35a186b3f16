"""bench.pydocs: the Python-docs dev set is well formed, its halves come from a hash, and the scorer reads a lead the
way the table claims (first sentence, whole words, abstentions told apart from wrong answers)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from bench.pydocs import (
    DATA_DIR,
    ClosedQuestion,
    bm25_passages,
    closed_verdict,
    contains,
    fact_recall,
    first_sentence,
    half,
    hit_lead,
    lead_paragraph,
    load_closed,
    load_open,
)
from satiate.tools.search.base import RawHit


def test_the_dev_set_covers_every_kind_with_enough_questions():
    closed = load_closed(DATA_DIR / "questions.jsonl")
    opened = load_open(DATA_DIR / "open.jsonl")
    kinds = Counter(q.kind for q in closed)
    assert len(closed) >= 100
    assert kinds["api"] >= 35 and kinds["language"] >= 20 and kinds["howto"] >= 20 and kinds["unanswerable"] >= 10
    assert len(opened) >= 20 and all(5 <= len(q.facts) <= 8 for q in opened)
    ids = [q.qid for q in [*closed, *opened]]
    assert len(ids) == len(set(ids))
    assert {half(qid) for qid in ids} == {"tuning", "reporting"}


def test_the_half_is_the_parity_of_the_ids_hash():
    for qid in ("api-01", "howto-07", "open-03"):
        even = int(hashlib.sha256(qid.encode()).hexdigest(), 16) % 2 == 0
        assert half(qid) == ("tuning" if even else "reporting")


def test_phrases_match_whole_words_whatever_the_punctuation_and_citations():
    assert contains("mill.grind(): Return the flour of the morning grind [3].", "mill.grind")
    assert contains("A *slow-turning-wheel* mill", "slow turning wheel")
    assert not contains("Return the flour of the morning grind", "morning grin")
    assert not contains("grinders are queued", "grinder")


def test_only_the_first_sentence_is_judged():
    answer = "Sacks are sturdy containers [1]. Use mill.weigher as the scale [2].\n\nMore text."
    assert first_sentence(answer) == "Sacks are sturdy containers [1]."
    question = ClosedQuestion("howto-x", "howto", "How do I weigh a sack of flour?", ("weigher",))
    assert closed_verdict(question, first_sentence(answer)) == "wrong"
    assert closed_verdict(question, "Use mill.weigher(1) as the scale [1].") == "right"
    assert lead_paragraph("\n\nFirst paragraph.\nStill first.\n\nSecond.") == "First paragraph.\nStill first."


def test_an_abstention_is_right_only_for_an_unanswerable_question():
    answerable = ClosedQuestion("api-x", "api", "What does fold.crease do?", ("crease",))
    unanswerable = ClosedQuestion("none-x", "unanswerable", "How do I book a ferry to Brindlewick?", ())
    refusal = "The sources read do not support a direct answer (no date is named)."
    assert closed_verdict(answerable, refusal) == "abstained"
    assert closed_verdict(unanswerable, refusal) == "not_covered"
    assert closed_verdict(unanswerable, "The sources do not cover booking ferries.") == "not_covered"
    assert closed_verdict(unanswerable, "Ferry tickets are objects with a fare [1].") == "answered"


def test_key_fact_recall_counts_a_fact_once_whichever_phrasing_matches():
    facts = (("__grind__",), ("sift", "sifted"), ("millstone",))
    assert fact_recall(facts, "__grind__ is called; the flour may be sifted.") == pytest.approx(2 / 3)
    assert fact_recall(facts, "") == 0.0


def test_a_search_hit_is_shown_with_its_name_once():
    member = RawHit(doc_id="stdlib:mill.grind", title="Python stdlib: mill.grind", url="",
                    body="mill.grind(): Return the flour of the morning grind. More.")
    topic = RawHit(doc_id="python:sift", title='Python language reference: The "sift" statement', url="",
                   body="\"sift\" is a fine operation. Flour falls.")
    assert hit_lead(member) == "mill.grind(): Return the flour of the morning grind."
    assert hit_lead(topic) == 'The "sift" statement: "sift" is a fine operation.'
    assert bm25_passages([member, topic], 20) == member.body[:20]


def test_a_malformed_question_file_is_refused_with_its_line(tmp_path: Path):
    path = tmp_path / "questions.jsonl"
    path.write_text(json.dumps({"id": "a", "kind": "api", "question": "q?", "accept": ["x"]}) + "\n{oops\n")
    with pytest.raises(ValueError, match=r"questions.jsonl:2"):
        load_closed(path)
    path.write_text(json.dumps({"id": "b", "kind": "trivia", "question": "q?", "accept": ["x"]}) + "\n")
    with pytest.raises(ValueError, match="trivia"):
        load_closed(path)
    path.write_text(json.dumps({"id": "c", "kind": "api", "question": "q?", "accept": []}) + "\n")
    with pytest.raises(ValueError, match="no accepted phrase"):
        load_closed(path)
