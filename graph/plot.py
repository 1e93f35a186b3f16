"""The convergence curves (design §12) as a PNG: sources, new sources and open material gaps per round."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path
from typing import Any

TITLE_WIDTH_CHARS = 70  # about the width of the 7-inch figure at the title's font size
TITLE_MAX_LINES = 3  # a 4000-character question must not push the curves off the figure
DEFAULT_PLOT_NAME = "convergence.png"


def plot_path(target: Path | str, name: str = DEFAULT_PLOT_NAME) -> Path:
    """Where ``--plot TARGET`` writes: into TARGET as ``name`` when it is a folder, or names one with a trailing
    slash (``plots/``, made if missing), else TARGET itself (``.png`` added when it has no suffix, as matplotlib
    would do silently)."""
    names_a_folder = str(target).endswith(("/", os.sep))  # Path() drops the slash: look at the text first
    target = Path(target).expanduser()
    if names_a_folder or target.is_dir():
        return target / name
    if not target.suffix:
        return target.with_name(target.name + ".png")
    if target.suffix.lower() != ".png":
        raise ValueError(f"the plot is a PNG: give a folder or a file name ending in .png, not {target.name!r}")
    return target


def plot_file_name(thread_id: str) -> str:
    """A file name for a thread's plot that is safe on every file system."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", thread_id).strip("._") + "-convergence.png"


def convergence_figure(rounds: list[dict], title: str = "") -> Any:
    """The figure (matplotlib ``Figure``): counts on integer axes, the title wrapped, the legend below the curves.

    It draws on its own Agg canvas instead of pyplot, so it never switches the backend of a notebook or program
    that imported it.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("plotting needs matplotlib: pip install 'satiate[plot]'") from exc
    if not rounds:
        raise ValueError("the run has no finished round to plot yet")
    numbers = [row["round"] for row in rounds]
    figure = Figure(figsize=(7, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    left = figure.add_subplot()
    # clip_on=False: a point at 0 (no gaps left) is drawn whole, not cut in half by the axis frame
    left.plot(numbers, [row["sources"] for row in rounds], marker="o", label="sources", clip_on=False)
    left.plot(numbers, [row["new_sources"] for row in rounds], marker="s", label="new sources", clip_on=False)
    left.set_xlabel("round (synthesize + critic pass)")
    left.set_ylabel("sources")
    left.set_xticks(numbers)
    left.set_ylim(bottom=0)
    right = left.twinx()
    right.plot(numbers, [row["open_gaps"] for row in rounds], color="tab:red", marker="^", linestyle="--",
               label="open material gaps", clip_on=False)
    right.set_ylabel("open material gaps")
    right.set_ylim(bottom=0, top=max(1, *(row["open_gaps"] for row in rounds)) + 0.5)
    for axis in (left.yaxis, right.yaxis):  # counts: a tick at 0.25 gaps means nothing
        axis.set_major_locator(MaxNLocator(integer=True))
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    labels = left.get_legend_handles_labels()[1] + right.get_legend_handles_labels()[1]
    # below the axes, where it cannot cover the first rounds' points
    figure.legend(handles, labels, loc="outside lower center", ncols=len(labels), frameon=False)
    lines = textwrap.wrap(" ".join(title.split()), width=TITLE_WIDTH_CHARS, max_lines=TITLE_MAX_LINES,
                          placeholder=" …")
    left.set_title("\n".join(lines), fontsize="medium", parse_math=False)  # a "$5" in a question is not TeX
    return figure


def plot_rounds(rounds: list[dict], path: Path | str, title: str = "", name: str = DEFAULT_PLOT_NAME) -> Path:
    """Write the plot (needs matplotlib: ``pip install 'satiate[plot]'``) and return the file actually written:
    ``path/name`` when ``path`` is a folder."""
    target = plot_path(path, name)
    figure = convergence_figure(rounds, title)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target, dpi=110, format="png")
    return target
