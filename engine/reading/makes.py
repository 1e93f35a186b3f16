"""Makes and brands: "what make of van ran the rounds?" is answered by the maker's name a source sets right before
the thing's noun, or before a noun for a kind of it ("a Dorset lorry" for "what make of vehicle"), and by nothing
else the sentence names.

The thing's own name ("the van Nell", "Nell the van") is no make, nor is the street it stood in: only the name that
qualifies the noun says who made it.
"""

from __future__ import annotations

import re

from satiate.engine.reading.names import name_spans
from satiate.tools.lexicon import kind_of
from satiate.tools.text import STOPWORDS, stem, verb_shaped, words

MAKE_WORDS = frozenset("make makes brand brands marque marques model models".split())
MAKE_SENSES = 8  # a noun's senses read for a kind of the thing: the question fixes which one is meant ("van" is a
# vehicle by its third)
# "what make of van ...?"; "what make was the pump (that) Ada fitted?": the thing's noun, its last word
_MADE_OF = re.compile(r"^(?:what|which) (?:make|brand|marque|model) of (?P<phrase>(?:[a-z]+ ?){1,3})")
_MADE_WAS = re.compile(r"^(?:what|which) (?:make|brand|marque|model) (?:was|is|were|are) "
                       r"(?:the|his|her|its|their|a|an) (?:[a-z'’-]+ ){0,3}?(?P<noun>[a-z]+)"
                       r"(?= [A-Z]| (?:that|which|who|she|he|they|it)\b|[?.]?$)")


_MAKE_FIELD = re.compile(r"\b(?i:make|maker|brand|marque|model)\s*:\s*([A-Z][\w'’.-]*(?:\s+(?:&|[A-Z][\w'’.-]*)){0,3})")


def made_noun(question: str) -> str:
    """The noun of the thing whose make the question asks, or ""."""
    text = question.strip()
    lowered = " ".join(words(text))
    if made_of := _MADE_OF.match(lowered):  # the noun phrase ends where a verb or a function word begins
        phrase = []
        for word in made_of.group("phrase").split():
            if word in STOPWORDS or verb_shaped(word):
                break
            phrase.append(word)
        return phrase[-1] if phrase else ""
    made_was = _MADE_WAS.match(text[:1].lower() + text[1:])
    noun = made_was.group("noun") if made_was else ""
    return "" if noun in STOPWORDS else noun


def make_fillers(text: str, noun: str) -> list[str]:
    """The names the text sets right before the noun, or before a noun for a kind of it ("Dorset" of "a Dorset
    lorry" for a vehicle's make), and the value of a field labelled by a make word ("Make: Dorset"). A lone word
    that opens a line as its verb ("Played piano at chapel.") is none."""
    found = [match.group(1) for match in _MAKE_FIELD.finditer(text)]
    for span in name_spans(text):
        if len(span.split()) == 1 and (span.lower() in STOPWORDS or verb_shaped(span.lower())):
            continue
        for after in re.finditer(rf"{re.escape(span)}\s+([a-z][a-z-]*)", text):
            word = after.group(1)
            if stem(word) == stem(noun) or kind_of(word, noun, senses=MAKE_SENSES):
                found.append(span)
    return list(dict.fromkeys(found))
