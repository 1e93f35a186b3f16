"""The grounding gate: unknown ids are cut, unsupported citations are flagged, supported claims keep their span."""

from __future__ import annotations

from satiate.engine.grounding import gate_claims, verification_tag
from satiate.state.contracts import ClaimDraft, ContradictionDraft


def source(source_id: str, text: str, key: str | None = None, **extra) -> dict:
    return {"id": source_id, "key": key or f"url:example.org/{source_id}", "text": text, "url": "", "title": source_id,
            **extra}


STORE = {
    "url:a": source("S1", "The Lumen kettle is made by Harbor Works. It boils one litre in three minutes.", "url:a"),
    "url:b": source("S2", "Harbor Works was founded in 1987 by Ada Pell in Bristol.", "url:b"),
    "url:c": source("S3", "Ada Pell founded Harbor Works in Bristol in 1987, a local paper reported.", "url:c"),
}


def test_hallucinated_id_is_cut_and_reported():
    result = gate_claims([ClaimDraft(claim="Harbor Works makes the Lumen kettle.", source_ids=["S99"])], STORE, 0.6)
    assert result.claims == []
    assert result.cut[0]["reason"] == "hallucinated citation"
    assert result.hallucinated_ids == ["S99"]


def test_unknown_id_beside_a_good_one_is_dropped_but_the_claim_survives():
    result = gate_claims([ClaimDraft(claim="The Lumen kettle is made by Harbor Works.", source_ids=["S1", "S7"])],
                         STORE, 0.6)
    assert [c["source_ids"] for c in result.claims] == [["S1"]]
    assert result.hallucinated_ids == ["S7"]


def test_claim_whose_words_are_not_in_the_cited_text_is_cut_as_unsupported():
    draft = ClaimDraft(claim="The Lumen kettle was recalled for overheating in Germany.", source_ids=["S1"])
    result = gate_claims([draft], STORE, 0.6)
    assert result.claims == [] and result.cut[0]["reason"] == "cited text does not support the claim"
    assert result.unsupported_citations == 1


def test_a_number_the_source_does_not_state_fails_support():
    draft = ClaimDraft(claim="Harbor Works was founded in 1991 by Ada Pell in Bristol.", source_ids=["S2"])
    assert gate_claims([draft], STORE, 0.6).claims == []


def test_supported_claim_passes_with_its_span_and_two_independent_sources_verify_it():
    draft = ClaimDraft(claim="Harbor Works was founded in 1987 by Ada Pell.", source_ids=["S2", "S3"])
    result = gate_claims([draft], STORE, 0.6)
    claim = result.claims[0]
    text = STORE["url:b"]["text"]
    span = claim["support"][0]
    assert span["source_id"] == "S2" and "1987" in text[span["start"]:span["end"]] and span["overlap"] >= 0.6
    assert claim["verification"] == "verified_multi"


def test_verification_tags():
    by_id = {s["id"]: s for s in STORE.values()}
    assert verification_tag(["S2"], by_id, contradicted=False) == "unverified_single"
    assert verification_tag(["S2"], by_id, contradicted=True) == "contradicted"
    copy = {**by_id, "S4": source("S4", STORE["url:b"]["text"], "url:mirror")}
    assert verification_tag(["S2", "S4"], copy, contradicted=False) == "unverified_single"  # one quotes the other
    primary = {**by_id, "S5": source("S5", "x", "url:gov", source_type="primary")}
    assert verification_tag(["S5"], primary, contradicted=False) == "verified_primary"


def test_disputed_claims_are_tagged_contradicted_on_the_losing_side_only():
    drafts = [ClaimDraft(claim="Harbor Works was founded in 1987 by Ada Pell.", source_ids=["S2"])]
    resolved = [ContradictionDraft(topic="founding year", resolution="S2 corroborated", source_ids=["S2", "S3"],
                                   resolved=True, favoured_ids=["S2"])]
    assert gate_claims(drafts, STORE, 0.6, resolved).claims[0]["verification"] == "unverified_single"
    open_dispute = [ContradictionDraft(topic="founding year", resolution="equal", source_ids=["S2", "S3"],
                                       resolved=False)]
    assert gate_claims(drafts, STORE, 0.6, open_dispute).claims[0]["verification"] == "contradicted"
