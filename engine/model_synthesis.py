"""The answer written by a model: from numbered sentences it cites by number, checked claim by claim.

Each claim is first moved to the shown sentences that support it when it cites others (``engine.model_anchor``),
then checked against exactly the sentences it cites (``engine.evidence``) and later against the grounding gate. No
claim kept and no short answer a shown sentence states (after the re-asks the time allows) -> the deterministic
synthesis, recorded as a fallback. A kept answer is merged with the deterministic synthesis, the better-supported one
leading (``engine.model_merge``; a model answer with no short answer led by the deterministic one is recorded), and
the run keeps its best synthesis, not its last. The same evidence as the run's last model answer -> that answer
again, without a call. Too little time left for a call -> the run's best answer if there is one, else the
deterministic synthesis of what was read; either way the error log says so. With ``model_profile='small'`` a run
makes at most ``small_model_calls`` calls (re-asks included), each a compact one; once they are spent, each
synthesis merges the run's last usable model answer with its own deterministic one, without a call.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field, WithJsonSchema, create_model

from satiate.engine.base import Decision, ResearchView
from satiate.engine.evidence import (
    SHORT_ANSWER_CHARS,
    EvidenceAnswer,
    EvidenceItem,
    JudgedAnswer,
    answer_kind_words,
    answer_schema,
    evidence_items,
    example_echoes,
    fit_evidence,
    judge_answer,
)
from satiate.engine.model_anchor import reanchor, rescue_short_answer
from satiate.engine.model_calls import CallMeter, CallPlan, ModelCaller, ModelDecision
from satiate.engine.model_merge import lead_and_merge, merge_syntheses, synthesis_score
from satiate.engine.prompt_material import Prompt
from satiate.prompts.loader import load_prompt, quote_data
from satiate.state.contracts import DEGRADED_NOTE, SynthesisResponse
from satiate.state.records import ErrorRecord
from satiate.tools.llm.errors import CallFailure
from satiate.tools.llm.structured import CallFailed, ModelReply, OutputInvalid, Reask, call_structured

# model_profile='small': questions answered by a verdict (yes/no, which of two) are decided by the deterministic
# comparison of the two statements. Measured with a 1.5B model: it wrote a comparison of its own ("X and Y are of the
# same nationality", once false) instead of restating the statements, and the checks cut all 8 such claims.
SMALL_PROFILE_DETERMINISTIC_KINDS = frozenset({"yes_no", "choice"})
# Sentences ranked for the synthesis prompt, per model profile; as many as fit the call's budget are shown. A small
# model gets one compact call: measured with a 1.5B model on one busy CPU core, the question and 6 sentences were 252
# tokens read in 46 s, and 2 claims with the short answer 89 tokens written in 13 s (a 12-sentence call took twice
# as long to read, and the deterministic chain already carries the sentences ranked lower).
EVIDENCE_RANKED = {"full": 24, "small": 6}
EVIDENCE_FLOOR = 3  # fewer sentences than this are not worth a model call
SIMPLER_EVIDENCE = 6  # a re-ask of the synthesis shows at most this many sentences ...
REASK_MAX_CLAIMS = 2  # ... and asks for at most this many claims: a re-ask must differ from the prompt that failed
# The short answer's JSON schema: at most six words of at most 24 characters, or "" (a grammar-constrained model cannot
# write a sentence there; measured with a 1.5B model: 6 of 39 short answers were sentences of more than 8 words).
SHORT_ANSWER_PATTERN = r'^([^ "\\]{1,24}( [^ "\\]{1,24}){0,5})?$'
MAX_CUT_RECORDS = 8  # model claims cut by the checks get an error record each, up to this many a synthesis
MAX_PROMPT_CLAIMS = {"full": 4, "small": 2}  # the most claims a synthesis prompt asks for (fewer if max_claims is)
DEGRADED_PROMPT = f"\nNote: {DEGRADED_NOTE} Say so where it matters.\n"
EVIDENCE_SHAPE = '{"claims": [{"evidence": ["E…"], "claim": "…"}], "short_answer": "…"}'

EvidenceSignature = tuple[tuple[str, str], ...]  # (source id, sentence) of every ranked sentence, in order


@dataclass
class ClaimTally:
    """Model-written claims over a decision's attempts, and how many the checks kept."""

    written: int = 0
    kept: int = 0
    echoes: int = 0  # claims copied from the prompt's worked example: sent back, not counted as written
    reanchored: int = 0  # claims that cited the wrong sentence and were moved to the one that supports them
    rescued: int = 0  # short answers kept as the shown sentence stating them after their claim was cut
    cut: list[dict] = field(default_factory=list)

    def add(self, judged: JudgedAnswer) -> None:
        self.written += judged.written
        self.kept += judged.kept
        self.cut.extend(judged.cut)


def cut_feedback(judged: JudgedAnswer) -> str:
    """Why no claim was kept, worded for the model."""
    reasons = "; ".join(f"claim {c['claim'][:80]!r} citing {', '.join(map(str, c['evidence'])) or 'nothing'}: "
                        f"{c['reason']}" for c in judged.cut[:3])
    return (f"no claim could be kept ({reasons}). Each claim must restate the sentence whose id it cites, in nearly "
            "the same words, with names and numbers copied exactly")


def few_word_short_answer(schema: type[EvidenceAnswer]) -> type[EvidenceAnswer]:
    """``schema`` with a short answer of a few words at most (``SHORT_ANSWER_PATTERN``), unless its short answer is
    already a choice of values (yes/no, two options). The pattern is for the grammar only: validation takes any
    string, and the answer's checks (``engine.evidence``) reject one longer than a few words."""
    if "enum" in schema.model_json_schema()["properties"]["short_answer"]:
        return schema
    short = Annotated[str, WithJsonSchema({"type": "string", "maxLength": SHORT_ANSWER_CHARS,
                                           "pattern": SHORT_ANSWER_PATTERN})]
    return create_model(schema.__name__, __base__=schema,
                        short_answer=(short, Field(max_length=SHORT_ANSWER_CHARS)))


def cut_records(view: ResearchView, tally: ClaimTally) -> list[ErrorRecord]:
    """An error record for each model claim the checks cut (up to ``MAX_CUT_RECORDS``)."""
    return [ErrorRecord(node="synthesize", type="model_claim_cut", retryable=False, cycle=view.cycle,
                        round=view.search_round, message=f"model claim citing "
                        f"{', '.join(map(str, cut['evidence'])) or 'no sentence'} cut ({cut['reason']}): "
                        f"{cut['claim'][:160]}")
            for cut in tally.cut[:MAX_CUT_RECORDS]]


def calls_left(caller: ModelCaller, view: ResearchView) -> int | None:
    """Model calls the run's syntheses may still make; None for no limit (the full profile, or small_model_calls 0)."""
    quota = view.settings.small_model_calls
    if view.settings.model_profile != "small" or not quota:
        return None
    return max(0, quota - caller.runs.synthesis_calls(view))


def merged_with_found(model: SynthesisResponse, found: SynthesisResponse,
                      view: ResearchView) -> tuple[SynthesisResponse, bool]:
    """The model's answer merged with the deterministic synthesis (``engine.model_merge``), with the deterministic
    contradictions and open questions; and whether the model's answer leads."""
    synthesis, model_leads = lead_and_merge(model, found, view.question, view.sources, view.settings.max_claims)
    synthesis.contradictions = list(found.contradictions)
    synthesis.open_questions = list(found.open_questions)
    return synthesis, model_leads


def best_of_run(caller: ModelCaller, view: ResearchView, decision: ModelDecision,
                synthesis: SynthesisResponse) -> SynthesisResponse:
    """This synthesis, or the run's earlier best when that is better supported (this one's new claims follow it); the
    better is remembered as the run's best."""
    earlier = caller.runs.best_answer(view)
    if earlier is not None and (synthesis_score(earlier, view.question, view.sources)
                                > synthesis_score(synthesis, view.question, view.sources)):
        synthesis = merge_syntheses(earlier, synthesis, view.settings.max_claims)
        decision.earlier_kept = 1
    caller.runs.remember_best(view, synthesis)
    return synthesis


def without_a_call(caller: ModelCaller, view: ResearchView) -> Decision[SynthesisResponse]:
    """The run's calls are spent: its model answer (if one was usable) merged with this synthesis's deterministic
    one, no call made; else the deterministic synthesis (the failed call is on record already)."""
    found = caller.fallback.synthesize(view)
    model_answer = caller.runs.model_answer(view)
    if model_answer is None:
        return found
    synthesis, _ = merged_with_found(model_answer, found.value, view)
    decision = ModelDecision(synthesis, tokens=found.tokens, errors=list(found.errors))
    decision.value = best_of_run(caller, view, decision, synthesis)
    return decision


def synthesize_with_model(caller: ModelCaller, view: ResearchView) -> Decision[SynthesisResponse]:
    """The synthesis of ``view``, written by ``caller``'s synthesizer where a model can add something."""
    if not view.sources:
        return caller.fallback.synthesize(view)  # nothing to synthesize from: no model call needed
    kind, kind_words = answer_kind_words(view.question)
    if view.settings.model_profile == "small" and kind in SMALL_PROFILE_DETERMINISTIC_KINDS:
        return caller.fallback.synthesize(view)  # a verdict: the deterministic comparison decides, by choice
    ranked = evidence_items(view.question, view.sources, EVIDENCE_RANKED[view.settings.model_profile])
    if not ranked:
        return caller.fallback.synthesize(view)  # no readable sentence: nothing a model could cite
    signature: EvidenceSignature = tuple((item.source["id"], item.text) for item in ranked)
    last = caller.runs.last_answer(view)
    if caller.models["synthesizer"] is not None and last is not None and last[0] == signature:
        return ModelDecision(last[1].model_copy(deep=True))  # the same sentences: the same answer, no call
    if calls_left(caller, view) == 0 and caller.models["synthesizer"] is not None:
        return without_a_call(caller, view)
    return ModelSynthesis(caller, view, kind, kind_words, ranked).decide(signature)


class ModelSynthesis:
    """One synthesis asked of the model: the prompt from the sentences that fit, the checks on each answer, and the
    answer when no call can be made."""

    def __init__(self, caller: ModelCaller, view: ResearchView, kind: str, kind_words: str,
                 ranked: list[EvidenceItem]) -> None:
        self.caller, self.view, self.kind, self.kind_words, self.ranked = caller, view, kind, kind_words, ranked
        self.deterministic = functools.cache(lambda: caller.fallback.synthesize(view))
        self.shown: list[EvidenceItem] = []  # the sentences the latest prompt showed, by the ids the model cites
        self.tally = ClaimTally()
        self.max_claims = min(view.settings.max_claims, MAX_PROMPT_CLAIMS[view.settings.model_profile])
        self.calls_left = calls_left(caller, view)
        self.template = load_prompt("synthesize")
        self.fixed = sum(len(m.content) for m in self.render([]))  # the prompt with its values but no sentence yet

    def render(self, items: list[EvidenceItem], max_claims: int | None = None) -> list:
        return self.template.render(
            question=quote_data(self.view.question, "question"),
            degraded_note=DEGRADED_PROMPT if self.view.degraded else "", answer_kind=self.kind_words,
            evidence=quote_data("\n".join(i.line for i in items), "evidence"),
            max_claims=max_claims or self.max_claims, schema=EVIDENCE_SHAPE)

    def build(self, budget: int) -> Prompt:
        items, dropped = fit_evidence(self.ranked, budget - self.fixed)
        self.shown[:] = items
        return Prompt(self.render(items), truncations=int(dropped > 0))

    def refine(self, answer: Any) -> JudgedAnswer:
        """The answer's claims judged against the sentences they cite; none kept -> the model is told why."""
        echoed = example_echoes(answer, self.template.system, self.shown)
        if echoed:
            self.tally.echoes += len(echoed)
            answer = answer.model_copy(update={"claims": [c for c in answer.claims if c.claim not in echoed]})
            if not answer.claims:
                raise OutputInvalid("the reply copied the worked example from the instructions; answer this "
                                    "question from its own numbered sentences")
        min_overlap = self.view.settings.support_min_overlap
        anchored = reanchor(answer, self.shown, min_overlap)
        self.tally.reanchored += anchored.reanchored
        judged = judge_answer(anchored.answer, self.shown, self.view.question, self.view.sources, min_overlap)
        self.tally.add(judged)
        if rescue_short_answer(judged, answer.short_answer, self.view.question, self.shown, min_overlap):
            self.tally.rescued += 1
        if not judged.kept and not judged.synthesis.short_answer:
            raise OutputInvalid(cut_feedback(judged))
        return judged

    def call(self, model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[JudgedAnswer]:
        if len(self.shown) < min(EVIDENCE_FLOOR, len(self.ranked)):
            failure = CallFailure("model_time_budget", "not even a few sentences fit the time left", False)
            raise CallFailed(failure, 0, 0)
        schema = few_word_short_answer(answer_schema([item.id for item in self.shown], self.max_claims,
                                                     self.view.question))
        shorter = len(self.shown) > SIMPLER_EVIDENCE or self.max_claims > REASK_MAX_CLAIMS
        simpler = self.render(self.shown[:SIMPLER_EVIDENCE], REASK_MAX_CLAIMS) if shorter else None
        reask = Reask(plan.reask.temperature, simpler, plan.reask.keep_going)
        retries = self.caller.config.max_retries
        if self.calls_left is not None:
            retries = max(0, min(retries, self.calls_left - 1))
        return call_structured(model, schema, prompt.messages, max_retries=retries,
                               refine=self.refine, config=self.caller.run_config("synthesize"), reask=reask,
                               observe=plan.observe)

    def out_of_time(self, failure: CallFailure, _meter: CallMeter | None) -> Decision:
        """No time for a call: the run's best earlier answer if there is one, else the deterministic synthesis."""
        earlier = self.caller.runs.best_answer(self.view)
        if earlier is not None:
            record = self.caller.error_record("synthesize", self.view, failure, "the best answer of an earlier "
                                              "synthesis of this run is kept")
            return ModelDecision(earlier.model_copy(deep=True), errors=[record], calls_skipped=1)
        decision = self.caller.fall_back("synthesize", self.view, self.deterministic, failure, calls=0, tokens=0,
                                         outcome="the answer is the deterministic synthesis of what was read")
        decision.calls_skipped = 1
        return decision

    def decide(self, signature: EvidenceSignature) -> Decision[SynthesisResponse]:
        own_text = len(self.template.system) + len(self.template.user)
        floor = self.fixed - own_text + sum(len(i.line) + 1 for i in self.ranked[:EVIDENCE_FLOOR])
        decision = self.caller.decide("synthesize", self.view, self.build, self.call, self.deterministic,
                                      on_no_time=self.out_of_time, floor_chars=floor)
        if not isinstance(decision, ModelDecision):
            return decision  # the synthesizer role is 'none': deterministic by choice
        self.caller.runs.count_synthesis_calls(self.view, decision.model_calls)
        decision.claims_written, decision.claims_kept = self.tally.written, self.tally.kept
        decision.claims_cut, decision.claims_reanchored = len(self.tally.cut), self.tally.reanchored
        decision.example_echoes, decision.answers_rescued = self.tally.echoes, self.tally.rescued
        decision.errors.extend(cut_records(self.view, self.tally))
        if isinstance(decision.value, JudgedAnswer):
            decision.value = self.finish(decision, decision.value)
            self.caller.runs.remember_answer(self.view, signature, decision.value)
        decision.value = best_of_run(self.caller, self.view, decision, decision.value)
        return decision

    def finish(self, decision: ModelDecision, judged: JudgedAnswer) -> SynthesisResponse:
        """The kept answer merged with the deterministic synthesis (the better-supported one leads) and its
        contradictions and open questions; the deterministic answer leading a model answer that has no short answer
        is a fallback on record."""
        fallback_synthesis = self.deterministic().value
        self.caller.runs.remember_model_answer(self.view, judged.synthesis)
        synthesis, model_leads = merged_with_found(judged.synthesis, fallback_synthesis, self.view)
        decision.repairs = int(bool(decision.repairs or judged.repairs))
        if not model_leads and not judged.synthesis.short_answer and fallback_synthesis.short_answer:
            failure = CallFailure("model_answer_ungrounded", judged.answer_problem or
                                  "the model found no answer in the sentences", False)
            decision.errors.append(self.caller.error_record("synthesize", self.view, failure, "the deterministic "
                                                            "finder's answer leads and the model's claims follow"))
            decision.fallbacks += 1
        return synthesis
