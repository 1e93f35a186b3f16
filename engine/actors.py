"""Key actors (design §9): the entities that recur most across what was read, each with a cited one-line profile."""

from __future__ import annotations

from satiate.engine.breadcrumbs import rank_breadcrumbs
from satiate.engine.reading.names import written_in_lower_case
from satiate.state.records import SourceRecord
from satiate.tools.text import SCAN_CHARS, claimable, sentences

DEFINING_VERBS = (" is ", " was ", " are ", " were ", " has been ", " refers to ")


def defining_sentence(name: str, text: str) -> str | None:
    """A sentence of ``text`` that says what ``name`` is ("Harbor Works was founded in 1987 by ...")."""
    for sentence in sentences(text[:SCAN_CHARS]):
        body = sentence.text
        after = body[len(name) : len(name) + 40]
        if body.startswith(name) and after[:1] in (" ", ",", "(") and any(verb in after for verb in DEFINING_VERBS):
            if claimable(body) and len(body) <= 400:
                return body
    return None


def key_actors(question: str, sources: list[SourceRecord], limit: int = 5) -> list[dict]:
    """The names that matter most to the question across what was read, each profiled by a sentence defining it.

    Names are ranked like breadcrumbs (by the relevance of the sentences that mention them, over the topical sources),
    the question's own names included. The profile is a sentence of a source (so it is grounded by construction),
    preferring the source titled with the entity. A name no source defines is left out: a name without a
    description is not worth a line.
    """
    actors: list[dict] = []
    ranked = rank_breadcrumbs(question, sources, limit=limit * 4, include_held=True, include_question=True)
    for crumb in ranked:
        if len(actors) >= limit:
            break
        if len(crumb.source_ids) < 2 or any(crumb.name in a["name"] or a["name"] in crumb.name for a in actors):
            continue
        if " " not in crumb.name and written_in_lower_case(crumb.name, (s["text"][:SCAN_CHARS] for s in sources)):
            continue  # "Optional arguments are ...": a common word that opens sentences is no actor
        ordered = sorted(sources, key=lambda s: crumb.name.lower() not in s["title"].lower())
        for source in ordered:
            profile = defining_sentence(crumb.name, source["text"])
            if profile:
                actors.append({"name": crumb.name, "mentions": len(crumb.source_ids), "profile": profile,
                               "source_ids": [source["id"]]})
                break
    return actors
