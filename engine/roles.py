"""Who a sentence says something of: the names on the agent side of its main verb.

Word overlap cannot tell "Bo Wren was the daughter of the mayor Ada Wren" from "Ada Wren was the daughter of the mayor
Ada Wren": the same words, the same names. What differs is which name stands before the verb. With no parser, the
main verb is found from closed-class words (auxiliaries) and verb forms, and roles follow general rules of English
clause structure:
- in an active clause the names before the main verb are its agent side ("Lina Moss founded the works");
- in a passive clause (a form of "be" and a participle) the names before the verb were acted on, and a name after
  "by" is the agent ("The works were founded by Lina Moss");
- a clause whose subject names no one but is a pronoun ("It", "She") or a description whose noun is in its page's
  title ("The festival" on the page "Orren Festival") is said of the page's subject;
- an opening phrase set off by a comma ("In 1901, ...", "After the flood, ...") is not the subject, and a relative
  clause set off by commas (", who was born in Kesh,") is not the main verb.
Limits: only the first clause's verb is found, so a second clause's subject counts as the first one's object; a
possessive name ("Kesh's mayor") qualifies the subject rather than acting, so it is not given a role; a sentence
whose verb is not found is not judged. The check cuts only on evidence of a swap, never for want of analysis.

``nearest_verb`` reads the same way which act a time, a place or a name goes with: the verb before it in its clause.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from satiate.tools.text import AUXILIARIES, BE_FORMS, IRREGULAR, STOPWORDS, entities, stems

# Words that may stand between an auxiliary and its participle ("was first held", "has since been renamed").
INTERVENING = frozenset("first also not never later then once still often originally again only already since "
                        "subsequently jointly formally officially".split())
# After these a past form describes a noun ("the renamed fair", "a noted painter") instead of being the verb.
NOUN_MARKERS = frozenset("the a an this that these those its his her their our my your whose of in on at for with by "
                         "to from and or".split())
# A sentence opening with one of these starts with a phrase, not its subject, when a comma closes the phrase.
PHRASE_OPENERS = frozenset("in on at after before during since when while although though as because following with "
                           "without under upon from for until despite unlike like once by between within".split())
# ... of which these open a clause (with a verb of its own) rather than a prepositional phrase.
CLAUSE_OPENERS = frozenset("after before since when while although though as because once until".split())
# Counts that end like a participle ("eleven" is no "-en" verb)
COUNT_WORDS = frozenset("seven eleven thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())
REFERRING_PRONOUNS = frozenset("it its he his she her they their this".split())
SUBJECT_PRONOUNS = frozenset("it he she they".split())
# Past forms the stemmer leaves whole because they are also other words (a noun, a name, a direction): read as pasts
# only where a verb may stand. The other irregular pasts are ``tools.text.IRREGULAR``.
SHARED_PASTS = frozenset("bore felt fell found got had hid laid left lent meant rang rose said sat set shot thought"
                         .split())
IRREGULAR_PASTS = frozenset(IRREGULAR) | SHARED_PASTS
DEFINITE_OPENERS = frozenset("the this that these those its his her their".split())
PARTICIPLES = frozenset({"born", "done", "seen", "shown", "grown", "drawn", "chosen", "sworn", "driven", "spoken",
                         "broken", "frozen", "stolen", "hidden", "ridden", "won", "run", "set", "put", "cut", "hit"})
# Lower-case words ending in s that are no verb even right after a name ("Kesh as well", "Ada Wren perhaps").
NEVER_VERBS = frozenset("as thus this its his hers theirs ours yours whereas towards perhaps besides always".split())
# A relative clause set off by commas describes the subject; the main verb comes after it.
_RELATIVE = re.compile(r",\s+(?:who|which|whose|whom)\b[^,]*,")
_TOKEN = re.compile(r"[\w'’.-]+|[,;:]")
# ", who bought it ...": a relative clause said of what precedes it
_RELATIVE_AFTER = re.compile(r"^,\s+(?:who|which)\s+(?P<clause>[^,;.]*)")
_BY_AGENT = re.compile(r"\bby ((?:the )?[A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|of|de|van|von))*)")  # "by Lina Moss"


@dataclass(frozen=True)
class Roles:
    """The names a sentence puts on its agent side, and whether its verb was found (else nothing is judged)."""

    agents: tuple[str, ...]
    judged: bool


def name_words(name: str) -> frozenset[str]:
    """A name compared by its words: "The Orren Festival" and "Orren Festival" are one name."""
    words = [w for w in re.findall(r"[\w.]+", name.lower().replace("’", "'").removesuffix("'s")) if w != "the"]
    return frozenset(w.rstrip(".") for w in words if w.rstrip("."))


def same_name(a: frozenset[str], b: frozenset[str]) -> bool:
    """One name, possibly shortened on one side ("Quill" for "J. R. Quill"); two people who share a surname are two."""
    return bool(a) and bool(b) and (a <= b or b <= a)


def _participle(word: str) -> bool:
    return word in IRREGULAR or word in PARTICIPLES or (len(word) > 3 and word.endswith("ed")) or (
        len(word) > 4 and word.endswith(("en", "wn")) and word not in INTERVENING | COUNT_WORDS)


def _main_verb(tokens: list[str], subjectless: bool = False) -> int | None:
    """Index of the clause's main verb (the auxiliary where there is one), or None when none is recognisable. Under
    a person's name (``subjectless``) a note's line may open on its verb ("Drowned 1841 off the point")."""
    for index, token in enumerate(tokens):
        if subjectless and index == 0 and len(tokens) > 1 and not tokens[1][:1].isupper() and (
                _participle(token.lower()) or token.lower() in IRREGULAR_PASTS):
            return 0
        if index == 0 or not token[:1].islower():
            continue
        previous = tokens[index - 1]
        if token in AUXILIARIES:
            return index
        past = _participle(token) or token in IRREGULAR_PASTS
        if past and previous.lower() not in NOUN_MARKERS and previous != ",":
            return index
        # A present-tense verb right after a name or a pronoun: "Ada Wren owns", "It hosts" (not "The works").
        after_name = previous[:1].isupper() and (
            previous.lower() not in STOPWORDS or previous.lower() in SUBJECT_PRONOUNS)
        if (after_name and token.endswith("s") and not token.endswith("ss") and len(token) > 3
                and not previous.lower().endswith(("'s", "’s")) and token not in NEVER_VERBS):
            return index
    return None


def _clause(sentence: str) -> list[str]:
    sentence = _RELATIVE.sub("", sentence)
    # A full stop ends a word, except an initial's ("J. R. Quill"), which belongs to a name.
    tokens = [t if re.fullmatch(r"[A-Z]\.", t) else t.rstrip(".") or t for t in _TOKEN.findall(sentence)]
    if tokens and tokens[0].lower() in PHRASE_OPENERS and "," in tokens:
        opening = tokens[:tokens.index(",")]
        # A preposition's phrase holds no verb: with a verb before the comma the opener had none of its own ("By
        # 1850 Ada had bought the mill from its miller, Bo Reed, ..."), and the clause starts at the sentence's start.
        if tokens[0].lower() in CLAUSE_OPENERS or _main_verb(opening) is None:
            tokens = tokens[len(opening) + 1:]
    return tokens


def _passive(tokens: list[str], verb: int) -> bool:
    """A form of "be" (possibly after "has"/"will"), then a participle: "was founded", "has been renamed"."""
    seen_be = False
    for token in tokens[verb:]:
        word = token.lower()
        if word in BE_FORMS:
            seen_be = True
        elif word in AUXILIARIES or word in INTERVENING or word.endswith("ly"):
            continue
        else:
            return seen_be and _participle(word)
    return False


# a person's name of two words or more ("Ivo Marr"), as a note's heading or set before its line ("Ivo Marr: Drowned
# 1841 ..."); not a code name ("object.__getattr__") nor a numbered chapter's title
_PERSON_LIKE = r"[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)+"
_LABELLED_LINE = re.compile(rf"^(?P<label>{_PERSON_LIKE}):\s+(?P<line>[A-Z].*)$", re.DOTALL)


def _refers_to_title(subject: list[str], title: str) -> bool:
    """A subject that names no one stands for the page's subject when it is a pronoun or a description whose noun is
    in the title ("It", "The festival" on the page "Orren Festival")."""
    words = [t.lower() for t in subject if t not in ",;:"]
    if not words or not title:
        return False
    if words[0] in PHRASE_OPENERS and words[-1] in SUBJECT_PRONOUNS:
        return True  # "By 1850 he ...": an opening phrase with no comma, then the pronoun subject
    if words[0] in REFERRING_PRONOUNS and len(words) == 1:
        return True
    if words[0] in REFERRING_PRONOUNS | DEFINITE_OPENERS:
        return bool(stems(" ".join(words[1:])) & stems(title))
    return False


@functools.lru_cache(maxsize=8192)
def roles(sentence: str, title: str = "") -> Roles:
    """The agent side of ``sentence``'s first clause; ``title`` (its page's subject) fills a subject that only
    refers to it, and the subject of a note's line that has none ("Drowned 1841 off the point." under "## Ivo
    Marr"). A name set before such a line with a colon ("Ivo Marr: Drowned 1841 ...") is the one it tells of."""
    if (labelled := _LABELLED_LINE.match(sentence)) and entities(labelled.group("label")) == [labelled.group("label")]:
        sentence, title = labelled.group("line"), labelled.group("label")
    tokens = _clause(sentence)
    verb = _main_verb(tokens, subjectless=bool(title) and re.fullmatch(_PERSON_LIKE, title) is not None)
    if verb is None:
        return Roles((), judged=False)
    subject, predicate = tokens[:verb], tokens[verb:]
    named = [n for n in entities(" ".join(subject)) if not n.lower().replace("’", "'").endswith("'s")]
    if not named and len(subject) == 1 and subject[0][:1].isupper() and subject[0].lower() not in STOPWORDS:
        named = [subject[0]]  # a one-word name that is the whole subject ("Kesh drew ..."), which entities() skips
    # "Founded 1902 by Ada Pell": a line opening on its participle with an agent after "by" is passive
    passive = _passive(tokens, verb) or verb == 0 and bool(_BY_AGENT.search(" ".join(predicate)))
    agents: list[str] = []
    if not passive:
        agents += named
        if not named and title and (not subject or _refers_to_title(subject, title)):
            agents.append(title)
    else:
        agents += _BY_AGENT.findall(" ".join(predicate))
    return Roles(tuple(a for a in agents if name_words(a)), judged=True)


def role_problem(claim: str, passages: list[tuple[str, str]]) -> str | None:
    """Why ``claim`` gives an act to a name its cited ``passages`` (sentence, page title) do not give it to, or None.

    Every name on the claim's agent side must be on the agent side of a cited sentence whose verb was found. When no
    cited sentence could be analysed, or the claim itself could not, nothing is judged.
    """
    said = roles(claim)
    if not said.judged or not said.agents:
        return None
    cited = [roles(sentence, title) for sentence, title in passages]
    judged = [r for r in cited if r.judged]
    if not judged:
        return None
    cited_agents = [name_words(a) for r in judged for a in r.agents]
    for agent in said.agents:
        if not any(same_name(name_words(agent), other) for other in cited_agents):
            return f"it says of {agent} what the cited sentences say of someone or something else"
    return None


NEGATIONS = frozenset("not never no neither nor nothing".split())
DENIAL_REACH = 4  # words between a name and the negation, and between the negation and the verb it denies
_CLAUSE_BREAK = re.compile(r"[,;:.!?—–()]")
# "... at the Gull Inn, not at Kesh": what directly follows "not", with at most a preposition of place, time or agent
# and an article, is the alternative set aside ("not until 1902" says when it did happen, so "until" is none)
_SET_ASIDE = re.compile(r"\bnot\s+(?:(?:at|in|on|from|to|by|for|with|the|a|an)\s+){0,2}$", re.IGNORECASE)

# "founded in 1921 [sic: should be 1912]", "1921 (a misprint for 1912)": a value the text flags as mistaken right
# after it, past an aside in brackets ("240 (the 1951 inventory), corrected to 226"); "1962 — corrected, it was
# 1963" and "1911 — no, 1910 per the yard book" too
_FLAGGED = re.compile(r"^(?:\s*\([^)]{0,60}\))?[\s*_,;:—–-]*[\[(]?[\s*_]*(?:sic\b|should (?:be|read|say)\b|recte\b|"
                      r"wrong\b|a (?:mistake|misprint|typo)\b|an error\b|in error\b|(?:later\s+)?(?:corrected|amended|"
                      r"revised)(?:\s+(?:to|in)\b|\s*[,:;])|no\s*,)", re.IGNORECASE)


def denies(sentence: str, name: str, relation: set[str]) -> bool:
    """The sentence denies the name a relation: a negation follows the name and precedes a word whose stem is in
    ``relation``, within one clause ("Ada Pell did not design it", "Ada Pell never married"); or the name is the
    alternative "not" sets aside ("held at Orren, not at Kesh"), or the text flags it as mistaken right after it
    ("1921 [sic: should be 1912]"). Such a sentence is evidence against the name,
    whatever words it shares with the question."""
    at = sentence.find(name)
    if at >= 0 and (_SET_ASIDE.search(sentence[:at]) or _FLAGGED.match(sentence[at + len(name):])):
        return True
    if at < 0 or not relation:
        return False
    clause = _CLAUSE_BREAK.split(sentence[at + len(name):], maxsplit=1)[0]
    tokens = [token.lower().replace("’", "'") for token in re.findall(r"[\w'’]+", clause)]
    for index, token in enumerate(tokens[:DENIAL_REACH + 1]):
        if token in NEGATIONS or token.endswith("n't"):
            return any(stem in relation for stem in stems(" ".join(tokens[index + 1:index + 1 + DENIAL_REACH])))
    return False


def sets_aside(sentence: str, value: str, relation: set[str]) -> bool:
    """The sentence calls the value a mistake, set aside by "not" or flagged right after it ("it reopened in 1931, not
    1930, my slip", "318 [sic]"), while it speaks of the relation asked: notes correct themselves, and a value
    a line calls wrong is not the answer another line states. A value set aside in a sentence about something else
    ("the roof, not the 1930 wing") corrects nothing asked."""
    return value in sentence and denies(sentence, value, set()) and bool(stems(sentence.replace(value, " ")) &
                                                                        relation)


_NEGATED = re.compile(rf"\b(?:{'|'.join(NEGATIONS)}|\w+n['’]t)\b[^,;:.!?—–()]*", re.IGNORECASE)


def affirmed(sentence: str) -> str:
    """The sentence without what it says under a negation, each to its clause's end ("but nothing about when he was
    born", "the book does not say where"): an act said only there is not told."""
    return _NEGATED.sub(" ", sentence)


# --- which act a phrase goes with ----------------------------------------------------------------------------------
DETERMINERS = frozenset("the a an this that these those its his her their our my your whose".split())
_PIECE = re.compile(r"[\w'’]+(?:-[\w'’]+)*|[,;:()—–]")


def relative_act(sentence: str, span: str, is_act: Callable[[str], bool]) -> str:
    """The act a relative clause right after the span says it did ("Ada Pell, who kept the books, ..." -> "kept"),
    or ""."""
    described = _RELATIVE_AFTER.search(sentence[sentence.find(span) + len(span):]) if span in sentence else None
    said = re.findall(r"[a-z]+", described.group("clause").lower()) if described else []
    return next((word for word in said if is_act(word)), "")


def object_relative_act(sentence: str, span: str, is_act: Callable[[str], bool]) -> str:
    """The act the span does in a relative clause on something else ("the new unit, which Ada Pell commissioned in
    2019" -> "commissioned"; "the hall that Ada Pell had designed"), or "": the span opens the clause as its
    subject, so it is the act's agent."""
    clause = re.search(rf"\b(?:which|that|whom)\s+{re.escape(span)}\s+((?:[a-z]+\s+){{0,2}})", sentence)
    said = clause.group(1).split() if clause else []
    return next((word for word in said if is_act(word)), "")


def nearest_verb(sentence: str, span: str, is_act: Callable[[str], bool]) -> str | None:
    """The verb ``span`` goes with in the sentence. A time, a place or a name is said of the verb before it in its
    clause ("drew up the route in 1790 and supervised the works until it opened": 1790 goes with "drew", not with
    "opened"); a phrase that opens its clause goes with the verb after it ("In 1846 the company sold out"). A
    comma, colon or dash ends a clause. ``is_act`` recognises the forms of the act asked about (a bare "open" as
    well as "opened"). None when the span is not found, its clause has no verb, or no form of the act stands in the
    sentence: then there is nothing to judge. A relative clause on the span says what it did itself ("sold to Ada
    Pell, who bought it for the guild": "bought" is hers)."""
    if own := relative_act(sentence, span, is_act):
        return own
    pieces = _PIECE.findall(_RELATIVE.sub(",", sentence))
    lowered = [re.sub(r"'s$", "", piece.lower().replace("’", "'")) for piece in pieces]  # "Pell's" is Pell
    wanted = [re.sub(r"'s$", "", piece.lower().replace("’", "'")) for piece in _PIECE.findall(span)]
    start = next((i for i in range(len(lowered) - len(wanted) + 1) if lowered[i:i + len(wanted)] == wanted), None)
    if start is None or not wanted or not any(is_act(word) for word in lowered):
        return None
    end = start + len(wanted) - 1

    def verb(index: int) -> bool:
        piece, word = pieces[index], lowered[index]
        opens = index == 0 or pieces[index - 1] == ":"  # "Ivo Marr: Kept the toll house ...": the line's own opening
        verb_form = (opens or piece[:1].islower()) and "-" not in word and (
            _participle(word) or word in IRREGULAR_PASTS)  # "best-known" qualifies a noun
        previous = lowered[index - 1] if index else ""
        # a bare form ("play") is a verb only after an auxiliary, "to" or a subject pronoun: "the first play Ada
        # directed" names a play
        bare = not verb_form and not word.endswith(("s", "ing")) and index > 0 and \
            previous not in AUXILIARIES | SUBJECT_PRONOUNS | {"to"}
        return (is_act(word) and not bare or verb_form) and previous not in DETERMINERS

    before = []
    for index in range(start - 1, -1, -1):
        if not lowered[index][:1].isalnum():
            break
        before.append(index)
    after = []
    for index in range(end + 1, len(lowered)):
        if not lowered[index][:1].isalnum():
            break
        after.append(index)
    found = next((index for index in before if verb(index)), None)
    if found is None:
        found = next((index for index in after if verb(index)), None)
    return None if found is None else lowered[found]
