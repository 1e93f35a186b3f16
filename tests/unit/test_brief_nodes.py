"""The nodes' side of issue 21: the report's "not covered" lead and brief paragraphs, the synthesis rearranged as a
brief with a named how-to lead, and open questions only for gaps a reader should see (invented pages)."""

from __future__ import annotations

from satiate.engine.grounding import gate_claims
from satiate.nodes.critic import settle_tried_gaps
from satiate.nodes.report import answer_markdown, runs_by_source
from satiate.nodes.synthesize import as_brief, covered_or_said, named_howto_lead
from satiate.state.contracts import ClaimDraft, CriticGap, CriticReport, SynthesisResponse
from satiate.state.records import ShortAnswerRecord


def page(number: int, title: str, text: str) -> dict:
    return {"id": f"S{number}", "key": f"k{number}", "url": f"https://docs.example/{number}", "title": title,
            "text": text, "backend": "builtin", "read_kind": "passage", "query": "q", "angle": "direct", "cycle": 1,
            "round": 0, "doc_id": f"doc{number}"}


def claim(text: str, source: str, role: str = "claim") -> dict:
    return {"claim": text, "source_ids": [source], "role": role, "verification": "unverified_single",
            "confidence": "med", "support": []}


def test_the_report_leads_with_not_covered_then_shows_the_nearest_evidence():
    short = covered_or_said(ShortAnswerRecord(text=None, kind="description", reason="x"),
                            "How do I tune a Brightwell router?", [page(1, "Mill", "The mill grinds grain.")])
    state = {"question": "How do I tune a Brightwell router?", "short_answer": short,
             "claims": [claim("The mill grinds grain.", "S1", "answer")]}
    answer = answer_markdown(state)  # type: ignore[arg-type]
    assert answer.startswith("The sources read do not cover Brightwell")
    assert "The mill grinds grain [1]." in answer.split("\n\n")[1]


def test_a_briefs_claims_are_paragraphs_one_for_each_page_run():
    claims = [claim("A", "S1", "answer"), claim("B", "S1", "answer"), claim("C", "S2"), claim("D", "S2"),
              claim("E", "S3")]
    assert [[c["claim"] for c in run] for run in runs_by_source(claims[2:])] == [["C", "D"], ["E"]]
    state = {"question": "How does the gearwheel work?", "claims": claims,
             "short_answer": ShortAnswerRecord(text=None, kind="description", reason="")}
    assert answer_markdown(state).split("\n\n") == ["A [1]. B [1].", "C [2]. D [2].", "E [3]."]  # type: ignore[arg-type]


def test_an_explanation_becomes_a_brief_and_a_howto_lead_names_its_tool():
    sources = [page(1, "Python stdlib: sieve module — Tool for sifting flour of small mills",
                    "Tool for sifting flour of small mills. The sieve shakes the flour through a mesh. "
                    "The mesh is chosen by the miller."),
               page(2, "Mill doors", "The mill door is shut at night.")]
    synthesis = SynthesisResponse(answer_kind="description", claims=[
        ClaimDraft(claim="Tool for sifting flour of small mills.", source_ids=["S1"], role="answer"),
        ClaimDraft(claim="The mill door is shut at night.", source_ids=["S2"])])
    question = "How do I sift flour?"
    named = named_howto_lead(synthesis, question, sources)
    assert named.claims[0].claim == "sieve: Tool for sifting flour of small mills."
    brief = as_brief(named, question, sources, 400)
    # the lead's run is one claim of three adjacent sentences, with its one citation
    assert [c.claim for c in brief.claims if c.role == "answer"] == [
        "sieve: Tool for sifting flour of small mills. The sieve shakes the flour through a mesh. "
        "The mesh is chosen by the miller."]
    assert "The mill door is shut at night." not in [c.claim for c in brief.claims]  # shares no subject word


def test_only_gaps_a_reader_should_see_become_open_questions_each_once():
    gaps = [CriticGap(kind="missing-counterarg", description="No claim presents an opposing view.", query="a",
                      priority=5, material=True),
            CriticGap(kind="modality", description="No claim covers: axle.", query="b", priority=6, material=True),
            CriticGap(kind="modality", description="No claim covers: axle.", query="c", priority=6, material=True)]
    records, asked = settle_tried_gaps(CriticReport(gaps=gaps, signoff=False), {"a", "b", "c"},
                                       "How does the gearwheel turn the axle?")
    assert [q["question"] for q in asked] == ["What do the sources say about axle?"]
    assert not any(record["material"] for record in records)  # searched already: none blocks sign-off


def test_a_brief_keeps_to_the_claims_setting():
    sources = [page(1, "Sieves", "A sieve sifts the flour of the mill. The sieve mesh is fine and even. The sieve "
                    "frame is made of oak. The sieve is shaken by hand. The sieve lasts for many years.")]
    synthesis = SynthesisResponse(answer_kind="description", claims=[
        ClaimDraft(claim="A sieve sifts the flour of the mill.", source_ids=["S1"], role="answer")])
    # a claim quotes up to three adjacent sentences: two claims hold all five, one claim only the first three
    assert [c.claim.count(". ") + 1 for c in as_brief(synthesis, "How does a sieve work?", sources, 1000).claims] \
        == [3, 2]
    [only] = as_brief(synthesis, "How does a sieve work?", sources, 1000, max_claims=1).claims
    assert only.claim == ("A sieve sifts the flour of the mill. The sieve mesh is fine and even. The sieve frame is "
                          "made of oak.")


def test_a_claim_that_quotes_a_run_of_adjacent_sentences_passes_the_grounding_gate_with_its_citation():
    sources = [page(1, "Sieves", "A sieve sifts the flour of the mill. The sieve mesh is fine and even. The sieve "
                    "frame is made of oak. Carts carry sacks to town on market days.")]
    synthesis = SynthesisResponse(answer_kind="description", claims=[
        ClaimDraft(claim="A sieve sifts the flour of the mill.", source_ids=["S1"], role="answer")])
    brief = as_brief(synthesis, "How does a sieve work?", sources, 1000, max_claims=1)
    gate = gate_claims(brief.claims, {s["key"]: s for s in sources}, 0.6)
    assert [c["claim"] for c in gate.claims] == [brief.claims[0].claim] and not gate.cut
    [support] = gate.claims[0]["support"]
    assert sources[0]["text"][support["start"]:support["end"]].endswith("made of oak.")
    # sentences that are not adjacent in the page are no one passage: quoted together, the claim is cut
    apart = ClaimDraft(claim="A sieve sifts the flour of the mill. Carts carry sacks to town on market days.",
                       source_ids=["S1"])
    assert gate_claims([apart], {s["key"]: s for s in sources}, 0.8).cut


def test_a_page_of_entries_is_quoted_as_a_list_each_entry_named_and_a_page_on_half_the_subject_left_out():
    sources = [page(1, "Mill reference: Implementing hoppers",
                    "The following methods make a hopper class.\n\nobject.__fill__(self, sack)\n\n   Called to fill "
                    "the hopper from a sack. The sack is emptied slowly.\n\nobject.__drain__(self)\n\n   Called to "
                    "drain the hopper into the stones.\n\nobject.__seal__(self)\n\n   Called to seal the hopper lid."),
               page(2, "Mill stdlib: grain.Bin", "grain.Bin(size): A bin for grain and the grain hopper protocol "
                    "of carts. Bins stand in the barn."),
               page(3, "Mill stdlib: cart.Link", "cart.Link(): The link protocol joins two carts on the road.")]
    synthesis = SynthesisResponse(answer_kind="description", claims=[
        ClaimDraft(claim="The following methods make a hopper class.", source_ids=["S1"], role="answer")])
    claims = [c.claim for c in as_brief(synthesis, "How does the hopper protocol work?", sources, 1000).claims]
    # each entry's first sentence, named by its heading; not the second sentence of the first entry
    assert claims[0] == "The following methods make a hopper class."
    assert claims[1:4] == ["object.__fill__: Called to fill the hopper from a sack.",
                           "object.__drain__: Called to drain the hopper into the stones.",
                           "object.__seal__: Called to seal the hopper lid."]
    assert not any("emptied slowly" in c for c in claims)
    # "protocol" alone, on a page about carts, is a word of the question, not its subject
    assert not any("link protocol" in c for c in claims)


def test_a_sentence_that_adds_no_new_word_is_stepped_over_but_a_new_name_from_code_is_new():
    sources = [page(1, "Sieves", "A sieve sifts the flour of the mill. The mesh of the sieve is fine and even. The "
                    "flour of the mill is fine. The __mesh__ flour is even and fine in the mill.")]
    synthesis = SynthesisResponse(answer_kind="description", claims=[
        ClaimDraft(claim="A sieve sifts the flour of the mill.", source_ids=["S1"], role="answer")])
    said = " ".join(c.claim for c in as_brief(synthesis, "How does a sieve work?", sources, 1000).claims)
    assert "The flour of the mill is fine" not in said and "The __mesh__ flour" in said
