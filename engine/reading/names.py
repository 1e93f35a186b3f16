"""The reading layer's one name extractor: capitalised names and quoted titles in a sentence or a question."""

from __future__ import annotations

import re
from collections.abc import Iterable

from satiate.tools.lexicon import PARTICLES, paraphrases
from satiate.tools.text import (
    AUXILIARIES,
    IRREGULAR,
    MONTHS,
    NAME_CONNECTORS,
    SHORT_MONTH,
    STOPWORDS,
    WEEKDAYS,
    WH_WORDS,
    WIKI_LINK,
    stem,
    verb_shaped,
)

# a title in double quotes, or in single quotes when it opens on a capital ('Gull Rose'): not an apostrophe ("Pells'",
# "the winter of '71", "rock 'n' roll")
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]|(?<!\w)['‘]([A-Z][^'’\n]{1,79}?)['’](?!\w)")
# a conjunction that opens a clause of reason or concession ("Although the Kesh Trust paid, ..."): capitalised only
# where it opens the sentence, and never a name's first word (unlike "Before" or "Once", which open film titles)
# a quotation with a pronoun in lower case is someone's words ("Ada Pell rang our bell for years"), not a title
# ... and one holding a comma and a figure is a record's line copied ("Boiler overhauled, new tubes, £11")
_QUOTED_RECORD = re.compile(r",.*\d|\d.*,")
_SPOKEN = re.compile(r"\b(?:i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their)\b")
CLAUSE_CONJUNCTIONS = frozenset("although though because unless whereas whilst despite".split())
# ... and "Dear", which opens a letter's greeting to the name after it ("Dear Dr Pell,")
LEADING_NOISE = frozenset("the a an in on at by from for of to with as dear".split()) | WH_WORDS | AUXILIARIES | \
    CLAUSE_CONJUNCTIONS
# an adverb of the kind that opens a sentence ("Apparently", "Sadly", "Reportedly"): its suffix marks it, where names
# ending in -ly ("Emily", "Beverly", "Kimberly") end otherwise
ADVERB_ENDINGS = r"(?:ally|ently|antly|ately|ously|ably|ibly|ingly|edly|dly|ively|fully)"
SENTENCE_ADVERB = re.compile(rf"[A-Z][a-z]+{ADVERB_ENDINGS}")
ADVERB = re.compile(rf"[a-z]+{ADVERB_ENDINGS}")  # "formally", "reportedly": no noun a name could qualify
STOP_NAMES = STOPWORDS | WH_WORDS | frozenset(m.lower() for m in MONTHS + WEEKDAYS)  # a time, no one's name
_CONNECTOR = "|".join(re.escape(word) for word in sorted(NAME_CONNECTORS))  # "Bank of England", "Ludwig van ..."
_NAME_RUN = re.compile(  # a capitalised word after "=" is a value in code ("prefixes=None"), not a name
    rf"(?<![\w'’=])(?:[A-Z][\w'’.-]*|\d+(?:st|nd|rd|th))(?:\s+(?:(?:{_CONNECTOR})\s+)*"
    r"(?:[A-Z][\w'’.-]*|\d+(?:st|nd|rd|th)?\b))*"  # a number is whole or no part: "the 1870s" is no "1870"
)


# a nickname quoted inside a name belongs to it: Ada "Kit" Pell is one name, not "Ada" and "Pell"
_NICKNAME = re.compile(r"\b([A-Z][\w'’.-]*) [\"“]([A-Z][\w'’.-]*)[\"”] (?=[A-Z])")
# a word's full stop (not an initial's or an abbreviation's) ends a sentence the splitter left whole in a quotation;
# "Messrs." is the one title long enough to look like a word ("Messrs. Pell & Marr" is one name)
_SENTENCE_END = re.compile(r"(?<=[a-z]{4})(?<!Messrs)\.\s+")
_POSSESSIVE = re.compile(r"['’]s$")
_AFTER_NUMBER = re.compile(rf"(?<=\d)\s+(?:{_CONNECTOR})\s+(?=[A-Z])")
_AFTER_A_DAY = re.compile(r"(?:^|\s)\d{1,2}\s+$")  # a day's number, before the month written short
_CLAUSE_START = re.compile(r"(?:^|[:;]\s*)$")  # what precedes a word that opens a sentence or a clause
# what follows the verb a subjectless note opens on: a preposition ("Closed in 1958", "Retired after the regatta"), or
# a quantifier before its object ("Keeps both ledgers")
LINE_VERB_FOLLOWERS = frozenset("in at on by for from as to into near under with after before until since during "
                                "all both several".split())
DETERMINERS = frozenset("a an the this that these those its their his her our your my some any each every".split())
YEAR_WORD = re.compile(r"1\d{3}|20\d{2}")  # a year written as a word of its own
_IDENTIFIER = re.compile(r"[a-z][A-Z]|[_.\d]")  # GeneratorExit, os.path, sys_exit, utf8: code, not prose


def name_spans(text: str, common: frozenset[str] = frozenset()) -> list[str]:
    """Capitalised names and quoted titles, never across punctuation ("Harrow County, New Westmarch" gives two).

    A single capitalised word that opens the sentence is kept only when it is not a common word elsewhere (``common``:
    words the pool also writes in lower case), so "Hall, who was ..." yields "Hall" and "The journal ..." nothing.
    A word opening a sentence or clause before a determiner is an instruction, not a name ("Send a value ..."), and
    a common word opening one before an identifier is not part of it ("Raise GeneratorExit ..." names
    "GeneratorExit"; "Grant Hill ..." stays whole).
    """
    quoted = [m.strip() for pair in _QUOTED.findall(text) for m in pair if m.strip()[:1].isalnum()
              and not m.strip().islower() and not _SPOKEN.search(m) and not _QUOTED_RECORD.search(m)]
    found = list(quoted)
    text = _NICKNAME.sub(r"\1 \2 ", text)
    for match in _NAME_RUN.finditer(text):
        if (re.match(r"(?:\s+[a-z]+){0,3}:", text[match.end():]) and " " not in match.group(0)
                and _CLAUSE_START.search(text[:match.start()])):
            continue  # "Args: ...", "Note: ...", "Trained at: ...": a label opening a line or a field names what
            # follows, not a thing
        parts = _SENTENCE_END.split(match.group(0))  # "... is Tarrow. Ada Pell ...": two names, the second opening
        if _AFTER_A_DAY.search(text, 0, match.start()) and re.fullmatch(SHORT_MONTH, parts[0]):
            continue  # "10 Mar, later": a date alone
        if _AFTER_A_DAY.search(text, 0, match.start()) and re.match(rf"{SHORT_MONTH}\s", parts[0]):
            parts[0] = parts[0].split(None, 1)[1]  # "9 Mar Requisition of the hall": a date, then the line
        for index, part in enumerate(parts):
            opens = index > 0 or bool(_CLAUSE_START.search(text[:match.start()]))
            following = parts[index + 1:index + 2] or text[match.end():].split(None, 1)
            # a number ends a run before a connector: "Built 1834 for Ada Pell" names Ada Pell ("Apollo 11" and
            # "the Battle of 1812" stay whole); a possessive names its owner: "Ada Pell's nephew" speaks of Ada Pell
            for at, piece in enumerate(_AFTER_NUMBER.split(part)):
                span = _name_in(_POSSESSIVE.sub("", piece.rstrip(".'’")), opens and at == 0, following, common, quoted)
                if span:
                    found.append(span)
    return list(dict.fromkeys(found))


def _name_in(span: str, opens: bool, following: list[str], common: frozenset[str], quoted: list[str]) -> str:
    """The name a run of capitalised words holds, or "" (see ``name_spans``)."""
    parts = span.split()
    while parts and parts[0].lower() in LEADING_NOISE:
        parts = parts[1:]
    if not parts:
        return ""
    if opens and len(parts) == 1 and following and following[0].lower() in DETERMINERS:
        return ""
    if opens and len(parts) == 1 and following and opens_on_its_verb(parts[0], following[0]):
        return ""  # "Closed in 1958.", "Built 1834 for ...": a note's line opening on its verb, its subject the page
    if opens and len(parts) > 1 and parts[0].lower() in common and (
            _IDENTIFIER.search(parts[1]) or verb_shaped(parts[0].lower())):
        parts = parts[1:]  # "Raise GeneratorExit", "Paid Ada Pell's wage": the line's verb, then what it acts on
    if len(parts) > 2 and re.fullmatch(r"\d{1,2}", parts[0]) and re.fullmatch(SHORT_MONTH, parts[1]):
        parts = parts[2:]  # "On 3 Jan Ivo Marr came": a date, then the name
    if opens and len(parts) > 1 and _a_known_past(parts[0]):
        parts = parts[1:]  # "Married Ivo Marr at Kesh", "Paid Pell & Reed": a note's line opens on its verb
    if len(parts) > 2 and YEAR_WORD.fullmatch(parts[-1]) and parts[-2] not in NAME_CONNECTORS:
        parts = parts[:-1]  # "Married Ivo Marr 1819 at Kesh": a year after a name dates what the line tells (but
        # "the Kesh Cup of 1901" is named by it)
    if opens and len(parts) > 1 and SENTENCE_ADVERB.fullmatch(parts[0]):
        parts = parts[1:]  # "Apparently Ivo Marr sold it": the adverb opens the sentence, the name follows
    span = " ".join(parts)
    if opens and len(parts) == 1 and (span.lower() in common or span.lower() in STOP_NAMES):
        return ""
    if span.lower() in STOP_NAMES or len(span) < 2 or not any(ch.isalpha() for ch in span) or \
            any(span != q and span in q for q in quoted):
        return ""  # a number alone, or a fragment of a quoted title, is not a name of its own
    return span


def opens_on_its_verb(word: str, following: str) -> bool:
    """A note's line that drops its subject opens on its verb ("Closed in 1958.", "Built 1834 for Ada Pell", "Keeps
    the ledgers in a chest"): a past form, or a present one the verb lexicon knows, followed by a
    preposition, a quantifier or a number, where a name opening a sentence is followed by its own verb; or a verb
    with its particle."""
    lowered = word.lower()
    inflected = verb_shaped(lowered) or lowered.endswith("s") and bool(paraphrases(stem(lowered)))
    # "Set up the forge in 1931", "Took over the lease": a verb the lexicon knows with the particle after it
    phrasal = following.lower() in PARTICLES and bool(paraphrases(f"{stem(lowered)} {following.lower()}"))
    return phrasal or inflected and (following.lower() in LINE_VERB_FOLLOWERS or following[:1].isdigit())


def _a_known_past(word: str) -> bool:
    """A past form the verb lexicon knows ("Married", "Joined") or an irregular one ("Paid", "Sold"); "Alfred" and
    "Winifred" end as a past does, but are no verb's."""
    lowered = word.lower()
    return lowered in IRREGULAR or verb_shaped(lowered) and bool(paraphrases(stem(lowered)))


def written_in_lower_case(word: str, texts: Iterable[str]) -> bool:
    """A word the sources write in lower case mid-sentence ("see", "unlike", "optional") is a common word, whatever
    opens a sentence with it: no name. A note's link ("[[ada-pell]]") names a file, not in prose."""
    pattern = re.compile(rf"(?<![.!?]\s)(?<!^)\b{re.escape(word.lower())}\b")
    return any(pattern.search(WIKI_LINK.sub(" ", text) if "[[" in text else text) for text in texts)


def abbreviation(span: str) -> bool:
    """A span of two to six capital letters ("OB", "CFO", "AP"): notes write what they keep returning to, a body, a
    post or a person, by its initials; the letters stand for a name, and are none."""
    return re.fullmatch(r"[A-Z]{2,6}", span) is not None
