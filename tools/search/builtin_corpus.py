"""The built-in offline corpus: Python's own documentation, which every machine that runs satiate already has.

Three sources, best first: the language reference (``pydoc_data.topics``, the text ``help("import")`` shows), the
standard library's docstrings (modules, functions, classes and their methods, read from the stdlib's ``.py`` files
with ``ast`` — nothing is imported, so no module's import-time side effects run — plus the C-implemented modules
such as ``itertools`` and ``builtins``, whose docstrings only exist at run time), and, ranked well below both, the
descriptions of the installed packages (satiate's own never: an agent that cites its README is citing itself).

It is indexed into FTS5 once per interpreter version (a few seconds) and answers when no corpus is given and the
web is off or not reachable, so satiate is useful on a machine with no network at all.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import re
import sys
import sysconfig
import warnings
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from satiate.tools.search.base import RawHit
from satiate.tools.search.fts_index import FtsIndex, Passage, Units, chunk_text
from satiate.tools.search.named_pages import named_pages
from satiate.tools.search.task_pages import task_pages

# Bump when what is extracted changes, so existing per-interpreter indexes are rebuilt once.
CORPUS_FORMAT = 5
MIN_DESCRIPTION_CHARS = 200
MIN_DOCSTRING_CHARS = 20
# Factors on BM25 scores per source: the language reference is the definition, docstrings are API notes, and a
# third-party README is last (measured on README-style questions; see tests/test_builtin_corpus.py).
RANK_WEIGHTS = {"pydoc-topics": 1.5, "stdlib": 1.0, "dist:": 0.4}
EXACT_WORD_BONUS = 0.5
SUBJECT_BONUS = 1.0  # a function's or class's own page, when the query names it, before pages that only mention it
SELF_DISTRIBUTION = __name__.split(".")[0]

PYTHON_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
DOCS_URL = f"https://docs.python.org/{PYTHON_VERSION}"

# Modules left out: import-time side effects (this, antigravity), GUIs and their demos, test suites, deprecated
# or generated code whose docstrings are noise (codecs tables, distutils, lib2to3), and what is indexed elsewhere.
SKIPPED_MODULES = frozenset({
    "__main__", "__phello__", "antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "test", "lib2to3",
    "ensurepip", "distutils", "encodings", "pydoc_data", "readline", "xxlimited", "xxlimited_35", "xxsubtype",
})
SKIPPED_PARTS = frozenset({"test", "tests", "idle_test", "_vendor"})
# Modules whose contents are documented under another name: the pure-Python twin of a public module, and the
# C module behind ``os``.
PUBLIC_NAME_OF = {"_collections_abc": "collections.abc", "_pyio": "io", "_pydecimal": "decimal",
                  "_pydatetime": "datetime", "_weakrefset": "weakref", "posix": "os", "nt": "os",
                  os.path.__name__: "os.path"}  # posixpath here (ntpath on Windows): documented as os.path

# pydoc topic label -> the documentation page that holds it (Sphinx labels are also the anchors on those pages).
TOPIC_PAGES = {
    "reference/simple_stmts": "assert assignment augassign break continue del global import nonlocal pass raise "
                              "return yield",
    "reference/compound_stmts": "async class compound else for function if try while with",
    "reference/expressions": "atom-identifiers atom-literals attribute-references await binary bitwise booleans calls "
                             "comparisons conversions dict exprlists in lambda lists operator-summary power shifting "
                             "slicings subscriptions unary",
    "reference/datamodel": "attribute-access callable-types context-managers customization numeric-types objects "
                           "sequence-types specialnames types",
    "reference/lexical_analysis": "floating id-classes identifiers imaginary integers numbers strings",
    "reference/executionmodel": "dynamic-features exceptions execmodel naming",
    "library/stdtypes": "bltin-code-objects bltin-ellipsis-object bltin-null-object bltin-type-objects specialattrs "
                        "string-methods truth typesfunctions typesmapping typesmethods typesmodules typesseq "
                        "typesseq-mutable",
    "library/string": "formatstrings",
    "library/pdb": "debugger",
}
_PAGE_OF_TOPIC = {label: page for page, labels in TOPIC_PAGES.items() for label in labels.split()}


def document_passages(doc_id: str, title: str, url: str, text: str) -> list[Passage]:
    """One passage per chunk of ``text``; chunks of one document share its URL (which may carry an anchor)."""
    chunks = chunk_text(text)
    if len(chunks) == 1:
        return [Passage(doc_id, title, url, chunks[0])]
    return [Passage(f"{doc_id}#p{n}", title, url, chunk) for n, chunk in enumerate(chunks, 1)]


# --- the language reference ---------------------------------------------------------------------------------------
def _topic_title(name: str, text: str) -> str:
    first = text.strip().splitlines()[0].strip() if text.strip() else name
    return first if 3 < len(first) < 90 else name.replace("-", " ")


def topic_url(name: str) -> str:
    page = _PAGE_OF_TOPIC.get(name)
    return f"{DOCS_URL}/{page}.html#{name}" if page else f"{DOCS_URL}/search.html?q={name}"


_UNDERLINE = re.compile(r"^([-=*~^\"'+#])\1{2,}$")


def topic_sections(text: str) -> list[tuple[str, str]]:
    """A topic split at its reST-style headings (a line underlined with ``---``, ``***``, ...): (heading, body)."""
    lines = text.strip().splitlines()
    sections: list[tuple[str, list[str]]] = [("", [])]
    position = 0
    while position < len(lines):
        line = lines[position]
        underline = lines[position + 1].strip() if position + 1 < len(lines) else ""
        if line.strip() and _UNDERLINE.match(underline) and len(underline) >= len(line.strip()) * 0.8:
            sections.append((line.strip(), []))
            position += 2
            continue
        sections[-1][1].append(line)
        position += 1
    return [(heading, "\n".join(body).strip()) for heading, body in sections if "\n".join(body).strip()]


def pydoc_topics() -> Iterator[Passage]:
    """The language reference as ``help()`` has it, one document per section, so "Generator functions" is a title."""
    from pydoc_data.topics import topics

    seen_bodies: set[str] = set()
    # Shortest first: 'compound' repeats 'if', 'with', ... and 'specialnames' repeats 'customization'; the section
    # is kept once, under its own topic.
    for name, text in sorted(topics.items(), key=lambda item: (len(item[1]), item[0])):
        kind = "Python stdlib" if _PAGE_OF_TOPIC.get(name, "").startswith("library/") else "Python language reference"
        topic_title = _topic_title(name, text)
        for number, (heading, body) in enumerate(topic_sections(text)):
            if body in seen_bodies:
                continue
            seen_bodies.add(body)
            subsection = heading and heading != topic_title
            title = f"{kind}: {topic_title}" + (f" — {heading}" if subsection else "")
            url = topic_url(name)
            if subsection and name in _PAGE_OF_TOPIC:  # Sphinx's section id: the heading, slugged
                url = url.rsplit("#", 1)[0] + "#" + (re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-") or name)
            yield from document_passages(f"python:{name}" + (f"/{number}" if number else ""), title, url, body)


# --- the standard library's docstrings ------------------------------------------------------------------------------
def library_url(module: str, anchor: str) -> str:
    """pydoc's convention for a stdlib module's page (``library/<module lower>.html``), with a Sphinx anchor."""
    if module == "builtins":
        exception = anchor[:1].isupper() and anchor.endswith(("Error", "Exception", "Warning"))
        page = "exceptions" if exception else "functions"
        return f"{DOCS_URL}/library/{page}.html#{anchor.removeprefix('builtins.')}"
    return f"{DOCS_URL}/library/{module.lower()}.html#{anchor}"


def _summary(doc: str) -> str:
    first = doc.strip().splitlines()[0].strip().rstrip(".") if doc.strip() else ""
    return first if len(first) <= 80 else ""


def module_document(module: str, doc: str) -> list[Passage]:
    summary = _summary(doc)
    title = f"Python stdlib: {module} module" + (f" — {summary}" if summary else "")
    return document_passages(f"stdlib:{module}", title, library_url(module, f"module-{module}"), doc)


def member_document(module: str, name: str, signature: str, doc: str,
                    methods: list[tuple[str, str, str]]) -> list[Passage]:
    """A function's or class's document: its signature and docstring, then its public methods' (``Class.method``)."""
    qualified = name if module == "builtins" else f"{module}.{name}"
    label = "Python built-in" if module == "builtins" else "Python stdlib"
    parts = [f"{qualified}{signature}: {doc}"]  # the signature and the summary line read as one sentence
    parts += [f"{name}.{method}{method_signature}: {method_doc}" for method, method_signature, method_doc in methods]
    return document_passages(f"stdlib:{qualified}", f"{label}: {qualified}", library_url(module, qualified),
                             "\n\n".join(parts))


def stdlib_root() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def _public(name: str) -> bool:
    return not name.startswith("_")


def stdlib_source_files(root: Path | None = None) -> Iterator[tuple[str, Path]]:
    """(module name, file) of the stdlib's pure-Python modules, packages walked, test code left out. A package's
    private submodules are included: ``concurrent.futures._base`` holds what ``concurrent.futures`` documents."""
    root = root or stdlib_root()
    for name in sorted(sys.stdlib_module_names):
        if name in SKIPPED_MODULES or not (_public(name) or name in PUBLIC_NAME_OF):
            continue
        package = root / name
        if (package / "__init__.py").is_file():
            for path in sorted(package.rglob("*.py")):
                parts = list(path.relative_to(root).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                if any(part in SKIPPED_PARTS for part in parts[1:]):
                    continue
                yield ".".join(parts), path
        elif (root / f"{name}.py").is_file():
            yield name, root / f"{name}.py"


def package_reexports(package: str, tree: ast.Module) -> dict[str, set[str] | None]:
    """Submodule -> the names a package's ``__init__`` imports from it (None: ``from .tasks import *``). Those names
    are documented under the package: ``asyncio.gather``, not ``asyncio.tasks.gather``. A package with a literal
    ``__all__`` lifts only what it lists (``importlib.metadata`` imports helpers it does not export)."""
    exported = _exported_names(tree)
    found: dict[str, set[str] | None] = {}
    for node in tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level <= 1):
            continue
        submodule = f"{package}.{node.module}" if node.level else node.module  # from .x / from package.x
        if not submodule.startswith(f"{package}."):
            continue
        names = found.setdefault(submodule, set())
        if names is None or any(alias.name == "*" for alias in node.names):
            found[submodule] = None
        else:
            names.update(alias.name for alias in node.names if alias.asname is None)
    if exported is not None:
        return {submodule: set(exported) if names is None else names & exported for submodule, names in found.items()}
    return found


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """A module's top-level statements, including those inside top-level ``if``/``try`` blocks, where modules
    define platform variants and extend ``__all__``."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.If):
            pending[:0] = [*node.body, *node.orelse]
        elif isinstance(node, ast.Try):
            pending[:0] = [*node.body, *(s for h in node.handlers for s in h.body), *node.orelse, *node.finalbody]
        else:
            yield node


def _names_in(value: ast.expr) -> set[str] | None:
    try:
        return {str(name) for name in ast.literal_eval(value)}
    except (ValueError, TypeError, SyntaxError):
        return None


def _is_all(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "__all__"


def _exported_names(tree: ast.Module) -> set[str] | None:
    """The module's literal ``__all__``, when it has one (it says which names are the documented API), with what
    ``__all__ += [...]``, ``__all__.extend([...])`` and ``__all__.append(...)`` add to it."""
    exported: set[str] | None = None
    for node in _top_level(tree):
        if isinstance(node, ast.Assign) and any(_is_all(target) for target in node.targets):
            exported = _names_in(node.value)
            if exported is None:
                return None
        elif exported is not None and isinstance(node, ast.AugAssign) and _is_all(node.target):
            exported |= _names_in(node.value) or set()
        elif (exported is not None and isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Attribute) and _is_all(node.value.func.value)
              and node.value.args):
            if node.value.func.attr == "extend":
                exported |= _names_in(node.value.args[0]) or set()
            elif node.value.func.attr == "append":
                exported |= _names_in(ast.Tuple([node.value.args[0]], ast.Load())) or set()
    return exported


def _module_doc(tree: ast.Module) -> str:
    """The module's docstring, or the string it assigns to ``__doc__`` (some stdlib modules do)."""
    doc = ast.get_docstring(tree)
    if doc:
        return doc
    for node in tree.body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__doc__" for t in node.targets)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return inspect.cleandoc(node.value.value)
    return ""


def _arguments(node: ast.FunctionDef | ast.AsyncFunctionDef, drop_self: bool) -> str:
    arguments = node.args
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if drop_self and not static and (arguments.posonlyargs or arguments.args):
        arguments = copy.copy(arguments)
        if arguments.posonlyargs:
            arguments.posonlyargs = arguments.posonlyargs[1:]
        else:
            arguments.args = arguments.args[1:]
    try:
        return f"({ast.unparse(arguments)})"
    except Exception:  # an exotic default that does not unparse: the name alone still documents it
        return "()"


def _class_parts(node: ast.ClassDef) -> tuple[str, str, list[tuple[str, str, str]]]:
    """A class's constructor signature, its docstring (else its ``__init__``'s) and its public methods."""
    signature, doc = "", ast.get_docstring(node) or ""
    methods: list[tuple[str, str, str]] = []
    for item in node.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if item.name == "__init__":
            signature = _arguments(item, drop_self=True)
            doc = doc or ast.get_docstring(item) or ""
        elif _public(item.name):
            method_doc = ast.get_docstring(item) or ""
            if len(method_doc) >= MIN_DOCSTRING_CHARS:
                methods.append((item.name, _arguments(item, drop_self=True), method_doc))
    return signature, doc, methods


def source_module_passages(module: str, tree: ast.Module,
                           lifted: AbstractSet[str] | None = frozenset()) -> Iterator[Passage]:
    """Docstrings of one stdlib source file, read with ``ast`` (the module is never imported). Names in ``lifted``
    (None: every exported name) are documented under the package that re-exports them; the rest of a private
    module is not documented at all."""
    public = all(_public(part) for part in module.split("."))
    package = module.rsplit(".", 1)[0]
    doc = _module_doc(tree)
    if public and doc and len(doc) >= MIN_DOCSTRING_CHARS:
        yield from module_document(module, doc)
    exported = _exported_names(tree)
    defined: set[str] = set()
    for node in _top_level(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if not _public(node.name) or (exported is not None and node.name not in exported) or node.name in defined:
            continue
        defined.add(node.name)  # a platform variant defined twice is documented once, by its first definition
        home = package if lifted is None or node.name in lifted else module
        if not all(_public(part) for part in home.split(".")):
            continue
        if isinstance(node, ast.ClassDef):
            signature, doc, methods = _class_parts(node)
        else:
            signature, doc, methods = _arguments(node, drop_self=False), ast.get_docstring(node) or "", []
        if len(doc) >= MIN_DOCSTRING_CHARS or methods:
            yield from member_document(home, node.name, signature, doc, methods)


def _runtime_signature(member: Any, drop_self: bool = False) -> str:
    try:
        signature = inspect.signature(member)
    except (TypeError, ValueError):
        return ""
    parameters = list(signature.parameters.values())
    if drop_self and parameters and parameters[0].name in ("self", "cls"):
        signature = signature.replace(parameters=parameters[1:])
    return str(signature)


def _runtime_methods(cls: type) -> list[tuple[str, str, str]]:
    methods = []
    for name, member in vars(cls).items():
        doc = inspect.getdoc(member) if _public(name) and callable(member) else None
        if doc and len(doc) >= MIN_DOCSTRING_CHARS:
            methods.append((name, _runtime_signature(member, drop_self=True), doc))
    return methods


def compiled_modules() -> Iterator[str]:
    """Stdlib modules with no Python source (built into the interpreter or a C extension), safe to import."""
    root = stdlib_root()
    for name in sorted(sys.stdlib_module_names):
        if name in SKIPPED_MODULES or "test" in name or name.startswith(("_xx", "_tkinter")):
            continue
        if (root / f"{name}.py").is_file() or (root / name / "__init__.py").is_file():
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is not None and (spec.origin == "built-in" or str(spec.origin or "").endswith((".so", ".pyd"))):
            yield name


def _public_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names and all(_public(part) for part in module.split("."))


def private_imports(module: str, tree: ast.Module) -> dict[str, dict[str, str]]:
    """Private module -> {name: ``module``} for each public name a public module imports from a private one
    (``from _speedups import parse``): the private module implements it, the public one documents it."""
    found: dict[str, dict[str, str]] = {}
    if not all(_public(part) for part in module.split(".")):
        return found
    exported = _exported_names(tree)
    for node in _top_level(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and not _public(node.module):
            for alias in node.names:
                if alias.asname is None and _public(alias.name) and (exported is None or alias.name in exported):
                    found.setdefault(node.module, {}).setdefault(alias.name, module)
    return found


def compiled_module_passages(name: str, documented_by: Mapping[str, str] | None = None) -> Iterator[Passage]:
    """Docstrings of one C-implemented module, read at run time. A public module documents what it defines; a
    private one (``_collections``) documents what it implements for a public one (``collections.deque``), or what
    a public module imports from it (``documented_by``: name -> that module)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated modules (audioop, crypt, ...) warn on import
        module = importlib.import_module(name)
    doc = inspect.getdoc(module) or ""
    if _public(name) and len(doc) >= MIN_DOCSTRING_CHARS:
        yield from module_document(name, doc)
    for member_name, member in sorted(vars(module).items()):
        if not _public(member_name) or not (inspect.isclass(member) or inspect.isroutine(member)):
            continue
        home = getattr(member, "__module__", None) or name
        if home == name and not _public(name) and member_name in (documented_by or {}):
            home = (documented_by or {})[member_name]
        elif not (home == name if _public(name) else home != name and _public_stdlib(home)):
            continue  # re-exported from elsewhere: documented at home
        home = PUBLIC_NAME_OF.get(home, home)
        member_doc = inspect.getdoc(member) or ""
        methods = _runtime_methods(member) if inspect.isclass(member) else []
        if len(member_doc) >= MIN_DOCSTRING_CHARS or methods:
            yield from member_document(home, member_name, _runtime_signature(member), member_doc, methods)


def _parsed(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError, OSError, RecursionError):
        return None


def stdlib_passages() -> Iterator[Passage]:
    """Every stdlib docstring worth reading; a module that fails to parse or import is skipped, not fatal."""
    files = [(PUBLIC_NAME_OF.get(module, module), path) for module, path in stdlib_source_files()]
    reexported: dict[str, set[str] | None] = {}  # submodule -> names its package documents
    for module, path in files:
        tree = _parsed(path) if path.name == "__init__.py" else None
        if tree is not None:
            reexported.update(package_reexports(module, tree))
    documented_by: dict[str, dict[str, str]] = {}  # private compiled module -> {name: public module importing it}
    for module, path in files:
        tree = _parsed(path)
        if tree is not None:
            yield from source_module_passages(module, tree, reexported.get(module, frozenset()))
            for private, names in private_imports(module, tree).items():
                for member_name, public in names.items():
                    documented_by.setdefault(private, {}).setdefault(member_name, public)
    for name in compiled_modules():
        try:
            yield from compiled_module_passages(name, documented_by.get(name))
        except Exception:  # an extension that cannot load here (a missing system library) is simply absent
            continue


# --- installed packages, ranked last ---------------------------------------------------------------------------------
def _metadata(distribution: importlib.metadata.Distribution) -> Any:
    """A distribution's metadata: an email message, whose ``get`` the PackageMetadata protocol does not declare."""
    return distribution.metadata


def _description(distribution: importlib.metadata.Distribution) -> str:
    metadata = _metadata(distribution)
    body = metadata.get_payload() if hasattr(metadata, "get_payload") else ""
    return (body or metadata.get("Description") or "").strip()


def distributions() -> dict[str, importlib.metadata.Distribution]:
    """Installed distributions by lower-case name, satiate's own left out."""
    found: dict[str, importlib.metadata.Distribution] = {}
    for distribution in importlib.metadata.distributions():
        name = (_metadata(distribution).get("Name") or "").strip()
        if name and name.lower() != SELF_DISTRIBUTION and name.lower() not in found:
            found[name.lower()] = distribution
    return found


def distribution_passages(name: str, distribution: importlib.metadata.Distribution) -> Iterator[Passage]:
    text = _description(distribution)
    text = re.sub(r"<[^>]{1,200}>", " ", text)  # drop inline HTML tags that some READMEs carry
    if len(text) < MIN_DESCRIPTION_CHARS:
        return
    summary = _metadata(distribution).get("Summary") or ""
    title = f"{_metadata(distribution).get('Name', name)}: {summary}".strip(": ")
    yield from document_passages(f"pypi:{name}", title[:120], f"https://pypi.org/project/{name}/", text)


def builtin_index_path(data_dir: Path) -> Path:
    """The index file, one per interpreter version (its documentation is the interpreter's)."""
    return data_dir / "corpora" / f"builtin-python{PYTHON_VERSION}.sqlite"


class BuiltinCorpusBackend:
    """Python's reference and stdlib documentation, then installed packages' descriptions, in a per-interpreter
    FTS5 index."""

    name = "builtin"
    description = ("built-in offline corpus: Python's language reference and standard library docs; installed "
                   "packages' descriptions rank last")

    def __init__(self, data_dir: Path) -> None:
        self.index = FtsIndex(builtin_index_path(data_dir))
        python_docs = f"{sys.version} format {CORPUS_FORMAT}"
        said: list[bool] = []

        def announced(loader: Any) -> Any:
            """The loader, saying first (once) that the seconds-long index of Python's docs is being built: the
            first run on a machine would otherwise sit silent. An index already built calls no loader."""
            def load() -> Iterator[Passage]:
                if not said:
                    said.append(True)
                    print(f"indexing the built-in corpus (Python {PYTHON_VERSION}'s documentation, once; a few "
                          f"seconds) into {builtin_index_path(data_dir)}", file=sys.stderr, flush=True)
                yield from loader()

            return load

        units: Units = {
            "pydoc-topics": (python_docs, announced(pydoc_topics)),
            "stdlib": (python_docs, announced(stdlib_passages)),
        }
        for name, distribution in distributions().items():
            version_text = f"{_metadata(distribution).get('Version') or '?'} format {CORPUS_FORMAT}"
            units[f"dist:{name}"] = (version_text, functools.partial(distribution_passages, name, distribution))
        self.reindexed = self.index.sync(units)

    def search(self, query: str, max_results: int) -> list[RawHit]:
        """BM25 with source weights, after the own page of each object the query names (``pkg.func``) and, for a
        how-to question, the pages whose name and summary do its task (``task_pages``)."""
        ranked = self.index.search(query, max_results, unit_weights=RANK_WEIGHTS, exact_bonus=EXACT_WORD_BONUS,
                                   subject_bonus=SUBJECT_BONUS)
        pinned = list({hit.doc_id: hit for hit in [*named_pages(self.index.path, query),
                                                   *task_pages(self.index.path, query)]}.values())
        pinned_ids = {hit.doc_id for hit in pinned}
        return [*pinned, *(hit for hit in ranked if hit.doc_id not in pinned_ids)][:max_results]

    def close(self) -> None:
        self.index.close()
