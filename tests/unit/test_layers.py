"""Imports run one way: graph -> nodes -> engine -> tools -> state/prompts (docs/design.md §19). A module that
imports a layer above its own fails here, with the line that does it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each layer and the layers it may import (besides itself).
ALLOWED = {
    "graph": {"nodes", "engine", "tools", "state", "prompts"},
    "nodes": {"engine", "tools", "state", "prompts"},
    "engine": {"tools", "state", "prompts"},
    "tools": {"state", "prompts"},
    "state": set(),
    "prompts": set(),
}


def satiate_imports(path: Path) -> list[tuple[int, str]]:
    """(line, layer) for every import of a satiate layer in a module, lazy imports inside functions included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        for name in names:
            parts = name.split(".")
            if parts[0] == "satiate" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


def violations(root: Path) -> list[str]:
    wrong = []
    for layer, allowed in ALLOWED.items():
        for path in sorted((root / layer).rglob("*.py")):
            for line, imported in satiate_imports(path):
                if imported != layer and imported not in allowed:
                    wrong.append(f"{path.relative_to(root)}:{line} imports satiate.{imported}")
    return wrong


def test_every_import_runs_down_the_layers():
    assert violations(ROOT) == []


@pytest.mark.parametrize("layer, upward", [("tools", "engine"), ("nodes", "graph"), ("state", "tools")])
def test_an_upward_import_is_reported(tmp_path, layer, upward):
    for name in ALLOWED:
        (tmp_path / name).mkdir()
    (tmp_path / layer / "sneaky.py").write_text(f"def f():\n    from satiate.{upward}.x import y\n    return y\n")
    assert violations(tmp_path) == [f"{layer}/sneaky.py:2 imports satiate.{upward}"]
