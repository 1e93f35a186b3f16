"""How the reading layer reads the names a question runs together and the fields of a note: a name joined to
another by a preposition or a hyphen, a count under a field's label, a post's field, a day of the week."""

from __future__ import annotations

from satiate.engine.answer import expected_answer, readable_lines
from satiate.engine.reading.chain import Chain, names_as_read, question_names
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import a_person, only_a_reference, type_fit
from satiate.engine.reading.names import name_spans
from satiate.engine.roles import denies

FERRY = "The Grey Plover crossed to Orlby under Jos Teller in the gale."
SALVAGE = "The salvage of the Pella Dawn crew took six hours."


def test_two_names_run_together_by_a_preposition_are_read_as_two_when_only_each_is_mentioned():
    question = "Who was at the helm of the Grey Plover for the Pella Dawn salvage?"
    assert names_as_read(question, [FERRY, SALVAGE]) == ["Grey Plover", "Pella Dawn"]
    verdict = assess(Chain(question=question, answer="Jos Teller", kind="person", stating=(FERRY,),
                           hops=(SALVAGE,), read=(FERRY, SALVAGE)))
    assert verdict.factors["names_read"] == 1.0


def test_a_name_of_its_own_with_a_preposition_stays_whole():
    society = "The Society for the Care of Orchards was set up by Linnet Astley in 1911."
    question = "Who set up the Society for the Care of Orchards?"
    assert names_as_read(question, [society]) == ["Society for the Care of Orchards"]


def test_parts_that_are_not_each_mentioned_leave_the_whole_name_unread():
    question = "Who was at the helm of the Grey Plover for the Pella Dawn salvage?"
    assert names_as_read(question, [FERRY]) == ["Grey Plover for the Pella Dawn"]
    verdict = assess(Chain(question=question, answer="Jos Teller", kind="person", stating=(FERRY,), read=(FERRY,)))
    assert verdict.factors["names_read"] == 0.0


def test_a_name_made_an_adjective_by_a_hyphen_is_the_name():
    built = "The tender was built by Quelch & Brand of Orlby in 1902."
    question = "Who skippered the Quelch & Brand-built tender first?"
    assert names_as_read(question, [built]) == ["Quelch & Brand"]


def test_an_adverb_after_a_name_is_no_noun_the_name_qualifies():
    note = "Orlby Mill was shut for six weeks in 1963."
    question = "How long was Orlby Mill reportedly shut in 1963?"
    verdict = assess(Chain(question=question, answer="six weeks", kind="number", stating=(note,), read=(note,)))
    assert verdict.factors["names_read"] == 1.0


def test_a_count_under_a_field_label_counts_what_the_label_names():
    question = "How many pupils came to the Orlby bakery class in its first term?"
    other = "Teachers in the first term: three"
    fit, why = type_fit(Chain(question=question, answer="three", kind="number", stating=(other,)))
    assert fit < 1.0 and "teachers" in why
    own = "Pupils in the first term: 27"
    assert type_fit(Chain(question=question, answer="27", kind="number", stating=(own,)))[0] == 1.0


def test_a_count_of_times_may_be_labelled_by_the_act():
    question = "How many times did members hire the Orlby marquee in 1988?"
    field = "Bookings 1988: 14"
    assert type_fit(Chain(question=question, answer="14", kind="number", stating=(field,)))[0] == 1.0


def test_a_field_labelled_by_a_post_gives_a_person():
    minutes = "Choir minutes, 4 May 1979.\n1. The choir re-formed.\n   - Treasurer: Hester Rowe\n   - Venue: Orlby"
    assert a_person("Hester Rowe", (minutes,))
    assert not a_person("Orlby", (minutes,))
    stating = "Hester Rowe said the old harmonium had turned up at Orlby."
    fit, _ = type_fit(Chain(question="In which hamlet did the old harmonium turn up?", answer="Hester Rowe",
                            kind="place", stating=(stating,), read=(minutes, stating)))
    assert fit < 1.0


def test_a_day_of_the_week_names_no_one():
    assert name_spans("The fair opens on Saturday at Orlby.") == ["Orlby"]
    assert "Saturday" not in name_spans("Saturday was wet, said Jos Teller.")


def test_a_first_line_that_is_the_pages_title_is_a_heading_not_a_statement():
    text = ("ORLBY ECHO - Tuesday 3 May 1977, p.2\n(cut out by Hester; the photo shows the choir holding the cup)\n\n"
            "The Orlby choir now holds its practices in the old school hall.")
    source = {"id": "S1", "key": "doc:1", "title": "ORLBY ECHO - Tuesday 3 May 1977, p.2", "url": "file:///1.txt",
              "text": text}
    lines = [line.text for line in readable_lines([source])]
    assert not any(line.startswith("ORLBY ECHO") for line in lines)
    assert any("old school hall" in line for line in lines)
    prose_page = {**source, "title": "Orlby choir", "text": "Orlby choir is a mixed choir founded in 1952."}
    assert readable_lines([prose_page])[0].text.startswith("Orlby choir is")


def test_the_one_a_field_names_by_the_questions_agent_noun_is_the_way_to_the_answer():
    row = "Year: 1988; Play: Brine Harvest; Director: Hester Rowe; Hall: Orlby Institute."
    partner = "Hester Rowe and her cousin Jos Teller started the Orlby Masquers in 1979."
    through = Chain(question="With whom did the director of Brine Harvest start the Orlby Masquers?",
                    answer="Hester Rowe", kind="person", stating=(row,), read=(row, partner))
    fit, why = type_fit(through)
    assert fit < 1.0 and "director of Brine Harvest" in why
    asked = Chain(question="Who was the director of Brine Harvest?", answer="Hester Rowe", kind="person",
                  stating=(row,), read=(row,))
    assert type_fit(asked)[0] == 1.0


def test_a_field_labelled_by_the_asked_noun_holds_the_answer_itself():
    row = "Firm: Orlby Mill Bakery; Sends: bread and rolls; Credit terms: 30 days; Van: Tuesdays."
    fit, why = type_fit(Chain(question="Which credit terms did the bread supplier give us?",
                              answer="Orlby Mill Bakery", kind="name", stating=(row,)))
    assert fit < 1.0 and "30 days" in why
    assert type_fit(Chain(question="Which supplier sends our bread?", answer="Orlby Mill Bakery", kind="name",
                          stating=(row,)))[0] == 1.0


def test_a_name_written_only_as_a_possessive_that_owns_nothing_is_a_premises():
    read = ("The treble was recast and rehung at St Orla's on Candlemas.", "St Orla's, Orlby: tower notes.")
    fit, why = type_fit(Chain(question="Who rehung the treble?", answer="St Orla", kind="person", stating=read[:1],
                              read=read))
    assert fit < 1.0 and "St Orla's" in why
    person = ("The treble was rehung by Jos Teller.", "Jos Teller's nephew rang it first.")
    assert type_fit(Chain(question="Who rehung the treble?", answer="Jos Teller", kind="person",
                          stating=person[:1], read=person))[0] == 1.0


def test_whom_someone_married_is_a_person_and_no_place():
    read = ("Orla Vennet (1890–1960) — weaver; wed Jory Trask.",)
    assert a_person("Jory Trask", read)
    assert not a_person("Orla Mill", ("Orla Vennet worked at Orla Mill.",))
    where = Chain(question="Where did Orla Vennet learn to weave?", answer="Jory Trask", kind="place",
                  stating=read, read=read)
    assert type_fit(where)[0] < 1.0


def test_a_note_that_drops_its_subject_opens_on_its_verb_not_on_a_name():
    assert name_spans("Keeps all the ledgers in a chest under the bed.") == []
    assert name_spans("Retired after the 1970 regatta.") == []
    assert name_spans("Mills founded the Orlby choir in 1901.") == ["Mills", "Orlby"]  # a name before its verb
    assert "Ivo Marr" in name_spans("Ivo Marr keeps the ledgers.")


def test_a_publication_cited_in_brackets_with_its_date_is_where_it_was_printed():
    cited = "The sale notice (Orlby Courier, June 1968) praised the forge."
    assert only_a_reference("Orlby Courier", cited)
    assert only_a_reference("Orlby Courier", "The forge was busy (Orlby Courier, p. 4).")
    assert not only_a_reference("Ada Pell", "Her cousin (Ada Pell, 1901–1960) ran the forge.")  # a life's years
    assert not only_a_reference("Orlby Courier", "The Orlby Courier ran the story in 1979.")


def test_a_value_the_text_flags_as_mistaken_is_evidence_against_it():
    flagged = "The Orlby choir, founded in 1921 [sic: should be 1912, see the minutes], sang at the fair."
    assert denies(flagged, "1921", set())
    assert not denies(flagged, "1912", set())
    assert not denies("The Orlby choir was founded in 1921, in the schoolroom.", "1921", set())


def test_a_value_corrected_after_an_aside_is_evidence_against_it():
    corrected = "Chairs: 240 (the 1951 inventory), corrected to 226 by the 1977 count."
    assert denies(corrected, "240", set())
    assert not denies(corrected, "226", set())


def test_a_nickname_set_inside_a_name_is_a_persons_and_no_name_for_a_thing():
    read = ('Secretary from 1990: Edith "Dot" Pell, who kept the Orlby accounts.',)
    assert a_person("Dot", read)
    asked = Chain(question="What was the Orlby fundraising appeal called?", answer="Dot", kind="name",
                  stating=read, read=read)
    fit, why = type_fit(asked)
    assert fit < 1.0 and "appeal" in why
    firm = Chain(question="What was the name of the firm that printed the Orlby accounts?", answer="Pell & Sons",
                 kind="name", stating=("The Orlby accounts were printed by the firm Pell & Sons.",))
    assert type_fit(firm)[0] == 1.0


def test_a_word_that_frames_the_question_is_no_name_though_it_opens_it():
    assert question_names("According to the parish register, which boys did Orlby Mill take on?") == ["Orlby Mill"]
    assert question_names("Roughly how many looms did Orlby run?") == ["Orlby"]
    assert question_names("Excluding Kesh, which towns flooded?") == ["Kesh"]
    assert question_names("Kipling wrote what about Orlby?") == ["Kipling", "Orlby"]  # a name opens it
    assert expected_answer("Roughly when did the Orlby ferry stop running?").kind == "date"  # it asks when
    roughly = Chain(question="Roughly how many looms did Orlby Mill run?", answer="about 40", kind="number",
                    stating=("Orlby Mill ran about 40 looms.",), answer_pages=("Mill",),
                    read=("Mill. Orlby Mill ran about 40 looms.",))
    assert assess(roughly).confidence == 1.0  # and the framing word is no constraint the chain must state


def test_a_quotation_in_someone_s_own_words_is_no_title():
    spoken = 'The verger says "Ada Pell rang our bell for forty years" of the old tenor bell, not of anyone.'
    assert 'Ada Pell rang our bell for forty years' not in name_spans(spoken)
    assert "Ada Pell" in name_spans(spoken)
    assert "Take Me Home" in name_spans('The band played "Take Me Home" at the gala.')
