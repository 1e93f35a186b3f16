"""What a sentence whose subject is a pronoun speaks of: one that opens on it, or has it past an opening phrase of
time or place ("In 1926 he was sent ...").

A claim is quoted with what it is about ("Its breakwater is 17 metres high." on the page "Harbor of Velmora" becomes
"Harbor of Velmora's breakwater ..."), and the grounding gate lets that subject act in the cited sentence. Both read
the pronoun the same way, here:

- "it" in a list item stands for the item's label ("- 'Gull Rose': a sloop. It was built ..."), not for the page,
  whose title names the whole list;
- "he" and "she" stand for a person: the page's own subject when its title reads as a name, else the person the
  sentence before names ("In 1903 Ada Pell was charged. She had set the fire ..." on a page about the fire);
- "they" never stands for one thing, a page that calls its subject "it";
- otherwise the page's title, or the name that heads the sentence's section ("## Ada Pell" on a family's page).
"""

from __future__ import annotations

import re

from satiate.engine.reading.names import name_spans, written_in_lower_case
from satiate.tools.text import (
    MONTHS,
    NAME_CONNECTORS,
    SCAN_CHARS,
    STOPWORDS,
    WIKI_LINK,
    clean_title,
    sentences,
    verb_shaped,
)

PERSONAL_PRONOUNS = frozenset({"he", "she", "his", "her"})  # they stand for a person, not for a thing
# a pronoun that opens a sentence, with what stands in its place: the subject, or its possessive
REFERRING_SUBJECTS = {"it": "", "he": "", "she": "", "they": "", "its": "'s", "his": "'s", "her": "'s", "their": "'s"}
SUBJECT_PERSONS = frozenset({"he", "she"})  # the personal pronouns that are the subject of their sentence
OPENING_PREPOSITIONS = frozenset("in on at after before during from until by".split())  # "In 1926 he ..."
ADVERBIAL_REACH = 8  # words of an opening phrase of time or place read for the subject pronoun after it
PAGE_OPENING = 3  # sentences at a page's start that say what its subject is
# a list item's label and what follows it: "- **'Gull Rose'**: a sloop. It was ...", "1. Tarrow Mill — built ..."
LEAD_IN = re.compile(r"^\s*(?:[-*+•]\s+)?\*\*(?P<label>[^*\n]{2,80})\*\*")  # "**Harl Fell** — ..."
ITEM_LABEL = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(?P<label>[^:—–\n]{2,80}?)\s*(?::|—|–|\s-)\s")
ITEM_OPENERS = frozenset({"it", "its"})  # what stands for one thing: the item's label, not a list page's title
PLURAL_PRONOUNS = frozenset({"they", "their"})  # they stand for several, never for one thing the page calls "it"


def with_subject(text: str, title: str, page: str = "") -> str:
    """A sentence whose subject is a pronoun gets what it stands for back (``referent``): "Its breakwater ..." ->
    "Harbor of Velmora's breakwater ...", "In 1926 he was sent ..." -> "In 1926 Ada Pell was sent ...", so no claim
    is quoted without what it is about. When the pronoun stands for no one the page names ("they" on a page about
    one thing), the sentence stays as written."""
    head, _, rest = text.partition(" ")
    key = subject_word(text)
    subject = referent(text, title, page)
    if key not in REFERRING_SUBJECTS or not rest or not subject or subject.lower() in text.lower():
        return text
    if head.lower().strip(",") == key:
        return f"{subject}{REFERRING_SUBJECTS[key]} {rest}"
    return re.sub(rf"\b{key}\b", subject + REFERRING_SUBJECTS[key], text, count=1)  # past an opening phrase


def subject_word(text: str) -> str:
    """The sentence's first word, lower-cased; or, past an opening phrase of time or place that names no one ("In
    1926 he was sent ...", "During the frost that closed the Orren Lock, she ..."), the pronoun that is the
    sentence's subject. A name after "the" in that phrase is a thing's (a ship's, a lock's), which "he" or "she"
    cannot stand for; a note's link ("[[mill-fire]]") is no word of it."""
    tokens = [token for token in text.split() if not WIKI_LINK.search(token)]
    opener = tokens[0].lower().strip(",") if tokens else ""
    if opener not in OPENING_PREPOSITIONS:
        return opener
    after_the = False
    for token in tokens[1:1 + ADVERBIAL_REACH]:
        word = token.strip(",;:").lower()
        if REFERRING_SUBJECTS.get(word) == "":  # "he", "she", "it", "they"; not the owner's "his"
            return word
        if token[:1].isupper() and token.strip(",") not in MONTHS and not after_the:
            break  # a name in the opening phrase may be what the pronoun stands for
        after_the = word == "the" or after_the and token[:1].isupper()
    return opener


def referent(text: str, title: str, page: str = "") -> str:
    """What the pronoun that is the subject of ``text`` (``subject_word``) stands for on ``page`` (titled
    ``title``); the title when the sentence's subject is no pronoun, empty when a "he" or "she" stands for no one
    the page names."""
    key = subject_word(text)
    if key in ITEM_OPENERS and (label := item_label(text, page)):
        return label
    subject = section_subject(page, title) or clean_title(title)
    if key in PLURAL_PRONOUNS and page and a_thing_page(page):
        return ""  # "In 1903 they turned the mill into a laundry" on the mill's page: the people named before
    if key in PERSONAL_PRONOUNS and page and (a_thing_page(page) or not _a_name(subject, page)):
        return _person_before(text, page)  # "he" on a page about a thing or an event ("The mill fire of 1901")
    return subject


def item_label(text: str, page: str) -> str:
    """The label of the list item a sentence goes on in ("It came from Kesh." after "- 'Gull Rose': a sloop."): a
    pronoun there stands for the item, not for the page, whose title names the whole list. Empty when the sentence
    stands in no labelled item."""
    at = page.find(text)
    if at < 0:
        return ""
    start = page.rfind("\n", 0, at) + 1
    item = ITEM_LABEL.match(page[start:at])
    label = re.sub(r"[*_\"“”]|^'|'$", "", item.group("label")).strip(" '‘’") if item else ""
    return label if label[:1].isupper() else ""


def lead_in(text: str, page: str) -> str:
    """The bold lead-in that opens the paragraph or list item a sentence stands in ("**Harl Fell** — the hill
    above Kesh. The beacon tower (18 metres) ..."): what the entry, and so each of its sentences, is about. Empty
    when the sentence's line opens on none."""
    at = page.find(text)
    if at < 0:
        return ""
    start = page.rfind("\n", 0, at) + 1
    opening = LEAD_IN.match(page[start:at])
    return opening.group("label").strip(" .:") if opening else ""


def a_thing_page(text: str) -> bool:
    """The page calls its subject "it" near its start ("Ravens Halt is a request stop. It has no staff."): a thing,
    so a later "he" or "she" is someone else the page names."""
    return any(sentence.text.startswith("It ") for sentence in sentences(text[:SCAN_CHARS])[:PAGE_OPENING])


def _a_name(title: str, page: str) -> bool:
    """The title reads as a name: each word capitalised but its connectors ("Ada Pell", "Bank of Kesh"), its last
    word one the page never writes in lower case (not "The Kesh Mill" on a page that speaks of "the mill")."""
    tokens = title.split()
    return bool(tokens) and all(token[:1].isupper() or token in NAME_CONNECTORS for token in tokens) and \
        not written_in_lower_case(tokens[-1], [page])


def _person_before(text: str, page: str) -> str:
    """Whom "he" or "she" opening a sentence stands for on a page that is not a person's own: the first full name
    (two words or more, read as a name) the sentence before it gives ("In 1903 Ada Pell was charged. She had set the
    fire ..."). Empty when that sentence names no one so."""
    said = [sentence.text for sentence in sentences(page[:SCAN_CHARS])]
    at = next((i for i, sentence in enumerate(said) if text in sentence), 0)
    before = said[at - 1] if at > 0 else ""
    names = [re.sub(r"^(?:\d+\s+)+", "", name) for name in name_spans(before)]  # "In 1997 Ada ..."
    return next((name for name in names if len(name.split()) >= 2 and _a_name(name, page)
                 and not _qualifies_a_noun(name, before)), "")


def _qualifies_a_noun(name: str, sentence: str) -> bool:
    """Every time the sentence gives the name, a common noun follows it ("the Kesh Water ferry began with Ada Pell"):
    the name places or owns a thing, and is no person a pronoun could stand for."""
    after = re.findall(rf"{re.escape(name)}\s+([a-z][\w-]*)", sentence)
    return len(after) == sentence.count(name) and all(
        word not in STOPWORDS and not verb_shaped(word) for word in after)


# the heading a passage cut from a section opens with ("# Ada Pell\n\n..."; ``tools.documents.passages``)
SECTION_OPENING = re.compile(r"^#[ \t]+(?P<heading>[^\n]+)\n")
HEADING_ASIDE = re.compile(r"\s+[–—-]\s+.*$|\s*[(:].*$")  # "Ada Pell – abroad", "Kesh (north bank)": its aside


def section_subject(page: str, title: str, common: frozenset[str] = frozenset()) -> str:
    """The name a section's heading gives, when the heading is that name alone (an aside after a dash, a bracket or
    a colon aside): on a page of several people or places ("## Ada Pell", "## Kesh Mill (north bank)") a sentence
    of that section speaks of it, not of the page's title. Empty for a heading that names a topic ("## The sale",
    "## Key people"), for a one-word heading ("## Timeline" is capitalised as a heading, not as a name), and for a
    section the page's title heads."""
    opening = SECTION_OPENING.match(page)
    if not opening or opening.group("heading").strip() == title.strip():
        return ""
    heading = HEADING_ASIDE.sub("", re.sub(r"[*_`]", "", opening.group("heading"))).strip()
    named = name_spans(heading, common)
    return named[0] if named and named[0] == heading and len(heading.split()) > 1 else ""
