"""Who a question speaks of: a post's holder at a time, a relative named by whose they are, a namesake asked at the
question's end, a field named by its label, and a firm styled "Messrs."; each must be what the cited chain states."""

from __future__ import annotations

from satiate.engine.answer import Line, find_answer, said_on, with_page_subject
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import type_fit
from satiate.engine.reading.names import name_spans
from satiate.tools.text import sentences, stems


def _chain(question: str, answer: str, kind: str, stating: str, *read: str) -> Chain:
    return Chain(question=question, answer=answer, kind=kind, stating=(stating,), answer_pages=("Notes",),
                 read=(stating, *read))


def test_a_verb_for_holding_a_post_picks_its_holder_by_the_year_asked():
    said = "First captain: Ivo Marr"
    captained = assess(_chain("Who captained the Orlby club in 1898?", "Ivo Marr", "person", said, "The Orlby club"))
    assert captained.confidence < 0.8 and any("1898" in gap for gap in captained.missing)
    dated = assess(_chain("Who captained the Orlby club in 1898?", "Ivo Marr", "person",
                          "Ivo Marr captained the Orlby club in 1898."))
    assert dated.confidence == 1.0
    founded = assess(_chain("Who founded the Orlby club in 1898?", "Ivo Marr", "person",
                            "The Orlby club was founded by Ivo Marr."))
    assert founded.confidence == 1.0  # one founding: the act itself picks it, whatever year is said


def test_a_relative_named_by_whose_they_are_must_be_stated_as_a_name_must():
    row = "Forge: Orlby; Address: 4 Mill Row; Smith: Ada Pell"
    other = "Ada Pell's nephew came over from Kesh in 1931."  # the sources do speak of the nephew
    nephew = assess(_chain("Which row was the forge of Ada Pell's nephew on?", "Mill Row", "place", row, other))
    assert nephew.confidence < 0.8 and any("nephew" in gap for gap in nephew.missing)
    herself = assess(_chain("Which row was the forge of Ada Pell on?", "Mill Row", "place", row, other))
    assert herself.confidence == 1.0


def test_a_namesake_asked_at_the_end_needs_a_sentence_that_tells_the_naming():
    boat = "The small sloop Miss Pell was driven onto the bar; the yawl Ivo Marr was saved."
    asked = assess(_chain("The sloop wrecked on the bar was named for whom?", "Miss Pell", "person", boat))
    assert asked.confidence < 0.8 and any("named after" in gap for gap in asked.missing)
    told = assess(_chain("The sloop wrecked on the bar was named for whom?", "Ada Pell", "person",
                         "The sloop wrecked on the bar was named after Ada Pell."))
    assert told.confidence == 1.0


def test_the_field_the_question_names_by_its_label_answers_even_when_it_opens_the_row():
    row = "Town: Orlby; Address: 4 Mill Row; Years: 1903–1920; Smith: Ada Pell"
    street = assess(_chain("Which town was Ada Pell the smith of?", "Mill Row", "place", row))
    assert street.confidence < 0.8 and any("'Town'" in gap for gap in street.missing)
    town = assess(_chain("Which town was Ada Pell the smith of?", "Orlby", "place", row))
    assert not any("row gives" in gap for gap in town.missing)


def test_messrs_opens_a_firms_name_and_ends_no_sentence():
    said = "The forge of Messrs. Pell, Mill Row, burned down. It was rebuilt."
    assert [piece.text for piece in sentences(said)][0] == "The forge of Messrs. Pell, Mill Row, burned down."
    assert "Messrs. Pell" in name_spans("The forge of Messrs. Pell, Mill Row, burned down.")
    assert "Messrs" not in name_spans("The forge of Messrs. Pell, Mill Row, burned down.")


def test_a_firm_is_no_place():
    said = "The forge of Messrs. Pell, Mill Row, burned down."
    firm = Chain(question="Where was the forge?", answer="Messrs. Pell", kind="place", stating=(said,),
                 read=(said,))
    assert type_fit(firm)[0] < 1.0
    notes = [{"id": "S1", "key": "doc:fire", "title": "The fire", "text": said, "url": ""},
             {"id": "S2", "key": "doc:ferry", "title": "The ferry", "text": "The ferry ran from Kesh Quay.", "url": ""}]
    assert find_answer("Where was the forge?", notes).short_answer == "Mill Row"


def test_a_line_with_no_subject_or_verb_in_a_named_section_describes_that_name():
    page = "# Ada Pell\n\nFarrier at the Kesh forge. Co-founder of the ringers.\n"
    source = {"id": "S1", "key": "doc:people#p2", "title": "People", "text": page, "url": ""}
    assert said_on("Farrier at the Kesh forge.", source) == "Ada Pell: Farrier at the Kesh forge."
    assert said_on("She shod the vicar's cob.", source) != "Ada Pell: She shod the vicar's cob."
    found = find_answer("What did Ada Pell do for a living?", [source])
    assert found.short_answer == "farrier"


def test_only_a_section_a_name_heads_lends_its_name_to_a_line_with_neither_subject_nor_verb():
    source = {"id": "S1", "key": "doc:people#p2", "title": "People", "text": "Farrier at the Kesh forge.", "url": ""}
    line = Line(source, "Farrier at the Kesh forge.", frozenset(stems("Farrier at the Kesh forge.")), 0)
    assert with_page_subject(line, "Ada Pell", frozenset(), headed=True).referred == frozenset(stems("Ada Pell"))
    assert with_page_subject(line, "Ada Pell", frozenset(), headed=False).referred == frozenset()
