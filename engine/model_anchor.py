"""Re-anchoring: a model claim that restates one shown sentence but cites another is moved to the right one.

Measured with a 1.5B model: it copies a sentence's words and labels them with another id (usually ``E1``), 9 of the
16 claims the checks cut. Feeding the error back did not help. The claim's wording is what the model read, so before
judging, a claim its cited sentences do not support is checked against the other shown sentences (one, then two that
belong together, the closest in words first) and cites the ones that support it. What no shown sentence supports is
left as it was, and the checks cut it. The same holds for the short answer: a short answer that a shown sentence
states, on the question's subject, survives as that sentence even when the claim that carried it was mis-cited; the
commitment gate still decides whether it is shown in bold.

Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from satiate.engine.evidence import (
    NO_ANSWER_WORDS,
    SHORT_ANSWER_WORDS,
    EvidenceAnswer,
    EvidenceItem,
    JudgedAnswer,
    normalize_evidence_id,
    states,
)
from satiate.engine.grounding import sentence_support_problem, supports
from satiate.state.contracts import ClaimDraft
from satiate.tools.text import stems

NAMED_ANSWER_KINDS = frozenset({"person", "date", "number", "place", "name"})  # kinds a shown sentence can state
ANCHOR_CANDIDATES = 4  # shown sentences tried for a mis-cited claim (closest in words first); pairs come from these
NO_ANSWER = frozenset(" ".join(re.sub(r"[^\w\s'-]", " ", w.lower()).split()) for w in NO_ANSWER_WORDS)


@dataclass(frozen=True)
class Anchored:
    """A model answer with mis-cited claims moved to the sentences that support them, and how many were moved."""

    answer: EvidenceAnswer
    reanchored: int


def _rests_on(wording: str, items: Sequence[EvidenceItem], min_overlap: float) -> bool:
    """The claim rests on exactly these sentences, and the gate will find it in their sources."""
    if sentence_support_problem(wording, [i.checked_text for i in items], min_overlap) is not None:
        return False
    return any(supports(wording, i.source, min_overlap) is not None for i in items)


def supporting_sentences(wording: str, shown: Sequence[EvidenceItem], min_overlap: float
                         ) -> list[EvidenceItem] | None:
    """The shown sentence (or two) that support ``wording``, the closest in words first; None when none does."""
    terms = stems(wording)
    if not terms:
        return None
    closest = sorted((i for i in shown if terms & stems(i.checked_text)),
                     key=lambda i: -len(terms & stems(i.checked_text)))[:ANCHOR_CANDIDATES]
    for item in closest:
        if _rests_on(wording, [item], min_overlap):
            return [item]
    for n, first in enumerate(closest):
        for second in closest[n + 1:]:
            if _rests_on(wording, [first, second], min_overlap):
                return [first, second]
    return None


def reanchor(answer: EvidenceAnswer, shown: Sequence[EvidenceItem], min_overlap: float) -> Anchored:
    """``answer`` with each claim its cited sentences do not support citing the shown sentences that do."""
    by_id = {item.id: item for item in shown}
    claims = []
    moved = 0
    for claim in answer.claims:
        wording = " ".join(claim.claim.split())
        cited = [by_id[i] for i in dict.fromkeys(normalize_evidence_id(e) for e in claim.evidence) if i in by_id]
        if cited and _rests_on(wording, cited, min_overlap):
            claims.append(claim)
            continue
        found = supporting_sentences(wording, shown, min_overlap)
        if found is None:
            claims.append(claim)  # nothing shown supports it: the checks cut it, with their reason
            continue
        claims.append(claim.model_copy(update={"evidence": [i.id for i in found]}))
        moved += 1
    return Anchored(answer.model_copy(update={"claims": claims}), moved)


def usable_short_answer(raw: str) -> str | None:
    """The model's short answer when it is one (a few words, not a refusal); None otherwise."""
    text = " ".join(raw.split()).strip().strip(".").strip()
    plain = " ".join(re.sub(r"[^\w\s'-]", " ", text.lower()).split())
    if not plain or plain in NO_ANSWER or len(text.split()) > SHORT_ANSWER_WORDS:
        return None
    return text


def stating_sentence(short: str, question: str, shown: Sequence[EvidenceItem], min_overlap: float
                     ) -> EvidenceItem | None:
    """The shown sentence that states ``short`` and shares most words with the question (at least one besides the
    answer), when its source supports it; None when no shown sentence does."""
    asked = stems(question) - stems(short)
    stating = [i for i in shown if states(i.text, short) and asked & stems(i.checked_text)
               and supports(i.text, i.source, min_overlap) is not None]
    if not stating:
        return None
    return max(stating, key=lambda i: len(asked & stems(i.checked_text)))


def rescue_short_answer(judged: JudgedAnswer, raw_short: str, question: str, shown: Sequence[EvidenceItem],
                        min_overlap: float) -> bool:
    """When the judged answer lost the model's short answer (its claim was cut or reworded) but a shown sentence
    states it on the question's subject, that sentence becomes the answer claim. True when it did."""
    synthesis = judged.synthesis
    if synthesis.short_answer or synthesis.answer_kind not in NAMED_ANSWER_KINDS:
        return False
    short = usable_short_answer(raw_short)
    sentence = stating_sentence(short, question, shown, min_overlap) if short else None
    if short is None or sentence is None:
        return False
    said = frozenset(stems(sentence.text))
    same = next((c for c in synthesis.claims if frozenset(stems(c.claim)) == said), None)
    if same is not None:
        same.claim, same.source_ids, same.role = sentence.text, [sentence.source["id"]], "answer"
    else:
        synthesis.claims.append(ClaimDraft(claim=sentence.text, source_ids=[sentence.source["id"]], role="answer"))
    synthesis.short_answer, synthesis.abstain_reason = short, ""
    judged.answer_problem = ""
    return True
