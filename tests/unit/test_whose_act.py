"""Whose act a sentence tells: a clause about another named thing dates that thing, a doer after "by" is not what
was done to, what someone did is not what their relative did, an act on another named thing is not the one asked,
and a list's entry is about its own label."""

from __future__ import annotations

from satiate.engine.answer import find_answer, readable_lines
from satiate.engine.reading.chain import Chain
from satiate.engine.reading.commitment import assess
from satiate.engine.reading.fit import a_person, act_years
from satiate.engine.reading.names import name_spans
from satiate.engine.reading.plain_kinds import CALLING, plain_fillers
from satiate.tools.text import inflected_alike
from support.reading_support import finder_chain, fit_of, note_sources

RIGHT = 1.0



def test_a_word_inflected_is_the_same_word_and_a_derived_one_is_not():
    assert inflected_alike("mill", "mills") and inflected_alike("Orlby's", "orlby")
    assert not inflected_alike("engine", "engineering")
    assert not inflected_alike("nation", "national")


def test_a_firm_named_by_a_word_derived_from_the_question_s_noun_is_a_candidate():
    page = note_sources(("Pumps", "# Kesh Queen\n\nThe beam engine at the lower lock. Made 1866 by Orlby Engineering.\n"
                                  "Scrapped in 1931, though a flywheel survives at the lock cottage."))
    found = find_answer("Which firm made the Kesh Queen engine?", page)
    assert "Orlby Engineering" in [name for name, _ in found.candidates]


def test_a_short_line_opening_on_its_verb_is_read_as_a_sentence():
    page = note_sources(("Pumps", "# Kesh Queen\n\nMade 1866 by Orlby Engineering. Scrapped 1931.\n"))
    assert "Made 1866 by Orlby Engineering." in [line.text for line in readable_lines(page)]
    run_together = note_sources(("Infobox", "Orlby Product type Pumps Owner Orlby Kesh Holdings"))
    assert readable_lines(run_together) == []


def test_a_clause_about_another_name_dates_that_name():
    aside = "Mixed these up before; the Wren was LAUNCHED 1881, the Kite was REFITTED 1881 (launched 1874)."
    assert act_years(aside, {"launch"}, ("Kite",)) == ["1874"]
    assert act_years(aside, {"launch"}, ("Wren",))[0] == "1881"
    assert fit_of("When was the Kite launched?", "1881", "date", aside) < RIGHT
    assert fit_of("When was the Kite launched?", "1874", "date", aside) == RIGHT


def test_an_act_written_in_capitals_is_still_the_act():
    aside = "Mixed these up before; the Wren was LAUNCHED 1881, the Kite was REFITTED 1881."
    assert fit_of("Who launched the Wren?", "Kite", "person", aside) < RIGHT


def test_the_doer_after_by_does_not_answer_what_was_done_to():
    line = "Hull of the Kesh lifeboat varnished 1936 by Ada."
    question = "Which boat did Ivo Marr's niece varnish the hull of in 1936?"
    assert fit_of(question, "Ada", "name", line) < RIGHT
    # asked for the doer, the one after "by" answers
    assert fit_of("Which painter was the hull varnished by in 1936?", "Ada", "name", line) == RIGHT


def test_what_someone_did_is_not_what_their_relative_did():
    row = "Cheese: Orlby Blue; First made: 1933; Maker: Ivo Marr; Notes: recipe lost."
    question = "Which cheese did Ivo Marr's apprentice first make?"
    assert fit_of(question, "Orlby Blue", "name", row) < RIGHT
    assert fit_of(question, "Orlby Blue", "name", "Ivo Marr first made Orlby Blue in 1933.") < RIGHT
    assert fit_of(question, "Kesh Crumbly", "name", "Ada Pell first made Kesh Crumbly in 1951.") == RIGHT
    named = "Ivo Marr's apprentice, Ada Pell, first made Kesh Crumbly."
    assert fit_of(question, "Kesh Crumbly", "name", named) == RIGHT


def test_an_act_on_another_named_thing_is_not_the_act_asked():
    question = "In which year did the parish hire the Kesh Hall for its suppers?"
    assert fit_of(question, "1958", "date", "Hired the Orlby Institute in 1958 for the whist drives.") < RIGHT
    assert fit_of(question, "1921", "date", "Hired the Kesh Hall in 1921 for the suppers.") == RIGHT
    assert fit_of(question, "1921", "date", "Hired it in 1921 from Ada Pell.") == RIGHT


def test_an_entry_of_a_list_is_about_its_own_label():
    boats = "Boats. Kite: built for Ivo Marr's uncle. 4 oars. Wren: 6 oars and a lugsail."
    chain = Chain(question="How many oars did the Kite carry?", answer="6", kind="number",
                  stating=("Wren: 6 oars and a lugsail.",), hops=("Kite: built for Ivo Marr's uncle.",),
                  answer_pages=("Boats",), hop_pages=("Boats",), read=(boats,), read_titles=("Boats",))
    assert assess(chain).factors["subject"] < RIGHT
    record = Chain(question="How many oars did the Kite carry?", answer="4", kind="number",
                   stating=("Oars: 4.",), hops=("Name: Kite.",), answer_pages=("Boats",),
                   hop_pages=("Boats",), read=("Boats. Name: Kite. Oars: 4.",), read_titles=("Boats",))
    assert assess(record).factors["subject"] == RIGHT


def test_a_name_set_beside_a_kind_of_person_is_a_person():
    assert a_person("Ivo Marr", ("Ada Pell's nephew is Ivo Marr (the coal merchant).",))
    assert a_person("Ivo Marr", ("Ivo Marr, the carter, drove it.",))
    assert a_person("Ivo Marr", ("5 May — Ivo Marr = Ada's nephew (son of her brother).",))
    assert not a_person("Kesh Arms", ("Kesh Arms is a private house now, its sign bracket still up.",))
    assert not a_person("Kesh Queen", ("Kesh Queen, the old steam wagon, stood in the yard.",))
    assert not a_person("Orlby", ("Born 1822 at Orlby, the daughter of a cooper.",))  # describes who was born
    assert a_person("Ada Pell", ("Family. # Ada Pell\n\nSecond wife of Ivo Marr. Kept the shop until 1921.",))
    assert a_person("Ivo Marr", ("Smiths. # Ivo Marr\n\nFarrier at the Kesh forge from 1901.",))
    assert not a_person("Kesh Queen", ("Pumps. # Kesh Queen\n\nThe beam engine at the lower lock.",))
    assert fit_of("What was the steam wagon that Ada Pell's nephew drove called?", "Ivo Marr", "name",
                "Ada Pell's nephew is Ivo Marr (the coal merchant).") < RIGHT


def test_a_thing_the_sentence_gives_to_another_name_is_not_the_one_asked():
    question = "When did Kesh's old smithy shut?"
    assert fit_of(question, "1961", "date", "Orlby kept its own smithy, which shut in 1961.") < RIGHT
    assert fit_of(question, "1961", "date", "The smithy at Orlby shut in 1961.") < RIGHT
    assert fit_of(question, "1961", "date", "Kesh's smithy shut in 1961.") == RIGHT
    assert fit_of(question, "1961", "date", "The smithy shut in 1961.") == RIGHT


def test_a_pronoun_standing_for_the_page_s_named_subject_keeps_the_sentence_about_it():
    parishes = note_sources(("Orlby and its outlying hamlets",
                             "Orlby is the biggest of the four. Its reading room opened in 1902, paid for by the "
                             "vicar. Kesh, being smaller, made do with the schoolroom."))
    answer, chain = finder_chain("When did the reading room at Kesh open?", parishes)
    assert answer == "1902" and assess(chain).factors["subject"] < RIGHT
    mill = note_sources(("The mill", "Kesh Mill stands on the Orr below the bridge. It was built in 1790 by monks."))
    answer, chain = finder_chain("When was Kesh Mill built?", mill)
    assert answer == "1790" and assess(chain).factors["subject"] == RIGHT
    # a pronoun points back: after a sentence naming the question's firm, it stands for that firm
    letter = note_sources(("From: Ada Pell", "Orlby & Kesh Ltd began as rope makers at Kesh in 1899. Their first "
                                             "managing director was Ivo Marr, a sailmaker."))
    answer, chain = finder_chain("Who was the managing director of Orlby & Kesh?", letter)
    assert answer == "Ivo Marr" and assess(chain).factors["subject"] == RIGHT


def test_a_line_opening_on_a_verb_with_its_particle_names_no_one_by_that_verb():
    staff = note_sources(("Staff", "# Ivo Marr\n\nTook over the toll house from his aunt, Ada Pell, in 1931."),
                         ("Animals", "Ivo kept the toll house goat on a long tether by the gate."))
    found = find_answer("What was the toll house goat's name?", staff)
    assert "Took" not in [name for name, _ in found.candidates]
    # nor is a person the goat: "his aunt, Ada Pell" makes her one
    assert fit_of("What was the toll house goat's name?", "Ada Pell", "name",
                "Took over the toll house from his aunt, Ada Pell, in 1931.") < RIGHT


def test_a_name_given_only_as_whose_relative_is_meant_is_not_that_relative():
    row = 'Bell: "Nell", cast 1890, named after Ivo Marr\'s grandmother'
    assert fit_of("Who was the bell Nell named after?", "Ivo Marr", "person", row) < RIGHT
    # asked for a relative of the question's own name, the owner of the converse answers it
    assert fit_of("Who was Ivo Marr's mother?", "Ada", "person", "Ivo Marr (1890–1950): Ada's son; a cooper.") == RIGHT


def test_a_name_is_shown_as_the_sentence_writes_it_whole():
    row = note_sources(("Windows", "Year: 1937; Church: St Orla's; Town: Kesh; Work: the Reaper window (south aisle)."))
    assert find_answer("Which church in Kesh has the Reaper window?", row).short_answer == "St Orla's"
    shop = note_sources(("The Kesh chandlery", "Address: 12 Quay Row, Kesh. Opened 1921 by Ivo Marr."))
    assert find_answer("What was the address of the Kesh chandlery?", shop).short_answer == "12 Quay Row"


def test_a_record_names_the_doer_in_the_field_its_agent_noun_labels():
    row = "Variety: Kesh Pearl; Kind: pea; Year: 1931; Raised at: the walled garden; Raiser: Ada Pell."
    assert fit_of("Who raised the Kesh Pearl pea?", "Ada Pell", "person", row) == RIGHT
    other = "Variety: Kesh Pearl; Raised at: the walled garden; Raiser: Ivo Marr; Seed from: Ada Pell."
    assert fit_of("Who raised the Kesh Pearl pea?", "Ada Pell", "person", other) < RIGHT


def test_a_name_quoted_as_someone_is_written_is_still_a_name():
    stating = "A. Pell kept the wage book from 1920."
    assert fit_of("Who kept the wage book?", "A. Pell", "person", stating,
                'The wage book lists her as "A. Pell" until she married.') == RIGHT
    assert fit_of("Who kept the wage book?", "A. Pell", "person", stating, 'The barge "A. Pell" sank in 1931.') < RIGHT


def test_a_calling_said_of_a_relative_is_not_the_subject_s():
    sister = "The show's egg steward was Ada Pell, sister of a Kesh blacksmith."
    assert "blacksmith" not in plain_fillers(sister, CALLING)
    assert "blacksmith" in plain_fillers("Ada Pell, blacksmith of Kesh, judged the eggs.", CALLING)


def test_a_copied_record_line_in_quotes_is_no_title_and_a_day_s_month_no_name():
    copied = '10 Mar, later — the same book: "Kesh Queen overhauled, new tubes, £11".'
    spans = name_spans(copied)
    assert "Mar" not in spans and not any("£11" in span for span in spans)
    assert "Kesh Queen" in spans


def test_a_post_the_sentence_says_of_someone_unnamed_is_not_the_answer_s():
    question = "Who was the club's treasurer when the Kesh Bowl was first given?"
    assert fit_of(question, "Ivo Marr", "person", "The Treasurer wrote that the Kesh Bowl went to Ivo Marr.") < RIGHT
    assert fit_of(question, "Ivo Marr", "person", "Treasurer: Ivo Marr. The Kesh Bowl was first given that year.") \
        == RIGHT
    assert fit_of(question, "Ivo Marr", "person", "Ivo Marr was made treasurer the year the Kesh Bowl began.") == RIGHT


def test_a_noun_qualified_otherwise_is_another_of_its_kind():
    question = "Who ran the tea tent at the Kesh fete in 1950?"
    assert fit_of(question, "Ada Pell", "person", "Ada Pell ran the beer tent at the Kesh fete in 1950.") < RIGHT
    assert fit_of(question, "Ada Pell", "person", "Ada Pell ran the tea tent at the Kesh fete in 1950.") == RIGHT
    # "did the school close": the subject ends at its verb, no noun phrase of two nouns
    assert fit_of("When did the school close in Kesh?", "1961", "date",
                "1961: the Kesh school room closed with twelve pupils left.") == RIGHT


def test_a_name_after_the_asked_noun_and_of_is_not_that_noun():
    question = "Which family kept the bull that took first prize?"
    assert fit_of(question, "Orlby", "name", "Kept by the Marr family of Orlby.") < RIGHT
    # an owner after "of" names the thing: "the workshop of Messrs Marr" is Marr's workshop
    assert fit_of("Which workshop made the Kesh organ?", "Messrs Marr of Orlby", "name",
                "The Kesh organ was made in the workshop of Messrs Marr of Orlby.") == RIGHT


def test_a_body_of_people_is_a_weak_candidate_for_who():
    log = note_sources(("Research log", "The 1890 almanac lists \"Kesh Cycling Club, founded 1888, clubroom Mill "
                                        "Lane\". The joiners' bill is in the box: Ivo Marr & Son built the "
                                        "clubroom for £120 in 1892."))
    assert find_answer("Who built the Kesh clubroom?", log).short_answer == "Ivo Marr & Son"


def test_a_table_s_rows_are_its_entries_and_their_shared_title_no_bridge():
    rows = ("Keeper: Ivo Marr; Served: 1891–1912; Trained at: Orlby Hall; Note: kept bees.",
            "Keeper: Ada Pell; Served: 1819–1848; Trained at: Kesh Park; Note: left a diary.")
    chain = Chain(question="Who was keeper at Kesh Park while Ada Pell trained there?", answer="Ivo Marr",
                  kind="person", stating=(rows[0],), hops=(rows[1],), answer_pages=("Keepers of Orlby Hall",),
                  hop_pages=("Keepers of Orlby Hall",), read=("Keepers of Orlby Hall. " + " ".join(rows),),
                  read_titles=("Keepers of Orlby Hall",))
    assert assess(chain).factors["subject"] < RIGHT
