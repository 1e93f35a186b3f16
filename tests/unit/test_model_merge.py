"""A model answer merged with the deterministic chain, and the best synthesis of a run kept over a worse later one.

No real model: ``ScriptedChatModel`` answers. Invented towns and people only.
"""

from __future__ import annotations

import json
import re

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.engine.model import ModelEngine
from satiate.engine.model_merge import lead_and_merge, merge_syntheses, synthesis_score
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.pace import PaceMeter
from support.node_states import read_source
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
    return ResearchView(question=QUESTION, settings=settings, sources=sources, knowledge_state="", search_results=[],
                        run_id="thread-1")


def shown(call: ScriptedCall) -> dict[str, str]:
    block = re.search(r"<evidence>\n(.*?)\n</evidence>", call.text, re.S).group(1)
    return dict(re.findall(r"^(E\d+) \[[^\]]*\] (.+)$", block, re.M))


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


def test_the_better_supported_synthesis_leads_and_the_model_leads_on_a_tie() -> None:
    model = SynthesisResponse(answer_kind="place", claims=[LANTERNS])
    found = SynthesisResponse(short_answer="Harrowgate", answer_kind="place", claims=[FOUNDED, BORN])
    merged, model_leads = lead_and_merge(model, found, QUESTION, SOURCES, max_claims=8)
    assert not model_leads and merged.short_answer == "Harrowgate"
    assert [c.claim for c in merged.claims] == [FOUNDED.claim, BORN.claim, LANTERNS.claim]
    same, model_leads = lead_and_merge(found, found.model_copy(deep=True), QUESTION, SOURCES, max_claims=8)
    assert model_leads and same.claims == found.claims


class ThinFallback(DeterministicEngine):
    """A deterministic engine whose synthesis finds nothing, so the model's answers alone decide."""

    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        return Decision(SynthesisResponse(answer_kind="place"))


def test_a_later_weaker_synthesis_does_not_replace_the_runs_better_answer() -> None:
    settings = Settings()
    replies: list[str] = []

    def good_then_thin(call: ScriptedCall) -> str:
        ids = {text: key for key, text in shown(call).items()}
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
