"""What kind of thing a question asks for by its noun, and what kind of thing the sources say a name is.

"Which coastal glider ...?" asks for something the sources call a glider; "Harcastle Kestrel is a Welsh coastal
glider" says what Harcastle Kestrel is. A candidate the sources describe by the question's own noun is the kind
asked for; that holds whatever the noun is, so no list of nouns is needed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from satiate.engine.reading.names import DETERMINERS, name_spans
from satiate.tools.lexicon import names_a_sum
from satiate.tools.text import ARTICLES, AUXILIARIES, STOPWORDS, WH_WORDS, stem, verb_shaped, words

# Words that end the noun phrase after "what"/"which": a preposition or a relative word starts what the phrase is
# about, an auxiliary starts its verb.
PHRASE_ENDS = frozenset("in of on at by for from to with into near as and or that who whom whose where when".split())
WH_IS = re.compile(r"\b(what|which|who|where|when|how)['’]s\b", re.IGNORECASE)  # "what's the name of" is "what is"
# Nouns asking for what a one-word adjective names ("What nationality ...?" -> "British"), which never says the noun.
ADJECTIVE_HEADS = frozenset("nationality ethnicity".split())
# "what kind of X", "what type of X": the kind word only points at X; so does one after X ("which apple variety").
KIND_WORDS = frozenset("kind kinds type types sort sorts form forms variety varieties breed breeds species name names"
                        .split())
# What a measure is asked as: "at what temperature", "what track gauge", "what was the top speed of": a number and
# its unit (a count, a price or an age is a quantity, read below).
MEASURE_NOUNS = frozenset("temperature gauge speed weight height length depth width distance elevation altitude "
                          "diameter span".split())
# The form an answer must take, read off the question's wording (checked in this order, the first that matches):
# "during what years", "in what timeframe": a stretch of time with a start and an end, not one date;
# "when ...?", "in what year": a time; "how tall": a number with its unit; "what was the final score": a quantity;
# "what was Ada Pell's occupation?": a calling; "which version shipped the fix?": a version number. None of these is a
# name.
_ASKED_FORMS = (
    ("period", re.compile(r"\b(?:what|which)\s+(?:years|decades|centuries|timeframe|time frame|period|era)\b")),
    ("time", re.compile(r"\bwhen\s*$|\b(?:what|which) (?:years?|dates?|decades?|century|centuries|timeframe|"
                        r"period)\b")),
    ("measure", re.compile(rf"\bhow (?:deep|tall|high|far|wide|long|large|big|heavy|fast|hot|cold)\b|"
                           rf"\b(?:what|which) (?:[a-z]+ )?(?:{'|'.join(sorted(MEASURE_NOUNS))})\b(?! of\b)|"
                           rf"^what (?:was|is|were|are) the (?:[a-z]+ )?(?:{'|'.join(sorted(MEASURE_NOUNS))}) of\b")),
    # (the owner may be a name, taken out of the wording before it is read: "what was Ada Pell's rent" reads
    # "what was 's rent")
    ("quantity", re.compile(r"^what (?:was|is|were|are) (?:the|his|her|its|their|(?:[\w-]+ )?[\w-]*['’]?s) "
                            r"(?:\w+ )?(?:score|population|attendance|turnout|headcount|tally|total|price|cost|fee|"
                            r"rent|wage|wages|salary|fare|capacity|area|size|age)\b|"
                            r"^what (?:did|does|do|would|will) .*\bcost\b|"  # "what did it cost to ...?"
                            r"\b(?:what|which) (?:proportion|percentage|share|fraction|ratio)\b")),  # "what share of"
    ("calling", re.compile(r"\b(?:occupation|profession|trade|job|line of (?:work|business))\b|\bdo for a living\b")),
    ("version", re.compile(r"\b(?:what|which) (?:[a-z]+ )?(?:version|release|build)\b")),
)
# Verbs that class a thing ("which objects are considered false?"): the question asks a class, not an act.
JUDGING = frozenset("considered regarded deemed thought believed held reckoned".split())
# Nouns that name a kind of place: "which county" asks for a place, and "the river Selk" is one.
PLACE_NOUNS = frozenset(
    "place city town country county state region province village area location river island continent district "
    "capital borough municipality street road lane row square avenue quay wharf junction valley harbour port "
    "bay".split()
)
# The place nouns whose names are read from how the sources use them ("born in Harrowgate" answers "which town?"):
# settlements and the areas they are governed in. Any other place (a river, a street, a quay) is called by its noun,
# in its name or by the sources ("River Wenn", "Mill Row", "the Wenn is a river").
SETTLEMENT_NOUNS = frozenset("place city town country county state region province village area location district "
                             "capital borough municipality".split())
# The settlements a name answers only when it is not a street's, a quay's or a building's ("in which town ...?" is
# not answered by "Tanyard Row" or "St Orla's"), and the nouns a street or a landing is called by
TOWN_NOUNS = frozenset("town village city hamlet borough".split())
STREET_NOUNS = frozenset("street road lane row square avenue quay wharf".split())
# Nouns for a trading concern, and the marks a concern's name bears ("Pell & Reed", "Kesh Mills Ltd", "Ivo Marr &
# Sons", "Messrs. Pell"): a name so formed says what kind of thing it names, whatever word the sources use for it
FIRM_NOUNS = frozenset("firm firms company companies business partnership concern".split())
FIRM_NAME = re.compile(r"\s&\s|\b(?:Ltd|Limited|plc|Co|Company|Corporation|Inc|Incorporated|Bros|Brothers|Sons|"
                       r"Messrs)\b")
_NAMING_END = re.compile(r"\b(?:called|named|known as)\W*$", re.IGNORECASE)  # a question asking what a thing is called
KIND_REACH = 3  # words after "what"/"which" read for a kind word ("which old apple variety")
MAX_PHRASE_WORDS = 5  # a longer run after "which" is a clause, not the noun the answer is named by
DESCRIPTION_WORDS = 12  # how far into "X is a ..." the description is read for the question's noun
PRONOUNS = frozenset("it this he she they".split())  # a subject that stands for the page's own
# "X (aside) is a ...", "X, a ..., was the ...": what a defining sentence says its subject is.
_DEFINES = re.compile(r"^(?:The\s+)?(?P<subject>[^,(]{2,80}?)(?:\s*\([^)]*\))?(?:,[^,]{0,80},)?\s+"
                      r"(?:is|was|are|were)\s+(?:an?|the|one of the)\s+(?P<description>[^.;]{2,200})")


def asked_form(question: str) -> str:
    """The form the question's wording asks its answer to take: "period", "time", "measure", "quantity", "calling",
    or "" when the wording does not say. A word inside a name is the name's ("the Board of Trade inquiry" asks for
    no trade)."""
    return asked_form_wording(question)[0]


def asked_form_wording(question: str) -> tuple[str, str]:
    """The form asked (as ``asked_form``) and the words that ask it ("do for a living", "during what years")."""
    wording = question
    for name in name_spans(question):
        wording = wording.replace(name, " ")
    lowered = " ".join(words(wording))
    return next(((form, match.group(0)) for form, pattern in _ASKED_FORMS if (match := pattern.search(lowered))),
                ("", ""))


def pointing_kind_words(question: str) -> set[str]:
    """The kind words that only point at the noun asked ("what kind of ferry", "which pear variety"): no source
    says them of the answer, so they are no constraint the chain must state."""
    tokens = words(question)
    return {word for at, token in enumerate(tokens) if token in ("what", "which")
            for word in tokens[at + 1:at + 1 + KIND_REACH] if word in KIND_WORDS}


# "who was the first woman to ...?": the noun that describes the one asked for, its last word
ASKS_WHO_WAS = re.compile(r"^who (?:was|is|were|are) (?:the |an? |(?![a-z]+ing\b))(?P<phrase>[a-z'’ -]+?)"
                          r"(?= (?:of|to|in|at|for|on|from|with|by|who|that|whose|when|while|after|before)\b|$)")
MONEY_WORDS = frozenset("pounds dollars euros shillings guineas francs marks crowns".split())
# acts whose "how much" is a sum of money: "how much did they pay for it?", "how much did the sale fetch?"
MONEY_ACTS = frozenset("pay paid spend spent cost charge charged earn earned sell sold fetch fetched give giving gave "
                       "given donate donated donating raise raised raising owe owed".split())
CURRENCY = re.compile(r"^(?:[a-z]+\s+){0,2}[£$€¥]\s?\d")  # a sum of money ("about €40"), not a count of things


# "what did they pay for the mill?", "what did it cost?": "what" stands for what was paid, a sum of money
PAID_WHAT = re.compile(r"^what (?:did|does|do|will|would|had|has|have) (?:[\w'’-]+ ){1,8}?"
                       r"(?:pay|spend|charge|earn|fetch|cost)\b", re.IGNORECASE)


# the noun "what" asks by, a word or two after it or after "what was the": a sum when it names one
SUM_ASKED = re.compile(r"^(?:what|which) (?:(?:was|is|were|are) (?:the|his|her|its|their) )?"
                       r"(?P<noun>[a-z]+(?: [a-z]+)?)")


def asks_for_money(question: str) -> bool:
    """Whether the question asks a sum of money: "how much" of money by name ("how much money", "how many
    pounds") or of an act of paying ("how much did Ada Pell pay for the mill?"), or "what" as what was paid ("what
    did the trust pay for the boat?")."""
    asked = re.search(r"\bhow much\b(.*)", question.lower())
    paid = bool(asked and set(words(asked.group(1))) & MONEY_ACTS) or bool(PAID_WHAT.match(" ".join(words(question))))
    named = SUM_ASKED.match(" ".join(words(question)))  # "what weekly rent ...?", "what was the bridge toll ...?"
    return counted_noun(question) in MONEY_WORDS | {"money"} or paid or named is not None and any(
        names_a_sum(word) for word in named.group("noun").split())


def a_sum(answer: str, stating: Iterable[str]) -> bool:
    """The answer is a sum of money: a currency sign, or a money word with it ("£600", "600 pounds", "six guineas")."""
    return bool(CURRENCY.match(answer.strip())) or bool(MONEY_WORDS & set(words(answer))) or any(
        re.search(rf"{re.escape(answer)}\s+(?:{'|'.join(MONEY_WORDS)})\b", text) for text in stating)


def counted_noun(question: str) -> str:
    """What "how many X" counts: the answer is a number of X, so X is not repeated in it ("40 million", not
    "40 million copies"), and any count of X says X."""
    match = re.search(r"\bhow (?:many|much)\s+(\w+)", question.lower())
    return match.group(1) if match and match.group(1) not in STOPWORDS else ""  # "how much did ...": no noun


def asks_for_a_period(question: str) -> bool:
    """Whether the question asks for a stretch of time ("served during what years?"): one year does not answer it."""
    return asked_form(question) == "period"


def asked_phrase(question: str) -> list[str]:
    """The noun phrase the question names its answer by, its noun last: the words after "what"/"which" ("which
    Welsh coastal glider was ..." -> welsh, coastal, glider; "what kind of ferry" -> ferry); none when the
    question word is followed by its verb ("what is ..."), is a relative "which" ("the town in which ...", not "in
    which town ...?", the question's own), or the phrase runs on too long to be a noun phrase. "What was the ferry
    ... called?" asks for a ferry, as "what was the name of the ferry ...?" does."""
    clause = re.split(r"[,;:?!\"“(]", WH_IS.sub(r"\1 is", question))
    for part in clause:
        tokens = phrase_tokens(part)
        for at, token in enumerate(tokens):
            # "the town in which ...": a relative "which"; "In which inn ...?" opens the question with its own
            if token not in ("what", "which") or token == "which" and at > 1 and tokens[at - 1] in PHRASE_ENDS:
                continue
            after = tokens[at + 1:at + 1 + _before_a_name(part.split()[at + 1:])]
            if after[:2] in (["is", "the"], ["was", "the"], ["are", "the"], ["were", "the"]) and \
                    after[2:4] == ["name", "of"]:  # "what was the name of the ferry ..." asks for a ferry
                after = after[4:]
            elif after[:2] in (["is", "the"], ["was", "the"], ["are", "the"], ["were", "the"]) and \
                    _NAMING_END.search(question):  # "what was the ferry Ada Pell ran called?" too
                after = after[2:]
            if after[:1] == ["of"] or after[:2] == ["one", "of"]:  # "which of the company boats ...?" asks for a boat
                after = after[after.index("of") + 1:]
            phrase = _noun_phrase(after)
            if phrase:
                return phrase
    return []


def owned_phrase(question: str) -> list[str]:
    """What a "what was X's ...?" or "what was the ... of X?" question asks of X: "maiden name", "first wife", "home
    port". Its words qualify the thing asked, so sources that never use one of them ("maiden") do not say it,
    however much else they say of X."""
    asked = question.strip()
    found = re.search(r"^(?:what|which|who)\s+(?:was|is|were|are)\s+.+?['’]s\s+([a-z][a-z -]*?)\s*\?*$", asked,
                      re.IGNORECASE) or \
        re.search(r"^(?:what|which|who)\s+(?:was|is|were|are)\s+the\s+([a-z][a-z -]*?)\s+of\b", asked, re.IGNORECASE)
    phrase = found.group(1).lower().split() if found else []
    return phrase if len(phrase) <= MAX_PHRASE_WORDS and not PHRASE_ENDS & set(phrase) else []


def _before_a_name(tokens: list[str]) -> int:
    """How many of the words after "what"/"which" come before a name of two or more words that follows a lower-case
    word: the name opens the clause that describes the thing asked ("the shop Ada Pell set up"), while a single
    capitalised word is a modifier of the noun ("which lowland Scottish town"), and so is a name in the possessive
    ("the name of Ada Pell's ship")."""
    for at in range(1, len(tokens) - 1):
        if tokens[at][:1].isupper() and tokens[at + 1][:1].isupper() and tokens[at - 1][:1].islower():
            run = at
            while run + 1 < len(tokens) and tokens[run + 1][:1].isupper():
                run += 1
            if not tokens[run].endswith(("'s", "’s")):  # "the name of Ada Pell's ship": a possessive qualifies
                return at
    return len(tokens)


def _noun_phrase(tokens: list[str], after_article: bool = False) -> list[str]:
    """The words up to the phrase's verb, preposition or relative word, when they are few enough to be one noun
    phrase; a kind word points on to its noun ("kind of ferry"), and a word before a determiner is a verb. After an
    article a past form that opens the phrase is an adjective ("a retired pilot")."""
    phrase: list[str] = []
    for word in tokens:
        if word == "of" and phrase and phrase[-1] in KIND_WORDS:
            phrase = []
            continue
        adjective = after_article and not phrase
        wh_word = word.split("'")[0] in WH_WORDS  # "who", and "who's" as people write "whose"
        if word in AUXILIARIES or word in PHRASE_ENDS or wh_word or verb_shaped(word) and not adjective:
            break
        if word in DETERMINERS or word[:1].isdigit():  # "the 1996 ferry": a number or an article only qualifies
            if phrase:  # "ferry crosses the sound": the word before "the" is the verb
                phrase.pop()
                break
            continue
        phrase.append(word)
    nouns = [word for word in phrase if word not in STOPWORDS]
    if nouns and nouns[-1] in KIND_WORDS:
        nouns = nouns[:-1]  # "which pear variety" asks for a pear
    if not nouns or len(phrase) > MAX_PHRASE_WORDS or not nouns[-1].replace("-", "").isalpha():  # "ferry-boy" is one
        return []
    return nouns


def said_to_be(name: str, sentence: str) -> list[str]:
    """The noun phrase the sentence says ``name`` is ("Ada Pell, born 1901, is a former harbour pilot who ..." ->
    former, harbour, pilot), read as ``asked_phrase`` reads the question's; none when the sentence says no such
    thing or its description runs on too long to be one noun phrase."""
    match = re.search(rf"{re.escape(name)}[^.]{{0,160}}?\b(?:is|was|are|were)\s+(?:an?|the|one of the)\s+"
                      r"(?P<phrase>[^.;,()]{2,160})", sentence)
    return _noun_phrase(phrase_tokens(match.group("phrase")), after_article=True) if match else []


def classified_as(name: str, texts: Iterable[str]) -> set[str]:
    """The common nouns the texts class ``name`` by: what they say it is ("X is a market town" -> town) and the noun
    set before it ("the river X", "the quarry of X", "the mason X")."""
    before = re.compile(rf"\b(?:[Tt]he|[Aa]n?)\s+([a-z]+)\s+(?:of\s+)?{re.escape(name)}\b")
    nouns: set[str] = set()
    for text in texts:
        if name not in text:
            continue
        nouns |= {match.group(1) for match in before.finditer(text)}
        said = said_to_be(name, text)
        if said:
            nouns.add(said[-1])
    return nouns


def phrase_tokens(text: str) -> list[str]:
    """Lower-cased words split at spaces only, so a hyphenated modifier stays one word ("jet-powered")."""
    return [token.lower().strip(".'’") for token in text.split()]


def described_as(phrase: list[str], sentences: Iterable[tuple[str, str, int]]) -> dict[str, float]:
    """The names the sources define by the question's noun ("Harcastle Kestrel is a Welsh coastal glider" for
    "which coastal glider"), lower-cased, each with the share of the phrase's other words its definition also
    states; a page's opening sentence that opens with "It" defines the page's title. ``sentences`` are (text, page
    title, position on the page)."""
    if not phrase:
        return {}
    noun, modifiers = stem(phrase[-1]), {stem(word) for word in words(" ".join(phrase[:-1]))}
    found: dict[str, float] = {}
    for text, title, position in sentences:
        match = _DEFINES.match(text)
        if match is None:
            continue
        described = {stem(word) for word in words(match.group("description"))[:DESCRIPTION_WORDS]}
        if noun not in {stem(head) for head in _heads(match.group("description"))}:
            continue  # "a country music station" is a station, not a country
        subject = match.group("subject").strip(" \"“”")
        if subject.lower() in PRONOUNS:
            if position:  # far into a page, what "it" stands for is not known
                continue
            subject = title
        share = len(modifiers & described) / len(modifiers) if modifiers else 1.0
        found[subject.lower()] = max(found.get(subject.lower(), 0.0), share)
    return found


def _heads(description: str) -> list[str]:
    """The nouns a definition says its subject is: the last word of each coordinated phrase before its first
    preposition, relative word or participle ("a town and civil parish in ..." -> town, parish; "a glider built in
    ..." -> glider; "a country music station" -> station)."""
    heads = []
    for part in re.split(r",|\s+(?:and|or)\s+", description):
        run: list[str] = []
        for word in (token.strip("\"“”'’()").lower() for token in part.split()):  # "jet-powered" is one word
            if not run and word in ARTICLES:
                continue
            if word in PHRASE_ENDS or run and verb_shaped(word):
                break
            run.append(word)
        heads += run[-1:]
    return heads


def kind_share(name: str, described: dict[str, float]) -> float | None:
    """How fully the sources call ``name`` what the question asks for, None when they do not: a short form counts
    as its full name ("the Kestrel" for "Harcastle Kestrel")."""
    key = name.lower()
    if key in described:
        return described[key]
    shares = [share for full, share in described.items() if full.endswith(" " + key) or key.endswith(" " + full)]
    return max(shares) if shares else None


def named_as_a_firm(noun: str, name: str) -> bool:
    """The question asks for a firm ("which firm built ...?") and the name is formed as one ("Pell & Reed")."""
    return noun in FIRM_NOUNS and FIRM_NAME.search(name) is not None
