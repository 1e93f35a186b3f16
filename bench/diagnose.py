"""Why questions fail: evidence misses and answer misses of one configuration, read from a multihop result folder.

    python -m bench.diagnose                                  # bench/results/multihop, the full loop, first seed
    python -m bench.diagnose --config no_critic --seed 2
    python -m bench.diagnose results/x --replay              # the finder and the commitment again, on what was read

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

from bench.data import DEFAULT_DATA, Question, corpus_path, half_of, load_questions
from bench.metrics import is_right
from bench.multihop import DEFAULT_OUT
from bench.scoring import answer_found, document_id, normalize_answer
from satiate.engine.answer import find_answer, said_on
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.state.settings import setting_default

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


def replayed_sources(run: dict, corpus: dict[str, dict]) -> list[dict]:
    """The passages a run read, in reading order, as the sources an engine is handed."""
    sources = []
    for position, passage in enumerate(run["read"], 1):
        row = corpus.get(document_id(passage))
        if row is not None:
            sources.append({"id": f"S{position}", "key": passage, "url": f"corpus://{passage}", "title": row["title"],
                            "text": row["text"], "doc_id": passage, "backend": "corpus", "read_kind": "passage",
                            "query": "", "angle": "", "cycle": 1, "round": 1})
    return sources


def replay(run: dict, question: Question, corpus: dict[str, dict], threshold: float) -> dict:
    """The finder and the commitment gate run again over what the run read: the candidate, its confidence, whether it
    is right, and where the first right candidate ranked (0: none was weighed). Grounding is not replayed: the
    chain is the finder's own evidence, each sentence with its page's subject restored as a claim would have it."""
    sources = replayed_sources(run, corpus)
    found = find_answer(question.question, sources)
    candidate = found.short_answer or (found.candidates[0][0] if found.candidates else None)
    # as the engine's claims have it: every sentence of a verdict states the answer, else the first and its hops
    stated = len(found.evidence) if found.kind in ("yes_no", "choice") else 1
    stating = [said_on(line.text, line.source) for line in found.evidence[:stated]]
    hops = [said_on(line.text, line.source) for line in found.evidence[stated:]]
    confidence, factors, missing = 0.0, {}, []
    if candidate:
        chain = Chain(question=question.question, answer=candidate, kind=found.kind, stating=tuple(stating),
                      hops=tuple(hops), answer_pages=tuple(line.source["title"] for line in found.evidence[:stated]),
                      hop_pages=tuple(line.source["title"] for line in found.evidence[stated:]),
                      read=tuple(f"{s['title']}. {s['text']}" for s in sources),
                      read_titles=tuple(s['title'] for s in sources))
        verdict = assess(chain)
        confidence, factors, missing = verdict.confidence, verdict.factors, verdict.missing
    rank = next((i for i, (span, _) in enumerate(found.candidates, 1) if is_right(span, question)), 0)
    return {"qid": question.qid, "half": half_of(question.qid), "question": question.question,
            "answers": list(question.answers), "kind": found.kind, "candidate": candidate,
            "confidence": confidence, "bold": bool(found.short_answer) and confidence >= threshold,
            "right": is_right(candidate, question), "right_rank": rank, "candidates": found.candidates[:6],
            "evidence": [line.text for line in found.evidence], "reason": found.reason,
            "factors": factors, "missing": missing}


def replay_summary(rows: list[dict]) -> list[str]:
    """Coverage, precision and right/wrong bold per half of the replayed answers, and how the right answer ranked."""
    lines = ["| half | questions | coverage | precision | wrong bold | right bold | right on top | right lower | "
             "no right candidate |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for half in ("tuning", "reporting"):
        group = [r for r in rows if r["half"] == half]
        count = len(group) or 1
        bold = [r for r in group if r["bold"]]
        right = sum(r["right"] for r in bold)
        lines.append(f"| {half} | {len(group)} | {len(bold) / count:.3f} | {right / (len(bold) or 1):.3f} | "
                     f"{(len(bold) - right) / count:.3f} | {right / count:.3f} | "
                     f"{sum(r['right_rank'] == 1 for r in group)} | {sum(r['right_rank'] > 1 for r in group)} | "
                     f"{sum(r['right_rank'] == 0 for r in group)} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.diagnose", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--config", default="satiate")
    parser.add_argument("--seed", type=int, default=None, help="default: the first seed run")
    parser.add_argument("--replay", action="store_true",
                        help="run the finder and the commitment gate again over the passages each question read "
                        "(today's code, no search) and write replay.jsonl with every question's candidates")
    args = parser.parse_args(argv)
    questions = {q.qid: q for q in load_questions(args.data)}
    corpus = load_corpus(args.data)
    runs = [json.loads(line) for line in (args.results / "runs.jsonl").read_text().splitlines()]
    runs = [r for r in runs if r["config"] == args.config]
    seed = args.seed if args.seed is not None else min(r["seed"] for r in runs)
    runs = [r for r in runs if r["seed"] == seed]
    if args.replay:
        threshold = setting_default("short_answer_commit_threshold")
        rows = [replay(run, questions[run["qid"]], corpus, threshold) for run in runs if run.get("read")]
        (args.results / "replay.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        print("\n".join(replay_summary(rows)))
        return 0
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
