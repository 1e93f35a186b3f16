"""``bench.multihop --web``: the same questions through the web path, against the loopback stand-in (web_standin).

The web row runs the real graph with the SearXNG backend alone, pointed at the stand-in: every source is a page the
real fetcher fetched from 127.0.0.1 and the real extractor read out of its chrome. Its page URLs are mapped back to
the corpus' doc ids, so recall and answers are scored exactly as the local-corpus row beside it is.

The web row runs without the search cache and page store (``cache_ttl_s`` 0): the stand-in's port changes every run,
and the row measures fetching, not the store. Halves: a question's half is the parity of sha256(qid) (even: tuning,
odd: held out), so a figure tuned on one half can be checked on the other.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

from bench.configs import FULL, Configuration
from bench.web_standin import WebStandin

WEB = "satiate_web"
PAGE_ROUTE = "/page/"
ID_LISTS = ("read", "seen", "cited")


def web_configuration(standin: WebStandin) -> Configuration:
    """The full loop with the stand-in as its only (web) backend; the bench's corpus is not searched."""
    return Configuration(
        WEB, "satiate full loop, web path (loopback SearXNG stand-in)",
        "backends=searxng at the stand-in, corpus unset: BM25 hits come back as ~200-character snippets, the "
        "enrichment gate and reading budget pick the pages, the fetcher reads each page (SSRF guard lifted for "
        "loopback only: allow_private_addresses) and the extractor drops its chrome; no search cache or page store.",
        {"backends": ["searxng"], "corpus": None, "searxng_url": standin.base_url, "allow_private_addresses": True,
         "offline": False, "cache_ttl_s": 0},
        uses_epsilon=True,
    )


def doc_id_of(identifier: str) -> str:
    """The corpus doc id behind a stand-in page's URL or canonical key; any other identifier as it is."""
    _, route, rest = identifier.partition(PAGE_ROUTE)
    return unquote(rest) if route else identifier


def as_doc_ids(record: dict) -> dict:
    """A web run's record with its page URLs turned into doc ids (reading order and duplicates kept as they are)."""
    if "failure" in record:
        return record
    mapped: dict[str, list] = {name: [doc_id_of(i) for i in record.get(name, [])] for name in ID_LISTS}
    mapped["chrome_found"] = [[doc_id_of(i), marker] for i, marker in record.get("chrome_found", [])]
    for query in record.get("queries", []) or []:
        for name in ("hit_ids", "passed_ids"):
            if name in query:
                query[name] = [doc_id_of(i) for i in query[name]]
    return {**record, **mapped}


def half(qid: str) -> str:
    return "tuning" if int(hashlib.sha256(qid.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "held-out"


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [float(v) for v in values if v is not None]
    return round(statistics.fmean(kept), 3) if kept else None


def chrome_leaks(row: dict, passages: dict[str, tuple[str, str]]) -> int:
    """Chrome markers found in a run's cited web sources that are not words of the passage itself."""
    return sum(1 for doc_id, marker in row.get("chrome_found", [])
               if marker.lower() not in " ".join(passages.get(doc_id, ("", ""))).lower())


def web_summary(rows: list[dict], failures: list[dict], passages: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """Per configuration (the local full loop and the web row) and half: recall, answers, pages, seconds a question,
    and chrome leaks (page chrome or hidden text found in a cited source: 0 when the extractor did its job)."""
    summary: dict[str, Any] = {}
    for config in (FULL, WEB):
        runs = [r for r in rows if r["config"] == config]
        if not runs:
            continue
        summary[config] = {}
        for name in ("all", "tuning", "held-out"):
            chosen = [r for r in runs if name == "all" or half(r["qid"]) == name]
            if not chosen:
                continue
            pages = [r.get("pages") or {} for r in chosen]
            summary[config][name] = {
                "runs": len(chosen),
                "recall": _mean(r["metrics"]["recall"] for r in chosen),
                "all_gold": _mean(r["metrics"]["all_gold"] for r in chosen),
                "answer_found": _mean(r["metrics"].get("answer_found") for r in chosen),
                "short_em": _mean(r["metrics"].get("short_em") for r in chosen),
                "passages": _mean(len(r["read"]) for r in chosen),
                "pages_fetched": _mean(p.get("fetched", 0) for p in pages),
                "pages_skipped_covered": _mean(p.get("skipped_covered", 0) for p in pages),
                "pages_skipped_budget": _mean(p.get("skipped_budget", 0) for p in pages),
                "pages_failed": _mean(p.get("failed", 0) + p.get("unreadable", 0) for p in pages),
                "seconds": _mean(r["wall_s"] for r in chosen),
                "chrome_leaks": sum(chrome_leaks(r, passages) for r in chosen),
            }
        summary[config]["failures"] = sum(1 for f in failures if f["config"] == config)
    return summary


COLUMNS = (("recall", "recall"), ("all_gold", "all-gold"), ("answer_found", "found"), ("short_em", "short EM"),
           ("passages", "read"), ("pages_fetched", "pages fetched"), ("pages_skipped_covered", "skipped: covered"),
           ("pages_skipped_budget", "skipped: budget"), ("pages_failed", "failed"), ("seconds", "s / question"),
           ("chrome_leaks", "chrome leaks"))


def web_table(summary: dict[str, Any]) -> str:
    """The local-corpus row and the web row side by side, per half (means over runs)."""
    lines = ["| row | half | runs | " + " | ".join(label for _, label in COLUMNS) + " |",
             "|---|---|---:|" + "---:|" * len(COLUMNS)]
    for config, halves in summary.items():
        for name, values in halves.items():
            if name == "failures":
                continue
            cells = ["–" if values[key] is None else f"{values[key]:g}" for key, _ in COLUMNS]
            lines.append(f"| {config} | {name} | {values['runs']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
