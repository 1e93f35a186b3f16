"""Chat models from one setting string, and the Ollama address as the Ollama CLI reads it."""

from __future__ import annotations

import importlib.util

import pytest

from satiate.state.settings import Settings, SettingsError, resolve_settings
from satiate.tools.llm.errors import ModelConfigError
from satiate.tools.llm.factory import chat_model_for, ollama_base_url, parse_model_spec


def test_model_names_may_contain_colons() -> None:
    spec = parse_model_spec("ollama:qwen2.5:7b-instruct")
    assert (spec.provider, spec.name) == ("ollama", "qwen2.5:7b-instruct")
    with pytest.raises(ModelConfigError):
        parse_model_spec("qwen")


@pytest.mark.parametrize("host, url", [
    ("", "http://127.0.0.1:11434"),
    ("example.com", "http://example.com:11434"),
    (":5000", "http://127.0.0.1:5000"),
    ("0.0.0.0:11434", "http://127.0.0.1:11434"),
    ("https://ollama.internal", "https://ollama.internal:443"),
    ("http://10.0.0.2:8080/ollama/", "http://10.0.0.2:8080/ollama"),
])
def test_ollama_host_is_read_like_the_ollama_cli(host: str, url: str) -> None:
    assert ollama_base_url(None, {"OLLAMA_HOST": host}) == url


def test_the_setting_beats_ollama_host() -> None:
    assert ollama_base_url("http://box:1234", {"OLLAMA_HOST": "other:1"}) == "http://box:1234"


def test_ollama_model_gets_context_options_and_a_client_timeout() -> None:
    settings = Settings(num_ctx=4096, temperature=0.3, num_predict=256, model_timeout_s=7.5,
                        ollama_base_url="http://127.0.0.1:9")
    model = chat_model_for("ollama:tiny", settings)  # no I/O at construction
    params = model._chat_params([])
    assert params["options"] == {"num_ctx": 4096, "num_predict": 256, "temperature": 0.3}
    assert model._client._client.timeout.read == 7.5
    assert str(model._client._client.base_url).startswith("http://127.0.0.1:9")


@pytest.mark.skipif(importlib.util.find_spec("langchain") is not None, reason="langchain is installed here")
def test_other_providers_without_langchain_name_the_package_to_install() -> None:
    with pytest.raises(ModelConfigError, match="pip install"):
        chat_model_for("openai:gpt-4o-mini", Settings())


def test_unknown_provider_suggests_the_ollama_spelling() -> None:
    with pytest.raises(ModelConfigError, match="ollama:qwen2.5:7b"):
        chat_model_for("qwen2.5:7b", Settings())


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is not None, reason="llama-cpp-python is installed here")
def test_gguf_without_llama_cpp_names_the_extra() -> None:
    with pytest.raises(ModelConfigError, match="llama-cpp-python"):
        chat_model_for("gguf:/models/tiny.gguf", Settings())


def test_llm_settings_accept_gguf_and_per_role_models_and_reject_junk() -> None:
    settings = resolve_settings({"llm": "gguf:/m/tiny.gguf", "llm_critic": "ollama:qwen2.5:14b", "llm_planner": ""})
    assert settings.llm == "gguf:/m/tiny.gguf" and settings.llm_critic == "ollama:qwen2.5:14b"
    assert settings.llm_planner is None
    with pytest.raises(SettingsError, match="llm_critic"):
        resolve_settings({"llm_critic": "auto"})


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is not None, reason="llama-cpp-python is installed here")
def test_cli_with_gguf_but_no_llama_cpp_stops_with_the_install_hint(tmp_path, capsys) -> None:
    from satiate.graph.cli import main
    from satiate.graph.deps import reset

    reset()
    model_file = tmp_path / "tiny.gguf"
    model_file.write_bytes(b"GGUF")
    code = main(["run", "What is a Python generator?", "--llm", f"gguf:{model_file}", "--backends", "builtin"])
    assert code == 2
    assert "llama-cpp-python" in capsys.readouterr().err
