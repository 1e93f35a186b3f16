"""A fast start-up check that Ollama answers and has the model, with messages that say what to do.

No server -> "start it with `ollama serve`"; model not pulled (HTTP 404) -> "pull it with `ollama pull MODEL`".
One short HTTP request each, with a small time-out, so a run learns in milliseconds (connection refused) or
``probe_timeout_s`` at worst that it will not get a model, instead of at its first model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

EMBEDDING_HINTS = ("embed", "bge", "minilm", "e5-")


@dataclass(frozen=True)
class ProbeResult:
    """The outcome of one check; ``message`` is one line fit for the CLI."""

    ok: bool
    kind: str  # ok | no_server | timeout | model_missing | error
    message: str
    base_url: str
    model: str | None = None
    models: tuple[str, ...] = field(default_factory=tuple)


def _no_server(base_url: str, error: Exception) -> ProbeResult:
    return ProbeResult(
        False, "no_server",
        f"no Ollama server answers at {base_url} ({type(error).__name__}); start it with `ollama serve`, or point "
        "satiate at it with --ollama-base-url / OLLAMA_HOST",
        base_url,
    )


def _timeout(base_url: str, timeout_s: float) -> ProbeResult:
    return ProbeResult(False, "timeout", f"Ollama at {base_url} did not answer within {timeout_s:g} s", base_url)


def installed_models(base_url: str, timeout_s: float) -> ProbeResult:
    """The server's pulled models (``GET /api/tags``)."""
    try:
        response = httpx.get(f"{base_url}/api/tags", timeout=timeout_s)
    except httpx.TimeoutException:
        return _timeout(base_url, timeout_s)
    except httpx.TransportError as error:
        return _no_server(base_url, error)
    if response.status_code != 200:
        return ProbeResult(False, "error", f"Ollama at {base_url} answered {response.status_code} to /api/tags",
                           base_url)
    try:
        names = tuple(str(m.get("name") or m.get("model")) for m in response.json().get("models", []))
    except (ValueError, AttributeError):
        return ProbeResult(False, "error", f"{base_url}/api/tags did not return Ollama's model list", base_url)
    return ProbeResult(True, "ok", f"Ollama at {base_url} has {len(names)} model(s)", base_url, models=names)


def probe_ollama(base_url: str, model: str, timeout_s: float) -> ProbeResult:
    """Does the server answer, and does it have ``model``? (``POST /api/show``, which answers 404 for a missing one.)"""
    try:
        response = httpx.post(f"{base_url}/api/show", json={"model": model, "name": model}, timeout=timeout_s)
    except httpx.TimeoutException:
        return _timeout(base_url, timeout_s)
    except httpx.TransportError as error:
        return _no_server(base_url, error)
    if response.status_code == 404:
        return ProbeResult(False, "model_missing",
                           f"Ollama at {base_url} does not have the model '{model}'; "
                           f"pull it with `ollama pull {model}`",
                           base_url, model)
    if response.status_code != 200:
        detail = response.text[:200].strip()
        return ProbeResult(False, "error", f"Ollama at {base_url} answered {response.status_code} for '{model}': "
                           f"{detail}", base_url, model)
    return ProbeResult(True, "ok", f"Ollama at {base_url} serves '{model}'", base_url, model)


def choose_auto_model(base_url: str, preferred: str, timeout_s: float) -> ProbeResult:
    """For llm='auto': the preferred model if pulled, else the first pulled chat model (embedding models skipped)."""
    listing = installed_models(base_url, timeout_s)
    if not listing.ok:
        return listing
    names = listing.models
    wanted = {preferred, f"{preferred}:latest"}
    chosen = next((n for n in names if n in wanted), None)
    if chosen is None:
        chosen = next((n for n in names if not any(h in n.lower() for h in EMBEDDING_HINTS)), None)
    if chosen is None:
        return ProbeResult(False, "model_missing",
                           f"Ollama at {base_url} has no chat model; pull one with `ollama pull {preferred}`",
                           base_url, preferred, names)
    return ProbeResult(True, "ok", f"Ollama at {base_url} serves '{chosen}' (chosen by llm=auto)", base_url, chosen,
                       names)
