"""The built wheel ships every package under the layer folders and the prompts, and none of tests/, bench/, notebooks/.

The folders sit at the top of the repository and are installed as ``satiate.<folder>`` (setup.py computes the list),
so a folder left out of the wheel would still import fine from a checkout and only break for people who install
satiate. The wheel is built offline (``pip wheel --no-build-isolation --no-index``) from a clean copy of the project:
setuptools puts all of ``build/lib`` into a wheel, so a stale ``build/`` in the work tree could hide a left-out folder.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "graph", "nodes", "prompts", "state", "tools")
NOT_SHIPPED = ("tests", "bench", "notebooks")
PACKAGING = ("pyproject.toml", "setup.py", "README.md")
SKIPPED_EVERYWHERE = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis"}
SKIPPED_AT_TOP = {"build", "dist", "venv", ".venv"}  # build output and virtual environments, not the project


def needs_build_tools() -> None:
    for module in ("pip", "setuptools"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: the wheel cannot be built offline")


def skip_junk(folder: str, names: list[str]) -> set[str]:
    """What a copy of the project leaves out: caches, build output, virtual environments, version control, data."""
    top = Path(folder).resolve() == ROOT
    skipped = {n for n in names if n in SKIPPED_EVERYWHERE or n.endswith((".egg-info", ".sqlite", ".sqlite-wal",
                                                                           ".sqlite-shm"))}
    if top:
        skipped |= {n for n in names if n in SKIPPED_AT_TOP or n.startswith(".")}
    if Path(folder).resolve() == ROOT / "bench":
        skipped.add("results")  # benchmark data and outputs (gitignored, possibly large)
    return skipped


def copy_project(destination: Path, names: Iterable[str] | None = None) -> Path:
    """A copy of the project (or of the named top-level entries) without caches and build output."""
    destination.mkdir(parents=True)
    if names is None:
        entries = [entry.name for entry in ROOT.iterdir()]
        names = sorted(set(entries) - skip_junk(str(ROOT), entries))
    for name in names:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=skip_junk)
        elif source.exists():
            shutil.copy2(source, destination / name)
    return destination


def build_wheel(project: Path, out: Path) -> Path:
    """Build the project's wheel the way pip does, offline, with the build tools of this environment."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
               "--disable-pip-version-check", "-q", "-w", str(out), str(project)]
    done = subprocess.run(command, check=False, cwd=project, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"building the wheel failed:\n{done.stdout}\n{done.stderr}"
    wheels = list(out.glob("satiate-*.whl"))
    assert len(wheels) == 1, f"expected one satiate wheel in {out}, found {wheels}"
    return wheels[0]


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def package_folders(root: Path) -> dict[str, list[str]]:
    """Every folder under the layer folders (at any depth) that holds .py files: its path -> those files."""
    folders: dict[str, list[str]] = {}
    for layer in LAYERS:
        for module in sorted((root / layer).rglob("*.py")):
            relative = module.relative_to(root)
            if any(part in SKIPPED_EVERYWHERE or part.startswith(".") for part in relative.parts):
                continue
            folders.setdefault(relative.parent.as_posix(), []).append(relative.as_posix())
    return folders


def wheel_problems(root: Path, names: set[str]) -> list[str]:
    """What is wrong with a wheel's file list for the project at ``root``: left-out folders, modules and prompts,
    and files that must not ship. Empty when the wheel is right."""
    problems: list[str] = []
    for folder, modules in package_folders(root).items():
        missing = [m for m in modules if f"satiate/{m}" not in names]
        if len(missing) == len(modules):
            problems.append(f"{folder}/ holds .py files but is not in the wheel as satiate/{folder}/ (a package "
                            "needs an __init__.py; setup.py installs every package under the layer folders)")
        elif missing:
            problems.append(f"{folder}/: modules missing from the wheel: {', '.join(missing)}")
    for prompt in sorted((root / "prompts").glob("*.md")):
        if f"satiate/prompts/{prompt.name}" not in names:
            problems.append(f"prompt file prompts/{prompt.name} is not in the wheel (package-data in pyproject.toml)")
    for layer in LAYERS:  # data a module reads at run time ("tools/lexicon/verbs.json") ships beside it
        for data in sorted((root / layer).rglob("*.json")):
            relative = data.relative_to(root).as_posix()
            if f"satiate/{relative}" not in names:
                problems.append(f"data file {relative} is not in the wheel (package-data in pyproject.toml)")
    for name in sorted(names):
        parts = name.split("/")
        if parts[0] in NOT_SHIPPED or (parts[0] == "satiate" and len(parts) > 1 and parts[1] in NOT_SHIPPED):
            problems.append(f"{name} is in the wheel, but {parts[-2] if len(parts) > 1 else name} must not ship")
    return problems


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of the project as it is in the work tree (tests/, bench/ and notebooks/ included in the copy)."""
    needs_build_tools()
    base = tmp_path_factory.mktemp("wheel")
    return build_wheel(copy_project(base / "project"), base / "dist")


def test_wheel_holds_every_layer_package_and_prompt_and_nothing_else(built: Path):
    names = wheel_names(built)
    assert wheel_problems(ROOT, names) == []
    installed = {n.split("/")[0] for n in names}
    metadata = {n for n in installed if n.endswith(".dist-info")}
    assert installed - metadata == {"satiate"} and len(metadata) == 1, f"only satiate/ and its metadata: {installed}"
    assert not {n.split("/")[1] for n in names if n.startswith("satiate/")} & set(NOT_SHIPPED)


def test_wheel_declares_the_satiate_command(built: Path):
    with zipfile.ZipFile(built) as archive:
        entry_points = next(archive.read(n).decode() for n in archive.namelist() if n.endswith("entry_points.txt"))
    assert "satiate = satiate.graph.cli:main" in entry_points


def test_the_check_names_a_folder_left_out_and_a_folder_that_must_not_ship(built: Path):
    names = wheel_names(built)
    without_search = {n for n in names if not n.startswith("satiate/tools/search/")}
    problems = wheel_problems(ROOT, without_search | {"satiate/tests/conftest.py"})
    assert any(p.startswith("tools/search/ holds .py files but is not in the wheel") for p in problems), problems
    assert any(p.startswith("satiate/tests/conftest.py is in the wheel") for p in problems), problems
    without_prompt = {n for n in names if n != "satiate/prompts/plan.md"}
    assert wheel_problems(ROOT, without_prompt) == [
        "prompt file prompts/plan.md is not in the wheel (package-data in pyproject.toml)"
    ]


def test_a_new_subfolder_is_packaged_without_editing_the_packaging(tmp_path: Path):
    """Packaging is computed (setup.py): a new package folder, at any depth, ships without touching a table."""
    needs_build_tools()
    project = copy_project(tmp_path / "project", [*PACKAGING, *LAYERS])
    (project / "tools" / "newpkg").mkdir()
    (project / "tools" / "newpkg" / "__init__.py").write_text('"""Added after the packaging was written."""\n')
    (project / "engine" / "newpkg" / "deeper").mkdir(parents=True)
    for folder in ("engine/newpkg", "engine/newpkg/deeper"):
        (project / folder / "__init__.py").write_text("")
    (project / "engine" / "newpkg" / "deeper" / "rule.py").write_text("LIMIT = 3\n")
    names = wheel_names(build_wheel(project, tmp_path / "dist"))
    assert {"satiate/tools/newpkg/__init__.py", "satiate/engine/newpkg/deeper/rule.py"} <= names
    assert wheel_problems(project, names) == []


def test_the_installed_wheel_imports_without_the_work_tree(built: Path, tmp_path: Path):
    """Installed on its own, every module of the wheel imports: nothing depends on a file only the checkout has.

    The wheel is installed into a fresh folder (``pip install --target``) and imported by an interpreter started
    with ``-I -S``: no site processing, so this environment's editable install of satiate is not seen; the installed
    dependencies are put on the path by hand. Every ``satiate`` module must come from the fresh folder.
    """
    target = tmp_path / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
               "-q", "--target", str(target), str(built)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"installing the wheel failed:\n{done.stdout}\n{done.stderr}"
    dependencies = list(dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib")))
    probe = """
import importlib, pkgutil, sys
target = sys.argv[1]
sys.path[:0] = sys.argv[1:]
import satiate
names = [m.name for m in pkgutil.walk_packages(satiate.__path__, "satiate.")]
failed = []
for name in names:
    try:
        module = importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
        continue
    if not module.__file__.startswith(target):
        failed.append(f"{name}: imported from {module.__file__}, not from the installed wheel")
from satiate.graph.cli import main
assert callable(main)
print(len(names))
print("\\n".join(failed))
"""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", probe, str(target), *dependencies],
                          check=False, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    count, *failed = done.stdout.strip().split("\n")
    assert [line for line in failed if line] == []
    assert int(count) == sum(1 for n in wheel_names(built) if n.startswith("satiate/") and n.endswith(".py"))
