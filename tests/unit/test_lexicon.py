"""Verb paraphrases from WordNet (tools/lexicon): a frequent sense two verbs share, compared by stems."""

from __future__ import annotations

from satiate.tools.lexicon import paraphrases, phrase_stems
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
