"""Turn a finished state into what people read: the Markdown report and the ``ResearchResult`` contract."""

from __future__ import annotations

from satiate.state.contracts import ClaimOut, ResearchResult, SourceOut
from satiate.state.schema import ResearchState
from satiate.tools.metrics import run_metrics

DEGRADED_NOTE = "Search capabilities were limited; answer is based on partial information."


def citation_numbers(state: ResearchState) -> dict[str, int]:
    """Source id -> [n], numbered in order of first use in the answer."""
    numbering: dict[str, int] = {}
    for claim in state.get("claims", []):
        for source_id in claim["source_ids"]:
            numbering.setdefault(source_id, len(numbering) + 1)
    for dispute in state.get("contradictions", []):  # the set-aside side of a dispute is cited there
        for source_id in dispute["source_ids"]:
            numbering.setdefault(source_id, len(numbering) + 1)
    for actor in state.get("key_actors", []):
        for source_id in actor["source_ids"]:
            numbering.setdefault(source_id, len(numbering) + 1)
    return numbering


def cite(ids: list[str], numbering: dict[str, int]) -> str:
    return "".join(f"[{numbering[i]}]" for i in ids if i in numbering)


def answer_markdown(state: ResearchState) -> str:
    numbering = citation_numbers(state)
    claims = state.get("claims", [])
    if not claims:
        body = "No claim could be grounded in the sources read, so satiate gives no answer rather than an unsupported one."
    else:
        body = " ".join(f"{c['claim'].rstrip()} {cite(c['source_ids'], numbering)}" for c in claims)
    if state.get("degraded_mode"):
        body = f"> {DEGRADED_NOTE}\n\n{body}"
    return body


def gate_line(counters: dict[str, int]) -> str:
    """The grounding gate's totals over every synthesis of the run (seed 003 §6), with its support pass rate."""
    passed, cut = counters.get("claims_passed", 0), counters.get("claims_cut", 0)
    rate = f"{passed / (passed + cut):.0%}" if passed + cut else "n/a"
    return (f"Grounding gate: {passed} claims passed, {cut} cut (support pass rate {rate}); "
            f"{counters.get('citations_unsupported', 0)} unsupported and "
            f"{counters.get('citations_hallucinated', 0)} hallucinated citations removed.")


def model_lines(counters: dict[str, int], tokens: int) -> list[str]:
    """How the model behaved (seed 002 §17), when a model was asked at all."""
    if not counters.get("model_calls") and not counters.get("model_fallbacks"):
        return []
    return [f"Model: {counters.get('model_calls', 0)} calls, {tokens} tokens, {counters.get('model_repairs', 0)} "
            f"answers repaired, {counters.get('model_retries', 0)} re-asked, {counters.get('model_fallbacks', 0)} "
            "decisions made by the deterministic engine instead.", ""]


def rounds_table(state: ResearchState) -> str:
    lines = ["| Round | Sources | New | Claims | Cut | Open material gaps | Sign-off | Searches |",
             "|---:|---:|---:|---:|---:|---:|:---:|---:|"]
    for row in state.get("rounds", []):
        lines.append(f"| {row['round']} | {row['sources']} | {row['new_sources']} | {row['claims']} | "
                     f"{row['claims_cut']} | {row['open_gaps']} | {'yes' if row['signoff'] else 'no'} | "
                     f"{row['searches']} |")
    return "\n".join(lines)


def report_markdown(state: ResearchState) -> str:
    numbering = citation_numbers(state)
    by_id = {s["id"]: s for s in state.get("sources", {}).values()}
    tags: dict[str, set[str]] = {}
    for claim in state.get("claims", []):
        for source_id in claim["source_ids"]:
            tags.setdefault(source_id, set()).add(claim["verification"])
    parts = [f"# {state['question']}", "", answer_markdown(state), ""]
    if state.get("contradictions"):
        parts += ["## Disputed", ""]
        for item in state["contradictions"]:
            status = "resolved" if item["resolved"] else "unresolved"
            parts.append(f"- **{item['topic']}** ({status}): {item['resolution']} {cite(item['source_ids'], numbering)}")
        parts.append("")
    if state.get("key_actors"):
        parts += ["## Key actors", ""]
        parts += [f"- **{a['name']}** ({a['mentions']} sources): {a['profile']} {cite(a['source_ids'], numbering)}"
                  for a in state["key_actors"]]
        parts.append("")
    if state.get("open_questions"):
        parts += ["## Open questions", ""]
        parts += [f"- {q['question']} — {q['reason']}" for q in state["open_questions"]]
        parts.append("")
    searches = state.get("search_results", [])
    backends = sorted({r["backend"] for r in searches if r["outcome"] in ("ok", "empty")})
    angles = sorted({r["angle"] for r in searches})
    parts += [
        "## How this was researched",
        "",
        f"Engine: {state.get('engine', '?')}. Backends that answered: {', '.join(backends) or 'none'}. "
        f"Searches: {len(searches)} ({sum(1 for r in searches if r['outcome'].startswith('failed'))} failed). "
        f"Angles: {', '.join(angles) or 'none'}. Stopped: {state.get('stop_reason', '?')}."
        + (" Degraded mode: yes." if state.get("degraded_mode") else ""),
        "",
        gate_line(state.get("counters", {})),
        "",
        *model_lines(state.get("counters", {}), state.get("tokens_used", 0)),
        rounds_table(state),
        "",
        "## Sources",
        "",
    ]
    for dispute in state.get("contradictions", []):
        for source_id in dispute["source_ids"]:
            if source_id not in tags:
                tags[source_id] = {"disputed, set aside" if dispute["resolved"] else "disputed"}
    for actor in state.get("key_actors", []):
        for source_id in actor["source_ids"]:
            tags.setdefault(source_id, {"key-actor profile"})
    for source_id, n in sorted(numbering.items(), key=lambda item: item[1]):
        source = by_id[source_id]
        where = source["url"] or source.get("doc_id") or source["key"]
        doc = f" (doc {source['doc_id']})" if source.get("doc_id") and source.get("url") else ""
        parts.append(f"- [{n}] {source['title']} — {where}{doc} — {', '.join(sorted(tags.get(source_id, [])))}")
    return "\n".join(parts).rstrip() + "\n"


def build_result(state: ResearchState, thread_id: str | None) -> ResearchResult:
    numbering = citation_numbers(state)
    tags: dict[str, list[str]] = {}
    for claim in state.get("claims", []):
        for source_id in claim["source_ids"]:
            tags.setdefault(source_id, [])
            if claim["verification"] not in tags[source_id]:
                tags[source_id].append(claim["verification"])
    sources = sorted(state.get("sources", {}).values(), key=lambda s: int(s["id"][1:]))
    searches = state.get("search_results", [])
    return ResearchResult(
        thread_id=thread_id,
        question=state["question"],
        answer=answer_markdown(state),
        report=report_markdown(state),
        claims=[ClaimOut(**claim) for claim in state.get("claims", [])],
        contradictions=list(state.get("contradictions", [])),
        key_actors=list(state.get("key_actors", [])),
        sources=[
            SourceOut(id=s["id"], n=numbering.get(s["id"]), title=s["title"], url=s["url"], text=s["text"],
                      backend=s["backend"], read_kind=s["read_kind"], doc_id=s.get("doc_id"),
                      verification=tags.get(s["id"], []))
            for s in sources
        ],
        rounds=list(state.get("rounds", [])),
        open_questions=list(state.get("open_questions", [])),
        errors=list(state.get("error_log", [])),
        degraded=bool(state.get("degraded_mode")),
        engine=state.get("engine", ""),
        backends_used=sorted({r["backend"] for r in searches if r["outcome"] in ("ok", "empty")}),
        stop_reason=state.get("stop_reason", ""),
        searches=len(searches),
        metrics=run_metrics(state),
        settings=state.get("resolved_settings", {}),
    )

