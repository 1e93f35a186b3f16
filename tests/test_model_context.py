"""Prompts fit ``num_ctx``, and shrink when the run's token budget runs low (seed 002 §9)."""

from __future__ import annotations

import json

from satiate.engine.base import ResearchView
from satiate.engine.model import ModelEngine
from satiate.engine.prompt_material import source_digest, water_fill
from satiate.state.records import SourceRecord
from satiate.state.settings import Settings
from satiate.tools.llm.tokens import estimate_tokens, message_text
from satiate.tools.scripted_chat import ScriptedCall, ScriptedChatModel

QUESTION = "How do Python generators save memory?"


def source(number: int, text: str, title: str = "") -> SourceRecord:
    return SourceRecord(id=f"S{number}", key=f"doc:{number}", url="", title=title or f"Document {number}", text=text,
                        backend="corpus", read_kind="passage", query=QUESTION, angle="question", cycle=1, round=1)


def long_sources(count: int, chars: int = 3000) -> list[SourceRecord]:
    filler = "Unrelated words about gardening and weather fill this passage. "
    found = []
    for number in range(1, count + 1):
        lead = "Python generators save memory by producing values lazily. " if number == count else ""
        found.append(source(number, (lead + filler * (chars // len(filler) + 1))[:chars]))
    return found


def test_water_fill_gives_short_texts_what_they_need_and_splits_the_rest() -> None:
    assert water_fill([100, 5000, 5000], 2100) == [100, 1000, 1000]
    assert sum(water_fill([900, 900, 900], 1000)) <= 1000


def test_digest_stays_within_budget_keeps_the_relevant_source_and_counts_what_it_cut() -> None:
    sources = long_sources(30)
    digest = source_digest(sources, QUESTION, 8000)
    assert len(digest.text) <= 8000 + len("<sources>\n\n</sources>")
    assert "S30" in digest.shown_ids  # the one source that speaks to the question got room
    assert "Python generators save memory by producing values lazily." in digest.text
    assert digest.truncations > 0
    assert digest.shown_ids == sorted(digest.shown_ids, key=lambda i: int(i[1:]))


def test_a_small_digest_needs_no_cut() -> None:
    digest = source_digest(long_sources(2, 400), QUESTION, 8000)
    assert digest.truncations == 0 and digest.shown_ids == ["S1", "S2"]


def synthesis_reply(call: ScriptedCall) -> str:
    return json.dumps({"claims": [{"claim": "Python generators save memory by producing values lazily.",
                                   "source_ids": ["S12"]}]})


def view_with(settings: Settings, sources: list[SourceRecord]) -> ResearchView:
    return ResearchView(question=QUESTION, settings=settings, sources=sources, knowledge_state="", search_results=[])


def test_synthesis_prompt_fits_num_ctx_and_records_the_truncation() -> None:
    settings = Settings(num_ctx=2048, num_predict=256)
    model = ScriptedChatModel(responder=synthesis_reply)
    decision = ModelEngine(model, settings).synthesize(view_with(settings, long_sources(12)))
    prompt_tokens = sum(estimate_tokens(message_text(m)) for m in model.calls[0].messages)
    assert prompt_tokens <= 2048 - 256
    assert decision.counters()["prompt_truncations"] > 0
    assert decision.fallbacks == 0 and decision.value.claims[0].source_ids == ["S12"]
    # Ollama's own default (2,048) would have cut a prompt built for 8,192 silently; ours was built to fit.
    wide = ScriptedChatModel(responder=synthesis_reply)
    ModelEngine(wide, Settings(num_ctx=8192, num_predict=256)).synthesize(view_with(settings, long_sources(12)))
    assert len(wide.calls[0].text) > 2 * len(model.calls[0].text)


def test_prompts_are_compacted_when_the_token_budget_runs_low() -> None:
    settings = Settings(num_ctx=2048, num_predict=256, token_budget=1800)
    model = ScriptedChatModel(responder=synthesis_reply)
    engine = ModelEngine(model, settings)
    view = view_with(settings, long_sources(12))
    first = engine.synthesize(view)
    assert first.tokens > 0.75 * settings.token_budget  # now less than 25 % of the budget is left
    engine.synthesize(view)
    assert len(model.calls[1].text) < 0.75 * len(model.calls[0].text)
