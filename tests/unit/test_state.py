"""Reducers keep the append-only parts append-only; settings resolve in one stated order with clear errors."""

from __future__ import annotations

import sqlite3

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph

from satiate.state.schema import ResearchState, append_only, merge_sources
from satiate.state.settings import Settings, SettingsError, resolve_settings, shown_settings


def test_append_only_reducer_keeps_earlier_entries():
    assert append_only([1, 2], [3]) == [1, 2, 3]
    assert append_only([1, 2], []) == [1, 2]
    assert append_only(None, [1]) == [1]


def test_source_store_keeps_first_record_and_id_for_a_key():
    first = {"url:a": {"id": "S1", "text": "first"}}
    merged = merge_sources(first, {"url:a": {"id": "S9", "text": "second"}, "url:b": {"id": "S2", "text": "b"}})
    assert merged["url:a"] == {"id": "S1", "text": "first"}
    assert merged["url:b"]["id"] == "S2"


def test_a_node_cannot_drop_earlier_log_entries_through_the_graph(tmp_path):
    """A node that returns a shorter list (trying to overwrite) only appends, across checkpoints too."""

    def first(state):
        return {"error_log": [{"node": "first"}], "search_results": [{"query": "q1"}], "rounds": [{"round": 1}]}

    def tries_to_drop(state):
        return {"error_log": [], "search_results": [{"query": "q2"}], "rounds": [], "sources": {}}

    builder = StateGraph(ResearchState)
    builder.add_node("first", first)
    builder.add_node("tries_to_drop", tries_to_drop)
    builder.add_edge(START, "first")
    builder.add_edge("first", "tries_to_drop")
    builder.add_edge("tries_to_drop", END)
    saver = SqliteSaver(sqlite3.connect(tmp_path / "c.sqlite", check_same_thread=False))
    app = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    app.invoke({"question": "q"}, config)
    values = app.get_state(config).values
    assert values["error_log"] == [{"node": "first"}]
    assert [r["query"] for r in values["search_results"]] == ["q1", "q2"]
    assert values["rounds"] == [{"round": 1}]


def test_seed_defaults_are_the_seeds_values():
    settings = Settings()
    assert (settings.searches_per_task, settings.max_search_rounds, settings.novelty_threshold) == (2, 5, 3)
    assert (settings.novelty_epsilon, settings.knowledge_max_chars, settings.search_quality_floor) == (0.15, 1500, 1800)
    assert settings.cache_ttl_s == 24 * 3600
    assert settings.budget.max_cycles == 5 and Settings(tier="deep").budget.max_cycles == 10


def test_override_order_run_beats_environment_beats_default():
    env = {"SATIATE_NOVELTY_THRESHOLD": "5", "SATIATE_TIER": "deep"}
    assert resolve_settings(None, environ=env).novelty_threshold == 5
    resolved = resolve_settings({"novelty_threshold": 7}, environ=env)
    assert resolved.novelty_threshold == 7 and resolved.tier == "deep"
    # a blank (None) per-run value is "not chosen" and does not mask the environment
    assert resolve_settings({"novelty_threshold": None}, environ=env).novelty_threshold == 5
    # earlier per-run layers beat later ones (graph input beats Studio context)
    assert resolve_settings({"tier": "simple"}, {"tier": "standard"}, environ={}).tier == "simple"


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ({"novelty_threshold": 11}, "novelty_threshold"),
        ({"novelty_epsilon": "lots"}, "novelty_epsilon"),
        ({"backends": "gopher"}, "backends"),
        ({"searches_per_task": 6}, "max_search_rounds"),
        ({"no_such_knob": 1}, "unknown setting"),
        ({"llm": "ollama:"}, "llm"),
    ],
)
def test_invalid_settings_raise_one_clear_error(override, fragment):
    with pytest.raises(SettingsError) as error:
        resolve_settings(override, environ={})
    assert fragment in str(error.value)
    assert "\n" not in str(error.value)


def test_environment_lists_and_counter_argument_is_always_kept():
    settings = resolve_settings(None, environ={"SATIATE_ANGLES": "entity,time_window"})
    assert settings.angles == ["entity", "time_window", "counter_argument"]


def test_settings_handed_on_mask_the_password_of_every_url_setting():
    settings = Settings(store_url="postgresql+psycopg://satiate:s3cret@db:5432/research",
                        ollama_base_url="http://me:pw@10.0.0.5:11434").model_dump()
    shown = shown_settings(settings)
    assert shown["store_url"] == "postgresql+psycopg://satiate:***@db:5432/research"
    assert shown["ollama_base_url"] == "http://me:***@10.0.0.5:11434"
    assert {k: v for k, v in shown.items() if k not in ("store_url", "ollama_base_url")} == {
        k: v for k, v in settings.items() if k not in ("store_url", "ollama_base_url")}
    assert settings["store_url"].endswith("s3cret@db:5432/research")  # the run's own copy keeps it, to resume
