"""The model's answer and the deterministic chain as one answer, and the better of two syntheses of a run.

Measured with a 1.5B model: a kept model answer had one claim where the deterministic run had eight, so the critic
kept gaps open and the run took more cycles; and a later synthesis on a shorter prompt replaced an earlier, better
one. Here a model answer never stands alone: the synthesis whose short answer the cited chain supports best leads
(the commitment gate's own confidence, ``engine.reading.commitment``), and the other's claims follow, so a model run
is never thinner than the deterministic run. Two syntheses of one run are compared the same way, and the better is
kept. The gate in the synthesize node still decides whether the short answer is shown in bold.

Pure: no model, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from satiate.engine.reading.commitment import Chain, assess
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.state.records import SourceRecord
from satiate.tools.text import stems

SynthesisScore = tuple[float, float, int]  # (short answer's confidence, question coverage, claims)


def answer_confidence(synthesis: SynthesisResponse, question: str, sources: Sequence[SourceRecord]) -> float:
    """How well the synthesis's cited chain supports its short answer (0 without one): the commitment gate's test."""
    if not synthesis.short_answer:
        return 0.0
    titles = {s["id"]: s["title"] for s in sources}
    stating = [c for c in synthesis.claims if c.role == "answer"]
    hops = [c for c in synthesis.claims if c.role == "hop"]
    chain = Chain(question=question, answer=synthesis.short_answer, kind=synthesis.answer_kind,
                  stating=tuple(c.claim for c in stating), hops=tuple(c.claim for c in hops),
                  answer_pages=tuple(titles.get(c.source_ids[0], "") for c in stating if c.source_ids),
                  hop_pages=tuple(titles.get(c.source_ids[0], "") for c in hops if c.source_ids),
                  read=tuple(f"{s['title']}. {s.get('text', '')}" for s in sources))
    return assess(chain).confidence


def question_coverage(claims: Sequence[ClaimDraft], question: str) -> float:
    """The share of the question's content words that the claims state."""
    asked = stems(question)
    said = set().union(*(stems(c.claim) for c in claims)) if claims else set()
    return len(asked & said) / len(asked) if asked else 0.0


def synthesis_score(synthesis: SynthesisResponse, question: str, sources: Sequence[SourceRecord]) -> SynthesisScore:
    """Support of the short answer first, then how much of the question the claims cover, then how many there are."""
    return (round(answer_confidence(synthesis, question, sources), 3),
            round(question_coverage(synthesis.claims, question), 3), len(synthesis.claims))


def _said(claim: ClaimDraft) -> frozenset[str]:
    return frozenset(stems(claim.claim))


def merge_syntheses(lead: SynthesisResponse, other: SynthesisResponse, max_claims: int) -> SynthesisResponse:
    """``lead``'s short answer and claims first, then ``other``'s claims that say something new (as plain claims),
    up to ``max_claims`` (never fewer than ``lead`` has)."""
    claims = [c.model_copy() for c in lead.claims]
    said = [_said(c) for c in claims]
    for claim in other.claims:
        if len(claims) >= max_claims:
            break
        words = _said(claim)
        if not words or any(words <= earlier for earlier in said):
            continue  # it says nothing that a claim already there does not
        claims.append(ClaimDraft(claim=claim.claim, source_ids=list(claim.source_ids), confidence=claim.confidence,
                                 role="claim"))
        said.append(words)
    return lead.model_copy(update={"claims": claims})


def lead_and_merge(model: SynthesisResponse, found: SynthesisResponse, question: str,
                   sources: Sequence[SourceRecord], max_claims: int) -> tuple[SynthesisResponse, bool]:
    """The model's and the deterministic synthesis as one: the one whose short answer is better supported leads, then
    the one covering more of the question, the model on a tie. Returns the merged synthesis and whether the model's
    leads."""
    model_leads = synthesis_score(model, question, sources)[:2] >= synthesis_score(found, question, sources)[:2]
    if model_leads:
        return merge_syntheses(model, found, max_claims), True
    return merge_syntheses(found, model, max_claims), False
