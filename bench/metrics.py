"""Per-run metrics and their aggregation by configuration, seed and question group.

A run's metrics come from its record (``runner.summarize_state``) and the scorer; aggregation first averages over
the questions of a group for each seed, then reports the mean and spread of those per-seed means.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bench.data import Question
from bench.scoring import all_gold, answer_found, evidence_recall, exact_match, first_sentence, recall_at, token_f1


@dataclass(frozen=True)
class Metric:
    name: str
    column: str
    meaning: str
    digits: int = 3
    answered_only: bool = False


METRICS: tuple[Metric, ...] = (
    Metric("recall", "recall", "evidence recall: share of the question's gold passages among the passages read"),
    Metric("all_gold", "all-gold", "share of questions whose every gold passage was read"),
    Metric("recall_kstar", "recall@k*", "evidence recall over the first k* passages read (reading order); k* = the "
           "fewest passages any graph configuration read for that question, so every row is compared at one budget"),
    Metric("bm25_same_k", "BM25@k", "one-shot BM25 recall at this row's own budget: the question as the only query, "
           "top-k with k = passages this row read for the question"),
    Metric("recall_at_10", "r@10", "evidence recall over the first 10 passages read, in reading order (all of them "
           "when fewer were read)"),
    Metric("bm25_at_10", "BM25@10", "one-shot BM25 recall at k = 10: the question as the only query"),
    Metric("recall_at_20", "r@20", "evidence recall over the first 20 passages read, in reading order"),
    Metric("bm25_at_20", "BM25@20", "one-shot BM25 recall at k = 20"),
    Metric("recall_at_40", "r@40", "evidence recall over the first 40 passages read, in reading order"),
    Metric("bm25_at_40", "BM25@40", "one-shot BM25 recall at k = 40"),
    Metric("seen_recall", "seen", "gold passages among every hit any search returned, read or not (hits of "
           "saturated rounds are seen but not read)"),
    Metric("cited_recall", "cited", "gold passages among the passages the answer cites"),
    Metric("passages", "read", "passages read (sources stored), mean", 1),
    Metric("searches", "searches", "backend searches sent (incl. quality-floor fallbacks), mean", 1),
    Metric("search_rounds", "s-rounds", "search rounds (novelty-gate passes), mean", 1),
    Metric("saturated_rounds", "saturated", "search rounds the novelty gate judged saturated, mean per question", 2),
    Metric("cycles", "cycles", "synthesize/critic cycles (outer loop), mean", 2),
    Metric("model_calls", "model calls", "model calls, mean (0 with --llm none)", 1),
    Metric("tokens", "tokens", "model tokens, mean (0 with --llm none)", 0),
    Metric("wall_s", "wall s", "wall time per question in seconds, mean (2 worker processes share 2 cores)", 2),
    Metric("answered", "answered", "share of questions with at least one grounded claim"),
    Metric("answer_found", "found", "share of questions where an accepted answer occurs anywhere in the normalised "
           "answer text"),
    Metric("first_found", "first", "share of questions where an accepted answer occurs in the answer's first "
           "sentence (its lead paragraph: the short answer and the sentence that states it)"),
    Metric("short_em", "short EM", "exact match of short_answer with an accepted answer (SQuAD normalisation); an "
           "abstention counts as a miss"),
    Metric("short_f1", "short F1", "token F1 of short_answer against the best accepted answer; an abstention is 0"),
    Metric("bold", "bold", "coverage: share of questions given a bold (committed) short answer"),
    Metric("bold_right", "right bold", "share of all questions given a bold short answer that is right (token F1 >= "
           "0.5 against an accepted answer)"),
    Metric("bold_wrong", "wrong bold", "share of all questions given a bold short answer that is wrong (token F1 < "
           "0.5 against every accepted answer): a confident, cited mistake"),
    Metric("abstained", "abstain", "share of questions answered with an explicit abstention (short_answer null)"),
    Metric("model_kept", "kept", "share of model-written claims that passed the grounding gate (model runs only)"),
    Metric("model_reanchored", "re-anchored", "model claims moved from the sentence they cited to the shown sentence "
           "that supports them, mean per question (counted in kept when they then passed)", 2),
    Metric("model_s_call", "s/call", "seconds a model call took, mean over the question's calls (model runs only)", 1),
    Metric("model_skipped", "no call", "syntheses that made no model call because not even a short one fitted the "
           "time left, mean per question (model runs only)", 2),
)
METRIC_NAMES = tuple(m.name for m in METRICS)
ANSWER_METRICS = ("answered", "answer_found", "first_found", "short_em", "short_f1", "bold", "bold_right",
                  "bold_wrong", "abstained", "model_kept")
RIGHT_F1 = 0.5  # a short answer is right when its token F1 against an accepted answer reaches this
CURVE_STEP = 0.05  # the confidence thresholds of the risk-coverage curve: 0, 0.05, ..., 1


def k_star(records: Iterable[dict]) -> dict[str, int]:
    """Per question: the fewest passages (above zero) any graph run read; the common budget of ``recall@k*``."""
    fewest: dict[str, int] = {}
    for record in records:
        count = len(record.get("read", []))
        if count and ("failure" not in record):
            fewest[record["qid"]] = min(fewest.get(record["qid"], count), count)
    return fewest


EQUAL_BUDGETS = (10, 20, 40)  # the budgets at which reading order is compared with one-shot BM25


def run_metrics(record: dict, question: Question, kstar: int, bm25_same_k: float | None,
                bm25_top: list[str] | None = None) -> dict[str, Any]:
    """Every metric of one run (``None`` where it does not apply, e.g. answer metrics of one-shot BM25).

    ``bm25_top`` is one-shot BM25's ranking for the question (at least the largest equal budget long); graph runs
    are compared with it at every equal budget."""
    gold = question.gold_doc_ids
    read = record["read"]
    answered = record.get("claims") is not None and record["claims"] > 0
    has_answer = "answer" in record
    metrics: dict[str, Any] = {
        "recall": evidence_recall(read, gold),
        "all_gold": all_gold(read, gold),
        "recall_kstar": recall_at(read, gold, kstar),
        "bm25_same_k": bm25_same_k,
        **{f"recall_at_{k}": recall_at(read, gold, k) if bm25_top is not None else None for k in EQUAL_BUDGETS},
        **{f"bm25_at_{k}": recall_at(bm25_top, gold, k) if bm25_top is not None else None for k in EQUAL_BUDGETS},
        "seen_recall": evidence_recall(record.get("seen", read), gold),
        "cited_recall": evidence_recall(record["cited"], gold) if "cited" in record else None,
        "passages": len(read),
        "searches": record["searches"],
        "search_rounds": record["search_rounds"],
        "saturated_rounds": (sum(1 for g in record["gate"] if g["decision"] == "saturated")
                             if "gate" in record else None),
        "cycles": record["cycles"],
        "model_calls": record["model_calls"],
        "tokens": record["tokens"],
        "wall_s": record["wall_s"],
        "answered": float(answered) if has_answer else None,
        "answer_found": answer_found(record["answer"], question.answers) if has_answer else None,
        "first_found": answer_found(first_sentence(record["answer"]), question.answers) if has_answer else None,
        "short_em": exact_match(record.get("short_answer") or "", question.answers) if has_answer else None,
        "short_f1": token_f1(record.get("short_answer") or "", question.answers) if has_answer else None,
        **(bold_metrics(record, question) if has_answer else dict.fromkeys(("bold", "bold_right", "bold_wrong"))),
        "abstained": float(not record.get("short_answer")) if has_answer else None,
        "model_kept": record.get("model_kept"),
        "model_reanchored": record["model"]["model_claims_reanchored"] if "model" in record else None,
        "model_s_call": (record["model"]["model_seconds_per_call"] or None) if "model" in record else None,
        "model_skipped": record["model"].get("model_calls_skipped") if "model" in record else None,
    }
    return metrics


def is_right(short_answer: str | None, question: Question) -> bool:
    return bool(short_answer) and token_f1(short_answer, question.answers) >= RIGHT_F1


def bold_metrics(record: dict, question: Question) -> dict[str, float]:
    """Whether the run committed to a bold short answer, and whether that answer is right or wrong."""
    given = bool(record.get("short_answer"))
    right = is_right(record.get("short_answer"), question)
    return {"bold": float(given), "bold_right": float(right), "bold_wrong": float(given and not right)}


def candidate(record: dict) -> tuple[str | None, float]:
    """The run's best short answer, committed or not, and its confidence. A record written before answers carried a
    confidence holds only the committed answer, taken as fully confident."""
    if record.get("short_answer_confidence") is not None:
        return record.get("short_answer_candidate") or record.get("short_answer"), record["short_answer_confidence"]
    return record.get("short_answer"), 1.0 if record.get("short_answer") else 0.0


def commitment_point(pairs: list[tuple[float, bool]], count: int, threshold: float) -> dict[str, float]:
    """Coverage, precision and the right/wrong shares of all ``count`` questions when every candidate at or above
    ``threshold`` confidence is committed (``pairs``: confidence and rightness of each question's candidate)."""
    taken = [right for confidence, right in pairs if confidence >= threshold]
    right = sum(taken)
    return {"threshold": round(threshold, 4), "coverage": len(taken) / count if count else 0.0,
            "precision": right / len(taken) if taken else 0.0,
            "right_bold": right / count if count else 0.0,
            "wrong_bold": (len(taken) - right) / count if count else 0.0}


def short_answer_summary(rows: list[dict], questions: dict[str, Question], qids: set[str]) -> dict[str, Any]:
    """Short answers of one configuration's first seed over ``qids``: what was committed (coverage, precision,
    right and wrong shares of all questions) and the risk-coverage curve of the candidates' confidence."""
    runs = [row for row in rows if row["qid"] in qids and "answer" in row]
    if not runs:
        return {}
    first_seed = min(row["seed"] for row in runs)
    runs = [row for row in runs if row["seed"] == first_seed]
    count = len(runs)
    committed = [row for row in runs if row.get("short_answer")]
    right = sum(is_right(row["short_answer"], questions[row["qid"]]) for row in committed)
    pairs = []
    for row in runs:
        text, confidence = candidate(row)
        if text:
            pairs.append((confidence, is_right(text, questions[row["qid"]])))
    steps = int(round(1 / CURVE_STEP))
    return {"questions": count, "coverage": len(committed) / count,
            "precision": right / len(committed) if committed else 0.0,
            "right_bold": right / count, "wrong_bold": (len(committed) - right) / count,
            "candidates": len(pairs),
            "curve": [commitment_point(pairs, count, step * CURVE_STEP) for step in range(steps + 1)]}


def _spread(values: list[float]) -> dict[str, float | int]:
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
        "n_seeds": len(values),
    }


def aggregate(rows: list[dict], groups: dict[str, set[str]]) -> dict[str, dict[str, dict[str, dict]]]:
    """config -> group -> metric -> {mean, sd, min, max, n_seeds, n_questions} over per-seed question means.

    ``rows`` are ``{qid, config, seed, metrics}``; ``groups`` maps a group name to its question ids.
    """
    by_config_seed: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for row in rows:
        by_config_seed[(row["config"], row["seed"])].append(row)
    summary: dict[str, dict[str, dict[str, dict]]] = {}
    configs = list(dict.fromkeys(row["config"] for row in rows))
    for config in configs:
        seeds = sorted({seed for (c, seed) in by_config_seed if c == config})
        summary[config] = {}
        for group, qids in groups.items():
            per_metric: dict[str, dict] = {}
            for metric in METRIC_NAMES:
                seed_means: list[float] = []
                counted = 0
                for seed in seeds:
                    values = [r["metrics"][metric] for r in by_config_seed[(config, seed)]
                              if r["qid"] in qids and r["metrics"].get(metric) is not None]
                    if values:
                        seed_means.append(statistics.fmean(values))
                        counted = max(counted, len(values))
                if seed_means:
                    per_metric[metric] = {**_spread(seed_means), "n_questions": counted}
            if per_metric:
                summary[config][group] = per_metric
    return summary
