"""Leads that answer, on Python's own documentation: satiate against one-shot BM25 over the same built-in index.

    python -m bench.pydocs                        # every question, both halves, --jobs 1
    python -m bench.pydocs --half tuning          # only the half rules may be fitted to
    python -m bench.pydocs --ids api-01 howto-03  # a few questions, answers printed

satiate runs the real graph offline with no model (``--offline --llm none``) over the built-in corpus. Closed
questions are scored on the answer's first sentence (any accepted phrase in it counts as right; an unanswerable
question must be answered "not covered"); open questions by the share of their key facts found in the whole answer,
in its lead paragraph and in the sources satiate read. The baseline is plain BM25 on the same FTS5 index, the
question as the only query: its top hit shown as "name: first sentence", its passages cut to satiate's length.
Each question's half (tuning or reporting) follows from a hash of its id, so no one picks which questions to tune on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.data import RESULTS_DIR
from bench.environment import command_line, git_version, machine
from bench.multihop import run_units
from bench.runner import Unit
from satiate.tools.search.base import RawHit
from satiate.tools.search.builtin_corpus import BuiltinCorpusBackend
from satiate.tools.text import page_subject, sentences

DATA_DIR = Path(__file__).resolve().parent / "pydocs"
DEFAULT_OUT = RESULTS_DIR / "pydocs"
DEFAULT_DATA_DIR = RESULTS_DIR / "pydocs-data"
KINDS = ("api", "language", "howto", "unanswerable")
HALVES = ("tuning", "reporting")
# How an answer says the sources do not answer it: a refusal, an abstention, "not covered".
NOT_COVERED = re.compile(
    r"\b(?:do|does|did|could|can)(?:n[o']t| not)\s+(?:\w+\s+){0,2}(?:support|cover|answer|say|mention|name|address)"
    r"|\bnot covered\b|\bno (?:direct )?answer\b|\bnothing (?:in|about)\b|\bno source\b", re.IGNORECASE)


@dataclass(frozen=True)
class ClosedQuestion:
    """A question with a short answer: right when its first sentence holds an accepted phrase."""

    qid: str
    kind: str
    question: str
    accept: tuple[str, ...]


@dataclass(frozen=True)
class OpenQuestion:
    """A "how does X work?" question: each key fact is a tuple of alternative phrasings."""

    qid: str
    question: str
    facts: tuple[tuple[str, ...], ...]


def half(qid: str) -> str:
    """The question's half, from the parity of its id's SHA-256: even ids tune, odd ids report."""
    return "tuning" if int(hashlib.sha256(qid.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "reporting"


def _records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: pass --questions-dir with questions.jsonl and open.jsonl")
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not a JSON object ({exc.msg})") from None
    return found


def load_closed(path: Path) -> list[ClosedQuestion]:
    questions = []
    for record in _records(path):
        if record.get("kind") not in KINDS:
            raise ValueError(f"{path}: question {record.get('id')!r} has kind {record.get('kind')!r}, "
                             f"not one of {KINDS}")
        accept = tuple(record.get("accept") or ())
        if record["kind"] != "unanswerable" and not accept:
            raise ValueError(f"{path}: question {record['id']!r} has no accepted phrase")
        questions.append(ClosedQuestion(record["id"], record["kind"], record["question"], accept))
    return questions


def load_open(path: Path) -> list[OpenQuestion]:
    questions = []
    for record in _records(path):
        facts = tuple(tuple(fact) for fact in record.get("facts") or ())
        if not facts or any(not fact for fact in facts):
            raise ValueError(f"{path}: open question {record.get('id')!r} needs key facts, each a list of phrasings")
        questions.append(OpenQuestion(record["id"], record["question"], facts))
    return questions


# --- scoring --------------------------------------------------------------------------------------------------------
def normalized(text: str) -> str:
    """Lower case, citation markers dropped, every run of characters other than letters, digits and ``_`` one
    space, padded: containment of one normalised phrase in another is then a whole-word match."""
    text = re.sub(r"\[\d+\]", " ", text.lower())
    return " " + " ".join(re.sub(r"[^\w]+", " ", text).split()) + " "


def contains(text: str, phrase: str) -> bool:
    return normalized(phrase) in normalized(text)


def first_sentence(answer: str) -> str:
    found = sentences(answer.strip())
    return found[0].text if found else answer.strip()


def lead_paragraph(answer: str) -> str:
    return next((p.strip() for p in re.split(r"\n\s*\n", answer) if p.strip()), "")


def says_not_covered(sentence: str) -> bool:
    return NOT_COVERED.search(sentence) is not None


def closed_verdict(question: ClosedQuestion, sentence: str) -> str:
    """right / wrong / abstained (answerable, but the lead says the sources do not answer it) / not_covered (the
    right call on an unanswerable question) / answered (an unanswerable question answered anyway)."""
    abstains = says_not_covered(sentence)
    if question.kind == "unanswerable":
        return "not_covered" if abstains else "answered"
    if abstains:
        return "abstained"
    return "right" if any(contains(sentence, phrase) for phrase in question.accept) else "wrong"


def fact_recall(facts: tuple[tuple[str, ...], ...], text: str) -> float:
    """Share of key facts with at least one phrasing in ``text``."""
    if not facts:
        return 0.0
    return sum(any(contains(text, phrasing) for phrasing in fact) for fact in facts) / len(facts)


# --- the baseline ---------------------------------------------------------------------------------------------------
def hit_lead(hit: RawHit) -> str:
    """A search result as a search engine shows it: the page's name, then its first sentence (a docstring page's
    body already begins with its name)."""
    name = page_subject(hit.title)
    body = first_sentence(hit.body)
    return body if body.lower().startswith(name.lower()) else f"{name}: {body}"


def bm25_passages(hits: list[RawHit], length: int) -> str:
    """The top passages in rank order, joined and cut to ``length`` characters."""
    return "\n\n".join(hit.body for hit in hits)[:length]


# --- running --------------------------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.pydocs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions-dir", type=Path, default=DATA_DIR, help="folder with questions.jsonl, open.jsonl")
    parser.add_argument("--half", choices=(*HALVES, "both"), default="both", help="which half to run")
    parser.add_argument("--ids", nargs="*", default=None, help="only these question ids (answers are printed)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results folder")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                        help="satiate data dir (the built-in corpus index is built here once)")
    parser.add_argument("--bm25-k", type=int, default=10, help="passages BM25 returns for open questions")
    return parser.parse_args(argv)


def selected(items: list, args: argparse.Namespace) -> list:
    chosen = [q for q in items if args.half == "both" or half(q.qid) == args.half]
    return [q for q in chosen if q.qid in set(args.ids)] if args.ids else chosen


def passage_texts(index_path: Path, doc_ids: list[str]) -> str:
    """The stored text of the passages satiate read, in reading order."""
    if not doc_ids:
        return ""
    connection = sqlite3.connect(f"file:{index_path}?mode=ro", uri=True)
    try:
        rows = dict(connection.execute(
            f"SELECT doc_id, title || '\n' || text FROM passages WHERE doc_id IN ({','.join('?' * len(doc_ids))})",
            doc_ids).fetchall())
    finally:
        connection.close()
    return "\n\n".join(rows.get(doc_id, "") for doc_id in doc_ids)


def score_closed(questions: list[ClosedQuestion], records: dict[str, dict],
                 backend: BuiltinCorpusBackend) -> list[dict]:
    rows = []
    for question in questions:
        record = records[question.qid]
        lead = first_sentence(record.get("answer", "")) if "failure" not in record else ""
        hits = backend.index.search(question.question, 1)  # plain BM25: no source weights, no re-ranking
        bm25_lead = hit_lead(hits[0]) if hits else ""
        rows.append({"qid": question.qid, "kind": question.kind, "half": half(question.qid),
                     "question": question.question, "lead": lead, "verdict": closed_verdict(question, lead),
                     "bm25_lead": bm25_lead, "bm25_verdict": closed_verdict(question, bm25_lead),
                     "wall_s": record.get("wall_s", 0.0), "failure": record.get("failure")})
    return rows


def score_open(questions: list[OpenQuestion], records: dict[str, dict], backend: BuiltinCorpusBackend,
               k: int) -> list[dict]:
    rows = []
    index_path = backend.index.path
    for question in questions:
        record = records[question.qid]
        answer = record.get("answer", "") if "failure" not in record else ""
        lead = lead_paragraph(answer)
        hits = backend.index.search(question.question, k)
        read = passage_texts(index_path, record.get("read", []))
        rows.append({"qid": question.qid, "half": half(question.qid), "question": question.question,
                     "answer_chars": len(answer), "lead_chars": len(lead),
                     "answer_recall": fact_recall(question.facts, answer),
                     "lead_recall": fact_recall(question.facts, lead),
                     "sources_recall": fact_recall(question.facts, read),
                     "bm25_recall": fact_recall(question.facts, bm25_passages(hits, len(answer))),
                     "bm25_lead_recall": fact_recall(question.facts, bm25_passages(hits[:1], len(lead))),
                     "answer": answer,  # kept so a brief's misses can be read next to its key facts
                     "wall_s": record.get("wall_s", 0.0), "failure": record.get("failure")})
    return rows


# --- tables ---------------------------------------------------------------------------------------------------------
def _share(rows: list[dict], key: str, value: str) -> str:
    return f"{sum(r[key] == value for r in rows) / len(rows):.0%}" if rows else "–"


def closed_table(rows: list[dict], title: str) -> str:
    """Per kind: first sentence right (satiate, BM25), unanswerable said "not covered", wrong abstentions."""
    lines = [f"### {title}: the first sentence answers it", "",
             "| questions | n | satiate right | BM25 right | satiate abstained (wrong) |", "|---|---:|---:|---:|---:|"]
    answerable = [r for r in rows if r["kind"] != "unanswerable"]
    for name, group in [*((kind, [r for r in rows if r["kind"] == kind]) for kind in KINDS[:3]),
                        ("all answerable", answerable)]:
        abstained = sum(r["verdict"] == "abstained" for r in group)
        lines.append(f"| {name} | {len(group)} | {_share(group, 'verdict', 'right')} | "
                     f"{_share(group, 'bm25_verdict', 'right')} | {abstained} |")
    unanswerable = [r for r in rows if r["kind"] == "unanswerable"]
    lines.append(f"| unanswerable: says not covered | {len(unanswerable)} | "
                 f"{_share(unanswerable, 'verdict', 'not_covered')} | – | – |")
    return "\n".join(lines)


def _mean(rows: list[dict], key: str) -> str:
    return f"{sum(r[key] for r in rows) / len(rows):.2f}" if rows else "–"


def open_table(rows: list[dict], title: str) -> str:
    chars = sum(r["answer_chars"] for r in rows) / len(rows) if rows else 0
    return "\n".join([
        f"### {title}: share of key facts ({len(rows)} open questions)", "",
        "| where | satiate | BM25 at the same length |", "|---|---:|---:|",
        f"| whole answer (mean {chars:.0f} characters) | {_mean(rows, 'answer_recall')} | "
        f"{_mean(rows, 'bm25_recall')} |",
        f"| lead paragraph | {_mean(rows, 'lead_recall')} | {_mean(rows, 'bm25_lead_recall')} (top passage) |",
        f"| sources satiate read | {_mean(rows, 'sources_recall')} | – |",
    ])


def tables(closed_rows: list[dict], open_rows: list[dict]) -> str:
    parts = []
    for name in HALVES:
        closed = [r for r in closed_rows if r["half"] == name]
        opened = [r for r in open_rows if r["half"] == name]
        if closed:
            parts.append(closed_table(closed, f"{name} half"))
        if opened:
            parts.append(open_table(opened, f"{name} half"))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    closed = selected(load_closed(args.questions_dir / "questions.jsonl"), args)
    opened = selected(load_open(args.questions_dir / "open.jsonl"), args)
    settings = {"offline": True, "llm": "none", "data_dir": str(args.data_dir.resolve()), "seed": 1}
    backend = BuiltinCorpusBackend(args.data_dir)  # builds the index once, before any worker needs it
    print(f"command: {command_line('bench.pydocs')}")
    print(f"settings: {json.dumps(settings)}; {len(closed)} closed and {len(opened)} open questions, "
          f"jobs {args.jobs}", flush=True)
    code_at_start = git_version()
    units = [Unit(q.qid, q.question, "satiate", 1, settings) for q in [*closed, *opened]]
    run_started = time.perf_counter()
    records = {record["qid"]: record for record in run_units(units, args.jobs)}
    run_seconds = time.perf_counter() - run_started
    closed_rows = score_closed(closed, records, backend)
    open_rows = score_open(opened, records, backend, args.bm25_k)
    backend.close()
    failures = [r for r in [*closed_rows, *open_rows] if r["failure"]]
    table = tables(closed_rows, open_rows)
    timing = (f"satiate: {len(units)} runs in {run_seconds:.0f} s ({run_seconds / max(len(units), 1):.1f} s a "
              f"question, jobs {args.jobs}); total {time.perf_counter() - started:.0f} s")
    if args.ids:
        for row in closed_rows:
            print(f"{row['qid']} [{row['verdict']}] {row['question']}\n  satiate: {row['lead']}\n"
                  f"  bm25 [{row['bm25_verdict']}]: {row['bm25_lead']}")
        for row in open_rows:
            print(f"{row['qid']} answer {row['answer_recall']:.2f} lead {row['lead_recall']:.2f} "
                  f"sources {row['sources_recall']:.2f} bm25 {row['bm25_recall']:.2f}: {row['question']}")
    print(table)
    print(timing)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {"command": command_line("bench.pydocs"), "settings": settings, "git": code_at_start,
               "code_changed_during_run": git_version() != code_at_start, "machine": machine(), "jobs": args.jobs,
               "run_s": run_seconds, "closed": closed_rows, "open": open_rows, "failures": len(failures)}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    (args.out / "table.md").write_text(table + "\n\n" + timing + "\n", encoding="utf-8")
    print(f"wrote {args.out}/summary.json, table.md", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
