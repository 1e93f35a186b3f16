"""Turn a finished state into what people read: the Markdown report and the ``ResearchResult`` contract.

The result carries the text of the sources its claims cite, read back from the store, so a parent agent, ``--json``
and Studio get an answer that stands on its own; the other sources are listed without their text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from satiate.engine.reading.coverage import is_not_covered
from satiate.engine.reading.gaps import as_question, unique_questions, worth_asking
from satiate.nodes.common import StoreFor, hydrate, settings_of, suspicion, web_unreached_note
from satiate.state.contracts import DEGRADED_NOTE, ClaimOut, PageCounts, ResearchResult, SourceOut, source_origin
from satiate.state.records import search_failed, source_number
from satiate.state.schema import ResearchState
from satiate.state.settings import shown_settings
from satiate.tools.metrics import run_metrics


def degraded_note(state: ResearchState) -> str | None:
    """Why the answer rests on partial information (degraded mode, or a web that was wanted but never reached),
    or None; the answer is marked degraded exactly when there is a note."""
    notes = [web_unreached_note(state.get("search_results", [])),
             DEGRADED_NOTE if state.get("degraded_mode") else None]
    return " ".join(note for note in notes if note) or None


def flagged(source: Mapping[str, Any]) -> str | None:
    """``suspicion`` of a source: judged on its text when it was read, or now for a record carrying its text."""
    if "text_hash" in source:
        return source.get("suspicious")
    return suspicion(source.get("text", ""))


def cited_texts(state: ResearchState, store_for: StoreFor) -> dict[str, str]:
    """Source id -> text for every source the answer or the report cites by number (claims, disputes, key actors),
    read back from the run's store: a reader of the result can check each [n] without the store."""
    cited = set(citation_numbers(state))
    sources = [s for s in state.get("sources", {}).values() if s["id"] in cited]
    if not sources:
        return {}
    hydrated, _ = hydrate(store_for, settings_of(state), sources, [])
    return {s["id"]: s["text"] for s in hydrated}


def open_material_gaps(state: ResearchState) -> list[dict]:
    """The material gaps of the critic's last report, when the run stopped without its sign-off (a budget, the
    cycle cap, degraded mode): what the answer may be missing, said rather than dropped."""
    reports = state.get("critic_reports", [])
    if not reports or reports[-1]["signoff"]:
        return []
    short = state.get("short_answer")
    explanation = short is not None and short.get("kind") == "description"
    return [dict(gap) for gap in reports[-1]["gaps"]
            if gap["material"] and worth_asking(gap, state["question"], explanation)]


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


TAG_ORDER = ("contradicted", "verified_primary", "verified_multi", "unverified_single")


def source_tag(tags: set[str]) -> str:
    """One tag per source: the claims citing it may be tagged differently, and the strongest (or a dispute) is
    what the reader needs, not "unverified_single, verified_multi" side by side."""
    ranked = [t for t in TAG_ORDER if t in tags]
    return ranked[0] if ranked else ", ".join(sorted(tags))


def cite(ids: list[str], numbering: dict[str, int]) -> str:
    return "".join(f"[{numbering[i]}]" for i in ids if i in numbering)


def cited_sentence(claim: Mapping[str, Any], numbering: dict[str, int]) -> str:
    """A claim as a sentence with its citation before the full stop: "Harbor Works was founded ... by Ada Pell [2]"."""
    return f"{claim['claim'].rstrip().rstrip('.!;:')} {cite(claim['source_ids'], numbering)}".rstrip()


def lead_paragraph(state: ResearchState, numbering: dict[str, int]) -> str:
    """The answer's first sentence: the short answer with the claim that states it, or a plain abstention."""
    claims = state.get("claims", [])
    short: Mapping[str, Any] = state.get("short_answer") or {}
    stating = [c for c in claims if c.get("role") == "answer"]
    if not claims:
        return ("The sources read do not support an answer: no claim could be grounded in them, so satiate gives none "
                "rather than an unsupported one.")
    if is_not_covered(short.get("reason") or ""):
        reason = short["reason"]
        return f"{reason[:1].upper()}{reason[1:].rstrip('.')}. The nearest evidence read follows."
    if short.get("text") and stating:
        shown = short["text"][:1].upper() + short["text"][1:] if short.get("kind") == "yes_no" else short["text"]
        return f"**{shown}** — " + "; ".join(cited_sentence(c, numbering) for c in stating) + "."
    if short.get("kind") == "description" and stating:  # an explanation's lead: the opening run of its brief
        return " ".join(cited_sentence(c, numbering) + "." for c in stating)
    reason = short.get("reason") or "no claim states an answer to the question itself"
    if short.get("candidate"):  # a candidate below the commit threshold: say what is settled and what is not
        return f"The sources read do not settle the question: {reason.rstrip('.')}."
    return f"The sources read do not support a direct answer ({reason.rstrip('.')})."


def runs_by_source(claims: list) -> list[list]:
    """Consecutive claims citing the same first source, together: a brief's run of one page."""
    runs: list[list] = []
    for claim in claims:
        if runs and runs[-1][0]["source_ids"][:1] == claim["source_ids"][:1]:
            runs[-1].append(claim)
        else:
            runs.append([claim])
    return runs


def answer_markdown(state: ResearchState) -> str:
    """Answer first, then the chain that leads to it, then what else the sources say; every sentence cited."""
    numbering = citation_numbers(state)
    claims = state.get("claims", [])
    short: Mapping[str, Any] = state.get("short_answer") or {}
    paragraphs = [lead_paragraph(state, numbering)]
    note = degraded_note(state)  # degraded mode, or a web that was wanted but never reached
    if note:
        paragraphs.append(f"> {note}")
    hops = [c for c in claims if c.get("role") == "hop"]
    if hops:
        paragraphs.append("How the sources lead there: " + " ".join(cited_sentence(c, numbering) + "." for c in hops))
    shown_in_lead = (short.get("text") or short.get("kind") == "description") and not is_not_covered(
        short.get("reason") or "")
    rest = [c for c in claims if c.get("role", "claim") == "claim" or (c.get("role") == "answer" and not shown_in_lead)]
    if rest and short.get("kind") == "description":  # a brief: one paragraph for each page's run
        paragraphs += [" ".join(cited_sentence(c, numbering) + "." for c in run) for run in runs_by_source(rest)]
    elif rest:
        paragraphs.append(" ".join(cited_sentence(c, numbering) + "." for c in rest))
    return "\n\n".join(paragraphs)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def gate_line(counters: dict[str, int], shown: int, syntheses: int) -> str:
    """The grounding gate's totals over every synthesis of the run (design §10), kept apart from the claims shown."""
    passed, cut = counters.get("claims_passed", 0), counters.get("claims_cut", 0)
    rate = f"{passed / (passed + cut):.0%}" if passed + cut else "n/a"
    over = "1 synthesis" if syntheses == 1 else f"{syntheses} syntheses"
    return (f"Grounding gate, over {over}: "
            f"{plural(passed, 'claim')} passed and {cut} cut (support pass rate {rate}); the answer shows the last "
            f"synthesis's {plural(shown, 'claim')}. "
            f"{plural(counters.get('citations_unsupported', 0), 'unsupported citation')}"
            f" and {plural(counters.get('citations_hallucinated', 0), 'hallucinated citation')} removed.")


def model_lines(counters: dict[str, int], tokens: int) -> list[str]:
    """How the model behaved (design §18), when a model was asked at all."""
    if not counters.get("model_calls") and not counters.get("model_fallbacks"):
        return []
    return [f"Model: {plural(counters.get('model_calls', 0), 'call')}, {plural(tokens, 'token')}, "
            f"{plural(counters.get('model_repairs', 0), 'answer')} repaired, {counters.get('model_retries', 0)} "
            f"re-asked, {plural(counters.get('model_fallbacks', 0), 'decision')} made by the deterministic engine "
            f"instead; {counters.get('model_claims_kept', 0)} of {plural(counters.get('model_claims', 0), 'claim')} "
            "the model wrote passed the sentence check.", ""]


def page_lines(state: ResearchState) -> list[str]:
    """The line on the pages behind web hits (fetched, skipped, failed) and a blank line, or nothing without any."""
    line = PageCounts.from_counters(state.get("counters", {})).line()
    return [line, ""] if line else []


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
            parts.append(f"- **{item['topic']}** ({status}): {item['resolution']} "
                         f"{cite(item['source_ids'], numbering)}")
        parts.append("")
    if state.get("key_actors"):
        parts += ["## Key actors", ""]
        parts += [f"- **{a['name']}** ({a['mentions']} sources): {a['profile']} {cite(a['source_ids'], numbering)}"
                  for a in state["key_actors"]]
        parts.append("")
    still_open = open_material_gaps(state)
    asked = unique_questions(state.get("open_questions", []))
    if asked or still_open:
        said = {" ".join(str(q["question"]).lower().split()) for q in asked}
        parts += ["## Open questions", ""]
        parts += [f"- {q['question']} — {q['reason']}" for q in asked]
        parts += [f"- {as_question(gap['description'])} — a material gap the critic still saw when the run stopped"
                  for gap in still_open if " ".join(as_question(gap["description"]).lower().split()) not in said]
        parts.append("")
    searches = state.get("search_results", [])
    backends = sorted({r["backend"] for r in searches if not search_failed(r["outcome"])})
    angles = sorted({r["angle"] for r in searches})
    parts += [
        "## How this was researched",
        "",
        f"Engine: {state.get('engine', '?')}. Backends that answered: {', '.join(backends) or 'none'}. "
        f"Searches: {len(searches)} ({sum(1 for r in searches if search_failed(r['outcome']))} failed). "
        f"Angles: {', '.join(angles) or 'none'}. Stopped: {state.get('stop_reason', '?')}."
        + (" Degraded mode: yes." if degraded_note(state) else ""),
        "",
        gate_line(state.get("counters", {}), len(state.get("claims", [])), max(1, len(state.get("rounds", [])))),
        "",
        *page_lines(state),
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
        flag = flagged(source)
        page = f", p. {source['page']}" if source.get("page") else ""
        parts.append(f"- [{n}] {source['title']}{page} — {source_origin(source['backend'])}: {where}{doc} — "
                     f"{source_tag(tags.get(source_id, set()))}"
                     + (f" — suspicious: {flag}" if flag else ""))
    return "\n".join(parts).rstrip() + "\n"


def build_result(state: ResearchState, thread_id: str | None, store_for: StoreFor) -> ResearchResult:
    """The result of a run's state; the texts of the sources it cites come from the store ``store_for`` gives for
    the run's settings."""
    numbering = citation_numbers(state)
    tags: dict[str, list[str]] = {}
    for claim in state.get("claims", []):
        for source_id in claim["source_ids"]:
            tags.setdefault(source_id, [])
            if claim["verification"] not in tags[source_id]:
                tags[source_id].append(claim["verification"])
    sources = sorted(state.get("sources", {}).values(), key=lambda s: source_number(s["id"]))
    texts = cited_texts(state, store_for)
    searches = state.get("search_results", [])
    short: Mapping[str, Any] = state.get("short_answer") or {}
    return ResearchResult(
        thread_id=thread_id,
        question=state["question"],
        short_answer=short.get("text"),
        short_answer_reason=short.get("reason", ""),
        short_answer_candidate=short.get("candidate"),
        short_answer_confidence=short.get("confidence"),
        answer=answer_markdown(state),
        report=report_markdown(state),
        claims=[ClaimOut(**claim) for claim in state.get("claims", [])],
        contradictions=list(state.get("contradictions", [])),
        key_actors=list(state.get("key_actors", [])),
        sources=[
            SourceOut(id=s["id"], n=numbering.get(s["id"]), title=s["title"], url=s["url"], text=texts.get(s["id"]),
                      backend=s["backend"], origin=source_origin(s["backend"]), read_kind=s["read_kind"],
                      doc_id=s.get("doc_id"), page=s.get("page"), verification=tags.get(s["id"], []),
                      suspicious=flagged(s))
            for s in sources
        ],
        rounds=list(state.get("rounds", [])),
        open_questions=list(state.get("open_questions", [])),
        errors=list(state.get("error_log", [])),
        degraded=degraded_note(state) is not None,
        engine=state.get("engine", ""),
        backends_used=sorted({r["backend"] for r in searches if not search_failed(r["outcome"])}),
        stop_reason=state.get("stop_reason", ""),
        searches=len(searches),
        metrics=run_metrics(state),
        pages=PageCounts.from_counters(state.get("counters", {})),
        settings=shown_settings(state.get("resolved_settings", {})),
    )

