"""WordNet tables (tools/lexicon): verb paraphrases by a frequent sense two verbs share, nouns for persons, and
which plain nouns are of a kind."""

from __future__ import annotations

from satiate.tools.lexicon import (
    a_calling,
    a_plural,
    kind_of,
    names_a_person,
    paraphrases,
    phrase_stems,
    told_by_a_plain_noun,
)
from satiate.tools.lexicon.build import irregular_forms, noun_graph, person_nouns
from satiate.tools.text import stem


def test_verbs_sharing_their_usual_sense_are_paraphrases_both_ways():
    assert {"establish", "set up"} <= paraphrases(stem("founded"))
    assert stem("founded") in paraphrases(stem("established"))
    assert "wed" in paraphrases(stem("married")) and "pass away" in paraphrases(stem("died"))


def test_a_rare_sense_makes_no_paraphrase():
    assert "go" not in paraphrases(stem("died"))  # "go" means to die only in a late sense of it
    assert paraphrases(stem("visited")) & paraphrases(stem("founded")) == frozenset()


def test_two_word_phrases_are_read_by_their_stems():
    assert {"set up", "pass away"} <= phrase_stems("Set up in 1887; she passed away in 1931")


def test_a_noun_whose_usual_sense_is_a_kind_of_person_names_a_person():
    assert names_a_person("clergyman") and names_a_person("nurses") and names_a_person("batsmen")
    assert not names_a_person("firm") and not names_a_person("band") and not names_a_person("mill")


def test_the_person_nouns_are_built_from_the_hypernyms_of_each_nouns_first_sense(tmp_path):
    (tmp_path / "data.noun").write_text(
        "  1 licence header line\n"
        "00007846 03 n 01 person 0 000 | a human being\n"
        "10000001 18 n 01 curate 0 001 @ 00007846 n 0000 | an invented junior clergyman\n"
        "10000002 18 n 02 wright 0 joiner 0 001 @ 10000001 n 0000 | an invented kind of curate\n"
        "20000001 06 n 01 mill 0 000 | an invented building\n", encoding="latin-1")
    (tmp_path / "index.noun").write_text(
        "  1 licence header line\n"
        "curate n 1 1 @ 1 0 10000001\n"
        "joiner n 1 1 @ 1 0 10000002\n"
        "mill n 1 0 1 0 20000001\n"
        "wright n 2 1 @ 2 0 20000001 10000002\n", encoding="latin-1")  # its first sense is the building
    assert person_nouns(tmp_path) == ["curate", "joiner"]


def test_the_noun_graph_keeps_common_nouns_senses_and_hypernyms_but_no_named_one(tmp_path):
    (tmp_path / "data.noun").write_text(
        "  1 licence header line\n"
        "00007846 03 n 01 person 0 000 | a human being\n"
        "10000001 18 n 01 wright 0 001 @ 00007846 n 0000 | an invented kind of worker\n"
        "10000003 18 n 01 Wright 0 001 @i 10000001 n 0000 | an invented man of that name\n"
        "20000001 06 n 01 mill 0 000 | an invented building\n", encoding="latin-1")
    (tmp_path / "index.noun").write_text(
        "  1 licence header line\n"
        "mill n 1 0 1 0 20000001\n"
        "person n 1 0 1 0 00007846\n"
        "wright n 2 1 @ 2 0 10000003 10000001\n", encoding="latin-1")  # the named one is listed first
    graph = noun_graph(tmp_path)
    number = {offset: at for at, offset in enumerate(sorted(["00007846", "10000001", "10000003", "20000001"]))}
    assert graph["senses"]["wright"] == [number["10000001"]]  # the named Wright is no sense of the common noun
    assert graph["parents"][number["10000001"]] == [number["00007846"]]
    assert graph["lexfiles"][number["20000001"]] == 6


def test_a_plain_noun_is_of_a_kind_by_its_usual_senses_and_not_by_being_the_kind():
    assert kind_of("navy", "colour") and kind_of("leeks", "vegetable") and kind_of("niece", "relative")
    assert kind_of("oak", "wood") and kind_of("green", "colours")
    assert not kind_of("colour", "colour")  # the kind itself tells no colour
    assert not kind_of("treasurer", "colour") and not kind_of("mill", "vegetable")


def test_a_plural_is_told_from_a_noun_that_ends_in_s():
    assert a_plural("owners") and a_plural("leeks") and a_plural("batsmen")
    assert not a_plural("mason") and not a_plural("colours") and not a_plural("news")


def test_kinds_told_by_a_plain_noun_are_colours_foods_plants_and_stuff_not_things_with_names():
    assert all(told_by_a_plain_noun(kind) for kind in ("colour", "color", "vegetable", "cheese", "wood"))
    assert not any(told_by_a_plain_noun(kind) for kind in ("boat", "dog", "price", "size", "number", "village"))


def test_a_calling_is_a_person_by_their_work_not_a_relative_a_post_or_the_word_for_workers():
    assert all(a_calling(noun) for noun in ("blacksmith", "postman", "electricians", "grocer", "farmer", "nurse"))
    assert not any(a_calling(noun) for noun in ("niece", "widow", "member", "friend", "workers", "treasurer"))


def test_irregular_forms_are_built_from_verb_exc_without_verbs_of_their_own_or_function_words(tmp_path):
    (tmp_path / "index.verb").write_text(
        "  1 licence line\n"
        "quell v 1 0 1 0 20000001\n"
        "found v 1 0 1 0 20000002\n"
        "find v 1 0 1 0 20000003\n"
        "have v 1 0 1 0 20000004\n"
        "clip v 1 0 1 0 20000005\n", encoding="latin-1")
    (tmp_path / "verb.exc").write_text(
        "quelt quell\nfound find\nhad have\nclipped clip\nclipping clip\nquelt-up quell\n", encoding="latin-1")
    # "found" is a verb of its own, "had" a function word, "clipped" the stemmer joins itself, "clipping" no past
    assert irregular_forms(tmp_path) == {"quelt": "quell"}


def test_an_irregular_past_meets_its_verb_and_a_verb_of_its_own_stays_apart():
    assert stem("left") == stem("leave") and stem("sought") == stem("seek") and stem("said") == stem("says")
    assert stem("found") == stem("founded") != stem("find")  # "found" is a verb of its own
    assert stem("born") == "born" and stem("was") == "was"
