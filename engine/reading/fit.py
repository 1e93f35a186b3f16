"""Whether a short answer is the kind of thing the question asks for: the commitment's type factor.

An explanation question ("why", "how does", "what does X return") has no name for an answer; a word the sources also
write in lower case, or a function word, is no proper name; a "who" answer the sources name as a place, a title, an
owner or a thing is no person; a "where" answer given life dates is no place; a time, a count or a measure must look
like one; and an answer that goes with another act of its sentence, or that is the question's own subject restated,
does not answer what is asked. Each rule returns its reason in plain words, for the report's lead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from satiate.engine.reading.chain import (
    PARTICLES,
    ROW_FIELD,
    VERDICT_KINDS,
    Chain,
    asked_verb,
    is_collection_label,
    known_verb,
    mentioned,
    past_verbs_asked,
    question_names,
    said_in,
    states,
    stems_of,
)
from satiate.engine.reading.kinds import (
    ADJECTIVE_HEADS,
    ASKS_WHO_WAS,
    CURRENCY,
    FIRM_NAME,
    FIRM_NOUNS,
    JUDGING,
    MONEY_WORDS,
    PLACE_NOUNS,
    SETTLEMENT_NOUNS,
    STREET_NOUNS,
    TOWN_NOUNS,
    a_sum,
    asked_form,
    asked_phrase,
    asks_for_money,
    classified_as,
    counted_noun,
    owned_phrase,
    phrase_tokens,
    said_to_be,
)
from satiate.engine.reading.names import (
    DETERMINERS,
    abbreviation,
    name_spans,
    opens_on_its_verb,
    written_in_lower_case,
)
from satiate.engine.reading.plain_kinds import CALLING, KINSHIP, asked_kind, of_the_kind
from satiate.engine.reading.slots import fills_slot
from satiate.engine.reading.verdicts import PREPOSITIONS, verdict_fit
from satiate.engine.roles import (
    IRREGULAR_PASTS,
    name_words,
    nearest_verb,
    object_relative_act,
    relative_act,
    roles,
    same_name,
)
from satiate.tools.countries import countries_named
from satiate.tools.lexicon import converse, is_a_noun, names_a_body, names_a_person, names_a_time
from satiate.tools.text import (
    ARTICLES,
    AUXILIARIES,
    BE_FORMS,
    COUNT_WORD,
    MONTHS,
    STOPWORDS,
    VERSION,
    WH_WORDS,
    YEAR,
    inflected_alike,
    irregular_form,
    is_field,
    stem,
    verb_shaped,
    words,
)

# "what does X return / do / mean" (also with a context after it: "... do in a loop?", "... return when empty?"):
# the answer is a behaviour, not a name.
BEHAVIOUR = re.compile(r"^what (?:does|do|did)\b.*\b(?:return|returns|yield|yields|do|does|mean|means|raise|raises)"
                       r"(?:$|\s+(?:in|when|if|with|for|on|inside|after|before|while|during|once|given)\b)")
# "why ...", "how does ...": the answer is an explanation, not a name.
EXPLANATION = re.compile(
    r"^(?:why\b|how (?!many\b|much\b|old\b|long\b|tall\b|high\b|far\b|large\b|big\b|deep\b|wide\b|often\b|fast\b|"
    r"heavy\b|hot\b|cold\b)\w+)"
)
NAMED_KINDS = frozenset({"person", "place", "name"})
# where one of a sentence's joined clauses ends: a semicolon, or "and" after a comma or before a name
JOINED_CLAUSES = re.compile(r";\s+|,\s+and\s+|\s+and\s+(?=[A-Z])")
# a verb that hands its act to the infinitive after it: "who managed to save the cup?" asks who saved it
CATENATIVES = frozenset("managed tried helped failed began started continued decided agreed refused offered attempted "
                        "volunteered arranged chose promised".split())
# "who founded ...?": the one who acted is asked for
# "who was keeping the ledger?" asks the act as "who kept the ledger?" does
ASKS_WHO_DID = re.compile(r"^who (?P<progressive>(?:was|were|is|are) (?=\w+ing\b))?"
                          rf"(?P<handed>(?:{'|'.join(sorted(CATENATIVES))}) to )?(?P<act>\w+)\b")
# "what was X renamed in 1980?": a passive question, the answer completes the participle after its subject
# ("in which year was the chapel flooded?" too: a preposition may open it, and a noun follow its question word)
ASKS_THROUGH_PASSIVE = re.compile(r"^(?:(?:in|on|at|by|during|from|for|since|until) )?(?:what|who|whom|which \w+|"
                                  r"what \w+|when|where) (?:was|were|is|are) (?P<rest>.+)$")
CLAUSE_WORDS = frozenset("when that which who whom whose where while after before until because".split())
OWNED_REACH = 2  # words between an owner's "'s" and the noun owned ("Ada Pell's new stone track")
RELATION_REACH = 5  # words between a relation word and the name it is said of ("directed by the engineer Y")
AGENT_GAP = 6  # words of place or time between a passive act and its "by" ("rowed across the Sound each winter by")
# "by" and the agent: the answer, or a noun phrase set beside it ("by the head gardener, Ada Pell", "by Ivo's niece,
# Ada Pell")
BY_AGENT = r"\bby\s+(?:(?:the|an?|his|her|their|its|[A-Z][\w-]*'s)\s+(?:[a-z]+\s+){0,2}[a-z]+,?\s+)?"
# "which boat did ... varnish?", "what cart was ... hired?": a noun asked, then its clause's auxiliary, so the thing
# asked is what the act was done to, never its doer
OBJECT_ASKED = re.compile(r"(?:which|what) (?:[a-z-]+ ){1,3}?(?:did|does|do|was|were|is|are|had|has|have) ")
PASSIVE_BEFORE = re.compile(r"\b(?:was|were|is|are|been|be)\s+$")  # a participle's auxiliary, just before it
ADVERB_BEFORE = r"(?:\w+ly|first|also|then|later|once)"  # "Ivo Marr first made ...": a verb's adverb before it
AGENT_ENDING = 3  # the letters an agent noun adds to its verb's stem: "rais" + "er", "build" + "er", "found" + "er"
WRITTEN_AS = re.compile(r"\b(?:as|called|named|signed|styled)\s+$")  # what a quoted name is written as
PLACED_BEFORE = re.compile(r"\b(?:at|in|from|near|to|into|on)\s+$")  # a preposition of place, just before
POST_REACH = 4  # words between a post and its holder's name: "Ada Pell was made secretary", "Secretary: Ada Pell"
NAME_WORD = r"[A-Z][\w.-]*"  # a capitalised word of a name, its possessive "'s" not part of it
PASSIVE_ACT = re.compile(r"\b(?:was|were|is|are|been)\s+(?:\w+ly\s+)?(\w+)")  # "was found", "were quietly sold"
# "the spouse of the director of X": the outer relation is asked, the inner one leads to it.
NESTED_RELATION = re.compile(r"\bthe (?P<outer>\w+) of (?:the |an? )?(?P<inner>\w+) of\b")
# "the designer of the Gull": one the question describes by an act done to a named thing
DESCRIBED_BY_CLAUSE = re.compile(r"\bthe (?P<noun>(?:[a-z-]+ ){0,2}?[a-z-]+) (?:with whom|whom|who|that)\b")
DESCRIBED_AGENT = re.compile(r"\bthe (?P<agent>[a-z]+(?:er|or|ist)) of (?:the )?"
                             r"(?P<thing>[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*)")
NAME_MARKS = r"[\"“'*_]{0,2}"  # a name given may be quoted or set in italics: "named *Gull Rose*"
ALIAS_WORDS = r"\b(?:known(?: \w+)? as|called|(?:re)?named|nicknamed|dubbed|christened)"  # what a thing is called
# "who was the engineer behind X?": the noun that says what the one asked for is
ASKS_ROLE = re.compile(r"^who (?:was|is|were|are) (?:the |an? )?(?P<role>(?:[a-z-]+ ){0,2}?[a-z-]+)"
                       r"(?= (?:of|behind|for|at|in|on|to|who|that|when)\b|$)")
PREPOSITION_WHOM = re.compile(r"^(from|to|with|by|for|against|under) whom\b", re.IGNORECASE)  # asks the one after it
ASKS_FOR_A_NAME = re.compile(r"\b(?:called|(?:re)?named|name|known as|nickname|title|christened|dubbed)\b")
# what follows a person's name: life dates ("(1838–1915)", "(born 1901)") or a birth ("was born", ", born"); one
# year alone in brackets dates a thing as well ("Lantern Rib (1954)"), so it is none
LIFE_DATES = r"\s*\((?:(?:born\s+|b\.\s*)\d{3,4}|\d{3,4}\s*[–-])|,?\s+was\s+born\b|,\s+born\b|" \
    r"\s+(?:died|passed away|was baptised|was baptized|was buried)\b|" \
    r"\s*\((?:née|nee)\s|\s*\|\s*\d{3,4}\s*[–-]\s*\d{3,4}\b"  # "where Ada Marr died", "Ada Lind (née Marr)", a
# table's "| Ada Marr | 1861–1929 |": only people die, marry into a name, or have the years of a life
# "Ada Pell (1878–1960)": the years of a life, said of nothing else the sentence tells
_LIFE_SPAN = re.compile(r"\((?:born\s+|b\.\s*|c\.\s*)?(\d{3,4})\s*[–-]\s*(?:c\.\s*)?(\d{3,4})\)")
LIFE_WORDS = frozenset(stem(word) for word in "born birth died death die lived life age old".split())
PERSONAL_SUBJECT = re.compile(r"(?:^|[.!?]\s+)(?:She|He)\s")  # a sentence opening on "she" or "he"
PLACE_PREPOSITIONS = frozenset("in at on near from into across slopes outside inside above below beneath beside "
                               "beyond behind opposite up down along towards toward".split())
HOW_MUCH = re.compile(r"^\W*how much\b", re.IGNORECASE)
INITIAL_SKIPS = frozenset("of the and for in on at".split())  # small words an abbreviation gives no letter
ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth last").split()
MIN_NOUN = 3  # letters at least in a noun a name may qualify ("vs" is an abbreviation)
PERSONAL_TITLE = r"(?:Mr|Mrs|Miss|Ms|Dr|Revd?)"  # titles only people bear ("Lady" and "Sir" also name ships)
# "what was the first name of ...?": a part of a name, which an initial does not spell
FIRST_NAME_ASKED = re.compile(r"\b(?:first|christian|given|fore)[ -]?names?\b", re.IGNORECASE)
# a dimension of space, which no stretch of time measures ("how wide ...?" is not answered by "two years")
SPACE_ASKED = re.compile(r"\bhow (?:deep|tall|high|far|wide|broad|thick)\b|\b(?:what|which) (?:[a-z]+ )?(?:height|"
                         r"depth|width|breadth|distance|elevation|altitude|diameter|bore)\b", re.IGNORECASE)
HONORIFICS = frozenset("reverend rev hon honourable honorable venerable".split())  # titles written after "the"
# a life's event, as notes write it: "Born:", "died", "bur.", "b."
LIFE_EVENT = re.compile(r"\b(?i:born|died|buried|baptised|baptized|christened|married|b\.|d\.|bur\.|bapt\.|m\.):?")
PLACE_SHARE = 0.5  # a "who" answer whose mentions follow a place preposition this often or more is a place
NOT_A_NAME = 0.0  # a function word or a common word offered as a name
WRONG_KIND = 0.15  # a place offered for "who", a name offered for "when"/"how many"
LABELLED = re.compile(r"^(?P<label>[A-Z][^:.;!?]{0,60}):\s")  # a note's field: "Teachers in the first term: 3"
DAY_ASKED = re.compile(r"\b(?:what|which) (?:date|day)\b", re.IGNORECASE)  # a day, which a year alone does not give
AGENT_NOUN = re.compile(r"(?:er|or|ist|man|men|ess)$")  # a noun that may name a person by what they do
MONTH_OPENINGS = "|".join(month[:3] for month in MONTHS)  # a month however written: "Mar", "March", "Mar."
PERIOD_LABELS = frozenset("month week day date quarter season term".split())  # a row's part of a year
LOOSE_COUNTS = frozenset("times people persons".split())  # counts a label may name by the act or the kind counted


def initials_of(answer: str, text: str, capitalised: bool = False) -> str:
    """The run of the text's words whose initials spell the answer ("OB" in "when was the old bridge rebuilt?",
    "HLS" in "... the Harl Lamp Society (HLS)"), or "": notes shorten what they keep writing about to its
    initials, so an answer written so is the question's own subject, or the name its sentence shortens, under another
    spelling, never what is asked of it. Small words ("of", "the", "&") may stand inside the run without a letter of
    their own; ``capitalised`` asks each lettered word to be capitalised, as a name a sentence shortens is (in a long
    sentence two lower-case words spell two letters by chance)."""
    if not abbreviation(answer):
        return ""
    tokens = re.findall(r"[^\W\d_][\w'’-]*|&", text)
    for start in range(len(tokens)):
        letters, run = "", list[str]()
        for token in tokens[start:]:
            if (token.lower() in INITIAL_SKIPS or token == "&") and run:
                run.append(token)
                continue
            if not answer.startswith(letters + token[0].upper()) or capitalised and not token[0].isupper():
                break
            letters += token[0].upper()
            run.append(token)
            if letters == answer:
                return " ".join(run)
    return ""


def _feature_uncalled(chain: Chain) -> str:
    """The place noun the question asks by ("what river", "on which street"), when it is no settlement's and neither
    the answer's name nor any text read calls the answer so: a river, a street or a quay is called by its noun ("River
    Wenn", "the river Ost", "Mill Row"), so a town named in the answer's sentence is none."""
    noun = next(iter(asked_phrase(chain.question)[-1:]), "")
    if noun not in PLACE_NOUNS or noun in SETTLEMENT_NOUNS:
        return ""
    texts = chain.read + chain.stating
    called = re.compile(rf"\b{noun}s?\s+{re.escape(chain.answer)}\b|\b{re.escape(chain.answer)}\s+{noun}s?\b",
                        re.IGNORECASE)
    if noun in chain.answer.lower() or any(called.search(text) for text in texts) or \
            noun in classified_as(chain.answer, texts):
        return ""
    return noun


def type_fit(chain: Chain) -> tuple[float, str]:
    """How well the span is the kind of thing the question asks for, and why not when it is not."""
    question = " ".join(words(chain.question))
    if chain.kind in VERDICT_KINDS:  # a verdict fits when each side's sentence is from its own page
        return verdict_fit(chain.question, chain.kind, chain.answer_pages)
    # ("what did she do for a living?" asks her calling, "how was she related to him?" her kinship: no explanation)
    if (EXPLANATION.match(question) or BEHAVIOUR.match(question)) and asked_kind(chain.question) not in (CALLING,
                                                                                                    KINSHIP):
        return NOT_A_NAME, "the question asks for an explanation, not a name"
    answer = chain.answer.strip()
    tokens = words(answer)
    if not tokens:
        return NOT_A_NAME, "the answer is empty"
    if chain.stating and all(only_a_reference(answer, text) for text in chain.stating):
        return NOT_A_NAME, f"'{answer}' is only a reference to another note ('see {answer}'), not what it says"
    if chain.stating and all(_labels_an_inventory(answer, text) for text in chain.stating):
        return NOT_A_NAME, f"'{answer}' labels a list of things ('{answer}: ...; ...'), and is none of them"
    if (spelled := initials_of(answer, chain.question)) and chain.kind in NAMED_KINDS:
        return NOT_A_NAME, f"'{answer}' is the initials of '{spelled}', what the question itself names"
    if chain.kind in NAMED_KINDS and chain.stating and (spelled := initials_of(answer, chain.stating[0], True)):
        return NOT_A_NAME, f"'{answer}' is the initials of '{spelled}' in the cited sentence: a short form, which " \
                           "the words it shortens answer if anything does"
    if chain.kind == "date" and not re.search(r"\d", answer):
        return WRONG_KIND, f"'{answer}' is not a time"
    if chain.stating and all(only_life_years(answer, text, chain.question) for text in chain.stating):
        return WRONG_KIND, f"'{answer}' is a year of someone's life in the cited sentence, not the time asked"
    form = asked_form(chain.question)
    if DAY_ASKED.search(chain.question) and YEAR.fullmatch(answer.strip()):
        return WRONG_KIND, f"'{answer}' is a year, and the question asks on what date: which day is not said"
    if form in ("time", "period") and not re.search(r"\d", answer):
        return WRONG_KIND, f"'{answer}' is not a time, and the question asks when"
    if form == "measure" and not re.search(rf"\d|\b{COUNT_WORD}\b", answer.lower()):
        return WRONG_KIND, f"'{answer}' is no number, and the question asks for a measure"
    if form == "measure" and not CURRENCY.match(answer) and (len(tokens) < 2 or tokens[-1][:1].isdigit()):
        # a measure has its unit ("12 ft", "six feet", "-5°C"); a sum of money its currency ("£85,000")
        return WRONG_KIND, f"'{answer}' has no unit, and the question asks for a measure"
    if form == "measure" and SPACE_ASKED.search(chain.question) and names_a_time(tokens[-1]):
        return WRONG_KIND, f"'{answer}' is a stretch of time, and the question asks a measure of space"
    if form == "period" and len(re.findall(r"\d+", answer)) < 2:
        return WRONG_KIND, f"'{answer}' is one point in time, and the question asks for a stretch of time"
    counted = counted_noun(chain.question)
    if chain.kind == "number" and counted and CURRENCY.match(answer) and counted not in MONEY_WORDS:
        return WRONG_KIND, f"'{answer}' is a sum of money, and the question counts {counted}"
    if chain.kind == "number" and chain.stating and all(_numbers_a_field(answer, text) for text in chain.stating):
        return WRONG_KIND, f"'{answer}' numbers a field of a list in the cited sentence, and counts nothing"
    # "how much did she pay?" asks an amount; "Bedrooms: 42" counts the things its label names
    if chain.kind == "number" and chain.stating and HOW_MUCH.match(chain.question) and (
            not counted) and "" not in (
            labels := {_counted_by_label(answer, text) for text in chain.stating}):
        return WRONG_KIND, f"'{answer}' counts {' and '.join(sorted(labels))} (the field's label), and the question " \
                           "asks how much"
    # "how many pupils?" is not answered by "Teachers in the first term: 3": a field's count is of what its
    # label names (a count of times or of people may be labelled by the act or the kind of person counted)
    if chain.kind == "number" and counted and counted not in LOOSE_COUNTS and chain.stating and all(
            _label_noun(answer, text) and not states(stem(counted), said_in(text.split(":", 1)[0]))
            for text in chain.stating):
        return WRONG_KIND, f"'{answer}' counts {_label_noun(answer, chain.stating[0])} (the field's label), and the " \
                           f"question counts {counted}"
    if chain.kind == "number" and (part := _count_of_a_part(chain)):
        return WRONG_KIND, f"'{answer}' is the count of one row, for {part}, and the question counts a whole year"
    if chain.kind == "number" and asks_for_money(chain.question) and not a_sum(answer, chain.stating):
        return WRONG_KIND, f"'{answer}' is no sum of money, and the question asks how much money"
    if chain.kind == "number" and _a_year(answer, chain.stating):
        return WRONG_KIND, f"'{answer}' is a year in the cited sentence, and the question asks how many"
    if ranked := _ranked_otherwise(chain):
        asked = "time again" if ranked[0] == "again" else ranked[0]
        return WRONG_KIND, f"the cited sentence calls '{answer}' the {ranked[1]} {ranked[2]}, not the {asked}"
    if other := _act_of_someone_else(chain):
        return WRONG_KIND, f"in the cited sentence '{answer}' goes with {other}, whom the question does not ask about"
    if chain.kind in NAMED_KINDS and form == "quantity" and not re.search(r"\d", answer):
        return WRONG_KIND, f"'{answer}' is a name, and the question asks for a quantity"
    if form == "version" and not VERSION.fullmatch(answer):
        return WRONG_KIND, f"'{answer}' is no version number, and the question asks which version"
    if chain.kind in NAMED_KINDS and form == "calling" and not of_the_kind(answer, CALLING):
        return WRONG_KIND, f"'{answer}' names no one's work, and the question asks for someone's work"
    if chain.kind in NAMED_KINDS and re.fullmatch(r"[a-z' -]+", answer):
        # "turned the chapel into a drill hall": no name, but what stands where the question's "what" does; "navy"
        # for "what colour ...?": a plain noun of the kind asked
        if chain.kind == "name" and (fills_slot(chain.question, answer, chain.stating) or (
                plain_kind := asked_kind(chain.question)) and of_the_kind(answer, plain_kind)):
            return 1.0, ""
        return NOT_A_NAME, f"'{answer}' is a common noun, and no cited sentence puts it where the question's " \
                           "'what' stands"
    if chain.kind in NAMED_KINDS:
        if len(tokens) > 1 and tokens[0] in ARTICLES and answer[:1].isupper():
            tokens = tokens[1:]  # "The Tarrow Courier" is a name: its article is part of it
        if tokens[0] in STOPWORDS or len(tokens) == 1 and written_in_lower_case(tokens[0], chain.read):
            return NOT_A_NAME, f"'{answer}' is a common word, not a name"
        if len(tokens) == 1 and _only_opens_sentences(answer, chain.read + chain.stating):
            return NOT_A_NAME, f"'{answer}' is capitalised only where it opens a sentence: nothing shows it is a name"
        if chain.kind == "person" and re.search(r"\d", answer):
            return WRONG_KIND, f"'{answer}' holds a number, and no person's name does"
        if chain.kind == "person" and abbreviation(answer):
            return WRONG_KIND, f"'{answer}' is an abbreviation (of a post, a body or someone's initials), not a " \
                               "person's name"
        # "from whom ...?" asks for the one after "from", where a place would stand too
        unsaid_preposition = _not_after_the_preposition(chain) if chain.kind == "person" else ""
        after_asked = bool(PREPOSITION_WHOM.match(chain.question.strip())) and not unsaid_preposition
        if chain.kind == "person" and not after_asked and (place_share(answer, chain.read) >= PLACE_SHARE or
                                       classified_as(answer, chain.read + chain.stating) & PLACE_NOUNS):
            return WRONG_KIND, f"'{answer}' is a place, and the question asks who"
        # "*Gull Rose*", "“Gull Rose”", "'Gull Rose'" (but "**Gull Rose**" is a bold lead-in, emphasis in notes)
        titled = re.compile(rf"(?<![*_])[*_]{re.escape(answer)}[*_](?![*_])|[\"“]{re.escape(answer)}[\"”]|"
                            rf"(?<!\w)['‘]{re.escape(answer)}['’](?!\w)")
        # ... but "the ledger has her as "A. Pell"" quotes how someone is written: a name, no title
        if chain.kind == "person" and any(not WRITTEN_AS.search(text, 0, match.start()) for text in chain.read
                                          for match in titled.finditer(text)):
            return WRONG_KIND, f"'{answer}' is set in italics or quotes: a title (a ship's, a book's), not who"
        acted = bool(asked_acts(chain) or who_did_act(chain.question))  # "who founded X?", "who made X?" ask an act;
        # "who was X's mother?" asks a relation
        if chain.kind == "person" and acted and chain.stating and all(_only_owner(answer, text)
                                                                      for text in chain.stating):
            return WRONG_KIND, f"the cited sentence names '{answer}' only as an owner ('{answer}'s ...')"
        # (a question that itself asks someone's relative reads the relation either way: "Ivo's mother?" from
        # "Ada's son, Ivo")
        if chain.kind == "person" and chain.stating and not re.search(r"['’]s\s+(?:[a-z]+\s+)?[a-z]+", chain.question) \
                and all(_only_owner(answer, text) and _relative_of(answer, text) for text in chain.stating):
            relative = _relative_of(answer, chain.stating[0])
            return WRONG_KIND, f"the cited sentence names '{answer}' only as whose {relative} is meant " \
                               f"('{answer}'s {relative}'), and the {relative} is someone else"
        if called := _asked_thing_named_otherwise(chain):
            return WRONG_KIND, f"the cited sentence names the {called[0]} '{called[1]}', not '{answer}'"
        if owned := _owner_of_the_asked(chain):
            return WRONG_KIND, f"the cited sentence names '{answer}' as the owner of the {owned}, not as the {owned}"
        if chain.kind == "place" and (noun := named_as(answer, chain.stating)) and noun not in PLACE_NOUNS:
            return WRONG_KIND, f"the cited sentence names '{answer}' as a {noun}, not a place"
        if chain.kind == "name" and _asks_what_of_a_thing(question) and a_person(answer, chain.read):
            return WRONG_KIND, f"'{answer}' is a person, and the question asks what, not who"
        acts = frozenset(stem(act) for act in asked_acts(chain))
        if chain.kind == "place" and chain.stating and all(done_by(answer, text, acts) for text in chain.stating):
            return WRONG_KIND, f"in the cited sentence '{answer}' is who did it (after 'by'), not where"
        if chain.kind == "name" and OBJECT_ASKED.match(question) and "by" not in words(question) and chain.stating \
                and all(done_by(answer, text, acts) for text in chain.stating):
            return WRONG_KIND, f"in the cited sentence '{answer}' is who did it (after 'by'), and the question asks " \
                               "what it was done to"
        if chain.kind == "place" and (country := _outside_the_country(answer, chain.question)):
            return WRONG_KIND, f"'{answer}' is another country, and the question asks where in {country}"
        if chain.kind == "place" and FIRM_NAME.search(answer):
            return WRONG_KIND, f"'{answer}' is a firm's name ('&', 'Ltd', 'Sons', 'Messrs.'), not a place"
        if chain.kind == "place" and a_person(answer, chain.read):
            return WRONG_KIND, f"'{answer}' is a person (called 'she' or 'he', given life dates or a title), not " \
                               "a place"
        asked_noun = (asked_phrase(chain.question) or [""])[-1]
        if chain.kind == "name" and asked_noun and asked_noun not in PLACE_NOUNS and len(tokens) >= 2 and \
                tokens[-1] in PLACE_NOUNS and tokens[-1] != asked_noun:
            return WRONG_KIND, f"'{answer}' is named as a {tokens[-1]}, and the question asks for a {asked_noun}"
        if chain.kind == "person" and len(tokens) >= 2 and (tokens[-1] in PLACE_NOUNS or tokens[0] in PLACE_NOUNS):
            noun = tokens[-1] if tokens[-1] in PLACE_NOUNS else tokens[0]
            return WRONG_KIND, f"'{answer}' is named as a place ('{noun}'), and the question asks who"
        if chain.kind == "person" and len(tokens) >= 3 and written_in_lower_case(tokens[-1], chain.read):
            return WRONG_KIND, f"'{answer}' ends in a common noun ('{tokens[-1]}'): a thing, and the question asks who"
        if chain.kind == "person" and (post := _written_as_a_post(answer, chain.read)):
            return WRONG_KIND, f"'{answer}' is written '{post}' too: a post, not who held it"
        if chain.kind == "person" and len(tokens) >= 3 and names_a_body(tokens[-1]):
            return WRONG_KIND, f"'{answer}' names a body ('{tokens[-1]}'), and the question asks who"
        if chain.kind in ("person", "name") and FIRST_NAME_ASKED.search(chain.question) and not _spells_a_first_name(
                answer):
            return WRONG_KIND, f"'{answer}' gives no first name in full, and the question asks for one"
        asked_head = (asked_phrase(chain.question) or [""])[-1]
        if chain.kind == "name" and asked_head and chain.stating and not FIRM_NAME.search(answer) and not a_person(
                answer, chain.read) and all(
                re.search(rf"\b{re.escape(asked_head)}s?\s+of\s+{re.escape(answer)}\b", text, re.IGNORECASE)
                for text in chain.stating):  # ("the workshop of Messrs Pell" is Pell's: an owner names it)
            return WRONG_KIND, f"the cited sentence names '{answer}' after '{asked_head} of': where or whose the " \
                               f"{asked_head} is, not the {asked_head}"
        if chain.kind in ("place", "name") and (end := _at_the_other_end(chain)):
            return WRONG_KIND, f"the cited sentence names '{answer}' after '{end}', the other end of the move asked"
        if chain.kind == "place" and len(tokens) >= 2 and names_a_time(tokens[-1]):
            return WRONG_KIND, f"'{answer}' is named as a time ('{tokens[-1]}'), and the question asks where"
        if chain.kind == "place" and (building := _not_a_town(chain)):
            return WRONG_KIND, f"'{answer}' is {building}, and the question asks for a settlement"
        if chain.kind in ("person", "name") and (qualified := _qualifies_a_noun(chain)):
            return WRONG_KIND, f"the cited sentence writes '{answer} {qualified}': a name qualifying the thing, not " \
                               "the answer"
        if chain.kind == "person" and (other := _on_the_other_side(chain)):
            return WRONG_KIND, f"the cited sentence tells it as '{other}', and '{answer}' is on its other side"
        if act := _not_the_actor(chain):
            return WRONG_KIND, f"in the cited sentence '{answer}' is not the one who {act}"
        if chain.kind == "person" and (other_head := _another_head(chain)):
            return WRONG_KIND, f"the cited sentence says '{answer}' is {other_head}, not what the question asks for"
        if doer := _doer_of_another_act(chain):
            asked = worded_act(chain.question, stem(doer[0]))[0]  # as the question words it: "managed to save"
            return WRONG_KIND, f"in the cited sentence '{answer}' is the one who {doer[1]}, not who {asked}"
        if described := _the_described_one(chain):
            return WRONG_KIND, (f"the cited sentences say '{answer}' is the {described} the question speaks of, the "
                                "way to the answer, not the one it asks for")
        if inner := _inner_relation(chain):
            return WRONG_KIND, (f"the cited sentence says '{answer}' is the {inner}, the way to the answer, not the "
                                "one the question asks for")
        if chain.kind == "person" and _only_as_a_premises(answer, chain.read):
            return WRONG_KIND, f"'{answer}' is written only as '{answer}'s' with nothing owned after it, as a " \
                               "church's or a shop's name is, not who"
        if chain.kind == "person" and article_share(answer, chain.read) >= PLACE_SHARE:
            return WRONG_KIND, f"'{answer}' is written after 'the', as a thing's name is (a ship's, a hall's), not who"
        if is_collection_label(chain):
            return NOT_A_NAME, f"'{answer}' names what nearly every source read is about, not an answer in particular"
        if restated := _restated_subject(chain):
            return WRONG_KIND, f"'{answer}' is the {restated} the question speaks of, not the answer it asks for"
        # "what was the campaign called?": a thing, by its noun (an agent noun, "slater", may be a person's)
        # ... or by the noun whose name is asked: "what was the yard dog's name?" asks a dog's
        named_thing = re.search(r"\b([a-z]+)['’]s\s+(?:[a-z]+\s+)?name\b", chain.question)
        thing = (asked_phrase(chain.question) or [named_thing.group(1) if named_thing else ""])[-1]
        if chain.kind == "name" and thing and not names_a_person(thing) and thing not in FIRM_NOUNS and not \
                AGENT_NOUN.search(thing) and not FIRST_NAME_ASKED.search(chain.question) and \
                a_person(answer, chain.read):
            return WRONG_KIND, f"'{answer}' is a person, and the question asks for a {thing}"
        if unsaid_preposition:
            return WRONG_KIND, f"the cited sentence does not name '{answer}' after '{unsaid_preposition}' as the " \
                               "question does"
        # "who named the ship?" asks who gave the name, and the name given is no one; "what was it called?" asks it
        if (chain.kind == "person" or not ASKS_FOR_A_NAME.search(question)) and \
                any(is_alias(answer, text) for text in chain.stating):
            return WRONG_KIND, f"'{answer}' is the name of the thing asked about, not the answer about it"
        if chain.kind != "person" and ASKS_FOR_A_NAME.search(question) and (told := _tells_of_the_asked(chain)):
            return WRONG_KIND, f"the cited sentence tells of the {told} itself; '{answer}' is something else it names"
        # "what was the meadow called?" is answered by the name the sentence calls something, not another of its names
        given = [alias for text in chain.stating for alias in aliases_in(text)]
        if chain.kind != "person" and ASKS_FOR_A_NAME.search(question) and given and answer not in given:
            return WRONG_KIND, f"the cited sentence calls something '{given[0]}', not '{answer}'"
    if (other_thing := _act_on_another(chain))[0]:
        return WRONG_KIND, f"the cited sentence tells '{other_thing[0]}' of {other_thing[1]}, not of what the " \
                           "question names"
    if (kinds := _another_kind_of(chain))[0]:
        return WRONG_KIND, f"the cited sentence tells of the {kinds[1]}, not the {kinds[0]}"
    if post := _post_held_by_another(chain):
        return WRONG_KIND, f"the cited sentence says '{post}' of someone it does not name, not of '{answer}'"
    if (anothers := _anothers_thing(chain))[0]:
        return WRONG_KIND, f"the cited sentence tells of {anothers[0]}'s {anothers[1]}, not the one the question " \
                           "asks of"
    if (owner := _owner_acting(chain))[0]:
        return WRONG_KIND, f"the cited sentence tells what {owner[0]} did, and the question asks what {owner[0]}'s " \
                           f"{owner[1]} did"
    if other := _other_act(chain):
        return WRONG_KIND, f"in the cited sentence '{answer}' goes with '{other}', not with what the question asks"
    if other_count := _act_counted_otherwise(chain):
        return WRONG_KIND, f"the cited sentence counts what the question asks as '{other_count}', not '{answer}'"
    if (counted_there := _counted_for_another(chain))[0]:
        return WRONG_KIND, f"the cited sentence counts '{counted_there[0]}' in the clause that says " \
                           f"'{counted_there[1]}', and '{answer}' for something else"
    if dated := _act_dated_otherwise(chain):
        return WRONG_KIND, f"the cited sentence dates what the question asks ('{dated[0]}') to {dated[1]}, not to " \
                           f"'{answer}'"
    if chain.kind == "place" and (feature := _feature_uncalled(chain)):
        return WRONG_KIND, f"nothing read calls '{answer}' a {feature}, and the question asks which {feature}"
    return 1.0, ""


def _written_as_a_post(name: str, read: tuple[str, ...]) -> str:
    """A capitalised phrase that the sources also write with its last word in lower case ("Head gardener Ivo Marr",
    for "Head Gardener"): a noun phrase for a post or a kind of person, capitalised as a title, not anyone's name.
    A person's name keeps its capitals wherever it is written. The phrase as so written, or ""."""
    parts = name.split()
    if len(parts) < 2 or not parts[-1][:1].isupper() or not names_a_person(parts[-1].lower()):
        return ""
    lowered = " ".join(parts[:-1] + [parts[-1].lower()])
    return lowered if any(re.search(rf"\b{re.escape(lowered)}\b", text) for text in read) else ""


def _spells_a_first_name(name: str) -> bool:
    """The name spells out a first name: a word before its last that is neither an initial ("H.") nor a title ("Mr",
    "Canon"), or it is one word alone ("Henry"), which may be the first name itself."""
    tokens = name.split()
    given = [token for token in tokens[:-1] if not re.fullmatch(rf"{PERSONAL_TITLE}\.?|[A-Z]\.?", token) and
             not names_a_person(token.strip(".").lower())]
    return len(tokens) == 1 or bool(given)


def _qualifies_a_noun(chain: Chain) -> str:
    """The common noun the answer stands before in every cited sentence that gives it ("the Orlby Point car park",
    "the new Kesh Hall weathervane"): a name so placed tells which thing, and the thing is the noun, not the name.
    The noun the question asks by ("what was the ferry called?" answered by "the Gull Rose ferry") is the name's own."""
    asked = {stem(word) for word in asked_phrase(chain.question)}
    if set(asked_phrase(chain.question)[-1:]) & ADJECTIVE_HEADS:
        return ""  # "what nationality ...?" is answered by the word before the noun ("a British engineer")
    nouns = []
    for text in chain.stating:
        after = re.search(rf"(?<![\w'’-]){re.escape(chain.answer)}\s+([a-z][a-z-]+)\b", text)
        if chain.answer not in text:
            continue
        word = after.group(1) if after else ""
        verb = verb_shaped(word) or word in IRREGULAR_PASTS or word.endswith("s") and known_verb(word)
        # "Ada Pell left", "Ada Pell keeps": her act; "Ada Pell yesterday", "Pell vs Marr": no thing qualified
        if len(word) < MIN_NOUN or word in STOPWORDS or verb or not is_a_noun(word) or names_a_time(word) or \
                stem(word) in asked:
            return ""
        nouns.append(word)
    return nouns[0] if nouns else ""


_ENDS = {"from": ("to", "into"), "to": ("from",), "into": ("from",)}  # the two ends of a move


def _at_the_other_end(chain: Chain) -> str:
    """The preposition every cited sentence sets the answer after, when it is the other end of the move the question
    asks ("which pub did the club move into?" answered by "the move from the Corn Exchange to the pub"): where it
    came from is not where it went."""
    asked = re.search(r"\b(from|into|to)\W*$", chain.question) or re.search(r"\b(?:move|moved|went|go|come|came)\s+"
                                                                        r"(from|into|to)\b", chain.question)
    if not asked or not chain.stating:
        return ""
    other = "|".join(_ENDS[asked.group(1)])
    placed = re.compile(rf"\b({other})\s+(?:the\s+)?{re.escape(chain.answer)}\b")
    found = [placed.search(text) for text in chain.stating]
    return found[0].group(1) if all(found) and found[0] else ""


def _not_a_town(chain: Chain) -> str:
    """What the answer is instead of the settlement asked ("in which town ...?"): a street or a quay by the noun its
    name ends in ("Tanyard Row"), or a building by being written only as an owner of nothing ("at St Orla's, Kesh")."""
    asked = asked_phrase(chain.question)[-1:]
    if not asked or asked[0] not in TOWN_NOUNS:
        return ""
    tokens = words(chain.answer)
    if len(tokens) >= 2 and tokens[-1] in STREET_NOUNS:
        return f"a {tokens[-1]}"
    return f"a building ('{chain.answer}'s')" if _only_as_a_premises(chain.answer, chain.read) else ""


def _not_after_the_preposition(chain: Chain) -> str:
    """The preposition a "from whom ...?" question asks through ("from", "to", "with", "by", "for"), when no cited
    sentence names the answer after it (a few words may come between: "from the widow of Ada Pell"): "took the lease
    of Kesh Mill from Ada Pell" answers with the one after "from", not the mill. A question whose act has a converse
    ("from whom did she buy it?", told as "he sold it to her") is read by the converse check instead."""
    asked = PREPOSITION_WHOM.match(chain.question.strip())
    if asked is None or not chain.stating or any(converse(stem(word)) for word in words(chain.question)):
        return ""
    preposition = asked.group(1).lower()
    after = re.compile(rf"\b{preposition}\s+(?:[\w'’-]+\s+){{0,4}}?{re.escape(chain.answer)}", re.IGNORECASE)
    return "" if any(after.search(text) for text in chain.stating) else preposition


def _asks_what_of_a_thing(question: str) -> bool:
    """A "what" question with no noun of its own ("what is the northern limit of ...?", "what was the roof made
    of?") asks what a thing is, made of or has: no person answers it. A name asked for ("what was he called?"), or
    a noun after "what"/"which" ("which engineer"), may be a person's."""
    return question.startswith("what ") and not asked_phrase(question) and not ASKS_FOR_A_NAME.search(question)


def who_did_act(question: str) -> str:
    """The stem of the act a "who <did> ...?" question asks about ("who bought the mill?": "buy"), or "". A person
    asked by a noun asks the same ("which passenger drowned ...?": "drown")."""
    tokens = words(question)
    asked = ASKS_WHO_DID.match(" ".join(tokens))
    act = asked.group("act") if asked else ""
    noun = asked_phrase(question)[-1:] if tokens[:1] in (["which"], ["what"]) else []
    if not act and noun and noun[0] in tokens and names_a_person(noun[0]):
        act = (tokens[tokens.index(noun[0]) + 1:] + [""])[0]
    if not act or not (verb_shaped(act) or act in IRREGULAR_PASTS or _handed(asked)):
        return ""
    return stem(act)


def _handed(asked: re.Match[str] | None) -> bool:
    """A catenative verb hands the act to the infinitive after it, a verb whatever its shape ("managed to save"), and
    "was" to the present participle after it ("was conducting")."""
    return bool(asked and (asked.group("handed") or asked.group("progressive")))


def worded_act(question: str, act: str) -> tuple[str, str]:
    """The act ``who_did_act`` reads, as the question words it ("took"), and the particle after it ("over"), or ""."""
    tokens = words(question)
    at = next((index for index, word in enumerate(tokens) if stem(word) == act), None)
    if at is None:
        return act, ""
    following = tokens[at + 1:at + 2]
    handed = at >= 2 and tokens[at - 1] == "to" and tokens[at - 2] in CATENATIVES  # "managed to save", as asked
    progressive = at >= 1 and tokens[at - 1] in ("was", "were", "is", "are")  # "was conducting"
    return " ".join(tokens[at - 2:at + 1] if handed else tokens[at - 1:at + 1] if progressive else tokens[at:at + 1]), \
        following[0] if following and following[0] in PARTICLES else ""


def on_the_converse_side(text: str, span: str, act: str) -> bool | None:
    """Whether a sentence that tells the act only through its converse names ``span`` as the one who did the act
    ("sold the mill to Ada Pell": Ada Pell bought it; the one who sold it did not); None when the sentence tells the
    act itself, or not through its converse."""
    other = converse(act)
    if other is None or act in stems_of(text):
        return None
    verbs = [match for match in re.finditer(r"[A-Za-z]+", text) if stem(match.group(0).lower()) == other[0]]
    if not verbs:
        return None
    # "to Mrs Ada Pell", "from its miller, Ivo Lant": a title or what the one is, then the name
    marked = re.compile(rf"\b{other[1]}\s+(?:(?:the|its|his|her|their|a|an)\s+[a-z ]{{1,40}},\s+)?(?:the\s+)?"
                        rf"(?:[A-Z][a-z]{{1,3}}\.?\s+)?{re.escape(span)}")
    return any(marked.search(text[verb.end():].split(";")[0]) for verb in verbs)


def _on_the_other_side(chain: Chain) -> str:
    """The converse a cited sentence tells the act asked through ("who bought the mill?" told as "Ivo Lant sold the
    mill to Ada Pell"), when the answer is not the one it marks as doing the act asked: the seller bought nothing."""
    act = who_did_act(chain.question)
    sides = [on_the_converse_side(text, chain.answer, act) for text in chain.stating] if act else []
    if not sides or any(side is not False for side in sides):
        return ""
    return (converse(act) or ("", ""))[0]


def _not_the_actor(chain: Chain) -> str:
    """The act a "who <did> X?" question asks about ("who founded X?"), when the cited sentence states that act and
    puts neither the answer nor a name of the question on its agent side (``engine.roles``): "Ada Pell founded
    Harbor Works near Tarrow" says what Ada Pell founded, so "Harbor Works" does not answer "who founded Tarrow?"."""
    act = who_did_act(chain.question)
    if not act:
        return ""
    # a verb with its particle ("set up", "took over") is one act, said in other words too ("established")
    asked_word, particle = worded_act(chain.question, act)
    phrase = f"{act} {particle}" if particle else ""
    said_act = f"{asked_word} {particle}" if particle else asked_word

    def is_act(word: str) -> bool:
        return stem(word) == act or bool(phrase) and states(phrase, {stem(word)})

    titles = list(chain.answer_pages) + [""] * len(chain.stating)  # a stating sentence's page, when known
    # the question's own names acting ("Ada Pell trained under Oda Venn") tell the act from the other side
    own = [name_words(name) for name in [chain.answer, *question_names(chain.question)]]
    for text, title in zip(chain.stating, titles):
        if act not in stems_of(text) and not (phrase and states(phrase, said_in(text))):
            continue
        if _agent_after_by(text, chain.answer, is_act) or relative_act(text, chain.answer, is_act) or \
                object_relative_act(text, chain.answer, is_act):
            continue  # "the hall, designed by Ada Pell, was opened by ...", "Ada Pell, who kept the books, ...":
            # the act's own agent is named
        done = [match.group(1) for match in PASSIVE_ACT.finditer(text) if is_act(match.group(1).lower())
                and not CLAUSE_WORDS & set(words(re.split(r"[,;]", text[:match.start()])[-1]))]  # not "when it was"
        if done and not any(re.search(rf"\b{verb}\b[^.;]*?\bby\s+(?:[a-z]+\s+){{0,3}}[A-Z]", text) for verb in done):
            return said_act  # "the ledgers were found in the loft of X": found, by no one named
        # a record's row names the doer in the field its agent noun labels ("Raiser: Ada Pell"); its other
        # labels ("Raised at: Kesh") set no one before the act
        if len(fields := ROW_FIELD.findall(text)) >= 2:
            doers = [value for label, value in fields if _agent_noun_of(label, act)]
            if doers and not any(same_name(name_words(chain.answer), name_words(value)) or chain.answer in value
                                 for value in doers):
                return said_act
            continue
        # the agent is read in the clause that tells the act: "Ivo Pell died; his nephew Ada Pell took over"
        told = next((clause for clause in JOINED_CLAUSES.split(text) if any(map(is_act, words(clause)))), text)
        acting = [name_words(agent) for agent in roles(told, title).agents]
        if acting and not any(same_name(name, agent) for name in own for agent in acting):
            return said_act
    return ""


def _agent_noun_of(label: str, act: str) -> bool:
    """The label is the noun for whoever does the act (stem ``act``): "Raiser" of "raise", "Builder" of "build"."""
    word = (words(label) or [""])[-1]
    return word.endswith(("er", "or")) and stem(word).startswith(act) and len(word) - len(act) <= AGENT_ENDING


def _agent_after_by(text: str, answer: str, is_act: Callable[[str], bool]) -> bool:
    """The answer is the agent, after "by", of the act asked: "designed by Ada Pell", "drawn up by the head gardener,
    Ada Pell", "rowed across the Sound each winter by Ivo's niece, Ada Pell". Only the act's particle or words
    of place and time stand between the act and "by"; a verb there has an agent of its own ("built in the yard
    owned by Ada Pell")."""
    for match in re.finditer(BY_AGENT + re.escape(answer), text):
        clause = re.split(r"[,;:.]", text[:match.start()])[-1]
        for word in reversed(words(clause)[-(AGENT_GAP + 1):]):
            if is_act(word):
                return True
            if verb_shaped(word):
                break
    return False


def _tells_of_the_asked(chain: Chain) -> str:
    """The thing a naming question describes ("what was Kesh's first motor lifeboat called?"), when every cited
    sentence opens on that description as its subject and gives the answer later, not as what it is called
    ("Kesh's first motor lifeboat came in 1924, replacing the Gull Rose"): the answer is another thing the sentence
    names, and the name asked for is the one the sentence leaves out (often its page's title)."""
    described = [word for word in owned_phrase(chain.question) if not ASKS_FOR_A_NAME.search(word)]
    wanted = {stem(word) for word in described if word not in STOPWORDS}
    if len(wanted) < 2 or not chain.stating:
        return ""
    for text in chain.stating:
        opening = " ".join(text.split()[:len(described) + 2])
        if not wanted <= stems_of(opening) or chain.answer in opening or is_alias(chain.answer, text):
            return ""
    return " ".join(described)


def _another_head(chain: Chain) -> str:
    """What the cited sentence says the answer is, when the question's noun is only a modifier there: "who was the
    engineer?" is not answered by "X was the engineering firm", which is a firm."""
    asked = ASKS_ROLE.match(" ".join(words(chain.question)))
    if asked is None:
        return ""
    noun = stem(asked.group("role").split()[-1])
    for text in chain.stating:
        said = said_to_be(chain.answer, text)
        if not said or said[-1] == asked.group("role").split()[-1] or noun not in {stem(word) for word in said[:-1]}:
            return ""
    return "the " + " ".join(said_to_be(chain.answer, chain.stating[0])) if chain.stating else ""


def _a_year(answer: str, stating: tuple[str, ...]) -> bool:
    """A four-digit number the cited sentences give as a point in time ("from about 1880", "in 1902"): a year,
    which counts nothing."""
    year = re.fullmatch(r"(?:(?:about|around|c\.|circa)\s*)?(1[0-9]{3}|20[0-9]{2})", answer.strip())
    return bool(year) and any(re.search(rf"\b(?:in|from|since|until|till|by|after|before|about|around|c\.)\s+"
                                        rf"{re.escape(answer.strip())}\b", text) for text in stating)


def _labels_an_inventory(answer: str, text: str) -> bool:
    """The answer is the label of a field that lists several things ("Box 4: letters; the ledger, 1880–1890;
    photographs"): the label names what holds them (a box, a shelf, a file), not any of them or what they say."""
    labelled = re.match(rf"{re.escape(answer)}\s*:\s*(?P<value>.+)$", text)
    return labelled is not None and is_field(text) and ";" in labelled.group("value")


def _numbers_a_field(answer: str, text: str) -> bool:
    """The answer stands in a field's label ("Item 3: lifebelts, cork, forty-two"): it numbers the field, whatever
    the field goes on to count."""
    label = text.split(":", 1)[0]
    return is_field(text) and re.search(rf"(?<![\w.,]){re.escape(answer)}(?![\w.,]\d)", label) is not None


def _label_noun(answer: str, text: str) -> str:
    """The plural noun a field's label counts by, its head before any preposition ("Teachers in the first term: 3"
    counts teachers), when the field's value is the answer, a bare count; or ""."""
    field = LABELLED.match(text)
    if field is None or answer not in text[field.end():]:
        return ""
    # "Yard totals: 1951 — 14 lorries": a count set before its own noun counts that noun, whatever the label (and
    # so does an answer that carries its noun: "fourteen lorries")
    after = re.search(rf"(?<![\w.,]){re.escape(answer)}\s+([a-z]+)", text[field.end():])
    carried = answer.split()[-1].lower() if len(answer.split()) > 1 else ""
    if any(word and word not in STOPWORDS and is_a_noun(word) for word in (after.group(1) if after else "", carried)):
        return ""
    head = re.split(rf"\s(?:{'|'.join(PREPOSITIONS)})\s", field.group("label"), maxsplit=1)[0]
    noun = words(head)[-1:]
    return noun[0] if noun and noun[0].endswith("s") and not noun[0].endswith("ss") else ""


def _counted_by_label(answer: str, text: str) -> str:
    """What a field's bare count counts, by its label's plural noun ("Bedrooms: 42" counts bedrooms), or ""."""
    if not is_field(text):
        return ""
    label, value = text.split(":", 1)
    noun = words(label)[-1:]
    if value.strip(" .") != answer or not noun or not noun[0].endswith("s") or noun[0].endswith("ss"):
        return ""
    return noun[0]


def _count_of_a_part(chain: Chain) -> str:
    """The part of a year a row of counts is for ("Month: Mar; Boat: Tern; Trips: 4"), when the question dates its
    count by a year alone ("how many trips did the Tern make in 1951?"): the row counts that part, not the year."""
    if not YEAR.search(chain.question) or re.search(rf"\b(?:{MONTH_OPENINGS})", chain.question) or not chain.stating:
        return ""
    parts = []
    for text in chain.stating:
        for match in ROW_FIELD.finditer(text):
            if match.group("label").strip().lower() in PERIOD_LABELS and chain.answer not in match.group("value"):
                parts.append(match.group("value").strip(" ."))
    return parts[0] if len(parts) >= len(chain.stating) else ""


def _ranked_otherwise(chain: Chain) -> tuple[str, str, str] | None:
    """The rank the question asks for ("the first curator"), when every cited sentence gives a rank of its own and
    none the one asked ("X was the second curator", "X was the last man to hold the post"): the first and the last
    holders are different people, whatever noun each sentence uses. A time "again" is any time but the first."""
    lowered = " ".join(words(chain.question))
    ranks = "|".join(ORDINALS)
    asked = re.search(rf"\b({ranks})\s+([a-z-]+)|\b(again)\b", lowered)  # "lit again": any time but the first
    if asked is None or not chain.stating:
        return None
    rank, noun = (asked.group(1), asked.group(2)) if asked.group(1) else ("again", "")
    said = [" ".join(words(text)) for text in chain.stating]
    if any(re.search(rf"\b{rank}\b", text) for text in said):
        return None
    given = [re.search(rf"\b({ranks})\s+([a-z-]+)", text) for text in said]
    others = [(match.group(1), match.group(2)) for match in given if match]
    return (f"{rank} {noun}".strip(), *others[0]) if len(others) == len(chain.stating) else None


def _act_of_someone_else(chain: Chain) -> str:
    """Someone else the answer's act is told of in a relative clause or an aside ("her husband, Ivo Lant, a miller, who
    died in 1888" for "when did Ada Lant die?", "his son Ivo, born 1895", "Ada Lant, whose father had died in 1888"):
    the time or place goes with that person, not with the one asked about, whatever act the clause tells ("joined
    under Ivo Marr, who had been made captain in 1871" dates no joining)."""
    acts = {stem(act) for act in asked_acts(chain)}
    names = question_names(chain.question)
    if chain.kind not in ("date", "place", "number") or not names or not chain.stating:
        return ""
    name = r"([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*)"
    # "Ivo Lant, a miller, who died in 1888"; "his son Ivo, born 1895" (a participle right after the name)
    told = re.compile(rf"{name}(?:(?:,\s+[^,;]{{1,60}})?,\s+who\s+([^,;]*?)|,\s+((?:born|died|baptised|buried)\b"
                      rf"[^,;]*?)){re.escape(chain.answer)}")
    # "Ivo Lant, whose grandfather Ada had died in 1902": the clause tells of what "whose" owns, not of Ivo Lant
    owned = re.compile(rf"\bwhose\s+(?P<owned>[a-z]+(?:\s+{name[1:-1]})?)(?P<clause>[^,;]*?){re.escape(chain.answer)}")
    asked = stems_of(chain.question)
    others = []
    for text in chain.stating:
        if (whose := owned.search(text)) and any(stem(word) in acts for word in words(whose.group("clause"))) and \
                stem(whose.group("owned").split()[0]) not in asked:
            others.append(whose.group("owned"))
            continue
        match = told.search(text)
        if match is None or any(same_name(name_words(match.group(1)), name_words(name)) for name in names):
            return ""
        others.append(match.group(1))
    return others[0]


def _doer_of_another_act(chain: Chain) -> tuple[str, str] | None:
    """The act asked and the other act the answer does, when the cited sentences never state the act asked and name
    the answer only as the subject of another verb ("after the brig Gull Rose broke up" for "who chaired the
    meeting?", "Ivo Lant, who had commanded the Gull" for "who built the Gull?"): the sentence says what the answer
    did, and it is not what the question asks."""
    acts = asked_acts(chain)
    if chain.kind != "person" or not acts or not chain.stating or any(
            states(stem(act), said_in(text)) for act in acts for text in chain.stating):
        return None
    # "Ivo Lant chaired", or a clause on the answer: "Ivo Lant, who had commanded the Gull since 1890"
    following = [re.search(rf"\b{re.escape(chain.answer)}(?:,\s+who(?:\s+(?:had|has|was|were|is))?)?\s+([a-z]+)\b",
                           text) for text in chain.stating]
    verbs = [match.group(1) for match in following if match and (verb_shaped(match.group(1)) or
                                                                 match.group(1) in IRREGULAR_PASTS)]
    return (acts[0], verbs[0]) if len(verbs) == len(chain.stating) else None


def asked_acts(chain: Chain) -> tuple[str, ...]:
    """The verbs of the act the question asks of its answer: "who founded X?", "when did X open?", "where was X
    born?" (a past form that ends the question), "what was X renamed in 1980?" (the participle of a passive
    question). An act in a clause that describes the question's subject ("when the area where X is located became
    a state") is not asked of the answer, so it is not counted."""
    return _acts_asked(chain.question, chain.kind)


@lru_cache(maxsize=256)
def _acts_asked(asked: str, kind: str) -> tuple[str, ...]:
    """``asked_acts`` read once per question: the type, owner and commitment checks of one chain all ask it."""
    question = " ".join(words(asked))
    acts = []
    if (who := ASKS_WHO_DID.match(question)) and (verb_shaped(who.group("act")) or _handed(who)):
        acts.append(who.group("act"))
    if verb := asked_verb(Chain(question=asked, answer="", kind=kind, stating=())):
        acts.append(verb)
    last = re.findall(r"\b[a-z][a-z'’-]*(?=\W*$)", asked)
    tokens = words(asked)
    after_determiner = len(tokens) > 1 and tokens[-2] in DETERMINERS  # "open its doors": "doors" is a noun
    # "who built the steamer that Ivo Lant commanded?": a verb ending a clause on the thing acted on describes it
    describes_the_thing = bool(acts) and bool(who) and bool(re.search(r"\b(?:that|which|whom)\b", question))
    if last and (verb_shaped(last[0]) or irregular_form(last[0])) and not after_determiner and \
            not _ends_in_a_clause(tokens) and not describes_the_thing:
        acts.append(last[0])
    # "when was the ferry company set up?", "when did the forge close down?": a verb with its particle ends the
    # question, unless a clause or a time ("at the time the hut burned down") ends it
    own_clause = not any(token in CLAUSE_WORDS or token == "time" for token in tokens[1:])
    if len(tokens) > 1 and tokens[-1] in PARTICLES and (verb_shaped(tokens[-2]) or tokens[-2] in IRREGULAR_PASTS) \
            and own_clause and not describes_the_thing:
        acts.append(tokens[-2])
    if passive := ASKS_THROUGH_PASSIVE.match(asked[:1].lower() + asked[1:]):
        for word in re.findall(r"[\w'’-]+|,", passive.group("rest")):
            if word in CLAUSE_WORDS or word in PREPOSITIONS or word == ",":
                break  # the verb past them describes the subject ("was president when X opened", "the name of
                # the play written by Y")
            if word.islower() and verb_shaped(word):
                if word not in JUDGING:  # "which objects are considered false?" asks a class, not an act
                    acts.append(word)
                break
    return tuple(dict.fromkeys(act for act in acts if act not in STOPWORDS))


def _ends_in_a_clause(tokens: list[str]) -> bool:
    """The question's last verb belongs to a clause that describes something ("the county where X is located"): a
    clause word after the question's own auxiliary, and the clause's own auxiliary just before that verb (not "the
    man who was mayor of X born", where the clause ends at its noun)."""
    main = next((i for i, token in enumerate(tokens) if token in AUXILIARIES), None)
    if main is None or len(tokens) < 2:
        return False
    return any(i > main and token in CLAUSE_WORDS for i, token in enumerate(tokens)) and tokens[-2] in AUXILIARIES


def _other_act(chain: Chain) -> str:
    """The verb the answer goes with in the cited sentences, when that is another act than the one asked about
    (``engine.roles.nearest_verb``): "drew up the route in 1790 and supervised the works until it opened" states an
    opening but gives 1790 to the drawing. Judged only in sentences that state the asked act somewhere."""
    acts = {stem(act) for act in asked_acts(chain)}
    if not acts or chain.kind in VERDICT_KINDS:
        return ""

    def is_act(word: str) -> bool:
        return any(states(act, {stem(word)}) for act in acts)

    # the sentence's own subject does every act of its main clause ("Ada Pell spent her last years at Kesh, writing
    # a memoir"), but not one told in a relative clause on someone else (", who wrote ...")
    def own_act(text: str) -> bool:
        main = re.sub(r",\s+(?:who|whom|whose|which)\b[^,;.]*", "", text)
        return chain.kind == "person" and text.startswith(chain.answer) and any(is_act(word) for word in words(main))

    stating = [text for text in chain.stating if not own_act(text)]
    nearest = [verb for text in stating if (verb := nearest_verb(text, chain.answer, is_act)) is not None]
    return nearest[0] if nearest and not any(is_act(verb) for verb in nearest) else ""


_CLAUSES = re.compile(r"[;:,]\s+|\s+(?:but|while|whereas)\s+|\s+[–—-]\s+")  # not "and": "two hundred and sixty"
_COUNT = re.compile(rf"(?<![\w.,])\d[\d,]*(?![\w.,]\d)|\b{COUNT_WORD}(?:-\w+)?\b", re.IGNORECASE)


def _act_on_another(chain: Chain) -> tuple[str, str]:
    """The act the question asks of a named thing ("when did the parish hire the Kesh Hall?"), when every cited sentence
    does that act (or its converse) to another name set right after its verb ("Hired the Orlby Institute in 1958") and
    names the question's thing nowhere: the sentence dates, counts or places that other thing's hire. The act as
    written and the other name, or two empty strings."""
    acts = {stem(act) for act in asked_acts(chain)}
    tokens = words(chain.question)
    at = next((i for i, token in enumerate(tokens) if stem(token) in acts), None)
    if at is None or not chain.stating:
        return "", ""
    # the thing acted on: after an active verb ("did they hire the Kesh Hall"), before a passive one ("was the Kesh
    # Hall hired"); never the doer after "by"
    passive = bool({"was", "were", "is", "are", "been"} & set(tokens[:at]))
    side = " ".join(tokens[:at] if passive else tokens[at + 1:])
    things = [name for name in question_names(chain.question) if " ".join(words(name)) in side
              and f"by {' '.join(words(name))}" not in side]
    if not things:
        return "", ""
    told = []
    for text in chain.stating:
        if any(mentioned(thing, [text]) for thing in things):
            return "", ""
        done = [(verb.group(0).lower(), spans[0]) for verb in re.finditer(r"[A-Za-z]+", text)
                if any(states(act, {stem(verb.group(0).lower())}) for act in acts)
                and not PASSIVE_BEFORE.search(text, 0, verb.start())  # "was renamed Gull Marine": no object
                and (spans := name_spans(re.sub(r"^\s+(?:the\s+)?", "", text[verb.end():])[:80]))
                and re.match(r"\s+(?:the\s+)?" + re.escape(spans[0]), text[verb.end():])]
        if not done:
            return "", ""
        told.append(done[0])
    return told[0]


def _another_kind_of(chain: Chain) -> tuple[str, str]:
    """A noun the question qualifies by another noun ("who ran the tea tent?"), when every cited sentence gives that
    noun another qualifier ("Ran the beer tent in 1950") and never says the question's: the sentence tells of
    another of its kind. The question's pair and the sentence's, or two empty strings."""
    tokens = words(chain.question)
    # "ran the tea tent at ...": a noun phrase a determiner opens and a function word (or the end) closes, after no
    # auxiliary ("did the school close in ...?" ends its subject at the verb)
    pairs = [(first, second) for index, (before, first, second, after) in
             enumerate(zip(tokens, tokens[1:], tokens[2:], tokens[3:] + [""]))
             if before in DETERMINERS and (index == 0 or tokens[index - 1] not in AUXILIARIES)
             and (not after or after in STOPWORDS) and first not in STOPWORDS and second not in STOPWORDS
             and is_a_noun(first) and is_a_noun(second) and not verb_shaped(first)]
    for qualifier, noun in pairs:
        told = []
        for text in chain.stating:
            said = words(text)
            others = [said[i - 1] for i in range(1, len(said)) if inflected_alike(said[i], noun) and
                      said[i - 1] not in STOPWORDS and said[i - 1] != qualifier and is_a_noun(said[i - 1])]
            if not others or qualifier in said or any(inflected_alike(word, qualifier) for word in said):
                break
            told.append(others[0])
        else:
            if told:
                return f"{qualifier} {noun}", f"{told[0]} {noun}"
    return "", ""


def _post_held_by_another(chain: Chain) -> str:
    """The post a "who was the secretary ...?" question asks for, when every cited sentence has the post act but
    sets it nowhere near the answer ("The Treasurer wrote that the prize went to Ivo Marr"): the post is another's
    there, unnamed, and the answer is someone the sentence tells of. Near is within ``POST_REACH`` words, as "Ada Pell,
    secretary", "Secretary: Ada Pell" and "Ada Pell was made secretary" set them."""
    asked = ASKS_WHO_WAS.match(" ".join(words(chain.question)))
    noun = asked.group("phrase").split()[-1] if asked else ""
    if chain.kind != "person" or not noun or not names_a_person(noun) or not chain.stating or \
            not re.search(rf"\b{re.escape(noun)}\b", chain.question):  # "who is the Gull ...?" asks of a name
        return ""
    named = words(chain.answer)
    for text in chain.stating:
        tokens = words(text)
        posts = [i for i, token in enumerate(tokens) if stem(token) == stem(noun)]
        at = [i for i in range(len(tokens)) if tokens[i:i + len(named)] == named]
        # the post acts in the sentence ("The Secretary reported ..."), and its holder is not named beside it
        acting = [post for post in posts if post + 1 < len(tokens) and tokens[post + 1] not in BE_FORMS and (
            verb_shaped(tokens[post + 1]) or tokens[post + 1] in IRREGULAR_PASTS)]
        if not acting or not at or any(-POST_REACH <= post - start <= len(named) + POST_REACH
                                       for post in posts for start in at):
            return ""
    return noun


def _anothers_thing(chain: Chain) -> tuple[str, str]:
    """The thing a question asks of its owner ("when did Kesh's smithy shut?"), when no cited sentence names that
    owner and each gives the thing to another name: "Orlby kept its own smithy, which shut in 1961", "Orlby's
    smithy", "the smithy at Orlby". That is the other's smithy. The other name and the noun, or two empty
    strings."""
    asked = re.search(rf"\b(?P<owner>{NAME_WORD}(?:\s+{NAME_WORD})*)['’]s\s+(?P<owned>[a-z]+(?:\s+[a-z]+)?)\b",
                      chain.question)
    if not asked or not chain.stating or asked.group("owner").lower() in WH_WORDS or any(
            mentioned(asked.group("owner"), [text]) for text in chain.stating):
        return "", ""
    for noun in (word for word in asked.group("owned").split() if is_a_noun(word)):  # "old smithy": either
        others = [_owner_given(noun, text) for text in chain.stating]
        if all(others) and not any(mentioned(asked.group("owner"), [other]) for other in others):
            return others[0], noun
    return "", ""


def _owner_given(noun: str, text: str) -> str:
    """The name the text gives the noun's thing to ("Orlby's smithy", "Orlby kept its own smithy", "the smithy at
    Orlby"), or ""."""
    other, owned = rf"({NAME_WORD}(?:\s+{NAME_WORD})*)", re.escape(noun)
    given = (rf"\b{other}['’]s\s+(?:[a-z]+\s+)?{owned}s?\b",
             rf"\b{other}\s+(?:had|has|have|kept|ran)\s+(?:its|his|her|their)\s+own\s+{owned}\b",
             rf"\b[Tt]he\s+{owned}\s+(?:at|of|in)\s+{other}")
    return next((match.group(1) for pattern in given for match in re.finditer(pattern, text)), "")


def _owner_acting(chain: Chain) -> tuple[str, str]:
    """The one whose relative the question asks to have acted ("which cheese did Ivo Marr's apprentice first make?",
    "... varnished by Ada Pell's niece"), when every cited sentence sets that one, not the relative, as the doer:
    after "by", in a field a kind of person labels ("Maker: Ivo Marr"), or opening a clause before its verb; and
    no cited sentence names the relation. What Ivo Marr did himself is not what his apprentice did. The owner and
    the relation's noun, or two empty strings."""
    asked = re.search(rf"\b(?:by|did|does|do|had|has)\s+(?P<owner>{NAME_WORD}(?:\s+{NAME_WORD})*)['’]s\s+"
                      r"(?P<noun>[a-z]+)\b", chain.question)
    if not asked or not names_a_person(asked.group("noun")) or not chain.stating:
        return "", ""
    owner, noun = asked.group("owner"), asked.group("noun")
    if any(states(stem(noun), said_in(text)) for text in chain.stating + chain.hops):
        return "", ""
    name = re.escape(owner)
    doer = re.compile(rf"\bby\s+(?:[a-z]+\s+){{0,2}}{name}\b|"
                      rf"(?:^|[;,.—]\s*){name}\s+(?:{ADVERB_BEFORE}\s+)?(?P<verb>[a-z]+)\b|"
                      rf"(?:^|;\s*)(?P<label>[A-Za-z]+):\s*{name}\b")

    def acting(text: str) -> bool:
        return any(match.group("label") and names_a_person(match.group("label").lower()) or
                   match.group("verb") and (verb_shaped(match.group("verb")) or known_verb(match.group("verb"))) or
                   not match.group("label") and not match.group("verb") for match in doer.finditer(text))

    return (owner, noun) if all(acting(text) for text in chain.stating) else ("", "")


def _act_counted_otherwise(chain: Chain) -> str:
    """Another count that a clause of the cited sentence gives with the act asked, when the answer's own clause tells
    no such act: "twelve boys on the register, but only three of them finished their time" counts those who
    finished as three. Only for a count: the sentence names both, and says which one the act is of."""
    acts = past_verbs_asked(chain.question)
    if chain.kind != "number" or not acts:
        return ""
    for text in chain.stating:
        clauses = _CLAUSES.split(text)
        told = [clause for clause in clauses if any(states(act, stems_of(clause)) for act in acts)]
        if not told or any(chain.answer in clause for clause in told):
            continue
        others = [count.group(0) for clause in told for count in _COUNT.finditer(clause)
                  if count.group(0).lower() not in chain.answer.lower().split() and not YEAR.fullmatch(count.group(0))]
        if others:
            return others[0]
    return ""


def _counted_for_another(chain: Chain) -> tuple[str, str]:
    """Another count of the cited sentence whose clause says more of what the question asks than the answer's own
    clause does ("men's ward 20 beds, women's ward 12 beds" for "how many beds in the women's ward?"): one sentence,
    two counts, each of the thing its clause names. The other count, and a word of the question only its clause
    says."""
    if chain.kind != "number":
        return "", ""
    asked = stems_of(chain.question)
    for text in chain.stating:
        clauses = _CLAUSES.split(text)
        own = next((clause for clause in clauses if chain.answer in clause), "")
        said = stems_of(own) & asked
        for clause in clauses:
            counts = [count.group(0) for count in _COUNT.finditer(clause) if not YEAR.fullmatch(count.group(0))]
            more = stems_of(clause) & asked
            if own and clause != own and counts and said < more:
                return counts[0], sorted(more - said)[0]
    return "", ""


def act_years(text: str, acts: set[str], names: tuple[str, ...] = ()) -> list[str]:
    """The years a sentence gives the asked acts in their own clauses ("a millwright born at Kesh in 1851", "moved
    the patients to Orren in 1881", "by 1850 he had bought it"): what the sentence dates those acts to. An act in a
    bracket has the bracket for its clause ("refitted 1881 (launched 1874)"); a clause whose subject is a name other
    than the question's ``names`` tells that one's act ("the Wren was launched 1881, the Kite refitted 1881")."""
    years = []
    for word in re.finditer(r"[A-Za-z]+", text):
        if not any(states(act, {stem(word.group(0).lower())}) for act in acts):
            continue
        head, tail = re.split(r"[,;:—]", text[:word.start()])[-1], re.split(r"[,;:—]", text[word.end():])[0]
        if (opened := head.rfind("(")) > head.rfind(")"):
            head, tail = head[opened + 1:], tail.split(")", 1)[0]
        # the act's own clause, after it and before it; a bracket before it dates its subject ("Ada Pell (1878–1960)")
        before = re.sub(r"\([^)]*\)", " ", head)
        clause = before + " " + tail
        if names and name_spans(before) and not any(mentioned(name, [clause]) for name in names):
            continue
        if year := re.search(r"\b1\d{3}\b|\b20\d{2}\b", clause):
            years.append(year.group(0))
    return years


def _act_dated_otherwise(chain: Chain) -> tuple[str, str] | None:
    """The act a "when" question asks about, when every cited sentence gives that act a year of its own in its
    clause and the answer is another year of the sentence ("engineer from 1879, ... born at Kesh in 1851"): the
    answer dates something else the sentence tells."""
    acts = {stem(act) for act in asked_acts(chain)}
    if chain.kind != "date" or not acts or not chain.stating:
        return None
    found = []
    names = tuple(question_names(chain.question))
    for text in chain.stating:
        years = act_years(text, acts, names)
        if not years or any(year in chain.answer for year in years):
            return None
        found.append(years[0])
    return ", ".join(sorted(acts)), found[0]


def _the_described_one(chain: Chain) -> str:
    """The one a question describes rather than asks for: by an act done to a named thing ("under whom did the
    designer of the Gull train?"), when a cited sentence names the answer as that act's agent ("the Gull was
    designed by Ada Pell"); or by a noun and a clause ("who took over from the ferry foreman with whom Y
    quarrelled?"), when the cited sentence calls the answer by that noun ("the ferry foreman, Ivo Lant"). The
    answer is then the way to the one asked for. Not when the question asks who that one is ("who was the designer
    of the Gull?")."""
    lowered = " ".join(words(chain.question))
    if chain.kind != "person" or re.match(r"(?:who|whom) (?:was|is|were|are) ", lowered):
        return ""
    clause = DESCRIBED_BY_CLAUSE.search(lowered)
    if clause and any(re.search(rf"\b{re.escape(clause.group('noun'))},?\s+{re.escape(chain.answer)}\b", text,
                                re.IGNORECASE) for text in chain.stating):
        return clause.group("noun")
    described = DESCRIBED_AGENT.search(chain.question)
    if described is None:
        return ""
    agent, thing = described.group("agent"), described.group("thing")

    def is_act(word: str) -> bool:
        return states(stem(agent), {stem(word)})

    by_answer = re.compile(rf"\b(\w+)\s+by\s+(?:(?:the|a|an)\s+)?(?:[a-z]+\s+){{0,3}}{re.escape(chain.answer)}")
    # ... or in a field the agent's noun labels, on the thing's row or page: "Show: the Gull; Designer: Ada Pell"
    labelled = re.compile(rf"\b(\w+)[*_]*:[*_]*\s+{re.escape(chain.answer)}\b")
    for text in chain.stating + chain.hops:  # the answer on the act's agent side: "designed by the architect Ada Pell"
        if thing in text and (any(is_act(match.group(1)) for match in by_answer.finditer(text)) or
                              relative_act(text, chain.answer, is_act) or
                              any(stem(match.group(1).lower()) == stem(agent) for match in labelled.finditer(text))):
            return f"{agent} of {thing}"
    return ""


def _inner_relation(chain: Chain) -> str:
    """The inner relation of a nested question ("the spouse of the director of X"), when the cited sentence puts the
    answer next to it ("directed by Y") and states no outer one: Y is the director, one hop short of the spouse."""
    nested = NESTED_RELATION.search(" ".join(words(chain.question)))
    if nested is None:
        return ""
    outer, inner = stem(nested.group("outer")), stem(nested.group("inner"))
    first_word = words(chain.answer)[:1]
    for text in chain.stating:
        if states(outer, stems_of(text)):
            continue
        tokens = words(text)
        answer_at = [i for i, token in enumerate(tokens) if [token] == first_word]
        inner_at = [i for i, token in enumerate(tokens) if states(inner, {stem(token)})]
        if any(abs(a - b) <= RELATION_REACH for a in answer_at for b in inner_at):
            return nested.group("inner")
    return ""


def _restated_subject(chain: Chain) -> str:
    """The question's own description of a thing, when the cited sentence says the answer is that thing ("What
    kind of charter did a retired harbour pilot draft?" answered by "Ada Pell", who "is a retired harbour pilot"):
    the answer is then what the question speaks of, not what it asks for (a "kind of charter"). Only a question that
    names what it asks for ("what/which <noun>") is read so, and only when the sources call the answer by some
    other noun: "who was the first mayor of X" is rightly answered by someone who "was the first mayor of X"."""
    asked = asked_phrase(chain.question)
    if not asked:
        return ""
    question_stems = {stem(token.strip(",;:?!\"“”")) for token in phrase_tokens(chain.question)}
    for text in chain.stating + chain.read:  # the cited sentence, or the sources read, say what the answer is
        phrase = said_to_be(chain.answer, text)
        said = {stem(word) for word in phrase}
        if said and said <= question_stems and stem(asked[-1]) not in said:
            return " ".join(phrase)
    return ""


def _asked_thing_named_otherwise(chain: Chain) -> tuple[str, str] | None:
    """The noun the question asks for ("what was the name of the shop ...?") and the name a cited sentence sets
    beside it ("his own shop, Pell & Sons, in the Shambles"), when that name is not the answer: the sentence itself
    says what the thing is called."""
    asked = asked_phrase(chain.question)
    if not asked:
        return None
    # a field the asked noun labels ("Terms: 30 days" on a row, for "which credit terms ...?") holds the answer
    labelled = re.compile(rf"(?:^|[;\n]\s*)(?:[\w'’-]+\s+)?{re.escape(asked[-1])}s?:\s*(?P<value>[^;\n]+)",
                          re.IGNORECASE)
    for text in chain.stating:
        for field in labelled.finditer(text):
            value = field.group("value").strip(" .")
            if value and chain.answer.lower() not in value.lower():
                return asked[-1], value
    for text in chain.stating:
        for name in named_beside(asked[-1], text):
            if not any(same_name(name_words(name), name_words(other))  # the question's own thing is what it asks
                       for other in [chain.answer, *question_names(chain.question)]):  # about, not for
                return asked[-1], name
    return None


def named_beside(noun: str, text: str) -> list[str]:
    """The names the text sets right after the noun, as what that thing is called: plainly, after a comma, or in
    brackets ("his own shop, Pell & Sons", "the Tuesday club (Owl Hour)")."""
    if not noun:
        return []
    beside = re.compile(rf"\b{re.escape(noun)}s?(?:,\s+|\s+\(?)(?=[A-Z\"“])")
    found = []
    for match in beside.finditer(text):
        spans = name_spans(text[match.end():])
        if spans and text[match.end():].lstrip("\"“").startswith(spans[0]):
            found.append(spans[0])
    return found


def _owner_of_the_asked(chain: Chain) -> str:
    """The noun the question asks for ("which track ...?"), when every cited sentence names the answer only as that
    thing's owner ("Ada Pell's new track"): the owner is not the thing owned."""
    asked = asked_phrase(chain.question)
    if not asked or not chain.stating:
        return ""
    noun = stem(asked[-1])
    owning = re.compile(rf"\b{re.escape(chain.answer)}['’]s((?:\s+[\w-]+){{1,{OWNED_REACH + 1}}})")
    for text in chain.stating:
        owned = [word for match in owning.finditer(text) for word in match.group(1).split()]
        if not owned or not _only_owner(chain.answer, text) or not any(stem(word) == noun for word in owned):
            return ""
    return asked[-1]


def _relative_of(name: str, sentence: str) -> str:
    """The kind of person the sentence makes someone of the name's ("named after Ada Pell's mother": "mother"), or
    ""."""
    owned = re.search(rf"\b{re.escape(name)}['’]s\s+(?:[a-z]+\s+)?([a-z]+)\b", sentence)
    return owned.group(1) if owned and names_a_person(owned.group(1)) else ""


def _only_owner(name: str, sentence: str) -> bool:
    """The sentence names ``name`` only as a possessive ("Ada Pell's early plays"): what Ada Pell has, not what she
    did."""
    mentions = re.findall(rf"\b{re.escape(name)}(['’]s\b)?", sentence)
    return bool(mentions) and all(mentions)


def _only_opens_sentences(word: str, texts: tuple[str, ...]) -> bool:
    """A common word capitalised only because it opens a sentence, where any word is: a sentence adverb set off by a
    comma ("Unusually, the village had a mayor", "Inside, it was dark"), the noun heading a phrase with "of"
    ("Holders of the mail contract:"), or a word setting the scene before a preposition ("Late on Tuesday"). Every
    time the texts write the word, it is written so."""
    found = [match.start() for text in texts for match in re.finditer(rf"\b{re.escape(word)}\b", text)]
    start = r"(?:^|[.!?]\s+)[*_#>\s-]*"  # a sentence's or a line's start, past the marks notes set there ("**")
    opening = [text for text in texts for match in re.finditer(rf"{start}{re.escape(word)},", text, re.M)]
    heading = [text for text in texts for match in re.finditer(rf"{start}{re.escape(word)}\s+of\b", text, re.M)]
    # "Late on Tuesday night the Gull ...", "Early in May ...": a word that opens its sentence on a time or place
    # phrase sets the scene, as a name there would not
    scene = [text for text in texts for match in re.finditer(
        rf"{start}{re.escape(word)}\s+(?:{'|'.join(PREPOSITIONS - {'of'})})\b", text, re.M)]
    # "Inside, it was dark": a word set off before a pronoun that opens the clause is an adverb, since nothing
    # stands in apposition to a name as a pronoun
    adverbial = [text for text in texts for match in re.finditer(
        rf"{start}{re.escape(word)},\s+(?:it|he|she|they|we|there)\b", text, re.M)]
    # "Retired after the 1970 regatta.": the verb a subjectless note opens on
    fragment = [text for text in texts for match in re.finditer(rf"{start}{re.escape(word)}\s+(\S+)", text, re.M)
                if opens_on_its_verb(word, match.group(1))]
    return bool(found) and (word.lower().endswith("ly") and len(opening) == len(found) or
                            len(heading) == len(found) or len(scene) == len(found) or len(adverbial) == len(found) or
                            len(fragment) == len(found))


def only_life_years(span: str, sentence: str, question: str) -> bool:
    """The span is a year the sentence gives only as one end of someone's life ("Ada Pell (1878–1960) founded the
    players in 1919"), and the question asks about no birth, death or age: that year dates nothing asked."""
    if LIFE_WORDS & stems_of(question):
        return False
    years = re.findall(r"\d{3,4}", span)
    in_lives = [year for match in _LIFE_SPAN.finditer(sentence) for year in match.groups()]
    return bool(years) and all(year in in_lives and sentence.count(year) == in_lives.count(year) for year in years)


def _outside_the_country(answer: str, question: str) -> str:
    """The country a "where in <country> ...?" question asks within, when the answer is another country ("Chile"
    for "where in Norway did he settle?"): a place in it is asked, not a place elsewhere."""
    within = re.search(r"\bwhere in ((?:[A-Z][\w'’-]*\s?)+)", question, re.IGNORECASE)
    asked = countries_named(within.group(1).strip()) if within else frozenset()
    named = countries_named(answer)
    return within.group(1).strip() if within and asked and named and not named & asked else ""


def _only_as_a_premises(name: str, read: tuple[str, ...]) -> bool:
    """Every mention of the name is a possessive, and one at least owns nothing after it ("rehung at St Orla's after
    the fire", "married at Pell's, the chapel"): the name of a church, a shop or a house, not a person's."""
    mentions = list(re.finditer(rf"\b{re.escape(name)}\b(?P<owned>['’]s\b)?(?:\s*(?P<next>[\w,.;:)]+))?",
                                "\n".join(read)))
    return bool(mentions) and all(mention.group("owned") for mention in mentions) and any(
        not mention.group("next") or not mention.group("next")[:1].isalnum() or mention.group("next").lower() in
        STOPWORDS for mention in mentions)


def a_person(name: str, read: tuple[str, ...]) -> bool:
    """The name's own page (a source read titled by it, or by a full name it ends: "Pell" alone is of the person
    whose page is "Sir Ada Pell") speaks of its subject as "she" or "he", or a source gives the name life dates or a
    birth ("Ada Pell (1838–1915)", "Ada Pell (born 1901)", "Ada Pell was born in"), a personal title ("Mr Ada
    Pell"), a marriage ("she wed Ada Pell"), a nickname's place ("Edith "Dot" Pell"), gives it as a birth name
    ("born Ada Pell", "née Ada Pell"), or sets it beside a noun for a kind of person ("her uncle Ada Pell", "the
    carter Ada Pell", "Treasurer: Ada Pell", "Ada Pell, the carter", "her niece is Ada Pell"): a person."""
    fuller = r"(?:[A-Z][\w'’.-]*\s+)*" if len(name.split()) == 1 else ""
    own = [text for text in read if re.match(rf"{fuller}{re.escape(name)}(?:\. | \()", text)]
    dated = re.compile(rf"\b{re.escape(name)}[*_]*(?:{LIFE_DATES})")
    # "Mr Ada Pell", "Dr. Ada Pell": a title only people bear ("Lady" and "Sir" also name engines and ships)
    titled = re.compile(rf"\b{PERSONAL_TITLE}\.?\s+{re.escape(name)}\b")
    # "Ada Lind, born Ada Marr", "née Ada Marr": the name someone was given at birth (a place is born *in*)
    birth_name = re.compile(rf"\b(?:born|née|nee)\s+{re.escape(name)}\b")
    # "her uncle Silas Marr", "the carter, Ivo Marr": a name set beside a noun for a kind of person is that person's
    kind_of_person = re.compile(rf"\b(?i:{'|'.join(DETERMINERS)})\s+([a-z]+),?\s+{re.escape(name)}\b")
    # "Edith "Dot" Pell": a nickname set between a first name and a surname
    nickname = re.compile(rf"\b[A-Z][\w'’-]+\s+[\"“‘']{re.escape(name)}[\"”’']\s+[A-Z]")
    # "she wed Ivo Marr", "married Ada Pell in 1901": one marries a person
    spouse = re.compile(rf"\b(?:married|marries|marry|wed|weds|wedded)\s+{re.escape(name)}\b")
    # "Treasurer: Ada Pell": a field labelled by a post or a kind of person gives a person
    post_field = re.compile(rf"(?:^|\n)[\W\d]*([A-Za-z]+)[*_]*:[*_]*\s+{re.escape(name)}\b")
    # "Ivo Marr (the coal merchant)", "Ivo Marr, the carter": a name in apposition to a kind of person; "her son is
    # Ivo Marr", "Ivo Marr = Ada's nephew": a name equated with one. Not after a preposition of place: "born at
    # Kesh, the daughter of a cooper" describes who was born
    beside = re.compile(rf"\b{re.escape(name)}\s*[,(]\s*(?:the|an?|his|her|their)\s+([a-z]+(?:\s+[a-z]+){{0,2}})\b|"
                        rf"\b([a-z]+)\s+(?:is|was)\s+{re.escape(name)}\b|"
                        rf"\b{re.escape(name)}\s+(?:=|is|was)\s+(?:{NAME_WORD}['’]s|the|an?|his|her|their)\s+"
                        r"(?:[a-z]+\s+)?([a-z]+)\b(?!\s+[a-z])")  # the noun that ends the phrase: "a private house"
    # "## Ada Pell\nSecond wife of Ivo Marr.", "## Ivo Marr\nFarrier at the Kesh forge.": a section the name heads,
    # opening on a kind of person
    heading = re.compile(rf"#+\s*{re.escape(name)}\s*\n+\s*(?:[A-Z][\w'’-]*['’]s\s+)?"
                         r"(?:(?:the|an?|his|her|their)\s+)?([A-Za-z]+)(?:\s+([a-z]+))?")
    if any(names_a_person(word.lower()) for text in read for match in heading.finditer(text)
           for word in match.groups() if word):
        return True
    if any(names_a_person(match.group(1)) for text in read for match in kind_of_person.finditer(text)) or any(
            names_a_person(match.group(1)) for text in read for match in post_field.finditer(text)) or any(
            names_a_person(word) for text in read for match in beside.finditer(text)
            if not (match.group(1) and PLACED_BEFORE.search(text, 0, match.start()))
            for word in (match.group(1) or match.group(2) or match.group(3)).split()):
        return True
    if re.match(rf"{PERSONAL_TITLE}\.?\s+[A-Z]", name):  # the name carries the title itself: "Mr Hale"
        return True
    return any(PERSONAL_SUBJECT.search(text) for text in own) or any(
        dated.search(text) or titled.search(text) or birth_name.search(text) or spouse.search(text) or
        nickname.search(text) for text in read)


def aliases_in(sentence: str) -> list[str]:
    """The names a sentence gives something as what it is called ("the meadow everybody called Long Acre",
    "renamed her Gull Rose"), as ``is_alias`` reads them."""
    given = re.finditer(rf"{ALIAS_WORDS}(?:\s+(?:her|him|it|them))?\s+{NAME_MARKS}(?=[A-Z])", sentence)
    return [spans[0] for match in given if (spans := name_spans(sentence[match.end():]))
            and sentence[match.end():].lstrip("\"“'*_").startswith(spans[0]) and is_alias(spans[0], sentence)]


def is_alias(name: str, sentence: str) -> bool:
    """The sentence introduces the name as what something is called ("the press, known locally as Iron Mule",
    "renamed her Gull Rose"): it names the thing the sentence is about, so it answers "what is it called", not "who
    built it". "A saddler named Bo Reed" only introduces someone by name: that is not what a thing is called."""
    aliases = re.finditer(rf"{ALIAS_WORDS}(?:\s+(?:her|him|it|them))?\s+{NAME_MARKS}{re.escape(name)}", sentence)
    return any(not re.search(r"\b(?:an?|one)\s+[\w-]+\s+$", sentence[:alias.start()], re.IGNORECASE)
               for alias in aliases)


def done_by(span: str, text: str, acts: frozenset[str]) -> bool:
    """The text names the span as who did an act of ``acts`` (stems), after that act's "by" ("built by Ivo Marren
    in his shed at Orrinby", "drawn up by the town clerk, Ada Pell"): the doer, which answers "who", never "where"
    or "when", however near the act it stands."""
    # a year may stand between the act and its "by": "varnished 1936 by Ada Pell"
    agent = re.compile(rf"\b([\w'’-]+)\s+(?:(?:in\s+)?{YEAR.pattern}\s+)?by\s+"
                       rf"(?:the\s+(?:[a-z]+\s+){{0,2}}[a-z]+,?\s+)?{re.escape(span)}\b")
    return any(stem(match.group(1).lower()) in acts for match in agent.finditer(text))


def only_a_reference(span: str, text: str) -> bool:
    """Every mention of the span in the text points the reader to another note ("(see "The Gedney Works")"), or
    opens a bracketed citation with its date or page ("the sale notice (Orlby Courier, June 1968)"): the title of
    a note or where the words were printed, not something the sentence says."""
    mentions = [match.start() for match in re.finditer(re.escape(span), text)]
    referred = [match.start() for match in re.finditer(rf"\bsee\s+(?:also\s+)?[\"“]?(?=\[*{re.escape(span)})",
                                                        text, re.IGNORECASE)]
    cited = [match.start() for match in re.finditer(  # a year alone, never a span of years (a life's dates)
        rf"\((?={re.escape(span)},\s+(?:(?:\d{{1,2}}\s+)?(?:{MONTH_OPENINGS})[a-z]*\.?\s+)?\d{{4}}\)|"
        rf"{re.escape(span)},\s+pp?\.\s*\d)", text)]
    return bool(mentions) and len(referred) + len(cited) >= len(mentions)


def only_an_authority(span: str, text: str, question: str) -> bool:
    """Every mention of the span names whose word a statement is ("the border, according to the Hale Charter"): the
    authority for the value, not the value, unless the question asks whose word it is ("according to whom?")."""
    if re.search(r"\baccording to (?:whom|what|which)\b", question, re.IGNORECASE):
        return False
    mentions = [match.start() for match in re.finditer(re.escape(span), text)]
    cited = re.findall(rf"\baccording to\s+(?:the\s+)?(?={re.escape(span)})", text, re.IGNORECASE)
    return bool(mentions) and len(cited) >= len(mentions)


def named_as(name: str, texts: tuple[str, ...]) -> str:
    """The common noun every text sets between "the" and the name ("the schooner Gull Rose"): what the name is a
    name of; "" when a text names it otherwise."""
    pattern = re.compile(rf"(?<![\w'’-])(?:the\s+([a-z]+)\s+)?{re.escape(name)}\b")
    nouns = [match.group(1) or "" for text in texts for match in pattern.finditer(text)]
    return nouns[0] if nouns and len(set(nouns)) == 1 and nouns[0] not in STOPWORDS else ""


def article_share(name: str, texts: tuple[str, ...]) -> float:
    """The share of the name's mentions in the texts written right after "the" ("the Gull Rose was launched"): a
    person's name takes no article, a ship's, a building's or a firm's does. An honorific that takes one ("the
    Reverend Ivo Lant") keeps a person's."""
    if name.split()[0].lower().strip(".") in HONORIFICS:
        return 0.0
    pattern = re.compile(rf"(?<![\w'’-])(\w+\s+)?{re.escape(name)}\b")
    before = [(match.group(1) or "").strip().lower() for text in texts for match in pattern.finditer(text)]
    return sum(word == "the" for word in before) / len(before) if before else 0.0


def place_share(name: str, texts: tuple[str, ...]) -> float:
    """The share of the name's mentions in the texts that follow a place preposition ("in", "at", "near", "the
    slopes of", "from the top of"): a name mostly read after one is where things happen, not who does them. A name
    written as an owner ("in Ada Pell's hand") qualifies the noun after it, which is what the preposition governs."""
    pattern = re.compile(rf"(\w+)\s+(?:the\s+(?:[a-z]+\s+of\s+)?|of\s+)?{re.escape(name)}\b(?!['’]s?\b)")
    before = [match.group(1).lower() for text in texts for match in pattern.finditer(text)]
    # "Born: 1799, Kesh", "d. 3 May 1861, Orren": where a life's event took place, after its date
    placed = sum(len(re.findall(rf"{LIFE_EVENT.pattern}[^.;:\n]{{0,24}}?\d{{4}},\s+{re.escape(name)}\b(?!['’]s?\b)",
                                text)) for text in texts)
    return (sum(word in PLACE_PREPOSITIONS for word in before) + placed) / (len(before) + placed) if before or placed \
        else 0.0
