"""The scorer: the only code that reads accepted answers and gold passage ids.

Answer metrics use the SQuAD/HotpotQA normalisation (lower case, drop punctuation and the articles a/an/the,
collapse white space); evidence metrics compare passage ids, with a chunk suffix ``#pN`` mapped to its document.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string.punctuation)
_CHUNK_SUFFIX = re.compile(r"#p\d+$")


def normalize_answer(text: str) -> str:
    """SQuAD/HotpotQA answer normalisation."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match(prediction: str, answers: Iterable[str]) -> float:
    predicted = normalize_answer(prediction)
    return float(any(predicted == normalize_answer(a) for a in answers))


def _token_f1(prediction: str, answer: str) -> float:
    predicted, gold = normalize_answer(prediction).split(), normalize_answer(answer).split()
    common = Counter(predicted) & Counter(gold)
    overlap = sum(common.values())
    if not overlap:
        return 0.0
    precision, recall = overlap / len(predicted), overlap / len(gold)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, answers: Iterable[str]) -> float:
    return max((_token_f1(prediction, a) for a in answers), default=0.0)


def answer_found(text: str, answers: Iterable[str]) -> float:
    """1.0 when some accepted answer occurs, as whole normalised tokens in a row, in the normalised text."""
    haystack = f" {normalize_answer(text)} "
    return float(any(normalize_answer(a) and f" {normalize_answer(a)} " in haystack for a in answers))


def first_sentence(answer: str) -> str:
    """The answer's lead: its first paragraph (satiate writes the short answer and the sentence stating it there)."""
    return answer.strip().split("\n\n", 1)[0]


def document_id(passage_id: str) -> str:
    """A chunk ``doc#p2`` belongs to document ``doc``."""
    return _CHUNK_SUFFIX.sub("", passage_id)


def evidence_recall(read: Sequence[str], gold: Sequence[str]) -> float:
    """Share of gold passages among the passages read."""
    if not gold:
        return 0.0
    documents = {document_id(p) for p in read}
    return sum(1 for g in set(gold) if g in documents) / len(set(gold))


def recall_at(read: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Evidence recall over the first ``k`` passages read, in reading order (an equal-budget comparison)."""
    return evidence_recall(list(read)[:k], gold)


def all_gold(read: Sequence[str], gold: Sequence[str]) -> float:
    return float(evidence_recall(read, gold) == 1.0)
