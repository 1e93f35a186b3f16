"""synthesize: claims from the source store, then the grounding gate (design §9, §10).

Whatever engine wrote the synthesis, every claim must cite ids of stored read text that supports it; a citation
that fails is removed, a claim left without one is cut and logged. In degraded mode the answer is marked as based
on partial information (design §14).
"""

from __future__ import annotations

from collections.abc import Callable

from satiate.engine.actors import key_actors
from satiate.engine.answer import read_for, said_on
from satiate.engine.grounding import gate_claims
from satiate.engine.reading.behaviour import asks_when_code_runs, behaviour_lead
from satiate.engine.reading.brief import brief_runs
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.coverage import not_covered
from satiate.engine.reading.leads import ScoredLike, entry_name, named_summary
from satiate.nodes.common import (
    Dependencies,
    decision_update,
    emit,
    error_record,
    merge_updates,
    settings_of,
    timed,
    view_of,
)
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.state.records import ClaimRecord, ContradictionRecord, OpenQuestion, ShortAnswerRecord, SourceRecord
from satiate.state.schema import ResearchState
from satiate.state.updates import SynthesizeUpdate
from satiate.tools.search.task_pages import is_howto, page_name


def gated_short_answer(synthesis: SynthesisResponse, claims: list[ClaimRecord],
                       titles: dict[str, str] | None = None) -> ShortAnswerRecord:
    """The short answer survives only with a gated claim that states it, or that cites the page it names ("Henry J.
    Kaiser" for a sentence on that page naming "Henry John Kaiser"); otherwise the run says why it has none."""
    kind = synthesis.answer_kind
    text = (synthesis.short_answer or "").strip() or None
    if text is None:
        return ShortAnswerRecord(text=None, kind=kind, reason=synthesis.abstain_reason or
                                 "the sources read do not state an answer")
    stating = [c for c in claims if c.get("role") == "answer"]
    if not stating:
        return ShortAnswerRecord(text=None, kind=kind, reason=f"the sentence that stated '{text}' did not pass the "
                                 "grounding gate")
    compared = kind in ("yes_no", "choice")  # the answer is a verdict on the statements, not a span of them
    titles = titles or {}
    named = [c["claim"] for c in stating] + [titles.get(i, "") for c in stating for i in c["source_ids"]]
    if not compared and not any(text.lower() in stated.lower() for stated in named):
        return ShortAnswerRecord(text=None, kind=kind, reason=f"'{text}' is not stated by the claim that cites it")
    return ShortAnswerRecord(text=text, kind=kind, reason="")


def committed(short: ShortAnswerRecord, question: str, claims: list[ClaimRecord], sources: list[SourceRecord],
              threshold: float) -> ShortAnswerRecord:
    """The short answer with its confidence; below ``threshold`` it stays a candidate and the reason says what the
    cited chain establishes and what it leaves open, so the report does not show a guess in bold."""
    text = short["text"]
    if text is None:
        return short
    titles = {s["id"]: s["title"] for s in sources}
    stating = [c for c in claims if c.get("role") == "answer"]
    hops = [c for c in claims if c.get("role") == "hop"]
    chain = Chain(question=question, answer=text, kind=short["kind"], stating=tuple(c["claim"] for c in stating),
                  hops=tuple(c["claim"] for c in hops),
                  answer_pages=tuple(titles.get(c["source_ids"][0], "") for c in stating if c["source_ids"]),
                  hop_pages=tuple(titles.get(c["source_ids"][0], "") for c in hops if c["source_ids"]),
                  read=tuple(f"{s['title']}. {s.get('text', '')}" for s in sources),
                  read_titles=tuple(s['title'] for s in sources))
    verdict = assess(chain)
    if verdict.confidence >= threshold:
        return ShortAnswerRecord(**short, candidate=text, confidence=verdict.confidence)
    return ShortAnswerRecord(text=None, kind=short["kind"], reason=verdict.explanation(), candidate=text,
                             confidence=verdict.confidence)


def covered_or_said(short: ShortAnswerRecord, question: str, sources: list[SourceRecord]) -> ShortAnswerRecord:
    """The short answer, unless the sources read are not about the question's subject: then no answer, and the
    reason says so plainly (the report leads with it and shows the nearest evidence after)."""
    reason = not_covered(question, sources, names_must_occur=short["kind"] == "description") if sources else None
    if reason is None:
        return short
    return ShortAnswerRecord(text=None, kind=short["kind"], reason=reason)


def as_explanation(synthesis: SynthesisResponse, question: str, sources: list[SourceRecord]) -> SynthesisResponse:
    """A "when does X run?" or "what does X test?" question is answered as an explanation, not as the date or
    name the short-answer finder looks for: the sentence that describes it, from the subject's own page."""
    if synthesis.answer_kind == "description" or not sources or not asks_when_code_runs(question):
        return synthesis
    lead = behaviour_lead(question, read_for(question, sources), sources)
    if lead is None:
        return synthesis
    text = said_on(lead.line.text, lead.line.source)
    claims = [ClaimDraft(claim=text, source_ids=[lead.line.source["id"]], role="answer"),
              *(c for c in synthesis.claims if c.role == "claim" and c.claim != text)]
    return synthesis.model_copy(update={"answer_kind": "description", "short_answer": None, "claims": claims,
                                        "abstain_reason":
                                        "the question asks how code behaves; the sentences that say so follow"})


def named_howto_lead(synthesis: SynthesisResponse, question: str, sources: list[SourceRecord]) -> SynthesisResponse:
    """A how-to answer leads as a search engine shows a hit, "name: summary" ("sieve: Tool for sifting flour"),
    so the reader sees which tool does the task even when its summary does not name it."""
    leading = [c for c in synthesis.claims if c.role == "answer"]
    if synthesis.answer_kind != "description" or len(leading) != 1 or not is_howto(question):
        return synthesis
    titles = {s["id"]: s["title"] for s in sources}
    title = titles.get(leading[0].source_ids[0], "") if leading[0].source_ids else ""
    if not title:
        return synthesis
    named = leading[0].model_copy(update={"claim": named_summary(page_name(title), leading[0].claim)})
    return synthesis.model_copy(update={"claims": [named if c is leading[0] else c for c in synthesis.claims]})


def as_brief(synthesis: SynthesisResponse, question: str, sources: list[SourceRecord], max_chars: int,
             max_claims: int = 1_000) -> SynthesisResponse:
    """An explanation written without a model, its claims rearranged as a brief (``engine.reading.brief``): the
    lead's run of sentences first (the answer's first paragraph), then runs from the other best pages; ``max_chars``
    long and ``max_claims`` claims at most, each claim a few adjacent sentences of one page with its citation."""
    leading = [c for c in synthesis.claims if c.role == "answer"]
    if synthesis.answer_kind != "description" or len(leading) != 1 or not sources:
        return synthesis
    ranked = read_for(question, sources).ranked
    lead = next((s for s in ranked if leading[0].claim.endswith(said_on(s.line.text, s.line.source))),
                None)  # a how-to lead may carry its page's name in front ("sieve: Tool for sifting flour")
    runs = brief_runs(question, ranked, max_chars, first=lead, max_claims=max_claims)
    if lead is None or not runs:
        return synthesis
    claims: list[ClaimDraft] = []
    for number, run in enumerate(runs):
        for group in run.claims:
            # the first sentence carries its page's subject ("Its teeth ..."); the next ones follow it as written
            said = [leading[0].claim if group[0] is lead else opening(group[0]),
                    *(scored.line.text for scored in group[1:])]
            claims.append(ClaimDraft(claim=joined_sentences(said), source_ids=[group[0].line.source["id"]],
                                     role="answer" if number == 0 else "claim"))
    return synthesis.model_copy(update={"claims": claims})


def opening(scored: ScoredLike) -> str:
    """A claim's first sentence as it stands alone: under an entry's heading it names the entry
    ("object.__close__: Called after ..."), else a leading pronoun gets its page's subject."""
    name = entry_name(scored)
    return f"{name}: {scored.line.text}" if name else said_on(scored.line.text, scored.line.source)


def joined_sentences(texts: list[str]) -> str:
    """Sentences as one passage: each ends with its mark (a full stop added where a line had none)."""
    return " ".join(text if text.rstrip().endswith((".", "!", "?")) else text.rstrip().rstrip(":;,") + "."
                    for text in (t.strip() for t in texts) if text)


def make_synthesize_node(deps: Dependencies) -> Callable[[ResearchState], SynthesizeUpdate]:
    @timed
    def synthesize(state: ResearchState) -> SynthesizeUpdate:
        settings = settings_of(state)
        view = view_of(state, deps.store)  # the sources with their text: the gate checks claims against what was read
        decision = deps.engine_for(settings).synthesize(view)
        synthesis = decision.value
        if not decision.model_calls:  # a model writes its own paragraphs; the extractive answer becomes a brief
            synthesis = as_explanation(synthesis, state["question"], view.sources)
            synthesis = named_howto_lead(synthesis, state["question"], view.sources)
            synthesis = as_brief(synthesis, state["question"], view.sources, settings.brief_chars,
                                 settings.max_claims)
        gate = gate_claims(synthesis.claims, {s["key"]: s for s in view.sources}, settings.support_min_overlap,
                           synthesis.contradictions)
        cycle = state.get("cycle", 1)
        errors = [
            error_record("synthesize", "hallucinated_citation" if cut["reason"] == "hallucinated citation"
                         else "unsupported_claim", f"claim cut ({cut['reason']}): {cut['claim'][:160]}",
                         cycle=cycle, round=state.get("search_round", 0))
            for cut in gate.cut
        ]
        kept_ids = {i for claim in gate.claims for i in claim["source_ids"]}
        live = {s["id"] for s in state.get("sources", {}).values()}
        contradictions = [
            ContradictionRecord(topic=c.topic, resolution=c.resolution, resolved=c.resolved,
                                source_ids=[i for i in c.source_ids if i in live],
                                favoured_ids=[i for i in c.favoured_ids if i in live])
            for c in synthesis.contradictions
            if any(i in kept_ids for i in c.source_ids)
        ]
        short = gated_short_answer(synthesis, gate.claims, {s["id"]: s["title"] for s in view.sources})
        short = committed(short, state["question"], gate.claims, view.sources, settings.short_answer_commit_threshold)
        short = covered_or_said(short, state["question"], view.sources)
        emit("synthesize", claims=len(gate.claims), cut=len(gate.cut), hallucinated_ids=gate.hallucinated_ids,
             short_answer=short["text"])
        update: SynthesizeUpdate = {
            "claims": gate.claims,
            "short_answer": short,
            "contradictions": contradictions,
            "key_actors": key_actors(state["question"], view.sources),
            "claims_cut": len(gate.cut),
            "open_questions": [OpenQuestion(question=q, reason="raised by the synthesis")
                               for q in synthesis.open_questions],
            "counters": {"claims_passed": gate.passed, "claims_cut": len(gate.cut),
                         "citations_unsupported": gate.unsupported_citations,
                         "citations_hallucinated": len(gate.hallucinated_ids)},
        }
        if errors:
            update["error_log"] = errors
        return merge_updates(update, decision_update(decision))

    return synthesize
