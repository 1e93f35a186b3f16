"""The model's answer and the deterministic chain as one answer, and the better of two syntheses of a run.

Measured with a 1.5B model: a kept model answer had one claim where the deterministic run had eight, so the critic
kept gaps open and the run took more cycles; and a later synthesis on a shorter prompt replaced an earlier, better
one. Here a model answer never stands alone: the synthesis whose short answer the cited chain supports best leads
(the commitment gate's own confidence, ``engine.reading.commitment``), and the other's claims follow, so a model run
is never thinner than the deterministic run. Measured next: the deterministic chain led and filled ``max_claims``, so
kept model claims never reached the answer. So a kept model claim that covers question words the deterministic claims
do not, or states a short answer, displaces the lowest-ranked deterministic claim outside the chain; the chain's
answer and hop sentences always stay. Two syntheses of one run are compared the same way, and the better is kept.
The gate in the synthesize node still decides whether the short answer is shown in bold.

Pure: no model, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
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
                  read=tuple(f"{s['title']}. {s.get('text', '')}" for s in sources),
                  read_titles=tuple(s['title'] for s in sources))
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


CHAIN_ROLES = frozenset({"answer", "hop"})  # the deterministic chain: the answer's sentence and the hops to it
# Keep priority of a claim when the merged answer has more claims than max_claims (lower keeps first). The chain and
# the leading answer's claim always stay; a model claim that adds to the question's coverage or states a short
# answer outranks the deterministic claims ranked below the chain, the lowest-ranked of which goes first.
KEEP_ALWAYS, KEEP_ADDS, KEEP_LEAD, KEEP_FOUND, KEEP_REST = range(5)


def adds_to(claim: ClaimDraft, found: SynthesisResponse, question: str, short_answers: Sequence[str | None]) -> bool:
    """Whether a model claim covers question words that no deterministic claim covers, or states a short answer."""
    words = stems(claim.claim)
    covered = set().union(*(stems(c.claim) for c in found.claims)) if found.claims else set()
    if (stems(question) & words) - covered:
        return True
    return any(answer and stems(answer) and stems(answer) <= words for answer in short_answers)


@dataclass
class Placed:
    """A claim of the merged answer, in the order it is shown, with its keep priority and its origin."""

    claim: ClaimDraft
    keep: int
    found: bool  # it comes from the deterministic synthesis


def _place(placed: list[Placed], said: list[frozenset[str]], claim: ClaimDraft, role: str, keep: int,
           found: bool) -> bool:
    """Add ``claim`` unless a claim already placed says all it says; whether it was added."""
    words = _said(claim)
    if not words or any(words <= earlier for earlier in said):
        return False
    placed.append(Placed(claim.model_copy(update={"role": role, "source_ids": list(claim.source_ids)}), keep, found))
    said.append(words)
    return True


def merge_with_chain(model: SynthesisResponse, found: SynthesisResponse, model_leads: bool, question: str,
                     max_claims: int) -> SynthesisResponse:
    """The model's and the deterministic claims as one answer of at most ``max_claims`` claims (more only when the
    chain itself is longer), never fewer than the deterministic answer has.

    The leading synthesis's claims come first and keep their roles; the other's new claims follow as plain claims.
    When there are too many, the deterministic chain's claims (answer and hops) and the leading answer's claim
    stay; a model claim that adds to the deterministic answer (``adds_to``) displaces the lowest-ranked
    deterministic claim outside the chain; the rest is cut from the lowest-ranked up."""
    placed: list[Placed] = []
    said: list[frozenset[str]] = []
    short_answers = (model.short_answer, found.short_answer)
    if model_leads:
        for claim in model.claims:
            _place(placed, said, claim, claim.role, KEEP_ALWAYS if claim.role == "answer" else KEEP_LEAD, False)
        skipped = [c for c in found.claims
                   if not _place(placed, said, c, "claim", KEEP_ALWAYS if c.role in CHAIN_ROLES else KEEP_FOUND, True)]
    else:
        for claim in found.claims:
            _place(placed, said, claim, claim.role, KEEP_ALWAYS if claim.role in CHAIN_ROLES else KEEP_FOUND, True)
        skipped = []
        for claim in model.claims:
            keep = KEEP_ADDS if adds_to(claim, found, question, short_answers) else KEEP_REST
            _place(placed, said, claim, "claim", keep, False)
    limit = max(max_claims, sum(p.keep == KEEP_ALWAYS for p in placed))
    by_priority = sorted(range(len(placed)), key=lambda i: (placed[i].keep, i))
    kept = sorted(by_priority[:limit])
    claims = [placed[i].claim for i in kept]
    for claim in skipped:  # never fewer claims than the deterministic answer: what a model claim merged comes back
        if len(claims) >= len(found.claims):
            break
        claims.append(claim.model_copy(update={"role": "claim"}))
    lead = model if model_leads else found
    return lead.model_copy(update={"claims": claims})


def lead_and_merge(model: SynthesisResponse, found: SynthesisResponse, question: str,
                   sources: Sequence[SourceRecord], max_claims: int) -> tuple[SynthesisResponse, bool]:
    """The model's and the deterministic synthesis as one: the one whose short answer is better supported leads, then
    the one covering more of the question, the deterministic one on a tie (measured with a 1.5B model: on a tie its
    one claim led a how-to answer with an off-topic sentence, and two wrong short answers replaced two other wrong
    ones); the claims are merged by ``merge_with_chain``. Returns the merged synthesis and whether the model's leads."""
    model_leads = synthesis_score(model, question, sources)[:2] > synthesis_score(found, question, sources)[:2]
    return merge_with_chain(model, found, model_leads, question, max_claims), model_leads
