"""Render the multi-hop summary: a Markdown table with a column legend, and a PNG of recall against cost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.configs import BY_NAME
from bench.metrics import METRICS

TABLE_METRICS = ("recall", "all_gold", "recall_kstar", "bm25_same_k", "seen_recall", "cited_recall", "passages",
                 "searches", "search_rounds", "saturated_rounds", "cycles", "model_calls", "tokens", "wall_s",
                 "answered", "answer_found", "first_found", "short_em", "short_f1", "bold", "bold_right",
                 "bold_wrong", "abstained", "model_kept", "model_reanchored", "model_s_call",
                 "model_skipped")
HALF_METRICS = ("recall", "first_found", "short_em", "short_f1")
CURVE_ROWS = 0.1  # the printed risk-coverage table shows every tenth of the confidence scale


def label(config: str) -> str:
    """A configuration's label; a row added at run time (the web row of --web) shows its name."""
    return BY_NAME[config].label if config in BY_NAME else config


def cell(stats: dict | None, digits: int) -> str:
    if not stats:
        return "–"
    text = f"{stats['mean']:.{digits}f}"
    if stats["n_seeds"] > 1:
        text += f" ±{stats['sd']:.{digits}f}"
    return text


def overall_table(summary: dict, group: str = "all") -> list[str]:
    metrics = {m.name: m for m in METRICS}
    header = ["configuration", "seeds"] + [metrics[name].column for name in TABLE_METRICS]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" + "---:|" * (len(header) - 1)]
    for config, groups in summary.items():
        stats = groups.get(group, {})
        seeds = max((s["n_seeds"] for s in stats.values()), default=0)
        cells = [cell(stats.get(name), metrics[name].digits) for name in TABLE_METRICS]
        lines.append(f"| {label(config)} | {seeds} | " + " | ".join(cells) + " |")
    return lines


def halves_table(report: dict[str, Any]) -> list[str]:
    """Per configuration and half: evidence recall, first sentence, EM/F1 beside what the short answers commit to."""
    metrics = {m.name: m for m in METRICS}
    header = ["configuration", "half", "questions", *[metrics[n].column for n in HALF_METRICS], "coverage",
              "precision", "wrong bold", "right bold"]
    lines = ["| " + " | ".join(header) + " |", "|---|---|" + "---:|" * (len(header) - 2)]
    for config, halves in report.get("short_answers", {}).items():
        for half, short in halves.items():
            stats = report["summary"].get(config, {}).get(half, {})
            if not short:
                continue
            cells = [cell(stats.get(name), metrics[name].digits) for name in HALF_METRICS]
            lines.append(f"| {label(config)} | {half} | {short['questions']} | " + " | ".join(cells)
                         + f" | {short['coverage']:.3f} | {short['precision']:.3f} | {short['wrong_bold']:.3f} | "
                         f"{short['right_bold']:.3f} |")
    return lines


def risk_coverage_table(report: dict[str, Any]) -> list[str]:
    """Coverage / precision / wrong bold / right bold if every candidate at or above a confidence were committed."""
    lines: list[str] = []
    for config, halves in report.get("short_answers", {}).items():
        shown = [(half, short) for half, short in halves.items() if short and half != "all"]
        if not shown:
            continue
        header = ["threshold", *[f"{half}: cov / prec / wrong / right" for half, _ in shown]]
        lines += [f"{label(config)}:", "", "| " + " | ".join(header) + " |",
                  "|" + "---:|" * len(header)]
        every = max(1, round(CURVE_ROWS / (shown[0][1]["curve"][1]["threshold"] or CURVE_ROWS)))
        for at in range(0, len(shown[0][1]["curve"]), every):
            points = [short["curve"][at] for _, short in shown]
            lines.append(f"| {points[0]['threshold']:.2f} | " + " | ".join(
                f"{p['coverage']:.2f} / {p['precision']:.2f} / {p['wrong_bold']:.2f} / {p['right_bold']:.2f}"
                for p in points) + " |")
        lines.append("")
    return lines


def group_table(summary: dict, groups: dict[str, set[str]]) -> list[str]:
    names = [g for g in groups if g != "all"]
    header = ["configuration"] + [f"{g} (n={len(groups[g])})" for g in names]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" + "---:|" * len(names)]
    for config, by_group in summary.items():
        cells = []
        for group in names:
            stats = by_group.get(group, {})
            recall, gold, searches = stats.get("recall"), stats.get("all_gold"), stats.get("searches")
            cells.append(f"{recall['mean']:.2f} / {gold['mean']:.2f} / {searches['mean']:.0f}" if recall and gold
                         and searches else "–")
        lines.append(f"| {label(config)} | " + " | ".join(cells) + " |")
    return lines


def equal_budget_table(summary: dict, budgets: tuple[int, ...] = (10, 20, 40)) -> list[str]:
    """Reading-order recall against one-shot BM25 at the same k, per configuration, overall and per dataset."""
    groups = [g for g in next(iter(summary.values()), {}) if g == "all" or " " not in g]
    header = ["configuration", "questions"] + [f"r@{k} / BM25@{k} (Δ)" for k in budgets]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" + "---:|" * (len(header) - 1)]
    for config, by_group in summary.items():
        for group in groups:
            stats = by_group.get(group, {})
            if f"recall_at_{budgets[0]}" not in stats:
                continue
            cells = []
            for k in budgets:
                ours, theirs = stats[f"recall_at_{k}"]["mean"], stats[f"bm25_at_{k}"]["mean"]
                cells.append(f"{ours:.3f} / {theirs:.3f} ({100 * (ours - theirs):+.1f})")
            lines.append(f"| {label(config)} | {group} | " + " | ".join(cells) + " |")
    return lines


def markdown(report: dict[str, Any], groups: dict[str, set[str]]) -> str:
    summary = report["summary"]
    parts = [
        "# Multi-hop evidence benchmark",
        "",
        f"Command: `{report['command']}`  ",
        f"Questions: {report['questions']} ({report['selection']}); seeds: {report['seeds']}; engine: "
        f"`llm={report['base_settings']['llm']}`; git: {report['git']}; machine: {report['machine']['summary']}; "
        f"run took {report['elapsed_s']:.0f} s.",
        "",
        "## All questions",
        "",
        *overall_table(summary),
        "",
        "Mean over questions; `±` is the standard deviation of that mean across seeds (configurations that use ε).",
        "",
        "## Tuning and reporting halves",
        "",
        "The questions are split by the parity of their id's SHA-256 (`bench.data.half_of`): thresholds and rules are "
        "tuned on the tuning half; the reporting half is the honest estimate. Coverage: share of questions given a "
        "bold short answer; precision: share of those that are right (token F1 >= 0.5); wrong/right bold: shares "
        "of all questions (first seed).",
        "",
        *halves_table(report),
        "",
        "## Risk-coverage: short answers committed at each confidence threshold",
        "",
        *risk_coverage_table(report),
        "## Reading order against one-shot BM25 at equal k",
        "",
        "r@k: evidence recall of the first k passages the run read (all of them when it read fewer); BM25@k: the "
        "question as one BM25 query, top k; Δ in points.",
        "",
        *equal_budget_table(summary),
        "",
        "## By dataset and hop kind: recall / all-gold / searches",
        "",
        *group_table(summary, groups),
        "",
        "## Novelty gate decisions (every round of every run)",
        "",
        *[f"- {name}: {gate.get('saturated', 0)} of {gate.get('rounds', 0)} rounds judged saturated "
          f"({gate.get('runs_ended_saturated', 0)} runs ended on a saturated round); "
          f"{', '.join(f'{k} {v}' for k, v in gate['decisions'].items()) or 'none'}; scores "
          f"{', '.join(f'{k}:{v}' for k, v in gate['scores'].items())}"
          for name, gate in report.get("gate_decisions", {}).items()],
        "",
        "## Columns",
        "",
        *[f"- **{m.column}**: {m.meaning}." for m in METRICS],
        "",
        "## Configurations",
        "",
        *[f"- **{c['label']}** (`{c['name']}`, seeds {c['seeds']}): {c['how']}" for c in report["configurations"]],
        "",
        f"Base settings of every graph run: `{report['base_settings']}`.",
    ]
    if report.get("code_changed_during_run"):
        parts += ["", "**The code changed while this benchmark ran**: workers imported it at start, but the numbers "
                  "may mix versions. Run again on a quiet tree."]
    if report.get("failures"):
        parts += ["", f"**{len(report['failures'])} run(s) failed** (see summary.json `failures`)."]
    return "\n".join(parts) + "\n"


def plot(report: dict[str, Any], bm25_curve: list[float], path: Path) -> None:
    """Recall against searches (left) and against passages read with BM25's recall@k curve (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 6))
    markers = "soD^v<>pXh*"
    for number, (config, groups) in enumerate(report["summary"].items()):
        stats = groups.get("all", {})
        if "recall" not in stats:
            continue
        recall, searches, passages = stats["recall"], stats["searches"], stats["passages"]
        style = dict(fmt=markers[number % len(markers)], capsize=3, markersize=8, alpha=0.85,
                     color=f"C{number % 10}")
        left.errorbar(searches["mean"], recall["mean"], xerr=searches["sd"], yerr=recall["sd"],
                      label=label(config), **style)
        right.errorbar(passages["mean"], recall["mean"], xerr=passages["sd"], yerr=recall["sd"], **style)
    if bm25_curve:
        right.plot(range(1, len(bm25_curve) + 1), bm25_curve, color="grey", linewidth=1, label="one-shot BM25 recall@k")
    for config, curve in report.get("reading_curves", {}).items():
        if curve and config in report["summary"]:
            # the run's reading order as a recall@k curve (flat once a run stops reading)
            colour = f"C{list(report['summary']).index(config) % 10}"
            right.plot(range(1, len(curve) + 1), curve, color=colour, linewidth=1.2, linestyle="--",
                       label=f"{label(config)}: reading order recall@k")
    left.set_xlabel("searches per question (mean)")
    right.set_xlabel("passages read per question (mean); dotted: the equal budgets k = 10, 20, 40")
    recalls = [g["all"]["recall"]["mean"] for g in report["summary"].values() if "recall" in g.get("all", {})]
    # zoom in (the rows differ by points), but keep the curves visible from k = 5 on
    early = [curve[4] for curve in [bm25_curve, *report.get("reading_curves", {}).values()] if len(curve) > 4]
    floor = max(0.0, int((min(recalls + early, default=0.0) - 0.05) * 10) / 10)
    for budget in (10, 20, 40):
        if bm25_curve and budget <= len(bm25_curve):
            right.axvline(budget, color="grey", linewidth=0.6, linestyle=":")
    if bm25_curve:
        right.set_xlim(0, len(bm25_curve))
    for axis in (left, right):
        axis.set_ylabel("evidence recall")
        axis.set_ylim(floor, 1.0)
        axis.grid(alpha=0.3)
    right.legend(fontsize=8, loc="lower right")
    figure.legend(*left.get_legend_handles_labels(), loc="lower center", ncol=4, fontsize=8, frameon=False)
    figure.suptitle(f"Multi-hop evidence recall ({report['questions']} questions, "
                    f"llm={report['base_settings']['llm']})")
    figure.tight_layout(rect=(0, 0.1, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_outputs(out: Path, report: dict[str, Any], lines: list[str]) -> None:
    """Every benchmark's results: the JSON summary and the Markdown table in ``out``, the table on stdout."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (out / "table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
