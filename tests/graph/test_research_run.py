"""A full offline run over a small corpus, and a run that dies and is resumed without repeating finished work."""

from __future__ import annotations

import pytest

from satiate.state.contracts import ResearchResult
from support.graph_support import FlakyEngine, build, corpus_deps, run_settings, saver_at
from support.research_corpus import QUESTION


def invoke(app, settings, thread_id="t1"):
    config = {"configurable": {"thread_id": thread_id}}
    return app.invoke({"question": QUESTION, "settings": settings}, config), config


def test_full_run_follows_the_breadcrumb_and_cites_only_read_text(corpus, isolated_data_dir, tmp_path):
    deps, backend = corpus_deps(corpus, isolated_data_dir)
    app = build(deps, saver_at(tmp_path / "c.sqlite"))
    output, config = invoke(app, run_settings(corpus, isolated_data_dir))
    result = ResearchResult.model_validate(output["result"])
    read = {s.doc_id for s in result.sources}
    # hop 1 and hop 2 (reachable only through the breadcrumb "Harbor Works") were both read
    assert {"lumen", "harbor"} <= read
    assert "Ada Pell" in result.answer
    # every claim cites stored read text that contains the claim's support span
    by_id = {s.id: s for s in result.sources}
    for claim in result.claims:
        assert claim.source_ids
        for span in claim.support:
            source = by_id[span["source_id"]]
            assert 0 <= span["start"] < span["end"] <= len(source.text)
    # [n] numbers in the answer map to cited sources
    assert "[1]" in result.answer and any(s.n == 1 for s in result.sources)
    # the convergence table has a row per critic pass and the run stopped for a stated reason
    assert result.rounds and result.stop_reason
    state = app.get_state(config).values
    assert state["rounds"][-1]["round"] == state["cycle"]
    # the breadcrumb query is on record
    assert any(r["origin"] == "breadcrumb" and "Harbor Works" in r["query"] for r in state["search_results"])


def test_compress_runs_only_for_accepted_rounds(corpus, isolated_data_dir, tmp_path):
    engine = FlakyEngine(fail_method="none")
    deps, _ = corpus_deps(corpus, isolated_data_dir, engine=engine)
    app = build(deps, saver_at(tmp_path / "c.sqlite"))
    _, config = invoke(app, run_settings(corpus, isolated_data_dir, novelty_epsilon=0.0))
    verdicts = app.get_state(config).values["novelty_scores"]
    accepted = sum(v["decision"] == "accepted" for v in verdicts)
    assert any(v["decision"] == "saturated" for v in verdicts) or accepted == len(verdicts)
    assert engine.calls["compress"] == accepted
    # rejected rounds stored no source: every source comes from an accepted (cycle, round)
    accepted_rounds = {(v["cycle"], v["round"]) for v in verdicts if v["decision"] == "accepted"}
    sources = app.get_state(config).values["sources"].values()
    assert {(s["cycle"], s["round"]) for s in sources} <= accepted_rounds


def test_same_seed_same_decisions(corpus, isolated_data_dir, tmp_path):
    outputs = []
    for index in range(2):
        deps, _ = corpus_deps(corpus, isolated_data_dir)
        app = build(deps, saver_at(tmp_path / f"c{index}.sqlite"))
        _, config = invoke(app, run_settings(corpus, isolated_data_dir, seed=5))
        values = app.get_state(config).values
        outputs.append(([(v["decision"], v["draw"]) for v in values["novelty_scores"]], values["answer"]))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("fail_method", ["synthesize", "critique", "reflect"])
def test_crash_in_a_node_then_resume_repeats_no_search_and_gives_the_same_answer(
    corpus, isolated_data_dir, tmp_path, fail_method
):
    # the uninterrupted reference run
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    reference, _ = invoke(build(deps, saver_at(tmp_path / "ref.sqlite")), run_settings(corpus, isolated_data_dir))

    engine = FlakyEngine(fail_method=fail_method)
    deps, backend = corpus_deps(corpus, isolated_data_dir, engine=engine)
    checkpoints = tmp_path / "crash.sqlite"
    app = build(deps, saver_at(checkpoints))
    with pytest.raises(RuntimeError, match="injected failure"):
        invoke(app, run_settings(corpus, isolated_data_dir))
    calls_before = dict(backend.calls)
    assert calls_before, "searches ran before the crash"

    # a new process would open the same checkpoint file: a fresh saver and graph, resumed by thread id
    resumed_app = build(deps, saver_at(checkpoints))
    config = {"configurable": {"thread_id": "t1"}}
    assert resumed_app.get_state(config).next, "the run is unfinished and knows where it stopped"
    output = resumed_app.invoke(None, config)
    assert all(backend.calls[query] == count for query, count in calls_before.items()), "a finished search repeated"
    assert all(count == 1 for count in backend.calls.values())
    assert output["answer"] == reference["answer"]
    assert output["result"]["claims"] == reference["result"]["claims"]


def test_killed_mid_gather_resume_repeats_only_the_unfinished_search(corpus, isolated_data_dir, tmp_path):
    deps, backend = corpus_deps(corpus, isolated_data_dir, crash_on="Harbor Works")
    checkpoints = tmp_path / "kill.sqlite"
    app = build(deps, saver_at(checkpoints))
    with pytest.raises(KeyboardInterrupt):
        invoke(app, run_settings(corpus, isolated_data_dir))
    crashed_query = next(q for q in backend.calls if "Harbor Works" in q)
    finished = {q: n for q, n in backend.calls.items() if q != crashed_query}
    output = build(deps, saver_at(checkpoints)).invoke(None, {"configurable": {"thread_id": "t1"}})
    assert backend.calls[crashed_query] == 2  # the one that died is retried once
    assert all(backend.calls[q] == n for q, n in finished.items())  # siblings that finished are not
    assert "Ada Pell" in output["answer"]


def test_planted_contradiction_is_resolved_and_counter_argument_is_cited(corpus, isolated_data_dir, tmp_path):
    deps, _ = corpus_deps(corpus, isolated_data_dir)
    output, _ = invoke(build(deps, saver_at(tmp_path / "c.sqlite")), run_settings(corpus, isolated_data_dir))
    result = ResearchResult.model_validate(output["result"])
    doc_of = {s.id: s.doc_id for s in result.sources}
    # 1987 (plain, Harbor Works page) against 1991 (a hedged press profile): adjudicated, not appended
    dispute = next(c for c in result.contradictions
                   if {doc_of[i] for i in c["source_ids"]} == {"harbor", "harbor-press"})
    assert dispute["resolved"] and [doc_of[i] for i in dispute["favoured_ids"]] == ["harbor"]
    assert "1991" not in result.answer and "1987" in result.answer
    assert "## Disputed" in result.report
    # the opposing view is in the answer, cited to the source that holds it
    counter = next(c for c in result.claims if "critics" in c.claim)
    assert [doc_of[i] for i in counter.source_ids] == ["kettle-review"]
    # key actors are profiled with citations to sources that name them
    actors = {a["name"]: a for a in result.key_actors}
    assert "Harbor Works" in actors and actors["Harbor Works"]["source_ids"]
