"""Issue 11 item 10: the built-in corpus answers from Python's own documentation (the language reference and the
standard library's docstrings), ranks installed packages' descriptions last, and never indexes satiate itself."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import pytest

from satiate.tools.search.builtin_corpus import (
    PYTHON_VERSION,
    BuiltinCorpusBackend,
    compiled_module_passages,
    compiled_modules,
    private_imports,
    source_module_passages,
    stdlib_source_files,
    topic_sections,
)

PYTHON_DOCS = ("python:", "stdlib:")  # doc ids of the language reference and the standard library


@pytest.fixture
def builtin(isolated_data_dir: Path) -> BuiltinCorpusBackend:
    """The real built-in corpus (the session's shared index: see conftest)."""
    return BuiltinCorpusBackend(isolated_data_dir)


def mentions_satiate(hit) -> bool:
    return "satiate" in f"{hit.doc_id} {hit.title} {hit.url}".lower()


@pytest.mark.parametrize("question", [
    "What is a Python generator?",
    "How does the import statement find modules?",
    "How does the Python import statement find modules?",
])
def test_readme_questions_are_answered_from_pythons_own_documentation(builtin, question):
    hits = builtin.search(question, 15)
    assert all(hit.doc_id.startswith(PYTHON_DOCS) for hit in hits[:5]), [hit.doc_id for hit in hits[:5]]
    assert not any(mentions_satiate(hit) for hit in hits)


def test_the_language_reference_answers_what_a_generator_is(builtin):
    titles = [hit.title for hit in builtin.search("What is a Python generator?", 5)]
    assert "Python language reference: The standard type hierarchy — Generator functions" in titles
    import_hits = builtin.search("How does the import statement find modules?", 3)
    assert import_hits[0].title == 'Python language reference: The "import" statement'
    assert import_hits[0].url == f"https://docs.python.org/{PYTHON_VERSION}/reference/simple_stmts.html#import"


def test_stdlib_functions_have_their_own_titled_and_linked_documents(builtin):
    top = builtin.search("What does functools.lru_cache do?", 5)[0]
    assert top.title == "Python stdlib: functools.lru_cache"
    assert top.url == f"https://docs.python.org/{PYTHON_VERSION}/library/functools.html#functools.lru_cache"
    # the signature and the docstring's summary read as one sentence, which an explanation can open with
    assert top.body.startswith("functools.lru_cache(maxsize=128, typed=False): Least-recently-used cache decorator")
    # a module written in C is documented too (its docstrings exist only at run time), and a private C module's
    # class under the public name it is documented by
    chain = builtin.search("itertools chain", 3)[0]
    assert chain.title == "Python stdlib: itertools.chain"
    assert chain.url.endswith("library/itertools.html#itertools.chain")
    assert builtin.search("collections deque", 1)[0].title == "Python stdlib: collections.deque"
    # what a package re-exports from a submodule is documented under the package, as the library pages do
    assert builtin.search("What is asyncio.gather?", 1)[0].url.endswith("library/asyncio.html#asyncio.gather")
    assert builtin.search("What does the built-in zip function do?", 3)[0].url.endswith("library/functions.html#zip")
    # a function's own page comes before pages that only mention it, also when the question does not say "built-in"
    assert builtin.search("What does the zip function do?", 3)[0].title == "Python built-in: zip"
    # os.path is documented under that name, whichever module implements it here
    assert builtin.search("What does os.path.join do?", 3)[0].url.endswith("library/os.path.html#os.path.join")


def test_installed_packages_are_still_found_but_rank_below_pythons_documentation(builtin):
    assert builtin.search("pydantic", 3)[0].doc_id.startswith("pypi:pydantic")
    # words both have ("python", "generator"): READMEs of code generators and "next generation" clients used to
    # fill the top of this list; now Python's documentation does
    assert not any(hit.doc_id.startswith("pypi:") for hit in builtin.search("What is a Python generator?", 15))


def test_satiate_is_never_indexed(builtin):
    with sqlite3.connect(builtin.index.path) as connection:
        units = [unit for (unit,) in connection.execute("SELECT unit FROM units")]
        own = connection.execute(
            "SELECT count(*) FROM passages WHERE lower(title) LIKE '%satiate%' OR url LIKE '%/satiate/%'").fetchone()
    assert "dist:satiate" not in units and own == (0,)
    assert not any(mentions_satiate(hit) for hit in builtin.search("deep-research agent LangGraph satiate", 15))


def test_test_suites_guis_and_side_effect_modules_are_left_out():
    modules = {name for name, _ in stdlib_source_files()}
    assert {"functools", "collections.abc", "importlib.util", "json.decoder", "_collections_abc"} <= modules
    for left_out in ("this", "antigravity", "idlelib", "tkinter", "turtle", "test", "lib2to3", "__main__"):
        assert not any(name == left_out or name.startswith(f"{left_out}.") for name in modules), left_out
    assert not any(".test" in name or ".tests" in name or name.startswith("encodings.") for name in modules)
    compiled = set(compiled_modules())
    assert {"itertools", "builtins", "math"} <= compiled and "readline" not in compiled


def test_a_first_build_reads_no_module_with_import_side_effects(tmp_path):
    """A fresh index in a fresh process: built in seconds, and 'this' (which prints the Zen on import) never ran."""
    script = (
        "import sys, time; from pathlib import Path\n"
        "from satiate.tools.search.builtin_corpus import BuiltinCorpusBackend\n"
        "started = time.perf_counter(); backend = BuiltinCorpusBackend(Path(sys.argv[1]))\n"
        "print(round(time.perf_counter() - started, 2), backend.index.count(), 'this' in sys.modules, "
        "'antigravity' in sys.modules, 'tkinter' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    seconds, passages, *imported = done.stdout.split()
    assert imported == ["False", "False", "False"]
    assert int(passages) > 3000 and float(seconds) < 60  # about 3 s on a 2-core machine


def test_reference_topics_are_split_at_their_headings():
    text = "The standard type hierarchy\n***************************\n\nIntro.\n\nGenerator functions\n" \
           "-------------------\n\nA function which uses yield.\n"
    assert topic_sections(text) == [("The standard type hierarchy", "Intro."),
                                    ("Generator functions", "A function which uses yield.")]


GLENMOOR_SOURCE = '''
"""Glenmoor: weather records for a fictional valley town."""
import sys

__all__ = ["Gauge", "rainfall"]
__all__.extend(["flood_level"])
__all__ += ["snow_depth"]
__all__.append("wind_speed")

def rainfall(day):
    """Return the millimetres of rain that fell on ``day`` in Glenmoor."""

if sys.platform == "win32":
    def flood_level(river):
        """Return the flood level of ``river``, measured at the Windows gauge."""
else:
    def flood_level(river):
        """Return the flood level of ``river``, measured at the old stone bridge."""

try:
    from _glenmoor_speedups import snow_depth, wind_speed
except ImportError:
    def snow_depth(day):
        """Return how deep the snow lay on ``day``, in centimetres."""

def _private_helper():
    """Never documented: private to the module."""

def unlisted(day):
    """Not in __all__, so not part of the documented API."""
'''


def test_definitions_and_exports_inside_if_and_try_blocks_are_documented():
    passages = list(source_module_passages("glenmoor", ast.parse(GLENMOOR_SOURCE)))
    by_id = {passage.doc_id: passage.text for passage in passages}
    assert set(by_id) == {"stdlib:glenmoor", "stdlib:glenmoor.rainfall", "stdlib:glenmoor.flood_level",
                          "stdlib:glenmoor.snow_depth"}
    # a platform variant defined twice is documented once, by its first definition
    assert "Windows gauge" in by_id["stdlib:glenmoor.flood_level"]


def test_a_module_docstring_assigned_to_dunder_doc_is_read():
    source = '__doc__ = """Kestrel Falls ledger - the accounts of a fictional mill town, kept by hand."""\n'
    passages = list(source_module_passages("kestrel", ast.parse(source)))
    assert [p.doc_id for p in passages] == ["stdlib:kestrel"]
    assert passages[0].text.startswith("Kestrel Falls ledger")


def test_a_private_c_modules_functions_are_documented_by_the_public_module_that_imports_them(monkeypatch):
    assert private_imports("glenmoor", ast.parse(GLENMOOR_SOURCE)) == {
        "_glenmoor_speedups": {"snow_depth": "glenmoor", "wind_speed": "glenmoor"}}
    assert private_imports("_glenmoor_impl", ast.parse(GLENMOOR_SOURCE)) == {}  # a private importer documents none

    speedups = types.ModuleType("_glenmoor_speedups")

    def wind_speed(day):
        """Return the strongest gust measured on ``day`` at the Glenmoor weather mast."""

    def hail_count(day):
        """Return how many hailstorms were logged on ``day``; no public module imports it."""

    for function in (wind_speed, hail_count):
        function.__module__ = "_glenmoor_speedups"
        setattr(speedups, function.__name__, function)
    monkeypatch.setitem(sys.modules, "_glenmoor_speedups", speedups)
    passages = list(compiled_module_passages("_glenmoor_speedups", {"wind_speed": "glenmoor"}))
    assert [p.doc_id for p in passages] == ["stdlib:glenmoor.wind_speed"]
    assert passages[0].text.startswith("glenmoor.wind_speed(day): Return the strongest gust")


def test_a_dotted_name_in_the_query_puts_that_objects_own_entry_first(builtin):
    # plain BM25 ranks the sequence-types reference first: it says "list" and "sort" more often
    top = builtin.search("What does list.sort do?", 5)[0]
    assert top.doc_id.startswith("stdlib:list")
    assert top.body.startswith("list.sort(")

