"""Who a sentence says something of (engine/roles.py): the names on the agent side of its main verb, read through the
passive voice, an opening phrase, a relative clause, and a subject that only refers to its page's title."""

from __future__ import annotations

import pytest

from satiate.engine.roles import denies, name_words, nearest_verb, role_problem, roles, same_name
from satiate.tools.text import stem


@pytest.mark.parametrize(("sentence", "title", "agents"), [
    ("Bo Wren was the daughter of the late mayor Ada Wren.", "", {"Bo Wren"}),  # copula: the subject is agent side
    ("Lina Moss hired Tomas Reed in 1931.", "", {"Lina Moss"}),
    ("Tomas Reed was hired by Lina Moss in 1931.", "", {"Lina Moss"}),  # passive: the agent follows "by"
    ("The Orren Press was founded in 1901.", "", set()),  # passive, no agent named: its subject was acted on
    ("In 1901, Lina Moss founded the Orren Press.", "", {"Lina Moss"}),  # the opening phrase is no subject
    ("Ada Wren, who was born in Kesh, founded the press.", "", {"Ada Wren"}),  # nor is the relative clause's verb
    ("Dr. J. R. Quill met Ann B. Vole in St. Orren.", "", {"Dr J. R. Quill"}),
    ("Kesh drew many visitors.", "", {"Kesh"}),  # a one-word name opening the sentence is still a name
    ("Ada Wren owns the cider mill.", "", {"Ada Wren"}),  # a present-tense verb after a name
    ("It hosts a fair each spring.", "Orren Festival", {"Orren Festival"}),  # a pronoun subject is the page's subject
    ("The festival drew 4,000 visitors.", "Orren Festival", {"Orren Festival"}),  # so is a description of it
    ("The mayor praised Ada Wren.", "Ada Wren", set()),  # "the mayor" is not the page "Ada Wren"
    # an opening phrase with no comma of its own: the comma after the object's apposition does not close it
    ("By 1850 Lina Moss had bought the mill from its miller, Tomas Reed, and rebuilt it.", "", {"Lina Moss"}),
    ("By 1850 she had bought the mill from its miller, Tomas Reed.", "Lina Moss", {"Lina Moss"}),
])
def test_the_agent_side_of_a_sentence(sentence: str, title: str, agents: set[str]) -> None:
    found = roles(sentence, title)
    assert found.judged
    assert set(found.agents) == agents


def test_a_sentence_whose_verb_is_not_found_is_not_judged() -> None:
    assert not roles("Orren Festival, a folk fair in Kesh").judged
    assert role_problem("Ada Wren founded the press.", [("Orren Festival, a folk fair in Kesh", "")]) is None


def test_names_match_when_one_side_shortens_them_but_two_people_sharing_a_surname_do_not() -> None:
    assert same_name(name_words("The Orren Festival"), name_words("Orren Festival"))
    assert same_name(name_words("Quill"), name_words("J. R. Quill"))
    assert not same_name(name_words("Ada Wren"), name_words("Bo Wren"))


def test_a_claim_that_gives_one_person_what_the_sentence_says_of_another_is_a_role_problem() -> None:
    source = [("Bo Wren was the daughter of the late mayor Ada Wren.", "Bo Wren")]
    problem = role_problem("Ada Wren was the daughter of the late mayor Ada Wren.", source)
    assert problem is not None and "Ada Wren" in problem
    assert role_problem("Bo Wren was the daughter of the late mayor Ada Wren.", source) is None


def test_moving_the_object_into_the_subject_is_a_role_problem_and_the_passive_restatement_is_not() -> None:
    source = [("Lina Moss hired Tomas Reed in 1931.", "")]
    assert role_problem("Tomas Reed hired Lina Moss in 1931.", source) is not None
    assert role_problem("Tomas Reed was hired by Lina Moss in 1931.", source) is None
    assert role_problem("In 1931 Tomas Reed was hired.", source) is None


def test_a_negation_between_a_name_and_the_verb_denies_it_of_that_name() -> None:
    from satiate.tools.text import stems
    sentence = "Despite the name, Ada Wren didn't design it: the wheel was the work of Bo Reed."
    assert denies(sentence, "Ada Wren", stems("designed"))
    assert not denies(sentence, "Bo Reed", stems("designed"))
    assert not denies("Ada Wren designed the wheel and did not build it.", "Ada Wren", stems("designed"))
    assert denies("Ada Wren never married.", "Ada Wren", stems("married"))
    # the alternative "not" sets aside is denied, whatever the act; the one kept is not
    held = "The inquest sat at the Gull Inn at Orrby on 3 May 1901, not at Kesh as the papers said."
    assert denies(held, "Kesh", stems("sat")) and not denies(held, "Orrby", stems("sat"))
    assert denies("It was sold in 1902, not 1903.", "1903", set())
    assert not denies("The hall did not open until 1902.", "1902", stems("opened"))  # when it did open


def _act(*forms: str):
    wanted = {stem(form) for form in forms}
    return lambda word: stem(word) in wanted


@pytest.mark.parametrize(("sentence", "span", "act", "verb"), [
    # a phrase goes with the verb before it in its clause
    ("Orla Tey surveyed the line in 1822 and managed the works until it opened.", "1822", "open", "surveyed"),
    ("Born in Hesk in 1790 and buried at St Anny's.", "St Anny", "born", "buried"),
    ("Born in Hesk in 1790 and buried at St Anny's.", "Hesk", "born", "born"),
    ("The mill was opened by Ivo Lant, a cooper, with a press he bought later.", "Ivo Lant", "bought", "opened"),
    ("The mill, opened in 1850 by Ivo Lant, closed in 1900.", "Ivo Lant", "opened", "opened"),
    # a phrase that opens its clause goes with the verb after it
    ("In 1846 the firm sold out to a railway, which kept the quay open.", "1846", "open", "sold"),
    ("After the flood, Ivo Lant built the new bridge.", "Ivo Lant", "built", "built"),
    # a relative clause on the phrase says what it did itself
    ("In 1922 the mill was sold to the draper Ivo Lant, who bought it with the barn.", "Ivo Lant", "bought", "bought"),
    # a bare form after anything but an auxiliary, "to" or a pronoun is a noun: the act is not stated by it
    ("Gull Rose was the first play Ivo Lant directed for the company.", "Ivo Lant", "played", "directed"),
    ("Ivo Lant was to play the miller.", "Ivo Lant", "played", "play"),
    ("The bell was rung soon after eleven by Ivo Lant.", "Ivo Lant", "rung", "rung"),  # a count ending in -en is none
])
def test_a_phrase_goes_with_the_verb_beside_it_in_its_clause(sentence, span, act, verb):
    assert nearest_verb(sentence, span, _act(act)) == verb


def test_a_sentence_that_never_states_the_act_is_not_judged():
    assert nearest_verb("Ivo Lant was a cooper from Hesk.", "Ivo Lant", _act("founded")) is None
    assert nearest_verb("The mill opened in 1850.", "1851", _act("opened")) is None  # the span is not there
