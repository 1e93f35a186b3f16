"""Verdicts on two named things: each side read on its own page, the property's own words required, no guess without
a value to compare, and a confidence that falls when a side's sentence is not from its own page."""

from __future__ import annotations

from satiate.engine.answer import find_answer
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.verdicts import compared_pair, verdict_fit
from satiate.tools.countries import countries_named


def sources_of(*pages: tuple[str, str]) -> list[dict]:
    return [{"id": f"S{n}", "key": f"doc:{n}", "title": title, "text": text, "url": "", "angle": "question"}
            for n, (title, text) in enumerate(pages, 1)]


HARROW = ("Harrow Lights", "Harrow Lights is a 2011 Danish documentary film about lighthouse keepers. It was shot "
                           "over two winters.")
ORCHARD_FINNISH = ("The Quiet Orchard", "The Quiet Orchard is a 2014 Finnish documentary about apple growers. "
                                          "It follows three families.")
ORCHARD_DANISH = ("The Quiet Orchard", "The Quiet Orchard is a 2014 Danish documentary about apple growers.")


def test_both_needs_the_distinctive_word_not_only_the_kind() -> None:
    question = "Are Harrow Lights and The Quiet Orchard both Danish documentaries?"
    different = find_answer(question, sources_of(HARROW, ORCHARD_FINNISH))
    assert different.short_answer == "no"  # both are documentaries, but only one is Danish
    assert any("Finnish" in line.text for line in different.evidence)
    assert find_answer(question, sources_of(HARROW, ORCHARD_DANISH)).short_answer == "yes"


def test_the_relation_word_may_be_paraphrased_but_the_ingredient_must_be_stated() -> None:
    question = "Do the ciders Pell Dry and Orren Gold both contain pear?"
    pell = ("Pell Dry", "Pell Dry is a cider made with pear and apple.")
    with_pear = ("Orren Gold", "Orren Gold is a sparkling cider pressed from pear juice.")
    without = ("Orren Gold", "Orren Gold is a sparkling cider pressed from quince juice.")
    assert find_answer(question, sources_of(pell, with_pear)).short_answer == "yes"  # "contain" is stated by none
    assert find_answer(question, sources_of(pell, without)).short_answer == "no"


def test_a_country_is_stated_by_its_name_or_its_peoples_adjective() -> None:
    question = "Are Salt Hollow and Copper Weather both from Finland?"
    hollow = ("Salt Hollow", "Salt Hollow is a Finnish folk band from the lake district.")
    assert "Finland" in countries_named("a Finnish folk band") & countries_named("a band from Finland")
    same = ("Copper Weather", "Copper Weather is a rock band from Finland, formed in Oulu.")
    other = ("Copper Weather", "Copper Weather is a Swedish rock band formed in Malmo.")
    assert find_answer(question, sources_of(hollow, same)).short_answer == "yes"
    assert find_answer(question, sources_of(hollow, other)).short_answer == "no"


def test_the_same_nationality_compares_countries_not_any_shared_word() -> None:
    question = "Were Ada Quill and Tom Marsh of the same nationality?"
    quill = ("Ada Quill", "Ada Quill (born 1931) is a Swedish glass blower.")
    marsh = ("Tom Marsh", "Tom Marsh (born 1926) is a Finnish glass blower.")
    assert find_answer(question, sources_of(quill, marsh)).short_answer == "no"  # "glass blower" is not a nationality
    also_swedish = ("Tom Marsh", "Tom Marsh (born 1926) is a Swedish painter.")
    assert find_answer(question, sources_of(quill, also_swedish)).short_answer == "yes"


def test_a_property_no_source_uses_is_not_judged() -> None:
    found = find_answer("Are Pell Dry and Orren Gold both beverages?",
                        sources_of(("Pell Dry", "Pell Dry is a cider made with pear."),
                                   ("Orren Gold", "Orren Gold is a sparkling cider.")))
    assert found.short_answer is None and "property" in found.reason


def test_a_side_is_named_as_written_not_by_the_same_words_in_lower_case() -> None:
    question = "Are Salt Hollow and Long Weekend both folk bands?"
    pages = sources_of(("Salt Hollow", "Salt Hollow is a folk band."),
                       ("Harbor Week", "The fair ran over a long weekend with a folk band stage."))
    found = find_answer(question, pages)
    assert found.short_answer is None and "Long Weekend" in found.reason


def test_more_without_a_number_for_each_side_is_withheld_not_guessed() -> None:
    question = "Which band, Salt Hollow or Copper Weather, had more members?"
    hollow = ("Salt Hollow", "Salt Hollow is a folk band whose members met at school.")
    weather = ("Copper Weather", "Copper Weather is a rock band with many members and a horn section.")
    withheld = find_answer(question, sources_of(hollow, weather))
    assert withheld.short_answer is None and "Salt Hollow" in withheld.reason
    counted = ("Salt Hollow", "Salt Hollow is a folk band of 7 members.")
    weather_counted = ("Copper Weather", "Copper Weather is a rock band of 4 members.")
    assert find_answer(question, sources_of(counted, weather_counted)).short_answer == "Salt Hollow"


def test_a_verdict_resting_on_another_pages_mention_is_not_committed() -> None:
    question = "Are Salt Hollow and Copper Weather both folk bands?"
    assert verdict_fit(question, "yes_no", ("Salt Hollow", "Copper Weather (band)")) == (1.0, "")
    fit, why = verdict_fit(question, "yes_no", ("Salt Hollow", "Harbor Week"))
    assert fit < 1.0 and "Copper Weather" in why
    stating = ("Salt Hollow is a folk band.", "Harbor Week closed with Copper Weather, a folk band from the coast.")
    chain = Chain(question=question, answer="yes", kind="yes_no", stating=stating,
                  answer_pages=("Salt Hollow", "Harbor Week"), read=stating)
    verdict = assess(chain)
    assert verdict.confidence < 0.8 and any("Copper Weather" in line for line in verdict.missing)
    found = find_answer(question, sources_of(("Salt Hollow", stating[0]), ("Harbor Week", stating[1])))
    assert found.short_answer == "yes"  # a candidate: the finder reads the mention, the commitment withholds the bold


def test_the_two_sides_are_read_from_the_question() -> None:
    assert compared_pair("Who is older, Ada Quill or Tom Marsh?", "or") == ("Ada Quill", "Tom Marsh")
    assert compared_pair("Are the Tarrow Mill and Copper Weather both closed?", "and") == ("Tarrow Mill",
                                                                                         "Copper Weather")
    assert compared_pair("Which is older, the violin or the cello?", "or") is None


def test_where_two_things_are_is_what_both_their_pages_name() -> None:
    question = "Where are Tarrow Mill and Gull Rock Lighthouse located?"
    mill = ("Tarrow Mill", "Tarrow Mill (Finnish: \"Molin Tarrow\") is a water mill in Brenn, on the Isle of Marrow.")
    rock = ("Gull Rock Lighthouse", "Gull Rock Lighthouse (Finnish: \"Fyr Gull\") is a lighthouse near Oskar Point, "
                                    "on the Isle of Marrow.")
    found = find_answer(question, sources_of(mill, rock))
    # not "Finnish" (a people, not a place), "Molin Tarrow" (the mill's other name) nor one side's town
    assert found.short_answer == "Isle of Marrow"
    assert {line.source["title"] for line in found.evidence} == {"Tarrow Mill", "Gull Rock Lighthouse"}
    apart = ("Gull Rock Lighthouse", "Gull Rock Lighthouse is a lighthouse near Oskar Point, on the Isle of Skerry.")
    assert find_answer(question, sources_of(mill, apart)).short_answer != "Isle of Marrow"


KESH_PAGE = ("Ivo Lant", "Ivo Lant was a cooper from Kesh. He worked for the Orren Guild of Coopers for years, but "
                         "he was never a member of the guild.")


def test_one_subject_is_answered_no_by_a_clause_that_denies_it() -> None:
    found = find_answer("Was Ivo Lant a member of the Orren Guild of Coopers?", sources_of(KESH_PAGE))
    assert found.short_answer == "no"
    assert "never a member" in found.evidence[0].text


def test_one_subject_is_answered_yes_by_a_clause_that_states_it() -> None:
    page = ("Ivo Lant", "Ivo Lant was a cooper from Kesh. In 1901 he became a member of the Orren Guild of Coopers.")
    assert find_answer("Was Ivo Lant a member of the Orren Guild of Coopers?", sources_of(page)).short_answer == "yes"


def test_one_subject_stated_and_denied_or_never_said_is_not_answered() -> None:
    both = ("Guild roll", "Ivo Lant became a member of the Orren Guild of Coopers in 1901.")
    found = find_answer("Was Ivo Lant a member of the Orren Guild of Coopers?", sources_of(KESH_PAGE, both))
    assert found.short_answer is None and "both state and deny" in found.reason
    other = ("Ivo Lant", "Ivo Lant was a cooper from Kesh. His brother was a member of the Orren Guild of Coopers, "
                         "and Ivo made their barrels.")
    found = find_answer("Was Ivo Lant a member of the Orren Guild of Coopers?", sources_of(other))
    assert found.short_answer is None  # the clause is about his brother


def test_a_clause_that_calls_a_claim_wrong_is_no_evidence_for_it() -> None:
    pages = (("Museum", "An old leaflet wrongly calls Ada Lant the daughter of Ivo Lant."),
             ("Ada Lant", "Ada Lant ran the museum from 1950. She was Ivo Lant's niece, not his daughter."))
    found = find_answer("Was Ada Lant the daughter of Ivo Lant?", sources_of(*pages))
    assert found.short_answer == "no" and "niece" in found.evidence[0].text


def test_a_pronoun_refers_to_the_subject_the_sentence_before_names() -> None:
    page = ("Club presidents", "Ada Lant was the first woman to lead the club. She was Ivo Lant's niece, not his "
                               "daughter.")
    found = find_answer("Was Ada Lant the daughter of Ivo Lant?", sources_of(page))
    assert found.short_answer == "no"
    assert [line.text.split()[0] for line in found.evidence] == ["She", "Ada"]  # the sentence naming her is cited


def test_the_verb_a_did_question_asks_must_be_said_by_the_clause() -> None:
    page = ("Kesh Rovers", "Kesh Rovers never merged with anyone; they kept their name through the 1971 merger.")
    found = find_answer("Did Kesh Rovers change their name in the 1971 merger?", sources_of(page))
    assert found.short_answer is None


def test_no_relation_in_an_aside_answers_no_for_the_sentences_subject() -> None:
    page = ("Kesh pumping station", "Built 1863 to lift water up the flight. Ivo Marr was chief engineman 1881–1902 "
                                    "(no relation to Oda – see the engineers note).")
    other = ("Engineers", "Oda Marr laid out the flight in 1790. She retired to Tarrow in 1820.")
    found = find_answer("Was Ivo Marr related to Oda Marr?", sources_of(page, other))
    assert found.short_answer == "no"


def test_the_words_that_say_who_a_name_is_are_not_the_relation_asked() -> None:
    page = ("Marr family", "Oda Marr was the lighthouse keeper at Kesh from 1850. NB: Ivo Marr, the harbour "
                           "master, was no relation at all; he came over from Tarrow in the 1870s.")
    found = find_answer("Was Ivo Marr related to the lighthouse keeper Oda Marr?", sources_of(page))
    assert found.short_answer == "no"
