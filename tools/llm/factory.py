"""Chat models from one setting string: ``ollama:MODEL``, ``gguf:PATH``, or any ``provider:model`` LangChain knows.

Ollama is the default provider and gets what small local models need: an explicit ``num_ctx`` (Ollama's default of
2,048 tokens silently truncates satiate's prompts), the temperature and output cap, and a client time-out (the Ollama
client has none). Nothing here does I/O: building a model never contacts a server (see ``probe`` for that).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from satiate.state.settings import Settings
from satiate.tools.llm.errors import ModelConfigError

TIME_LIMIT = "time_limit"  # done_reason of a reply stopped at its per-call time limit (tools.llm.structured reads it)

DEFAULT_OLLAMA_PORT = 11434
# Providers init_chat_model knows, with the package each needs (for the error message when it is missing).
PROVIDER_PACKAGES = {
    "openai": "langchain-openai",
    "anthropic": "langchain-anthropic",
    "azure_openai": "langchain-openai",
    "google_genai": "langchain-google-genai",
    "google_vertexai": "langchain-google-vertexai",
    "bedrock": "langchain-aws",
    "bedrock_converse": "langchain-aws",
    "cohere": "langchain-cohere",
    "fireworks": "langchain-fireworks",
    "together": "langchain-together",
    "mistralai": "langchain-mistralai",
    "huggingface": "langchain-huggingface",
    "groq": "langchain-groq",
    "deepseek": "langchain-deepseek",
    "xai": "langchain-xai",
    "perplexity": "langchain-perplexity",
    "nvidia": "langchain-nvidia-ai-endpoints",
    "ibm": "langchain-ibm",
}


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model setting: the provider and the provider's own model name (which may contain colons)."""

    provider: str
    name: str

    @property
    def text(self) -> str:
        return f"{self.provider}:{self.name}"


def parse_model_spec(value: str) -> ModelSpec:
    """'ollama:qwen2.5:7b' -> ModelSpec('ollama', 'qwen2.5:7b'); raises ModelConfigError for a malformed value."""
    provider, sep, name = value.strip().partition(":")
    if not sep or not provider or not name:
        raise ModelConfigError(f"model setting {value!r}: use 'ollama:MODEL', 'gguf:PATH' or 'provider:model'")
    return ModelSpec(provider.strip().lower(), name.strip())


def ollama_base_url(setting: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Where Ollama listens: the setting, else ``OLLAMA_HOST`` read the way the Ollama CLI reads it, else localhost.

    ``OLLAMA_HOST`` may be ``host``, ``host:port``, ``:port`` or a full URL; without a scheme it means http on port
    11434, with ``http://`` / ``https://`` and no port the scheme's own port. A bind-all host (0.0.0.0, ::) means
    "this machine" to a client.
    """
    environ = os.environ if environ is None else environ
    raw = (setting or environ.get("OLLAMA_HOST") or "").strip()
    if not raw:
        return f"http://127.0.0.1:{DEFAULT_OLLAMA_PORT}"
    scheme, has_scheme, rest = raw.partition("://")
    if not has_scheme:
        scheme, rest = "http", raw
        default_port = DEFAULT_OLLAMA_PORT
    else:
        scheme = scheme.lower()
        default_port = 443 if scheme == "https" else 80
    parts = urlsplit(f"{scheme}://{rest}")
    host = parts.hostname or "127.0.0.1"
    if host in {"0.0.0.0", "::"}:
        host = "127.0.0.1"
    try:
        port = parts.port or default_port
    except ValueError as exc:
        raise ModelConfigError(f"Ollama address {raw!r}: {exc}") from None
    shown_host = f"[{host}]" if ":" in host else host
    path = parts.path.rstrip("/")
    return f"{scheme}://{shown_host}:{port}{path}"


def chat_model_for(spec: ModelSpec | str, settings: Settings) -> Any:
    """Build the chat model a spec names, configured from settings. Raises ModelConfigError with the fix."""
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    if spec.provider == "ollama":
        return ollama_chat_model(spec.name, settings)
    if spec.provider == "gguf":
        return gguf_chat_model(spec.name, settings)
    return provider_chat_model(spec, settings)


def ollama_chat_model(name: str, settings: Settings) -> Any:
    from langchain_ollama import ChatOllama

    return ChatOllama(
        model=name,
        base_url=ollama_base_url(settings.ollama_base_url),
        num_ctx=settings.num_ctx,
        temperature=settings.temperature,
        num_predict=settings.num_predict,
        client_kwargs={"timeout": settings.model_timeout_s},
    )


def physical_cores() -> int:
    """CPU cores this process may use, counting hyper-threads of one core once (llama.cpp runs slower when its
    threads share cores); ``os.cpu_count()`` where the topology cannot be read."""
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = list(range(os.cpu_count() or 1))
    cores: set[str] = set()
    for cpu in allowed:
        siblings = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list")
        try:
            cores.add(siblings.read_text().strip())
        except OSError:
            return max(1, len(allowed))
    return max(1, len(cores) or len(allowed))


LLAMA_BATCH = 512  # prompt tokens llama.cpp evaluates at once; ChatLlamaCpp's default of 8 halves prompt speed
_LLAMA_LOCKS: dict[int, threading.Lock] = {}
_LLAMA_LOCKS_GUARD = threading.Lock()


def _llama_lock(client: Any) -> threading.Lock:
    """One lock per loaded llama.cpp model: a context serves one call at a time."""
    with _LLAMA_LOCKS_GUARD:
        return _LLAMA_LOCKS.setdefault(id(client), threading.Lock())


@functools.lru_cache(maxsize=1)
def paced_llama_class() -> type:
    """``ChatLlamaCpp`` that stops writing at a per-call time limit and reports each call's tokens and timings.

    llama.cpp runs in this process, so no client time-out can stop it: generation is streamed and the stream is
    closed once ``call_timeout_s`` has passed (the parser closes a JSON answer cut short). Reading the prompt cannot
    be interrupted; the engine sizes prompts to the measured speed instead. The reply carries ``usage_metadata``
    and Ollama's timing keys (``prompt_eval_count``, ``prompt_eval_duration``, ``eval_count``, ``eval_duration``, in
    nanoseconds) from llama.cpp's own counters, so both speeds are measured, not guessed.
    """
    from langchain_community.chat_models import ChatLlamaCpp
    from langchain_core.messages import AIMessageChunk
    from langchain_core.outputs import ChatGenerationChunk

    class PacedChatLlamaCpp(ChatLlamaCpp):
        call_timeout_s: float | None = None

        def _stream(self, messages, stop=None, run_manager=None, **kwargs):  # type: ignore[override]
            import llama_cpp

            context = getattr(getattr(self.client, "_ctx", None), "ctx", None)
            with _llama_lock(self.client):
                if context is not None:
                    llama_cpp.llama_perf_context_reset(context)
                started = time.perf_counter()
                written, finish = 0, None
                stream = super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)
                try:
                    for chunk in stream:
                        written += bool(chunk.text)
                        finish = (chunk.generation_info or {}).get("finish_reason") or finish
                        yield chunk
                        if self.call_timeout_s and time.perf_counter() - started > self.call_timeout_s:
                            finish = TIME_LIMIT
                            break
                finally:
                    stream.close()
                seconds = time.perf_counter() - started
                perf = llama_cpp.llama_perf_context(context) if context is not None else None
                output = int(perf.n_eval) if perf is not None and perf.n_eval else written
                prompt = max(0, int(getattr(self.client, "n_tokens", 0)) - output)
                meta: dict[str, Any] = {"model_name": Path(self.model_path).name, "done_reason": finish,
                                        "total_duration": int(seconds * 1e9)}
                if perf is not None:
                    meta.update(prompt_eval_count=int(perf.n_p_eval), prompt_eval_duration=int(perf.t_p_eval_ms * 1e6),
                                eval_count=output, eval_duration=int(perf.t_eval_ms * 1e6))
                usage = {"input_tokens": prompt, "output_tokens": output, "total_tokens": prompt + output}
            yield ChatGenerationChunk(message=AIMessageChunk(content="", usage_metadata=usage, response_metadata=meta))

    return PacedChatLlamaCpp


def gguf_chat_model(path: str, settings: Settings) -> Any:
    """A local GGUF file through llama.cpp (optional extra ``satiate[gguf]``); JSON is grammar-constrained per call.

    In-process llama.cpp gets what a CPU needs: a prompt batch of 512 (not ChatLlamaCpp's 8), one thread per
    physical core (or ``model_threads``), a per-call time limit (``model_timeout_s``) and no repeat penalty
    (satiate's answers copy names from the sentences they were shown; a penalty pushes a small model off the very
    words it should copy).
    """
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelConfigError(
            "llm 'gguf:…' needs llama-cpp-python: pip install 'satiate[gguf]' (or pip install llama-cpp-python; it "
            "builds from source, a few minutes)"
        )
    model_path = Path(path).expanduser()
    if not model_path.is_file():
        raise ModelConfigError(f"GGUF model file not found: {model_path}")
    return paced_llama_class()(
        model_path=str(model_path),
        n_ctx=settings.num_ctx,
        n_batch=min(settings.num_ctx, LLAMA_BATCH),
        n_threads=settings.model_threads or physical_cores(),
        temperature=settings.temperature,
        max_tokens=settings.num_predict,
        repeat_penalty=1.0,
        call_timeout_s=settings.model_timeout_s,
        verbose=False,
    )


def _init_chat_model():
    """LangChain's provider-agnostic constructor, from ``langchain`` (or its ``langchain-classic`` twin)."""
    for module in ("langchain.chat_models", "langchain_classic.chat_models"):
        try:
            imported = __import__(module, fromlist=["init_chat_model"])
            return imported.init_chat_model
        except ImportError:
            continue
    return None


def provider_chat_model(spec: ModelSpec, settings: Settings) -> Any:
    package = PROVIDER_PACKAGES.get(spec.provider)
    init_chat_model = _init_chat_model()
    if init_chat_model is None:
        extra = f" {package}" if package else ""
        raise ModelConfigError(
            f"llm {spec.text!r} needs LangChain's init_chat_model: pip install langchain{extra}"
        )
    try:
        with warnings.catch_warnings():  # langchain-classic's copy warns that it moved to langchain
            warnings.simplefilter("ignore", DeprecationWarning)
            return init_chat_model(
                spec.name,
                model_provider=spec.provider,
                temperature=settings.temperature,
                max_tokens=settings.num_predict,
                timeout=settings.model_timeout_s,
            )
    except ImportError as exc:
        name = package or f"the LangChain integration for {spec.provider}"
        raise ModelConfigError(f"llm {spec.text!r} needs {name}: pip install {package or '…'} ({exc})") from None
    except ValueError as exc:
        reason = (f"LangChain knows no provider {spec.provider!r}" if "provider" in str(exc).lower()
                  else str(exc).splitlines()[0])
        raise ModelConfigError(
            f"llm {spec.text!r}: {reason}. For a model served by Ollama write 'ollama:{spec.text}'."
        ) from None


# Field names different providers use for the output-token cap.
_OUTPUT_CAP_FIELDS = ("num_predict", "max_tokens", "max_output_tokens", "max_new_tokens")


def with_call_options(model: Any, *, temperature: float | None = None, max_tokens: int | None = None,
                      timeout_s: float | None = None) -> Any:
    """A copy of ``model`` with another temperature / output cap / per-call time limit, where it has them (novelty
    wants temperature 0 and 3 tokens; a slow model's answer gets the seconds the run has left)."""
    fields = getattr(type(model), "model_fields", {})
    update: dict[str, Any] = {}
    if temperature is not None and "temperature" in fields:
        update["temperature"] = temperature
    if max_tokens is not None:
        for name in _OUTPUT_CAP_FIELDS:
            if name in fields:
                update[name] = max_tokens
                break
    if timeout_s is not None and "call_timeout_s" in fields:
        update["call_timeout_s"] = timeout_s
    if not update or not hasattr(model, "model_copy"):
        return model
    return model.model_copy(update=update)
