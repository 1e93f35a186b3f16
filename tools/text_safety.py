"""Spotting text that talks to the model instead of informing the reader (prompt injection in a source).

``instruction_like`` is a pure, conservative test on one sentence: it flags sentences that address a model or try to
steer the answer ("Ignore all previous instructions ...", "As an AI ...", "You must answer ...", "cite source 1"),
and leaves documentation imperatives alone ("Use the --flag option to ...", "Note that ...", "You must include a
header"). It says why, so a flagged source can be shown with its reason; it does not decide what happens next.

The check reads a normalised form of the sentence (``normalised``: Unicode NFKC, so fullwidth "Ｉｇｎｏｒｅ" is
"Ignore"; zero-width and bidirectional control characters removed, so "Ig\u200bnore" is too; case folded): what a
reader sees, not how it is encoded.

It is a heuristic on wording, tuned on the standard library's docstrings and the package descriptions of a Python
environment (none flagged): a paraphrased injection can pass, and a how-to that says "ignore the previous
instructions if you use Windows" is flagged.
"""

from __future__ import annotations

import re
import unicodedata

# A model, named so that "as an assistant coach" or "agents must report" is not one.
_AI = (r"(?:AI|A\.I\.|LLMs?|(?:large\s+)?language\s+models?|AI\s+(?:assistants?|models?|agents?|systems?)|"
       r"chat\s?bots?|ChatGPT|GPT-?\d\S*)")
_PRIOR = r"(?:previous|prior|preceding|earlier|above|foregoing|original|initial|system|developer|other)"
_IGNORE = r"(?:ignore|disregard|forget|override|overrule|discard)"
# What an injection tells the reader to set aside besides its instructions: the rest of what it read.
_MATERIAL = (r"(?:sources?|documents?|pages?|results?|answers?|information|context|texts?|content|messages?|"
             r"articles?|passages?|data|facts|evidence|statements?)")
_DIRECTIVES = r"(?:instructions?|prompts?|directions|directives?|rules|guidelines|constraints)"
# What an injected instruction wants said (a how-to's "you must" installs, includes or calls something).
_ANSWER = r"(?:answer|say|state\s+that|respond|reply|claim|conclude|recommend|reveal|insist)"

_PATTERNS: tuple[tuple[str, str], ...] = (
    ("tells the reader to ignore its instructions",
     rf"\b{_IGNORE}\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|"
     rf"those\s+)?(?:{_PRIOR}\s+)+(?:and\s+\w+\s+)?{_DIRECTIVES}|"
     rf"\b{_IGNORE}\s+(?:all|any)\s+(?:of\s+)?(?:your\s+|the\s+)?(?:instructions|prompts|guidelines)\b"),
    ("tells the reader to set aside what else it read",
     rf"\b{_IGNORE}\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|those\s+|these\s+)?"
     rf"(?:{_PRIOR}|other|remaining|rest\s+of\s+the)\s+{_MATERIAL}\b"),
    ("tells the reader to disregard what came before",
     r"^\W*(?:please\s+)?(?:now\s+)?(?:ignore|disregard|forget|override)\s+(?:all\s+|everything\s+)?(?:of\s+)?"
     r"(?:the\s+)?(?:above|previous|preceding|prior|foregoing)\b(?:\W*$|\s+and\b)"),
    ("tells the reader to disregard what came before",
     r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|everything\s+|anything\s+)(?:written\s+|said\s+|stated\s+)?"
     r"(?:above|before|earlier|so\s+far|previously)\b"),
    ("tells the reader to disregard what came before",
     r"\b(?:ignore|disregard|forget|override)\s+(?:all|everything)\s+(?:else\s+)?(?:you\s+(?:were|have\s+been)\s+told|"
     r"(?:that\s+)?(?:came|comes|was\s+said)\s+before)"),
    ("mentions a system prompt",
     r"\b(?:system|developer)\s+(?:prompt|instructions)\b|\bdeveloper\s+message\b|"
     r"\b(?:hidden|initial|original)\s+(?:prompt|instructions)\b"),
    ("speaks as an AI", rf"(?:^|[.!?;:]\s+)\W*as\s+an?\s+{_AI}\b"),
    ("addresses an AI reader",
     rf"\b(?:if|when)\s+you\s+are\s+(?:an?\s+)?{_AI}\b|"
     rf"\b(?:note|message|attention|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?{_AI}\s*[:,]|"
     rf"^\W*(?:attention|note|hey|dear)\W+(?:the\s+|all\s+|any\s+)?{_AI}\s*[:,!]|"
     rf"^\W*(?:hey|dear|attention|hello|hi)?\W*(?:the\s+)?{_AI}\s*[,:]\s*(?:please\s+)?(?:you\b|ignore|disregard|"
     rf"answer|say|state|respond|reply|always|never|do\b|must|cite)|"
     rf"\b{_AI}\s+(?:reading|summari[sz]ing|processing|parsing|crawling)\s+this\b|"
     rf"\b{_AI}\s+(?:must|should|shall|are\s+(?:required|instructed)\s+to)\s+(?:always\s+|only\s+)?{_ANSWER}\b"),
    ("tells a model who it is",
     r"\byou\s+are\s+(?:now\s+|no\s+longer\s+)(?:an?\s+|in\s+)?\w+|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b|"
     r"\bpretend\s+(?:to\s+be|that\s+you\s+are|you\s+are)\b|\byour\s+new\s+(?:role|task|instructions?)\b"),
    ("tells the reader what to answer",
     rf"\byou\s+(?:must|should|shall|will|need\s+to|have\s+to|are\s+(?:required|instructed|told)\s+to)\s+"
     rf"(?:always\s+|only\s+|now\s+|instead\s+)?{_ANSWER}\b"),
    ("tells the reader what to answer",
     r"(?:^|\band\s+)\W*(?:please\s+)?(?:now\s+)?(?:always\s+|only\s+)?(?:say|state|answer|claim|conclude|respond|reply)"
     r"\s+(?:that\b|only\b|[\"'“‘])"),
    ("tells the reader what to answer",
     r"\bin\s+your\s+(?:answer|response|reply|summary|report|output)\s*[,:]|"
     r"\b(?:the\s+)?(?:correct|right|real|true|final)\s+answer\s+(?:is|must\s+be|should\s+be)\b.*"
     r"\b(?:say|state|answer|respond|tell)\b"),
    ("tells the reader what to cite",
     r"\b(?:cite|quote|reference)\s+(?:only\s+)?(?:source|sources|document|doc)\s*\[?#?\s*\d+|\bcite\s+\[\d+\]|"
     r"\b(?:cite|credit)\s+(?:only\s+)?(?:this|these)\s+(?:page|source|sources|site|article|document)\b"),
    ("tells the reader to hide something",
     r"\bdo\s+not\s+(?:reveal|disclose|mention|repeat)\s+(?:this|these)\s+(?:instructions?|text|message|prompt)\b"),
    ("carries chat-template markup",
     r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<<SYS>>|"
     r"^\W*#{2,}\s*(?:instruction|system|response)\s*:|^\W*(?:system|assistant|developer)\s*(?:message\s*)?:"),
    ("announces new instructions",
     rf"^\W*(?:new|updated|revised|real|actual|important)\s+{_DIRECTIVES}\s*:|"
     r"^\W*(?:here\s+are\s+)?(?:your\s+|my\s+)?new\s+instructions?\s*(?:[:!,;.-]|$)|\b(?:your|my)\s+new\s+"
     r"instructions?\b|\bnew\s+instructions?\s*(?::|(?:override|replace|supersede)\b)|"
     r"\b(?:follow|obey)\s+(?:these|the|my)\s+new\s+instructions?\b|"
     rf"\b{_DIRECTIVES}\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?{_AI}\s*:"),
)
_COMPILED = tuple((reason, re.compile(pattern, re.IGNORECASE)) for reason, pattern in _PATTERNS)


# Characters that change how text is encoded but not what a reader sees: zero-width (space, joiners, word joiner,
# byte-order mark, soft hyphen, Mongolian vowel separator) and the bidirectional controls (marks, embeddings,
# overrides, isolates).
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u061c]")


def normalised(text: str) -> str:
    """``text`` as a reader sees it: NFKC (fullwidth and compatibility letters become plain ones), invisible
    characters removed, case folded, runs of whitespace one space."""
    return " ".join(_INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold().split())


def instruction_like(sentence: str) -> str | None:
    """Why ``sentence`` reads as an instruction to a model or to the reader about its answer, or None for prose."""
    text = normalised(sentence)
    for reason, pattern in _COMPILED:
        if pattern.search(text):
            return reason
    return None
