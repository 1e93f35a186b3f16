"""What a model writing the answer is shown, and how its answer is checked: numbered sentences, cited by number.

Handed some forty pages cut to fit, a small model copied text from the last ones and labelled it with the first ids
(measured with a 1.5B model; the gate cut every claim). Here it sees a short ranked list of whole sentences, ``E1`` …
``En``, each with the id and title of its source, the sentence that leads to an answer (the hop) listed just before
it (``engine.answer.evidence_lines``). It answers with the short answer and claims, each naming the sentences it
restates. Each claim is then checked against exactly those sentences (``grounding.sentence_support_problem``) and
against their sources the way the grounding gate will check it (``grounding.supports``); a claim failing either is
cut, with the reason. Kept claims carry their sentences' source ids: the model never writes a source id.

Pure: no model, no I/O. The engine (``engine.model``) asks, this module shows and judges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, Field, WithJsonSchema, create_model

from satiate.engine.answer import evidence_lines, expected_answer, said_on
from satiate.engine.grounding import sentence_support_problem, supports
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.state.records import SourceRecord
from satiate.tools.text import clean_title, stems, words

TITLE_CHARS = 80  # of a source title shown beside its sentence
SHORT_ANSWER_CHARS = 60  # the schema's cap (a grammar stops the model there)
SHORT_ANSWER_WORDS = 8  # a longer "short answer" is a sentence copied whole, not an answer
MAX_EVIDENCE_PER_CLAIM = 3
CLAIM_MIN_CHARS = 20  # in the schema only: a grammar cannot stop at one word; validation leaves it to the checks
NO_ANSWER_WORDS = ("", "unknown", "none", "n/a", "not stated", "not known", "no answer", "null", "not mentioned",
                   "not given", "cannot be determined", "the sentences do not say")
KIND_WORDS = {
    "person": "the name of a person",
    "date": "a date or year",
    "number": "a number, with its unit",
    "place": "the name of a place",
    "yes_no": "yes or no",
    "name": "a name",
    "description": "a short phrase",
}


@dataclass(frozen=True)
class EvidenceItem:
    """One numbered sentence as the model sees it: ``E3 [S7 · Harbor of Velmora] Harbor of Velmora's breakwater is
    17 metres high.`` (the sentence's subject restored where it opened with a pronoun)."""

    id: str
    source: SourceRecord
    text: str  # the sentence, with its page's subject restored where it opened with a pronoun

    @property
    def title(self) -> str:
        return clean_title(self.source["title"])[:TITLE_CHARS]

    @property
    def line(self) -> str:
        return f"{self.id} [{self.source['id']} · {self.title}] {self.text}"

    @property
    def checked_text(self) -> str:
        """What a claim citing this sentence is checked against: the sentence and the title it is shown with."""
        return f"{self.title}: {self.text}"


def evidence_items(question: str, sources: list[SourceRecord], limit: int) -> list[EvidenceItem]:
    """The ``limit`` sentences most worth showing, best first (a hop before the sentence it leads to)."""
    return [EvidenceItem(f"E{n}", line.source, said_on(line.text, line.source))
            for n, line in enumerate(evidence_lines(question, sources, limit), 1)]


def fit_evidence(items: Sequence[EvidenceItem], char_budget: int) -> tuple[list[EvidenceItem], int]:
    """The leading items whose lines fit ``char_budget`` (whole sentences only), and how many were left out."""
    kept: list[EvidenceItem] = []
    used = 0
    for item in items:
        if used + len(item.line) + 1 > char_budget:
            break
        kept.append(item)
        used += len(item.line) + 1
    return kept, len(items) - len(kept)


def answer_kind_words(question: str) -> tuple[str, str]:
    """(kind, how the prompt names it): "person" -> "the name of a person"; a two-option question lists both."""
    expected = expected_answer(question)
    if expected.kind == "choice" and expected.options:
        return expected.kind, "one of: " + " or ".join(expected.options)
    return expected.kind, KIND_WORDS.get(expected.kind, "a short phrase")


# --- what the model answers ------------------------------------------------------------------------------------------
class EvidenceClaim(BaseModel):
    """One claim as the model writes it: the sentences it restates, then its wording."""

    evidence: list[str] = Field(min_length=1, max_length=MAX_EVIDENCE_PER_CLAIM,
                                description="Ids of the sentences the claim restates, e.g. [\"E2\"].")
    claim: str = Field(min_length=1, max_length=400, description="One statement, in words close to those sentences.")


class EvidenceAnswer(BaseModel):
    """The model's whole answer: claims first (the chain, then the sentence that answers), then the short answer."""

    claims: list[EvidenceClaim] = Field(min_length=1, max_length=4)
    short_answer: str = Field(max_length=SHORT_ANSWER_CHARS,
                              description="The answer in a few words, as one claim states it; empty if none does.")


def answer_schema(ids: Sequence[str], max_claims: int, question: str = "") -> type[EvidenceAnswer]:
    """``EvidenceAnswer`` whose JSON schema allows only the ids shown (a grammar-constrained model cannot invent
    one) and, for a yes/no or two-option question, only those answers (or ""); validation still accepts any string,
    so a provider without a grammar gets its wrong id judged and reported instead of the whole answer rejected."""
    sentence_id = Annotated[str, WithJsonSchema({"type": "string", "enum": list(ids)})]
    wording = Annotated[str, WithJsonSchema({"type": "string", "minLength": CLAIM_MIN_CHARS, "maxLength": 400})]
    claim = create_model("EvidenceClaim", __base__=EvidenceClaim,
                         evidence=(list[sentence_id], Field(min_length=1, max_length=MAX_EVIDENCE_PER_CLAIM)),
                         claim=(wording, Field(min_length=1, max_length=400)))
    expected = expected_answer(question) if question else None
    choices = (["yes", "no"] if expected and expected.kind == "yes_no" else
               list(expected.options) if expected and expected.kind == "choice" and expected.options else [])
    short: Any = (Annotated[str, WithJsonSchema({"type": "string", "enum": [*choices, ""]})] if choices else
             Annotated[str, WithJsonSchema({"type": "string", "maxLength": SHORT_ANSWER_CHARS})])
    return create_model("EvidenceAnswer", __base__=EvidenceAnswer,
                        claims=(list[claim], Field(min_length=1, max_length=max(1, max_claims))),
                        short_answer=(short, Field(max_length=SHORT_ANSWER_CHARS)))


# --- judging it ------------------------------------------------------------------------------------------------------
@dataclass
class JudgedAnswer:
    """A model answer after the checks: the synthesis its kept claims make, and what was cut and why."""

    synthesis: SynthesisResponse
    written: int
    kept: int
    cut: list[dict] = field(default_factory=list)  # {"claim", "evidence", "reason"}
    answer_problem: str = ""  # why the short answer could not be kept ("" when it was, or the model abstained)
    repairs: list[str] = field(default_factory=list)


def normalize_evidence_id(raw: str) -> str:
    """'[E3]', 'e3', 'E3.' -> 'E3'."""
    return re.sub(r"[^A-Za-z0-9]", "", str(raw)).upper()


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s'-]", " ", text.lower()).split())


def states(claim: str, answer: str) -> bool:
    """The claim's wording contains the short answer (case, punctuation and spacing aside)."""
    return bool(_plain(answer)) and f" {_plain(answer)} " in f" {_plain(claim)} "


NO_ANSWER = frozenset(_plain(text) for text in NO_ANSWER_WORDS)


def _short_answer(raw: str, kind: str, options: Sequence[str]) -> str | None:
    text = " ".join(raw.split()).strip().strip(".").strip()
    if _plain(text) in NO_ANSWER or len(text.split()) > SHORT_ANSWER_WORDS:
        return None
    if kind == "yes_no":
        first = _plain(text).split(" ")[0] if _plain(text) else ""
        return first if first in ("yes", "no") else None
    if kind == "choice" and options:
        matches = [o for o in options if _plain(o) in _plain(text) or _plain(text) in _plain(o)]
        return matches[0] if len(matches) == 1 else None
    return text


def example_echoes(answer: EvidenceAnswer, instructions: str, items: Sequence[EvidenceItem]) -> list[str]:
    """Claims that copy the prompt's worked example instead of this question's sentences: their wording is in the
    instructions and in none of the sentences shown (a small model does this when nothing it was shown answers)."""
    told = " ".join(words(instructions))
    shown = " ".join(words(" ".join(item.text for item in items)))
    echoed = []
    for claim in answer.claims:
        wording = " ".join(words(claim.claim))
        if len(wording.split()) >= 4 and wording in told and wording not in shown:
            echoed.append(claim.claim)
    return echoed


def judge_answer(answer: EvidenceAnswer, items: Sequence[EvidenceItem], question: str,
                 sources: Sequence[SourceRecord], min_overlap: float) -> JudgedAnswer:
    """Check every claim against exactly its cited sentences and the grounding gate; assign roles; keep the short
    answer only when a kept claim states it (for yes/no and two-option questions: when kept claims compare them)."""
    by_id = {item.id: item for item in items}
    kind = expected_answer(question).kind
    options = expected_answer(question).options
    judged = JudgedAnswer(SynthesisResponse(answer_kind=kind), written=len(answer.claims), kept=0)
    kept: list[tuple[ClaimDraft, list[EvidenceItem]]] = []
    seen: set[frozenset[str]] = set()
    for model_claim in answer.claims:
        wording = " ".join(model_claim.claim.split())
        cited = [by_id[i] for i in dict.fromkeys(normalize_evidence_id(e) for e in model_claim.evidence) if i in by_id]
        problem = None
        if not cited:
            problem = "no sentence with that id was shown"
        else:
            problem = sentence_support_problem(wording, [c.checked_text for c in cited], min_overlap)
        source_ids: list[str] = []
        if problem is None:
            for item in cited:  # the gate's own check, so nothing kept here is cut later
                if item.source["id"] not in source_ids and supports(wording, item.source, min_overlap) is not None:
                    source_ids.append(item.source["id"])
            if not source_ids:
                problem = "the cited sentences' sources do not support its wording closely enough"
        if problem is None and frozenset(stems(wording)) in seen:
            problem = "it repeats an earlier claim"
        if problem is not None:
            judged.cut.append({"claim": wording, "evidence": list(model_claim.evidence), "reason": problem})
            continue
        seen.add(frozenset(stems(wording)))
        kept.append((ClaimDraft(claim=wording, source_ids=source_ids, confidence="med"), cited))
    judged.kept = len(kept)
    short = _short_answer(answer.short_answer, kind, options)
    drafts = [draft for draft, _ in kept]
    if not drafts:
        judged.answer_problem = "no claim passed the checks"
    elif kind == "description":
        drafts[0].role = "answer"
        judged.synthesis.abstain_reason = ("the question asks for an explanation, not a short answer; the "
                                           "best-supported sentences follow")
    elif short is None:
        judged.synthesis.abstain_reason = "the model found no answer in the sentences it was shown"
        if answer.short_answer.strip() and _plain(answer.short_answer) not in NO_ANSWER:
            judged.answer_problem = (f"'{answer.short_answer.strip()[:60]}' is not {KIND_WORDS.get(kind, 'an answer')}"
                                     f" in a few words")
    elif kind in ("yes_no", "choice"):
        for draft in drafts[:2]:
            draft.role = "answer"
        judged.synthesis.short_answer = short
    else:
        stating = [index for index, draft in enumerate(drafts) if states(draft.claim, short)]
        if not stating:
            # The answer is in a kept claim's sentence but the claim reworded it away: quote the sentence instead.
            for index, (draft, cited) in enumerate(kept):
                sentence = next((c for c in cited if states(c.text, short)), None)
                if sentence is not None and supports(sentence.text, sentence.source, min_overlap) is not None:
                    draft.claim, draft.source_ids = sentence.text, [sentence.source["id"]]
                    judged.repairs.append("answer claim quoted from its sentence")
                    stating = [index]
                    break
        if stating:
            at = stating[-1]
            drafts[at].role = "answer"
            for draft in drafts[:at]:
                draft.role = "hop"
            judged.synthesis.short_answer = short
        else:
            judged.answer_problem = f"no kept claim states '{short[:60]}'"
    judged.synthesis.claims = drafts
    return judged
