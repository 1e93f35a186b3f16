"""The default dependencies: the engine and the search service a run's settings ask for."""

from __future__ import annotations

import functools

from satiate.engine.base import ResearchEngine
from satiate.engine.deterministic import DeterministicEngine
from satiate.nodes.common import Dependencies
from satiate.state.settings import Settings
from satiate.tools.search.service import search_service_for


class EngineUnavailable(RuntimeError):
    """The requested model engine cannot be used; the message says how to fix it."""


@functools.lru_cache(maxsize=1)
def deterministic_engine() -> DeterministicEngine:
    return DeterministicEngine()


def engine_for(settings: Settings) -> ResearchEngine:
    """'none' -> the deterministic engine; anything else -> the model engine (with per-call deterministic fallback).

    The model engine is built once per process and settings: Ollama is probed then, not at every node. When llm
    is 'auto' and no model answers, the deterministic stand-in runs (and says so in the run's error log and on the
    CLI); a model named explicitly that does not answer raises EngineUnavailable with the fix, whatever
    ``allow_engine_fallback`` says (that setting covers a model that stops answering during the run).
    """
    roles = (settings.llm_planner, settings.llm_compressor, settings.llm_synthesizer, settings.llm_critic)
    if settings.llm == "none" and all(role in (None, "none") for role in roles):
        return deterministic_engine()
    try:
        from satiate.engine.model_factory import model_engine_for
        from satiate.tools.llm.errors import ModelSetupError
    except ImportError as exc:  # pragma: no cover - the model layer ships with satiate
        raise EngineUnavailable(f"model engine unavailable ({exc}); use --llm none") from exc
    try:
        return model_engine_for(settings)
    except ModelSetupError as exc:
        raise EngineUnavailable(str(exc)) from exc


def default_dependencies() -> Dependencies:
    return Dependencies(engine_for=engine_for, search_for=search_service_for)
