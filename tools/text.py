"""Pure text helpers shared by the deterministic engine, the novelty gate and the grounding gate."""

from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pysbd
import snowballstemmer

from satiate.tools.text_safety import instruction_like

STOPWORDS = frozenset(
    """
    a about above after again against all also although am an and any are aren as at be because been before being below
    between both but by can cannot could did didn do does doesn doing don down during each either else ever every
    few for from further had has have having he her here hers herself him himself his how however i if in into is
    isn it its itself just least less let like made make many may me might more most much must my myself near neither
    no nor not now of off often on once one only or other others our ours ourselves out over own per rather same
    she should since so some such than that the their theirs them themselves then there these they this those though
    through thus to too two under unless until up upon us used using very via was wasn we were weren what whatever when
    where whereas whether which while whilst who whom whose why will with within without would yet you your yours
    yourself despite s t d ll m ve y also known called named
    """.split()
)

# The function words the reading layer names: the question words that open a question, and the verb forms that
# stand before a participle or open a yes/no question ("was ... born", "Did ...?")
WH_WORDS = frozenset("who what when where which why how whose whom".split())
QUESTION_WORDS = WH_WORDS | frozenset("name list tell describe explain".split())
BE_FORMS = frozenset("am is are was were be been being".split())
DO_FORMS = frozenset("do does did".split())
AUXILIARIES = BE_FORMS | DO_FORMS | frozenset("has have had will would shall should can could may might must".split())

# Connectors that may sit inside a capitalised name ("Journal of Applied Orchard Studies").
NAME_CONNECTORS = frozenset({"of", "the", "and", "de", "la", "van", "von", "for", "du", "del", "da", "&"})

SCAN_CHARS = 20_000  # how far into a source's text sentences are looked for: bounds the work a long document costs

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_STEMMER = snowballstemmer.stemmer("english")
MAX_ENDING = 2  # the letters a regular inflection adds: "-s", "-es", "-ed"
REGULAR_ENDINGS = ("s", "d")  # and how every one of them ends: "mills", "boxes", "opened", "carried"
# A blank line (in a quoted letter or cutting, one holding only its quote marks: ">"), or a line opening a list item
# ("- ", "* ", "• ", "3. ", "3) ") or a heading
_BLOCK_BREAK = re.compile(r"\n[ \t]*(?:>[ \t]*){0,2}\n\s*|\n(?=\s*(?:[-*#•+]|\d{1,3}[.)]\s))")
# A line that is a field ("Born: 1819"): it states one fact, so it is never run together with the lines around it as
# a wrapped line is.
# A field's label: up to three words ("Born:", "Place of birth:"), or an office held of something ("Keeper of the
# Kesh light:"); not a clause that ends in a colon ("Boats have these parts:")
FIELD_LABEL = r"[A-Z][\w'’-]*(?: [\w'’-]+){0,2}(?: of(?: the)? [\w'’-]+(?: [\w'’-]+)?)?:"
_FIELD_LINE = re.compile(rf"^{FIELD_LABEL}\s.*$", re.MULTILINE)
# What opens a list item or a bold lead-in ("- ", "2. ", "**"): markup around a sentence, not part of what it says
# A count written in words ("six stations", "thirty-two voices"); "one" is as often a pronoun as a count.
COUNT_WORD = ("(?i:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
              "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)")
WIKI_LINK = re.compile(r"\[\[[^\[\]\n]{1,200}\]\]")  # a notes app's link to another note: "[[ada-pell]]"
# a Markdown link's target: "[the cottages](cottages-1890-09.md)" shows "the cottages"; the file name or address
# is no text
MARKDOWN_LINK_TARGET = re.compile(r"(?<=\])\([^()\s]{1,300}\)")
YEAR = re.compile(r"\b(?:1\d{3}|20\d{2})\b")  # a year as notes and pages write it: 1066 to 2099
# a stretch of years a sentence gives: "1868–80", "from 1868 to 1880", "between 1898 and 1910", "1870-1875"
YEAR_SPAN = re.compile(r"\b(?:between\s+(1\d{3}|20\d{2})\s+and|(1\d{3}|20\d{2})\s*(?:[–—-]|to\b|until\b|till\b))"
                       r"\s*(\d{4}|\d{2})\b")
# a dotted number, as a release's ("3.0", "2.4.1"): one figure, so "3.0" is not said by "2.4.3" nor by "3.0.1"
DOTTED_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w]|\.\d)")
# a version as notes write it: a dotted number, or any number after a "v" ("v2.0.1", "v3")
VERSION = re.compile(r"(?<![\w.])(?:v\d+(?:\.\d+)*|\d+(?:\.\d+)+)(?![\w]|\.\d)")
DECADE = re.compile(r"\b(1\d{2}|20\d)0s\b")  # "the 1870s"
MONTHS = ("January February March April May June July August September October November December").split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
SHORT_MONTH = r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?"  # as notes write a month short: "3 Nov 22"
# A diary or log entry's date standing before its text ("14 May 1891. School closed this day."): it dates that text.
_ENTRY_DATE = re.compile(rf"^[>\s]*(?:\d{{1,2}}\s+)?(?:{'|'.join(MONTHS)})\s+(?:\d{{1,2}},?\s+)?\d{{4}}\.$")
# a quote's marks ("> ", not a prompt's ">>>"), an item's, a bold lead-in's
_ITEM_MARK = re.compile(r"^(?:>\s+)*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?(?:\*\*|__)?")
_INNER_END = re.compile(r"[.!?][\"')\]*]*\s")  # an end mark followed by more text: where a sentence may end
# an end mark, then a capital or a digit (past a quote's marks)
_PLAIN_END = re.compile(r"(?<=[.!?])[\"')\]*]*\s+(?=(?:>\s+)*[\"'(\[*]?[A-Z0-9*])")
# A full stop after a word shaped like an abbreviation: an initial ("J."), a short word ("Dr.", "St.", "Capt.",
# "etc."), the one long title ("Messrs."), or a dotted one ("U.S.", "p.m."). Only a paragraph holding one needs
# pysbd's knowledge.
_ABBREVIATION_SHAPED = re.compile(r"(?:^|\s)(?:[A-Za-z]|[A-Z][a-z]{1,4}|Messrs|[a-z]{1,4}|\S*\w\.\w\S*)\.[\"')\]]*\s")
STEM_CACHE_WORDS = 65_536  # distinct words whose stem is remembered
OWN_EED_LETTERS = 5  # "seed", "breed", "speed": an "-eed" word this short is no past form ("freed" is lost to it)
SENTENCE_CACHE_TEXTS = 4096  # texts whose split is remembered: the pages and claims of a few runs
_NUMBER = re.compile(r"\b\d[\d,.]*\b")
_IDENTIFIER = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b")  # GS-35F-0119Y, B-29


# A statement that flags its own weakness: it reports someone else's claim ("a profile claims", "reportedly", "the
# blog credits Ada with it"), or its writer doubts it ("possibly 1903", "I think", "is unknown", "never found") or
# calls it wrong ("wrongly calls"). It settles nothing on its own.
HEDGES = re.compile(r"\b(?:claims?|claimed|reportedly|allegedly|rumou?rs?|no source|unconfirmed|unverified|is said to"
                    r"|according to an?|unknown|uncertain|unclear|not known|never found|no record|not sure|unsure"
                    r"|i think|i believe|i guess|possibly|perhaps|probably|maybe|wrongly|mistakenly|falsely"
                    r"|erroneously|apparently|credits?\b[^.;]{0,80}?\bwith|credited with|attribut(?:es|ed) to"
                    r"|it is said|the story goes|legend has it|family legend)\b|\?")


def hedged(text: str) -> bool:
    """The statement flags its own weakness (``HEDGES``)."""
    return bool(HEDGES.search(text.lower()))


def verb_shaped(word: str) -> bool:
    """A past form ("founded", "won", "born"): it ends a noun phrase; a hyphenated modifier ("steam-powered") is
    none, and neither is a short word whose "-ed" is its own ("seed", "breed", "speed"; "agreed" is a past)."""
    own_ed = word.endswith("eed") and len(word) <= OWN_EED_LETTERS
    return word in IRREGULAR or word == "born" or ("-" not in word and word.endswith("ed") and not own_ed)


def words(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


# "the with statement", "the in operator", "the for loop": a keyword named as such is the subject, not a stopword.
# The one list of the nouns that name a piece of syntax; SYNTAX_NOUN is the same list as a pattern (plural allowed).
SYNTAX_NOUNS = frozenset("statement keyword operator clause expression loop block test".split())
SYNTAX_NOUN = rf"(?:{'|'.join(sorted(SYNTAX_NOUNS))})s?"
_SYNTAX_FORMS = SYNTAX_NOUNS | {noun + "s" for noun in SYNTAX_NOUNS}
ARTICLES = frozenset({"the", "a", "an"})


def content_terms(text: str) -> list[str]:
    """Words that carry meaning: no stopwords (unless a keyword named as such), no question words, no single letters
    (order kept, repeats kept)."""
    tokens = words(text)
    plain = [w for w in tokens if len(w) > 1 and w not in STOPWORDS and w not in QUESTION_WORDS]
    if _SYNTAX_FORMS.isdisjoint(plain):  # the common case, on every sentence read: no keyword is named
        return plain
    return [w for i, w in enumerate(tokens) if len(w) > 1 and w not in QUESTION_WORDS and (
        w not in STOPWORDS or _named_keyword(tokens, i))]


def _named_keyword(tokens: list[str], at: int) -> bool:
    return (0 < at < len(tokens) - 1 and tokens[at - 1] in ARTICLES and tokens[at] not in ARTICLES
            and tokens[at + 1] in _SYNTAX_FORMS)


# Irregular past forms that are verbs wherever they stand, mapped to the verb they inflect. A past that is also
# another word ("found", "left", "felt", "Lent") is read as a past only where a verb may stand:
# ``engine.roles.SHARED_PASTS``.
IRREGULAR = {
    "made": "make", "built": "build", "wrote": "write", "written": "write", "began": "begin", "begun": "begin",
    "led": "lead", "held": "hold", "won": "win", "sold": "sell", "bought": "buy", "taught": "teach",
    "gave": "give", "given": "give", "took": "take", "taken": "take", "knew": "know", "known": "know",
    "sang": "sing", "sung": "sing", "drew": "draw", "drawn": "draw", "ran": "run", "told": "tell", "spoke": "speak",
    "spoken": "speak", "chose": "choose", "chosen": "choose", "became": "become", "grew": "grow", "grown": "grow",
    "fought": "fight", "met": "meet", "paid": "pay", "saw": "see", "seen": "see", "stood": "stand",
    "lost": "lose", "brought": "bring", "flew": "fly", "flown": "fly", "wore": "wear", "worn": "wear",
    "broke": "break", "broken": "break", "caught": "catch", "came": "come", "drove": "drive", "driven": "drive",
    "fallen": "fall", "forgot": "forget", "heard": "hear", "kept": "keep", "sent": "send", "slept": "sleep",
    "spent": "spend", "spun": "spin", "stole": "steal", "stolen": "steal", "struck": "strike", "swore": "swear",
    "sworn": "swear", "threw": "throw", "thrown": "throw", "understood": "understand", "went": "go", "gone": "go",
    "ridden": "ride", "rode": "ride",
}
# Every irregular form WordNet lists (``tools/lexicon/irregular.json``, built from its ``verb.exc``), shared ones too
# ("left", "said", "sought"), with the verb it inflects: what the stemmer joins to that verb. Which of them stand as
# verbs wherever they occur is ``IRREGULAR``'s question, not this table's.
_VERB_OF_FORM: dict[str, str] = json.loads(
    (Path(__file__).parent / "lexicon" / "irregular.json").read_text(encoding="utf-8"))["forms"] | IRREGULAR


def irregular_form(word: str) -> bool:
    """Whether the word is an irregular past or participle WordNet lists ("hung", "sought", "left"), shared or not."""
    return word in _VERB_OF_FORM


@functools.lru_cache(maxsize=STEM_CACHE_WORDS)
def stem(term: str) -> str:
    """The Snowball (Porter 2) English stem, so "makes", "making" and "made" meet "make" in coverage checks.

    Two things Snowball leaves to its caller: function words are not inflected forms ("this", "does" stay whole, where
    suffix rules would make "thi" and "doe"), and an irregular verb's past form is not a suffix ("built" -> "build",
    via WordNet's table of them). Cached: the stemmer is pure Python and the same few thousand words recur in every
    run.
    """
    term = _VERB_OF_FORM.get(term, term)
    return term if term in STOPWORDS else _STEMMER.stemWord(term)


def stems(text: str) -> set[str]:
    """The stemmed content terms of a text, as a set, with its release numbers ("3.0"), each one term."""
    return {stem(t) for t in content_terms(text)} | set(DOTTED_NUMBER.findall(text))


def inflected_alike(first: str, second: str) -> bool:
    """Two words are one word inflected ("mill", "mills", "Tarrow's"): the same stem, and no longer apart than an
    ending ("-s", "-es", "-ed", "-ied"). A derived word is another word, though Snowball gives it the same stem:
    "engineering" is not "engine", nor "national" "nation"."""
    first, second = sorted((re.sub(r"['’]s?$", "", word.lower()) for word in (first, second)), key=len)
    return first == second or second.endswith(REGULAR_ENDINGS) and len(second) - len(first) <= MAX_ENDING and \
        stem(first) == stem(second)


def unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def numbers(text: str) -> set[str]:
    """Numbers as written, without thousands separators or trailing dots ("1,500." -> "1500")."""
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(text)}


@dataclass(frozen=True)
class Sentence:
    text: str
    start: int
    end: int


def sentences(text: str) -> list[Sentence]:
    """Split text into sentences, keeping character offsets so a support span can point back into the source.

    Paragraphs and list items are split first (a blank line or a bulleted line ends a sentence whatever its
    punctuation); pysbd then splits each block, knowing that the full stops in "Dr. J. R. Quill" or "St. Orren" end
    no sentence. Cached by text: the same page is split by several readers in one run.
    """
    return list(_sentences(text))


def _field_line(line: str) -> bool:
    """A line that is one labelled fact ("Born: 1819, Kesh"), not a paragraph that opens on a colon ("Ada kept
    everything: the ledgers, the keys. She ...")."""
    return bool(_FIELD_LINE.fullmatch(line)) and not re.search(r"[.!?]\s+[A-Z][a-z]", line)


def _blocks(text: str) -> Iterator[str]:
    """The text's paragraphs and list items, each field line a block of its own."""
    for block in _BLOCK_BREAK.split(text):
        start = 0
        for field in _FIELD_LINE.finditer(block):
            if not _field_line(field.group(0)):
                continue
            yield block[start:field.start()]
            yield field.group(0)
            start = field.end()
        yield block[start:]


@functools.lru_cache(maxsize=SENTENCE_CACHE_TEXTS)
def _sentences(text: str) -> tuple[Sentence, ...]:
    found: list[Sentence] = []
    position = 0
    for block in _blocks(text):
        block_start = text.find(block, position)
        position = block_start + len(block)
        cursor = 0
        dated_from = -1  # where an entry's date began, kept to open the sentence it dates
        # A single line break inside a paragraph wraps a line and ends no sentence (pysbd would end one there); a
        # space in its place keeps every offset.
        flat = block.replace("\n", " ")
        pieces = [flat] if _field_line(block) else _block_sentences(flat)  # a field is one fact
        for number, piece in enumerate(pieces):
            stripped = piece.strip()
            offset = flat.find(stripped, cursor)
            if offset < 0:  # the splitter returns pieces of its input; guard so an offset never points elsewhere
                continue
            cursor = offset + len(stripped)
            if _ENTRY_DATE.match(stripped) and number + 1 < len(pieces):
                dated_from = offset
                continue
            if dated_from >= 0:
                stripped, offset, dated_from = flat[dated_from:cursor], dated_from, -1
            marked = len(_ITEM_MARK.match(stripped).group(0))  # type: ignore[union-attr]  # it matches the empty string
            said = stripped[marked:].replace("**", "")
            if len(said) < 3:
                continue
            start = block_start + offset
            found.append(Sentence(" ".join(said.split()), start + marked, start + len(stripped)))
    return tuple(found)


@functools.lru_cache(maxsize=SENTENCE_CACHE_TEXTS)
def _block_sentences(block: str) -> tuple[str, ...]:
    """One paragraph's sentences as pysbd splits them.

    pysbd costs about 5 ms a paragraph and floods ``re``'s pattern cache, so it is asked only where it can differ from
    the plain rule (an end mark, then a capital or a digit): a block with no end mark inside is one sentence, and a
    block whose every full stop follows an ordinary word is split by the plain rule. Measured on the benchmark corpus
    this leaves about 40 % of paragraphs to pysbd. Limit: a long abbreviation ("approx.") is not recognised there.
    """
    if not _INNER_END.search(block.strip()):
        return (block,)
    if not _ABBREVIATION_SHAPED.search(block):
        return tuple(_PLAIN_END.split(block))
    # A fresh segmenter a call: pysbd keeps the text being split on the instance, so one shared by threads could mix
    # two texts' spans.
    return tuple(pysbd.Segmenter(language="en", clean=False).segment(block))


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    set_a, set_b = set(a), set(b)
    if not set_a and not set_b:
        return 1.0
    return len(set_a & set_b) / len(set_a | set_b)


def simplify_query(query: str, keep: int = 4) -> str:
    """A crude simplification (design §3, §7), kept on content words: the first few meaningful terms."""
    terms = unique(content_terms(query))
    return " ".join(terms[:keep]) if terms else query.strip()


def normalize_query(query: str) -> str:
    """The identity of a query for "have we run this already": lower-case content terms, sorted."""
    return " ".join(sorted(set(content_terms(query)))) or query.strip().lower()


MAX_NAME_WORDS = 8
_INITIAL = re.compile(r"[A-Z]\.")  # "J." in "J. R. Quill"


def entities(text: str) -> list[str]:
    """Capitalised names and identifiers in the text, in order of first appearance (duplicates kept for counting).

    A name is a run of capitalised words, possibly joined by connectors ("Bank of England"); a lone capitalised word
    that opens a sentence is skipped unless it recurs mid-sentence elsewhere. Identifiers are hyphenated tokens of
    capitals and digits ("GS-35F-0119Y", "B-29"); lower-case slugs ("python-360-is-now-available") are not.
    """
    found: list[str] = []
    for sentence in sentences(text) or [Sentence(text, 0, len(text))]:
        tokens = re.findall(r"[A-Za-z0-9][\w'’.-]*", sentence.text)
        run: list[str] = []
        for index, token in enumerate(tokens + [""]):
            clean = token.rstrip(".,;:'’")
            is_cap = bool(clean) and clean[0].isupper() and not clean.isupper() or (clean.isupper() and len(clean) > 1)
            if is_cap:
                run.append(clean)
                continue
            if _INITIAL.fullmatch(token) and index + 1 < len(tokens) and tokens[index + 1][:1].isupper():
                run.append(token)  # an initial inside a name keeps its full stop: "Ann B. Vole"
                continue
            if run and clean.lower() in NAME_CONNECTORS and index + 1 < len(tokens) and tokens[index + 1][:1].isupper():
                run.append(clean)
                continue
            if run:
                while run and run[-1].lower() in NAME_CONNECTORS:
                    run.pop()
                opens_sentence = tokens and run and tokens[0].rstrip(".,;:") == run[0]
                # A run of many capitalised words is a title-cased heading or a list of names, not one name.
                if run and not (opens_sentence and len(run) == 1) and len(run) <= MAX_NAME_WORDS:
                    found.append(" ".join(run))
                run = []
    found.extend(identifier for identifier in _IDENTIFIER.findall(text) if identifier not in found)
    return [name for name in found if name.lower() not in STOPWORDS and name.lower() not in QUESTION_WORDS]


def idf_weights(documents: list[list[str]]) -> dict[str, float]:
    """Smoothed inverse document frequency over tokenised documents."""
    total = len(documents)
    frequency: Counter[str] = Counter()
    for document in documents:
        frequency.update(set(document))
    return {term: math.log(1 + (total - count + 0.5) / (count + 0.5)) for term, count in frequency.items()}


def clean_title(title: str) -> str:
    """A page title as a subject: "Grey Harbour (film)" -> "Grey Harbour"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


def page_subject(title: str) -> str:
    """What a page is about, from its title: "Python stdlib: functools.lru_cache" -> "functools.lru_cache",
    "Sequence Types — list, tuple, range — Lists" -> "Lists", "Grey Harbour (film)" -> "Grey Harbour"."""
    return clean_title(title).rsplit(": ", 1)[-1].rsplit(" — ", 1)[-1]


def truncate(text: str, limit: int) -> str:
    """Cut at a word boundary, marking the cut."""
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)].rsplit(" ", 1)[0]
    return cut + "…"


_CALLED_NAME = re.compile(r"^[\w.]+\(")  # "harbor.dock(" opening "harbor.dock(ship): Tie up a ship."
SUMMARY_WORDS = 3  # a documented entry's summary after its signature states something from this many words


def _signature_end(sentence: str) -> int | None:
    """Where the call signature opening ``sentence`` closes (the index after its ")"), or None when it opens none."""
    if not _CALLED_NAME.match(sentence):
        return None
    depth = 0
    for index in range(sentence.index("("), len(sentence)):
        depth += {"(": 1, ")": -1}.get(sentence[index], 0)
        if depth == 0:
            return index + 1
    return None


def _signature_only(sentence: str) -> bool:
    """A bare call signature ("email.generator.Generator(outfp, *, policy=None)") states nothing; one followed by its
    summary ("harbor.dock(ship): Tie up a ship (at the quay).") does, even when the summary ends in parentheses."""
    end = _signature_end(sentence)
    return end is not None and sentence[end:].strip() in ("", ".", ":")


def _entry_summary_words(sentence: str) -> int:
    """The words of a documented entry's summary ("harbor.dock(ship): Tie up a ship." has 4), else 0."""
    end = _signature_end(sentence)
    rest = sentence[end:] if end is not None else ""
    return len(rest[1:].split()) if rest.startswith(":") else 0
_SNAKE_NAME = re.compile(r"\b\w*[a-z]_\w+\b|\b__\w+__\b")  # gi_code, __iter__: names from code
LISTING_NAMES = 3  # a sentence naming this many is a flattened table of attributes, not a statement
_PARENTHESES = re.compile(r"\([^()]*\)")


# "OB = old bridge": an abbreviation and what it stands for, as a legend lists them
LEGEND_ITEM = re.compile(r"(?:^|[,;:(]\s*)[\w.&'’-]{1,12}\s+=\s+[^,;=]+")  # spaced, unlike code's "maxsize=128"
LEGEND_ITEMS = 2  # a sentence of this many such pairs is a legend
# "Builder: Ada Pell." or "Opened: 1868": a short label, a colon, then a value that holds a name or a number
_FIELD = re.compile(rf"^{FIELD_LABEL}\s+(?=.*(?:\b[A-Z]|\d))\S.*$")


def is_field(sentence: str) -> bool:
    """A labelled field of a note or a fact sheet ("Builder: Ada Pell."): a statement about the page's subject
    however short, not a fragment."""
    count = len(sentence.split())  # "Locks: 17" holds a value; "Kesh: Orren" may be a fragment of a list
    return bool(_FIELD.match(sentence)) and (count >= 3 or count == 2 and any(ch.isdigit() for ch in sentence))


def claimable(sentence: str, max_chars: int = 600) -> bool:
    """A sentence that can stand as a claim: prose of sensible length, not code, a table row, a heading, markup or a
    legend of abbreviations ("OB = old bridge, AP = Ada Pell": it says what letters stand for, and nothing of them)."""
    if len(LEGEND_ITEM.findall(sentence)) >= LEGEND_ITEMS:
        return False
    if is_field(sentence) and len(sentence) <= max_chars and "```" not in sentence:
        return instruction_like(sentence) is None  # a labelled field states its value however short ("Opened: 1868")
    if not 20 <= len(sentence) <= max_chars:
        return False
    if sentence.startswith(("|", "#", ">", "```", "..", "[", "=", "-", "*", "+")) or "```" in sentence \
            or "::=" in sentence:  # markup, code, or a grammar rule
        return False
    if sentence.rstrip().endswith((",", ";")):
        return False  # a fragment: the text went on in a list or a block the split left behind
    letters = sum(ch.isalpha() for ch in sentence)
    if letters < 0.7 * len(sentence.replace(" ", "")) or _signature_only(sentence):
        return False  # mostly symbols, digits or code; a bare call signature states nothing
    if len(_SNAKE_NAME.findall(_PARENTHESES.sub("", sentence))) >= LISTING_NAMES:
        return False  # a flattened attribute table (the names inside a signature's parentheses do not count)
    # a sentence that addresses the reader or a model as an instruction is never evidence of anything; a short one is
    # a fragment, unless it is a documented entry whose name is the subject of its summary
    long_enough = len(sentence.split()) >= 5 or _entry_summary_words(sentence) >= SUMMARY_WORDS
    return long_enough and instruction_like(sentence) is None


def snippet_overlap(snippet: str, knowledge_state: str) -> float:
    """The enrichment gate (design §6): the share of a snippet's words the knowledge state already has."""
    snippet_words = set(words(snippet))
    known = set(words(knowledge_state))
    return len(snippet_words & known) / max(len(snippet_words), 1)
