"""The first hour with the satiate command (issue 11): every --help works, a killed run is resumable and never
reported as finished, piped output is plain Markdown, terminal output carries no escape sequence from a corpus, a
named model that does not answer stops the run, and runs can be listed, deleted and pruned."""

from __future__ import annotations

import json
import sqlite3

import pytest

from satiate.graph.builder import build_graph
from satiate.graph.checkpoint import checkpoint_path, sqlite_checkpointer
from satiate.graph.cli import build_parser, main
from satiate.graph.deps import reset as reset_dependencies
from satiate.graph.progress import progress_line
from satiate.graph.terminal import strip_terminal_escapes
from support.graph_support import FlakyEngine, build, corpus_deps, run_cli
from support.ollama_stub import SAMPLE_PASSAGES, OllamaStub, closed_port_url
from support.research_corpus import PASSAGES, QUESTION

CLEAR_SCREEN = "\x1b[2J"
RETITLE_WINDOW = "\x1b]0;owned\x07"


def research(capsys, corpus, thread_id, *flags):
    code, out, err = run_cli(capsys, "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus",
                             "--thread-id", thread_id, "--max-results-per-query", "2", *flags)
    assert code == 0, err
    return out, err


def listed(capsys) -> dict[str, dict]:
    code, out, err = run_cli(capsys, "list", "--json")
    assert code == 0, err
    return {row["thread_id"]: row for row in json.loads(out)}


# --- 1. help ---------------------------------------------------------------------------------------------------------
SUBCOMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_help_exits_0(capsys, command, flag):
    with pytest.raises(SystemExit) as stopped:
        main([command, flag])
    assert stopped.value.code == 0
    assert f"usage: satiate {command}" in capsys.readouterr().out


def test_run_help_shows_a_percent_sign_from_a_setting_description(capsys, monkeypatch):
    from satiate.state.settings import Settings

    field = Settings.model_fields["max_search_rounds"]  # any description may say "40 % fewer" or "100%"
    monkeypatch.setattr(field, "description", "Rounds at most (40 % fewer than before, 100% grounded).")
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "40 % fewer than before, 100% grounded" in " ".join(capsys.readouterr().out.split())


# --- 2. a run killed between a step's saved writes and the next checkpoint --------------------------------------------
def cut_after_a_middle_step(data_dir, thread_id: str) -> None:
    """Leave the store as a process killed at that moment leaves it: the middle checkpoint of a finished run, with
    the pending writes of every task of its step, and no later checkpoint."""
    with sqlite3.connect(checkpoint_path(data_dir)) as db:
        ids = [row[0] for row in db.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? "
                                            "AND checkpoint_ns = '' ORDER BY checkpoint_id", (thread_id,))]
        keep = ids[len(ids) // 2]
        assert db.execute("SELECT COUNT(*) FROM writes WHERE thread_id = ? AND checkpoint_id = ?",
                          (thread_id, keep)).fetchone()[0] > 0
        for table in ("checkpoints", "writes"):
            db.execute(f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_id > ?", (thread_id, keep))


def stopped_state(data_dir, thread_id: str):
    with sqlite_checkpointer(data_dir) as saver:
        return build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}})


def test_a_run_with_nothing_next_but_no_result_is_resumed_to_the_end(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "cut", "--json")
    cut_after_a_middle_step(isolated_data_dir, "cut")
    stopped = stopped_state(isolated_data_dir, "cut")
    assert stopped.next == () and "result" not in stopped.values  # the state the issue describes

    code, out, err = run_cli(capsys, "resume", "cut", "--json")
    assert code == 0, err
    assert "already finished" not in err and "resuming thread cut" in err
    result = json.loads(out)
    assert "Ada Pell" in result["answer"] and result["stop_reason"].startswith("converged")
    assert "result" in stopped_state(isolated_data_dir, "cut").values


def test_a_run_with_nothing_next_but_no_result_is_not_shown_as_finished(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "cut", "--json")
    cut_after_a_middle_step(isolated_data_dir, "cut")
    code, _, err = run_cli(capsys, "show", "cut", "--json")
    assert code == 0 and "is unfinished (interrupted)" in err
    code, out, err = run_cli(capsys, "list")
    assert code == 0 and "finished" not in out and "interrupted" in out
    code, _, err = run_cli(capsys, "resume", "cut", "--json")
    assert code == 0, err
    code, out, err = run_cli(capsys, "list")
    assert code == 0 and "finished" in out


def test_resume_prints_the_full_report_with_its_stop_reason(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "cut-report", "--json")
    cut_after_a_middle_step(isolated_data_dir, "cut-report")
    code, out, err = run_cli(capsys, "resume", "cut-report")
    assert code == 0, err
    assert out.startswith(f"# {QUESTION}") and "Stopped: converged" in out and "## Sources" in out


SLOW_CLI = r"""
import sys, time
from satiate.tools.search import local_corpus

searched = local_corpus.LocalCorpusBackend.search

def slow_search(self, query, max_results):  # the real corpus search, slowed so Ctrl-C lands mid-run
    time.sleep(0.5)
    return searched(self, query, max_results)

local_corpus.LocalCorpusBackend.search = slow_search
from satiate.graph.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_leaves_a_run_that_is_interrupted_and_resumes_to_the_end(capsys, corpus, tmp_path):
    import signal
    import subprocess
    import sys

    script = tmp_path / "slow_cli.py"
    script.write_text(SLOW_CLI)
    child = subprocess.Popen(
        [sys.executable, str(script), "run", QUESTION, "--corpus", str(corpus), "--backends", "corpus",
         "--thread-id", "ctrl-c", "--max-results-per-query", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a shell may start us with it ignored
    seen = []
    for line in child.stderr:  # Ctrl-C once the first search has answered: the run is well under way
        seen.append(line)
        if line.startswith("  search"):
            child.send_signal(signal.SIGINT)
            break
    rest = child.stderr.read()
    assert child.wait(timeout=60) == 130, "".join(seen) + rest
    assert "interrupted; resume with: satiate resume ctrl-c" in rest
    child.stdout.close()
    child.stderr.close()

    assert listed(capsys)["ctrl-c"]["status"] == "interrupted"
    code, out, err = run_cli(capsys, "resume", "ctrl-c", "--json")
    assert code == 0, err
    assert "resuming thread ctrl-c" in err and "Ada Pell" in json.loads(out)["answer"]
    assert listed(capsys)["ctrl-c"]["status"] == "finished"


# --- 5. output: plain Markdown off a terminal, files, no escape sequences on a terminal -------------------------------
def test_piped_report_is_the_markdown_itself(capsys, corpus):
    out, _ = research(capsys, corpus, "piped")
    code, shown, _ = run_cli(capsys, "show", "piped", "--json")
    assert code == 0
    assert out == json.loads(shown)["report"]  # not rendered by rich: headings keep their '#', names their '__'
    code, again, _ = run_cli(capsys, "show", "piped")
    assert code == 0 and again == out


def test_output_writes_the_report_or_the_result_by_suffix(capsys, corpus, tmp_path):
    report = tmp_path / "out" / "answer.md"
    out, err = research(capsys, corpus, "files", "--output", str(report))
    assert out == "" and f"report written to {report}" in err
    code, shown, _ = run_cli(capsys, "show", "files", "--json")
    assert report.read_text(encoding="utf-8") == json.loads(shown)["report"]

    result_file = tmp_path / "result.json"
    code, out, err = run_cli(capsys, "show", "files", "--output", str(result_file))
    assert code == 0 and out == "" and f"result written to {result_file}" in err
    assert json.loads(result_file.read_text(encoding="utf-8"))["thread_id"] == "files"

    code, out, err = run_cli(capsys, "resume", "files", "--output", str(tmp_path / "again.json"))
    assert code == 0 and json.loads((tmp_path / "again.json").read_text())["thread_id"] == "files"


@pytest.mark.parametrize("argv", [
    ["run", QUESTION, "--output", "answer.txt"],
    ["show", "any", "--output", "answer.html"],
    ["resume", "any", "--output", "answer"],
    ["show", "any", "--output", "answer.json", "--json"],
])
def test_output_with_another_suffix_is_a_usage_error(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("satiate: --output") and len(err.strip().splitlines()) == 1


def test_no_escape_sequence_from_the_corpus_or_question_reaches_the_terminal(capsys, write_jsonl, monkeypatch,
                                                                             tmp_path):
    poisoned = [dict(p) for p in PASSAGES]
    poisoned[0]["title"] = f"Lumen kettle{RETITLE_WINDOW}"
    poisoned[0]["text"] = poisoned[0]["text"].replace("Harbor Works", f"Harbor Works{CLEAR_SCREEN}", 1)
    corpus = write_jsonl(poisoned)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich treats stdout and stderr as terminals
    code, out, err = run_cli(capsys, "run", f"{QUESTION}{CLEAR_SCREEN}", "--corpus", str(corpus),
                             "--backends", "corpus",
                             "--thread-id", "poisoned", "--max-results-per-query", "2")
    assert code == 0, err
    assert "Lumen kettle" in out and "Harbor Works" in out
    for printed in (out, err):
        assert CLEAR_SCREEN not in printed and "\x1b]" not in printed and "\x07" not in printed
    monkeypatch.delenv("TTY_COMPATIBLE")
    code, piped, _ = run_cli(capsys, "show", "poisoned")  # a pipe may end on a terminal too: stripped as well
    assert code == 0 and "Lumen kettle" in piped and "\x1b" not in piped and "\x07" not in piped
    report = tmp_path / "poisoned.md"
    code, _, _ = run_cli(capsys, "show", "poisoned", "--output", str(report))  # a file keeps the text as stored
    assert code == 0 and RETITLE_WINDOW in report.read_text(encoding="utf-8")


@pytest.mark.parametrize(("raw", "clean"), [
    (f"a{CLEAR_SCREEN}b", "ab"),
    (f"title{RETITLE_WINDOW}", "title"),
    ("link \x1b]8;;http://evil\x1b\\text\x1b]8;;\x1b\\", "link text"),
    ("red \x1b[31mred\x1b[0m", "red red"),
    ("c1 \x9b2J csi", "c1 2J csi"),
    ("dcs \x1bPq#0;2;0;0;0\x1b\\ end", "dcs  end"),
    ("bell\x07 back\x08space\r\nline\ttab", "bell backspace\nline\ttab"),
    ("plain Markdown: __init__ [1] *x*", "plain Markdown: __init__ [1] *x*"),
])
def test_strip_terminal_escapes(raw, clean):
    assert strip_terminal_escapes(raw) == clean


def test_json_output_escapes_the_controls_json_encoders_leave_raw():
    from satiate.graph.terminal import json_safe_for_terminal

    document = json.dumps({"title": "csi \x9b2J del \x7f esc \x1b[2J é"}, ensure_ascii=False)
    safe = json_safe_for_terminal(document)
    assert json.loads(safe) == json.loads(document)
    assert not any(0x7f <= ord(char) <= 0x9f or char == "\x1b" for char in safe) and "é" in safe


def test_progress_lines_show_corpus_text_literally():
    line = progress_line({"event": "page", "url": f"https://example.org/[/]{RETITLE_WINDOW}", "outcome": "ok",
                          "chars": 10})
    from io import StringIO

    from rich.console import Console

    console = Console(file=StringIO(), width=200)
    console.print(line, highlight=False)  # '[/]' in a URL must not be read as markup (rich raised MarkupError)
    shown = console.file.getvalue()
    assert "https://example.org/[/]" in shown and "\x1b" not in shown
    search = progress_line({"event": "search", "angle": "entity", "query": "[bold]q", "backend": "corpus",
                            "outcome": "ok", "hits": 1})
    console.print(search, highlight=False)
    assert "search [entity] '[bold]q'" in console.file.getvalue()


# --- 6. a named model that does not answer stops the run; only 'auto' falls back --------------------------------------
@pytest.fixture
def model_caches():
    reset_dependencies()
    yield
    reset_dependencies()


@pytest.fixture
def sample_corpus(write_jsonl):
    return write_jsonl(SAMPLE_PASSAGES, name="sample.jsonl")


@pytest.mark.parametrize("flags", [
    ["--llm", "ollama:llama3.2"],
    ["--llm", "none", "--llm-critic", "ollama:llama3.2"],
    ["--llm", "ollama:llama3.2", "--allow-engine-fallback"],
])
def test_a_named_model_that_does_not_answer_is_exit_2_with_the_fix(capsys, sample_corpus, model_caches, flags):
    code, out, err = run_cli(capsys, "run", "What is a Python generator?", "--corpus", str(sample_corpus),
                             "--ollama-base-url", closed_port_url(), *flags)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("satiate: ")
    assert "`ollama serve`" in err and "llm to 'auto'" in err and "--llm" in err and "Traceback" not in err


def test_a_named_model_that_is_not_pulled_is_exit_2_with_the_pull_command(capsys, sample_corpus, model_caches):
    with OllamaStub(models=("tiny:latest",)) as stub:
        code, _, err = run_cli(capsys, "run", "What is a Python generator?", "--corpus", str(sample_corpus),
                               "--llm", "ollama:qwen3:8b", "--ollama-base-url", stub.url)
    assert code == 2 and "`ollama pull qwen3:8b`" in err and len(err.strip().splitlines()) == 1


def test_auto_without_a_server_falls_back_and_says_so(capsys, sample_corpus, model_caches):
    code, out, err = run_cli(capsys, "run", "What is a Python generator?", "--corpus", str(sample_corpus),
                             "--llm", "auto", "--ollama-base-url", closed_port_url(), "--json")
    assert code == 0, err
    assert "engine: deterministic (model unavailable)" in err
    assert "llm=auto found no model" in err and "continuing on the deterministic engine" in err
    assert json.loads(out)["engine"] == "deterministic (model unavailable)"


def test_a_model_that_answered_at_the_start_still_falls_back_per_call(capsys, sample_corpus, model_caches,
                                                                      monkeypatch):
    import satiate.graph.cli.run as cli

    stub = OllamaStub().start()
    checked = cli._preflight

    def check_then_lose_the_server(settings, err):
        checked(settings, err)
        stub.stop()  # the model answered the start-up probe, then its server went away

    monkeypatch.setattr(cli, "_preflight", check_then_lose_the_server)
    try:
        code, out, err = run_cli(capsys, "run", "What is a Python generator?", "--corpus", str(sample_corpus),
                                 "--llm", "ollama:tiny", "--ollama-base-url", stub.url, "--json")
    finally:
        stub.stop()
    assert code == 0, err
    result = json.loads(out)
    assert result["engine"] == "model:ollama:tiny" and result["claims"]
    assert any(e["type"].startswith("model_") for e in result["errors"])


# --- 9. list, delete, prune -------------------------------------------------------------------------------------------
def test_list_shows_whole_ids_start_times_statuses_and_questions_newest_first(capsys, corpus, isolated_data_dir):
    long_id = "a-thread-id-long-enough-to-be-cut-by-an-80-column-table-0123456789"
    research(capsys, corpus, long_id, "--json")
    deps, _ = corpus_deps(corpus, isolated_data_dir, engine=FlakyEngine(fail_method="critique"))
    settings = {"corpus": str(corpus), "backends": ["corpus"], "seed": 3, "max_results_per_query": 2}
    with sqlite_checkpointer(isolated_data_dir) as saver:
        with pytest.raises(RuntimeError):
            build(deps, saver).invoke({"question": "Who makes the Lumen kettle?", "settings": settings},
                                      {"configurable": {"thread_id": "died"}})
    research(capsys, corpus, "cut-list", "--json")
    cut_after_a_middle_step(isolated_data_dir, "cut-list")

    code, out, err = run_cli(capsys, "list")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["thread", "started", "status", "size", "question"]
    assert [line.split()[0] for line in lines[1:]] == ["cut-list", "died", long_id]  # newest first, whole IDs
    assert "finished" in lines[3] and QUESTION in lines[3] and "failed" in lines[2]
    assert "interrupted" in lines[1]

    rows = json.loads(run_cli(capsys, "list", "--json")[1])
    assert [row["thread_id"] for row in rows] == ["cut-list", "died", long_id]
    assert [row["status"] for row in rows] == ["interrupted", "failed", "finished"]
    assert rows[1]["next"] == ["critic"] and "injected failure" in rows[1]["error"]
    assert rows[0]["started"] >= rows[1]["started"] >= rows[2]["started"]
    assert rows[2]["stop_reason"] and rows[2]["claims"] > 0 and rows[2]["question"] == QUESTION

    from satiate.graph.checkpoint import run_lock

    with run_lock(isolated_data_dir, "died"):  # what a satiate process holds while it runs a thread
        assert listed(capsys)["died"]["status"] == "running"
        code, _, err = run_cli(capsys, "resume", "died")
        assert code == 2 and "being run by another satiate process" in err
        code, _, err = run_cli(capsys, "delete", "died")
        assert code == 2 and "being run by another satiate process" in err
    assert listed(capsys)["died"]["status"] == "failed"


def test_list_of_an_empty_store(capsys):
    assert run_cli(capsys, "list", "--json")[:2] == (0, "[]\n")
    code, out, err = run_cli(capsys, "list")
    assert code == 0 and out == "" and "no runs stored in" in err


def rows_of(data_dir, thread_id: str) -> int:
    with sqlite3.connect(checkpoint_path(data_dir)) as db:
        return sum(db.execute(f"SELECT COUNT(*) FROM {table} WHERE thread_id = ?", (thread_id,)).fetchone()[0]
                   for table in ("checkpoints", "writes"))


def test_delete_removes_every_checkpoint_and_write_of_the_thread(capsys, corpus, isolated_data_dir):
    research(capsys, corpus, "keep", "--json")
    research(capsys, corpus, "drop", "--json")
    assert rows_of(isolated_data_dir, "drop") > 0
    code, out, err = run_cli(capsys, "delete", "drop", "--vacuum")
    assert code == 0, err
    assert out == "deleted drop\n" and "compacted" in err
    assert rows_of(isolated_data_dir, "drop") == 0 and rows_of(isolated_data_dir, "keep") > 0
    assert set(listed(capsys)) == {"keep"}
    code, _, err = run_cli(capsys, "show", "drop")
    assert code == 2 and "unknown thread id 'drop'" in err


def test_delete_of_an_unknown_id_deletes_nothing(capsys, corpus):
    research(capsys, corpus, "keep", "--json")
    code, out, err = run_cli(capsys, "delete", "keep", "no-such-run")
    assert code == 2 and out == ""
    assert err == "satiate: unknown thread id 'no-such-run': nothing deleted (see 'satiate list')\n"
    assert set(listed(capsys)) == {"keep"}


def test_prune_deletes_runs_whose_last_step_is_older(capsys, corpus, monkeypatch):
    import types
    from datetime import datetime

    import satiate.graph.cli.runs as cli

    research(capsys, corpus, "old", "--json")
    research(capsys, corpus, "new", "--json")
    rows = listed(capsys)
    old_end = datetime.fromisoformat(rows["old"]["updated"]).timestamp()
    new_end = datetime.fromisoformat(rows["new"]["updated"]).timestamp()
    # the clock 30 days after a moment between the two runs' last steps
    now = (old_end + new_end) / 2 + 30 * 86_400
    monkeypatch.setattr(cli, "time", types.SimpleNamespace(time=lambda: now))

    code, out, err = run_cli(capsys, "prune", "--older-than", "30d", "--dry-run")
    assert code == 0, err
    assert out.startswith("would delete old") and "new" not in out and "would delete 1 run(s)" in err
    assert set(listed(capsys)) == {"old", "new"}

    code, out, err = run_cli(capsys, "prune", "--older-than", "720h")
    assert code == 0 and out.startswith("deleted old") and "deleted 1 run(s)" in err
    assert set(listed(capsys)) == {"new"}


@pytest.mark.parametrize("age", ["30", "d", "30 days", "1.5.2d", "3x"])
def test_prune_with_an_unreadable_age_is_a_usage_error(capsys, age):
    code, _, err = run_cli(capsys, "prune", "--older-than", age)
    assert code == 2 and "--older-than" in err and "30d" in err and len(err.strip().splitlines()) == 1


# --- 11. the plot -----------------------------------------------------------------------------------------------------
ROUNDS = [{"round": 1, "sources": 3, "new_sources": 3, "open_gaps": 2},
          {"round": 2, "sources": 5, "new_sources": 2, "open_gaps": 1},
          {"round": 3, "sources": 6, "new_sources": 1, "open_gaps": 0}]


def test_plot_into_an_existing_folder_reports_the_file_it_wrote(capsys, corpus, tmp_path):
    research(capsys, corpus, "plotted", "--json")
    folder = tmp_path / "plots"
    folder.mkdir()
    code, _, err = run_cli(capsys, "show", "plotted", "--plot", str(folder), "--json")
    assert code == 0, err
    written = folder / "plotted-convergence.png"
    assert f"plot written to {written}\n" in err
    assert written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "plots.png").exists()

    bare = tmp_path / "curves"
    code, _, err = run_cli(capsys, "show", "plotted", "--plot", str(bare), "--json")
    assert code == 0 and f"plot written to {bare}.png\n" in err and (tmp_path / "curves.png").exists()


def drawn_figure(monkeypatch, tmp_path, title):
    from matplotlib.figure import Figure

    from satiate.graph.plot import plot_rounds

    figures = []
    save = Figure.savefig

    def keep(self, *args, **kwargs):
        figures.append(self)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    plot_rounds(ROUNDS, tmp_path / "p.png", title)
    return figures[0]


def test_plot_counts_have_integer_ticks(monkeypatch, tmp_path):
    figure = drawn_figure(monkeypatch, tmp_path, QUESTION)
    for axes in figure.axes:
        low, high = axes.get_ylim()
        ticks = [tick for tick in axes.get_yticks() if low <= tick <= high]
        assert ticks and all(float(tick).is_integer() for tick in ticks), ticks


def test_plot_title_is_wrapped_at_words_and_the_legend_covers_no_point(monkeypatch, tmp_path):
    question = ("Which companies made electric kettles in Bristol between 1987 and 2015, who founded them, and "
                "how did their designs and energy efficiency compare with cheaper plastic kettles?")
    figure = drawn_figure(monkeypatch, tmp_path, question)
    title = figure.axes[0].get_title()
    assert " ".join(title.split()) == question  # whole, and only broken between words
    assert all(len(line) <= 80 for line in title.splitlines())

    renderer = figure.canvas.get_renderer()
    legends = [*figure.legends, *(axes.get_legend() for axes in figure.axes if axes.get_legend() is not None)]
    boxes = [legend.get_window_extent(renderer) for legend in legends]
    assert boxes
    for axes in figure.axes:
        for line in axes.get_lines():
            for x, y in zip(line.get_xdata(), line.get_ydata()):
                px, py = axes.transData.transform((x, y))
                assert not any(box.contains(px, py) for box in boxes), (line.get_label(), x, y)
