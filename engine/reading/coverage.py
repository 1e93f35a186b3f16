"""Whether the sources read are about the question's subject at all, so an answer can honestly say they are not.

"How do I configure a Brightwell router?" read against Python's documentation finds pages that share a word
("configure") and none about Brightwell; quoting the best of them as the answer misleads. The subject is missing when
a name the question writes with a capital (not its first word, not "I" or "Python") occurs in no source read, or when
most of the question's distinctive words (its framing left out) occur in none. An installed package's description
counts only when the question names that package: it describes a third-party tool, not the documentation's subject;
a word of an explanation question that only such descriptions use names a third-party thing the sources do not cover.
"""

from __future__ import annotations

import re

from satiate.engine.reading.leads import third_party
from satiate.state.records import SourceRecord
from satiate.tools.search.task_pages import FRAMING
from satiate.tools.text import SCAN_CHARS, content_terms, stem, stems, unique

NOT_COVERED = "the sources read do not cover"  # how a reason (and the report's lead) says the subject is missing
GENERIC_NAMES = frozenset({"i", "python", "pythons"})
MISSING_SHARE = 0.5  # more than this share of the distinctive words in no source read: the subject is not covered
_CAPITALISED = re.compile(r"(?<![\w.])([A-Z][\w+#-]*[A-Za-z0-9+#])")


def named_things(question: str) -> list[str]:
    """Words the question writes with a capital that are not its first word: "Brightwell", "Lisp", "GitHub"."""
    body = question.strip()
    first = re.match(r"\W*\w+", body)
    rest = body[first.end():] if first else body
    return unique(m.group(1) for m in _CAPITALISED.finditer(rest) if m.group(1).lower() not in GENERIC_NAMES)


def _evidence_texts(question: str, sources: list[SourceRecord]) -> list[str]:
    lowered = question.lower()
    texts = []
    for source in sources:
        if third_party(source) and not any(part in lowered for part in _package_names(source)):
            continue
        texts.append(f"{source.get('title', '')}\n{source.get('text', '')[:SCAN_CHARS]}")
    return texts


def _package_names(source: SourceRecord) -> list[str]:
    name = (source.get("title") or "").split(":", 1)[0].strip().lower()
    return [name] if len(name) > 2 else []


def not_covered(question: str, sources: list[SourceRecord], names_must_occur: bool = True) -> str | None:
    """Why the sources read are not about the question's subject (a reason starting with ``NOT_COVERED``), or None
    when they may be. ``names_must_occur`` False skips the capitalised-name test (a multi-hop question's far names
    are found by reading on, not by the first sources)."""
    texts = _evidence_texts(question, sources)
    if not texts:
        return None if not sources else f"{NOT_COVERED} it: only third-party package descriptions were read"
    joined = "\n".join(texts).lower()
    absent = [name for name in (named_things(question) if names_must_occur else [])
              if not any(re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", joined)
                         for part in name.lower().split("-") if part)]  # "URL-encode": "URL" will do
    if absent:
        return f"{NOT_COVERED} {', '.join(absent)}: no source read mentions it"
    distinctive = [t for t in unique(content_terms(question)) if t not in FRAMING]
    page_stems = [stems(text) for text in texts]
    missing = [t for t in distinctive if not any(stem(t) in page for page in page_stems)]
    third_party_only = [t for t in missing if names_must_occur and any(
        stem(t) in stems(source.get("text", "")[:SCAN_CHARS]) for source in sources if third_party(source))]
    if third_party_only:
        return f"{NOT_COVERED} {', '.join(third_party_only)}: only third-party package descriptions mention it"
    if distinctive and len(missing) > MISSING_SHARE * len(distinctive):
        return f"{NOT_COVERED} {' '.join(distinctive)}: no source read mentions {', '.join(missing)}"
    return None


def is_not_covered(reason: str) -> bool:
    return reason.lower().startswith(NOT_COVERED)
