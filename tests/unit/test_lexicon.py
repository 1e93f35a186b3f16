"""Verb paraphrases from WordNet (tools/lexicon): a frequent sense two verbs share, compared by stems."""

from __future__ import annotations

from satiate.tools.lexicon import names_a_person, paraphrases, phrase_stems
from satiate.tools.lexicon.build import person_nouns
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
