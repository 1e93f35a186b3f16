"""The walkthrough notebook runs, headlessly, on the interpreter running the tests, so it cannot rot.

Its own cells assert what it shows (the replay repeats no search, the fork keeps at most three claims); this test
also checks that it drew the plot and printed the convergence table and the checkpoint history.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebook test needs the 'notebook' test extras")
nbclient = pytest.importorskip("nbclient", reason="the notebook test needs nbclient")
pytest.importorskip("ipykernel", reason="the notebook test needs ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "walkthrough.ipynb"
KERNEL_NAME = "satiate-test-python"
CELL_TIMEOUT_S = 180


def current_interpreter_kernel(root: Path) -> Path:
    """A kernelspec whose kernel is this very interpreter (not whatever 'python3' Jupyter finds first)."""
    spec_dir = root / "kernels" / KERNEL_NAME
    spec_dir.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "satiate tests", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    return root


def outputs_of(cell) -> list[dict]:
    return list(cell.get("outputs", []))


def text_of(cell) -> str:
    parts = []
    for output in outputs_of(cell):
        parts.append(output.get("text", ""))
        data = output.get("data", {})
        parts.append(data.get("text/markdown", ""))
        parts.append(data.get("text/plain", ""))
    return "".join(parts)


def test_walkthrough_notebook_executes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_PATH", str(current_interpreter_kernel(tmp_path / "jupyter")))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    temp_dir = tmp_path / "temp"  # the kernel's temporary directory: the notebook must leave nothing in it
    temp_dir.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp_dir))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(outputs_of(cell) for cell in notebook.cells if cell.cell_type == "code"), \
        "commit the notebook without outputs"

    client = nbclient.NotebookClient(notebook, kernel_name=KERNEL_NAME, timeout=CELL_TIMEOUT_S,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()

    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    everything = "".join(text_of(cell) for cell in code_cells)
    assert "| Round | Sources | New | Claims |" in everything  # the convergence table
    assert "| step | next | cycle | searches | sources |" in everything  # the checkpoint history
    assert "same answer, no new searches" in everything
    assert "fork:" in everything
    images = [output for cell in code_cells for output in outputs_of(cell) if "image/png" in output.get("data", {})]
    assert images, "the convergence plot was not drawn"
    assert "[bold]" not in everything  # progress lines were rendered, not printed as markup
    assert not list(temp_dir.glob("satiate-walkthrough-*")), "the notebook left its data folder behind"
