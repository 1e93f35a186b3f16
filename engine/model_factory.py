"""Which model engine a run gets: models per role from the settings, Ollama probed once per process.

At the start of a run, only ``llm='auto'`` ("Ollama if it answers") falls back: with no usable model it becomes the
deterministic stand-in, which says so in the run's error log and on the CLI. A model named explicitly
(``ollama:MODEL``, ``gguf:PATH``, ...) that cannot be reached stops the run with ``ModelUnavailable`` and the fix:
whoever named a model wants that model's answers, not the deterministic engine's under its name.
``allow_engine_fallback`` governs what happens later, when a model that answered at the start stops answering
(``engine/model.py``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from satiate.engine.base import Decision, ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.engine.model import ModelEngine
from satiate.engine.model_calls import ROLES, SMALL_PROFILE_ROLES, ModelDecision
from satiate.engine.model_warmup import warm_up
from satiate.state.contracts import PlanResponse
from satiate.state.records import ErrorRecord
from satiate.state.settings import Settings
from satiate.tools.llm.errors import ModelUnavailable
from satiate.tools.llm.factory import (
    ModelSpec,
    chat_model_for,
    ollama_base_url,
    parse_model_spec,
)
from satiate.tools.llm.probe import ProbeResult, choose_auto_model, probe_ollama

if TYPE_CHECKING:
    from satiate.tools.metrics import PrometheusExporter

FAILED_PROBE_TTL_S = 60.0  # a failed start-up check is repeated after this long (a long-lived server may recover)


class DeterministicStandIn(DeterministicEngine):
    """The deterministic engine standing in for a model that does not answer; it says so at the start of each run."""

    rebuild_after_s = FAILED_PROBE_TTL_S  # a process keeping engines builds this one again (and re-probes) after it

    def __init__(self, reason: str) -> None:
        self.label = "deterministic (model unavailable)"
        self.notice = f"{reason}; continuing on the deterministic engine"

    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        decision = super().plan(view, target)
        if view.search_results:  # a later cycle: the run was told already
            return decision
        record = ErrorRecord(node="plan", type="model_unavailable", message=self.notice, retryable=True,
                             cycle=view.cycle, round=0)
        return ModelDecision(decision.value, fallbacks=1, errors=[record])


# Ollama's answers to the start-up check, by (URL, model): not settings-keyed objects, so not in graph/deps's memos;
# ``forget_probes`` is called by its ``reset``.
_PROBES: dict[tuple, tuple[float, ProbeResult]] = {}
_PROBES_LOCK = threading.RLock()


def role_specs(settings: Settings) -> dict[str, str]:
    """Each role's model setting: its own (``llm_<role>``) or the shared ``llm``."""
    return {role: getattr(settings, f"llm_{role}") or settings.llm for role in ROLES}


def _probe(key: tuple, check: Callable[[], ProbeResult]) -> ProbeResult:
    """Probe once per process (a failure is re-checked after FAILED_PROBE_TTL_S)."""
    with _PROBES_LOCK:
        cached = _PROBES.get(key)
        if cached and (cached[1].ok or time.monotonic() - cached[0] < FAILED_PROBE_TTL_S):
            return cached[1]
        result = check()
        _PROBES[key] = (time.monotonic(), result)
        return result


@dataclass
class RoleResolution:
    """Each role's model after 'auto' is resolved and Ollama probed: problems of an explicitly named model (the run
    stops) apart from those of 'auto' (the run falls back), and the probes' notices."""

    models: dict[str, ModelSpec | None] = field(default_factory=dict)
    explicit_problems: list[str] = field(default_factory=list)
    auto_problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def resolve_roles(settings: Settings) -> RoleResolution:
    """Each role's model spec after 'auto' is resolved and Ollama is probed."""
    base_url = ollama_base_url(settings.ollama_base_url)
    found = RoleResolution()
    for role, value in role_specs(settings).items():
        if value == "none":
            found.models[role] = None
            continue
        problems = found.explicit_problems
        if value == "auto":
            problems = found.auto_problems
            result = _probe(("auto", base_url, settings.ollama_default_model),
                            lambda: choose_auto_model(base_url, settings.ollama_default_model,
                                                      settings.probe_timeout_s))
            if not result.ok:
                problems.append(result.message)
                continue
            value = f"ollama:{result.model}"
        spec = parse_model_spec(value)
        if spec.provider == "ollama":
            result = _probe((base_url, spec.name),
                            lambda: probe_ollama(base_url, spec.name,  # noqa: B023 _probe runs it within this iteration
                                                 settings.probe_timeout_s))
            if not result.ok:
                problems.append(result.message)
                continue
            found.notices.append(result.message)
        found.models[role] = spec
    for name in ("explicit_problems", "auto_problems", "notices"):
        setattr(found, name, list(dict.fromkeys(getattr(found, name))))
    return found


# appended to the probe's own advice ("start it with `ollama serve`", "pull it with ...")
EXPLICIT_MODEL_FIX = ("or set llm to 'auto' (a model if Ollama has one, else the deterministic engine) or 'none' "
                      "(--llm on the command line, the llm field through the API)")


def build_model_engine(settings: Settings, *, metrics: PrometheusExporter | None = None) -> Any:
    """The engine for these settings: a ModelEngine, or (llm 'auto' found no model) the deterministic stand-in;
    ``metrics`` observes each model call. Built once per process and settings by ``satiate.graph.deps``.

    Raises ModelUnavailable when a model named explicitly does not answer at the start.
    """
    found = resolve_roles(settings)
    resolved, notices = found.models, found.notices
    if found.explicit_problems:
        raise ModelUnavailable(f"{'; '.join(found.explicit_problems)}; {EXPLICIT_MODEL_FIX}")
    if found.auto_problems:
        return DeterministicStandIn(f"llm=auto found no model: {'; '.join(found.auto_problems)}")
    if all(spec is None for spec in resolved.values()):
        return DeterministicEngine()
    built: dict[str, Any] = {}
    models = {}
    for role, spec in resolved.items():
        if spec is not None and spec.text not in built:
            built[spec.text] = chat_model_for(spec, settings)
        models[role] = built[spec.text] if spec is not None else None
    texts = {role: spec.text for role, spec in resolved.items() if spec is not None}
    shared = resolved.get("planner")
    label = "model:" + (shared.text if shared is not None and len(set(texts.values())) == 1 else
                        ", ".join(f"{role}={text}" for role, text in texts.items()))
    if settings.num_ctx:
        notices.append(f"num_ctx {settings.num_ctx}")
    engine = ModelEngine(models, settings, label=label, metrics=metrics)
    asked = SMALL_PROFILE_ROLES if settings.model_profile == "small" else ROLES
    local = [role for role in asked if (spec := resolved.get(role)) is not None and spec.provider == "gguf"]
    if settings.model_warm_up and local:  # an in-process model: its speed is measured before any run's clock starts
        notices += warm_up(engine, local, settings.max_execution_time_s)
    engine.notice = "; ".join(notices) or None
    return engine


def forget_probes() -> None:
    """Forget every start-up check's answer (``satiate.graph.deps.reset``; a process that knows the model server
    changed)."""
    with _PROBES_LOCK:
        _PROBES.clear()
