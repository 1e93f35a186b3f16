"""Verdicts on two named things: yes or no ("Are A and B both P?"), one of two ("Which is older, A or B?"), and
what both share.

A verdict is a commitment like any short answer. It rests on what each side's *own* page says: a sentence that
merely names a side on another page ("a crossing of the Tarrow Hound and ...") describes something else, and a side
whose page was not read is no evidence either way. So each side is read on its own page first; the verdict is given
from other pages' mentions only as a candidate, and ``verdict_fit`` (the commitment's type factor for verdicts) keeps
it below the bold when a side's cited sentence is not from its own page.

"Both P" holds when each side's page states P's own words. The relation word that opens P may be paraphrased
("contain" for "made with", "located in" for "an airport in"), so it is not required; P's other words are what the
subject is (a kind, a place, an ingredient) and must each be stated, a country by its name or by its people's
adjective ("from Eastland" by "an Eastlandish band"). A word of P that no source read uses at all is the asker's
paraphrase and not required. "The same N" compares what the two leads say: their countries for a nationality, their
describing words otherwise. "More / older / larger" compares a number or a year each side's page states; with none
for a side the verdict is withheld, not guessed from word overlap. And a question that asks one thing of two
subjects ("Where are A and B located?") is answered by a span both own pages name, not by one side's alias.

A yes/no question about one subject ("Was A a member of B?") is answered by a clause about that subject that states
it (yes) or denies it (no); a clause that doubts it or calls it wrong is no evidence, and clauses that disagree leave
it open.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from satiate.engine.reading.leads import LineLike, ScoredLike
from satiate.engine.reading.names import LEADING_NOISE, name_spans
from satiate.engine.roles import DENIAL_REACH, NEGATIONS, SUBJECT_PRONOUNS
from satiate.tools.countries import countries_named, country_words, is_demonym
from satiate.tools.lexicon import paraphrases
from satiate.tools.text import ARTICLES, AUXILIARIES, clean_title, content_terms, hedged, stem, stems, words

Joiner = Literal["and", "or"]
# A yes/no question whose auxiliary is a form of "do" or "have" opens its property with a verb ("contain gin"); a
# word followed by a preposition ("located in", "based at") is a relation too: both may be paraphrased by a source.
VERB_AUXILIARIES = frozenset("do does did have has had".split())
PREPOSITIONS = frozenset("in at on from by near for to of with into within".split())
NATIONALITY_NOUNS = frozenset("nationality nationalities country countries citizenship origin".split())
CLAUSE = re.compile(r"[;:()—–]|,\s+(?:but|and|though|although|while|whereas)\b")  # where one statement ends
POSSESSIVES = frozenset("his her its their".split())
SIDE_WORDS = 6  # a side named as written has at most this many words ("Letters to Ada Pell")
SIDE_LINES = 30  # how many of a side's sentences (its own page's first) are read for the property
DESCRIBING_WORDS = 4  # what a lead says its subject is: the first words after "is a" / "was an"
ONE_SIDE_OWN = 0.5  # the verdict's confidence factor when only one side's cited sentence is from its own page
NO_SIDE_OWN = 0.25  # ... when neither is


@dataclass
class Verdict:
    """A verdict ("yes", "no", or one of the two names) with the sentences it rests on, or None with the reason."""

    answer: str | None
    evidence: list[LineLike] = field(default_factory=list)
    reason: str = ""
    score: float = 0.0


@dataclass
class Side:
    """What was read about one side: its own page's sentences (in page order) and other pages' mentions of it; a
    verdict reads the own page when it was read, the mentions only when it was not."""

    name: str
    own: list[ScoredLike]
    mentions: list[ScoredLike]

    @property
    def lines(self) -> list[ScoredLike]:
        return (self.own or self.mentions)[:SIDE_LINES]

    @property
    def lead(self) -> ScoredLike:
        return self.lines[0]


# --- the two sides ---------------------------------------------------------------------------------------------------
def compared_pair(question: str, joiner: Joiner) -> tuple[str, str] | None:
    """The two names either side of " or " / " and " ("..., Mara Quill or Tobias Venn?"): as written when both are
    short capitalised phrases, else the last name before the joiner and the first after it."""
    body = question.strip().rstrip("?. ")
    left, found, right = body.partition(f" {joiner} ")
    if not found:
        return None
    left_segment = left.split(",")[-1].split(":")[-1].strip()
    right_segment = right.split(",")[0].strip()
    raw = [re.sub(r"^(?:the|a|an)\s+", "", part, flags=re.I) for part in (left_segment, right_segment)]
    if all(part[:1].isupper() and len(part.split()) <= SIDE_WORDS and part.split()[0].lower() not in LEADING_NOISE
           for part in raw):
        return raw[0], raw[1]  # "Which band, Salt Hollow or Copper Weather, ...": the options as written
    before = [n for n in name_spans(left_segment) if n.lower() not in AUXILIARIES]
    after = name_spans(right_segment)
    if not before or not after:
        return None
    return before[-1], after[0]


def read_side(name: str, ranked: Sequence[ScoredLike]) -> Side:
    """A side's own page's sentences (its title is the name, or holds it whole), in page order, and the sentences of
    other pages that name it as written (capitals and word boundaries kept: "For Tomorrow" is not "for tomorrow")."""
    written = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    own, mentions = [], []
    for scored in ranked:
        if _own_page(name, scored.line.source["title"]):
            own.append(scored)
        elif written.search(scored.line.text):
            mentions.append(scored)
    own.sort(key=lambda s: s.line.position)
    return Side(name, own, mentions)


def _unread(sides: list[Side]) -> Verdict | None:
    missing = [side.name for side in sides if not side.own and not side.mentions]
    return Verdict(None, reason=f"nothing was read about {' or '.join(missing)}") if missing else None


# --- yes or no -------------------------------------------------------------------------------------------------------
def _property(question: str, pair: tuple[str, str]) -> tuple[str, str]:
    """What "both" asks of the two sides, split into its relation word (may be paraphrased) and the rest."""
    at = question.find(pair[1])
    rest = re.sub(r"\bboth\b", " ", question[at + len(pair[1]):] if at >= 0 else question).strip(" ?.")
    tokens = words(rest)
    auxiliary = words(question)[:1]
    if tokens and (auxiliary and auxiliary[0] in VERB_AUXILIARIES
                   or len(tokens) > 1 and tokens[0] not in PREPOSITIONS and tokens[1] in PREPOSITIONS):
        return tokens[0], rest.split(None, 1)[1] if " " in rest else ""
    return "", rest


def _states(text: str, values: set[str], countries: frozenset[str]) -> bool:
    """The sentence states every word of the property, the property's country by name or by its people's adjective."""
    said = stems(text)
    return values <= said and (not countries or bool(countries & countries_named(text)))


def _describing(side: Side) -> set[str]:
    """What a side's lead sentences say it is: the words after "is a" / "was an" ("Eastlandish potter")."""
    found: set[str] = set()
    for scored in side.lines[:2]:
        match = re.search(r"\b(?:is|was|are|were)\s+(?:an?|the|one of the)\s+(.{0,60})", scored.line.text)
        if match:
            found |= {stem(w) for w in content_terms(match.group(1))[:DESCRIBING_WORDS]}
    return found


def _same(question: str, sides: list[Side]) -> Verdict:
    """"The same N": what the two leads say, compared (their countries when N is a nationality or a country)."""
    evidence = [side.lead.line for side in sides]
    score = min(side.lead.score for side in sides)
    if NATIONALITY_NOUNS & set(words(question)):
        named = [next((countries_named(s.line.text) for s in side.lines[:3] if countries_named(s.line.text)),
                      frozenset()) for side in sides]
        if all(named):
            return Verdict("yes" if named[0] & named[1] else "no", evidence, score=score)
    shared = _describing(sides[0]) & _describing(sides[1])
    return Verdict("yes" if shared else "no", evidence, score=score)


def yes_no(question: str, pair: tuple[str, str] | None, ranked: Sequence[ScoredLike]) -> Verdict:
    """"Are A and B both P?" / "Were A and B of the same N?": what each side's own page says, compared."""
    if pair is None:
        return _stated_or_denied(question, ranked)
    sides = [read_side(name, ranked) for name in pair]
    if unread := _unread(sides):
        return unread
    if "same" in words(question):
        return _same(question, sides)
    _, asked = _property(question, pair)
    countries = countries_named(asked)
    read_terms = set().union(*(s.line.terms for s in ranked))
    values = stems(country_words(asked) if countries else asked) & read_terms  # unread words are paraphrase
    if not values and not countries:
        return Verdict(None, [side.lead.line for side in sides],
                       reason="no source read states the property the question asks about")
    stating = [next((s for s in side.lines if _states(s.line.text, values, countries)), None) for side in sides]
    evidence = [(found or side.lead).line for found, side in zip(stating, sides)]
    score = min((found or side.lead).score for found, side in zip(stating, sides))
    return Verdict("yes" if all(stating) else "no", evidence, score=score)


def _stated_or_denied(question: str, ranked: Sequence[ScoredLike]) -> Verdict:
    """"Was A a member of B?" about one subject: a clause that states it ("A joined B as a member in 1901") says yes,
    a clause that denies it ("he was never a member of B") says no; a clause that doubts it or reports a claim
    ("a leaflet wrongly calls A a member") says neither. The clause must refer to the subject (``_about``; a
    pronoun counts after the sentence that names it), name the head word of each other name the question gives (B's
    "guild" for "the Guild of ..."), say every other word of the question that the sources use, and say the verb of
    "did A change ...?" in any case; clauses that disagree settle nothing."""
    names = [name for name in name_spans(question) if name.split()[0].lower() not in AUXILIARIES]
    read_terms = set().union(*(s.line.terms for s in ranked)) if ranked else set()
    asked = stems(question) - set().union(*(stems(name) for name in names)) if names else set()
    asked -= _describing_words(question, names)  # "the architect Ada Pell" names whom it asks about, not the relation
    asked &= read_terms  # a word no source uses is the asker's paraphrase
    if not names or not asked:
        return Verdict(None, [s.line for s in ranked[:1] if s.score > 0],
                       reason="a yes/no answer needs a statement the sources make directly; the best sentences follow")
    subject, others = stems(names[0]), [_called_by(name) for name in names[1:]]
    # "Did A change its name?": the verb is the relation itself, so a clause must say it even when no source uses it
    acted = re.match(rf"(?:did|does|do)\s+(?:the\s+)?{re.escape(names[0])}\s+([a-z]+)\b", question, re.I)
    verb = stem(acted.group(1)) if acted else ""
    said: dict[str, list[LineLike]] = {}
    before = {(s.line.source["key"], s.line.position + 1): s.line for s in ranked}  # the sentence before each
    for scored in ranked[:SIDE_LINES]:
        line, previous = scored.line, before.get((scored.line.source["key"], scored.line.position))
        own = subject <= line.terms | stems(line.source["title"])
        if not own and not (previous and subject <= previous.terms):
            continue  # the subject is named by the sentence, its page's title, or the sentence before ("She was ...")
        clauses = CLAUSE.split(line.text)
        for at, clause in enumerate(clauses):
            terms = stems(clause)
            # an aside with no subject of its own ("(no relation to Ada)") is said of its sentence's subject
            about = _about(clause, names[0], asked) or at > 0 and _about(clauses[0], names[0], asked) and \
                _subjectless(clause, asked)
            if asked <= terms and all(called & terms for called in others) and about and \
                    (not verb or verb in terms or paraphrases(verb) & terms) and not hedged(clause):
                said.setdefault("no" if _negated(clause, asked | ({verb} - {""})) else "yes",
                                [line] if own or previous is None else [line, previous])
    if len(said) != 1:
        reason = ("the sources both state and deny it" if said else
                  "no sentence read states or denies it of its subject; the best sentences follow")
        return Verdict(None, [lines[0] for lines in said.values()] or [s.line for s in ranked[:1]], reason=reason)
    (answer, lines), = said.items()
    return Verdict(answer, lines, score=next(s.score for s in ranked if s.line is lines[0]))


def _called_by(name: str) -> set[str]:
    """The stems a clause may call another name by: its head ("the guild" for "the Guild of ..."), or a person's
    given name ("related to Ada" for "Ada Pell", on a page that names her in full)."""
    tokens = name.split()
    given = {stem(tokens[0].lower())} if len(tokens) == 2 and all(token[:1].isupper() for token in tokens) else set()
    return {_head(name)} | given


def _describing_words(question: str, names: list[str]) -> set[str]:
    """The stems of the common nouns the question sets before a name to say who it is ("the lighthouse keeper Ada
    Pell"): they pick out the person, they are not the relation asked about."""
    found: set[str] = set()
    for name in names:
        for match in re.finditer(rf"\bthe ((?:[a-z][a-z-]* ){{1,3}}){re.escape(name)}\b", question):
            if not set(match.group(1).split()) & PREPOSITIONS:  # "the daughter of Ada Pell" asks the relation
                found |= stems(match.group(1))
    return found


def _subjectless(clause: str, asked: set[str]) -> bool:
    """The clause opens on its negation or on the word asked about: an aside that names no subject of its own."""
    tokens = words(clause)
    return bool(tokens) and (tokens[0] in NEGATIONS or stem(tokens[0]) in asked)


def _head(name: str) -> str:
    """The stem of a name's head noun: its last word, or the word before "of" ("Guild of Wendle Millwrights")."""
    tokens = [token for token in words(name.split(" of ")[0]) if token not in ARTICLES]
    return stem(tokens[-1]) if tokens else ""


def _about(clause: str, subject: str, asked: set[str]) -> bool:
    """The clause speaks of the subject: before the first word it asks, it names the subject or refers to it ("he",
    "she", "it", "they") before a possessive makes it someone else's ("his brother was a member"; but "she was his
    niece" is still about her)."""
    tokens = words(clause)
    first = next((i for i, token in enumerate(tokens) if stem(token) in asked), len(tokens))
    named = stems(subject)
    for at, token in enumerate(tokens[:first]):
        if token in POSSESSIVES:
            return False
        if token in SUBJECT_PRONOUNS or named <= stems(" ".join(tokens[at:first])) and stem(token) in named:
            return True
    return False


def _negated(clause: str, asked: set[str]) -> bool:
    """A negation ("not", "never", "no", "n't") stands before the first word of the clause that the question asks,
    within ``DENIAL_REACH`` words."""
    tokens = words(clause)
    first = next((i for i, token in enumerate(tokens) if stem(token) in asked), None)
    if first is None:
        return False
    return any(token in NEGATIONS or token.endswith("n't") for token in tokens[max(0, first - DENIAL_REACH):first])


# --- one of two ------------------------------------------------------------------------------------------------------
def _value_of(side: Side, kind: str) -> tuple[float, ScoredLike] | None:
    """The first year (for a date) or quantity a side's sentences state, its own page's lead first."""
    for scored in side.lines[:6]:
        if kind == "date":
            years = [int(y) for y in re.findall(r"\b(1[0-9]\d{2}|20\d{2})\b", scored.line.text)]
            if years:
                return float(years[0]), scored
        else:
            values = [float(n.replace(",", "")) for n in re.findall(r"\b\d[\d,]*(?:\.\d+)?\b", scored.line.text)
                      if not re.fullmatch(r"(?:1[0-9]|20)\d{2}", n)]
            if values:
                return values[0], scored
    return None


def choose(question: str, pair: tuple[str, str], direction: str, ranked: Sequence[ScoredLike]) -> Verdict:
    """Which of two named options the question's relation holds for."""
    sides = [read_side(name, ranked) for name in pair]
    if unread := _unread(sides):
        return unread
    if direction:
        kind = "date" if direction in ("early", "late") else "number"
        values = [_value_of(side, kind) for side in sides]
        if not (values[0] and values[1]):
            lacking = " or ".join(side.name for side, value in zip(sides, values) if not value)
            measure = "year" if kind == "date" else "number"
            return Verdict(None, [side.lead.line for side in sides],
                           reason=f"no {measure} is stated for {lacking}, and the comparison needs one for each")
        (a, line_a), (b, line_b) = values[0], values[1]
        if a == b:
            return Verdict(None, [line_a.line, line_b.line], reason="the sources state the same value for both")
        pick_first = (a < b) if direction in ("early", "less") else (a > b)
        chosen, other = (line_a, line_b) if pick_first else (line_b, line_a)
        return Verdict(pair[0 if pick_first else 1], [chosen.line, other.line], score=chosen.score)
    # Otherwise: the option whose own sentences best cover the rest of the question.
    rest = frozenset(stems(question)) - stems(" ".join(pair))

    def fit(side: Side) -> tuple[float, ScoredLike]:
        return max(((len(s.line.terms & rest) + 0.1 * s.score, s) for s in side.lines[:20]), key=lambda x: x[0])

    (score_a, line_a), (score_b, line_b) = fit(sides[0]), fit(sides[1])
    if abs(score_a - score_b) < 1e-6:
        return Verdict(None, [line_a.line, line_b.line], reason="the sources support both options equally")
    chosen, other = (line_a, line_b) if score_a > score_b else (line_b, line_a)
    return Verdict(pair[0 if score_a > score_b else 1], [chosen.line, other.line], score=chosen.score)


# --- what both share -------------------------------------------------------------------------------------------------
JOINT_SUBJECTS = re.compile(r"^(?:in )?(?:what|which|where)\b(?: \w+)? (?:is|are|was|were)\s+(?:the\s+|both\s+)?", re.I)


def joint_subjects(question: str) -> tuple[str, str] | None:
    """The two names a question asks one thing of, when they are its whole subject ("Where are Tarrow Mill and Gull
    Rock located?", "What genre are Salt Hollow and Copper Weather?"); None for a pair named anywhere else."""
    pair = compared_pair(question, "and")
    opening = JOINT_SUBJECTS.match(question.strip())
    return pair if pair and opening and question.strip()[opening.end():].startswith(pair[0]) else None


def shared_answer(question: str, pair: tuple[str, str], ranked: Sequence[ScoredLike],
                  spans: Callable[[str], list[str]]) -> Verdict:
    """What both subjects' own pages state: the first span of the asked kind (``spans``) that a sentence of each own
    page names, the question's own words and people's adjectives aside ("Swedish" is no place). A span of one side
    only (an alias, a town of one) answers for one of them, not for both."""
    sides = [read_side(name, ranked) for name in pair]
    if any(not side.own for side in sides):
        return Verdict(None, reason="a shared answer needs each subject's own page")
    asked = question.lower()
    found: list[dict[str, ScoredLike]] = []
    for side in sides:
        carriers: dict[str, ScoredLike] = {}
        for scored in side.own[:SIDE_LINES]:
            for span in spans(scored.line.text):
                if span.lower() not in asked and not is_demonym(span):
                    carriers.setdefault(span, scored)
        found.append(carriers)
    shared = [span for span in found[0] if span in found[1]]
    if not shared:
        return Verdict(None, reason="the two subjects' pages name nothing in common")
    first, second = found[0][shared[0]], found[1][shared[0]]
    return Verdict(shared[0], [first.line, second.line], score=min(first.score, second.score))


# --- how far a verdict is trusted ------------------------------------------------------------------------------------
def _own_page(name: str, title: str) -> bool:
    """The page is the name's own: its title is the name, or holds it whole ("Gull Rock (island)")."""
    wanted, title = clean_title(name).lower(), clean_title(title).lower()
    return title == wanted or bool(stems(name)) and stems(name) <= stems(title) and wanted in title


def verdict_fit(question: str, kind: str, answer_pages: Sequence[str]) -> tuple[float, str]:
    """The commitment's type factor for a verdict: 1 when each side's cited sentence comes from its own page, lower
    when a side rests on another page's mention of it (what is said of it there may be about something else)."""
    pair = compared_pair(question, "or" if kind == "choice" else "and")
    if pair is None:
        return 1.0, ""
    unowned = [name for name in pair if not any(_own_page(name, page) for page in answer_pages)]
    if not unowned:
        return 1.0, ""
    factor = ONE_SIDE_OWN if len(unowned) == 1 else NO_SIDE_OWN
    return factor, "no sentence from the own page of " + " or ".join(f"'{name}'" for name in unowned) + " was cited"
