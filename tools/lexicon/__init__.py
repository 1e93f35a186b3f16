"""Verb paraphrases from WordNet: "established" states "founded", "wed" states "married", "passed away" states "died";
and the nouns that name a kind of person ("which nurse ...?" asks for a person).

A question and its source rarely share every verb; a reader that demands the question's own verb abstains on
"When was the guild founded?" over "The guild was established in 1790". ``verbs.json`` (built by ``build.py`` from
WordNet 3.0; licence in ``WORDNET-LICENSE.txt``) holds the synsets that are among the first two senses of at least
two verbs. Words are compared by their stems, the way the reading layer compares every word.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from importlib import resources

from satiate.tools.text import stem, words


def _stemmed(lemma: str) -> str:
    return " ".join(stem(word) for word in words(lemma))


@functools.cache
def _paraphrase_table() -> dict[str, frozenset[str]]:
    text = resources.files(__package__).joinpath("verbs.json").read_text(encoding="utf-8")
    table: dict[str, set[str]] = defaultdict(set)
    for synset in json.loads(text)["synsets"]:
        stemmed = {_stemmed(lemma) for lemma in synset}
        for key in stemmed:
            table[key] |= stemmed - {key}
    return {key: frozenset(others) for key, others in table.items()}


def paraphrases(term: str) -> frozenset[str]:
    """The stems (a phrase's stems joined by spaces: "set up") of the verbs that share a frequent sense with the verb
    whose stem is ``term``; empty for a word WordNet lists no such verb for."""
    return _paraphrase_table().get(term, frozenset())


@functools.cache
def _person_nouns() -> frozenset[str]:
    text = resources.files(__package__).joinpath("persons.json").read_text(encoding="utf-8")
    return frozenset(json.loads(text)["nouns"])


def names_a_person(noun: str) -> bool:
    """Whether the noun's most frequent sense (WordNet) is a kind of person: "clergyman", "nurses", "batsmen", not
    "firm" or "band". A plural is read as its singular."""
    word = noun.lower()
    singulars = [word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else "",
                 word[:-3] + "man" if word.endswith("men") else ""]
    return any(form in _person_nouns() for form in singulars if form)


PARTICLES = frozenset("out up down off over away back".split())  # a verb's particle: "move out", "drew it out"
PARTICLE_REACH = 3  # words between a verb and its particle ("handed the Kesh ferry over")


def phrase_stems(text: str) -> set[str]:
    """The stems of each pair of adjacent words ("set up", "pass away"), and of a verb with its particle a few words
    on ("handed the ferry over": "hand over"): what a two-word paraphrase is matched in."""
    tokens = words(text)
    stemmed = [stem(word) for word in tokens]
    pairs = {f"{first} {second}" for first, second in zip(stemmed, stemmed[1:])}
    return pairs | {f"{stemmed[at]} {tokens[on]}" for at in range(len(tokens))
                    for on in range(at + 2, min(at + 2 + PARTICLE_REACH, len(tokens))) if tokens[on] in PARTICLES}


# An act and its converse: the same event told from its other side ("A sold it to B" is "B bought it from A"). For
# each act, the converse verb and the word after which the converse names the one who did the act asked.
# ("give" is left out: "was given the post" tells the receiving in the passive, not the giving.)
_CONVERSES = {"buy": ("sell", "to"), "purchase": ("sell", "to"), "sell": ("buy", "from"), "borrow": ("lend", "to"),
              "lend": ("borrow", "from"), "take over": ("hand over", "to"), "hand over": ("take over", "from")}


@functools.cache
def _converse_table() -> dict[str, tuple[str, str]]:
    return {_stems(act): (_stems(other), mark) for act, (other, mark) in _CONVERSES.items()}


def _stems(phrase: str) -> str:
    """A phrase's stems joined by spaces ("take over"), as ``phrase_stems`` writes them."""
    return " ".join(stem(word) for word in phrase.split())


def converse(term: str) -> tuple[str, str] | None:
    """The converse of the act whose stem is ``term`` (its verb's stem) and the word that marks, in a sentence told
    through the converse, the one who did the act ("sold the mill to Ada Pell": "to" marks the buyer)."""
    return _converse_table().get(term)


# A relation one act makes: a husband, wife or spouse is who someone married ("She wed Ivo Marr" says who her husband
# was), as a founder is who founded.
_RELATION_ACTS = {"husband": "marry", "wife": "marry", "spouse": "marry"}


def act_of_relation(term: str) -> str:
    """The stem of the verb whose act makes the relation whose noun's stem is ``term``, or ""."""
    return next((stem(act) for noun, act in _RELATION_ACTS.items() if stem(noun) == term), "")
