"""The grounding gate: unknown ids are cut, unsupported citations are flagged, supported claims keep their span."""

from __future__ import annotations

from satiate.engine.grounding import gate_claims, sentence_support_problem, supports, verification_tag
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


# --- roles, not only words -------------------------------------------------------------------------------------------
FAMILY = source("S6", "Bo Wren was the daughter of the late mayor Ada Wren. She ran the Kesh cider mill.", "url:wren",
                title="Bo Wren")
FESTIVAL = source("S7", "The Orren Festival is a folk fair in Kesh. It was first held in 1901. The festival drew 4,000 "
                  "visitors in 1950.", "url:fest", title="Orren Festival")


def test_a_claim_that_gives_one_person_what_the_source_says_of_another_is_cut() -> None:
    swapped = ClaimDraft(claim="Ada Wren was the daughter of the late mayor Ada Wren.", source_ids=["S6"])
    faithful = ClaimDraft(claim="Bo Wren was the daughter of the late mayor Ada Wren.", source_ids=["S6"])
    result = gate_claims([swapped, faithful], {"url:wren": FAMILY}, 0.6)
    assert [c["claim"] for c in result.claims] == [faithful.claim]
    assert result.cut[0]["claim"] == swapped.claim
    assert supports(swapped.claim, FAMILY, 0.6) is None  # every word and name is there: only the roles differ


def test_a_restatement_that_names_the_page_for_it_or_the_festival_is_kept() -> None:
    for claim, sentence in (("The Orren Festival was first held in 1901.", "It was first held in 1901."),
                            ("The Orren Festival drew 4,000 visitors in 1950.", "The festival drew 4,000 visitors")):
        span = supports(claim, FESTIVAL, 0.6)
        assert span is not None and FESTIVAL["text"][span["start"]:span["end"]].startswith(sentence)
    assert supports("Kesh drew 4,000 visitors in 1950.", FESTIVAL, 0.6) is None  # the fair drew them, not the town


def test_the_sentence_check_reads_roles_with_the_title_label_the_model_was_shown() -> None:
    cited = ["Orren Festival: It was first held in 1901.", "Orren Festival: The festival drew 4,000 visitors in 1950."]
    assert sentence_support_problem("The Orren Festival drew 4,000 visitors in 1950.", cited, 0.6) is None
    assert "Kesh" in (sentence_support_problem("Kesh drew 4,000 visitors in 1950.", cited, 0.6) or "")
    family = ["Bo Wren: Bo Wren was the daughter of the late mayor Ada Wren."]
    assert sentence_support_problem("Ada Wren was the daughter of the late mayor Ada Wren.", family, 0.6) is not None
    assert sentence_support_problem("Bo Wren was the daughter of the late mayor Ada Wren.", family, 0.6) is None


def test_a_claim_quoting_a_run_of_sentences_is_role_checked_a_sentence_at_a_time():
    from satiate.engine.grounding import supports
    from satiate.tools.text import sentences
    text = ("sack.fill(pathname, *, root_dir=None, dir_fd=None, recursive=False): Return a list of paths matching a "
            "pathname pattern.\n\nThe pattern may contain simple shell-style wildcards a la sieve. Unlike sieve, sacks "
            "starting with a dot are special cases that are not matched by '*' and '?' patterns by default.")
    claim = " ".join(s.text for s in sentences(text))  # read as one sentence, "None" would seem to act
    span = supports(claim, {"id": "S1", "title": "Python stdlib: sack.fill", "text": text}, 0.6)
    assert span is not None and span["end"] == len(text)


def test_he_on_a_page_about_an_event_acts_as_the_person_the_sentence_before_names():
    fire = source("S1", "The mill burned in May 1901. In 1903 Oda Venn, the miller's clerk, confessed. He had set the "
                  "fire to hide a theft from the till.", title="The Kesh mill fire")
    said = "Oda Venn had set the fire to hide a theft from the till."
    assert supports(said, fire, 0.6) is not None
    assert supports("Ivo Marr had set the fire to hide a theft from the till.", fire, 0.6) is None
