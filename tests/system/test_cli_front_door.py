"""The satiate command as a newcomer meets it: help that fits on a few screens, every setting listed by
``satiate settings``, an argument error in one line, quick commands that do not load LangGraph, and the notices a
first run prints (an index being built, a malformed corpus line) said once each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from satiate.graph.cli import build_parser, main
from satiate.graph.cli.settings import COMMON_SETTINGS, GROUP_STARTS, flag_of, setting_groups
from satiate.graph.plot import plot_path, plot_rounds
from satiate.state.settings import Settings
from satiate.tools.search import builtin_corpus
from satiate.tools.search.fts_index import Passage
from support.graph_support import run_cli

RUN_HELP_MAX_LINES = 150


def exit_of(capsys, *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of a command that argparse ends (help, an argument error)."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    captured = capsys.readouterr()
    return stopped.value.code, captured.out, captured.err


# --- help and settings ------------------------------------------------------------------------------------------------
def test_run_help_fits_on_a_few_screens_and_shows_the_common_settings_in_groups(capsys):
    code, out, _ = exit_of(capsys, "run", "--help")
    assert code == 0
    assert len(out.splitlines()) <= RUN_HELP_MAX_LINES
    assert all(flag_of(name) in out for name in COMMON_SETTINGS)
    assert "settings: the model:" in out and "satiate settings" in out
    assert "--max-claims" not in out  # an uncommon setting is listed by `satiate settings`, not here
    assert "SETTING_" not in out  # placeholders say what to give (N, SECONDS, URL), not the internal name


def test_every_setting_is_still_a_flag_of_run_even_when_its_help_is_not_shown():
    argv = ["run", "Where is Marrowfield?", "--max-claims", "3", "--no-allow-engine-fallback"]
    args = build_parser().parse_args(argv)
    assert args.setting_max_claims == 3 and args.setting_allow_engine_fallback is False


def test_the_settings_command_lists_every_setting_once_in_its_group(capsys):
    code, out, err = run_cli(capsys, "settings")
    assert code == 0, err
    for name in Settings.model_fields:
        assert out.count(f"  {flag_of(name)}  (default:") == 1, name
    grouped = [name for names in setting_groups().values() for name in names]
    assert grouped == list(Settings.model_fields)  # each once, in the settings object's order
    assert set(setting_groups()) == set(GROUP_STARTS)
    code, markdown, _ = run_cli(capsys, "settings", "--markdown")
    assert code == 0 and markdown.count("| `") == len(Settings.model_fields)


# --- argument errors --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, named", [
    (["run", "Where is Marrowfield?", "--seed", "seven"], "--seed"),
    (["run", "Where is Marrowfield?", "--tier", "huge"], "--tier"),
    (["list", "--jsn"], "--jsn"),
    (["prune"], "--older-than"),
    (["launch"], "launch"),
])
def test_a_bad_argument_is_one_line_with_the_way_to_help(capsys, argv, named):
    code, out, err = exit_of(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert named in err and "--help" in err


def test_a_question_that_is_not_utf8_is_refused_in_one_line(capsys):
    shell_bytes = b"Who built the Marrowfield \xff lighthouse?".decode("utf-8", "surrogateescape")
    code, out, err = exit_of(capsys, "run", shell_bytes)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "not valid UTF-8" in err and "0xff" in err


# --- quick commands load only what they need -------------------------------------------------------------------------
def loaded_after(code: str) -> set[str]:
    """Top-level modules loaded by a fresh interpreter after running ``code``."""
    script = f"import sys\n{code}\nprint(__import__('json').dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("code", [
    "import satiate.graph.cli",
    "from satiate.graph.cli import parse\nparse(['run', 'Where is Marrowfield?', '--seed', '3', '--max-claims', '2'])",
    "from satiate.graph.cli import main\ntry:\n    main(['run', 'Where is Marrowfield?', '--seed', 'x'])\n"
    "except SystemExit:\n    pass",
])
def test_the_cli_parses_and_rejects_arguments_without_loading_langgraph(code):
    loaded = loaded_after(code)
    assert not loaded & {"langgraph", "langchain_core", "langchain_community", "langsmith", "sqlalchemy"}


def test_a_look_at_the_cache_loads_neither_langgraph_nor_the_engines(capsys):
    code, out, err = run_cli(capsys, "cache", "stats")  # the store the cache command opens is a working one
    assert code == 0 and "search" in out, err
    loaded = loaded_after("from satiate.graph.cli import main\nmain(['cache', 'stats'])")
    assert "sqlalchemy" in loaded  # it did open the store
    assert not loaded & {"langgraph", "langchain_core", "langsmith"}


# --- small things -----------------------------------------------------------------------------------------------------
def test_a_plot_target_ending_in_a_slash_is_a_folder_made_for_it(tmp_path: Path):
    assert plot_path(f"{tmp_path / 'plots'}/", "marrowfield.png") == tmp_path / "plots" / "marrowfield.png"
    assert plot_path(tmp_path / "curves", "marrowfield.png") == tmp_path / "curves.png"  # no slash: a file name
    rounds = [{"round": 1, "sources": 3, "new_sources": 3, "open_gaps": 1},
              {"round": 2, "sources": 4, "new_sources": 1, "open_gaps": 0}]
    written = plot_rounds(rounds, f"{tmp_path / 'newdir'}/", "Where is Marrowfield?", name="t-convergence.png")
    assert written == tmp_path / "newdir" / "t-convergence.png" and written.read_bytes().startswith(b"\x89PNG")
    assert not (tmp_path / "newdir.png").exists()


def test_the_first_index_of_the_builtin_corpus_says_so_once(tmp_path: Path, monkeypatch, capfd):
    def few(doc_id: str):
        return lambda: iter([Passage(doc_id, "Marrowfield", f"https://example.invalid/{doc_id}",
                                     "The Marrowfield lighthouse keeps a lamp.")])

    monkeypatch.setattr(builtin_corpus, "pydoc_topics", few("topic"))
    monkeypatch.setattr(builtin_corpus, "stdlib_passages", few("module"))
    monkeypatch.setattr(builtin_corpus, "distributions", lambda: {})
    first = builtin_corpus.BuiltinCorpusBackend(tmp_path)
    first.close()
    said = capfd.readouterr().err
    assert said.count("indexing the built-in corpus") == 1 and len(said.strip().splitlines()) == 1
    again = builtin_corpus.BuiltinCorpusBackend(tmp_path)  # already indexed: nothing to say
    again.close()
    assert "indexing" not in capfd.readouterr().err


def test_a_malformed_corpus_line_is_reported_once(capsys, tmp_path: Path):
    corpus = tmp_path / "notes.jsonl"
    corpus.write_text(json.dumps({"doc_id": "lamp", "title": "Marrowfield lighthouse",
                                  "text": "The Marrowfield lighthouse was lit in 1871 by the harbour board."})
                      + "\nnot json\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "run", "When was the Marrowfield lighthouse lit?", "--corpus", str(corpus),
                             "--backends", "corpus", "--json")
    assert code == 0, err
    assert err.count("skipped 1 malformed line in notes.jsonl") == 1, err
