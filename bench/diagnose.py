"""Why questions fail: evidence misses and answer misses of one configuration, read from a multihop result folder.

    python -m bench.diagnose                                  # bench/results/multihop, the full loop, first seed
    python -m bench.diagnose --config no_critic --seed 2

Scorer-side, like ``bench.scoring``: it reads the gold passages and accepted answers from the data folder to explain
each miss, and writes ``diagnosis.md`` next to the results. Categories:
- evidence: a missing gold passage was *never retrieved*, or *seen but not read* (passed over by a search that read
  only its best few results, or in a round the gate judged saturated), and
  whether its title was *named in the question* or is a *bridge* (named only in another gold passage that was read,
  i.e. a breadcrumb the loop had in hand);
- answer: with every gold passage read, the accepted answer is absent from the answer text although it is in a
  *cited* passage (sentence choice), only in an *uncited read* passage (passage choice), or in no passage verbatim
  (a yes/no comparison or a paraphrased answer, which an extractive engine cannot produce).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from bench.data import DEFAULT_DATA, Question, corpus_path, load_questions
from bench.multihop import DEFAULT_OUT
from bench.scoring import answer_found, document_id, normalize_answer

YES_NO = {"yes", "no"}


def load_corpus(data: Path) -> dict[str, dict]:
    with corpus_path(data).open(encoding="utf-8") as handle:
        return {row["doc_id"]: row for row in map(json.loads, handle) if row}


def named_in(title: str, text: str) -> bool:
    """The passage title (without a parenthesised qualifier) occurs in the text, normalised."""
    core = normalize_answer(title.split(" (")[0])
    return bool(core) and f" {core} " in f" {normalize_answer(text)} "


def evidence_misses(run: dict, question: Question, corpus: dict[str, dict]) -> list[dict]:
    read = {document_id(p) for p in run["read"]}
    seen = {document_id(p) for p in run.get("seen", [])}
    misses = []
    for gold in question.gold_doc_ids:
        if gold in read:
            continue
        title = corpus[gold]["title"]
        bridge_from = [corpus[g]["title"] for g in question.gold_doc_ids
                       if g in read and named_in(title, corpus[g]["text"])]
        misses.append({
            "title": title,
            "retrieval": "seen but not read" if gold in seen else "never retrieved",
            "naming": "named in question" if named_in(title, question.question) else
                      f"bridge from {bridge_from}" if bridge_from else "not named in question or read gold",
        })
    return misses


def answer_miss(run: dict, question: Question, corpus: dict[str, dict]) -> str | None:
    if run["metrics"].get("answer_found") or run["metrics"]["all_gold"] < 1.0:
        return None
    if {normalize_answer(a) for a in question.answers} <= YES_NO:
        return "yes/no answer (not extractable)"

    def holds(ids) -> bool:
        return any(answer_found(corpus[document_id(i)]["text"], question.answers) for i in ids
                   if document_id(i) in corpus)

    if holds(run.get("cited", [])):
        return "answer in a cited passage, sentence not chosen"
    if holds(run["read"]):
        return "answer only in an uncited read passage"
    return "answer not verbatim in any read passage"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.diagnose", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--config", default="satiate")
    parser.add_argument("--seed", type=int, default=None, help="default: the first seed run")
    args = parser.parse_args(argv)
    questions = {q.qid: q for q in load_questions(args.data)}
    corpus = load_corpus(args.data)
    runs = [json.loads(line) for line in (args.results / "runs.jsonl").read_text().splitlines()]
    runs = [r for r in runs if r["config"] == args.config]
    seed = args.seed if args.seed is not None else min(r["seed"] for r in runs)
    runs = [r for r in runs if r["seed"] == seed]
    evidence_kinds: dict[str, Counter] = defaultdict(Counter)
    answer_kinds: dict[str, Counter] = defaultdict(Counter)
    detail: list[str] = []
    for run in runs:
        question = questions[run["qid"]]
        misses = evidence_misses(run, question, corpus)
        miss = answer_miss(run, question, corpus)
        for item in misses:
            naming = "bridge" if item["naming"].startswith("bridge") else item["naming"]
            evidence_kinds[question.group][f"{item['retrieval']}, {naming}"] += 1
        if miss:
            answer_kinds[question.group][miss] += 1
        if misses or miss:
            detail.append(f"- `{question.qid}` ({question.group}) {question.question}  \n"
                          f"  answers {list(question.answers)}"
                          + "".join(f"  \n  missing **{m['title']}**: {m['retrieval']}, {m['naming']}" for m in misses)
                          + (f"  \n  answer: {miss}" if miss else ""))
    lines = [f"# Diagnosis of `{args.config}` (seed {seed}), {len(runs)} questions", "",
             "## Missing gold passages by kind", "", "| group | kind | passages |", "|---|---|---:|"]
    for group in sorted(evidence_kinds):
        lines += [f"| {group} | {kind} | {n} |" for kind, n in evidence_kinds[group].most_common()]
    lines += ["", "## Answer misses with every gold passage read", "", "| group | kind | questions |", "|---|---|---:|"]
    for group in sorted(answer_kinds):
        lines += [f"| {group} | {kind} | {n} |" for kind, n in answer_kinds[group].most_common()]
    lines += ["", "## Questions", "", *detail]
    text = "\n".join(lines) + "\n"
    (args.results / f"diagnosis-{args.config}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
