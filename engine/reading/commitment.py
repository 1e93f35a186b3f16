"""Whether the cited chain settles the question: a confidence for the short answer, and what is missing when it does
not.

A short answer is a commitment: shown in bold, it tells the reader the sources settle the question. The finder picks
the best span it can; this module asks, from general evidence features only, whether that span deserves the bold:

- type fit (``reading.fit``): the span is the kind of thing the question asks for, and goes with the act asked.
- coverage: every name the question gives is mentioned by some source read (a question about a town no source
  mentions is not answered), and the cited chain (the answer sentence, the hops before it and the pages they come
  from) covers the question's words.
- subject: the sentence that states the answer is about something the question names, or about a bridge entity
  that a cited hop sentence ties to the question, and not only as the place where something else happened.
- plain: the sentence that states the answer does not doubt it.

The factors multiply: each is 1 when the evidence is clean and falls towards 0 as it fails, so the confidence says
which test failed, and the commit threshold (a setting) decides when the bold is shown.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from satiate.engine.reading.chain import (
    CLAUSE_OPENERS,
    LIGHT_VERBS,
    PARTICLES,
    ROW_FIELD,
    VERB_FOLLOWERS,
    VERDICT_KINDS,
    Chain,
    as_read,
    collection_labels,
    collection_subject,
    framing_opener,
    known_verb,
    mentioned,
    names_as_read,
    particles_asked,
    past_verbs_asked,
    question_names,
    said_in,
    states,
    states_with_particle,
    stems_of,
)
from satiate.engine.reading.fit import (
    LIFE_WORDS,
    NOT_A_NAME,
    ORDINALS,
    a_person,
    act_years,
    asked_acts,
    place_share,
    type_fit,
    who_did_act,
    worded_act,
)
from satiate.engine.reading.kinds import (
    ADJECTIVE_HEADS,
    ASKS_WHO_WAS,
    KIND_WORDS,
    PHRASE_ENDS,
    PLACE_NOUNS,
    asked_form_wording,
    asked_phrase,
    classified_as,
    counted_noun,
    named_as_a_firm,
    owned_phrase,
    pointing_kind_words,
)
from satiate.engine.reading.makes import MAKE_WORDS, made_noun
from satiate.engine.reading.names import ADVERB, abbreviation, name_spans
from satiate.engine.reading.plain_kinds import KINSHIP, asked_kind, of_the_kind
from satiate.engine.reading.present import asks_now, tells_now
from satiate.engine.reading.referents import lead_in
from satiate.engine.reading.verdicts import POSSESSIVES
from satiate.engine.roles import IRREGULAR_PASTS, NEGATIONS, affirmed, denies, sets_aside
from satiate.tools.lexicon import converse, kind_of, names_a_made_thing, names_a_person, paraphrases
from satiate.tools.text import (
    ARTICLES,
    AUXILIARIES,
    BE_FORMS,
    COUNT_WORD,
    DECADE,
    DO_FORMS,
    DOTTED_NUMBER,
    HEDGES,
    STOPWORDS,
    WH_WORDS,
    YEAR,
    YEAR_SPAN,
    clean_title,
    content_terms,
    hedged,
    is_field,
    sentences,
    stem,
    verb_shaped,
    words,
)

NEGATION = re.compile(rf"\b(?:{'|'.join(NEGATIONS)})\b|n['’]t\b", re.IGNORECASE)
PLACING = frozenset("in at on near within".split())  # a participle before these tells a state: "is based in"
DESCRIBED = re.compile(r"\b(?:that|which|who|whom|whose|where)\b")  # after the question word: a relative clause
# Where one of a sentence's joined clauses ends: a semicolon, or "and"/"but" before a verb or after a comma (a bare
# comma may only part the items of a list: "worked in Kesh, Orren and, since 2000, Tarrow").
CLAUSE_BREAK = re.compile(r";\s+|,\s+(?:and|but)\s+|\s+(?:and|but)\s+(?=(?:was|were|is|are|had|has)\b)")
# "who took over from Ada Pell as matron of ...?": the post the one asked for took, after "as" where it follows the
# question's own verb, that verb's particle, or a name it acts on (not "the singer known as ...", a description)
ASKED_AS = re.compile(rf"(?:^[Ww]ho [a-z]+|\b(?:{'|'.join(PARTICLES)})|[A-Z][\w.'’]*) as (?:the |an? )?"
                      r"(?P<phrase>[a-z'’ -]+?)"
                      r"(?= (?:of|to|in|at|for|on|from|with|by|who|that|whose|when|while|after|before)\b|\W*$)")
# "who built the first lifeboat house at Kesh?": the thing acted on, lower-case words after the act, its noun last
PAGE_TAIL = 30  # the closing characters by which a rewritten sentence is found on its page
PRONOUN_OPENING = re.compile(r"(?:Its|His|Her|Their|It|He|She|They)\b")  # a sentence opening on its page's subject
ENTRY_LABEL = re.compile(r"\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}):\s")  # "Ada Pell: ...", "Orlby Mill: ..."
ASKS_WHO_DID_WHAT = re.compile(r"^[Ww]ho (?:\w+ )?(?P<act>[a-z]+) (?:the|a|an) (?P<thing>(?:[a-z-]+ ){0,3}?[a-z-]+)"
                               r"(?= (?:of|at|in|on|for|from|with|by|that|which|who|whom|when|where|after|before|"
                               r"during|out|up|down|to|into)\b|\W*$)")
HOLDER_OF_A_TIME = re.compile(r"^(?:who|what) (?:was|is|were|are) (?:the |an? )?[a-z]")  # a post's holder, a value
# "who was the engine named after?", "after whom is the cup named?", "the engine was named for whom?" ask the
# naming (the question's last words), and
# "which of the boats was named after his mother?" asks for the thing so named: only a sentence telling a naming
# states either (a naming that describes the question's own thing, "who built the hall named after X?", is not asked)
ASKS_NAMESAKE = re.compile(r"\b(?:named|called|renamed) (?:after|for)(?: (?:whom|who|what))?\W*$|"
                           r"^(?:after|for) (?:whom|what)\b.*\b(?:named|called)\W*$|"
                           r"^(?:which|what)\b[^?]*?\b(?:was|were|is|are) (?:named|called|renamed) (?:after|for)\b",
                           re.IGNORECASE)
NAMING = re.compile(r"\b(?:named|called|renamed|name[sd]?) (?:after|for)\b|\bnamesake\b|\bin hono(?:u)?r of\b",
                    re.IGNORECASE)
VERSION_WORDS = frozenset("original former later".split())  # which version of a thing, like "rebuilt", "restored"
# "at the time the hut burned down", "in the year the dam was finished": a clause that dates the answer by an event
TIMED_BY = re.compile(r"\b(?:(?:at|by|in|on) the (?:time|year|day|month|week|season)|when|while)"
                      r" (?:that |when )?(?P<clause>.+)$", re.IGNORECASE)
# a stretch of time counted whole: "for a whole winter", "its first full season"
WHOLE_STRETCH = re.compile(r"\b(?P<stretch>(?:full|whole|entire|complete) (?:year|season|summer|winter|spring|autumn|"
                           r"month|week|day|term|decade|run)s?)\b", re.IGNORECASE)
RANKS = frozenset(ORDINALS) | VERSION_WORDS  # words that single out one of several things of a kind
OWNERS = ARTICLES | frozenset("its his her their".split())  # what opens the noun phrase a rank is set in
OWNED_BY_A_PRONOUN = re.compile(rf"\b(?i:{'|'.join(sorted(POSSESSIVES))}) [a-z][\w-]*(?=,? (?:(?:was|is) )?$)")
MISSING_NAME = 0.0  # a name the question gives that no source read mentions: nothing read is about it
HEDGED = 0.5  # every cited sentence stating the answer doubts it or reports another's claim ("possibly 1903")
OFF_SUBJECT = 0.5  # the answer sentence names nothing of the question and no hop ties it to the question
NO_RELATION_SHARE = 0.5  # coverage at most, when the chain states none of the question's words besides its names
BECOMES = re.compile(r"\bbec[oa]mes?\s+(?:(?:the|its|their|an?)\s+)?([a-z]+(?:\s+[a-z]+)?)")  # "become head keeper"
MADE_REACH = 3  # words after a light verb read for the thing it makes ("made the brass weathercock")
# a year that bounds another time ("Before 1902 the ferry ..."); not one that dates a thing ("after 1972 refit")
BOUNDING = re.compile(r"\b(?:before|after|prior to|pre-)\s*$", re.IGNORECASE)
BOUND_ENDS = re.compile(r"\s*(?:[,.;:)]|$|(?:the|an?|it|he|she|they|we|i|there|this)\b)", re.IGNORECASE)
NAME_WEIGHT = 2.0  # how much more a word of a name the question gives counts towards coverage than its other words
VERB_WEIGHT = 1.5  # how much more a past form the question asks through ("designed", "closed") counts towards coverage
COVERAGE_POWER = 1.0  # how steeply the share of the question's words the chain covers lowers the confidence


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


def _named_nouns(chain: Chain) -> list[str]:
    """A name the question gives with the common noun it qualifies ("the Tarrow library"): that noun is the thing
    asked about, so sources that never mention it answer about another thing ("the Tarrow mill"). Not for a verdict,
    whose two sides are read on their own."""
    if chain.kind in VERDICT_KINDS:
        return []
    found = []
    for name in (part for span in name_spans(chain.question) for part in as_read(span, list(chain.read))):
        for match in re.finditer(rf"{re.escape(name)}\s+([a-z][a-z-]+)\b(?!\s+(?:the|an?|to)\b)", chain.question):
            # after "did"/"does" the subject ends at the bare verb: "where did the Tarrow poet die?"; after "that" or
            # "which" the name opens a clause whose next word is its verb ("the guild that Ada Pell belongs to"); and
            # a word followed by an article or "to" is a verb taking its object ("the Tarrow memorial honours the
            # fallen"), since a noun the name qualifies ends its phrase
            before = words(chain.question[:match.start()])
            awaits_verb = DO_FORMS & set(before) or before[-1:] in (["that"], ["which"], ["whom"]) or \
                words(chain.question[match.end():])[:1] in ([particle] for particle in PARTICLES)  # "set up"
            if match.group(1) not in STOPWORDS and not verb_shaped(match.group(1)) and not awaits_verb and not \
                    ADVERB.fullmatch(match.group(1)):
                found.append(f"{name} {match.group(1)}")
    return found


def _placed_at(question: str, name: str) -> re.Match[str] | None:
    """The thing the question puts at a named place, its noun as group 1 ("the boatyard at Kesh"; the noun may have
    words before it: "the old stone chapel in Kesh")."""
    return re.search(rf"\bthe\s+(?:[\w-]+\s+){{0,2}}?([a-z][a-z-]+)\s+(?:at|in)\s+{re.escape(name)}\b", question)


def _things_placed_unread(chain: Chain, read: list[str]) -> list[str]:
    """A thing the question puts at a named place ("the lighthouse at Kesh") that no source read speaks of by its
    noun, nor by a paraphrase of it: what was read is about the place, not about that thing, as a town no note
    mentions is not read about."""
    placed = [match for name in name_spans(chain.question) if (match := _placed_at(chain.question, name))]
    return [match.group(0).removeprefix("the ") for match in placed if match.group(1) not in STOPWORDS and not any(
        _speaks_of(match.group(1), stems_of(text)) for text in read)]


def _speaks_of(noun: str, said: set[str]) -> bool:
    """The stems say the noun itself (each part of a hyphenated one) or a paraphrase of it: not a part of a compound
    ("house" is no lighthouse)."""
    return stems_of(noun) <= said or bool(paraphrases(stem(noun)) & said)


def _placed_elsewhere(chain: Chain) -> str:
    """The place a question puts its thing at ("the boatyard at Kesh"), when neither the sentence stating the answer
    nor its page (its title, or a sentence of it cited) names that place: the sentence tells of such a thing
    somewhere else ("the yard at Quillby basin"), though another text may name both places together. A place named
    only inside a longer name ("the Kesh & Orren canal") is not named: that is the other thing's name. A thing the
    stating sentence does not speak of is a bridge, placed by the hops that tie it."""
    own_page = [hop for page, hop in zip(chain.hop_pages, chain.hops) if page in chain.answer_pages]
    texts = list(chain.stating) + list(chain.answer_pages) + own_page
    for name in name_spans(chain.question):
        placed = _placed_at(chain.question, name)
        if not placed:
            continue
        # a field on the thing's own page ("Opened: 1852" on "Tabor chapel, Orren") speaks of what the title names
        if not any(states(stem(placed.group(1)), stems_of(text)) for text in chain.stating + chain.answer_pages):
            # the sentence stating the answer tells of no such thing: it is the bridge ("the man who designed the
            # viaduct at Kesh"), which the hops tie to the answer, so they and their pages may place it
            texts += list(chain.hops) + list(chain.hop_pages)
        # "the Kesh Viaduct" names the viaduct at Kesh: the place with the very noun asked
        own_name = re.compile(rf"{re.escape(name)}\s+{re.escape(placed.group(1))}s?", re.IGNORECASE)
        named = any(re.sub(r"['’]s$", "", span) == name or own_name.fullmatch(span)
                    for text in texts for span in name_spans(text))
        if placed.group(1) not in STOPWORDS and not named:
            return f"{placed.group(1)} at {name}"
    return ""


def _owned_otherwise(chain: Chain) -> str:
    """The thing a question names by its owner ("the Kesh ferry app"), when every sentence stating the answer gives
    that noun to another name and never names the question's ("Orren's ferry app was retired in 2019", "the Orren
    Library"): the sentence tells of the other one's thing. Returns "the <noun> of <other>, not of <owner>"."""
    told = ""
    for thing in _named_nouns(chain):
        owner, noun = thing.rsplit(" ", 1)
        for text in chain.stating:
            if mentioned(owner, [text]):
                return ""
            others = [span for span in name_spans(text) if not mentioned(owner, [span]) and
                      _gives_noun(span, noun, text, chain.read + chain.stating)]
            if not others:
                return ""
            told = f"the {noun} of {re.sub(rf'(?i) {re.escape(noun)}$', '', others[0])}, not of {owner}"
    return told


def _gives_noun(span: str, noun: str, text: str, read: tuple[str, ...]) -> bool:
    """The name owns the noun in the text: it ends in it ("the Orren Library"), or stands before it as an owner
    ("Orren's app", "the Orren app"). A word no text capitalises inside a sentence ("Quiet-mode phone app") is
    no name and owns nothing."""
    if span.lower().endswith(f" {noun.lower()}"):
        return True
    after = [at.end() for at in re.finditer(re.escape(span), text)]
    if any(re.match(rf"['’]s\s+{re.escape(noun)}\b", text[at:], re.IGNORECASE) for at in after):
        return True
    return any(re.match(rf"\s+{re.escape(noun)}\b", text[at:], re.IGNORECASE) for at in after) and any(
        re.search(rf"[a-z,;)]\s+{re.escape(span)}\b", other) for other in read)


def _denied_elsewhere(chain: Chain, relation: set[str]) -> str:
    """A sentence of a page read that denies the person the act asked on the thing asked ("Oda never wrote the
    tide tables: they were Ivo's work"), naming them in full or by one of their names: one source's credit does not
    settle what another denies. Denying another act, or the act on another thing, denies nothing asked."""
    acts = past_verbs_asked(chain.question)
    things = relation - acts
    if not acts & relation or not things:
        return ""
    forms = [chain.answer] + [part for part in chain.answer.split() if len(chain.answer.split()) > 1 and
                              part[:1].isupper() and len(part) > 2]
    for text in chain.read:
        if not NEGATION.search(text) or not any(form in text for form in forms):
            continue
        for sentence in (piece.text for piece in sentences(text)):
            if any(denies(sentence, form, acts) and denies(sentence, form, things) for form in forms
                   if form in sentence):
                return sentence.strip()
    return ""


def _set_aside_elsewhere(chain: Chain, relation: set[str]) -> str:
    """A sentence of a page read that sets the answer aside as a mistake while it speaks of what the question asks
    (``sets_aside``): one line's value is not settled once another says it is wrong."""
    for text in chain.read:
        if chain.answer in text and relation:
            for sentence in (piece.text for piece in sentences(text)):
                if sets_aside(sentence, chain.answer, relation):
                    return sentence.strip()
    return ""


def _corrected_by(stating: tuple[str, ...], hop: str) -> bool:
    """A value the hop states (a number, a name) is one the answer's sentence sets aside as a mistake: the answer's
    sentence corrects the hop."""
    values = re.findall(r"\d[\d,.]*\d|\d", hop) + name_spans(hop)
    return any(value in text and denies(text, value, set()) for text in stating for value in values)


def _bounded_at(chain: Chain) -> set[str]:
    """The question's verbs of beginning or ending that a stating sentence tells by the stretch it gives the answer as
    a bound of: "(unpaid, from 1902)" or "since 1902" says when it began, "until 1931" when it ended. Only for a
    time: "from Kesh" tells where something came from, not that it began."""
    if chain.kind != "date":
        return set()
    bounds = {"begin": r"from|since", "end": r"until|till"}
    told = set()
    for verb, opening in bounds.items():
        if any(re.search(rf"\b(?:{opening})\s+(?:[\w,]+\s+){{0,2}}?{re.escape(chain.answer)}\b", text, re.IGNORECASE)
               for text in chain.stating):
            told |= {stem(verb)} | paraphrases(stem(verb))
    return told & stems_of(chain.question)


def _decade_said(term: str, texts: list[str]) -> bool:
    """A decade the question names ("in the 1870s") is said by any year in it ("the Quellbrook Fair, 1883-1886")."""
    decade = DECADE.fullmatch(term)
    if decade is None:
        return False
    year = re.compile(rf"\b{decade.group(1)}\d\b")
    return any(year.search(text) for text in texts)


def assess(chain: Chain) -> Commitment:
    """The confidence that the cited chain settles the question, the product of the type, coverage and subject
    factors; what was established and what is missing, for the lead when the answer is not committed."""
    fit, why_not = type_fit(chain)
    read = list(chain.read) + list(chain.answer_pages) + list(chain.hop_pages)
    names = names_as_read(chain.question, read)
    chain_texts = list(chain.stating) + list(chain.hops) + list(chain.answer_pages) + list(chain.hop_pages)
    unread = [name for name in names if not mentioned(name, read)]
    unread += [thing for thing in _named_nouns(chain) if not mentioned(thing, read, together=False)]
    unread += _things_placed_unread(chain, read)  # the pages read, with their titles
    numbers = DOTTED_NUMBER.findall(chain.question)  # "Kesh 3.0": which release is asked is part of its name
    unread += [number for number in numbers if not any(_says_number(text, number) for text in read)]
    asked_noun = asked_phrase(chain.question)[-1:] if chain.kind not in VERDICT_KINDS else []
    form, form_wording = asked_form_wording(chain.question)  # "on what date", "during what timeframe": the noun
    # names the answer's form
    # (a place's kind is read from how the sources use its name: "born in Harrowgate" answers "in which town")
    # "navy" for "what colour ...?": a plain noun of the kind asked says the kind itself
    plain_kind = asked_kind(chain.question) if chain.kind == "name" else ""
    kind_told = plain_kind if plain_kind and of_the_kind(chain.answer, plain_kind) else ""
    unread += [noun for noun in asked_noun if not form and noun != kind_told and not (
               chain.kind == "place" and noun in PLACE_NOUNS)
               and not named_as_a_firm(noun, chain.answer) and not any(
                   all(states(part, stems_of(text)) for part in stems_of(noun)) for text in read)]  # "ferry-boy": each
    # "who was the surveyor of the quay?", "what was the name of Ada Pell's husband?": the post or the relative
    # asked, when no source read uses it, is said of no one
    post = ASKS_WHO_WAS.match(" ".join(words(chain.question))) if chain.kind == "person" else None
    relative = owned_phrase(chain.question)[-1:] if chain.kind in ("person", "name") else []
    post_nouns = ([post.group("phrase").split()[-1]] if post else []) + relative
    unread += [noun for noun in dict.fromkeys(post_nouns) if names_a_person(noun) and not any(
        states(stem(noun), stems_of(text)) for text in read)]
    # "what was X's maiden name?": a word qualifying what is asked of X, which no source uses, is not said of X
    owned = [word for word in owned_phrase(chain.question)[:-1] if word not in KIND_WORDS | STOPWORDS]
    unread += [word for word in owned if not any(states(stem(word), said_in(text)) for text in read)]
    labels = collection_labels(chain, names)
    sentence_texts = list(chain.stating) + list(chain.hops)
    found = [name for name in names if mentioned(name, sentence_texts if name in labels else chain_texts)]
    # A question word no source read uses is the asker's paraphrase ("company" for "maker"), not a constraint the
    # chain could state; the words the sources do use must be stated by the chain.
    asked = (stems_of(chain.question) - stems_of(chain.answer)) & set().union(*(stems_of(text) for text in read))
    # ... but a verb the question asks through ("born", "founded") is the relation itself: unstated, it is open.
    asked |= {stem(word) for word in content_terms(chain.question) if verb_shaped(word)} - stems_of(chain.answer)
    asked -= LIGHT_VERBS  # "went", "took", "became" tell no relation of their own: their other words do
    # ... and a relative the question asks for ("Ada Pell's wife") is asked whenever a source tells the relation in
    # other words ("married"): the chain must tell it too
    asked |= {stem(noun) for noun in relative if names_a_person(noun) and any(
        states(stem(noun), stems_of(text)) for text in read)}
    asked -= {stem(word) for word in pointing_kind_words(chain.question)}
    asked -= {stem(opener)} if (opener := framing_opener(chain.question)) else set()  # "Roughly how many ...?"
    asked -= {stem(word) for word in MAKE_WORDS} if made_noun(chain.question) else set()  # the make: its name says it
    said = set().union(*(said_in(text) for text in chain_texts)) if chain_texts else set()
    # The noun the question names its answer by ("which firm") is said of the answer when the sources call the answer
    # by it ("Pell & Reed Ltd is a firm of shipbuilders"), though the sentence stating the answer seldom repeats it.
    kind_stems = {stem(noun) for noun in asked_noun}
    # what the whole collection is about places the question among its notes: no sentence need repeat it
    context = collection_subject(chain, {stem(word) for word in content_terms(chain.question) if not verb_shaped(word)}
                                 - set().union(*(stems_of(name) for name in names)) - kind_stems)
    called = {stem(noun) for noun in classified_as(chain.answer, tuple(chain.stating) + tuple(chain.read))}
    said_of_answer = kind_stems & (called | {stem(noun) for noun in asked_noun if named_as_a_firm(noun, chain.answer)})
    if form:  # the form the answer takes is no relation the chain must state
        asked -= kind_stems
    if form == "calling" and kind_told:  # nor are the words that ask it ("what did she do for a living?")
        asked -= stems_of(form_wording)
    asked -= stems_of(kind_told) if kind_told else set()
    if labels:  # a label a cited page's title carries is not said by the chain; its sentences must say it
        sentences_say = set().union(*(stems_of(text) for text in sentence_texts))
        said -= set().union(*(stems_of(label) for label in labels)) - sentences_say
    # a verb the question uses with its particle ("what did it turn out to be?") is stated only with it: "turns up"
    # tells another act
    with_particle = particles_asked(chain.question)
    bounded = _bounded_at(chain)  # "from 1902" tells when it began
    covered = {term for term in asked if (states_with_particle(term, with_particle[term], said) if term in
                                          with_particle else states(term, said)) or term in said_of_answer or
               _decade_said(term, chain_texts) or term in bounded or term in context}
    # The question's names weigh more than its other words, which the sources may well paraphrase.
    name_stems = set().union(*(stems_of(name) for name in names)) if names else set()
    verbs = {stem(word) for word in content_terms(chain.question) if verb_shaped(word)}
    # what the answer is asked as weighs like a name, and so does a relative the question names by another
    # ("Ada Pell's nephew"): a chain that leaves the nephew out tells of Ada Pell; a year the question names picks
    # one time among others as a name picks one thing
    weight = {term: NAME_WEIGHT if term in name_stems | kind_stems | _relatives_named(chain.question) |
              set(YEAR.findall(chain.question)) else
              VERB_WEIGHT if term in verbs else 1.0 for term in asked}
    share = math.fsum(weight[term] for term in covered) / math.fsum(weight.values()) if asked else 1.0
    relation = asked - name_stems  # what the question asks of its names; a verdict reads its sides on its own
    if relation and not covered & relation and chain.kind not in VERDICT_KINDS:
        share = min(share, NO_RELATION_SHARE)  # the chain names the question's things but says nothing it asks
    if names and not relation and chain.kind not in VERDICT_KINDS and not any(
            mentioned(name, list(chain.stating)) for name in names):
        share = min(share, NO_RELATION_SHARE)  # "who is the Lantern in ...?" asks of a name only: the sentence
        # stating the answer must name it itself, not leave it to its page's title ("Author: Ada Pell")
    described = ASKS_WHO_WAS.match(" ".join(words(chain.question))) or ASKED_AS.search(chain.question.strip())
    noun = described.group("phrase").split()[-1] if described and chain.kind == "person" else ""
    # "the first woman to ...", "as matron": the sources use the word, but not of the answer
    post_unsaid = noun if noun and stem(noun) in asked and not any(
        states(stem(noun), said_in(text)) for text in chain.stating + chain.answer_pages) else ""
    # "what was the name of X's first wife?": the noun the answer is asked as, said by a hop but not by the sentence
    # that states the answer, is said of someone else
    kind_noun = next(iter(kind_stems), "") if chain.kind in ("person", "name") else ""
    # "on which farm ...?": the sources speak of farms, but no cited sentence or page calls anything one, so nothing
    # shows the answer is one (a nationality is told by its adjective, "British", never with the noun). A place's
    # kind is read from how the sources use its name (``fit``); a thing's only from the noun.
    if chain.kind == "name" and (kind_stems & asked) - covered - {stem(noun) for noun in ADJECTIVE_HEADS}:
        share = min(share, NO_RELATION_SHARE)
    # ... and the noun is read as that noun: "building" is not said by "they build boats", though both stem to "build"
    elif chain.kind == "name" and any(noun not in ADJECTIVE_HEADS and stem(noun) in asked - said_of_answer and not any(
            _writes_noun(noun, text) for text in chain_texts)
            for noun in asked_noun if stem(noun) != noun):
        share = min(share, NO_RELATION_SHARE)
    if kind_noun in covered and kind_noun not in said_of_answer and not any(
            states(kind_noun, said_in(text)) for text in chain.stating + chain.answer_pages):
        share = min(share, NO_RELATION_SHARE)
    # A time, place or name goes with the act it is asked of ("when did X close?" is not answered by a sentence about
    # its opening); a person may be tied to the act in other words ("a play by Y" for "who wrote it?").
    # a light verb is no act, unless a particle or preposition makes it one of its own ("come from", "take over")
    acts = tuple(act for act in asked_acts(chain) if stem(act) not in LIGHT_VERBS or re.search(
        rf"\b{re.escape(act)}\s+(?:{'|'.join(VERB_FOLLOWERS)})\b", chain.question)) if chain.kind != "person" else ()
    # "when did she become manager?": becoming tells nothing of its own, the post taken is the act
    taken = BECOMES.search(chain.question)
    post_taken = [word for word in (taken.group(1).split() if taken and chain.kind != "person" else [])
                  if names_a_person(word)][-1:]
    # a hop that states the answer too ("The hall burned on 14 May 1952." beside "Date: 14 May 1952") says it as well
    saying = list(chain.stating) + [hop for hop in chain.hops if chain.answer in hop]
    # ... said by the sentence itself (a page of captains names no one's taking of the post), or by the title of the
    # table a row of it stands in ("Name: Ada Pell; Years in charge: 1891–1912" on a page of head keepers)
    rows = [page for text, page in zip(chain.stating, chain.answer_pages) if len(ROW_FIELD.findall(text)) > 1]
    post_untold = next((post for post in post_taken if not any(states(stem(post), said_in(affirmed(text)))
                                                               for text in saying + rows)), "")
    # the noun a light verb asks through ("become the library's librarian") may be said by the page's title instead;
    # a verb asked with its particle is that phrasal act, as above
    verb_unstated = bool(acts) and not all(stem(act) in bounded for act in acts) and not any(
        states_with_particle(stem(act), with_particle[stem(act)], said_in(affirmed(text))) if stem(act) in
        with_particle else states(stem(act), said_in(affirmed(text))) for act in acts
        for text in saying + ([] if known_verb(act) or verb_shaped(act) else list(chain.answer_pages)))
    # a "who" of an act between two parties ("who bought it?") is shown only by a sentence telling that act or its
    # converse: a sentence naming the person for something else cannot say which side they were on
    traded = who_did_act(chain.question) if chain.kind == "person" else ""
    # "who rescued the cup?": a chain that never tells the act, nor names the answer in an agent's phrase ("by the
    # lifeboat under its coxswain, Ada Pell"), names the answer for something else. A post asked through ("who acted
    # as arbitrator?") is the relation instead, read above.
    by_answer = re.compile(rf"\bby\b[^.;:]{{0,60}}?{re.escape(chain.answer)}")
    # "who took over (as matron)?": a light verb and its particle are an act of their own, told by those words or the
    # lexicon's, whatever post it is taken in
    acted, after = worded_act(chain.question, traded)
    particle = [after] if after and traded in LIGHT_VERBS else []
    told = " ".join([traded, *particle])
    # "who made the waterwheel?": a light verb whose object is a thing made asks the making
    makes = traded in LIGHT_VERBS and any(names_a_made_thing(word) for word in
                                          words(chain.question.split(acted, 1)[-1])[:MADE_REACH])
    act_untold = bool(traded) and (bool(particle) or makes or traded not in LIGHT_VERBS and not noun) and not any(
        states(told, said_in(affirmed(text))) for text in chain_texts) and not any(
        by_answer.search(text) for text in saying)
    if traded and converse(traded) and not any(states(traded, said_in(text)) for text in saying):
        verb_unstated, acts = True, tuple(word for word in words(chain.question) if stem(word) == traded)[:1]
    # Each of these leaves the relation asked unshown however many of the question's words the chain covers.
    answer = chain.answer
    version, thing = _version_unsaid(chain, saying) or _placed_elsewhere(chain), _thing_acted_on(chain, saying)
    event, other_thing = _event_unstated(chain, said), _set_on_another(chain, saying)
    year = _year_unstated(chain)
    stretch = _first_of_a_stretch(chain, saying)
    hop_date = _dated_by_a_hop(chain, acts)
    naming_unsaid = bool(ASKS_NAMESAKE.search(chain.question)) and not any(NAMING.search(text) for text in saying)
    number_unsaid = next((number for number in numbers if number not in unread and not any(
        _says_number(text, number) for text in chain_texts)), "")
    bridge = _taken_for_its_relatum(chain, names, saying, chain_texts)
    others_thing = _owned_otherwise(chain)
    related = _related_to_another(chain, names)
    label, other_label = _field_unasked(chain, names)
    fixed, held, given = _row_of_another(chain, names)
    # "who keeps the bees now?": only a line that tells the present says who does now
    not_now = asks_now(chain.question) and bool(chain.stating) and not any(tells_now(text) for text in chain.stating)
    relation_gaps = [f"the sentence stating '{answer}' does not say '{acts[0]}'" if verb_unstated else "",
                     f"the sentence stating '{answer}' does not say '{post_untold}'" if post_untold else "",
                     f"the sentence stating '{answer}' does not say it is so now" if not_now else "",
                     f"the sentence stating '{answer}' does not say it is of the {version}" if version else "",
                     f"the sentence stating '{answer}' does not speak of the {thing}" if thing else "",
                     f"the cited sentences do not say when {event}" if event else "",
                     f"the sentence stating '{answer}' says '{other_thing.split()[0]}' of something else, not of the "
                     f"{other_thing}" if other_thing else "",
                     f"the cited sentences do not place it in {year}" if year else "",
                     f"the sentence stating '{answer}' counts the first {stretch}, not the first time" if stretch
                     else "",
                     f"a hop sentence itself dates the act asked ({hop_date}), not the page it leads to" if hop_date
                     else "",
                     f"the sentence stating '{answer}' does not call them the {post_unsaid}" if post_unsaid else "",
                     f"the sentence stating '{answer}' does not tell what it was named after" if naming_unsaid else "",
                     f"the cited sentences do not tell who {' '.join([acted, *particle])}" if act_untold else "",
                     f"the sentence stating '{answer}' is about what the question ties its thing to, and the "
                     f"cited sentences do not say '{bridge}'" if bridge else "",
                     f"the cited sentences do not say it is of {number_unsaid}" if number_unsaid else "",
                     f"the sentence stating '{answer}' tells of {others_thing}" if others_thing
                     else "",
                     f"the sentence stating '{answer}' relates it to {related}, not to {' or '.join(names)}" if related
                     else "",
                     f"the row gives '{answer}' as its '{label}', beside its '{other_label}', and the question "
                     f"does not ask the '{label}'" if label else "",
                     f"the row of '{answer}' gives its '{fixed}' as '{held}', and the question gives '{given}'" if
                     fixed else ""]
    relation_gaps = [gap for gap in relation_gaps if gap]
    if relation_gaps:
        share = min(share, NO_RELATION_SHARE)
    as_place = _only_a_place(chain, names)
    elsewhere = _said_of_something_else(chain)
    owner = _owned_by_another(chain, names)
    subject = 1.0 if _on_subject(chain, names, labels) and not as_place and not elsewhere and not owner else \
        OFF_SUBJECT
    if fit and any(denies(text, chain.answer, relation) for text in chain.stating):
        fit, why_not = NOT_A_NAME, f"the cited sentence denies it of '{chain.answer}'"
    elif fit and chain.kind == "person" and (denial := _denied_elsewhere(chain, relation)):
        fit, why_not = NOT_A_NAME, f"a source read denies it of '{chain.answer}': \"{denial}\""
    elif fit and (correction := _set_aside_elsewhere(chain, relation)):
        fit, why_not = NOT_A_NAME, f"a source read sets '{chain.answer}' aside: \"{correction}\""
    doubted = bool(chain.stating) and all(hedged(_without_asides(_unasked_hedges(text, chain.question), chain.answer))
                                          for text in chain.stating)
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
                if stem(word) in asked - covered and stem(word) not in name_stems and word != year]
    if unstated:
        missing.append("the cited sentences do not state " + ", ".join(f"'{word}'" for word in unstated[:4]))
    missing += relation_gaps
    if doubted:
        missing.append(f"the sentence stating '{chain.answer}' doubts it or reports another's claim")
    if as_place:
        missing.append(f"the cited sentences name '{as_place}' only as the place where something else happened")
    elif elsewhere:
        missing.append(f"the cited sentence gives '{chain.answer}' in a clause about something else")
    elif owner:
        missing.append(f"the cited sentence gives '{chain.answer}' as '{owner}', whose owner is not the "
                       f"{' or '.join(names)} it names in another clause")
    elif subject < 1.0 and not unread:
        missing.append(f"the sentence naming '{chain.answer}' is not about what the question asks")
    established = [f"'{name}'" for name in found][:3] + [
        f"the hop through '{page}'" for page in chain.hop_pages[:1] if page not in names]
    return Commitment(confidence=round(confidence, 4), established=established, missing=missing, factors=factors)


def _writes_noun(noun: str, text: str) -> bool:
    """The text writes the noun itself, singular or plural ("company", "companies"), not only a word of its stem."""
    singular = noun[:-3] + "y" if noun.endswith("ies") else noun[:-2] if noun.endswith(
        ("ches", "shes", "sses", "xes")) else noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
    forms = {singular, singular + "s", singular + "es", noun}
    forms |= {singular[:-1] + "ies"} if singular.endswith("y") else set()
    return re.search(rf"\b(?:{'|'.join(map(re.escape, sorted(forms)))})\b", text, re.IGNORECASE) is not None


def _dated_by_a_hop(chain: Chain, acts: tuple[str, ...]) -> str:
    """The year a hop sentence about the question's own thing gives the very act asked ("The museum opened on 4 May
    1962", reached on the way to a page where another thing "opened in 1840"), when the answer is another: the hop
    answers the question itself, and the page it leads to dates something else. A hop that dates the act of another
    thing ("founded in 1819, long before Kesh Lane was laid out") only leads on, and a year the answer's sentence
    sets aside ("reopened in 1931, not 1930") is the mistake the answer corrects."""
    names = question_names(chain.question)
    if chain.kind != "date" or not acts or not names:
        return ""
    pages = chain.hop_pages or ("",) * len(chain.hops)
    for hop, page in zip(chain.hops, pages):
        years = [year for year in YEAR.findall(hop) if not any(denies(text, year, set()) for text in chain.stating)]
        if years and not any(year in chain.answer for year in years) and any(
                mentioned(name, [f"{page}: {hop}"]) for name in names) and any(
                states(stem(act), said_in(affirmed(hop))) for act in acts):
            return years[0]
    return ""


def _says_number(text: str, number: str) -> bool:
    """The text gives the release number as a figure of its own ("3.0 shipped", not "2.4.3.0" or "13.0")."""
    return number in DOTTED_NUMBER.findall(text)


def _bridging_act(question: str) -> tuple[str, str]:
    """The act of a relative clause that describes what is asked by its tie to something the question names ("the
    boat that took over from X", "the firm which bought X"), and the words of the clause after it. A light verb is
    told with its particle ("took over"); a clause opened by its own subject ("the boat that Ada built") describes the
    thing acted on, and its act is read by the act checks."""
    tokens = words(question)
    for at, word in enumerate(tokens[:-2]):
        if word not in CLAUSE_OPENERS or at == 0 or tokens[at - 1] in WH_WORDS:
            continue
        rest = tokens[at + 1:]
        passive = rest[0] in BE_FORMS
        rest = rest[1:] if rest[0] in AUXILIARIES | BE_FORMS and len(rest) > 2 else rest
        verb, after = rest[0], rest[1]
        if stem(verb) in LIGHT_VERBS and after in PARTICLES:
            return f"{verb} {after}", " ".join(rest[2:])
        # "a university that is located in X" tells where it is, which "a university in X" says as well
        if verb_shaped(verb) and verb not in STOPWORDS and stem(verb) not in LIGHT_VERBS and not (
                passive and after in PLACING):
            return verb, " ".join(rest[1:])
    return "", ""


def _taken_for_its_relatum(chain: Chain, names: list[str], saying: list[str], chain_texts: list[str]) -> str:
    """The act that ties the thing asked to a name the question gives ("who built the boat that took over from the
    Wren?"), when the sentence stating the answer names that very thing and no cited text tells the act: the thing
    asked is not the Wren but the one the act ties to it, so the sentence answers of the Wren itself."""
    act, clause = _bridging_act(chain.question)
    related = [name for name in names if " ".join(words(name)) in clause]
    if not act or not any(mentioned(name, saying) for name in related):
        return ""
    act_stems = " ".join(stem(word) for word in act.split())
    return "" if any(states(act_stems, said_in(affirmed(text))) for text in chain_texts) else act


def _field_unasked(chain: Chain, names: list[str]) -> tuple[str, str]:
    """The label of the field a row gives the answer under, and of another field on the same row giving a value of
    the same form, when the question says nothing of the answer's field, by its label or by a word of its value
    ("Boat: Tern; Built by: Ada Pell; Skippered by: Ivo Marr" for "who is in charge of the Tern?"): the row tells two
    relations, and the question does not say it asks the answer's. The row's first field is the record itself, what
    the row is about: answering by it needs no label."""
    asked = said_in(chain.question) | {stem(word) for word in words(chain.question)}  # "made" too, a light verb
    asked_noun = {stem(re.sub(r"['’]s$", "", word)) for word in asked_phrase(chain.question)}  # "which town's forge"

    def said(label: str) -> bool:
        return any(states(stem(word), asked) for word in words(label)
                   if word not in STOPWORDS or known_verb(word))  # "Made by" labels by its verb

    def same_form(value: str) -> bool:
        if re.search(r"\d", chain.answer):
            return bool(re.search(r"\d", value))
        spans = [span for span in name_spans(value) if not abbreviation(span)]
        return bool(spans) and not any(mentioned(name, [value]) for name in names)

    for text in chain.stating:
        fields = [(match.group("label").strip(), match.group("value")) for match in ROW_FIELD.finditer(text)]
        holding = [at for at, (_, value) in enumerate(fields) if chain.answer in value]
        if len(fields) < 2 or len(holding) != 1 or holding[0] == 0:
            continue
        label, value = fields[holding[0]]
        if said(label) or said(" ".join(re.findall(r"\b[a-z]+\b", value))):  # "Made by: built by Ada Pell"
            continue
        # another field of the same form: one labelled by the noun the question asks for (even the row's first:
        # "Town: Orlby; Address: 3 Mill Row" for "which town?"), else any but the record
        others = [(at, other_label) for at, (other_label, other_value) in enumerate(fields)
                  if at != holding[0] and same_form(other_value)]
        other = next((other_label for _, other_label in others if asked_noun & stems_of(other_label)), "") or next(
            (other_label for at, other_label in others if at != 0), "")
        if other:
            return label, other
    return "", ""


def _row_of_another(chain: Chain, names: list[str]) -> tuple[str, str, str]:
    """A field of the answer's row that the question fixes by its label and fills with a name of its own, when the
    row holds another name there ("Year: 1934; Men's pairs: Ivo Marr; Ladies' pairs: Ada Pell" for "who won the men's
    pairs the year Nell Vane won the ladies' pairs?"): the row is another year's. The label, its value, and the name
    the question gives."""
    asked = stems_of(chain.question)
    for text in chain.stating:
        fields = [(match.group("label").strip(), match.group("value").strip()) for match in ROW_FIELD.finditer(text)]
        missing = [name for name in names if not mentioned(name, [text])]
        if len(fields) < 2 or not missing:
            continue
        for label, value in fields:
            spans = name_spans(value)
            if chain.answer not in value and stems_of(label) and stems_of(label) <= asked and spans and not any(
                    mentioned(name, [value]) for name in names):
                return label, spans[0], missing[0]
    return "", "", ""


def _version_unsaid(chain: Chain, saying: list[str]) -> str:
    """A word the question sets before a name to say which version of it is meant ("the rebuilt East Wing",
    "Kesh's original hall", "the third Gull"), when no sentence stating the answer, nor its page's title, says it: a
    figure of one version is no figure of the other."""
    for match in re.finditer(r"\b(?:the|\w+['’]s)\s+([a-z][a-z-]+)\s+(?:[a-z][a-z-]+\s+){0,2}(?=[A-Z])",
                             chain.question):  # "the rebuilt brick East Wing": what it is made of may come between
        word = match.group(1)  # "the rebuilt hall", "the restored mill", not "the barge Gull Rose" (what it is)
        versioned = word in RANKS or verb_shaped(word) or _remade(word)
        if versioned and not any(states(stem(word), said_in(text)) for text in saying + list(chain.answer_pages)):
            name = (name_spans(chain.question[match.end(1):]) or [""])[0]
            return f"{word} {name}".strip()
    # "when was the rebuilt pavilion opened?": a thing made again is asked of its new self, whatever its noun
    remade = re.search(r"\bthe\s+([a-z]+)\s+([a-z]+)\b", chain.question)
    if remade and _remade(remade.group(1)) and remade.group(2) not in STOPWORDS and not any(
            states(stem(remade.group(1)), said_in(text)) for text in saying + list(chain.answer_pages)):
        return remade.group(0)[4:]
    return ""


def _remade(word: str) -> bool:
    """A participle telling a thing was made again ("rebuilt", "restored", "re-roofed")."""
    rest = word[2:].lstrip("-")
    return word.startswith("re") and len(rest) >= 4 and (verb_shaped(rest) or rest in IRREGULAR_PASTS)


def _set_on_another(chain: Chain, saying: list[str]) -> str:
    """A rank or version the question sets on its noun ("the first keeper", "the original hall"), when every time the
    sentences stating the answer use that word they set it on another noun ("the original front wall", "the first
    good tile"): the word tells of that other thing, so the sentence does not say the answer is the one asked for.
    Used of an act ("it was first drawn by Y"), the word may well tell of the thing asked."""
    tokens = words(chain.question)
    at = next((i for i, token in enumerate(tokens[1:-1], 1)
               if token in RANKS and (tokens[i - 1] in OWNERS or tokens[i - 1].endswith(("'s", "’s")))), None)
    if at is None:
        return ""
    phrase = list(itertools.takewhile(lambda word: not (word in STOPWORDS | PHRASE_ENDS | AUXILIARIES | PARTICLES or
                                                        verb_shaped(word)), tokens[at + 1:at + 5]))
    if not phrase:
        return ""
    modifier, head = tokens[at], stem(phrase[-1])
    elsewhere = False
    for text in saying:
        said = re.findall(r"[a-z0-9'’]+|[^\sa-z0-9'’-]", text.lower())  # "cellar-master": two words, as asked
        for where in (i for i, token in enumerate(said) if token == modifier):
            after = list(itertools.takewhile(lambda token: token[0].isalnum(), said[where + 1:where + 5]))
            if ({head} | {stem(word) for word in phrase}) & {stem(word) for word in after}:
                return ""  # said of the noun asked or one like it: "the first lighthouse keeper", "first motor driver"
            if not after or after[0] in STOPWORDS or verb_shaped(after[0]) or re.fullmatch(rf"\d+|{COUNT_WORD}",
                                                                                             after[0]):
                return ""  # "the first of them", "was the first.", "first drawn by", "its first twenty years":
                # the sentence may mean it
            elsewhere = True  # set on another noun
    return f"{modifier} {' '.join(phrase)}" if elsewhere else ""


def _first_of_a_stretch(chain: Chain, saying: list[str]) -> str:
    """The first whole stretch of something ("first time it ran for a whole winter", "its first full season"), which
    the sentence stating the answer counts where the question asks the first time at all: a first that had to last
    a year, a season or a winter comes after the first occurrence, not at it. Returns the stretch's words."""
    if not re.search(r"\b(?:first|earliest)\b", chain.question, re.IGNORECASE) or \
            WHOLE_STRETCH.search(chain.question):
        return ""
    for text in saying:
        bounded = re.search(r"\bfirst\b[^.;:]{0,40}?" + WHOLE_STRETCH.pattern, text, re.IGNORECASE)
        if bounded:
            return bounded.group("stretch")
    return ""


def _event_unstated(chain: Chain, said: set[str]) -> str:
    """The event a question dates its answer by ("who was bandmaster at the time the hut burned down?", "... in the
    year the dam was finished"), when no cited sentence states its verb: which holder, which figure, is the one of
    that time is then not shown, however well the rest is covered."""
    timed = TIMED_BY.search(chain.question.strip().rstrip("?"), 1)  # not the question's own "when"
    if timed is None:
        return ""
    clause = list(itertools.takewhile(lambda word: word.lower() not in CLAUSE_OPENERS, timed.group("clause").split()))
    verbs = [word for word in map(str.lower, clause) if (verb_shaped(word) or word in IRREGULAR_PASTS) and
             stem(word) not in LIGHT_VERBS]
    if not verbs or any(states(stem(verb), said) for verb in verbs):
        return ""
    return " ".join(clause)


def _year_unstated(chain: Chain) -> str:
    """A year the question picks its answer by among those of other times ("who was captain of Kesh in 1872?", "what
    was the town's population in 1901?"), when no cited sentence or page title gives it, alone or inside a stretch
    it states ("from 1868 to 1880", "the 1870s"): a post or a figure has one holder or value a year, and a sentence
    naming one without that year may name that of another time. A count or a sum ("how many boats were built in
    1998?") is a figure of one year too, and the sentence stating it or its page must give that year itself: a hop
    that gives it dates something else. Any question's year, when the sentences stating the answer date the act
    asked to other years and not to it ("judged six trials between 1898 and 1910" for "who judged the 1963 trial?"),
    or stand on pages dated to other years: they tell of another time."""
    acts = {stem(act) for act in asked_acts(chain)}
    # "who captained the club in 1898?" asks a post's holder as "who was its captain in 1898?" does: a verb that is
    # a noun for a person ("captain", "skipper", "coach") tells the holding of that post
    holder = HOLDER_OF_A_TIME.match(" ".join(words(chain.question))) or chain.kind == "person" and any(
        names_a_person(act) for act in acts)
    texts = list(chain.stating) + list(chain.hops) + list(chain.answer_pages) + list(chain.hop_pages) + [chain.answer]
    own = list(chain.stating) + list(chain.answer_pages) + [chain.answer]  # the sentence, its page's title, itself
    for year in YEAR.findall(chain.question):
        if any(_gives_year(text, int(year)) for text in own):
            continue
        if chain.kind == "number":  # a count or a sum is the figure of one year, given where the figure is given
            return year
        if holder and not any(_gives_year(text, int(year)) for text in texts):
            return year
        if acts and chain.stating and all(act_years(text, acts) for text in chain.stating):
            return year  # the sentences date the act asked, to another time
        if chain.answer_pages and all(YEAR.search(page) for page in chain.answer_pages) and not any(
                _gives_year(text, int(year)) for text in texts):
            return year  # their pages are of another year ("The Centenary Match, 1962"), and no hop dates it
    return ""


def _gives_year(text: str, year: int) -> bool:
    """The text gives the year, or a stretch of years or a decade that holds it; a year it bounds another time by
    ("before 1902", "after 1902") is not the time it tells of."""
    if any(not (BOUNDING.search(text, 0, at.start()) and BOUND_ENDS.match(text, at.end()))
           for at in re.finditer(rf"(?<!\d){year}(?!\d)", text)) or any(
            int(decade) == year // 10 for decade in DECADE.findall(text)):
        return True
    for between, start, end in YEAR_SPAN.findall(text):
        first = int(between or start)
        last = int(end) if len(end) == 4 else first // 100 * 100 + int(end)
        if first <= year <= last:
            return True
    return False


def _thing_acted_on(chain: Chain, saying: list[str]) -> str:
    """The thing a "who <did> the <thing>?" question asks about ("who built the first lifeboat house?"), when neither
    the sentence stating the answer nor its page speaks of it: that sentence tells who did the act to something else
    ("the boat had been built by Y")."""
    asked = ASKS_WHO_DID_WHAT.match(chain.question.strip())
    if asked is None or chain.kind != "person" or not (verb_shaped(asked.group("act")) or
                                                       asked.group("act") in IRREGULAR_PASTS):
        return ""
    if re.match(r"\s+(?:that|which|who|whom)\b", chain.question.strip()[asked.end():]):
        return ""  # "the company that makes X" is found through a hop, which may call it otherwise ("the firm")
    noun = asked.group("thing").split()[-1]
    if noun in STOPWORDS or any(states(stem(noun), said_in(text)) for text in saying + list(chain.answer_pages)):
        return ""
    return asked.group("thing")


def _only_a_place(chain: Chain, names: list[str]) -> str:
    """A name the question asks about as such ("When was Wilmot Cross born?") that the cited sentences give only as
    a place, after "in", "at", "near" ("Cecily Dunmore was born in Wilmot Cross in 1881"): they tell of something
    that happened there, not of the name itself. A name the question too gives after a preposition ("Who built
    the chapel at Wilmot Cross?"), sets before a noun ("the Wilmot Cross chapel") or after a verb the sentence tells
    ("When did the train reach Wilmot Cross?" over "it arrived at Wilmot Cross"), is asked about as a place."""
    for name in names:
        before = re.compile(rf"(\w+)\s+(?:the\s+)?{re.escape(name)}\b")
        asked = [match.group(1).lower() for match in before.finditer(chain.question)]
        if any(word in STOPWORDS - ARTICLES - BE_FORMS - DO_FORMS for word in asked):
            continue
        if any(known_verb(word) and any(states(stem(word), said_in(text)) for text in chain.stating)
               for word in asked):
            continue
        if _noun_qualified(name, chain.question):
            continue  # "the Kesh pier master": a name set before a noun places that thing, as "at Kesh" does
        opening = any(text.startswith(name) for text in chain.stating)
        if not opening and place_share(name, chain.stating) == 1.0:
            return name
    return ""


def _noun_qualified(name: str, question: str) -> str:
    """The common noun the question sets a name before ("the Kesh pier master", "the Kesh company's Gull"): what the
    name places or owns."""
    after = re.search(rf"\b{re.escape(name)}\s+([a-z]+)\b", question)
    noun = after.group(1) if after else ""
    return noun if noun and noun not in STOPWORDS and not verb_shaped(noun) else ""


def _said_of_something_else(chain: Chain) -> bool:
    """A time or a count stated in a clause of its own that says nothing the question asks ("It fought a fare war
    in 1908, ... and was shut down for five weeks by the strike of 1923" for "how many weeks did the fare war
    last?"): a sentence that joins several facts gives each number to its own clause."""
    if chain.kind not in ("number", "date") or not chain.stating:
        return False
    counted = counted_noun(chain.question)
    asked = stems_of(chain.question) - stems_of(chain.answer) - stems_of(counted)
    for text in chain.stating:
        at = text.find(chain.answer)
        if at < 0 or is_field(text):  # a field's label says what its value is of ("Rooms: 42")
            return False
        start = max([0] + [match.end() for match in CLAUSE_BREAK.finditer(text, 0, at)])
        end = next((match.start() for match in CLAUSE_BREAK.finditer(text, at + len(chain.answer))), len(text))
        clause = text[start:at] + " " + text[at + len(chain.answer):end]
        if asked & said_in(clause) or any(states(term, said_in(clause)) for term in asked):
            return False
        # "four bays, a barrel roof above": a phrase of the count and its noun alone counts what the
        # question counts
        comma = text.find(",", at + len(chain.answer))
        phrase = text[text.rfind(",", 0, at) + 1:comma if comma >= 0 else len(text)]
        if counted and stems_of(phrase) - stems_of(chain.answer) == {stem(counted)}:
            return False
    return True


def _owned_by_another(chain: Chain, names: list[str]) -> str:
    """The words that give the answer as something's ("her skipper was X"), when the pronoun's owner cannot be the
    question's thing: the sentence names that thing only in a later clause ("Her skipper was Ivo Marr, and he raced
    the Gull Rose ..."), and the page is not about it. A pronoun stands for something named before it; the thing
    the sentence goes on to name as another's concern is not it."""
    if chain.kind not in ("person", "name") or not names or not chain.stating or any(
            mentioned(name, list(chain.answer_pages)) for name in names):
        return ""
    owned = ""
    for text in chain.stating:
        at = text.find(chain.answer)
        if at < 0 or not any(mentioned(name, [text]) for name in names):
            return ""
        start = max([0] + [match.end() for match in CLAUSE_BREAK.finditer(text, 0, at)])
        end = next((match.start() for match in CLAUSE_BREAK.finditer(text, at + len(chain.answer))), len(text))
        clause = text[start:end]
        # the answer given as the pronoun's owner's: "Her skipper was X", "its builder, X"
        possessed = OWNED_BY_A_PRONOUN.search(text[start:at])
        if possessed is None or any(mentioned(name, [clause, text[:start]]) for name in names):
            return ""  # no pronoun, or the thing is named where the pronoun may stand for it
        owned = possessed.group(0)
    return owned


def _relatives_named(question: str) -> set[str]:
    """The stems of the relatives the question names by whose they are ("Ada Pell's nephew", "her late husband")."""
    return {stem(noun) for pair in re.findall(r"(?:['’]s|\b(?:his|her|their))\s+([a-z]+)(?:\s+([a-z]+))?", question)
            for noun in pair if noun and kind_of(noun, KINSHIP)}


def _related_to_another(chain: Chain, names: list[str]) -> str:
    """The one the stating sentence relates the answer to, when it is not the question's: "what was the name of Ivo
    Marr's wife?" is not answered by "Aldo Marr and his wife Ada", where "his" stands for the name just before it.
    Returns that owner's name, or ""."""
    for name in names:
        asked = re.search(rf"{re.escape(name)}['’]s\s+(?:[a-z]+\s+)?(?P<noun>[a-z]+)", chain.question)
        if not asked:
            continue
        for text in chain.stating:
            at = text.find(chain.answer)
            owned = list(re.finditer(rf"\b(?:his|her|their)\s+(?:[a-z]+\s+)?{re.escape(asked.group('noun'))}\b",
                                     text[:at])) if at > 0 else []
            if not owned:
                continue
            before = name_spans(text[:owned[-1].start()])
            owner = before[-1] if before else ""
            if owner and not mentioned(name, [owner]) and not mentioned(owner, [name]):
                return owner
    return ""


def _someone_elses_page(title: str, names: list[str], read: tuple[str, ...]) -> bool:
    """The page is a person's own page, and the question names someone else: a sentence of it that names the
    question's person ("Elder son of Ada Pell.") tells of the page's person, not of hers ("Died 1958.")."""
    subject = clean_title(title)
    named = bool(subject) and all(word[:1].isupper() for word in subject.split())  # a name, not "the 1978 sale"
    return named and not any(mentioned(name, [subject]) for name in names) and a_person(subject, read)


def _picks_the_other(chain: Chain, names: list[str]) -> bool:
    """The answer's page is about the question's thing and another ("Notes on Kesh and Orren"), and every
    sentence stating the answer names the other one and not the question's ("Orren in 1881: 530 souls"): the
    figure is the other's, whatever the page's title says."""
    if not names or not chain.stating:
        return False
    titled = [part for page in chain.answer_pages for span in name_spans(clean_title(page))
              if " and " in span for part in span.split(" and ")]  # "Kesh and Orren": two names the title joins
    others = {span for span in titled if not any(mentioned(name, [span]) or mentioned(span, [name]) for name in names)
              and not mentioned(span, [chain.answer])}
    return bool(others) and all(
        not any(mentioned(name, [text]) for name in names) and any(mentioned(other, [text]) for other in others)
        for text in chain.stating)


def _without_asides(sentence: str, answer: str) -> str:
    """The sentence without the relative clauses that describe someone else (", who is said to have ..."): a doubt
    there is not about the answer."""
    return re.sub(r",\s+(?:who|which|whose|whom)\b[^,;]*(?=[,;]|$)",
                  lambda aside: aside.group(0) if answer in aside.group(0) else "", sentence)


def _after_on_its_page(hop: str, stating: tuple[str, ...], read: tuple[str, ...]) -> bool:
    """The hop stands after every stating sentence on the page that holds them (found by the stating sentence's
    tail, which ``said_on`` leaves as written)."""
    for text in stating:
        tail = text[-PAGE_TAIL:]
        page = next((page for page in read if hop in page and tail in page), "")
        if not page or page.find(hop) < page.find(tail):
            return False
    return True


def _unasked_hedges(text: str, question: str) -> str:
    """The text without the hedging words the question itself uses: "the claim for the flooded cellar came to £85"
    doubts nothing when the question asks what the claim came to."""
    asked = set(words(question))
    return re.sub(r"[A-Za-z]+", lambda word: "" if word.group(0).lower() in asked and HEDGES.fullmatch(
        word.group(0).lower()) else word.group(0), text)


def _other_entries(hop: str, stating: tuple[str, ...], names: list[str]) -> bool:
    """The hop opens on the question's name as its label, and every stating line on another label ("Wren: 6
    oars." and "Kite: 4 oars." on one page): entries of a list, each about its label, so the hop ties its own
    entry only. (A field's label, "Oars: 4", names no one: the record's fields stay one entry.)"""
    if _a_row(hop) and stating and all(_a_row(text) and text != hop for text in stating):
        return True  # a table's rows are its entries: "Name: Ivo Marr; Came from: Kesh" ties Ivo Marr's row only
    label = ENTRY_LABEL.match(hop)
    return label is not None and any(mentioned(name, [label.group(1)]) for name in names) and all(
        (other := ENTRY_LABEL.match(text)) and other.group(1) != label.group(1) for text in stating)


def _a_row(text: str) -> bool:
    """A table's row as a sentence: two fields or more on one line ("Name: Ada Pell; Years: 1891–1912")."""
    return len(ROW_FIELD.findall(text)) >= 2


def _on_subject(chain: Chain, names: list[str], labels: frozenset[str] = frozenset()) -> bool:
    """The answer sentence (with its page's title) names something the question names, or a bridge entity that a
    hop sentence ties to the question. A hop ties only when the question describes something instead of naming it
    ("the orchard *that* P founded") or the hop states a relation the question asks through: a sentence that merely
    mentions the question's town beside another town ("a village downstream of Dunmore") is no way from "the mayor
    of <that village>" to the other town's mayor."""
    # "Died: 1901" on another person's page is that person's death, unless a hop ties that person to the question
    # ("Founder: Ada Pell" on the guild's page, for "where was the guild's founder born?")
    life_field = bool(names) and bool(LIFE_WORDS & stems_of(chain.question)) and bool(chain.stating) and bool(
        chain.answer_pages) and all(is_field(text) for text in chain.stating) and all(
        _someone_elses_page(page, names, chain.read) for page in chain.answer_pages)
    stating = list(chain.stating) + list(chain.answer_pages)
    asked = stems_of(chain.question) - stems_of(chain.answer)
    if _picks_the_other(chain, names):
        return False
    if not life_field and (any(mentioned(name, list(chain.stating) if name in labels else stating) for name in names)
                           or not names and asked & stems_of(" ".join(stating))):
        return True
    # an entry's bold lead-in names what each of its sentences is about ("**Harl Fell** — ... The beacon tower (18 m)")
    entries = [lead_in(text, page) for text in chain.stating for page in chain.read if text in page]
    if not life_field and any(mentioned(name, [entry]) for entry in entries if entry for name in names):
        return True
    # a sentence of the answer's own page that names the question's thing ties the page to it (the page's opening)
    # ... unless the stating sentence stands for the page's own named subject by a pronoun and the hop comes after
    # it ("Its reading room opened in 1902. Kesh made do with the schoolroom." on "Orlby and its hamlets"): a
    # pronoun points back, so it is about the page's subject, whatever the page names later
    titles = [clean_title(page) for page in chain.answer_pages]
    of_the_title = len(titles) == len(chain.stating) and all(
        name_spans(title) and (PRONOUN_OPENING.match(text) or text.startswith(title))
        for text, title in zip(chain.stating, titles))  # ``said_on`` writes the title for the pronoun
    own_page = [hop for page, hop in zip(chain.hop_pages, chain.hops) if page and page in chain.answer_pages
                and not (of_the_title and _after_on_its_page(hop, chain.stating, chain.read))
                and not _someone_elses_page(page, names, chain.read) and not _other_entries(hop, chain.stating, names)]
    if not life_field and any(mentioned(name, own_page) for name in names if name not in labels):
        return True
    # a line that corrects another ("the mill reopened in 1931, not 1930") speaks of what the line it corrects, or
    # the record that line is part of, names
    paged = list(zip(chain.hop_pages or ("",) * len(chain.hops), chain.hops))
    corrected = {page for page, hop in paged if _corrected_by(chain.stating, hop)}
    if not life_field and any(mentioned(name, [f"{page}: {hop}"]) for page, hop in paged if page in corrected
                              for name in names if name not in labels):
        return True
    name_stems = set().union(*(stems_of(name) for name in names)) if names else set()
    # "the Kesh company's Gull": the noun a name qualifies is part of what is named, no relation asked
    name_stems |= {stem(noun) for name in names if (noun := _noun_qualified(name, chain.question))}
    answer_said = said_in(" ".join(stating))
    relations = {term for term in asked - name_stems if not states(term, answer_said)}  # what the answer does not say
    # a hop is read with its page's title, unless that page is the answer's own: a title both share is no bridge
    # between them ("Name: Ivo Marr; ..." and "Name: Ada Pell; ..." under one table's title)
    hops = [hop if page in chain.answer_pages else f"{page}: {hop}"
            for page, hop in zip(chain.hop_pages, chain.hops)] or list(chain.hops)
    tokens = words(chain.question)
    opening = 1 if len(tokens) > 1 and tokens[1] in WH_WORDS else 0  # "in which year ...": the question's own word
    describes = bool(DESCRIBED.search(" ".join(tokens[opening + 1:])))
    described = (asked - name_stems) - relations  # the question's words the answer sentence says
    tied_hops = [hop for hop in hops if (describes or any(states(term, said_in(hop)) for term in relations | described))
                 and (any(mentioned(name, [hop]) for name in names) or not names)]
    bridges = {name for hop in tied_hops for name in name_spans(hop)} - set(names)
    if life_field:  # the person whose page it is must be the bridge
        stating = [clean_title(page) for page in chain.answer_pages]
    return any(mentioned(bridge, stating) for bridge in bridges if bridge.lower() != chain.answer.lower())
