"""The thing a question asks about: its make, told by the name before its noun or by a "Make:" field and by nothing
else; a thing put at a named place that nothing read speaks of; a record's fields with a one-word value."""

from __future__ import annotations

from satiate.engine.answer import find_answer, readable_lines
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.makes import made_noun, make_fillers
from support.reading_support import note_sources


def test_the_noun_whose_make_is_asked():
    assert made_noun("What make of delivery van did the Orlby bakery run?") == "van"
    assert made_noun("Which make of organ stood in the Orlby chapel?") == "organ"
    assert made_noun("What make was the pump Ivo Marr fitted?") == "pump"
    assert made_noun("What kind of pump was it?") == ""


def test_a_make_is_the_name_before_the_things_noun_or_a_kind_of_it_or_a_make_field():
    assert make_fillers("A Dorset lorry took over the rounds in 1931.", "vehicle") == ["Dorset"]
    assert make_fillers("Make: Kesh & Sons", "piano") == ["Kesh & Sons"]
    assert make_fillers("Nell the van stood in Mill Row.", "vehicle") == []  # its own name, its street
    assert make_fillers("Played piano at chapel.", "piano") == []  # a line's opening verb


def test_a_make_question_is_answered_by_the_record_not_by_the_things_name():
    record = "Name: Nell\nMake: Dorset\nType: box van\nBought: 1931"
    found = find_answer("Which make of vehicle did the Orlby bakery buy in 1931?", note_sources(
        ("Orlby bakery: vehicle record", record), ("Letters", "Nell the van stood in Mill Row.")))
    assert found.short_answer == "Dorset"


def test_a_records_one_word_field_is_read_and_a_list_of_places_is_not():
    texts = [line.text for line in readable_lines(note_sources(("Record", "Make: Dorset\nKesh: Orren\nColour: green")))]
    assert "Make: Dorset" in texts and "Kesh: Orren" not in texts


def test_a_thing_put_at_a_place_that_nothing_read_speaks_of_is_not_read_about():
    question = "In what year was the lighthouse at Orlby first lit?"
    said = "Quay railway to Orlby: opened 1869, worked by ponies."
    tramway = Chain(question=question, answer="1869", kind="date", stating=(said,), answer_pages=("Railway",),
                    read=(f"Railway. {said}", "Harbour. The house at Orlby quay was built in 1850."))
    judged = assess(tramway)
    assert judged.confidence == 0.0 and any("lighthouse at Orlby" in gap for gap in judged.missing)
    lit = "The lighthouse at Orlby was first lit in 1871."
    light = Chain(question=question, answer="1871", kind="date", stating=(lit,), answer_pages=("Light",),
                  read=(f"Light. {lit}",))
    assert assess(light).confidence == 1.0
    hyphened = "Its dairy co-operative was set up in 1951."
    coop = Chain(question="When was the dairy co-operative in Orlby set up?", answer="1951", kind="date",
                 stating=(hyphened,), answer_pages=("Orlby",), read=(f"Orlby. {hyphened}",))
    assert not any("co-operative in Orlby" in gap for gap in assess(coop).missing)  # spoken of, in two parts
