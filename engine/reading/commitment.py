"""Whether the cited chain settles the question: a confidence for the short answer, and what is missing when it does
not.

A short answer is a commitment: shown in bold, it tells the reader the sources settle the question. The finder picks
the best span it can; this module asks, from general evidence features only, whether that span deserves the bold:

- type fit: the span is the kind of thing the question asks for. An explanation question ("why", "how does", "what
  does X return") has no name for an answer; a word that the sources also write in lower case, or a function word,
  is no proper name; a "who" answer that the sources only ever mention after "in"/"at"/"near" is a place.
- coverage: every name the question gives is mentioned by some source read (a question about a town no source
  mentions is not answered), and the cited chain (the answer sentence, the hops before it and the pages they come
  from) covers the question's words.
- subject: the sentence that states the answer is about something the question names, or about a bridge entity
  that a cited hop sentence ties to the question.

The factors multiply: each is 1 when the evidence is clean and falls towards 0 as it fails, so the confidence says
which test failed, and the commit threshold (a setting) decides when the bold is shown.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from satiate.engine.reading.kinds import (
    PLACE_NOUNS,
    asked_phrase,
    asks_for_a_period,
    classified_as,
    phrase_tokens,
    said_to_be,
)
from satiate.engine.reading.names import LEADING_NOISE, name_spans, written_in_lower_case
from satiate.engine.reading.verdicts import verdict_fit
from satiate.engine.roles import denies, name_words, nearest_verb, roles, same_name
from satiate.tools.lexicon import paraphrases, phrase_stems
from satiate.tools.text import ARTICLES, BE_FORMS, DO_FORMS, STOPWORDS, content_terms, hedged, stem, verb_shaped, words

# "what does X return / do / mean" (also with a context after it: "... do in a loop?", "... return when empty?"):
# the answer is a behaviour, not a name.
BEHAVIOUR = re.compile(r"^what (?:does|do|did)\b.*\b(?:return|returns|yield|yields|do|does|mean|means|raise|raises)"
                       r"(?:$|\s+(?:in|when|if|with|for|on|inside|after|before|while|during|once|given)\b)")
# "why ...", "how does ...": the answer is an explanation, not a name.
EXPLANATION = re.compile(
    r"^(?:why\b|how (?!many\b|much\b|old\b|long\b|tall\b|high\b|far\b|large\b|big\b|deep\b|wide\b|often\b)\w+)"
)
NAMED_KINDS = frozenset({"person", "place", "name"})
VERDICT_KINDS = frozenset({"yes_no", "choice"})  # answered by reading two sides (``reading.verdicts``)
ASKS_FOR_A_TIME = re.compile(
    r"\bwhen\s*$|\b(?:what|which) (?:years?|dates?|decades?|century|centuries|timeframe|period)\b")
ASKS_FOR_A_MEASURE = re.compile(r"\bhow (?:deep|tall|high|far|wide|long|large|big|heavy)\b")  # a number and its unit
DESCRIBED = re.compile(r"\b(?:that|which|who|whom|whose|where)\b")  # after the first word: a relative clause
# "who was the first woman to ...?": the noun that describes the one asked for, its last word
ASKS_WHO_WAS = re.compile(r"^who (?:was|is|were|are) (?:the |an? )?(?P<phrase>[a-z'’ -]+?)"
                          r"(?= (?:of|to|in|at|for|on|from|with|by|who|that|whose|when|while|after|before)\b|$)")
ASKS_WHO_DID = re.compile(r"^who (?P<act>\w+)\b")  # "who founded ...?": the one who acted is asked for
RELATION_REACH = 5  # words between a relation word and the name it is said of ("directed by the engineer Y")
# "when did the mill that Ada Pell built close?": after "did" and its subject, the last word is the verb asked about
# (also "which club did X merge with?": a noun after the question word, a preposition after the verb)
ASKED_VERB = re.compile(r"^(?:\w+ )?(?:when|where|why|how|what|which|who|whom)(?: [a-z]+)? (?:do|does|did) .*? "
                        r"(?P<verb>[a-z]+)(?: (?:with|to|from|for|into|in|on|at|by|about|against))?\W*$")
# "the spouse of the director of X": the outer relation is asked, the inner one leads to it.
NESTED_RELATION = re.compile(r"\bthe (?P<outer>\w+) of (?:the |an? )?(?P<inner>\w+) of\b")
ASKS_FOR_A_NAME = re.compile(r"\b(?:called|named|name|known as|nickname|title)\b")
# what follows a person's name: life dates ("(1838–1915)", "(born 1901)") or a birth ("was born")
LIFE_DATES = r"\s*\((?:born\s+|b\.\s*)?\d{3,4}\s*(?:[–-]|\))|,?\s+was\s+born\b"
PERSONAL_SUBJECT = re.compile(r"(?:^|[.!?]\s+)(?:She|He)\s")  # a sentence opening on "she" or "he"
PLACE_PREPOSITIONS = frozenset("in at near from into across slopes outside inside".split())
PLACE_SHARE = 0.5  # a "who" answer whose mentions follow a place preposition this often or more is a place
MISSING_NAME = 0.0  # a name the question gives that no source read mentions: nothing read is about it
NOT_A_NAME = 0.0  # a function word or a common word offered as a name
WRONG_KIND = 0.15  # a place offered for "who", a name offered for "when"/"how many"
LABEL_SHARE = 0.8  # a question name this share of the sources read carries is the collection's label
LABEL_MIN_SOURCES = 5  # ... judged only over this many sources or more
HEDGED = 0.5  # every cited sentence stating the answer doubts it or reports another's claim ("possibly 1903")
OFF_SUBJECT = 0.5  # the answer sentence names nothing of the question and no hop ties it to the question
NO_RELATION_SHARE = 0.5  # coverage at most, when the chain states none of the question's words besides its names
NAME_GAP = 2  # words that may stand between two words of a name in a text ("Ada B. Pell" mentions "Ada Pell")
NAME_WEIGHT = 2.0  # how much more a word of a name the question gives counts towards coverage than its other words
STEMMED_TEXTS = 4096  # texts whose stems are remembered: a run's pages and sentences, asked about again and again
VERB_WEIGHT = 1.5  # how much more a past form the question asks through ("designed", "closed") counts towards coverage
COVERAGE_POWER = 1.0  # how steeply the share of the question's words the chain covers lowers the confidence


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


@dataclass
class Commitment:
    """The confidence that the chain settles the question, with the factors behind it in plain words."""

    confidence: float
    established: list[str] = field(default_factory=list)  # what the chain does settle (the hop or entity found)
    missing: list[str] = field(default_factory=list)  # what it leaves open (an uncovered name or word)
    factors: dict[str, float] = field(default_factory=dict)

    def explanation(self) -> str:
        """One plain sentence for the report's lead when the answer is not committed: what the chain establishes,
        then what it leaves open."""
        said = [f"they establish {', '.join(self.established)}"] if self.established else []
        return "; ".join(said + self.missing) or "the cited sentences do not settle it"


def question_names(question: str) -> list[str]:
    """The names the question gives, one by one ("A and B" are two names, "Tarrow's" is "Tarrow")."""
    found = []
    for span in name_spans(question):
        for part in re.split(r"\s+(?:and|or)\s+", span):
            tokens = re.sub(r"['’]s$", "", part).split()
            while tokens and tokens[0].lower() in LEADING_NOISE:
                tokens = tokens[1:]
            if tokens:
                found.append(" ".join(tokens))
    return list(dict.fromkeys(found))


def _named_nouns(chain: Chain) -> list[str]:
    """A name the question gives with the common noun it qualifies ("the Tarrow library"): that noun is the thing
    asked about, so sources that never mention it answer about another thing ("the Tarrow mill"). Not for a verdict,
    whose two sides are read on their own."""
    if chain.kind in VERDICT_KINDS:
        return []
    found = []
    for name in name_spans(chain.question):
        for match in re.finditer(rf"{re.escape(name)}\s+([a-z][a-z-]+)\b", chain.question):
            # after "did"/"does" the subject ends at the bare verb: "where did the Tarrow poet die?"
            awaits_verb = DO_FORMS & set(words(chain.question[:match.start()]))
            if match.group(1) not in STOPWORDS and not verb_shaped(match.group(1)) and not awaits_verb:
                found.append(f"{name} {match.group(1)}")
    return found


def _stems(text: str) -> set[str]:
    """Stems of the content words, a possessive "'s" dropped ("Tarrow's mill" speaks of Tarrow)."""
    return set(_stem_set(text))


@functools.lru_cache(maxsize=STEMMED_TEXTS)
def _stem_set(text: str) -> frozenset[str]:
    return frozenset(_sequence(text))


def _said(text: str) -> set[str]:
    """What a text says, for ``states``: its stems and the stems of its two-word phrases ("set up", "passed away")."""
    return _stems(text) | phrase_stems(text)


def states(term: str, said: set[str]) -> bool:
    """Whether stems ``said`` state a question's stem: itself, the verb of an agent noun ("singer" is stated by
    "sung", "writer" by "written", "director" by "directed"), or a verb that shares its usual sense ("founded" is
    stated by "established", "married" by "wed": ``tools.lexicon``)."""
    forms = {term}
    if len(term) > 4 and term.endswith(("er", "or")):
        forms |= {stem(term[:-2]), stem(term[:-2] + "e")}
    return any(form in said or paraphrases(form) & said for form in forms)


def mentioned(name: str, texts: list[str], together: bool = True) -> bool:
    """Whether one text holds every content word of the name together: in order, at most ``NAME_GAP`` words apart
    ("Harriet Pell opened a school for mill children" does not mention "Pell Mill"). A name with the noun it
    qualifies ("the Tarrow library") is read about when one text has both, ``together`` or not."""
    wanted = _stems(name) or {stem(w) for w in words(name)}
    return any(wanted <= _stems(text) and (not together or _together(_sequence(name), _sequence(text)))
               for text in texts)


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


def type_fit(chain: Chain) -> tuple[float, str]:
    """How well the span is the kind of thing the question asks for, and why not when it is not."""
    question = " ".join(words(chain.question))
    if chain.kind in VERDICT_KINDS:  # a verdict fits when each side's sentence is from its own page
        return verdict_fit(chain.question, chain.kind, chain.answer_pages)
    if EXPLANATION.match(question) or BEHAVIOUR.match(question):
        return NOT_A_NAME, "the question asks for an explanation, not a name"
    answer = chain.answer.strip()
    tokens = words(answer)
    if not tokens:
        return NOT_A_NAME, "the answer is empty"
    if chain.kind == "date" and not re.search(r"\d", answer):
        return WRONG_KIND, f"'{answer}' is not a time"
    if ASKS_FOR_A_TIME.search(question) and not re.search(r"\d", answer):
        return WRONG_KIND, f"'{answer}' is not a time, and the question asks when"
    if ASKS_FOR_A_MEASURE.search(question) and (len(tokens) < 2 or tokens[-1][:1].isdigit()):  # "12 ft", "six feet"
        return WRONG_KIND, f"'{answer}' has no unit, and the question asks for a measure"
    if asks_for_a_period(question) and len(re.findall(r"\d+", answer)) < 2:
        return WRONG_KIND, f"'{answer}' is one point in time, and the question asks for a stretch of time"
    if chain.kind in NAMED_KINDS:
        if len(tokens) > 1 and tokens[0] in ARTICLES and answer[:1].isupper():
            tokens = tokens[1:]  # "The Tarrow Courier" is a name: its article is part of it
        if tokens[0] in STOPWORDS or len(tokens) == 1 and written_in_lower_case(tokens[0], chain.read):
            return NOT_A_NAME, f"'{answer}' is a common word, not a name"
        if chain.kind == "person" and re.search(r"\d", answer):
            return WRONG_KIND, f"'{answer}' holds a number, and no person's name does"
        if chain.kind == "person" and (_place_share(answer, chain.read) >= PLACE_SHARE or
                                       classified_as(answer, chain.read + chain.stating) & PLACE_NOUNS):
            return WRONG_KIND, f"'{answer}' is a place, and the question asks who"
        # "*Gull Rose*", "“Gull Rose”" (but "**Gull Rose**" is a bold lead-in, emphasis in notes)
        titled = re.compile(rf"(?<![*_])[*_]{re.escape(answer)}[*_](?![*_])|[\"“]{re.escape(answer)}[\"”]")
        if chain.kind == "person" and any(titled.search(text) for text in chain.read):
            return WRONG_KIND, f"'{answer}' is set in italics or quotes: a title (a ship's, a book's), not who"
        acted = bool(_asked_acts(chain))  # "who founded X?" asks an act; "who was X's mother?" a relation
        if chain.kind == "person" and acted and chain.stating and all(_only_owner(answer, text)
                                                                      for text in chain.stating):
            return WRONG_KIND, f"the cited sentence names '{answer}' only as an owner ('{answer}'s ...')"
        if chain.kind == "place" and _a_person(answer, chain.read):
            return WRONG_KIND, f"'{answer}' is a person (called 'she' or 'he', or given life dates), not a place"
        if chain.kind == "person" and len(tokens) >= 2 and tokens[-1] in PLACE_NOUNS:
            return WRONG_KIND, f"'{answer}' is named as a place ('{tokens[-1]}'), and the question asks who"
        if chain.kind == "person" and len(tokens) >= 3 and written_in_lower_case(tokens[-1], chain.read):
            return WRONG_KIND, f"'{answer}' ends in a common noun ('{tokens[-1]}'): a thing, and the question asks who"
        if act := _not_the_actor(chain):
            return WRONG_KIND, f"in the cited sentence '{answer}' is not the one who {act}"
        if inner := _inner_relation(chain):
            return WRONG_KIND, (f"the cited sentence says '{answer}' is the {inner}, the way to the answer, not the "
                                "one the question asks for")
        if _is_collection_label(chain):
            return NOT_A_NAME, f"'{answer}' names what nearly every source read is about, not an answer in particular"
        if restated := _restated_subject(chain):
            return WRONG_KIND, f"'{answer}' is the {restated} the question speaks of, not the answer it asks for"
        if not ASKS_FOR_A_NAME.search(question) and any(is_alias(answer, text) for text in chain.stating):
            return WRONG_KIND, f"'{answer}' is the name of the thing asked about, not the answer about it"
    if other := _other_act(chain):
        return WRONG_KIND, f"in the cited sentence '{answer}' goes with '{other}', not with what the question asks"
    return 1.0, ""


def _not_the_actor(chain: Chain) -> str:
    """The act a "who <did> X?" question asks about ("who founded X?"), when the cited sentence states that act and
    puts neither the answer nor a name of the question on its agent side (``engine.roles``): "Ada Pell founded
    Harbor Works near Tarrow" says what Ada Pell founded, so "Harbor Works" does not answer "who founded Tarrow?"."""
    asked = ASKS_WHO_DID.match(" ".join(words(chain.question)))
    if asked is None or not verb_shaped(asked.group("act")):
        return ""
    act = stem(asked.group("act"))
    titles = list(chain.answer_pages) + [""] * len(chain.stating)  # a stating sentence's page, when known
    # the question's own names acting ("Ada Pell trained under Oda Venn") tell the act from the other side
    own = [name_words(name) for name in [chain.answer, *question_names(chain.question)]]
    for text, title in zip(chain.stating, titles):
        if act not in _stems(text):
            continue
        acting = [name_words(agent) for agent in roles(text, title).agents]
        if acting and not any(same_name(name, agent) for name in own for agent in acting):
            return asked.group("act")
    return ""


def _asked_acts(chain: Chain) -> frozenset[str]:
    """The stems of the act the question asks of its answer: "who founded X?", "when did X open?", "where was X
    born?" (a past form that ends the question). An act in a clause that describes the question's subject ("when
    the area where X is located became a state") is not asked of the answer, so it is not counted."""
    question = " ".join(words(chain.question))
    acts = set()
    if (who := ASKS_WHO_DID.match(question)) and verb_shaped(who.group("act")):
        acts.add(stem(who.group("act")))
    if verb := _asked_verb(chain):
        acts.add(stem(verb))
    last = re.findall(r"\b[a-z][a-z'’-]*(?=\W*$)", chain.question)
    if last and verb_shaped(last[0]):
        acts.add(stem(last[0]))
    return frozenset(acts - STOPWORDS)


def _other_act(chain: Chain) -> str:
    """The verb the answer goes with in the cited sentences, when that is another act than the one asked about
    (``engine.roles.nearest_verb``): "drew up the route in 1790 and supervised the works until it opened" states an
    opening but gives 1790 to the drawing. Judged only in sentences that state the asked act somewhere."""
    acts = _asked_acts(chain)
    if not acts or chain.kind in VERDICT_KINDS:
        return ""

    def is_act(word: str) -> bool:
        return any(states(act, {stem(word)}) for act in acts)

    nearest = [verb for text in chain.stating if (verb := nearest_verb(text, chain.answer, is_act)) is not None]
    return nearest[0] if nearest and not any(is_act(verb) for verb in nearest) else ""


def _inner_relation(chain: Chain) -> str:
    """The inner relation of a nested question ("the spouse of the director of X"), when the cited sentence puts the
    answer next to it ("directed by Y") and states no outer one: Y is the director, one hop short of the spouse."""
    nested = NESTED_RELATION.search(" ".join(words(chain.question)))
    if nested is None:
        return ""
    outer, inner = stem(nested.group("outer")), stem(nested.group("inner"))
    first_word = words(chain.answer)[:1]
    for text in chain.stating:
        if states(outer, _stems(text)):
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


def _only_a_place(chain: Chain, names: list[str]) -> str:
    """A name the question asks about as such ("When was Wilmot Cross born?") that the cited sentences give only as
    a place, after "in", "at", "near" ("Cecily Dunmore was born in Wilmot Cross in 1881"): they tell of something
    that happened there, not of the name itself. A name the question too gives after a preposition ("Who built
    the chapel at Wilmot Cross?") is asked about as a place."""
    for name in names:
        before = re.compile(rf"(\w+)\s+(?:the\s+)?{re.escape(name)}\b")
        asked = [match.group(1).lower() for match in before.finditer(chain.question)]
        if any(word in STOPWORDS - ARTICLES - BE_FORMS - DO_FORMS for word in asked):
            continue
        mentions = [match.group(1).lower() for text in chain.stating for match in before.finditer(text)]
        opening = any(text.startswith(name) for text in chain.stating)
        if mentions and not opening and all(word in PLACE_PREPOSITIONS for word in mentions):
            return name
    return ""


def _only_owner(name: str, sentence: str) -> bool:
    """The sentence names ``name`` only as a possessive ("Ada Pell's early plays"): what Ada Pell has, not what she
    did."""
    mentions = re.findall(rf"\b{re.escape(name)}(['’]s\b)?", sentence)
    return bool(mentions) and all(mentions)


def _a_person(name: str, read: tuple[str, ...]) -> bool:
    """The name's own page (a source read titled by it) speaks of its subject as "she" or "he", or a source gives
    the name life dates or a birth ("Ada Pell (1838–1915)", "Ada Pell (born 1901)", "Ada Pell was born in"): a
    person."""
    own = [text for text in read if text.startswith(f"{name}. ") or text.startswith(f"{name} (")]
    dated = re.compile(rf"\b{re.escape(name)}[*_]*(?:{LIFE_DATES})")
    return any(PERSONAL_SUBJECT.search(text) for text in own) or any(dated.search(text) for text in read)


def is_alias(name: str, sentence: str) -> bool:
    """The sentence introduces the name as what something is called ("the press, known locally as Iron Mule"): it
    names the thing the sentence is about, so it answers "what is it called", not "who built it"."""
    return bool(re.search(rf"\b(?:known(?: \w+)? as|called|named|nicknamed|dubbed)\s+[\"“']?{re.escape(name)}",
                          sentence))


def _place_share(name: str, texts: tuple[str, ...]) -> float:
    """The share of the name's mentions in the read text that follow a place preposition ("in", "at", "near")."""
    pattern = re.compile(rf"(\w+)\s+(?:the\s+|of\s+)?{re.escape(name)}\b")
    before = [match.group(1).lower() for text in texts for match in pattern.finditer(text)]
    return sum(word in PLACE_PREPOSITIONS for word in before) / len(before) if before else 0.0


def assess(chain: Chain) -> Commitment:
    """The confidence that the cited chain settles the question, the product of the type, coverage and subject
    factors; what was established and what is missing, for the lead when the answer is not committed."""
    fit, why_not = type_fit(chain)
    names = question_names(chain.question)
    read = list(chain.read) + list(chain.answer_pages) + list(chain.hop_pages)
    chain_texts = list(chain.stating) + list(chain.hops) + list(chain.answer_pages) + list(chain.hop_pages)
    unread = [name for name in names if not mentioned(name, read)]
    unread += [thing for thing in _named_nouns(chain) if not mentioned(thing, read, together=False)]
    asked_noun = asked_phrase(chain.question)[-1:] if chain.kind not in VERDICT_KINDS else []
    unread += [noun for noun in asked_noun if not any(states(stem(noun), _stems(text)) for text in read)]
    labels = _collection_labels(chain, names)
    sentence_texts = list(chain.stating) + list(chain.hops)
    found = [name for name in names if mentioned(name, sentence_texts if name in labels else chain_texts)]
    # A question word no source read uses is the asker's paraphrase ("company" for "maker"), not a constraint the
    # chain could state; the words the sources do use must be stated by the chain.
    asked = (_stems(chain.question) - _stems(chain.answer)) & set().union(*(_stems(text) for text in read))
    # ... but a verb the question asks through ("born", "founded") is the relation itself: unstated, it is open.
    asked |= {stem(word) for word in content_terms(chain.question) if verb_shaped(word)} - _stems(chain.answer)
    said = set().union(*(_said(text) for text in chain_texts)) if chain_texts else set()
    if labels:  # a label a cited page's title carries is not said by the chain; its sentences must say it
        sentences_say = set().union(*(_stems(text) for text in sentence_texts))
        said -= set().union(*(_stems(label) for label in labels)) - sentences_say
    covered = {term for term in asked if states(term, said)}
    # The question's names weigh more than its other words, which the sources may well paraphrase.
    name_stems = set().union(*(_stems(name) for name in names)) if names else set()
    verbs = {stem(word) for word in content_terms(chain.question) if verb_shaped(word)}
    weight = {term: NAME_WEIGHT if term in name_stems else VERB_WEIGHT if term in verbs else 1.0 for term in asked}
    share = sum(weight[term] for term in covered) / sum(weight.values()) if asked else 1.0
    relation = asked - name_stems  # what the question asks of its names; a verdict reads its sides on its own
    if relation and not covered & relation and chain.kind not in VERDICT_KINDS:
        share = min(share, NO_RELATION_SHARE)  # the chain names the question's things but says nothing it asks
    described = ASKS_WHO_WAS.match(" ".join(words(chain.question)))
    noun = described.group("phrase").split()[-1] if described and chain.kind == "person" else ""
    if noun and stem(noun) in asked and not any(states(stem(noun), _said(text))
                                                for text in chain.stating + chain.answer_pages):
        share = min(share, NO_RELATION_SHARE)  # "the first woman to ...": the sources use the word, not of the answer
    verb = _asked_verb(chain)
    verb_unstated = bool(verb) and not any(states(stem(verb), _said(text)) for text in chain.stating)
    if verb_unstated:
        share = min(share, NO_RELATION_SHARE)  # "when did X close?" is not answered by a sentence about its opening
    as_place = _only_a_place(chain, names)
    subject = 1.0 if _on_subject(chain, names, labels) and not as_place else OFF_SUBJECT
    if fit and any(denies(text, chain.answer, relation) for text in chain.stating):
        fit, why_not = NOT_A_NAME, f"the cited sentence denies it of '{chain.answer}'"
    doubted = bool(chain.stating) and all(hedged(_without_asides(text, chain.answer)) for text in chain.stating)
    factors = {"type": fit, "names_read": MISSING_NAME if unread else 1.0, "coverage": share ** COVERAGE_POWER,
               "subject": subject, "plain": HEDGED if doubted else 1.0}
    confidence = 1.0
    for value in factors.values():
        confidence *= value
    missing = [why_not] if why_not else []
    missing += [f"no source read mentions '{name}'" for name in unread]
    left = [name for name in names if name not in unread and name not in found]
    if left:
        missing.append("the cited sentences do not tie the answer to " + ", ".join(f"'{name}'" for name in left))
    unstated = [word for word in dict.fromkeys(content_terms(chain.question))
                if stem(word) in asked - covered and stem(word) not in name_stems]
    if unstated:
        missing.append("the cited sentences do not state " + ", ".join(f"'{word}'" for word in unstated[:4]))
    if verb_unstated:
        missing.append(f"the sentence stating '{chain.answer}' does not say '{verb}'")
    if doubted:
        missing.append(f"the sentence stating '{chain.answer}' doubts it or reports another's claim")
    if as_place:
        missing.append(f"the cited sentences name '{as_place}' only as the place where something else happened")
    elif subject < 1.0 and not unread:
        missing.append(f"the sentence naming '{chain.answer}' is not about what the question asks")
    established = [f"'{name}'" for name in found][:3] + [
        f"the hop through '{page}'" for page in chain.hop_pages[:1] if page not in names]
    return Commitment(confidence=round(confidence, 4), established=established, missing=missing, factors=factors)


def _without_asides(sentence: str, answer: str) -> str:
    """The sentence without the relative clauses that describe someone else (", who is said to have ..."): a doubt
    there is not about the answer."""
    return re.sub(r",\s+(?:who|which|whose|whom)\b[^,;]*(?=[,;]|$)",
                  lambda aside: aside.group(0) if answer in aside.group(0) else "", sentence)


def _asked_verb(chain: Chain) -> str:
    """The verb a "when/where/what did X <verb>?" question asks about, its last word ("when did the mill close?"):
    the sentence that states the answer must state it. Not for a verdict, nor when the question ends in a name."""
    asked = ASKED_VERB.match(chain.question[:1].lower() + chain.question[1:])
    if asked is None or asked.group("verb") in STOPWORDS or chain.kind in VERDICT_KINDS:
        return ""
    return asked.group("verb")


def _is_collection_label(chain: Chain) -> bool:
    """The answer is the collection's own label, or a version of it ("Python 2" where every page is Python's)."""
    worded = [word for word in words(chain.answer) if not any(ch.isdigit() for ch in word)]
    return bool(worded) and bool(_collection_labels(chain, [" ".join(worded)]))


def _collection_labels(chain: Chain, names: list[str]) -> frozenset[str]:
    """The question's names that nearly every source read carries: the collection's own label ("Python" on every page
    of Python's documentation). A page title holding one says nothing about the question."""
    carriers = chain.read_titles or chain.read  # a place most notes of a folder mention is no label: its titles tell
    if len(carriers) < LABEL_MIN_SOURCES:
        return frozenset()
    return frozenset(name for name in names if sum(mentioned(name, [text]) for text in carriers) >= LABEL_SHARE * len(
        carriers))


def _on_subject(chain: Chain, names: list[str], labels: frozenset[str] = frozenset()) -> bool:
    """The answer sentence (with its page's title) names something the question names, or a bridge entity that a
    hop sentence ties to the question. A hop ties only when the question describes something instead of naming it
    ("the orchard *that* P founded") or the hop states a relation the question asks through: a sentence that merely
    mentions the question's town beside another town ("a village downstream of Dunmore") is no way from "the mayor
    of <that village>" to the other town's mayor."""
    stating = list(chain.stating) + list(chain.answer_pages)
    asked = _stems(chain.question) - _stems(chain.answer)
    if any(mentioned(name, list(chain.stating) if name in labels else stating) for name in names) or \
            not names and asked & _stems(" ".join(stating)):
        return True
    # a sentence of the answer's own page that names the question's thing ties the page to it (the page's opening)
    own_page = [hop for page, hop in zip(chain.hop_pages, chain.hops) if page and page in chain.answer_pages]
    if any(mentioned(name, own_page) for name in names if name not in labels):
        return True
    name_stems = set().union(*(_stems(name) for name in names)) if names else set()
    answer_said = _said(" ".join(stating))
    relations = {term for term in asked - name_stems if not states(term, answer_said)}  # what the answer does not say
    hops = [f"{page}: {hop}" for page, hop in zip(chain.hop_pages, chain.hops)] or list(chain.hops)
    describes = bool(DESCRIBED.search(" ".join(words(chain.question)[1:])))
    described = (asked - name_stems) - relations  # the question's words the answer sentence says
    tied_hops = [hop for hop in hops if (describes or any(states(term, _said(hop)) for term in relations | described))
                 and (any(mentioned(name, [hop]) for name in names) or not names)]
    bridges = {name for hop in tied_hops for name in name_spans(hop)} - set(names)
    return any(mentioned(bridge, stating) for bridge in bridges if bridge.lower() != chain.answer.lower())
