"""The place a "what" question leaves open in its clause, and the plain noun phrase a sentence puts there.

"What did the family turn the chapel into?" leaves open what follows "into"; "What was the roof made of?" what
follows "of"; "What caused the flood?" the one that did the causing. A sentence that tells the same act ("turned the
chapel into a drill hall", "was caused by a blocked culvert") puts its answer in that place, and the answer is often
a common noun, no name: "drill hall", "blocked culvert". Names are read elsewhere (``reading.names``); this module reads
only the lower-case noun phrases that stand where the question's own wh-word would stand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from satiate.engine.reading.chain import CLAUSE_OPENERS
from satiate.engine.reading.names import DETERMINERS
from satiate.engine.roles import IRREGULAR_PASTS, SUBJECT_PRONOUNS
from satiate.tools.lexicon import PARTICLES
from satiate.tools.text import AUXILIARIES, STOPWORDS, stem, verb_shaped, words

# Prepositions a question may leave at its end ("made of?", "turn it into?", "trained as?", "kept for?")
STRANDED = frozenset("into as of for from with by on in to".split())
# What may follow a stranded preposition in the question and still leave it stranded: the end, or a clause about
# when ("trained as before taking over", "kept for once the new one was built")
AFTER_STRANDED = frozenset("before after when while until once during since".split())
VERB_REACH = 6  # words a sentence may set between the act and its preposition ("turned the chapel into")
CLAUSE_STARTS = CLAUSE_OPENERS | frozenset("and but or".split())  # where the act's clause begins, looking back
PHRASE_ENDS = STOPWORDS | PARTICLES  # a function word or a verb's particle ends the noun phrase
PHRASE_WORDS = 3  # words at most of the noun phrase that fills the place (a determiner not counted)


@dataclass(frozen=True)
class Slot:
    """Where the answer stands: after the act and ``preposition``, as the act's object (no preposition), or as
    the one that did the act (``doer``: "what caused the fire?" is answered by "caused by X" or "X caused")."""

    acts: frozenset[str]  # stems of the question's clause: any of them may be the act, or the object between
    preposition: str = ""
    doer: bool = False


def asked_slot(question: str) -> Slot | None:
    """The place a "what ...?" question leaves open ("what did they turn it into?", "what award did she receive?",
    "what caused the fire?"), or None for any other question and for "what is X?", which asks for a description."""
    tokens = words(question)
    if len(tokens) < 3 or tokens[0] != "what":
        return None
    # "what award did she receive?": a noun of the question's own names the kind; the clause follows it
    opening = 2 if len(tokens) > 3 and tokens[1] not in AUXILIARIES and tokens[2] in AUXILIARIES else 1
    if tokens[opening] in AUXILIARIES:
        clause = tokens[opening + 1:]
        stranded = _stranded(clause)
        acts = frozenset(stem(word) for word in clause if word not in STRANDED | AUXILIARIES | DETERMINERS)
        if stranded:
            return Slot(acts, preposition=stranded)
        if tokens[opening] in ("did", "does", "do") and len(clause) > 1:
            return Slot(acts)  # "what did the mill grind?": the act's object
        return None
    if verb_shaped(tokens[1]) or tokens[1] in IRREGULAR_PASTS:
        return Slot(frozenset({stem(tokens[1])}), doer=True)  # "what caused the fire?"
    return None


def _stranded(tokens: list[str]) -> str:
    """The preposition the question leaves without its object: the last word, or the last before a clause about
    when ("what had she trained as before taking over?")."""
    for at, word in enumerate(tokens):
        if word in STRANDED and at > 0 and (at == len(tokens) - 1 or tokens[at + 1] in AFTER_STRANDED):
            return word
    return ""


def slot_fillers(text: str, slot: Slot) -> list[str]:
    """The plain noun phrases the sentence puts in the slot: after a form of the act and the preposition, after the
    act itself (its object), or, for the doer, after "by" or before the act. Phrases that start with a capital are
    names, read elsewhere."""
    tokens = re.findall(r"[A-Za-z][\w'’-]*|[^\w\s]", text)
    found: list[str] = []
    for at, token in enumerate(tokens):
        word = token.lower()
        if stem(word) not in slot.acts or not (verb_shaped(word) or word in IRREGULAR_PASTS):
            continue  # the act as a sentence tells it: "turned", "made", "caused" (not "the roof of the loft")
        if not slot.doer and not _done_by_the_asked(tokens, at, slot):
            continue  # "the crew received a bronze medal" for "what did the coxswain receive?"
        if slot.doer:
            passive = at + 1 < len(tokens) and tokens[at + 1].lower() == "by"
            phrase = _phrase_after(tokens, at + 2) if passive else _phrase_before(tokens, at)
        elif slot.preposition:
            reach = tokens[at + 1: at + 1 + VERB_REACH]
            if slot.preposition not in (word.lower() for word in reach):
                continue
            after = at + 1 + [word.lower() for word in reach].index(slot.preposition) + 1
            between = [word.lower() for word in tokens[at + 1: after - 1]]
            if any(not (word in STOPWORDS or stem(word) in slot.acts) for word in between):
                continue  # "made a speech of some length": what the act is done to is not the question's thing
            phrase = _phrase_after(tokens, after)
        else:
            phrase = _phrase_after(tokens, at + 1)
        if phrase and phrase not in found:
            found.append(phrase)
    return found


def _done_by_the_asked(tokens: list[str], at: int, slot: Slot) -> bool:
    """The act's clause is told of the question's own subject: the words before the act, back to the clause's
    start, name it (a word of the question), stand for it (a pronoun), or are no subject at all ("turned into")."""
    said: list[str] = []
    for token in reversed(tokens[:at]):
        word = token.lower()
        if not token[:1].isalpha() or word in CLAUSE_STARTS:
            break
        said.append(word)
    content = [word for word in said if word not in STOPWORDS]
    return not content or bool(SUBJECT_PRONOUNS & set(said)) or any(stem(word) in slot.acts for word in content)


def _phrase_after(tokens: list[str], at: int) -> str:
    """The lower-case noun phrase that starts at ``at`` (after one determiner), up to ``PHRASE_WORDS`` words,
    ending before a function word or punctuation; "" when a name or nothing stands there."""
    if at < len(tokens) and tokens[at].lower() in DETERMINERS:
        at += 1
    phrase: list[str] = []
    for token in tokens[at: at + PHRASE_WORDS]:
        if not token[:1].isalpha() or token.lower() in PHRASE_ENDS or token[:1].isupper() or \
                len(token) > 4 and token.endswith("ly"):
            break  # a function word, a particle, a name or an adverb ("mostly") ends the phrase
        phrase.append(token)
    end = at + len(phrase)
    if end < len(tokens) and tokens[end][:1].isupper():
        return ""  # "the old Kesh mill": the words qualify a name
    while phrase and verb_shaped(phrase[-1]):
        phrase.pop()  # "a drill hall opened": the phrase ends before the next verb
    return " ".join(phrase)


def _phrase_before(tokens: list[str], at: int) -> str:
    """The lower-case noun phrase that ends just before ``at`` and opens with a determiner ("a gas engine
    replaced it"); "" when none does."""
    for start in range(at - 1, max(-1, at - PHRASE_WORDS - 2), -1):
        if tokens[start].lower() in DETERMINERS:
            phrase = tokens[start + 1: at]
            if phrase and all(t[:1].isalpha() and t[:1].islower() and t not in STOPWORDS for t in phrase):
                return " ".join(phrase)
            return ""
        if not tokens[start][:1].isalpha():
            return ""
    return ""


def fills_slot(question: str, answer: str, texts: tuple[str, ...] | list[str]) -> bool:
    """A cited sentence puts the answer in the place the question leaves open."""
    slot = asked_slot(question)
    return slot is not None and any(answer in slot_fillers(text, slot) for text in texts)
