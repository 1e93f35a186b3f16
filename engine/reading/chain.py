"""What a short answer rests on, and how a text states a question's words.

The commitment (``reading.commitment``) and the type rules (``reading.fit``) read the same chain: the sentences that
state the answer, the hops before it, the pages cited and every source read. Both ask the same questions of its
texts: which stems a text says (a possessive dropped, two-word verbs kept), whether it states a question's word
(itself, the verb of an agent noun, or a verb of the same usual sense), and whether it mentions a name with its words
together. Those readings, the question's names and verb, and the collection's label live here, once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from satiate.engine.reading.names import DETERMINERS, LEADING_NOISE, SENTENCE_ADVERB, name_spans
from satiate.engine.roles import INTERVENING, IRREGULAR_PASTS
from satiate.tools.lexicon import PARTICLES, act_of_relation, converse, is_a_noun, paraphrases, phrase_stems
from satiate.tools.text import DO_FORMS, STOPWORDS, content_terms, stem, verb_shaped, words

VERDICT_KINDS = frozenset({"yes_no", "choice"})  # answered by reading two sides (``reading.verdicts``)
# "when did the mill that Ada Pell built close?": after "did" and its subject, the last word is the verb asked about
# (also "which club did X merge with?": a noun after the question word, a preposition after the verb)
ASKED_VERB = re.compile(r"^(?:\w+ )?(?:when|where|why|how|what|which|who|whom)(?: [a-z]+)? (?:do|does|did) .*? "
                        r"(?P<verb>[a-z]+)(?: (?:with|to|from|for|into|in|on|at|by|about|against))?\W*$")
# verbs that tell no event of their own: "the commission went through the council" is told by its other words
LIGHT_VERBS = frozenset(stem(verb) for verb in "go take make get have do come become give put".split())
# what follows a verb that takes a place or a thing: a particle or a preposition ("move out of", "sail to"), or "as"
# before the role it is done in ("start as ferry clerk at Kesh": the act is starting, not clerking)
VERB_FOLLOWERS = PARTICLES | frozenset("to from for into in on at with about against as".split())
LABEL_SHARE = 0.8  # a question name this share of the sources read carries is the collection's label
LABEL_MIN_SOURCES = 5  # ... judged only over this many sources or more
SUBJECT_SHARE = 0.5  # a question noun more than this share of the sources read use is what they are about
NAME_GAP = 2  # words that may stand between two words of a name in a text ("Ada B. Pell" mentions "Ada Pell")
COMPOUND_HEAD, COMPOUND_TAIL = 3, 4  # the shortest first and last parts of a compound read as its last word's act
CLAUSE_OPENERS = frozenset("who whom whose which that where when while".split())  # what opens a clause
OBJECT_REACH = 2  # words between a determiner and the last two words of a noun phrase that ends a question
# a field of a row ("Built by: Ada Pell" in "Boat: Tern; Built by: Ada Pell; Skippered by: Ivo Marr"): label, value
ROW_FIELD = re.compile(r"(?:^|;\s+)(?P<label>[A-Za-z][^:;\n]{0,59}):\s+(?P<value>[^;\n]+)")
STEMMED_TEXTS = 4096  # texts whose stems are remembered: a run's pages and sentences, asked about again and again


@dataclass(frozen=True)
class Chain:
    """What a short answer rests on: the sentences that state it, the hops before it, the pages cited, and the texts
    of every source read (titles included)."""

    question: str
    answer: str
    kind: str
    stating: tuple[str, ...]
    hops: tuple[str, ...] = ()
    answer_pages: tuple[str, ...] = ()  # titles of the pages the stating sentences come from
    hop_pages: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    read_titles: tuple[str, ...] = ()  # the titles of the sources read: where a collection's label shows


def question_names(question: str) -> list[str]:
    """The names the question gives, one by one ("A and B" are two names, "Tarrow's" is "Tarrow"). The word a
    question opens on is capitalised as its first word, not as a name, when it frames the question
    (``framing_opener``)."""
    found = []
    opening = framing_opener(question)
    for span in name_spans(question):
        for part in re.split(r"\s+(?:and|or)\s+", span):
            tokens = re.sub(r"['’]s$", "", part).split()
            while tokens and tokens[0].lower() in LEADING_NOISE:
                tokens = tokens[1:]
            if tokens and opening and question.lstrip().startswith(tokens[0]) and tokens[0].lower() == opening:
                tokens = tokens[1:]
            if tokens:
                found.append(" ".join(tokens))
    return list(dict.fromkeys(found))


def framing_opener(question: str) -> str:
    """The question's first word when it frames the question rather than asks it: an adverb or a participle of a
    verb the lexicon knows, and no noun ("According to ...", "Roughly how many ...", "Excluding Kesh, ..."); else
    "". A name that opens a question ("Hayden is ...", "Kipling wrote ...") is none."""
    word = (words(question)[:1] or [""])[0]
    framing = not is_a_noun(word) and (SENTENCE_ADVERB.fullmatch(word.capitalize()) is not None or word.endswith(
        ("ly", "ing")) and bool(paraphrases(stem(word))))
    return word if framing else ""


# where a question runs two names together: a preposition (with its article) between them, or a hyphen before the
# lower-case word that makes a name an adjective ("the Pell & Marr-built boat")
JOINED_NAMES = re.compile(r"\s+(?:of|for|to|in|at|on|from|by|with)(?:\s+the)?\s+|-(?=[a-z])")


def names_as_read(question: str, texts: list[str]) -> list[str]:
    """The question's names, one that no text mentions whole read as the names it joins when the texts mention each
    ("the Orlby Star for the Ada Pell rescue": "Orlby Star" and "Ada Pell"; "the Pell & Marr-built boat": "Pell &
    Marr"): a question may run two names together with a word a name of its own would not hold."""
    return list(dict.fromkeys(part for name in question_names(question) for part in as_read(name, texts)))


def as_read(name: str, texts: list[str]) -> list[str]:
    """The name, or the names it joins when the texts mention each of them but not it (see ``names_as_read``)."""
    parts = [part for part in JOINED_NAMES.split(name) if part[:1].isupper()]
    if parts != [name] and parts and not mentioned(name, texts) and all(mentioned(part, texts) for part in parts):
        return parts
    return [name]


def past_verbs_asked(question: str) -> set[str]:
    """The stems of the past forms the question asks through, regular or irregular ("founded", "left", "sold")."""
    return {stem(word) for word in content_terms(question) if verb_shaped(word) or word in IRREGULAR_PASTS}


def stems_of(text: str) -> set[str]:
    """Stems of the content words, a possessive "'s" dropped ("Tarrow's mill" speaks of Tarrow)."""
    return set(_stem_set(text))


@functools.lru_cache(maxsize=STEMMED_TEXTS)
def _stem_set(text: str) -> frozenset[str]:
    return frozenset(_sequence(text))


def said_in(text: str) -> set[str]:
    """What a text says, for ``states``: its stems and the stems of its two-word phrases ("set up", "passed away")."""
    return stems_of(text) | phrase_stems(text)


def states(term: str, said: set[str]) -> bool:
    """Whether stems ``said`` state a question's stem: itself, the verb of an agent noun ("singer" is stated by
    "sung", "writer" by "written", "director" by "directed"), or a verb that shares its usual sense ("founded" is
    stated by "established", "married" by "wed": ``tools.lexicon``), a relation by the act that makes it ("husband"
    by "married"), or by its converse ("bought" by "sold"; which side did the act asked is for the role checks to
    read)."""
    forms = {term}
    if len(term) > 4 and term.endswith(("er", "or")):
        forms |= {stem(term[:-2]), stem(term[:-2] + "e")}
    # a compound written as one word says its last part: "boatbuilders" build, "woodcarvers" carve
    forms |= {term[at:] for at in range(COMPOUND_HEAD, len(term) - COMPOUND_TAIL + 1)}
    forms |= {act} if (act := act_of_relation(term)) else set()  # "wed Ivo Marr" says who her husband was
    return any(form in said or paraphrases(form) & said or (other := converse(form)) and other[0] in said
               for form in forms)


def particles_asked(question: str) -> dict[str, str]:
    """The particle each verb of the question is asked with, by the verb's stem ("what did it turn out to be?":
    "turn" -> "out"); a noun before a particle ("the way out") is none."""
    return {stem(verb): particle for verb, particle in
            re.findall(rf"\b([a-z]+)\s+({'|'.join(PARTICLES)})\b", question.lower())
            if verb_shaped(verb) or known_verb(verb)}


def states_with_particle(term: str, particle: str, said: set[str]) -> bool:
    """Whether stems ``said`` state a verb asked with its particle ("turned out"): the phrase itself or a paraphrase
    of it, or the bare verb where the text never gives that verb another particle ("closed for good" says "shut
    down"; "turns up" does not say "turned out")."""
    if states(f"{term} {particle}", said):
        return True
    return states(term, said) and not any(f"{term} {other}" in said for other in PARTICLES if other != particle)


def mentioned(name: str, texts: list[str], together: bool = True) -> bool:
    """Whether one text holds every content word of the name together: in order, at most ``NAME_GAP`` words apart
    ("Harriet Pell opened a school for mill children" does not mention "Pell Mill"). A name with the noun it
    qualifies ("the Tarrow library") is read about when one text has both, ``together`` or not."""
    wanted = stems_of(name) or {stem(w) for w in words(name)}
    return any(wanted <= stems_of(text) and (not together or _together(_sequence(name), _sequence(text)))
               for text in texts) or _initialled(name, texts)


def _initialled(name: str, texts: list[str]) -> bool:
    """A person's name written with the initial of its first word ("A. Spurway" for "Alice Spurway"), when no text
    gives that initial and surname another first name ("Arthur Spurway"): notes and letters shorten names so."""
    parts = name.split()
    if len(parts) < 2 or not re.fullmatch(r"[A-Z][a-z]{2,}", parts[0]) or not parts[-1][:1].isupper():
        return False
    if not any(f"{parts[0][0]}." in text for text in texts):
        return False  # no initial written anywhere: nothing to read (``mentioned`` runs often, over every source)
    rest = r"\s+".join(re.escape(part) for part in parts[1:])
    others = re.compile(rf"\b{parts[0][0]}[a-z]+\s+{rest}\b")
    if any(match.group(0).split()[0] != parts[0] for text in texts for match in others.finditer(text)):
        return False  # another first name with that initial: the initial does not tell which
    return any(re.search(rf"\b{parts[0][0]}\.\s*{rest}\b", text) for text in texts)


def _sequence(text: str) -> list[str]:
    """The stems of the text's content words in order, a possessive "'s" dropped."""
    return [stem(re.sub(r"['’]s$", "", term)) for term in content_terms(text)]


def _together(name: list[str], text: list[str]) -> bool:
    """The name's words occur in the text in order, each within ``NAME_GAP`` words of the one before."""
    if len(name) < 2:
        return True
    for start, word in enumerate(text):
        if word != name[0]:
            continue
        at, found = start, True
        for part in name[1:]:
            following = [i for i in range(at + 1, min(len(text), at + NAME_GAP + 2)) if text[i] == part]
            if not following:
                found = False
                break
            at = following[0]
        if found:
            return True
    return False


def asked_verb(chain: Chain) -> str:
    """The verb a "when/where/what did X <verb>?" question asks about, its last word ("when did the mill close?"):
    the sentence that states the answer must state it. Not for a verdict, nor when the question ends in a name."""
    if chain.kind in VERDICT_KINDS:
        return ""
    asked = ASKED_VERB.match(chain.question[:1].lower() + chain.question[1:])
    if asked is None:
        return _verb_before_its_object(chain.question)
    preceding = words(chain.question[:asked.start("verb")])
    before = preceding[-1:]
    verb = asked.group("verb")
    if verb in PARTICLES and before and known_verb(before[0]) and not set(preceding[-2:-1]) & DETERMINERS:
        return before[0]  # "when did the mill shut down?": the verb is the word before its particle (not "the sign")
    if verb in STOPWORDS:
        return ""
    if before and stem(before[0]) in LIGHT_VERBS and paraphrases(f"{stem(before[0])} {stem(verb)}"):
        return ""  # "take place": a light verb and its noun the lexicon knows as one verb, "happen", tell no act
    if before and before[0] in DETERMINERS:
        # "open its doors", "reopen after the war": the last word is a noun, and the verb comes after the subject
        return _verb_before_its_object(chain.question)
    # "sell the stolen parish ledgers": a longer noun phrase ends the question, its verb before it (but in "did the
    # foundry that cast the bell close?" the noun phrase is a relative clause's, and the last word the verb)
    subject_on = preceding[next((i for i, word in enumerate(preceding) if word in DO_FORMS), 0):]
    # a light verb with its preposition is an act of its own: "did the water get into the boathouse?"
    if set(preceding[-1 - OBJECT_REACH:-1]) & DETERMINERS and not set(subject_on) & CLAUSE_OPENERS and \
            (told := _verb_before_its_object(chain.question)) and (stem(told) not in LIGHT_VERBS or re.search(
                rf"\b{told}\s+(?:{'|'.join(VERB_FOLLOWERS)})\b", chain.question)):
        return told
    return verb  # "become the band's conductor": a light verb's noun tells the act


def _verb_before_its_object(question: str) -> str:
    """The bare verb of a "when did X <verb> ...?" question that goes on past it to a place, a name or an object
    ("when did the mill move out of Kesh?", "when did Ada Pell leave Kesh?", "where did the band hold its
    meetings?"): the first word after the subject that the verb lexicon knows as a verb and that a particle, a
    preposition, a name or a determiner follows."""
    opened = re.match(r"^(?:\w+ )?(?:when|where|why|how|what|which)(?: [a-z]+)? (?:do|does|did) ", question,
                      re.IGNORECASE)
    if opened is None:
        return ""
    rest = re.findall(r"[\w'’-]+", question[opened.end():]) + [""]
    words_after = [(at, word) for at, word in enumerate(rest[1:-1], 1)
                   if word.islower() and word not in STOPWORDS | DETERMINERS | INTERVENING and not word.endswith("ly")]
    verbs = [(at, word) for at, word in words_after if known_verb(word)]
    for at, word in verbs:  # a particle, a preposition or a name after it: "leave Kesh", not "the album Gull Rose"
        if rest[at + 1] in VERB_FOLLOWERS or rest[at + 1][:1].isupper():
            return word
    for at, word in verbs:  # else the word after the subject's name: "did the Kesh Mill reopen after ...", "did Kesh
        # (first) get its ...", but not "did the Kesh school open", where one word after "the" qualifies the noun
        name_end = at - 1 - (rest[at - 1] in INTERVENING or rest[at - 1].endswith("ly"))
        if name_end >= 0 and rest[name_end][:1].isupper() and not (name_end >= 1 and rest[name_end - 1] in DETERMINERS):
            return word
    # else the verb before its object's determiner: "did the Kesh band hold its meetings", "did the thief sell the
    # packets" (a word that a determiner follows is a verb, whether or not the lexicon pairs it with another)
    return next((word for at, word in words_after if rest[at + 1] in DETERMINERS), "")


def known_verb(word: str) -> bool:
    """The verb lexicon knows the word as a verb, or as one done again ("reopen", "rebuild")."""
    return bool(paraphrases(stem(word))) or word.startswith("re") and bool(paraphrases(stem(word[2:])))


def is_collection_label(chain: Chain) -> bool:
    """The answer is the collection's own label, or a version of it ("Python 2" where every page is Python's)."""
    worded = [word for word in words(chain.answer) if not any(ch.isdigit() for ch in word)]
    return bool(worded) and bool(collection_labels(chain, [" ".join(worded)]))


def collection_labels(chain: Chain, names: list[str]) -> frozenset[str]:
    """The question's names that nearly every source read carries: the collection's own label ("Python" on every page
    of Python's documentation). A page title holding one says nothing about the question."""
    carriers = chain.read_titles or chain.read  # a place most notes of a folder mention is no label: its titles tell
    if len(carriers) < LABEL_MIN_SOURCES:
        return frozenset()
    return frozenset(name for name in names if sum(mentioned(name, [text]) for text in carriers) >= LABEL_SHARE * len(
        carriers))


def collection_subject(chain: Chain, terms: set[str]) -> set[str]:
    """The stems among ``terms`` that most sources read use: what a folder of notes is all about ("the almshouse",
    "the club"), which a note on one part of it seldom repeats ("Recast: 1902" on the bell's page). They place the
    question in the collection; they are no relation a cited sentence must state."""
    if len(chain.read) < LABEL_MIN_SOURCES:
        return set()
    read = [stems_of(text) for text in chain.read]
    return {term for term in terms if sum(term in text for text in read) > SUBJECT_SHARE * len(read)}
