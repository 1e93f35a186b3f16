"""The deterministic engine: every research decision made without a model.

It is the engine of an offline machine and the per-call fallback of the model engine, so it has to be useful on its
own: angle decomposition for planning, heuristic novelty scores, extractive compression, reflection that
follows breadcrumbs and reformulates thin queries, extractive synthesis whose claims are sentences of the sources
they cite, and a mechanical completeness critic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from satiate.engine.answer import (
    Found,
    evidence_covers_names,
    expected_answer,
    find_answer,
    name_spans,
    read_for,
    said_on,
)
from satiate.engine.base import Decision, ResearchView
from satiate.engine.breadcrumbs import bridge_query, rank_breadcrumbs, search_form
from satiate.engine.grounding import supports
from satiate.engine.novelty import heuristic_novelty
from satiate.state.contracts import (
    ClaimDraft,
    ContradictionDraft,
    CriticGap,
    CriticReport,
    PlanQueryModel,
    PlanResponse,
    ReflectionResponse,
    SynthesisResponse,
    clamp_query,
)
from satiate.state.records import Hit, SearchRecord, SourceRecord
from satiate.state.settings import Settings
from satiate.tools.search.base import LOCAL_BACKENDS
from satiate.tools.text import (
    SCAN_CHARS,
    clean_title,
    content_terms,
    entities,
    hedged,
    idf_weights,
    jaccard,
    normalize_query,
    numbers,
    sentences,
    simplify_query,
    stem,
    stems,
    unique,
    words,
)

NEGATIONS = frozenset({"not", "no", "never", "neither", "nor", "none", "cannot", "without", "false", "failed"})
CONTRAST_CUES = frozenset(
    {"however", "but", "although", "criticism", "critics", "criticised", "criticized", "limitation", "limitations",
     "disputed", "contrary", "against", "fail", "failed", "fails", "not", "despite", "risk", "risks", "drawback"}
)
ANGLE_SUFFIX = {
    "time_window": "history timeline latest",
    "source_type": "official primary source",
    "counter_argument": "criticism limitations",
}
REFERRING_WORDS = frozenset({"it", "its", "the", "this", "these", "those", "he", "she", "they", "his", "her",
                             "their", "there", "in", "on", "at", "after", "during"})
NAMED_ANSWERS = ("person", "place", "name")
SEEN_PER_SEARCH = 5  # the passed-over results nearest the top of each search are the ones worth ranking again
CORROBORATION_OVERLAP = 0.85
CLAIM_FLOOR = 0.4  # a claim's relevance as a share of the best sentence's


def core_terms(text: str, limit: int = 6) -> list[str]:
    return unique(content_terms(text))[:limit]


def angle_queries(text: str, angles: list[str]) -> list[PlanQueryModel]:
    """The multi-angle decomposition of one target (design §2), the target itself first."""
    text = search_form(text)
    core = " ".join(core_terms(text))
    # The things a question names: the two it compares ("Were X and Y ..."), else its names and quoted titles, never
    # cut at an abbreviation's full stop ("Ivo St. Amand") nor glued to the question word ("What KV").
    names = unique([*expected_answer(text).options, *(n for n in name_spans(text) if len(n) > 2)])[:2]
    # A very long question is a poor search query: its first words, cut at a word boundary, stand in for it.
    planned = [PlanQueryModel(query=clamp_query(text), intent="the target as asked", angle="question")]
    for angle in angles:
        if angle == "entity":
            for name in names:
                planned.append(PlanQueryModel(query=name, intent=f"primary source on {name}", angle="entity"))
        elif core:
            planned.append(
                PlanQueryModel(query=f"{core} {ANGLE_SUFFIX[angle]}", intent=f"{angle} angle on the target",
                               angle=angle)
            )
    return planned


def search_angles(settings: Settings) -> list[str]:
    """The angles worth a query on this run's backends: all of ``angles`` when the web is searched, else
    ``corpus_angles`` (a local index has no notion of "latest" or "official"; those words only add noise)."""
    if any(backend not in LOCAL_BACKENDS for backend in settings.resolved_backends()):
        return list(settings.angles)
    return list(settings.corpus_angles)


def answer_supported(question: str, found: Found, settings: Settings) -> bool:
    """The question is answered by what was read: a short answer scoring at least ``answer_signoff_score`` whose
    evidence sentences (or their pages' titles) mention every name the question gives, so each hop from the
    question's names to the answer rests on a sentence read."""
    if found.short_answer is None or found.score < settings.answer_signoff_score or not found.evidence:
        return False
    return evidence_covers_names(question, found.evidence)


def answer_check(found: Found | None, view: ResearchView) -> PlanQueryModel | None:
    """The query that reads the answer's own page, while it is unread and was never searched for.

    A name found as the answer may be one more bridge (the company Anil Desrosier worked for is not where it is
    headquartered), and its own page is where the next hop, or the corroboration, is written: it is read once
    before the loop may stop."""
    if found is None or found.short_answer is None or found.kind not in NAMED_ANSWERS:
        return None
    name = found.short_answer.strip().lower()
    if any(clean_title(s["title"]).lower() == name for s in view.sources):
        return None
    query = bridge_query(view.question, found.short_answer)
    if normalize_query(query) in view.executed_queries():
        return None
    return PlanQueryModel(query=query, intent=f"breadcrumb: {found.short_answer}", angle="breadcrumb")


def as_candidate(hit: Hit, record: SearchRecord | None = None) -> SourceRecord:
    """A hit as the source it would become if read (to rank it with the sources read, not to store it)."""
    origin: Mapping[str, Any] = record or {}
    return SourceRecord(id=f"hit:{hit['key']}", key=hit["key"], url=hit.get("url", ""), title=hit.get("title", ""),
                        text=hit["body"], backend=hit.get("backend", ""), read_kind="passage",
                        query=origin.get("query", ""), angle=origin.get("angle", ""), cycle=origin.get("cycle", 0),
                        round=origin.get("round", 0))


def evidence_novelty(view: ResearchView, hits: list[Hit]) -> int:
    """0-10: the share of a round's new passages with a sentence among the best few for the question, ranked with
    everything read (two-hop chains included). A round of new words about other things scores 0: it adds nothing
    the answer could come from, so it counts towards saturation."""
    if not hits:
        return 0
    reading = read_for(view.question, [*view.sources, *(as_candidate(hit) for hit in hits)])
    top = reading.ranked[:view.settings.evidence_top_sentences]
    best = {scored.line.source["key"] for scored in top if scored.score > 0}
    return round(10 * sum(1 for hit in hits if hit["key"] in best) / len(hits))


def seen_worth_reading(view: ResearchView, limit: int) -> list[PlanQueryModel]:
    """Passages a search returned but did not read (passed over, or in a round the gate judged saturated), ranked
    again against the question and the bridges found since.

    One whose sentence now ranks among the best few for the question (a chain through a bridge read later makes it
    relevant: "Westmarch became the 12th province ... when Chancellor Ida Fenn signed" once the wind farm's
    page named Westmarch) is read, asked for by its title and the rarest words of that sentence, which brings that
    passage first.
    """
    if limit <= 0:
        return []
    held = {s["key"] for s in view.sources}
    candidates: dict[str, SourceRecord] = {}
    for record in view.search_results:
        returned = sorted([*record["hits"], *record.get("passed_over", [])], key=lambda h: h["rank"])
        for hit in returned[:SEEN_PER_SEARCH]:
            if hit["key"] in held or hit["key"] in candidates or not hit.get("body"):
                continue
            candidates[hit["key"]] = as_candidate(hit, record)
    if not candidates:
        return []
    reading = read_for(view.question, [*view.sources, *candidates.values()])
    rarity = idf_weights([list(line.terms) for line in reading.pool])
    floor = view.settings.seen_min_share * reading.ranked[0].score if reading.ranked else 0.0
    chosen: dict[str, PlanQueryModel] = {}
    for scored in reading.ranked[:view.settings.evidence_top_sentences]:
        key = scored.line.source["key"]
        if scored.score <= 0 or scored.score < floor:
            break
        if key not in candidates or key in chosen:
            continue
        title = candidates[key]["title"]
        own = stems(title)
        rare = sorted((w for w in unique(content_terms(scored.line.text)) if stem(w) not in own),
                      key=lambda w: -rarity.get(stem(w), 0.0))
        chosen[key] = PlanQueryModel(query=" ".join([search_form(title), *rare[:4]]), intent=f"seen before: {title}",
                                     angle="seen")
        if len(chosen) >= limit:
            break
    return list(chosen.values())


def novelty_reference(view: ResearchView) -> str:
    """What new results are compared with (design §5): the rolling knowledge state, or everything read so far."""
    if view.settings.novelty_reference == "sources":
        return view.knowledge_state + "\n" + "\n".join(s["text"] for s in view.sources)
    return view.knowledge_state


def focused_text(body: str, view: ResearchView) -> str:
    """The sentences of a result that speak to the question or the current target: what novelty is judged on when
    ``novelty_focus`` is set, so a round of new but off-topic passages reads as saturated."""
    focus = stems(view.question) | stems(view.target)
    return " ".join(s.text for s in sentences(body[:SCAN_CHARS]) if stems(s.text) & focus)


def fresh_queries(candidates: list[PlanQueryModel], executed: set[str], limit: int) -> list[PlanQueryModel]:
    """Drop queries already sent (by normalised identity) or repeated, keep order, cap the count."""
    kept: list[PlanQueryModel] = []
    seen = set(executed)
    for candidate in candidates:
        identity = normalize_query(candidate.query)
        if not identity or identity in seen:
            continue
        seen.add(identity)
        kept.append(candidate)
    return kept[:limit]


def stem_key(text: str) -> frozenset[str]:
    """A sentence's identity for "already said": its stemmed content words."""
    return frozenset(stems(text))


def subject_of(source: SourceRecord, text: str) -> str:
    """What a sentence is about, in lower case (see ``subject_name``)."""
    return subject_name(source, text).lower()


def dispute_topic(side_a: tuple[SourceRecord, str], side_b: tuple[SourceRecord, str]) -> str:
    """A dispute as a reader names it: its subject, and the figures in dispute when they differ ("Harbor Works:
    1987 or 1991"), not a bag of the words both sentences share."""
    subject = subject_name(*side_a)
    figures = [*sorted(numbers(side_a[1]) - numbers(side_b[1])), *sorted(numbers(side_b[1]) - numbers(side_a[1]))]
    return f"{subject}: {' or '.join(figures)}" if figures else subject


def subject_name(source: SourceRecord, text: str) -> str:
    """What a sentence is about: its first name, or for a sentence that opens by referring back ("The journal was
    first published in 1963", "It is located ...") or names nothing, the title of its source. A word ending in a
    colon ("Args:", "Note:") labels what follows: it is not the sentence's subject, so it ends the name."""
    leading: list[str] = []
    for raw in text.split():
        word = raw.strip(",.;:()\"'")
        if not word or not (word[0].isupper() or word[0].isdigit()) or raw.endswith(":"):
            break
        leading.append(word)
    first_word = leading[0].lower() if leading else ""
    if first_word in REFERRING_WORDS:
        return source["title"].strip()  # "It is located on ..." / "The station ...": the page's subject
    if leading and first_word not in {"a", "an"}:
        return " ".join(leading)  # "CKHL-FM is ...", "Harbor Works was founded ..."
    names = entities(text)
    return (names[0] if names else source["title"]).strip()


def same_subject(side_a: tuple[SourceRecord, str], side_b: tuple[SourceRecord, str]) -> bool:
    """Two statements can only disagree about one thing: "Grey Harbour ... 2012" and "The Long Tide ... 2014"
    share a director, not a subject."""
    return subject_of(*side_a) == subject_of(*side_b)


def has_conflict(a: str, b: str) -> bool:
    """Two statements on one topic that disagree: different numbers, or one negates what the other asserts."""
    numbers_a, numbers_b = numbers(a), numbers(b)
    if numbers_a and numbers_b and numbers_a != numbers_b and not (numbers_a & numbers_b):
        return True
    negated_a = bool(NEGATIONS & set(words(a)))
    negated_b = bool(NEGATIONS & set(words(b)))
    return negated_a != negated_b


class DeterministicEngine:
    """The no-model implementation of ``ResearchEngine``."""

    label = "deterministic"

    # --- plan ---------------------------------------------------------------------------------------------------------
    def plan(self, view: ResearchView, target: str) -> Decision[PlanResponse]:
        candidates = angle_queries(target or view.question, search_angles(view.settings))
        queries = fresh_queries(candidates, view.executed_queries(), view.settings.budget.max_queries_per_round)
        if not queries:  # everything already asked: fall back to the simplified target so the plan is never empty
            queries = [PlanQueryModel(query=simplify_query(target or view.question), intent="simplified",
                                      angle="question")]
        return Decision(PlanResponse(queries=queries))

    # --- novelty and compression --------------------------------------------------------------------------------------
    def novelty(self, view: ResearchView, hits: list[Hit]) -> Decision[int]:
        if view.settings.novelty_measure == "evidence":
            return Decision(evidence_novelty(view, hits))
        bodies = [h["body"] for h in hits]
        if view.settings.novelty_focus:
            bodies = [focused_text(body, view) for body in bodies]
        return Decision(heuristic_novelty(bodies, novelty_reference(view)))

    def compress(self, view: ResearchView, new_sources: list[SourceRecord]) -> Decision[str]:
        limit = view.settings.knowledge_max_chars
        if not view.knowledge_state:
            # The first-round fast path (design §6): the state is built straight from the results.
            bodies = " ".join(s["text"] for s in new_sources)[:1200]
            return Decision(bodies[:limit])
        focus = set(content_terms(view.question)) | set(content_terms(view.target))
        kept_terms: set[str] = set()
        candidates: list[tuple[float, int, str]] = []
        old = [line.lstrip("-• ").strip() for line in view.knowledge_state.splitlines() if line.strip()]
        new = [s.text for source in new_sources for s in sentences(source["text"][:SCAN_CHARS])]
        for order, text in enumerate(old + new):
            terms = set(content_terms(text))
            if not terms:
                continue
            relevance = len(terms & focus) / (1 + len(focus))
            candidates.append((relevance + (0.2 if order < len(old) else 0.0), order, text))
        candidates.sort(key=lambda c: (-c[0], c[1]))
        chosen: list[tuple[int, str]] = []
        used = 0
        for _, order, text in candidates:
            terms = set(content_terms(text))
            if terms <= kept_terms or any(jaccard(terms, content_terms(t)) > 0.6 for _, t in chosen):
                continue
            line = f"- {text}"
            if used + len(line) + 1 > limit:
                continue
            chosen.append((order, text))
            kept_terms |= terms
            used += len(line) + 1
        chosen.sort()
        return Decision("\n".join(f"- {text}" for _, text in chosen)[:limit])

    # --- reflect ------------------------------------------------------------------------------------------------------
    def reflect(self, view: ResearchView) -> Decision[ReflectionResponse]:
        """Sufficient once the answer is supported by what was read; otherwise follow the chain: the question again
        with the best bridge found (its unread results, ranked against both), then each bridge with the relation the
        question still asks about, after reformulations of this cycle's failed or thin searches."""
        settings = view.settings
        key_terms = unique(content_terms(view.question))
        known = stems(view.knowledge_state)
        uncovered = [t for t in key_terms if stem(t) not in known]
        confidence = 1 - len(uncovered) / len(key_terms) if key_terms else 1.0
        # The answer can end the loop only after the minimum rounds: round 1 reads the question's own results, and
        # an answer found there may be the bridge itself ("the company Anil Desrosier worked for"), whose page the
        # breadcrumbs of round 2 read.
        found = find_answer(view.question, view.sources) if view.sources else None
        check = answer_check(found, view)
        if found is not None and check is None and view.search_round >= settings.searches_per_task and \
                answer_supported(view.question, found, settings):
            confidence = max(confidence, min(1.0, found.score))
            return Decision(ReflectionResponse(sufficient=True, confidence=round(confidence, 3), gaps=[],
                                               new_queries=[]))
        candidates: list[PlanQueryModel] = [check] if check else []
        candidates += seen_worth_reading(view, settings.seen_results)
        # Error level 2: reformulate this cycle's failed or thin queries, simplified (design §7, §14).
        for record in view.search_results:
            if record["cycle"] != view.cycle:
                continue
            returned = len(record["hits"]) + len(record.get("passed_over", []))
            if record["outcome"] != "ok" or returned < settings.thin_result_count:
                candidates.append(
                    PlanQueryModel(query=simplify_query(record["query"]),
                                   intent=f"reformulation of '{record['query']}'", angle=record["angle"])
                )
        # Follow breadcrumbs (design §8), each with the relation the question asks about.
        crumbs = rank_breadcrumbs(search_form(view.question), view.sources, limit=settings.max_breadcrumbs * 3)
        followed = 0
        for crumb in crumbs:
            if followed >= settings.max_breadcrumbs:
                break
            query = bridge_query(view.question, crumb.name)
            if normalize_query(query) in view.executed_queries():
                continue
            candidates.append(PlanQueryModel(query=query, intent=f"breadcrumb: {crumb.name}", angle="breadcrumb"))
            followed += 1
        if crumbs and settings.max_breadcrumbs:
            # The question's own results, ranked again with the best bridge: what it found but did not read yet.
            query = clamp_query(f"{search_form(view.question)} {crumbs[0].name}")
            candidates.append(PlanQueryModel(query=query, intent=f"the question with the bridge {crumbs[0].name}",
                                             angle="question"))
        # The gap query (design §7): target what the knowledge state does not cover yet (when no breadcrumb leads on).
        if uncovered and not followed:
            anchor = [n for n in unique(entities(search_form(view.question)))][:1]
            candidates.append(
                PlanQueryModel(query=" ".join(anchor + uncovered[:5]), intent="terms not yet covered", angle="gap")
            )
        queries = fresh_queries(candidates, view.executed_queries(), settings.budget.max_queries_per_round)
        # Sufficient when nothing is left to ask, or every question term is known and no breadcrumb is pending.
        pending_hop = any(q.angle == "breadcrumb" for q in queries)
        sufficient = not queries or (confidence >= 0.999 and not pending_hop)
        gaps = [f"not yet covered: {', '.join(uncovered)}"] if uncovered else []
        return Decision(
            ReflectionResponse(sufficient=sufficient, confidence=round(confidence, 3), gaps=gaps, new_queries=queries)
        )

    # --- synthesize ---------------------------------------------------------------------------------------------------
    def synthesize(self, view: ResearchView) -> Decision[SynthesisResponse]:
        """Extractive synthesis: the short answer and the sentences that carry it first, then the other sentences
        that speak to the question best (``engine.answer`` ranks them, two-hop chains included)."""
        settings = view.settings
        reading = read_for(view.question, view.sources)
        if not reading.pool:
            return Decision(SynthesisResponse(open_questions=["No readable source text was gathered."]))
        pool = [(scored.line.source, scored.line.text, set(scored.line.terms)) for scored in reading.ranked]
        # Only sentences that speak to the question nearly as well as the best one: a sentence that merely shares
        # a common word ("Restart the debugged Python program.") is not part of the answer.
        floor = CLAIM_FLOOR * reading.ranked[0].score
        ranked = [(scored.score, index) for index, scored in enumerate(reading.ranked)
                  if scored.score > 0 and scored.score >= floor]
        picked: list[int] = []
        for _, index in ranked:
            if len(picked) >= settings.max_claims:
                break
            terms = pool[index][2]
            if any(jaccard(terms, pool[p][2]) > 0.5 for p in picked):
                continue
            picked.append(index)
        self._keep_counter_argument(view, pool, ranked, picked)
        contradictions = self._find_contradictions(view, pool, ranked, picked)
        found = find_answer(view.question, view.sources, reading)
        leading = self._answer_claims(view, found)
        said = {stem_key(c.claim) for c in leading} | {stem_key(line.text) for line in found.evidence}
        claims = leading + [claim for claim in (self._claim(view, pool[index]) for index in picked)
                            if stem_key(claim.claim) not in said]
        return Decision(SynthesisResponse(
            short_answer=found.short_answer, answer_kind=found.kind, abstain_reason=found.reason,
            claims=claims[: max(settings.max_claims, len(leading))], contradictions=contradictions,
        ))

    def _answer_claims(self, view: ResearchView, found: Found) -> list[ClaimDraft]:
        """The sentence that states the short answer first (its subject restored), then the hop that led to it."""
        drafts: list[ClaimDraft] = []
        for position, line in enumerate(found.evidence):
            text = said_on(line.text, line.source)
            claim = self._claim(view, (line.source, text, None))
            claim.role = "answer" if position == 0 or found.kind in ("yes_no", "choice") else "hop"
            drafts.append(claim)
        return drafts

    def _keep_counter_argument(self, view: ResearchView, pool, ranked, picked: list[int]) -> None:
        """Steel-man the other side (design §9): the best opposing sentence found gets a place among the claims."""
        if any(pool[i][0]["angle"] == "counter_argument" and CONTRAST_CUES & pool[i][2] for i in picked):
            return
        for _, index in ranked:
            source, _, terms = pool[index]
            if source["angle"] == "counter_argument" and CONTRAST_CUES & set(words(pool[index][1])):
                if index in picked:
                    return
                if len(picked) >= view.settings.max_claims and picked:
                    picked.pop()
                picked.append(index)
                return

    def _find_contradictions(self, view: ResearchView, pool, ranked, picked: list[int]) -> list[ContradictionDraft]:
        """Statements on one topic that disagree are adjudicated, not appended (design §9).

        The side with more independent support among the sources read wins, then a primary source over a secondary
        one, then a plain statement over one that hedges itself. A resolved dispute keeps only the favoured claim
        in the answer; an unresolved one keeps both, each tagged contradicted, and says why.
        """
        found: list[ContradictionDraft] = []
        losers: set[int] = set()
        candidates = [index for _, index in ranked[:40]]
        seen_pairs: set[frozenset[str]] = set()
        for first in list(picked):
            source_a, text_a, _ = pool[first]
            for other in candidates:
                source_b, text_b, _ = pool[other]
                pair = frozenset((source_a["key"], source_b["key"]))
                if other == first or len(pair) == 1 or pair in seen_pairs or not has_conflict(text_a, text_b):
                    continue
                numeric = bool(numbers(text_a)) and bool(numbers(text_b))
                if jaccard(stems(text_a), stems(text_b)) < (0.25 if numeric else 0.4):
                    continue
                if not same_subject((source_a, text_a), (source_b, text_b)):
                    continue  # "The journal was first published in 1963" vs 2009: two journals, no dispute
                seen_pairs.add(pair)
                if other not in picked:
                    picked.append(other)
                topic = dispute_topic((source_a, text_a), (source_b, text_b))
                winner, reason = self._adjudicate(view, (source_a, text_a), (source_b, text_b))
                ids = [source_a["id"], source_b["id"]]
                if winner is None:
                    found.append(ContradictionDraft(topic=topic, source_ids=ids, resolved=False, resolution=reason))
                else:
                    losers.add(other if winner == 0 else first)
                    found.append(ContradictionDraft(topic=topic, source_ids=ids, resolved=True, resolution=reason,
                                                    favoured_ids=[ids[winner]]))
                break
        picked[:] = [index for index in picked if index not in losers]
        return found

    def _adjudicate(self, view: ResearchView, side_a, side_b) -> tuple[int | None, str]:
        """Which side (0 or 1) the evidence favours, and the reason in words."""
        sides = (side_a, side_b)
        support = []
        for _, text in sides:
            others = [s for s in view.sources if s["key"] not in (side_a[0]["key"], side_b[0]["key"])]
            support.append(sum(1 for s in others if supports(text, s, view.settings.support_min_overlap)))
        if support[0] != support[1]:
            winner = 0 if support[0] > support[1] else 1
            return winner, (f"{sides[winner][0]['id']} is corroborated by {support[winner]} other source(s) read, "
                            f"{sides[1 - winner][0]['id']} by {support[1 - winner]}; the corroborated account is kept.")
        primary = [s.get("source_type") in ("primary", "official", "peer") for s, _ in sides]
        if primary[0] != primary[1]:
            winner = 0 if primary[0] else 1
            return winner, f"{sides[winner][0]['id']} is a primary source; the secondary account is set aside."
        hedges = [hedged(text) for _, text in sides]
        if hedges[0] != hedges[1]:
            winner = 1 if hedges[0] else 0
            return winner, (f"{sides[1 - winner][0]['id']} hedges its own statement; "
                            f"{sides[winner][0]['id']} states it plainly, so its account is kept.")
        return None, (f"{side_a[0]['id']} and {side_b[0]['id']} disagree with equal support among the sources read; "
                      "the dispute stays open.")

    def _claim(self, view: ResearchView, entry) -> ClaimDraft:
        """A sentence of a source, cited to it and to every other source that states the same (corroboration needs
        nearly all the claim's words and every name in it, so generic sentence shapes do not count as agreement)."""
        source, text, _ = entry
        text = said_on(text, source)  # never a claim that opens "It ..." without what it is about
        ids = [source["id"]]
        names = set(entities(text))
        threshold = max(CORROBORATION_OVERLAP, view.settings.support_min_overlap)
        for other in view.sources:
            if other["key"] == source["key"] or not all(name in other["text"] for name in names):
                continue
            if supports(text, other, threshold):
                ids.append(other["id"])
        confidence = "high" if len(ids) > 1 else "med"
        return ClaimDraft(claim=text, source_ids=ids, confidence=confidence)

    # --- critic -------------------------------------------------------------------------------------------------------
    def critique(self, view: ResearchView) -> Decision[CriticReport]:
        """Name what is missing. Once the short answer is supported by cited sentences (``answer_supported``), only
        a dispute about the answer's own sources stays material: more reading would not change the answer, so the
        other gaps are listed as cosmetic. While it is not, the first gap is the one that would close it: the best
        bridge found, with the relation the question asks about."""
        gaps: list[CriticGap] = []
        claim_text = " ".join(c["claim"] for c in view.claims)
        cited = {i for c in view.claims for i in c["source_ids"]}
        # A claim speaks for its page's subject too (the gate counts the title as part of the passage): "Python" is
        # covered by a claim cited to "Python language reference: Generator functions".
        claim_stems = stems(claim_text + " " + " ".join(s["title"] for s in view.sources if s["id"] in cited))
        found = find_answer(view.question, view.sources) if view.sources else None
        check = answer_check(found, view)
        supported = found is not None and answer_supported(view.question, found, view.settings) and all(
            line.source["id"] in cited for line in found.evidence)
        answered = supported and check is None
        answer_ids = {line.source["id"] for line in found.evidence} if answered and found else set()
        if not view.claims:
            gaps.append(CriticGap(kind="modality", description="No grounded claim answers the question yet.",
                                  query=simplify_query(view.question), priority=9.0, material=True))
        if found is not None and supported and check is not None:
            gaps.append(CriticGap(kind="unread-source", description=f"The answer '{found.short_answer}' is a name "
                                  "whose own source was never read: reading it confirms the answer or leads one hop "
                                  "further.", query=check.query, priority=9.5, material=True))
        # Unread source: a name the cited sources lead to, whose own source was never read.
        cited_sources = [s for s in view.sources if s["id"] in cited] or view.sources
        crumbs = rank_breadcrumbs(search_form(view.question), cited_sources,
                                  limit=min(3, view.settings.max_breadcrumbs))
        for rank, crumb in enumerate(crumbs if view.settings.max_breadcrumbs else []):
            # an explanation question has no short answer to support: its gaps are the ordinary unread names
            lead = rank == 0 and found is not None and not supported and found.kind != "description"
            reason = (f"The answer is not supported yet ({found.reason or 'its evidence is weak'}); '{crumb.name}' "
                      "may close it." if lead and found is not None else "")
            gaps.append(CriticGap(kind="unread-source", description=reason or f"'{crumb.name}' is named by the "
                                  "sources read but its own source was never read.",
                                  query=bridge_query(view.question, crumb.name), priority=(9.5 if lead else 8.0 - rank),
                                  material=not answered))
        # Modality: question terms no claim speaks to.
        uncovered = [t for t in unique(content_terms(view.question)) if stem(t) not in claim_stems]
        if uncovered and view.claims:
            anchor = unique(entities(search_form(view.question)))[:1]
            gaps.append(CriticGap(kind="modality", description=f"No claim covers: {', '.join(uncovered)}.",
                                  query=" ".join(anchor + uncovered[:5]), priority=6.0, material=not answered))
        # Counter-argument: the opposing case must be present (a claim that argues against, or a source found by the
        # counter-argument searcher), or explicitly searched for.
        counter_cited = any(s["angle"] == "counter_argument" for s in view.sources if s["id"] in cited) or any(
            CONTRAST_CUES & set(words(c["claim"])) for c in view.claims
        )
        if not counter_cited:
            core = " ".join(core_terms(search_form(view.target or view.question)))
            gaps.append(CriticGap(kind="missing-counterarg", description="No claim presents an opposing view.",
                                  query=f"{core} {ANGLE_SUFFIX['counter_argument']}", priority=5.0,
                                  material=not answered))
        for contradiction in view.contradictions:
            if not contradiction["resolved"]:
                about_answer = not answered or bool(answer_ids & set(contradiction["source_ids"]))
                gaps.append(CriticGap(kind="unresolved-contradiction",
                                      description=f"Sources disagree on {contradiction['topic']}.",
                                      query=contradiction["topic"], priority=7.0, material=about_answer))
        # Single-source claims: worth a look, but another confirming citation would not change them (cosmetic).
        for claim in view.claims:
            if claim["verification"] == "unverified_single":
                gaps.append(CriticGap(kind="unverified-claim", description=f"Single source: {claim['claim'][:80]}",
                                      query=simplify_query(claim["claim"], keep=6), priority=2.0, material=False))
        return Decision(CriticReport(gaps=gaps, signoff=not any(g.material for g in gaps)))
