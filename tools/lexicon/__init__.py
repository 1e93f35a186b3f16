"""Verb paraphrases from WordNet: "established" states "founded", "wed" states "married", "passed away" states "died";
the nouns that name a kind of person ("which nurse ...?" asks for a person); and which plain nouns are of a kind
("navy" is a colour, "blacksmith" a calling).

A question and its source rarely share every verb; a reader that demands the question's own verb abstains on
"When was the guild founded?" over "The guild was established in 1790". ``verbs.json`` (built by ``build.py`` from
WordNet 3.0; licence in ``WORDNET-LICENSE.txt``) holds the synsets that are among the first two senses of at least
two verbs. Words are compared by their stems, the way the reading layer compares every word.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from importlib import resources
from typing import Any

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


def _singulars(noun: str) -> list[str]:
    """The word as written and the singulars it may be the plural of ("leeks", "boxes", "lorries", "batsmen")."""
    word = noun.lower()
    forms = [word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else "",
             word[:-3] + "y" if word.endswith("ies") else "", word[:-3] + "man" if word.endswith("men") else ""]
    return [form for form in forms if form]


def names_a_person(noun: str) -> bool:
    """Whether the noun's most frequent sense (WordNet) is a kind of person: "clergyman", "nurses", "batsmen", not
    "firm" or "band". A plural is read as its singular; a hyphened compound WordNet does not list is a kind of its
    last word ("coal-heaver", "cab-men")."""
    persons = _person_nouns()
    return any(form in persons or "-" in form and form.rsplit("-", 1)[1] in persons for form in _singulars(noun))


# WordNet's classes (lexicographer files) whose kinds are told by a plain noun rather than a name: foods ("leeks"),
# plants ("hawthorn") and substances ("oak"). Artifacts, animals, places and groups are as often single things with
# names of their own ("which boat?" asks for the boat's name), so they are not here; nor are attributes, most of
# which are measured ("what price", "what size"), but for the one told by a word: colour ("navy").
PLAIN_KIND_CLASSES = frozenset({13, 20, 27})  # noun.food, noun.plant, noun.substance
PLAIN_ATTRIBUTES = ("colour",)
KIND_SENSES = 2  # a noun is of a kind by one of its first senses; a rare sense would make almost any word fit
# A calling is told by a noun for a person by their work, under the first sense of one of these: "blacksmith",
# "postman", "nurse", "grocer", "chemist", "tailor", "farmer" (a creator: "a person who grows or makes or invents
# things"); not a relative, a friend, a member, or a person by their traits.
CALLING_ROOTS = ("worker", "professional", "businessperson", "scientist", "engineer", "creator", "communicator")


@functools.cache
def _noun_graph() -> tuple[dict[str, list[int]], list[list[int]], list[int]]:
    packed = resources.files(__package__).joinpath("nouns.json.gz").read_bytes()
    data = json.loads(gzip.decompress(packed).decode("utf-8"))
    return data["senses"], data["parents"], data["lexfiles"]


def _senses(noun: str) -> list[int]:
    """The noun's senses, most frequent first, read as written, as the singular of a plural, or in the American
    spelling WordNet lists ("colour" as "color")."""
    return [sense for form in _forms(noun) for sense in form]


def _forms(noun: str) -> list[list[int]]:
    """The senses of each form the noun may be written for, in that order."""
    senses = _noun_graph()[0]
    forms = _singulars(noun)
    forms += [form[:-3] + "or" for form in forms if form.endswith("our")]
    return [senses[form] for form in dict.fromkeys(forms) if senses.get(form)]


def closure(start: Hashable, edges: Callable[[Any], Iterable[Any]]) -> set[Any]:
    """``start`` and everything reached from it by following ``edges`` (a sense's hypernyms, or the senses narrower
    than it): the walk both the table's builder and its reader make."""
    found: set[Any] = set()
    waiting = [start]
    while waiting:
        current = waiting.pop()
        if current not in found:
            found.add(current)
            waiting.extend(edges(current))
    return found


@functools.cache
def _above(sense: int) -> frozenset[int]:
    """The sense and every sense it is, through its hypernyms, a kind of."""
    parents = _noun_graph()[1]
    return frozenset(closure(sense, parents.__getitem__))


def is_a_noun(word: str) -> bool:
    """Whether WordNet knows the word (or the singular it may be the plural of) as a common noun."""
    return bool(_senses(word))


SPECIFIC_DEPTH = 7  # senses at least from a noun's first sense up to the root (itself counted) for it to be specific


def specific(noun: str) -> bool:
    """Whether the noun's first sense lies deep enough in WordNet's hierarchy to name a kind of its own ("vessel",
    "cart", "engine"), not a word for anything ("thing", "object", "item", "place")."""
    first = _senses(noun)[:1]
    return bool(first) and len(_above(first[0])) >= SPECIFIC_DEPTH


def a_plural(word: str) -> bool:
    """Whether the word is written as the plural of a noun WordNet lists ("owners", "batsmen"), not as a noun itself."""
    senses = _noun_graph()[0]
    forms = _singulars(word)
    return forms[0] not in senses and any(form in senses for form in forms[1:])


def kind_of(noun: str, kind: str, senses: int = KIND_SENSES) -> bool:
    """Whether one of the noun's first ``senses`` is, through WordNet's hypernyms, a kind of any sense of ``kind``:
    "navy" of "colour", "leeks" of "vegetable", "niece" of "relative". A caller whose question already fixes the
    sense may read them all ("van" is a vehicle by its third)."""
    kinds = set(_senses(kind))
    return not kinds & set(_senses(noun)[:1]) and _under(noun, kinds, senses)  # "colour" itself tells no colour


def _under(noun: str, kinds: set[int], senses: int = KIND_SENSES) -> bool:
    return bool(kinds) and any(_above(sense) & kinds for sense in _senses(noun)[:senses])


# WordNet's noun.artifact ("wheel", "organ"), noun.group ("council", "club", "choir") and noun.time ("years", "week")
ARTIFACT_CLASS, GROUP_CLASS, TIME_CLASS = 6, 14, 28


def _first_class(noun: str) -> int | None:
    """The lexicographer class of the noun's most frequent sense, as written or as the singular of a plural."""
    forms = _forms(noun)
    return _noun_graph()[2][forms[0][0]] if forms else None


def names_a_body(noun: str) -> bool:
    """Whether the noun's first sense is a body of people ("council", "society", "choir"): what a name it heads
    names is no one person."""
    return _first_class(noun) == GROUP_CLASS


def names_a_made_thing(noun: str) -> bool:
    """Whether the noun's first sense is a thing people make ("waterwheel", "organ", "bridge")."""
    return _first_class(noun) == ARTIFACT_CLASS


def names_a_time(noun: str) -> bool:
    """Whether the noun's first sense is a stretch or unit of time ("years", "weeks", "century")."""
    return _first_class(noun) == TIME_CLASS


def told_by_a_plain_noun(kind: str) -> bool:
    """Whether things of this kind are told by a plain noun (a colour, a food, a plant, a substance), not a name: its
    first sense (as written, or of the singular or spelling it may stand for) is in one of ``PLAIN_KIND_CLASSES``, or
    is (a kind of) one of ``PLAIN_ATTRIBUTES``."""
    attributes = {sense for attribute in PLAIN_ATTRIBUTES for sense in _senses(attribute)}
    return any(_noun_graph()[2][form[0]] in PLAIN_KIND_CLASSES or _above(form[0]) & attributes
               for form in _forms(kind))


def a_calling(noun: str) -> bool:
    """Whether the noun names a person by their work ("blacksmith", "electricians"): its first sense, as for any
    noun of a person (``names_a_person``), is a kind of one of ``CALLING_ROOTS`` and not a root itself ("workers"
    names no particular work)."""
    roots = {_senses(root)[0] for root in CALLING_ROOTS}
    first = _senses(noun)[:1]
    return bool(first) and first[0] not in roots and bool(_above(first[0]) & roots)


SUM_ROOT = "outlay"  # WordNet's money spent: a rent, a fee, a toll, a fare, a wage, a price are kinds of it


def names_a_sum(noun: str) -> bool:
    """Whether the noun names a sum paid or charged ("rent", "toll", "fees", "salary"): a kind of ``SUM_ROOT``."""
    return kind_of(noun, SUM_ROOT)


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
