"""No engine output may end a run: queries derived from sources that name many entities stay valid queries."""

from __future__ import annotations

from satiate.engine.base import ResearchView
from satiate.engine.deterministic import DeterministicEngine
from satiate.state.contracts import MAX_QUERY_CHARS, PlanQueryModel, clamp_query
from satiate.state.settings import Settings
from satiate.tools.text import entities
from support.graph_support import build, corpus_deps, run_settings

QUESTION = "In what film did Ada Quill play a character based on a story by a team including Tom Rowe as a writer?"
CAST = " ".join(f"Actor{n} Surname{n} Middle{n}" for n in range(60))
PASSAGES = [
    {"doc_id": "quill", "title": "Ada Quill",
     "text": f"Ada Quill is an English actor. Ada Quill appeared alongside {CAST} In The Long Film Of Everything. "
             "Ada Quill played the Captain in Harbour Lights, a film based on a story by a writing team."},
    {"doc_id": "rowe", "title": "Tom Rowe",
     "text": f"Tom Rowe was a writer in a team with {CAST} And Many Others. The team wrote the story of Harbour "
             "Lights."},
]


def test_a_long_query_is_clamped_at_a_word_boundary_not_rejected():
    long_query = " ".join(["Name"] * 200)
    model = PlanQueryModel(query=long_query)
    assert len(model.query) <= MAX_QUERY_CHARS and model.query.endswith("Name")
    assert clamp_query("a  b\n c") == "a b c"


def test_a_run_of_many_capitalised_words_is_not_one_name():
    found = entities(f"Ada Quill appeared alongside {CAST} In The Long Film.")
    assert "Ada Quill" in found
    assert all(len(name.split()) <= 8 for name in found)


def test_reflection_over_sources_naming_many_entities_gives_valid_queries(tmp_path):
    settings = Settings(llm="none", data_dir=str(tmp_path))
    sources = [{"id": f"S{i + 1}", "key": f"doc:{p['doc_id']}", "title": p["title"], "text": p["text"], "url": "",
                "angle": "question", "backend": "corpus", "read_kind": "snippet"} for i, p in enumerate(PASSAGES)]
    view = ResearchView(question=QUESTION, settings=settings, sources=sources, knowledge_state="", search_results=[])
    reflection = DeterministicEngine().reflect(view).value
    assert all(0 < len(q.query) <= MAX_QUERY_CHARS for q in reflection.new_queries)


def test_a_whole_run_on_such_a_corpus_ends_with_an_answer(tmp_path, write_jsonl):
    corpus = write_jsonl(PASSAGES)
    deps, _ = corpus_deps(corpus, tmp_path)
    out = build(deps).invoke({"question": QUESTION, "settings": run_settings(corpus, tmp_path)})
    assert out["result"]["stop_reason"] and out["result"]["claims"]
