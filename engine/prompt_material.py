"""What a model prompt shows: source digests, query lists and results fitted to the context window.

Pure helpers of the model engine. Each decides how much of the state a prompt can quote within ``num_ctx`` and
how to normalise what a model sends back (angles, source ids, integers), so they can be tested without a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from satiate.engine.base import ResearchView
from satiate.prompts.loader import quote_data
from satiate.state.records import Hit, SearchRecord, SourceRecord, source_number
from satiate.tools.llm.structured import OutputInvalid
from satiate.tools.text import content_terms, truncate, unique

KNOWN_ANGLES = ("question", "entity", "time_window", "source_type", "counter_argument", "breadcrumb", "gap")
# Prompt room, not the ``min_source_chars`` setting (which decides whether read text is a source at all): a source
# that cannot be quoted with at least this many characters is shown as a handle (id, title, opening words) instead.
MIN_QUOTED_CHARS = 300
HANDLE_TEXT_CHARS = 120  # the opening words kept on a handle


@dataclass(frozen=True)
class Prompt:
    messages: list
    truncations: int = 0


def _untitled(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _untitled(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_untitled(v) for v in node]
    return node


def schema_text(schema: type[BaseModel]) -> str:
    """The JSON schema as the prompt spells it out (titles dropped: they cost tokens and say nothing new)."""
    return json.dumps(_untitled(schema.model_json_schema()), separators=(",", ":"))


def room_left(budget: int, template: Any, *fixed: str) -> int:
    """Characters left for a prompt's variable data once its own text and the fixed values are placed."""
    return max(0, budget - len(template.system) - len(template.user) - sum(len(f) for f in fixed))


def water_fill(lengths: Sequence[int], budget: int) -> list[int]:
    """Share ``budget`` characters among texts: short texts take what they need, the rest split what is left."""
    allotted = [0] * len(lengths)
    remaining = max(0, budget)
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    for position, index in enumerate(order):
        share = remaining // (len(order) - position)
        allotted[index] = min(lengths[index], share)
        remaining -= allotted[index]
    return allotted


def rank_sources(sources: Sequence[SourceRecord], focus: str) -> list[SourceRecord]:
    """Sources by how many of the focus text's terms they contain, newest first among equals."""
    focus_terms = set(content_terms(focus))

    def score(source: SourceRecord) -> tuple[int, int]:
        terms = set(content_terms(source["title"] + " " + source["text"][:4000]))
        return (-len(terms & focus_terms), -source_number(source["id"]))

    return sorted(sources, key=score)


@dataclass(frozen=True)
class Digest:
    text: str
    shown_ids: list[str]
    truncations: int


def source_digest(sources: Sequence[SourceRecord], focus: str, char_budget: int) -> Digest:
    """The sources as quoted ``<source>`` elements within ``char_budget`` characters (see the module docstring)."""
    if not sources:
        return Digest("<sources>\n(no sources)\n</sources>", [], 0)
    ranked = rank_sources(sources, focus)
    overhead = [len(quote_data("", "source", id=s["id"], title=s["title"][:120])) + 1 for s in ranked]
    full = [len(s["text"]) for s in ranked]
    # How many sources can get real text: the largest k whose minimum room fits beside handles for the rest.
    handle_cost = [o + HANDLE_TEXT_CHARS for o in overhead]
    with_text = len(ranked)
    while with_text > 0:
        need = sum(overhead[:with_text]) + MIN_QUOTED_CHARS * with_text + sum(handle_cost[with_text:])
        if need <= char_budget:
            break
        with_text -= 1
    room = char_budget - sum(overhead[:with_text]) - sum(handle_cost[with_text:])
    allotted = water_fill(full[:with_text], room)
    entries: dict[str, str] = {}
    truncations = 0
    for source, chars in zip(ranked[:with_text], allotted):
        text = source["text"] if chars >= len(source["text"]) else truncate(source["text"], chars)
        truncations += text != source["text"]
        entries[source["id"]] = quote_data(text, "source", id=source["id"], title=source["title"][:120])
    used = sum(len(e) + 1 for e in entries.values())
    for source in ranked[with_text:]:
        handle = quote_data(truncate(source["text"], HANDLE_TEXT_CHARS), "source", id=source["id"],
                            title=source["title"][:120])
        truncations += 1
        if used + len(handle) + 1 > char_budget:
            continue  # not even a handle fits: left out, and counted
        entries[source["id"]] = handle
        used += len(handle) + 1
    ordered = [s for s in sources if s["id"] in entries]
    body = "\n".join(entries[s["id"]] for s in ordered)
    return Digest(f"<sources>\n{body}\n</sources>", [s["id"] for s in ordered], truncations)


def fit_lines(lines: Sequence[str], char_budget: int, keep: str = "last") -> tuple[str, int]:
    """Join lines within a character budget, keeping the first or the last ones; also how many were dropped."""
    chosen: list[str] = []
    used = 0
    ordered = list(reversed(lines)) if keep == "last" else list(lines)
    for line in ordered:
        if used + len(line) + 1 > char_budget:
            break
        chosen.append(line)
        used += len(line) + 1
    if keep == "last":
        chosen.reverse()
    return "\n".join(chosen), len(lines) - len(chosen)


def normalize_angle(angle: str) -> str:
    squashed = re.sub(r"[^a-z]", "", angle.lower())
    for known in KNOWN_ANGLES:
        if squashed == known.replace("_", "") or (len(squashed) > 4 and squashed in known.replace("_", "")):
            return known
    if "counter" in squashed or "critic" in squashed:
        return "counter_argument"
    return "question"


def first_integer(text: str) -> int:
    match = re.search(r"-?\d+", text)
    if not match:
        raise OutputInvalid(f"the reply holds no integer score: {text[:60]!r}")
    return int(match.group())


def bullet_summary(text: str, max_chars: int) -> str:
    """The compressor's answer as '- ' bullet lines within the character cap (whole lines kept where possible)."""
    lines = []
    for line in text.splitlines():
        stripped = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip()
        if stripped and not stripped.endswith(":"):
            lines.append(f"- {stripped}")
    if not lines:
        raise OutputInvalid("the reply holds no bullet points; write 5 to 8 lines starting with '- '")
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > max_chars:
            break
        kept.append(line)
    return "\n".join(kept) if kept else truncate(lines[0], max_chars)


def search_lines(view: ResearchView) -> list[str]:
    return [f"{r['query']} | {r['angle']} | {r['outcome']} | {len(r['hits'])} results" for r in view.search_results]


def thin_records(view: ResearchView) -> list[SearchRecord]:
    """This cycle's searches that failed or came back thin (design §7: each gets a reformulation)."""
    limit = view.settings.thin_result_count
    return [r for r in view.search_results
            if r["cycle"] == view.cycle and (r["outcome"] != "ok" or len(r["hits"]) < limit)]


def executed_list(view: ResearchView) -> list[str]:
    return unique(r["query"] for r in view.search_results)


def results_text(hits: Sequence[Hit]) -> str:
    return "\n".join(f"{h['title']}: {h['body']}" for h in hits)
