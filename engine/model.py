"""The model engine: every research decision asked of a chat model, each call with its own deterministic fallback.

Each method renders its prompt file (``satiate/prompts``), trims what it quotes so the prompt fits both ``num_ctx``
and the time left, asks for structured output (JSON schema, then the tolerant parser of ``tools.llm.structured``),
applies satiate's own checks to the answer, and re-asks with the problem fed back at most ``model_max_retries``
times (warmer, simpler, and never to hear the same bytes twice). When no usable answer comes, or the model cannot be
reached, the deterministic engine answers that one call and the decision carries ``fallbacks=1`` and a typed error
record (design §14): never a silent retry of the topic, never an unbounded loop.

How a call is sized, re-asked and accounted is ``engine.model_calls``; the answer (synthesis), written from numbered
sentences the model cites by number, is ``engine.model_synthesis``. When no claim survives, the deterministic
synthesis is the answer, so a model never leaves satiate worse off than no model.
"""

from __future__ import annotations

import math
from typing import Any

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import angle_queries, fresh_queries
from satiate.engine.model_answers import ModelCriticReport, plan_schema
from satiate.engine.model_calls import ROLES, CallPlan, ModelCaller, ModelDecision
from satiate.engine.model_synthesis import EVIDENCE_RANKED, synthesize_with_model
from satiate.engine.prompt_material import (
    Prompt,
    bullet_summary,
    executed_list,
    first_integer,
    fit_lines,
    normalize_angle,
    results_text,
    room_left,
    schema_text,
    search_lines,
    source_digest,
    thin_records,
)
from satiate.prompts.loader import load_prompt, quote_data
from satiate.state.contracts import (
    CriticGap,
    CriticReport,
    PlanQueryModel,
    PlanResponse,
    ReflectionResponse,
    SynthesisResponse,
)
from satiate.state.records import Hit, SourceRecord
from satiate.tools.llm.factory import with_call_options
from satiate.tools.llm.structured import CallFailed, ModelReply, OutputInvalid, call_structured, call_text
from satiate.tools.llm.tokens import CHARS_PER_TOKEN, prompt_char_budget
from satiate.tools.text import normalize_query, simplify_query, truncate

__all__ = ["EVIDENCE_RANKED", "ROLES", "ModelDecision", "ModelEngine"]

NEUTRAL_NOVELTY = 5  # design §5: the score used when the model's answer holds no integer
NOVELTY_KNOWLEDGE_CHARS = 800  # design §5: this much of the knowledge state ...
NOVELTY_RESULTS_CHARS = 800  # ... and of the new results in the novelty prompt
PLAN_QUERY_MAX_TOKENS = 60  # the gap-filling query's output cap (design §7)
PLAN_QUERY_TEMPERATURE = 0.3  # design §7


class ModelEngine(ModelCaller):
    """``ResearchEngine`` backed by chat models (one per role, or one for all), falling back per call."""

    # --- plan ---------------------------------------------------------------------------------------------------------
    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        if not view.search_results and view.cycle <= 1:
            self.runs.start(view)  # the first plan of a run: its time budget starts now
        target = (target or view.question).strip()
        limit = view.settings.budget.max_queries_per_round
        schema = plan_schema(limit)

        def build(budget: int) -> Prompt:
            template = load_prompt("plan")
            question, quoted_target = quote_data(view.question, "question"), quote_data(target, "target")
            shape, angles = schema_text(schema), ", ".join(view.settings.angles)
            room = room_left(budget, template, question, quoted_target, shape, angles)
            executed, dropped = fit_lines(executed_list(view), room - 40)
            return Prompt(template.render(
                question=question, target=quoted_target,
                executed_queries=quote_data(executed or "(none yet)", "executed"), max_queries=limit,
                angles=angles, schema=shape,
            ), truncations=int(dropped > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[PlanResponse]:
            return call_structured(model, schema, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda answer: self._refine_plan(view, target, answer.contract(), limit),
                                   config=self.run_config("plan"), reask=plan.reask, observe=plan.observe)

        return self.decide("plan", view, build, call, lambda: self.fallback.plan(view, target))

    def _refine_plan(self, view: ResearchView, target: str, plan: PlanResponse, limit: int) -> PlanResponse:
        """Our guarantees on a plan: the target first, a counter-argument query, nothing already sent, the cap; and
        at least one query of the model's own besides the target (else the model added nothing)."""
        executed = view.executed_queries()
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in plan.queries]
        own = PlanQueryModel(query=truncate(target, 400), intent="the target as asked", angle="question")
        if not fresh_queries(proposed, executed | {normalize_query(own.query)}, limit):
            raise OutputInvalid("every query repeats the target or a query already sent; propose other queries: the "
                                "entities involved by name, a time window, or the strongest counter-argument")
        queries = fresh_queries([own, *proposed], executed, limit)
        if "counter_argument" in view.settings.angles and not any(q.angle == "counter_argument" for q in queries):
            counter = [q for q in angle_queries(target, ["counter_argument"]) if q.angle == "counter_argument"]
            taken = executed | {normalize_query(q.query) for q in queries}
            extra = fresh_queries(counter, taken, 1)
            if extra:
                queries = [*queries[: max(1, limit - 1)], *extra][:limit] if limit > 1 else queries
        if not queries:
            raise OutputInvalid("every query proposed was already sent; propose different queries")
        return PlanResponse(queries=queries, tier=plan.tier)

    # --- novelty and compression --------------------------------------------------------------------------------------
    def novelty(self, view: ResearchView, hits: list[Hit]) -> Decision[int]:
        """Model-based novelty (design §5: temperature 0, a few output tokens, neutral 5 when no integer comes back)
        when ``novelty_mode`` is 'model'; otherwise the heuristic, with no model call."""
        if view.settings.novelty_mode != "model" or not hits:
            return self.fallback.novelty(view, hits)

        def build(budget: int) -> Prompt:
            room = room_left(budget, load_prompt("novelty")) - 60
            knowledge = truncate(view.knowledge_state, min(NOVELTY_KNOWLEDGE_CHARS, room // 2))
            results = truncate(results_text(hits), min(NOVELTY_RESULTS_CHARS, room // 2))
            return Prompt(load_prompt("novelty").render(
                knowledge_state=quote_data(knowledge or "(nothing yet)", "knowledge"),
                new_results=quote_data(results, "results"),
            ))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[int]:
            tuned = with_call_options(model, temperature=0.0, max_tokens=self.config.novelty_num_predict)
            reply = call_text(tuned, prompt.messages, max_retries=0, refine=first_integer,
                              config=self.run_config("novelty"), observe=plan.observe)
            score = min(10, max(0, reply.value))
            repairs = reply.repairs + (("clamped score",) if score != reply.value else ())
            return ModelReply(score, reply.calls, reply.tokens, reply.tokens_estimated, repairs, reply.problems)

        return self.decide("novelty", view, build, call, lambda: self.fallback.novelty(view, hits),
                            reserve=self.config.novelty_num_predict, on_invalid=lambda: NEUTRAL_NOVELTY)

    def compress(self, view: ResearchView, new_sources: list[SourceRecord]) -> Decision[str]:
        """Fold new sources into the rolling summary; the first round takes the fast path (no model call, design §6)."""
        if not view.knowledge_state or not new_sources:
            return self.fallback.compress(view, new_sources)
        max_chars = view.settings.knowledge_max_chars
        wanted = math.ceil(max_chars / CHARS_PER_TOKEN * 1.3) + 16

        def build(budget: int) -> Prompt:
            template = load_prompt("compress")
            question = quote_data(view.question, "question")
            room = room_left(budget, template, question) - 60
            knowledge = truncate(view.knowledge_state, min(max_chars, room // 2))
            digest = source_digest(new_sources, view.question, room - len(knowledge))
            return Prompt(template.render(
                question=question,
                knowledge_state=quote_data(knowledge, "knowledge"),
                new_results=f"<results>\n{digest.text}\n</results>", max_chars=max_chars,
            ), truncations=int(digest.truncations > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[str]:
            tuned = with_call_options(model, max_tokens=min(wanted, plan.budget.output_tokens, self.config.num_predict))
            return call_text(tuned, prompt.messages, max_retries=self.config.max_retries,
                             refine=lambda text: bullet_summary(text, max_chars), config=self.run_config("compress"),
                             observe=plan.observe)

        return self.decide("compress", view, build, call, lambda: self.fallback.compress(view, new_sources),
                            reserve=wanted)

    # --- reflect ------------------------------------------------------------------------------------------------------
    def reflect(self, view: ResearchView) -> Decision[ReflectionResponse]:
        limit = view.settings.budget.max_queries_per_round
        thin = thin_records(view)

        def build(budget: int) -> Prompt:
            template = load_prompt("reflect")
            question, schema = quote_data(view.question, "question"), schema_text(ReflectionResponse)
            room = room_left(budget, template, question, schema) - 120
            knowledge = truncate(view.knowledge_state, room // 2)
            searches, dropped = fit_lines(search_lines(view), room // 3)
            thin_text, _ = fit_lines([f"{r['query']} ({r['outcome']}, {len(r['hits'])} results)" for r in thin],
                                     room // 6)
            return Prompt(template.render(
                question=question,
                knowledge_state=quote_data(knowledge or "(nothing yet)", "knowledge"),
                searches=quote_data(searches or "(none)", "searches"),
                thin_queries=quote_data(thin_text or "(none)", "thin"),
                thin_count=view.settings.thin_result_count, max_queries=limit, schema=schema,
            ), truncations=int(dropped > 0 or len(knowledge) < len(view.knowledge_state)))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[ReflectionResponse]:
            reply = call_structured(model, ReflectionResponse, prompt.messages, max_retries=self.config.max_retries,
                                    refine=lambda r: self._refine_reflection(view, r, limit),
                                    config=self.run_config("reflect"), reask=plan.reask, observe=plan.observe)
            if reply.value.sufficient or reply.value.new_queries:
                return reply
            return self._gap_query(model, view, reply, plan)

        return self.decide("reflect", view, build, call, lambda: self.fallback.reflect(view))

    def _refine_reflection(self, view: ResearchView, reflection: ReflectionResponse, limit: int) -> ReflectionResponse:
        """The model's queries first, then the mechanical ones it missed: reformulations of failed or thin searches
        (design §7) and breadcrumbs (design §8). Nothing already sent; the per-round cap."""
        proposed = [q.model_copy(update={"angle": normalize_angle(q.angle), "query": q.query.strip()})
                    for q in reflection.new_queries]
        if not reflection.sufficient:
            mechanical = self.fallback.reflect(view).value.new_queries
            proposed += [q for q in mechanical if q.angle == "breadcrumb" or q.intent.startswith("reformulation")]
        queries = fresh_queries(proposed, view.executed_queries(), limit)
        return reflection.model_copy(update={"new_queries": queries})

    def _gap_query(self, model: Any, view: ResearchView, reply: ModelReply[ReflectionResponse], plan: CallPlan
                   ) -> ModelReply[ReflectionResponse]:
        """Not sufficient, yet nothing new to ask: one gap-filling query (design §7; one call, no retry)."""
        template = load_prompt("plan_query")
        question = quote_data(view.question, "question")
        budget = prompt_char_budget(self.config.num_ctx, self.config.reserved_output(PLAN_QUERY_MAX_TOKENS))
        room = room_left(budget, template, question) - 80
        executed, _ = fit_lines(executed_list(view), room // 3)
        messages = template.render(
            question=question,
            knowledge_state=quote_data(truncate(view.knowledge_state, room // 2) or "(nothing yet)", "knowledge"),
            executed_queries=quote_data(executed or "(none yet)", "executed"),
        )
        known = view.executed_queries()

        def refine(text: str) -> str:
            query = text.strip().splitlines()[0].strip().strip("\"'`").strip() if text.strip() else ""
            if not query or len(query) > 400 or normalize_query(query) in known:
                raise OutputInvalid("no new search query")
            return query

        tuned = with_call_options(model, temperature=PLAN_QUERY_TEMPERATURE, max_tokens=PLAN_QUERY_MAX_TOKENS)
        try:
            extra = call_text(tuned, messages, max_retries=0, refine=refine, config=self.run_config("plan_query"),
                              observe=plan.observe)
        except CallFailed as failed:  # no gap query: the loop moves on to synthesis, which is what "nothing new" means
            return ModelReply(reply.value, reply.calls + failed.calls, reply.tokens + failed.tokens,
                              reply.tokens_estimated, reply.repairs, reply.problems)
        query = PlanQueryModel(query=extra.value, intent="gap-filling query (plan_query)", angle="gap")
        value = reply.value.model_copy(update={"new_queries": [query]})
        return ModelReply(value, reply.calls + extra.calls, reply.tokens + extra.tokens, reply.tokens_estimated,
                          reply.repairs + extra.repairs, reply.problems)

    # --- synthesize ---------------------------------------------------------------------------------------------------
    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        """The answer, written by the model from numbered sentences it cites by number (``engine.model_synthesis``)."""
        return synthesize_with_model(self, view)

    # --- critic -------------------------------------------------------------------------------------------------------
    def critique(self, view: ResearchView) -> Decision[CriticReport]:
        def build(budget: int) -> Prompt:
            template = load_prompt("critic")
            question, schema = quote_data(view.question, "question"), schema_text(ModelCriticReport)
            room = room_left(budget, template, question, schema) - 120
            claim_lines = [f"{n}. {c['claim']} [{', '.join(c['source_ids'])}] ({c['verification']})"
                           for n, c in enumerate(view.claims, 1)]
            claims, cut_claims = fit_lines(claim_lines, room // 2, keep="first")
            handles, cut_sources = fit_lines(
                [f"{s['id']} | {s['angle']} | {s['title'][:100]}" for s in view.sources], room // 4, keep="first")
            executed, cut_queries = fit_lines(executed_list(view), room // 5)
            return Prompt(template.render(
                question=question,
                claims=quote_data(claims or "(no claim passed the grounding check)", "claims"),
                sources=quote_data(handles or "(none)", "sources"),
                executed_queries=quote_data(executed or "(none)", "executed"), schema=schema,
            ), truncations=int(cut_claims + cut_sources + cut_queries > 0))

        def call(model: Any, prompt: Prompt, plan: CallPlan) -> ModelReply[CriticReport]:
            return call_structured(model, ModelCriticReport, prompt.messages, max_retries=self.config.max_retries,
                                   refine=lambda r: self._refine_report(view, r), config=self.run_config("critic"),
                                   reask=plan.reask, observe=plan.observe)

        return self.decide("critic", view, build, call, lambda: self.fallback.critique(view))

    def _refine_report(self, view: ResearchView, answer: ModelCriticReport) -> CriticReport:
        """Sign-off means no material gap, whatever the model wrote; an answer with no claim is never complete; a
        verdict of "incomplete" must name what is missing."""
        report = answer.contract()
        gaps = list(report.gaps)
        if not report.signoff and not any(g.material for g in gaps) and view.claims:
            raise OutputInvalid("you did not sign off but named no material gap; name the gap with a search query "
                                "that would close it, or sign off")
        if not view.claims and not any(g.material for g in gaps):
            gaps.insert(0, CriticGap(kind="modality", description="No grounded claim answers the question yet.",
                                     query=simplify_query(view.question), priority=9.0, material=True))
        return CriticReport(gaps=gaps, signoff=not any(g.material for g in gaps))

