"""A model answer merged with the deterministic chain, and the best synthesis of a run kept over a worse later one.

No real model: ``ScriptedChatModel`` answers. Invented towns and people only.
"""

from __future__ import annotations

import json

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.engine.model import ModelEngine
from satiate.engine.model_merge import lead_and_merge, merge_syntheses, merge_with_chain, synthesis_score
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.pace import PaceMeter
from support.node_states import read_source, research_view
from support.scripted_chat import ScriptedCall, ScriptedChatModel

QUESTION = "In which town was the founder of the Brisk Lantern Company born?"


def source(number: int, title: str, text: str) -> SourceRecord:
    return read_source(number, title, text, QUESTION)


SOURCES = [
    source(1, "Brisk Lantern Company", "The Brisk Lantern Company was founded in 1904 by Tomas Velde. The company "
           "made oil lanterns for the fishing fleets of the bay."),
    source(2, "Tomas Velde", "Tomas Velde was born in Harrowgate in 1871. He worked as a tinsmith before he "
           "founded the company."),
]
MORE = [*SOURCES, source(3, "Harrowgate", "Harrowgate is a port town with a lighthouse built in 1820.")]


def view_of(settings: Settings, sources: list[SourceRecord]) -> ResearchView:
    return research_view(QUESTION, settings, sources)


def claim(text: str, source_id: str, role: str = "claim") -> ClaimDraft:
    return ClaimDraft(claim=text, source_ids=[source_id], role=role)


BORN = claim("Tomas Velde was born in Harrowgate in 1871.", "S2", "answer")
FOUNDED = claim("The Brisk Lantern Company was founded in 1904 by Tomas Velde.", "S1", "hop")
LANTERNS = claim("The company made oil lanterns for the fishing fleets of the bay.", "S1")


def test_a_synthesis_whose_short_answer_the_chain_supports_scores_above_one_without_a_short_answer() -> None:
    answered = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[FOUNDED, BORN])
    unanswered = SynthesisResponse(answer_kind="place", claims=[FOUNDED, BORN, LANTERNS])
    assert synthesis_score(answered, QUESTION, SOURCES) > synthesis_score(unanswered, QUESTION, SOURCES)
    assert synthesis_score(unanswered, QUESTION, SOURCES)[0] == 0.0


def test_merging_keeps_the_leads_answer_and_adds_only_claims_that_say_something_new() -> None:
    lead = SynthesisResponse(short_answer="Harrowgate", answer_kind="place",
                             claims=[claim("Tomas Velde was born in Harrowgate.", "S2", "answer")])
    other = SynthesisResponse(short_answer="1871", answer_kind="date", claims=[
        claim("Tomas Velde was born in Harrowgate.", "S2", "answer"),  # said already
        claim("Velde was born in Harrowgate.", "S2"),  # says less than a claim already there
        FOUNDED, LANTERNS])
    merged = merge_syntheses(lead, other, max_claims=3)
    assert merged.short_answer == "Harrowgate" and merged.answer_kind == "place"
    assert [(c.claim, c.role) for c in merged.claims] == [("Tomas Velde was born in Harrowgate.", "answer"),
                                                          (FOUNDED.claim, "claim"), (LANTERNS.claim, "claim")]


def test_the_better_supported_synthesis_leads_and_the_deterministic_one_leads_on_a_tie() -> None:
    model = SynthesisResponse(answer_kind="place", claims=[LANTERNS])
    found = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[FOUNDED, BORN])
    merged, model_leads = lead_and_merge(model, found, QUESTION, SOURCES, max_claims=8)
    assert not model_leads and merged.short_answer == "Harrowgate"
    assert [c.claim for c in merged.claims] == [FOUNDED.claim, BORN.claim, LANTERNS.claim]
    tied = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[FOUNDED, BORN, LANTERNS])
    assert synthesis_score(tied, QUESTION, SOURCES)[:2] == synthesis_score(found, QUESTION, SOURCES)[:2]
    merged, model_leads = lead_and_merge(tied, found, QUESTION, SOURCES, max_claims=8)
    assert not model_leads and [c.role for c in merged.claims] == ["hop", "answer", "claim"]
    unanswered = found.model_copy(update={"short_answer": None})  # now the model's answer is the better supported
    merged, model_leads = lead_and_merge(tied, unanswered, QUESTION, SOURCES, max_claims=8)
    assert model_leads and [c.claim for c in merged.claims] == [FOUNDED.claim, BORN.claim, LANTERNS.claim]


WORKSHOP = claim("Tomas Velde opened a workshop on the quay of the bay.", "S2")
FLEETS = claim("The fishing fleets of the bay sailed from the quay each spring.", "S1")
LIGHTHOUSE = claim("Harrowgate is a port town with a lighthouse built in 1820.", "S3", "hop")
# A deterministic answer whose chain (answer and hop) is followed by two claims ranked below it, filling max_claims 4.
FULL = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[BORN, FOUNDED, WORKSHOP, FLEETS])


def test_a_model_claim_covering_a_question_word_the_chain_misses_displaces_the_lowest_ranked_claim() -> None:
    town = claim("Harrowgate is the town where Tomas Velde, founder of the company, was born.", "S2")
    model = SynthesisResponse(answer_kind="place", claims=[town])  # no short answer: the deterministic one leads
    merged, model_leads = lead_and_merge(model, FULL, QUESTION, SOURCES, max_claims=4)
    assert not model_leads and merged.short_answer == "Harrowgate"
    assert [c.claim for c in merged.claims] == [BORN.claim, FOUNDED.claim, WORKSHOP.claim, town.claim]
    assert [c.role for c in merged.claims] == ["answer", "hop", "claim", "claim"]


def test_a_model_claim_stating_its_short_answer_displaces_a_claim_but_never_the_chain() -> None:
    found = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[BORN, FOUNDED, LIGHTHOUSE])
    other_town = claim("Tomas Velde grew up in Lindwick.", "S2")  # states the model's own short answer
    model = SynthesisResponse(short_answer="Lindwick", answer_kind="place", claims=[other_town])
    merged = merge_with_chain(model, found, False, QUESTION, max_claims=3)
    # Every claim of the found answer is part of its chain (answer, hops): the chain stays, the model claim is left out.
    assert [c.claim for c in merged.claims] == [BORN.claim, FOUNDED.claim, LIGHTHOUSE.claim]
    merged = merge_with_chain(model, FULL, False, QUESTION, max_claims=4)
    assert [c.claim for c in merged.claims] == [BORN.claim, FOUNDED.claim, WORKSHOP.claim, other_town.claim]
    assert merged.short_answer == "Harrowgate"  # the leading answer's short answer; the gate decides its bold


def test_a_model_claim_that_adds_nothing_to_the_question_does_not_displace_a_deterministic_claim() -> None:
    model = SynthesisResponse(answer_kind="place", claims=[LANTERNS])  # no question word the chain lacks
    merged = merge_with_chain(model, FULL, False, QUESTION, max_claims=4)
    assert merged.claims == FULL.claims
    roomier = merge_with_chain(model, FULL, False, QUESTION, max_claims=5)
    assert [c.claim for c in roomier.claims] == [*(c.claim for c in FULL.claims), LANTERNS.claim]


def test_a_leading_model_answer_keeps_the_deterministic_chain_and_never_has_fewer_claims() -> None:
    model_claims = [claim("Tomas Velde was born in Harrowgate.", "S2", "answer"), LANTERNS, FLEETS, WORKSHOP]
    model = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=model_claims)
    merged = merge_with_chain(model, FULL, True, QUESTION, max_claims=4)
    texts = [c.claim for c in merged.claims]
    assert texts[0] == "Tomas Velde was born in Harrowgate." and merged.claims[0].role == "answer"
    assert BORN.claim in texts and FOUNDED.claim in texts  # the chain stays, as plain claims after the lead's
    assert len(texts) == 4 and FLEETS.claim not in texts  # the lowest-ranked model claims made room
    # A model claim that says all two deterministic claims say merges them; the answer still has as many claims.
    joined = claim("The Brisk Lantern Company was founded in 1904 by Tomas Velde, who was born in Harrowgate in 1871.",
                   "S1", "answer")
    merged = merge_with_chain(model.model_copy(update={"claims": [joined]}),
                              FULL.model_copy(update={"claims": [BORN, FOUNDED]}), True, QUESTION, max_claims=4)
    assert len(merged.claims) == 2 and merged.claims[0].claim == joined.claim


class ThinFallback(DeterministicEngine):
    """A deterministic engine whose synthesis finds nothing, so the model's answers alone decide."""

    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        return Decision(SynthesisResponse(answer_kind="place"))


def test_a_later_weaker_synthesis_does_not_replace_the_runs_better_answer() -> None:
    settings = Settings()
    replies: list[str] = []

    def good_then_thin(call: ScriptedCall) -> str:
        ids = {text: key for key, text in call.shown_evidence.items()}
        born = next(i for t, i in ids.items() if "born in Harrowgate" in t)
        lanterns = next(i for t, i in ids.items() if "oil lanterns" in t)
        if not replies:
            replies.append("good")
            return json.dumps({"claims": [{"evidence": [born], "claim": "Tomas Velde was born in Harrowgate."}],
                               "short_answer": "Harrowgate"})
        return json.dumps({"claims": [{"evidence": [lanterns], "claim": "The company made oil lanterns for the "
                                       "fishing fleets of the bay."}], "short_answer": ""})

    model = ScriptedChatModel(responder=good_then_thin)
    engine = ModelEngine(model, settings, pace=PaceMeter(), fallback=ThinFallback())
    first = engine.synthesize(view_of(settings, SOURCES))
    assert first.value.short_answer == "Harrowgate"
    later = engine.synthesize(view_of(settings, MORE))  # more sentences read: asked again, answers worse
    assert len(model.calls) == 2
    assert later.value.short_answer == "Harrowgate"
    assert [c.role for c in later.value.claims] == ["answer", "claim"]
    assert "oil lanterns" in later.value.claims[1].claim  # the later answer's new claim still follows
    assert later.counters()["model_earlier_answer_kept"] == 1 and first.counters()["model_earlier_answer_kept"] == 0


class FullFallback(DeterministicEngine):
    """A deterministic engine whose synthesis is ``FULL``: a chain and two lower-ranked claims, filling max_claims."""

    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        return Decision(FULL.model_copy(deep=True))


def test_a_kept_model_claim_reaches_the_answer_when_the_deterministic_answer_is_full() -> None:
    settings = Settings(max_claims=4)

    def port_town(call: ScriptedCall) -> str:
        ids = {text: key for key, text in call.shown_evidence.items()}
        town = next(i for t, i in ids.items() if "port town" in t)
        return json.dumps({"claims": [{"evidence": [town], "claim": "Harrowgate is a port town with a lighthouse."}],
                           "short_answer": "Harrowgate"})

    model = ScriptedChatModel(responder=port_town)
    engine = ModelEngine(model, settings, pace=PaceMeter(), fallback=FullFallback())
    decision = engine.synthesize(view_of(settings, MORE))
    assert len(model.calls) == 1 and decision.counters()["model_claims_kept"] == 1
    texts = [c.claim for c in decision.value.claims]
    assert texts[:3] == [BORN.claim, FOUNDED.claim, WORKSHOP.claim] and len(texts) == 4
    assert "port town" in texts[3] and decision.value.claims[3].source_ids == ["S3"]
