"""What the model is asked to return for a plan and for the critic: schemas that force content, not just shape.

Under grammar-constrained decoding a small model returns whatever the schema lets it: measured with a 1.5B model, a
plan of one query (the question verbatim) six times out of six, and a critic answering ``{"signoff": true}`` every
time. So the model-facing schemas leave no room for that: every field is required (an optional field is one a
grammar lets the model skip), a plan has at least two queries, and the critic writes its reason before its verdict.
Each converts to the contract the nodes use (``PlanResponse``, ``CriticReport``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, create_model

from satiate.state.contracts import MAX_QUERY_CHARS, CriticGap, CriticReport, PlanQueryModel, PlanResponse
from satiate.state.settings import Tier

PlanAngle = Literal["question", "entity", "time_window", "source_type", "counter_argument"]
MIN_PLAN_QUERIES = 2
MIN_REASON_CHARS = 20


class ModelPlanQuery(BaseModel):
    query: str = Field(min_length=3, max_length=MAX_QUERY_CHARS, description="Search keywords, not a sentence.")
    intent: str = Field(min_length=3, description="What this query should find, in a few words.")
    angle: PlanAngle


class ModelPlan(BaseModel):
    """At least two queries (the target itself, then another angle), and the question's tier."""

    queries: list[ModelPlanQuery] = Field(min_length=MIN_PLAN_QUERIES, max_length=20)
    tier: Tier

    def contract(self) -> PlanResponse:
        return PlanResponse(queries=[PlanQueryModel(query=q.query, intent=q.intent, angle=q.angle)
                                     for q in self.queries], tier=self.tier)


def plan_schema(max_queries: int) -> type[ModelPlan]:
    """``ModelPlan`` capped at the round's query limit (never below the two it must have)."""
    return create_model("ModelPlan", __base__=ModelPlan,
                        queries=(list[ModelPlanQuery], Field(min_length=MIN_PLAN_QUERIES,
                                                             max_length=max(MIN_PLAN_QUERIES, max_queries))))


class ModelCriticReport(BaseModel):
    """The critic's reason first (what is missing, or why nothing material is), then its gaps, then the verdict."""

    reason: str = Field(min_length=MIN_REASON_CHARS, description="The most material gap, or why there is none.")
    gaps: list[CriticGap]
    signoff: bool

    def contract(self) -> CriticReport:
        return CriticReport(gaps=self.gaps, signoff=self.signoff)
