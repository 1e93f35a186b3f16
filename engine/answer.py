"""Finding the answer itself, not just passages: a short answer, the sentence that states it, and the hop before it.

No model is involved. The question tells what kind of answer it wants (a person, a date, a number, a place, yes or
no, one of two named options, or a name in general). Every readable sentence gets a relevance score: the question
terms it covers, weighted by rarity, or — for a multi-hop question — the terms covered by a chain of two sentences,
where the first names a bridge entity that is not in the question and the second is about that bridge. Spans of the
wanted kind are then taken from the best sentences, scored by their sentence, their closeness to question terms and
how many sources state them, and the best one is the short answer. When nothing fits well enough, the finder
abstains and says why: an honest "the sources do not say" beats a guess.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from satiate.engine.reading.brief import EXPLAINING
from satiate.engine.reading.chain import Chain, framing_opener, mentioned, particles_asked, question_names
from satiate.engine.reading.comparison import COMPARISON, COMPARISON_WORDS, first_side_sources
from satiate.engine.reading.definitions import definition_lead
from satiate.engine.reading.fit import (
    ASKS_FOR_A_NAME,
    BEHAVIOUR,
    a_person,
    act_years,
    article_share,
    asked_acts,
    done_by,
    initials_of,
    is_alias,
    named_beside,
    on_the_converse_side,
    only_a_reference,
    only_an_authority,
    only_life_years,
    place_share,
    who_did_act,
)
from satiate.engine.reading.keywords import keyword_lead
from satiate.engine.reading.kinds import (
    ADJECTIVE_HEADS,
    ASKS_WHO_WAS,
    FIRM_NAME,
    PLACE_NOUNS,
    a_sum,
    asked_form,
    asked_phrase,
    asks_for_a_period,
    asks_for_money,
    counted_noun,
    described_as,
    kind_share,
)
from satiate.engine.reading.leads import VERSION_NOTE, member_lead, special_method_lead, task_lead, unasked_third_party
from satiate.engine.reading.makes import made_noun, make_fillers
from satiate.engine.reading.names import abbreviation, name_spans
from satiate.engine.reading.plain_kinds import CALLING, KINSHIP, asked_kind, plain_fillers
from satiate.engine.reading.present import asks_now, tells_now
from satiate.engine.reading.referents import (
    ITEM_OPENERS,
    PERSONAL_PRONOUNS,
    REFERRING_SUBJECTS,
    SUBJECT_PERSONS,
    a_thing_page,
    item_label,
    referent,
    section_subject,
    subject_word,
    with_subject,
)
from satiate.engine.reading.slots import asked_slot, slot_fillers
from satiate.engine.reading.verdicts import Verdict, choose, compared_pair, joint_subjects, shared_answer, yes_no
from satiate.engine.roles import denies, sets_aside
from satiate.state.records import SourceRecord
from satiate.tools.lexicon import converse, is_a_noun, names_a_body, names_a_person, paraphrases, phrase_stems
from satiate.tools.search.named_pages import named_objects
from satiate.tools.search.task_pages import FRAMING, page_name, signature_only
from satiate.tools.text import (
    AUXILIARIES,
    COUNT_WORD,
    DECADE,
    DOTTED_NUMBER,
    MARKDOWN_LINK_TARGET,
    MONTHS,
    SCAN_CHARS,
    SHORT_MONTH,
    STOPWORDS,
    SYNTAX_NOUN,
    VERSION,
    WH_WORDS,
    WIKI_LINK,
    YEAR,
    claimable,
    clean_title,
    content_terms,
    hedged,
    idf_weights,
    inflected_alike,
    is_field,
    numbers,
    sentences,
    stem,
    stems,
    unique,
    verb_shaped,
    words,
)
from satiate.tools.text_safety import instruction_like

AnswerKind = Literal["person", "date", "number", "place", "yes_no", "choice", "name", "description"]
# which option a comparison wants; for a date, whether a year is asked for
Direction = Literal["early", "late", "more", "less", "same", "year", "period", "measure", "version", "money", ""]

TIME_NOUNS = frozenset("year date day month decade century timeframe period era time".split())
COUNT_CUES = ("how many", "how much", "what number", "how long", "how old", "how tall", "how high", "how far",
              "how large", "how big", "what percentage", "what population", "how deep", "how wide")
EARLY_CUES = frozenset("older oldest earlier earliest first before elder".split())
LATE_CUES = frozenset("younger youngest later latest newer newest recent last".split())
MORE_CUES = frozenset("more most larger largest bigger biggest higher highest taller tallest longer longest greater "
                      "greatest heavier heaviest".split())
LESS_CUES = frozenset("fewer fewest less least smaller smallest lower lowest shorter shortest".split())
SAME_CUES = frozenset("same both".split())
_MONTH = "(?:" + "|".join(MONTHS) + ")"
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}\s+\d{{3,4}}|{_MONTH}\s+\d{{1,2}},\s*\d{{3,4}}|{_MONTH}\s+\d{{3,4}}|"
    rf"(?:1[0-9]|20)\d{{2}}s?)\b"
)
# A stretch of time: two dates joined ("from 1901 to 1925", "1901–1925", "between May 1901 and 1903").
_PERIOD = re.compile(rf"\bbetween\s+{_DATE.pattern}\s+and\s+{_DATE.pattern}|"
                     rf"(?:\bfrom\s+)?{_DATE.pattern}\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\bthrough\b)\s*{_DATE.pattern}")
# A count written in words: "forty-one" is a tens word and its units, "one" among them (alone, "one" is too often
# no count: "one of the men"); hundreds and thousands are counted by the words before them and go on with "and"
# ("two hundred and sixty", "a thousand and one"), all of it one count
_COUNT_WORD_ONE = rf"{COUNT_WORD}(?:-(?:{COUNT_WORD}|(?i:one)))?"
_COUNT_IN_WORDS = (rf"\b(?:(?:(?:{_COUNT_WORD_ONE}|(?i:a|one))\s+(?i:hundred|thousand)(?:,?\s+(?i:and\s+)?"
                   rf"(?={COUNT_WORD}|(?i:one\b)))?)+(?:{_COUNT_WORD_ONE}|(?i:one))?|{_COUNT_WORD_ONE})\b")
# A count or a measure; an ordinal ("its 10th album") ranks something and counts nothing, and a number joined to a
# word, a slash or a hyphen ("box KSH/7", "form B12", "item K-31") is part of a label, as is one after a one-letter
# abbreviation or "No." ("p.9", "p. 12", "No. 4": a page or an entry of a reference) and one written with a leading
# zero ("007": a count is never padded).
_QUANTITY = re.compile(
    r"(?:(?:about|around|approximately|nearly|over|almost|some|(?:more|less|fewer) than|up to|at least)\s+)?"
    rf"(?:(?<![\w-])[-−](?=\d))?(?:(?<![\w/])(?<![A-Za-z]-)(?!0\d)(?<!\b[A-Za-z]\.)(?<!\b[A-Za-z]\. )"
    rf"(?<!\b[Nn]o\.)(?<!\b[Nn]o\. )(?<!\bpp\.)(?<!\bpp\. )[$£€]?\d[\d,.]*(?!\d|st\b|nd\b|rd\b|th\b)|{_COUNT_IN_WORDS})"
    r"(?:\s*(?:%|percent|per cent|million|billion|trillion|thousand|hundred))?(?P<unit>\s?°\s?[CF]\b|(?:\s+|-)[a-z]+)?"
    r"(?(unit)(?:\s+\d+\s+(?:in|inches)\b)?)"  # "2 ft 6 in": a measure in two units
)
# Units a number is measured in ("17 metres", "a 12-foot beam"); a counted noun ("40 million copies", "8,410
# inhabitants") is not part of the answer.
MEASURES = frozenset("metres meters metre meter feet foot miles mile kilometres kilometers km m ft inches inch yards "
                     "yard fathoms fathom acres acre tonnes tons kg pounds years days hours minutes seconds percent "
                     "knots mph degrees °C °F".split())
# a date a note writes short ("Thu 3 Nov 22", "Oct 3"): its numbers are a day and a year, and count nothing
_SHORT_DATE = re.compile(rf"\b\d{{1,2}}\s+{SHORT_MONTH}(?:\s+'?\d{{2,4}})?\b|"
                         rf"\b{SHORT_MONTH}\s+\d{{1,2}}\b(?:,?\s+(?:'\d{{2}}|\d{{4}})\b)?")
# a date written in figures alone ("2019-06-03", "03/06/2019", "3.6.19"): its numbers count nothing either
_FIGURE_DATE = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}([/.])\d{1,2}\1(?:\d{4}|\d{2})\b")
_DAY_OF_MONTH = re.compile(rf"^{_MONTH}\s+\d{{1,2}}$")  # "April 22": a birthday, not a name
# "What is a generator?" / "What are descriptors?": a definition, not a name (no relation narrows it down).
DEFINITION = re.compile(
    r"^what (?:is|are) (?!.*\b(?:of|in|for|by|that|which|who|whose|where|when)\b)(?:an? )?[\w' -]{1,40}$"
)
NAMED_KEYWORD = re.compile(rf"\b(the|an?) \w+ ({SYNTAX_NOUN})\b")
# "what is a decorator in Python?": a kind of thing within a field, asked with the indefinite article
# "Who was Ada Pell?": nothing but a name after the verb asks what she is or was, which no name answers
IDENTITY = re.compile(r"^[Ww]ho (?:is|was|are|were) (?:[A-Z][\w'’.-]*(?: |(?=\?|$)))+\??$")
DEFINITION_WITHIN = re.compile(
    r"^what (?:is|are) an? (?!.*\b(?:of|for|by|that|which|who|whose|where|when)\b)[\w' -]{1,40} in [\w' -]{1,30}$"
)
RATE = re.compile(r"\b(?:every|per|each)\s+$", re.IGNORECASE)  # what a number after these counts is a rate's unit
MIN_ANSWER_SCORE = 0.15
KIND_FIT = 0.3  # how much more a name fits when the sources call it by the question's noun and all its modifiers
TOP_SENTENCES = 40
CHAIN_SEEDS = 10
HOP_DISCOUNT = 0.95
FOCUS_BEFORE, FOCUS_AFTER = 2, 8
FOCUS_SHARE = 0.3
PROSE_LOWER_SHARE = 0.3
TIE_HOPS = 2  # sentences at most that tie a name the question gives to the chain
SLOT_FIT = 1.3  # a plain noun phrase the sentence puts where the question's "what" stands fits as a name does
POST_FIT = 1.3  # a name the sentence gives the post asked, in brackets or apposition ("Ivo Marr (Clerk)"), fits best
UNTIED = 0.8  # a candidate whose sentence, page and hop name nothing of the question's names weighs this much
UNDATED = 0.5  # a count asked of a year, given by a sentence and page that do not give that year, weighs this much
HEARSAY = 0.5  # a candidate only a hedged sentence gives ("it is said", "reportedly") weighs this much
PAST_LINE = 0.5  # a candidate for a question about now, from a line that tells nothing of the present, weighs this much
CORRECTED = 0.5  # a value a line read sets aside as a mistake weighs this much of the value that line gives instead


@dataclass(frozen=True)
class Expected:
    """What kind of answer a question asks for, and for a choice question the options it names."""

    kind: AnswerKind
    options: tuple[str, ...] = ()
    direction: Direction = ""


@dataclass(frozen=True)
class Line:
    """One readable sentence of one source."""

    source: SourceRecord
    text: str
    terms: frozenset[str]
    position: int
    referred: frozenset[str] = frozenset()  # the page subject's stems, when the sentence refers to it unnamed


@dataclass
class Found:
    """The finder's verdict: a short answer with the sentences that carry it, or ``None`` with the reason."""

    short_answer: str | None
    kind: AnswerKind
    evidence: list[Line] = field(default_factory=list)  # the answer sentence first, then the hop(s) before it
    reason: str = ""
    score: float = 0.0
    candidates: list[tuple[str, float]] = field(default_factory=list)  # every span weighed, best first


# --- the question --------------------------------------------------------------------------------------------------
def expected_answer(question: str) -> Expected:
    """The kind of answer the question's wording asks for (who/when/where/how many/which X or Y/yes-no). A question
    set after what it builds on ("The ferry was named after a woman; who was her husband?", "They say Ada built it.
    Who really did?") asks by its last clause."""
    last_clause = re.split(r"[;:]\s+|(?<=[.!])\s+(?=[A-Z])", question.strip())[-1]
    if last_clause != question.strip() and words(last_clause)[:1] and words(last_clause)[0] in WH_WORDS:
        question = last_clause
    lowered = " ".join(words(question))
    tokens = lowered.split()
    tokens = tokens[1:] if framing_opener(question) else tokens  # "Roughly when ...?" asks when
    first = tokens[0] if tokens else ""
    cue_words = set(tokens)
    direction: Direction = ("early" if cue_words & EARLY_CUES else "late" if cue_words & LATE_CUES else
                 "more" if cue_words & MORE_CUES else "less" if cue_words & LESS_CUES else "")
    options = compared_pair(question, "or")
    if options and first not in AUXILIARIES | {"how", "when", "where"} or options and "older" in cue_words:
        return Expected("choice", options, direction)
    if first in AUXILIARIES:
        pair = compared_pair(question, "and") or ()
        return Expected("yes_no", pair, "same" if cue_words & SAME_CUES else direction)
    if asked_form(question) == "measure":  # "at what temperature ...?", "how tall ...?": a number with its unit
        return Expected("number", (), "measure")
    if asked_form(question) == "quantity" and not asks_for_money(question):  # "what share of ...?": a number
        return Expected("number")
    if any(cue in lowered for cue in COUNT_CUES) or asks_for_money(question):  # "how much did she pay?", "what did
        # they pay for it?": a sum of money, not "a three-berth yard"
        return Expected("number", (), "money" if asks_for_money(question) else "")
    if asked_form(question) == "version":  # "which release dropped it?": a version number names it
        return Expected("name", (), "version")
    if asks_for_a_period(lowered):
        return Expected("date", (), "period")
    if re.search(r"\b(?:what|which)\s+year\b", lowered):
        return Expected("date", (), "year")
    asks_when = first == "when" or tokens[-1:] == ["when"] or lowered.startswith("since when")  # "... ended when?"
    if asks_when or re.search(r"\b(?:what|which|in what|in which)\s+(?:date|day|month|decade|century)\b", lowered):
        return Expected("date")
    if IDENTITY.match(question.strip()):
        return Expected("description")
    # "by whom ...?", "on whose orders ...?": a preposition before the question word still asks for a person
    if first in {"who", "whom", "whose", "who's"} or re.match(r"\w+ (?:whom|whose)\b", lowered) or \
            re.search(r"\bby (?:who|whom)\b", lowered):
        return Expected("person")
    if first == "where" or (noun := re.search(r"\b(?:what|which|in what|in which)\s+(\w+)", lowered)) and \
            noun.group(1) in PLACE_NOUNS:
        return Expected("place")
    match = re.search(r"\b(?:what|which)\s+(\w+)", lowered)
    if match and match.group(1) in TIME_NOUNS:
        return Expected("date")
    if (asked := head_noun(question)) and names_a_person(asked):
        return Expected("person")  # "which clergyman ...?", "which of the nurses ...?": a person by another word
    if re.search(r"\b(?:population|how|number of)\b", lowered) and re.search(r"\bhow many\b|\bpopulation\b", lowered):
        return Expected("number")
    if asked_form(question) == "calling":  # "what did she do for a living?": her work, told by a noun ("blacksmith")
        return Expected("name")
    plain = NAMED_KEYWORD.sub(r"\1 \2", lowered)  # "what is the in operator" asks what "the operator" is
    # "what became of the van?", "what happened to the mill?": an account of its fate, which no one name tells
    explains = (re.search(r"\b(?:why|how does|how do|how did|how is|how are|how can|explain|describe|purpose of|"
                          r"used for|what (?:became|has become|becomes) of|"
                          r"what (?:happened|has happened|happens) to)\b", lowered),
                COMPARISON.search(lowered), BEHAVIOUR.match(lowered),
                DEFINITION.match(plain), DEFINITION_WITHIN.match(plain))
    if any(explains):
        return Expected("description")
    return Expected("name")


# --- sentences and their relevance ----------------------------------------------------------------------------------
def page_key(title: str) -> str:
    """A title to look pages up by: lower case, qualifier kept ("Leader of Opposition (Uganda)" names Uganda)."""
    return title.replace("(", " ").replace(")", " ").lower().strip()


def said_on(text: str, source: SourceRecord) -> str:
    """``with_subject`` for a sentence of ``source``: its title restored where a pronoun stands for it, and the name
    heading its section set before a line that describes it ("Ada Pell: Farrier at the Kesh forge.")."""
    page = source.get("text", "")
    if (section := section_subject(page, source["title"])) and section not in text and \
            tells_of_its_heading(text, section, page):
        return f"{section}: {text}"
    return with_subject(text, source["title"], page)


def tells_of_its_heading(text: str, section: str, page: str, common: frozenset[str] = frozenset()) -> bool:
    """A note's line with no subject of its own under a name's heading: it has no verb at all ("Farrier at the Kesh
    forge."), or it opens on a past form ("Drowned 1841 when the ferry capsized.") under a heading the page never
    writes a word of in lower case, as it does a topic's ("Built-in Types" over "Changed in version 3.8"). It tells
    what that name did, underwent or was."""
    if is_field(text):
        return False
    if _describing_fragment(text, common):
        return True
    lower = set(re.findall(r"\b[a-z][a-z'’-]+\b", page))
    return text[:1].isupper() and verb_shaped(subject_word(text)) and not any(
        word.lower() in lower for word in section.split())


def prose(text: str) -> bool:
    """A sentence, not an infobox row run together ("Jaguar Product type Cars Owner Jaguar Land Rover ..."): enough
    of its words are written in lower case. The first word does not count: a sentence opens on a capital whatever
    its word ("Made 1866 by Ivo Marr.")."""
    if is_field(text):
        return True  # "Builder: Ada Pell." is laid out as a field, not an infobox row run together
    tokens = re.findall(r"[^\W\d_][\w'’-]*", text)[1:]
    return bool(tokens) and sum(t[0].islower() for t in tokens) >= PROSE_LOWER_SHARE * len(tokens)


def readable_lines(sources: list[SourceRecord]) -> list[Line]:
    pool: list[Line] = []
    for source in sources:
        if source.get("suspicious"):  # a source that tries to instruct the reader never supplies the answer
            continue
        for position, sentence in enumerate(sentences(source["text"][:SCAN_CHARS])):
            if position == 0 and _heading_line(sentence.text, source["title"], source["text"]):
                continue  # the page's title as its first line names the page; it states nothing
            if claimable(sentence.text) and prose(sentence.text) or _one_word_field(sentence.text):
                pool.append(Line(source, sentence.text, frozenset(stems(sentence.text)), position))
    return pool


def _one_word_field(sentence: str) -> bool:
    """A record's field with a one-word value ("Make: Dorset", "Builder: Quill"), when its label is a common noun:
    an entry of the record, not a fragment of a list of places ("Kesh: Orren")."""
    field = re.fullmatch(r"([A-Z][a-z]+):\s+([A-Z][\w'’-]+)\.?", sentence.strip())
    return field is not None and is_a_noun(field.group(1).lower()) and instruction_like(sentence) is None


def _heading_line(sentence: str, title: str, text: str) -> bool:
    """A text whose whole first line is the page's title, with no sentence of its own ("ORLBY COURIER - 4 May 1961,
    p.2"): that line is a masthead or heading, not a statement, whatever the splitter joins to it."""
    title = title.strip()
    return bool(title) and not re.search(r"[.!?](?:\s|$)", title) and text.startswith(title + "\n") and \
        sentence.startswith(title)


def with_page_subject(line: Line, subject: str, common: frozenset[str], headed: bool = False) -> Line:
    """A sentence that refers to its page's subject without naming it speaks of it: the name the page's title gives
    (``subject``) counts as said by the sentence (``Line.referred``; the words it writes, and their rarity, stay
    its own). It refers by a pronoun ("She wed Ada Pell." on Nora Vane's page), by the subject's own head noun ("The
    mill was built in 1790." on Tarrow Mill's page), by opening on a past form with no subject at all ("Acquired by
    Pell & Sons in 1961."), or as a labelled field ("Opened: 1868"). "He" and "she" stand for a person, so not for a
    title that ends in a word the sources write in lower case (a medal, a mill), nor on a page that calls its own
    subject "it" (a halt, a ship): there they point back to someone the page named before. In a section a name heads
    (``headed``), a line with neither subject nor verb describes that name ("Farrier at the Kesh forge.")."""
    if not subject:
        return line
    first, second = (line.text.split()[:2] + ["", ""])[:2]
    opener = subject_word(line.text)
    if opener in ITEM_OPENERS and (label := item_label(line.text, line.source["text"])):
        return Line(line.source, line.text, line.terms, line.position, frozenset(stems(label)))
    head = subject.split()[-1].lower()
    if opener in PERSONAL_PRONOUNS and (head in common or a_thing_page(line.source["text"])):
        person = referent(line.text, line.source["title"], line.source["text"])
        return Line(line.source, line.text, line.terms, line.position, frozenset(stems(person))) if person else line
    refers = opener in REFERRING_SUBJECTS or (opener == "the" and second.lower().strip(",") == head and head in common)
    if not refers and not (first[:1].isupper() and verb_shaped(opener)) and not is_field(line.text) and \
            not (headed and _describing_fragment(line.text, common)):
        return line
    return Line(line.source, line.text, line.terms, line.position, frozenset(stems(subject)))


def _describing_fragment(text: str, common: frozenset[str] = frozenset()) -> bool:
    """A note's line with neither subject nor verb that opens on a common noun ("Farrier at the Kesh forge.", "Joint
    founder of the ringers."): it says what its page's or section's subject is."""
    tokens = words(text)
    return bool(tokens) and text[:1].isupper() and (tokens[0] in common or is_a_noun(tokens[0])) and \
        tokens[0] not in STOPWORDS and not any(verb_shaped(token) or token in AUXILIARIES for token in tokens)


def _person_referred(line: Line, expected: Expected, common: frozenset[str], question: str,
                     asked: frozenset[str]) -> list[str]:
    """The person a sentence opening on "He" or "She" stands for (``referent``): its page's subject ("He wrote a
    memoir" on Ada Pell's page), or on a page about a thing the person the sentence before names. The one who acted,
    so a candidate for "who" though the sentence does not write the name. So is the person whose page has a field
    whose label says what the question asks of its names, and whose value names no one ("Keeper of the Kesh light:
    1852 to 1879" on Ada Pell's page, for "who was keeper of the Kesh light?")."""
    if expected.kind != "person" or not line.referred:
        return []
    title = clean_title(line.source["title"])
    opener = subject_word(line.text)
    label, _, value = line.text.partition(":")
    # a label says what its person was ("Keeper of the light"), not what they did: no answer to "who built it?"
    acts = asked_acts(Chain(question=question, answer="", kind="person", stating=()))
    a_field = is_field(line.text) and bool(stems(label) & asked) and not name_spans(value, common) and \
        all(stem(act) in stems(label) for act in acts)
    person_page = bool(title) and title.split()[-1].lower() not in common and not a_thing_page(line.source["text"])
    if opener in SUBJECT_PERSONS:
        return name_spans(referent(line.text, line.source["title"], line.source["text"]), common)[:1]
    if a_field and person_page:
        return name_spans(title, common)[:1]
    # "## Ada Pell" over "Drowned 1841 when the ferry capsized." or "Keeper of the Kesh light from 1852.": a line
    # that opens on a past form, or has neither subject nor verb, tells what the name heading its section did,
    # underwent or was
    section = section_subject(line.source["text"], line.source["title"], common)
    if section and tells_of_its_heading(line.text, section, line.source["text"], common):
        return [section]
    return []


@dataclass
class Scored:
    line: Line
    score: float
    hop: Line | None = None  # the sentence that named the bridge, for a two-hop chain
    bridge: str = ""


def focus_terms(question: str) -> frozenset[str]:
    """The terms next to the question word ("founded in what year", "the current opposition leader"): the relation
    the answer sentence itself must state, whichever hop the rest of the question needs."""
    tokens = words(question)
    at = next((i for i, token in enumerate(tokens) if token in WH_WORDS), None)
    if at is None:
        return frozenset()
    window = " ".join(tokens[max(0, at - FOCUS_BEFORE): at + FOCUS_AFTER + 1])
    # which release is asked ("when did Kesh 3.0 ship?") is said by the sentence that answers, wherever it stands
    return frozenset(stems(window)) | frozenset(DOTTED_NUMBER.findall(question))


class Relevance:
    """Rarity-weighted question coverage of sentences and of two-sentence chains."""

    def __init__(self, question: str, pool: list[Line]) -> None:
        self.question_terms = frozenset(stems(question))
        self.focus = focus_terms(question) & self.question_terms
        idf = idf_weights([list(line.terms) for line in pool]) if pool else {}
        self.weight = {t: idf.get(t, 1.0) for t in self.question_terms}
        # fsum: a sum over a set is exact whatever order the set iterates in, so equal scores stay equal in every
        # process (string hashing, and so set order, differs between runs) and ties break the same way
        self.total = math.fsum(self.weight.values()) or 1.0
        self.focus_total = math.fsum(idf.get(t, 1.0) for t in self.focus) or 1.0
        self.idf = idf
        self.paraphrased = {term: others for term in self.question_terms
                            if (others := paraphrases(term) | {other[0] for other in [converse(term)] if other})}
        for verb, particle in particles_asked(question).items():  # "set up" is said by "founded" as well, and "shut
            phrasal = paraphrases(f"{verb} {particle}")  # down" by "closed" ("close down" without its particle)
            self.paraphrased[verb] = self.paraphrased.get(verb, frozenset()) | phrasal | {f"{verb} {particle}"} | {
                other.split()[0] for other in phrasal}
        self.phrasal = any(" " in other for others in self.paraphrased.values() for other in others)
        self.in_other_words: dict[int, frozenset[str]] = {}  # per sentence: the question terms it says in other words

    def focus_value(self, line: Line) -> float:
        """How much of the question's focus the sentence itself (not its page title) states."""
        return math.fsum(self.idf.get(t, 1.0) for t in self.stated(line) & self.focus) / self.focus_total

    def stated(self, line: Line) -> frozenset[str]:
        """The question's terms the sentence states, itself or by a verb of the same usual sense ("established" for
        "founded": ``tools.lexicon``)."""
        own = (line.terms | line.referred) & self.question_terms
        if not self.paraphrased:
            return own
        if id(line) not in self.in_other_words:
            said = line.terms | phrase_stems(line.text) if self.phrasal else line.terms
            self.in_other_words[id(line)] = frozenset(
                term for term, others in self.paraphrased.items() if others & said)
        return own | self.in_other_words[id(line)]

    def covered(self, line: Line) -> frozenset[str]:
        title_terms = frozenset(stems(line.source["title"]))
        return self.stated(line) | (title_terms & self.question_terms)

    def value(self, terms: frozenset[str]) -> float:
        return math.fsum(self.weight[t] for t in terms) / self.total


def common_words(pool: list[Line]) -> frozenset[str]:
    """Words the sources also write in lower case: a capitalised one of them at a sentence start is no name."""
    return frozenset(w for line in pool for w in re.findall(r"\b[a-z][a-z'’]+\b", line.text))


def score_lines(question: str, pool: list[Line], common: frozenset[str] = frozenset()) -> list[Scored]:
    """Each sentence's best relevance, alone or as the second hop of a chain through a bridge entity."""
    relevance = Relevance(question, pool)
    question_lower = question.lower()
    direct = [Scored(line, relevance.value(relevance.covered(line))) for line in pool]
    best = {id(s.line): s for s in direct}
    seeds = sorted(direct, key=lambda s: -s.score)[:CHAIN_SEEDS]
    names = question_names(question)

    ties: dict[int, bool] = {}

    def tied(line: Line) -> bool:
        if id(line) not in ties:
            ties[id(line)] = not names or _names_any([line], names)
        return ties[id(line)]
    by_title: dict[str, list[Line]] = defaultdict(list)
    by_name: dict[str, list[Line]] = defaultdict(list)
    by_page: dict[str, list[Line]] = defaultdict(list)
    for line in pool:
        by_title[clean_title(line.source["title"]).lower()].append(line)
        by_page[page_key(line.source["title"])].append(line)
        for name in name_spans(line.text, common):
            by_name[name.lower()].append(line)
    source_count = len({line.source["key"] for line in pool})
    generic = max(4, int(0.08 * source_count))  # a name most pages mention ("American") leads nowhere in particular
    for seed in seeds:
        if seed.score <= 0:
            continue
        first_terms = relevance.covered(seed.line)
        for bridge in name_spans(seed.line.text, common):
            bridge_lower = bridge.lower()
            if bridge_lower in question_lower or len(bridge) < 3 or stems(bridge) <= relevance.question_terms:
                continue
            mentions = [line for line in by_name.get(bridge_lower, []) if line.source["key"] != seed.line.source["key"]]
            if len({line.source["key"] for line in mentions}) > generic:
                mentions = []
            # The bridge's own page is the strongest second hop; another page that names it, a weaker one.
            titled = [line for title, lines in by_page.items() if title != bridge_lower and
                      re.search(rf"\b{re.escape(bridge_lower)}\b", title) for line in lines]
            hop_two = ([(line, 1.0) for line in by_title.get(bridge_lower, [])] + [(line, 0.95) for line in titled]
                       + [(line, 0.85) for line in mentions])
            for line, link in hop_two:
                added = relevance.covered(line) - first_terms
                if line.source["key"] == seed.line.source["key"] or not added:
                    continue  # a hop leads to another page: a page's own sentences are one page's evidence
                # The chain covers both sentences' question terms; a hop costs a little certainty.
                chain = HOP_DISCOUNT * link * relevance.value(first_terms | relevance.covered(line))
                if chain <= best[id(line)].score:
                    continue
                if tied(line) and not tied(seed.line):
                    # Backwards: from the question's subject the way leads on to the bridge ("founded by Ada Pell"
                    # for "where was the founder born?"), so the bridge is no answer here; but the seed's words are
                    # said of another subject and add nothing to this sentence's own score.
                    chain = best[id(line)].score
                best[id(line)] = Scored(line, chain, hop=seed.line, bridge=bridge)
    for scored in best.values():
        scored.score = (1 - FOCUS_SHARE) * scored.score + FOCUS_SHARE * relevance.focus_value(scored.line)
    return sorted(best.values(), key=lambda s: (-s.score, s.line.position))


# --- candidate spans ----------------------------------------------------------------------------------------------
def quantity(match: re.Match[str], qualifiers: frozenset[str], counted: str = "") -> str | None:
    """The number as an answer; None when it counts something other than what the question counts ("4 police
    officers" for "how many inhabitants")."""
    unit = (match.group("unit") or "").strip(" -")
    if counted and unit in MEASURES and stem(unit) != stem(counted) and counted not in MEASURES:
        return None  # "two days" measures a time, and "how many people" counts people
    if unit and unit not in MEASURES and stem(unit) not in qualifiers:
        number = match.group(0)[: match.start("unit") - match.start()]
        if counted and unit != counted and not number.rstrip().endswith((",", ".", ";", ":")):
            return None
        return number.strip(" .,;:")  # "273, reducing" -> "273"
    return match.group(0).strip(" .,;:")


def candidate_spans(text: str, expected: Expected, common: frozenset[str] = frozenset(),
                    qualifiers: frozenset[str] = frozenset(), counted: str = "") -> list[str]:
    """Spans of the expected kind in a sentence. A quantity keeps the word after it when that word is a unit of
    measure ("17 metres") or qualifies it the way the question does ("4,120 seated" for "can seat how many"); not
    "512, reducing" nor the counted noun ("40 million copies" for "how many copies")."""
    kind = expected.kind
    text = WIKI_LINK.sub(" ", text) if "[[" in text else text  # a note's link names a file: "[[fire-1894]]" dates none
    text = MARKDOWN_LINK_TARGET.sub("", text) if "](" in text else text  # and so does "[the fire](fire-1894.md)"
    if kind == "date":
        spans = [m.group(0) for m in _DATE.finditer(text)]
        if expected.direction == "period":  # "during what years?": a start and an end, never one date alone
            return list(dict.fromkeys(m.group(0) for m in _PERIOD.finditer(text)))
        if expected.direction == "year":  # "in what year ...?" asks for the year, not the day (nor a decade's "1840s")
            return list(dict.fromkeys(re.findall(r"\d{3,4}", span)[0] for span in spans if not DECADE.fullmatch(span)))
        return spans
    if kind == "number":
        dated = [m.span() for pattern in (_DATE, _SHORT_DATE, _FIGURE_DATE) for m in pattern.finditer(text)]
        found = [quantity(m, qualifiers, counted) for m in _QUANTITY.finditer(text)
                 if not any(start <= m.start() < end for start, end in dated)  # "4" of "4 May 1931" is a date
                 and not RATE.search(text, 0, m.start())  # "one pump to every four houses" is a rate, no count
                 and not (text[m.start() - 1:m.start()] == "(" and text[m.end():m.end() + 1] == ")"
                          and m.group(0).isdigit())]  # "Mill Row (1)" numbers an entry; "(640 seated)" counts
        if expected.direction == "money":
            return [span for span in found if span and a_sum(span, (text,))]
        if expected.direction == "measure":  # a measure is a number with its unit: "12 knots", not "12" nor "two"
            return [span for span in found if span and (span[:1] in "$£€" or not re.fullmatch(
                rf"[\d.,]+|{_COUNT_IN_WORDS}", span.split()[-1], re.IGNORECASE))]
        return [span for span in found if span]
    if expected.direction == "version":
        return list(dict.fromkeys(m.group(0) for m in VERSION.finditer(text)))
    if kind in ("person", "place", "name"):
        # a name is not a date ("June 12", "April 1952")
        names = [n for n in name_spans(text, common)
                 if not _DATE.search(n) and not _DAY_OF_MONTH.match(n)]
        return list(dict.fromkeys(names))
    return []


def _as_written(span: str, text: str, address: bool) -> str:
    """The name as the sentence writes it whole: a name in "'s" with nothing owned after it is the name of a place
    or a premises ("Church: St Orla's;", "at Pell's."), and an address keeps its number ("Address: 7 Mill Row")."""
    if owned := re.search(rf"(?<![\w'’]){re.escape(span)}['’]s(?=\s*[;,.)]|\s*$)", text):
        span = owned.group(0)
    if address and (number := re.search(rf"\b(\d+[A-Za-z]?),?\s+{re.escape(span)}", text)):
        span = f"{number.group(1)} {span}"
    return span


def _outside_question(span: str, question_lower: str, question_terms: frozenset[str], head: str = "",
                      of_kind: bool = False, names: tuple[str, ...] = ()) -> bool:
    """The answer is something the question does not already name ("Ralph Franklin Hefferline" for "Ralph
    Hefferline" is the question's own subject). The noun the question names its answer by does not count as named:
    "Harrow County" answers "what county?". A name the sources call by the question's noun phrase, or set beside
    its noun, may share half its words with the question: "Gull Sound Ferry" answers "which ferry crosses the Gull
    River?"."""
    if span.lower() in question_lower:
        return False
    span_terms = stems(span)
    if digits := numbers(span):  # a number the question does not give, unless it only versions a name it does
        worded = {term for term in span_terms if not any(ch.isdigit() for ch in term)}  # "Tarrow 2" is Tarrow's
        versioned = span[:1].isupper() and bool(worded) and worded <= question_terms
        return not digits <= numbers(question_lower) and not versioned
    if spelled := re.findall(_COUNT_IN_WORDS, span):  # "thirty days": a count in words, read as one in digits
        return not all(re.search(rf"\b{re.escape(word.lower())}\b", question_lower) for word in spelled)
    if any(len(stems(name)) == len(span_terms) > 1 and stems(name) & span_terms for name in names):
        return True  # "Jonas Pell" is not "Ada Pell": a name as long as the question's, sharing a word, is another
    # the question's words as written, inflected alike, not stems alone: "Orlby Engineering" does not share a word
    # with "who serviced the engine?"
    asked = _asked_words(question_lower, head)
    shared = len({word for word in content_terms(span) if any(inflected_alike(word, other) for other in asked)})
    return bool(span_terms) and (shared * 2 < len(span_terms) or of_kind and shared * 2 == len(span_terms))


@functools.lru_cache(maxsize=256)
def _asked_words(question_lower: str, head: str) -> tuple[str, ...]:
    """The question's content words but its noun for the answer, read once per question (every candidate span of
    every sentence is weighed against them)."""
    return tuple(word for word in content_terms(question_lower) if not (head and inflected_alike(word, head)))


def _short_forms(question: str) -> frozenset[str]:
    """The capitalised words the question calls a thing by, after "the" ("which of the Union's conductors ...?":
    "Union"). A longer name ending in one ("Kesh Choral Union") is the question's own thing, not its answer."""
    return frozenset(re.findall(r"\bthe ([A-Z][\w-]*)\b(?!['’]?\s*[A-Z])", question))


def _modifier(span: str, text: str) -> bool:
    """A one-word name used as an adjective ("an American voice actor", "a Japanese rock band") describes
    something else; it is not the thing asked for."""
    if " " in span:
        return False
    match = re.search(rf"(?<![\w-]){re.escape(span)}\s+([a-z][\w-]*)", text)
    return match is not None and match.group(1) not in STOPWORDS


def _proximity(text: str, span: str, question_terms: frozenset[str]) -> float:
    """How close the span sits to the question's terms in its sentence (1.0 adjacent, falling with distance)."""
    tokens = words(text)
    span_tokens = words(span)
    if not span_tokens:
        return 0.0
    try:
        at = next(i for i in range(len(tokens)) if tokens[i:i + len(span_tokens)] == span_tokens)
    except StopIteration:
        return 0.5
    # a sentence listing releases ("2.0 on 2 May 2010, 3.0 on 11 May 2015") gives each its own clause: a value
    # outside the clause of the release asked is another release's
    releases = [match for match in DOTTED_NUMBER.finditer(text) if match.group() in question_terms]
    if releases and not any(_same_clause(text, match.start(), span) for match in releases):
        return 0.0
    hits = [i for i, token in enumerate(tokens) if stem(token) in question_terms]
    if not hits:
        return 0.5
    distance = min(abs(i - at) for i in hits)
    return 1.0 / (1.0 + 0.1 * distance)


def _same_clause(text: str, at: int, span: str) -> bool:
    """Whether ``span`` stands in the clause (between commas or semicolons) of the text that holds offset ``at``."""
    start = max(text.rfind(",", 0, at), text.rfind(";", 0, at)) + 1
    ends = [end for end in (text.find(",", at), text.find(";", at)) if end >= 0]
    return span in text[start:min(ends, default=len(text))]


def head_noun(question: str) -> str:
    """The noun the question names its answer by ("what county" -> "county", "which larger Guild of Masons" ->
    "guild"): the last word of its asked noun phrase (``kinds.asked_phrase``). A relative "which" inside the question
    ("the state in which Gull Rock is ...") names no answer."""
    phrase = asked_phrase(question)
    return phrase[-1] if phrase else ""


def _type_fit(span: str, expected: Expected, text: str, head: str = "", naming: bool = False) -> float:
    """How well a span fits the kind asked for; a quoted span is a title, not a person; a span that carries the
    question's own noun ("Harrow County" for "what county") fits best, and so does the name a sentence says
    something is called or sets beside the noun ("the Tuesday club (Owl Hour)"), for a question asking what it was
    called (``naming``)."""
    if head and (_headed_by(span, head) or naming and span in named_beside(head, text)) or \
            naming and expected.kind != "person" and is_alias(span, text):
        return 1.3
    if expected.kind == "person":
        parts = [part for part in span.split() if part != "&"]  # "Pell & Sons": a firm's name, each word capitalised
        quoted = re.search(rf"[\"“]{re.escape(span)}[\"”]|(?<!\w)['‘]{re.escape(span)}['’](?!\w)", text)
        if quoted or is_alias(span, text):  # a title, or what the thing asked about is called
            return 0.4
        if place_share(span, (text,)) == 1.0 or words(span)[-1:] and words(span)[-1] in PLACE_NOUNS:
            return 0.5  # where something happened ("spent his last years at Gull Row", "Bridge Street"), not who
        if article_share(span, (text,)) == 1.0:
            return 0.4  # a thing's name ("the Gull Rose was launched"): a person's takes no article
        if len(parts) >= 3 and names_a_body(parts[-1]):
            return 0.5  # "Kesh Rowing Club", "Orlby Parish Council": a body of people, not one person
        return 1.0 if 2 <= len(parts) <= 4 and all(p[:1].isupper() for p in parts) else 0.6
    return 1.0


def _styled_by_place(span: str, head: str, read: tuple[str, ...]) -> str:
    """The place in a person's name styled by it ("Mrs Ada Pell of Orlby Farm"), when the place is of the noun the
    question asks for ("what farm ...?"): the question asks for the farm, not for the person who lives there."""
    person, joined, place = span.partition(" of ")
    return place if joined and head and _headed_by(place, head) and a_person(person, read) else ""


def _headed_by(span: str, head: str) -> bool:
    """The name is one of the noun's kind by its own words: the noun ends it ("Harrow County") or stands before
    "of" ("City of Kesh", "Kesh Hall of Fame"); a name that only holds the word ("Country Road Radio") is of another
    kind."""
    tokens = span.lower().split()
    return tokens[-1:] == [head] or any(tokens[at:at + 2] == [head, "of"] for at in range(len(tokens)))


@dataclass(frozen=True)
class Reading:
    """Every readable sentence of the sources, ranked for one question: what the answer and the claims come from."""

    pool: list[Line]
    common: frozenset[str]
    ranked: list[Scored]


class _Keyed:
    """A source as a cache key: equal when its id, canonical key, title and text are (the fields a reading uses)."""

    __slots__ = ("source", "identity")

    def __init__(self, source: SourceRecord) -> None:
        self.source = source
        self.identity = (source["id"], source["key"], source["title"], source["text"])

    def __hash__(self) -> int:
        return hash(self.identity)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and self.identity == other.identity


def read_for(question: str, sources: list[SourceRecord]) -> Reading:
    """Every readable sentence of ``sources`` ranked for ``question``. Reflect, synthesize and the critic of one cycle
    read the same sources, and this is the engine's costliest step, so equal inputs share one (read-only) reading."""
    return _reading(question, tuple(_Keyed(source) for source in sources))


def forget_readings() -> None:
    """Empty the memo of readings (benchmarks that compare runs start each from nothing)."""
    _reading.cache_clear()


@functools.lru_cache(maxsize=16)
def _reading(question: str, sources: tuple[_Keyed, ...]) -> Reading:
    pool = readable_lines([keyed.source for keyed in sources])
    common = common_words(pool)
    # the subject each page's title names, once per page (``with_page_subject`` reads it for every sentence); a
    # section that a name heads speaks of that name
    subjects = {title: (name_spans(clean_title(title), common) or [""])[0]
                for title in {line.source["title"] for line in pool}}
    sections = {id(source): section_subject(source["text"], source["title"], common)
                for source in {id(line.source): line.source for line in pool}.values()}
    pool = [with_page_subject(line, sections[id(line.source)] or subjects[line.source["title"]], common,
                              headed=bool(sections[id(line.source)])) for line in pool]
    return Reading(pool, common, score_lines(question, pool, common))


def find_answer(question: str, sources: list[SourceRecord], reading: Reading | None = None) -> Found:
    """The short answer to ``question`` from what was read, or an abstention with its reason."""
    expected = expected_answer(question)
    reading = reading or read_for(question, sources)
    pool, common, ranked = reading.pool, reading.common, reading.ranked
    if not pool:
        return Found(None, expected.kind, reason="no readable sentence was gathered")
    if expected.kind in ("choice", "yes_no"):
        pair = (expected.options[0], expected.options[1]) if len(expected.options) == 2 else None
        if expected.kind == "choice" and pair is not None:
            return _verdict(choose(question, pair, expected.direction, ranked), "choice")
        return _verdict(yes_no(question, pair, ranked), "yes_no")
    if expected.kind in ("place", "name") and (subjects := joint_subjects(question)):
        shared = shared_answer(question, subjects, ranked, lambda text: candidate_spans(text, expected, common))
        if shared.answer:  # else the usual reading below, over every sentence
            return _verdict(shared, expected.kind)
    top = [s for s in ranked[:TOP_SENTENCES] if s.score > 0]
    if not top:
        return Found(None, expected.kind, reason="no sentence read speaks to the question")
    if expected.kind == "description":
        lead = description_lead(question, sources, ranked)
        if isinstance(lead, str):
            return Found(None, expected.kind, reason=lead)
        return Found(None, expected.kind, _evidence(lead), reason="the question asks for an explanation, not a short "
                     "answer; the best-supported sentences follow", score=lead.score)
    question_lower = question.lower()
    question_terms = frozenset(stems(question))
    asked_terms = frozenset(stem(word) for word in content_terms(question))  # the question's content words
    focus = focus_terms(question) & question_terms or question_terms
    head = head_noun(question)
    naming = bool(ASKS_FOR_A_NAME.search(question.lower()))  # "what was the meadow called?"
    address = "address" in words(question)  # "what was the shop's address?": a street with its number
    names = tuple(question_names(question))
    counted = counted_noun(question)
    counted_years = YEAR.findall(question) if expected.kind == "number" else []  # "how many ... in 1998?"
    now = asks_now(question)
    acts = {stem(act) for act in asked_acts(Chain(question=question, answer="", kind=expected.kind, stating=()))}
    who_act = who_did_act(question) if expected.kind == "person" else ""
    held = _post_beside(question) if expected.kind == "person" else None
    slot = asked_slot(question) if expected.kind == "name" else None  # "what did they turn it into?"
    plain_kind = asked_kind(question) if expected.kind == "name" else ""  # "what colour ...?": "navy", no name
    made = made_noun(question) if expected.kind == "name" else ""  # "what make of van ...?": "Dorset" of "a Dorset van"
    names_no_answer = plain_kind in (CALLING, KINSHIP) or bool(made)  # no name is a calling or a kinship, nor is a
    # name a make unless it stands before the thing's noun
    qualifiers = question_terms - {stem(counted)}
    relation = set(question_terms) - {term for name in names for term in stems(name)}
    source_count = len({s["key"] for s in sources})
    read = tuple(f"{s['title']}. {s['text'][:SCAN_CHARS]}" for s in sources)  # titled, as the gate reads them
    persons: dict[str, bool] = {}  # whether a span is a person's name, read once however many sentences give it
    generic = max(4, int(0.08 * source_count))
    mentioned_in: dict[str, set[str]] = defaultdict(set)
    for line in pool:
        for span in name_spans(line.text, common):
            mentioned_in[span.lower()].add(line.source["key"])
    # Names the sources define by the question's noun ("X is a Welsh glider" for "which glider"): the kind asked.
    of_kind = described_as(asked_phrase(question), ((line.text, line.source["title"], line.position) for line in pool))
    short_forms = _short_forms(question)
    best_value: dict[str, float] = {}
    carriers: dict[str, Scored] = {}
    sources_of: dict[str, set[str]] = defaultdict(set)
    shown: dict[str, str] = {}
    tied_to_question: dict[int, bool] = {}
    for scored in top:
        years = act_years(scored.line.text, acts, names) if expected.kind == "date" else []  # the asked act's own years
        filling = slot_fillers(scored.line.text, slot) if slot else []  # plain nouns where the question's "what" is
        filling += plain_fillers(scored.line.text, plain_kind, question) if plain_kind else []  # "navy": of the kind
        filling += make_fillers(scored.line.text, made) if made else []
        spans = [] if names_no_answer else candidate_spans(scored.line.text, expected, common, qualifiers, counted)
        for span in spans + filling + \
                _person_referred(scored.line, expected, common, question, frozenset(relation)):
            if expected.kind != "person" and (place := _styled_by_place(span, head, read)):
                span = place  # "Mrs Ada Pell of Orlby Farm" for "what farm ...?": the farm
            if expected.kind != "person":
                span = _as_written(span, scored.line.text, address)
            key = span.lower()
            share = kind_share(span, of_kind)
            if span in filling:  # in the question's open place: the answer, unless the question says it itself
                if key in question_lower:
                    continue
            elif not _outside_question(span, question_lower, question_terms, head, share is not None or (
                    naming and span in named_beside(head, scored.line.text)), names) or \
                    len(span.split()) > 1 and span.split()[-1] in short_forms or (
                    expected.kind != "number" and expected.direction != "version" and head not in ADJECTIVE_HEADS
                    and _modifier(span, scored.line.text)):
                continue
            if initials_of(span, question) or initials_of(span, scored.line.text, capitalised=True) or \
                    expected.kind == "person" and abbreviation(span):
                continue  # "OB" for "the old bridge": the question's own subject, or the words its sentence
                # shortens ("the Old Bridge (OB)"); "AP", "CFO": no person's name
            if expected.kind == "date" and only_life_years(span, scored.line.text, question):
                continue  # "Ada Pell (1878–1960) founded it in 1919": 1960 dates her life, not the founding
            if years and not any(year in span for year in years):
                continue  # "engineer from 1879, a millwright born in 1851": the act asked has its own year
            if denies(scored.line.text, span, relation):
                continue  # "Ada Pell did not design it" is evidence against Ada Pell
            if only_a_reference(span, scored.line.text) or only_an_authority(span, scored.line.text, question):
                continue  # "(see "The Gedney Works")" names a note to read, "according to the charter" whose word
            if expected.kind in ("place", "date") and done_by(span, scored.line.text, frozenset(acts)):
                continue  # "built by Ivo Marren in his shed at Orrinby": the builder, not where it was built
            if expected.kind == "place" and key not in persons:
                persons[key] = a_person(span, read)
            if persons.get(key) or expected.kind == "place" and FIRM_NAME.search(span):
                continue  # a name the sources show to be a person's ("Ada Lind, born Ada Marr") is no place, nor a
                # firm's ("Messrs. Pell", "Pell & Sons")
            if who_act and on_the_converse_side(scored.line.text, span, who_act) is False:
                continue  # "Ivo Lant sold the mill to Ada Pell": the seller did not buy it
            if scored.bridge and key in scored.bridge.lower() and head not in ADJECTIVE_HEADS and share is None:
                continue  # the bridge is the way to the answer, not the answer (but what two pages share answers
                # "what nationality were A and B?", and a bridge the sources call by the question's noun is what
                # "which ferry ...?" asks for)
            if len(mentioned_in.get(key, ())) > generic and head not in key.split() and expected.kind != "person":
                continue  # a name most pages mention ("United States") answers nothing in particular, unless it
                # carries the noun the question asks for: "Harrow County" on many pages answers "what county?"; the
                # people a folder of notes is about are on most of its pages, and "who" asks for one of them
            closeness = _proximity(scored.line.text, span, focus)
            fit = SLOT_FIT if span in filling else _type_fit(span, expected, scored.line.text, head, naming) \
                if share is None else 1.0 + KIND_FIT * share
            if held and any(held.match(scored.line.text, at.end()) for at in re.finditer(re.escape(span),
                                                                                          scored.line.text)):
                fit *= POST_FIT  # the sentence sets the post asked beside this name
            value = scored.score * (0.7 + 0.3 * closeness) * fit
            if names and not tied_to_question.setdefault(id(scored), _names_any(_evidence(scored), names)):
                value *= UNTIED  # a sentence tied to nothing the question names is weaker evidence of its answer
            if hedged(scored.line.text):
                value *= HEARSAY  # "it is said that ...": a rumour is weaker evidence than a plain statement
            if now and not tells_now(scored.line.text):
                value *= PAST_LINE  # "who keeps the bees now?": a line of another time names an earlier keeper
            if counted_years and not any(year in scored.line.text or year in scored.line.source["title"]
                                         for year in counted_years):
                value *= UNDATED  # "how many were mended in 1998?": a count of another time counts something else
            if value > best_value.get(key, 0.0):
                best_value[key], carriers[key], shown[key] = value, scored, span
            sources_of[key].add(scored.line.source["key"])
    # The best sentence decides; each further source stating the same span adds a little.
    votes = {key: best_value[key] * (1.0 + 0.05 * min(3, len(sources_of[key]) - 1)) for key in best_value}
    # A name that leads on to a sentence naming another candidate of the wanted kind is a bridge: the answer lies
    # one hop further ("Harbor Works" leads to "... founded by Ada Pell"; Ada Pell's own page names no founder).
    bridged: dict[str, float] = defaultdict(float)
    for scored in top:
        onward = scored.bridge and any(
            key != scored.bridge.lower() and scored.line is carriers[key].line for key in carriers)
        if onward:
            bridged[scored.bridge.lower()] = max(bridged[scored.bridge.lower()], scored.score)
    for key in votes:
        if bridged.get(key, 0.0) >= HOP_DISCOUNT * best_value[key]:  # the onward hop costs its discount
            votes[key] *= 0.5
    corrected = _take_corrections(votes, shown, carriers, ranked, relation)
    if not votes:
        return Found(None, expected.kind, _evidence(top[0]), reason=f"no {expected.kind} is named in the sentences "
                     "that speak to the question", score=top[0].score)
    order = sorted(votes, key=lambda k: (-votes[k], len(k)))
    weighed = [(shown[key], round(votes[key], 3)) for key in order]
    best = order[0]
    if rivals := [shown[key] for key in order[1:] if votes[key] >= votes[best] and not _one_value(key, best)]:
        return Found(None, expected.kind, _evidence(carriers[best]), reason="the sources read support " + ", ".join(
            f"'{span}'" for span in [shown[best]] + rivals[:2]) + " equally, and none of them states which the "
            "question asks for", score=votes[best], candidates=weighed)
    if votes[best] < MIN_ANSWER_SCORE:
        return Found(None, expected.kind, _evidence(top[0]), reason="the sentences read only touch on the question; "
                     "none states an answer with enough support", score=votes[best], candidates=weighed)
    evidence = _evidence(carriers[best])
    evidence += [line for line in _evidence(corrected[best]) if line not in evidence] if best in corrected else []
    evidence += _page_ties(evidence, names, pool, asked_terms)
    evidence += _name_ties(evidence, names, ranked, shown[best])
    return Found(shown[best], expected.kind, evidence,
                 score=round(votes[best], 3), candidates=weighed)


def _take_corrections(votes: dict[str, float], shown: dict[str, str], carriers: dict[str, Scored],
                      ranked: list[Scored], relation: set[str]) -> dict[str, Scored]:
    """A value a line read sets aside as a mistake ("it reopened in 1931, not 1930, my slip") falls behind the one
    candidate that line states in its place; when the mistaken value had more support, the correction takes it, and
    that line becomes its evidence. Where it is, the line it corrects (returned by the value taken) ties it to what
    that line was about. A correction that names no other candidate leaves the value for the commitment to withhold."""
    corrected: dict[str, Scored] = {}
    for key in list(votes):
        for scored in ranked:
            if not sets_aside(scored.line.text, shown[key], relation):
                continue
            offered = [other for other in votes if other != key and re.search(
                rf"(?<!\w){re.escape(shown[other])}(?!\w)", scored.line.text)]
            if len(offered) == 1 and votes[key] > votes[offered[0]]:
                votes[offered[0]], carriers[offered[0]] = votes[key], scored
            if len(offered) == 1 and carriers[offered[0]].line is scored.line:
                corrected[offered[0]] = carriers[key]
            if len(offered) == 1:
                votes[key] = votes[offered[0]] * CORRECTED
            break
    return corrected


def _one_value(one: str, other: str) -> bool:
    """Two candidates that may write one value twice: they share a word or a number ("Ada Pell" and "Pell",
    "v4.2" and "4.2", "9,984" and "9984"), or one is a count in words ("three" beside "3")."""
    def said(span: str) -> set[str]:
        return {word for word in words(span) if word not in STOPWORDS} | numbers(re.sub(r"\bv(?=\d)", "", span))
    if any(re.fullmatch(rf"(?:\w+ )?{COUNT_WORD}", span.strip()) for span in (one, other)):
        return True
    return bool(said(one) & said(other))


def _post_beside(question: str) -> re.Pattern[str] | None:
    """What follows a name a note gives the post asked, in brackets or apposition: "who is the clerk ...?" and
    "Ivo Marr (Clerk)", "who chairs ...?" and "Ada Pell (Chair)", "who presents ...?" and "Ada Pell, presenter"."""
    lowered = " ".join(words(question))
    post = ASKS_WHO_WAS.match(lowered)
    acted = re.match(r"who (\w+)", lowered)
    word = post.group("phrase").split()[-1] if post else acted.group(1) if acted and acted.group(1) not in \
        AUXILIARIES | STOPWORDS else ""
    if not word:
        return None
    # (not "chair of trustees": the post of another body)
    return re.compile(rf"\s*(?:\(|,\s+)(?:the\s+)?{re.escape(stem(word))}(?:e?r|or|man|woman|person)?s?\b"
                      r"(?!\s+of\b)", re.IGNORECASE)


def _page_ties(evidence: list[Line], names: tuple[str, ...], pool: list[Line], asked: frozenset[str]) -> list[Line]:
    """The opening sentence of the answer's own page, when it names something the question names that the chain does
    not ("Established at Tarrow in 1790." above "The first master was Ada Pell."), or, on a page titled by a name
    the question gives, when it says what the question says of that thing and the chain does not ("Kesh Fair" opens
    "The yearly horse sale on the green."; "When was the first horse sale of Kesh Fair held?"): a page's opening
    says what the page is about, so it ties the page's answer to the question, and the reader sees where. ``asked``
    holds the stems of the question's content words."""
    said = [text for line in evidence for text in (line.text, line.source["title"])]
    page = evidence[0].source["key"]
    opening = min((line for line in pool if line.source["key"] == page), key=lambda line: line.position)
    if opening in evidence:
        return []
    names_more = any(mentioned(name, [opening.text]) and not mentioned(name, said) for name in names)
    titled_by_the_question = any(mentioned(name, [evidence[0].source["title"]]) for name in names)
    says_more = bool((asked - set().union(*(stems(text) for text in said))) & set(stems(opening.text)))
    return [opening] if names_more or titled_by_the_question and says_more else []


def _name_ties(evidence: list[Line], names: tuple[str, ...], ranked: list[Scored], answer: str) -> list[Line]:
    """For each name the question gives that the chain does not mention, the best-ranked sentence that mentions it
    on a page of the chain, or that names the subject of one (its title), or on the page of a thing the sentence
    stating the answer names beside the answer ("the fight song of Kesh College" goes on to the page "Kesh
    College"): the hop that ties the question's name to the pages the answer rests on, so the chain runs from every
    name asked to the answer. A sentence that merely mentions a name the chain mentions ties nothing: a page's
    subject is what its sentences are about, and the answer's own page says what the answer is, not what the
    question asks of it."""
    chain = list(evidence)
    told = evidence[0].text.lower().replace(answer.lower(), " ")  # what the sentence stating the answer names
    for _ in range(TIE_HOPS):
        said = [text for line in chain for text in (line.text, line.source["title"])]
        untied = [name for name in names if not mentioned(name, said)]
        if not untied:
            break
        pages = {page_key(line.source["title"]) for line in chain}
        subjects = {clean_title(line.source["title"]).lower() for line in chain}
        tie = next((s.line for s in ranked if s.line not in chain and s.score > 0
                    and any(mentioned(name, [s.line.text, s.line.source["title"]]) for name in untied)
                    and (page_key(s.line.source["title"]) in pages
                         or any(_names_subject(s.line.text.lower(), subject) for subject in subjects)
                         or _names_subject(told, clean_title(s.line.source["title"]).lower()))),
                   None)
        if tie is None:
            break
        chain.append(tie)
    return chain[len(evidence):]


def _names_subject(text: str, subject: str) -> bool:
    """The lower-cased text names a page's subject (of three letters or more) in whole words."""
    return len(subject) > 2 and re.search(rf"\b{re.escape(subject)}\b", text) is not None


def _names_any(lines: list[Line], names: tuple[str, ...] | list[str]) -> bool:
    """One of the sentences, or its page, names something the question names."""
    texts = [text for line in lines for text in (line.text, line.source["title"])]
    return any(mentioned(name, texts) for name in names)


_CHUNK = re.compile(r"#p(\d+)$")  # a long document's passages are indexed as "<doc id>#p1", "#p2", ...


def _page_of(source: SourceRecord) -> tuple[str, str]:
    """A page, whichever of its passages a source is: its title and address (without a passage's "#pN")."""
    return source["title"], _CHUNK.sub("", source.get("url") or "")


def _chunk_number(source: SourceRecord) -> int:
    match = _CHUNK.search(source.get("doc_id") or "")
    return int(match.group(1)) if match else 0


NAMED_PAGE_FIRST = 100  # a page named by the question outranks any page whose name is only words of the question


def _opening(page: list[Scored]) -> Scored | None:
    """A page's earliest sentence read that states something: no version note, no bare call signature."""
    own = [s for s in page if not VERSION_NOTE.match(s.line.text) and not signature_only(s.line.text)]
    return min(own, key=lambda s: (_chunk_number(s.line.source), s.line.position)) if own else None


def description_lead(question: str, sources: list[SourceRecord], ranked: list[Scored]) -> Scored | str:
    """The sentence an explanation opens with, or why there is none.

    First the leads the reading layer knows by the question's shape: for a comparison the opening of its first
    side's own page (``reading.comparison``), a named special method's entry, a named
    member's entry, the page that does a how-to task, a keyword named as such (``reading.keywords``), the sentence
    that defines the phrase a definition question asks about (``reading.definitions``). A third-party package's
    description never leads unless the question names the package.

    Then: a page about the question's subject (its subject's words all in the question) opens with what its subject
    is, so when one speaks to the question at all, its earliest sentence that does (in its first passage, for a page
    indexed as several) leads ("functools.lru_cache(...):
    Least-recently-used cache decorator."), a version note ("Changed in version 3.10: ...") aside. Otherwise the
    explanation must be about what the question names: its rarest word among the sources read ("walrus" in "what does
    the walrus operator do?"; comparison and framing words like "difference" or "work" left out) must be in its
    page's title (such a page first) or in the sentence, else the best-ranked sentences are about something else (the
    "%" operator) and there is no lead.
    """
    question_terms = stems(question)
    relevant = [s for s in ranked if s.score > 0 and not unasked_third_party(question, s.line.source)]
    # a comparison's side is its subject however common its name is among the pages read ("list"), so its page
    # is opened whatever its sentences score
    side = {_page_of(source) for source in first_side_sources(question, (s.line.source for s in ranked))}
    compared = _opening([s for s in ranked if _page_of(s.line.source) in side])
    chosen = (compared or special_method_lead(question, ranked) or member_lead(question, relevant)
              or task_lead(question, ranked) or keyword_lead(question, ranked) or definition_lead(question, ranked))
    if chosen is not None:
        return chosen  # type: ignore[return-value]  # the leads keep the Scored they were given
    read = [stems(source["title"] + " " + source["text"][:SCAN_CHARS]) for source in sources]
    # the subject's own page may rank low (pages that only mention it say more words); of several, the most
    # specific subject leads ("subprocess" before "modules" on "how does the subprocess module work?")
    own_pages: dict[tuple[str, str], tuple[int, int]] = {}
    named = {name.lower() for name in named_objects(question)}
    for scored in relevant:
        name = page_name(scored.line.source["title"])
        if name.lower() in named:  # "the sieve module": that module's page, even when its name is a function word
            own_pages.setdefault(_page_of(scored.line.source), (-NAMED_PAGE_FIRST, 0))
            continue
        subject = stems(name)
        if subject and subject <= question_terms:
            mentions = sum(sum(term in page for page in read) for term in subject)
            own_pages.setdefault(_page_of(scored.line.source), (-len(subject), mentions))
    for page in sorted(own_pages, key=lambda p: own_pages[p]):
        opening = _opening([s for s in relevant if _page_of(s.line.source) == page])
        if opening is not None:
            return opening
    terms = [t for t in unique(content_terms(question)) if t not in COMPARISON_WORDS | FRAMING | EXPLAINING]
    frequency = {t: sum(stem(t) in page for page in read) for t in terms}
    unmentioned = [t for t in terms if not frequency[t]]
    if unmentioned:
        return "no source read mentions " + " or ".join(f"'{t}'" for t in unmentioned)
    if not terms:  # "what is the difference between is and ==?": nothing left to look for in a sentence
        return "the question names nothing a sentence read could be matched on"
    rarest = min(terms, key=lambda t: frequency[t])
    # a sentence on a page whose title names it first ("Implementing Descriptors"), then one that mentions it
    titled = [s for s in relevant if stem(rarest) in stems(s.line.source["title"])]
    about = titled or [s for s in relevant if stem(rarest) in s.line.terms]
    return about[0] if about else f"no sentence read that speaks to the question mentions '{rarest}'"


def _evidence(scored: Scored) -> list[Line]:
    return [scored.line] + ([scored.hop] if scored.hop is not None else [])


# --- two-option and yes/no questions ----------------------------------------------------------------------------------
def _verdict(found: Verdict, kind: AnswerKind) -> Found:
    """A verdict (``reading.verdicts``) as the finder's answer: its evidence is the two sides' sentences."""
    lines = [line for line in found.evidence if isinstance(line, Line)]  # the finder's own sentences, handed back
    weighed = [(found.answer, round(found.score, 3))] if found.answer else []
    return Found(found.answer, kind, lines, reason=found.reason, score=found.score, candidates=weighed)


def evidence_lines(question: str, sources: list[SourceRecord], limit: int) -> list[Line]:
    """The sentences most worth showing a model, best first: each relevant sentence preceded by the hop that led to
    it, so a small model sees the chain (question → bridge → answer) in a few lines instead of whole pages."""
    chosen: list[Line] = []
    seen: set[int] = set()
    for scored in read_for(question, sources).ranked:
        if scored.score <= 0 or len(chosen) >= limit:
            break
        for line in ([scored.hop] if scored.hop is not None else []) + [scored.line]:
            if id(line) not in seen and len(chosen) < limit:
                seen.add(id(line))
                chosen.append(line)
    return chosen


def evidence_covers_names(question: str, evidence: list[Line]) -> bool:
    """Every name the question gives (capitalised names, quoted titles) is mentioned by an evidence sentence or its
    page's title: the chain from the question's names to the answer was read, not guessed. A question that names
    nothing is covered by any evidence."""
    said = frozenset().union(*(line.terms | stems(line.source["title"]) for line in evidence))
    names = [stems(re.sub(r"(?<=\w)['’]s\b", "", name)) for name in name_spans(question)]
    return bool(evidence) and all(terms <= said for terms in names if terms)
