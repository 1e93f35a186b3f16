"""The grounding gate (design §10): no claim survives that cites text the run does not hold.

Two checks, both mechanical and run on every synthesis whatever engine wrote it:
1. every cited id resolves to a stored source with read text (an unknown id is a hallucinated citation);
2. the cited text supports the claim: enough of the claim's content words, and every number it states, occur in one
   passage of the source, and that passage gives the names the claim makes act the same part (``engine.roles``);
   the best such passage's span is recorded.
Citations that fail are removed; a claim left with none is cut. Nothing is shipped silently: each cut is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from satiate.engine.reading.referents import referent
from satiate.engine.roles import role_problem
from satiate.state.contracts import ClaimDraft, ContradictionDraft
from satiate.state.records import ClaimRecord, SourceRecord, SupportSpan, Verification
from satiate.tools.text import content_terms, entities, jaccard, numbers, sentences, stems

PRIMARY_SOURCE_TYPES = frozenset({"primary", "official", "peer"})


@dataclass
class GateResult:
    claims: list[ClaimRecord]
    cut: list[dict] = field(default_factory=list)
    hallucinated_ids: list[str] = field(default_factory=list)
    unsupported_citations: int = 0

    @property
    def passed(self) -> int:
        return len(self.claims)


WINDOW_SENTENCES = 3  # the most adjacent sentences one passage of support holds (a brief quotes runs of up to 3)


def _windows(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """Passages a claim may rest on: each sentence, and each run of two or three adjacent ones (a brief's claim may
    quote such a run), with the sentences they hold; shorter passages first, so a tie goes to the tighter one."""
    passages = sentences(text)
    windows: list[tuple[int, int, tuple[str, ...]]] = []
    for size in range(1, WINDOW_SENTENCES + 1):
        windows += [(run[0].start, run[-1].end, tuple(s.text for s in run))
                    for run in (passages[i:i + size] for i in range(len(passages) - size + 1))]
    return windows or [(0, len(text), (text,))]


def _overlaps(claim: str, text: str, title: str) -> list[tuple[SupportSpan, tuple[str, ...]]]:
    """Every passage of ``text`` with the share of the claim's content words it covers, best first (ties: first)."""
    # the title's words count as said, unless the claim is the title's own summary (a module page's first line)
    claim_terms = (stems(claim) - stems(title) if title else stems(claim)) or stems(claim)
    if not claim_terms:
        return []
    spans = [(SupportSpan(source_id="", start=start, end=end,
                          overlap=round(len(claim_terms & stems(text[start:end])) / len(claim_terms), 3)), held)
             for start, end, held in _windows(text)]
    return sorted(spans, key=lambda pair: -pair[0]["overlap"])


def best_support(claim: str, text: str, title: str = "") -> SupportSpan | None:
    """The passage of ``text`` (one sentence or a run of up to three adjacent ones) that covers most of the claim's
    content words.

    The page's title counts as part of every passage: "Its breakwater is 17 metres high" on the page "Harbor of
    Velmora" supports "Harbor of Velmora's breakwater is 17 metres high"."""
    spans = _overlaps(claim, text, title)
    return spans[0][0] if spans else None


def supports(claim: str, source: SourceRecord, min_overlap: float) -> SupportSpan | None:
    """The support span if the source's text supports the claim, else None.

    The best passage that carries ``min_overlap`` of the claim's words, every number it states, and gives each name
    the claim makes act the same part (``engine.roles``): "Ada Wren was the daughter of the mayor Ada Wren" does not
    rest on "Bo Wren was the daughter of the mayor Ada Wren", though every word and name is there."""
    title = source.get("title", "")
    text = source["text"]
    for span, held in _overlaps(claim, text, title):
        if span["overlap"] < min_overlap:
            break
        if not numbers(claim) <= numbers(text[span["start"] : span["end"]]):
            continue
        # a claim quoting a run of sentences is judged a sentence at a time: each gives its names their own parts
        parts = [part.text for part in sentences(claim)] if len(held) > 1 else [claim]
        # a sentence opening on a pronoun speaks of what it stands for: the page's subject, or whom it names before
        said_of = [(sentence, referent(sentence, title, text)) for sentence in held]
        if any(role_problem(part, said_of) is not None for part in parts or [claim]):
            continue
        span["source_id"] = source["id"]
        return span
    return None


def independent(a: SourceRecord, b: SourceRecord) -> bool:
    """Two sources count separately only if they are different canonical sources and one does not copy the other."""
    if a["key"] == b["key"]:
        return False
    return jaccard(content_terms(a["text"]), content_terms(b["text"])) < 0.8


def verification_tag(
    source_ids: list[str], by_id: Mapping[str, SourceRecord], contradicted: bool
) -> Verification:
    """The verification tag (design §10) of a claim whose citations all passed the support check."""
    if contradicted:
        return "contradicted"
    cited = [by_id[i] for i in source_ids]
    if any(s.get("source_type") in PRIMARY_SOURCE_TYPES for s in cited):
        return "verified_primary"
    for index, first in enumerate(cited):
        if any(independent(first, other) for other in cited[index + 1 :]):
            return "verified_multi"
    return "unverified_single"


def gate_claims(
    drafts: list[ClaimDraft],
    sources: Mapping[str, SourceRecord],
    min_overlap: float,
    contradictions: list[ContradictionDraft] | None = None,
) -> GateResult:
    """Apply both checks to every draft claim; ``sources`` is the store (keyed by canonical key)."""
    by_id = {s["id"]: s for s in sources.values() if s.get("text") and not s.get("suspicious")}
    # A source that tries to instruct the reader never supplies a claim (design: invariants); citing it is no support.
    instructing = {s["id"] for s in sources.values() if s.get("suspicious")}
    # Unresolved: both sides are contradicted. Resolved: only the side the evidence did not favour.
    disputed_ids = {i for c in contradictions or [] for i in c.source_ids if not c.resolved or i not in c.favoured_ids}
    result = GateResult(claims=[])
    for draft in drafts:
        unknown = [i for i in draft.source_ids if i not in by_id and i not in instructing]
        result.hallucinated_ids.extend(unknown)
        spans: list[SupportSpan] = []
        for source_id in dict.fromkeys(i for i in draft.source_ids if i in by_id):
            span = supports(draft.claim, by_id[source_id], min_overlap)
            if span is None:
                result.unsupported_citations += 1
            else:
                spans.append(span)
        if not spans:
            reason = "hallucinated citation" if unknown and len(unknown) == len(draft.source_ids) else (
                "no citation" if not draft.source_ids else "it cites only a source that tries to instruct the reader"
                if set(draft.source_ids) <= instructing | set(unknown) else "cited text does not support the claim"
            )
            result.cut.append({"claim": draft.claim, "source_ids": draft.source_ids, "reason": reason})
            continue
        kept_ids = [s["source_id"] for s in spans]
        contradicted = bool(disputed_ids & set(kept_ids))
        result.claims.append(
            ClaimRecord(
                claim=draft.claim,
                source_ids=kept_ids,
                confidence=draft.confidence,
                support=spans,
                verification=verification_tag(kept_ids, by_id, contradicted),
                role=draft.role,
            )
        )
    return result


STATEMENT_MIN_TERMS = 3  # a claim of fewer content words ("MSc", "Germany") is an answer, not a statement
STATEMENT_MIN_COVERAGE = 0.2  # share of a cited sentence's content words a claim restating it carries at least


def sentence_support_problem(claim: str, cited: list[str], min_overlap: float) -> str | None:
    """Why ``claim`` does not rest on exactly the ``cited`` sentences, or None when it does.

    A model shown numbered sentences names the ones each claim restates; the claim is checked against those sentences
    alone, not the rest of their pages: every number it states and every name it gives must occur in them, at least
    ``min_overlap`` of its content words, and a name it makes act must act in them (``engine.roles``); a sentence may
    carry its page's title as a label ("Orren Festival: It was first held in 1901."). A paraphrase passes; an
    invented, swapped or off-topic fact does not, and neither does a bare word lifted from a sentence: a claim
    restates enough of one cited sentence (``STATEMENT_MIN_COVERAGE`` of its content words, ``STATEMENT_MIN_TERMS``
    at least) to stand as a statement.
    """
    text = " ".join(cited)
    if not text.strip():
        return "it cites no sentence"
    if len(stems(claim)) < STATEMENT_MIN_TERMS:
        return "it is not a statement (too few words)"
    missing_numbers = sorted(numbers(claim) - numbers(text))
    if missing_numbers:
        return f"the cited sentences do not state {', '.join(missing_numbers)}"
    cited_terms = stems(text)
    lowered = text.lower()
    missing_names = [name for name in dict.fromkeys(entities(claim))
                     if name.lower() not in lowered and not (stems(name) and stems(name) <= cited_terms)]
    if missing_names:
        return f"the cited sentences do not name {', '.join(missing_names)}"
    terms = stems(claim)
    if not terms:
        return "it states nothing the sentences could support"
    overlap = len(terms & cited_terms) / len(terms)
    if overlap < min_overlap:
        return f"only {overlap:.0%} of its words are in the cited sentences"
    coverage = max(len(terms & stems(sentence)) / (len(stems(sentence)) or 1) for sentence in cited)
    if coverage < STATEMENT_MIN_COVERAGE:
        return "it restates too little of the sentence it cites to stand as a statement"
    return role_problem(claim, [labelled(passage) for passage in cited])


def labelled(passage: str) -> tuple[str, str]:
    """(sentence, title) of a cited passage shown as "Orren Festival: It was first held in 1901.": the label names
    what a sentence opening with "It" or "The festival" is about."""
    label, colon, sentence = passage.partition(": ")
    return (sentence, label) if colon and sentence else (passage, "")
