"""The multi-hop benchmark data, read by path from the shared folder (never copied into the repo)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "bench" / "multihop"
RESULTS_DIR = REPO_ROOT / "bench" / "results"


class BenchDataMissing(FileNotFoundError):
    """The benchmark folder or one of its files is absent; the message says which path and how to pass another."""


@dataclass(frozen=True)
class Question:
    """One benchmark question. ``answers`` and ``gold_doc_ids`` are for the scorer only."""

    qid: str
    dataset: str
    type: str
    question: str
    answers: tuple[str, ...]
    gold_doc_ids: tuple[str, ...]

    @property
    def group(self) -> str:
        """Dataset and hop kind, e.g. 'musique 3-hop' or 'hotpotqa bridge' (the ``type`` field, variants merged)."""
        kind = self.type
        if kind[:1].isdigit() and "hop" in kind:
            kind = f"{kind[0]}-hop"
        return f"{self.dataset} {kind}"


HALVES = ("tuning", "reporting")


def half_of(qid: str) -> str:
    """The half a question belongs to, fixed by the parity of its id's SHA-256: rules and thresholds are tuned on
    the tuning half only, and the reporting half tells whether they carry over to questions nobody looked at."""
    return HALVES[hashlib.sha256(qid.encode("utf-8")).digest()[-1] % 2]


def corpus_path(data_dir: Path) -> Path:
    return Path(data_dir) / "corpus.jsonl"


def check_data(data_dir: Path) -> None:
    for path in (corpus_path(data_dir), Path(data_dir) / "questions.jsonl"):
        if not path.is_file():
            raise BenchDataMissing(f"benchmark data not found: {path} (pass --data FOLDER with corpus.jsonl and "
                                   "questions.jsonl)")


def load_questions(data_dir: Path) -> list[Question]:
    check_data(data_dir)
    questions: list[Question] = []
    with (Path(data_dir) / "questions.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            questions.append(Question(qid=row["qid"], dataset=row["dataset"], type=row["type"],
                                      question=row["question"], answers=tuple(row["answers"]),
                                      gold_doc_ids=tuple(row["gold_doc_ids"])))
    return questions


def stratified_subset(questions: list[Question], count: int | None) -> list[Question]:
    """``count`` questions spread over the dataset/hop groups in proportion to their size (largest remainder),
    every group represented when ``count`` allows, taken in file order so the subset is reproducible."""
    if count is None or count >= len(questions):
        return list(questions)
    sizes = Counter(q.group for q in questions)
    groups = sorted(sizes, key=lambda g: (-sizes[g], g))
    quota = {g: 0 for g in groups}
    if count >= len(groups):
        quota = {g: 1 for g in groups}
    spare = count - sum(quota.values())
    shares = {g: spare * sizes[g] / len(questions) for g in groups}
    for group in groups:
        quota[group] += int(shares[group])
    leftover = count - sum(quota.values())
    for group in sorted(groups, key=lambda g: -(shares[g] - int(shares[g])))[:leftover]:
        quota[group] += 1
    picked: list[Question] = []
    taken: Counter[str] = Counter()
    for question in questions:
        if taken[question.group] < min(quota[question.group], sizes[question.group]):
            picked.append(question)
            taken[question.group] += 1
    return picked
