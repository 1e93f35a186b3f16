"""Prompts fit ``num_ctx``, and shrink when the run's token budget runs low (design §13)."""

from __future__ import annotations

import json
import re

from satiate.engine.base import ResearchView
from satiate.engine.model import EVIDENCE_RANKED, ModelEngine
from satiate.engine.prompt_material import source_digest, water_fill
from satiate.state.records import SourceRecord, source_number
from satiate.state.settings import Settings
from satiate.tools.llm.pace import CallTiming, PaceMeter
from satiate.tools.llm.tokens import estimate_tokens, message_text
from support.scripted_chat import ScriptedCall, ScriptedChatModel

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
    assert digest.shown_ids == sorted(digest.shown_ids, key=source_number)


def test_a_small_digest_needs_no_cut() -> None:
    digest = source_digest(long_sources(2, 400), QUESTION, 8000)
    assert digest.truncations == 0 and digest.shown_ids == ["S1", "S2"]


def evidence_sources(count: int) -> list[SourceRecord]:
    """Sources whose every sentence speaks to the question, so the evidence list is long."""
    return [source(n, f"Python generators save memory in program {n} by producing values lazily, one at a time, "
                   f"so a pipeline of generators in program {n} never holds the whole sequence in memory at once. "
                   f"Generator {n} yields one item at a time instead of building a list of {n * 1000} items, "
                   f"which is how generators save memory when a loop only needs each value once. Memory use of "
                   f"generator program {n} stays flat however long the sequence grows, which saves memory.")
            for n in range(1, count + 1)]


def synthesis_reply(call: ScriptedCall) -> str:
    first = re.search(r"^(E\d+) \[[^\]]*\] (.+)$", call.messages[-1].content, re.M)
    return json.dumps({"claims": [{"evidence": [first.group(1)], "claim": first.group(2)}], "short_answer": ""})


def fast_pace() -> PaceMeter:
    """A meter that has measured the scripted model as fast, so only num_ctx limits the prompt."""
    meter = PaceMeter()
    meter.record("ScriptedChatModel:scripted", CallTiming(10_000, 1_000, 2.0, prompt_seconds=1.0, output_seconds=1.0))
    return meter


def view_with(settings: Settings, sources: list[SourceRecord]) -> ResearchView:
    return ResearchView(question=QUESTION, settings=settings, sources=sources, knowledge_state="", search_results=[])


def test_synthesis_prompt_fits_num_ctx_shows_whole_sentences_and_counts_one_truncated_prompt() -> None:
    settings = Settings(num_ctx=2048, num_predict=256)
    model = ScriptedChatModel(responder=synthesis_reply)
    sources = evidence_sources(12)
    decision = ModelEngine(model, settings, pace=fast_pace()).synthesize(view_with(settings, sources))
    prompt_tokens = sum(estimate_tokens(message_text(m)) for m in model.calls[0].messages)
    assert prompt_tokens <= 2048 - 256
    assert decision.counters()["prompt_truncations"] == 1  # one prompt left sentences out, however many
    shown = re.findall(r"^E\d+ \[(S\d+) · [^\]]*\] (.+)$", model.calls[0].messages[-1].content, re.M)
    assert 3 <= len(shown) < 36
    texts = {s["id"]: s["text"] for s in sources}
    assert all(sentence in texts[source_id] for source_id, sentence in shown)  # never cut mid-sentence
    assert decision.fallbacks == 0 and decision.value.claims[0].source_ids == [shown[0][0]]
    # Ollama's own default (2,048) would have cut a prompt built for 8,192 silently; ours was built to fit.
    wide = ScriptedChatModel(responder=synthesis_reply)
    ModelEngine(wide, Settings(num_ctx=8192, num_predict=256), pace=fast_pace()).synthesize(
        view_with(settings, sources))
    wide_shown = re.findall(r"^E\d+ \[", wide.calls[0].messages[-1].content, re.M)
    assert len(wide_shown) == EVIDENCE_RANKED["full"] > len(shown)


def test_prompts_are_compacted_when_the_token_budget_runs_low() -> None:
    settings = Settings(num_ctx=2048, num_predict=256, token_budget=1800)
    model = ScriptedChatModel(responder=synthesis_reply)
    engine = ModelEngine(model, settings, pace=fast_pace())
    first = engine.synthesize(view_with(settings, evidence_sources(12)))
    assert first.tokens > 0.75 * settings.token_budget  # now less than 25 % of the budget is left
    engine.synthesize(view_with(settings, evidence_sources(13)))  # new evidence: asked again
    assert len(model.calls[1].text) < 0.75 * len(model.calls[0].text)
