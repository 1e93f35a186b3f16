"""The convergence curves of seed 003 §8 as a PNG: sources, new sources and open material gaps per round."""

from __future__ import annotations

from pathlib import Path


def plot_rounds(rounds: list[dict], path: Path, title: str = "") -> Path:
    """Write the plot; needs matplotlib (``pip install 'satiate[plot]'``).

    It draws on its own Agg canvas instead of pyplot, so it never switches the backend of a notebook or program
    that imported it.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("plotting needs matplotlib: pip install 'satiate[plot]'") from exc
    if not rounds:
        raise ValueError("the run has no finished round to plot yet")
    numbers = [row["round"] for row in rounds]
    figure = Figure(figsize=(7, 4))
    FigureCanvasAgg(figure)
    left = figure.add_subplot()
    left.plot(numbers, [row["sources"] for row in rounds], marker="o", label="sources")
    left.plot(numbers, [row["new_sources"] for row in rounds], marker="s", label="new sources")
    left.set_xlabel("round (synthesize + critic pass)")
    left.set_ylabel("sources")
    left.set_xticks(numbers)
    right = left.twinx()
    right.plot(numbers, [row["open_gaps"] for row in rounds], color="tab:red", marker="^", linestyle="--",
               label="open material gaps")
    right.set_ylabel("open material gaps")
    right.set_ylim(bottom=0)
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    labels = left.get_legend_handles_labels()[1] + right.get_legend_handles_labels()[1]
    left.legend(handles, labels, loc="upper left")
    left.set_title(title[:80])
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    return path
