"""The synthesize node on its own: whatever the engine writes passes the grounding gate. A claim keeps only citations
of read text that supports it, a claim left with none is cut and logged, the short answer survives only with a
gated claim that states it, and a dispute is kept only when a kept claim stands on it."""

from __future__ import annotations

import pytest

from satiate.engine.base import Decision
from satiate.engine.grounding import supports
from satiate.nodes.synthesize import make_synthesize_node
from satiate.state.contracts import ClaimDraft, ContradictionDraft, SynthesisResponse
from support.node_states import EngineWith, node_deps, resolved, stored_sources
from support.research_corpus import PASSAGES, QUESTION

READ = ["lumen", "harbor", "harbor-press", "kettle-review", "pell-bio"]  # S1 .. S5
PASSAGE = {p["doc_id"]: p for p in PASSAGES}
FOUNDED = "Harbor Works was founded in 1987 by the engineer Ada Pell."  # what S2 says
MADE_BY = "The Lumen kettle is made by Harbor Works."  # what S1 says


@pytest.fixture
def synthesize(isolated_data_dir):
    """synthesize(engine) -> update, over S1..S5 read in cycle 1."""

    def run(engine=None, **overrides) -> dict:
        settings = resolved(isolated_data_dir, **overrides)
        state = {"question": QUESTION, "resolved_settings": settings, "cycle": 1, "search_round": 2,
                 "sources": stored_sources(settings, [PASSAGE[d] for d in READ]), "search_results": []}
        return make_synthesize_node(node_deps(engine))(state)

    return run


def writes(synthesis: SynthesisResponse) -> EngineWith:
    return EngineWith(synthesize=lambda view: Decision(synthesis))


def test_the_deterministic_claims_cite_only_read_sources_whose_text_supports_them(synthesize):
    update = synthesize()
    read = {f"S{n}": PASSAGE[d] for n, d in enumerate(READ, 1)}
    assert update["claims"] and update["short_answer"]["text"] == "Ada Pell"
    for claim in update["claims"]:
        assert claim["source_ids"] and set(claim["source_ids"]) <= set(read)
        for span in claim["support"]:
            assert span["source_id"] in claim["source_ids"] and span["overlap"] >= 0.6
            cited = read[span["source_id"]]
            source = {"id": span["source_id"], "text": cited["text"], "title": cited["title"]}
            assert supports(claim["claim"], source, 0.6) is not None  # the gate's check, on the text as written
    assert update["counters"]["claims_passed"] == len(update["claims"]) and update["claims_cut"] == 0


def test_an_unsupported_or_hallucinated_claim_is_cut_and_logged_and_a_bad_citation_dropped(synthesize):
    update = synthesize(writes(SynthesisResponse(claims=[
        ClaimDraft(claim=FOUNDED, source_ids=["S2", "S42"]),  # one good citation, one to nothing read
        ClaimDraft(claim="Harbor Works was bought by Acme in 2020.", source_ids=["S99"]),
        ClaimDraft(claim="The Lumen kettle was recalled in Germany for overheating.", source_ids=["S1"]),
    ])))
    assert [(c["claim"], c["source_ids"]) for c in update["claims"]] == [(FOUNDED, ["S2"])]
    errors = update["error_log"]
    assert [e["type"] for e in errors] == ["hallucinated_citation", "unsupported_claim"]
    assert "Acme" in errors[0]["message"] and "recalled" in errors[1]["message"]
    assert all(e["node"] == "synthesize" and e["cycle"] == 1 and e["round"] == 2 for e in errors)
    assert update["claims_cut"] == 2
    assert {k: update["counters"][k] for k in ("claims_passed", "claims_cut", "citations_unsupported",
                                               "citations_hallucinated")} == \
        {"claims_passed": 1, "claims_cut": 2, "citations_unsupported": 1, "citations_hallucinated": 2}


def test_the_short_answer_survives_only_with_a_gated_claim_that_states_it(synthesize):
    def answer(cited: list[str]) -> SynthesisResponse:
        return SynthesisResponse(short_answer="Ada Pell", answer_kind="person", claims=[
            ClaimDraft(claim=FOUNDED, source_ids=cited, role="answer"),
            ClaimDraft(claim=MADE_BY, source_ids=["S1"], role="hop")])

    kept = synthesize(writes(answer(["S2"])))["short_answer"]
    confidence = kept.pop("confidence")
    assert kept == {"text": "Ada Pell", "kind": "person", "reason": "", "candidate": "Ada Pell"}
    assert 0.5 <= confidence <= 1.0  # the chain covers the founder and, through the hop, the kettle
    cut = synthesize(writes(answer(["S4"])))  # cites the kettle reviews, which say nothing of the founder
    assert cut["short_answer"]["text"] is None and "did not pass the grounding gate" in cut["short_answer"]["reason"]
    assert [c["role"] for c in cut["claims"]] == ["hop"]


def test_a_dispute_is_kept_only_when_a_kept_claim_stands_on_it_and_only_with_ids_read(synthesize):
    update = synthesize(writes(SynthesisResponse(
        claims=[ClaimDraft(claim=FOUNDED, source_ids=["S2"]), ClaimDraft(claim=MADE_BY, source_ids=["S1"])],
        contradictions=[
            ContradictionDraft(topic="founding year", resolution="1987 has a source; 1991 has none",
                               source_ids=["S2", "S3", "S77"], favoured_ids=["S2", "S77"]),
            ContradictionDraft(topic="energy use", resolution="unresolved", source_ids=["S4"], resolved=False),
        ])))
    assert [(c["topic"], c["source_ids"], c["favoured_ids"]) for c in update["contradictions"]] == [
        ("founding year", ["S2", "S3"], ["S2"])]
    # the favoured side of a resolved dispute is not marked contradicted
    assert {c["claim"]: c["verification"] for c in update["claims"]}[FOUNDED] != "contradicted"
    losing = synthesize(writes(SynthesisResponse(
        claims=[ClaimDraft(claim=FOUNDED, source_ids=["S2"])],
        contradictions=[ContradictionDraft(topic="founding year", resolution="1991 is right",
                                           source_ids=["S2", "S3"], favoured_ids=["S3"])])))
    assert losing["claims"][0]["verification"] == "contradicted"


def test_open_questions_of_the_synthesis_are_recorded_and_nothing_read_means_no_claim(synthesize):
    update = synthesize(writes(SynthesisResponse(claims=[ClaimDraft(claim=MADE_BY, source_ids=["S1"])],
                                                 open_questions=["Who owns Harbor Works today?"])))
    assert update["open_questions"] == [{"question": "Who owns Harbor Works today?",
                                         "reason": "raised by the synthesis"}]
    empty = synthesize(writes(SynthesisResponse(abstain_reason="nothing read names a founder")))
    assert empty["claims"] == [] and "error_log" not in empty
    assert empty["short_answer"] == {"text": None, "kind": "", "reason": "nothing read names a founder"}
