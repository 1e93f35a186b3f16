"""The text basics (tools/text.py): sentences split where sentences end, not at every full stop, with offsets that
point back into the source; stems that meet across inflections without mangling short words."""

from __future__ import annotations

from satiate.engine.reading.kinds import asked_phrase
from satiate.tools.text import (
    DOTTED_NUMBER,
    claimable,
    entities,
    hedged,
    is_field,
    sentences,
    stem,
    stems,
    verb_shaped,
)


def test_abbreviations_titles_and_initials_do_not_end_a_sentence():
    text = "Dr. J. R. Quill met Ann B. Vole in St. Orren. The U.S. Navy sailed at 5 p.m. on Monday. G. Ferro left."
    assert [s.text for s in sentences(text)] == [
        "Dr. J. R. Quill met Ann B. Vole in St. Orren.",
        "The U.S. Navy sailed at 5 p.m. on Monday.",
        "G. Ferro left.",
    ]


def test_offsets_point_back_into_the_source_text():
    text = "  Lina Moss founded the Orren Cider Works.\n\nIt   closed in 1931!  Was it rebuilt? No.\n- a listed item"
    found = sentences(text)
    assert [text[s.start : s.end] for s in found] == [
        "Lina Moss founded the Orren Cider Works.", "It   closed in 1931!", "Was it rebuilt?", "No.", "a listed item"
    ]  # a list item's marker is markup: its sentence starts after it
    assert found[1].text == "It closed in 1931!"  # whitespace inside a sentence is squeezed in its text only


def test_a_paragraph_break_or_a_list_item_ends_a_sentence_without_a_full_stop():
    text = "Early life\n\nVera Lind was born in Kesh\n- She studied law"
    assert [s.text for s in sentences(text)] == ["Early life", "Vera Lind was born in Kesh", "She studied law"]


def test_each_line_of_a_field_block_is_a_sentence_of_its_own_while_a_wrapped_line_continues_its_sentence():
    text = ("Born: 3 May 1802, Kesh\nDied: 1870, Orren\nSpouse: Ada Lind (m. 1830)\n"
            "She kept the halt and\nlater the inn.")
    assert [s.text for s in sentences(text)] == ["Born: 3 May 1802, Kesh", "Died: 1870, Orren",
                                                 "Spouse: Ada Lind (m. 1830)", "She kept the halt and later the inn."]
    prose = "Ivo carried everything: casks, coal and lime. He was a Kesh man."  # a paragraph, not a field
    assert [s.text for s in sentences(prose)] == ["Ivo carried everything: casks, coal and lime.", "He was a Kesh man."]


def test_numbered_items_and_bold_lead_ins_are_sentences_of_their_own_without_their_markup():
    text = ("Stations:\n1. Kesh Halt\n2) Orren Junction\n\n**Origins.** Kesh was laid out in 1712.\n"
            "* **Vera Lind** (1801–1870) kept the halt.")
    found = sentences(text)
    assert [s.text for s in found] == ["Stations:", "Kesh Halt", "Orren Junction", "Origins.",
                                       "Kesh was laid out in 1712.", "Vera Lind (1801–1870) kept the halt."]
    assert text[found[1].start:found[1].end] == "Kesh Halt"  # the offsets skip the item's number


def test_a_quoted_log_entry_is_one_sentence_with_its_date_and_without_the_quote_marks():
    text = ("The log book says:\n\n> 3 May 1891. Kesh school closed this day by order of Dr Vera Lind.\n>\n"
            "> 9 May 1891. Reopened.")
    found = sentences(text)
    assert [s.text for s in found] == ["The log book says:",
                                       "3 May 1891. Kesh school closed this day by order of Dr Vera Lind.",
                                       "9 May 1891. Reopened."]
    assert claimable(found[1].text) and text[found[1].start:found[1].end].startswith("3 May 1891.")


def test_a_quote_line_holding_only_its_mark_parts_paragraphs_like_a_blank_line():
    text = "> MILL BURNT AT KESH\n>\n> Early on Sunday the Kesh mill burned down.\n>\n> Nobody was hurt."
    assert [s.text for s in sentences(text)] == ["MILL BURNT AT KESH", "Early on Sunday the Kesh mill burned down.",
                                                 "Nobody was hurt."]


def test_a_labelled_field_is_a_statement_however_short():
    assert is_field("Builder: Vera Lindqvist.") and claimable("Builder: Vera Lindqvist.")
    assert is_field("Opened: 3 May 1868") and claimable("Opened: 3 May 1868")
    assert claimable("Locks: 17")  # short, and mostly digits, but a label with its value
    assert not is_field("Note: see below")  # no name or number in the value: a label, not a fact
    assert not claimable("Kesh: Orren")  # two words: a fragment


def test_a_wrapped_line_inside_a_paragraph_ends_no_sentence():
    # a version number's full stops send this paragraph to the abbreviation-aware splitter, which would end a
    # sentence at every line break of the wrapped text
    text = ("Changed in version 2.4: Orren maps kept no order\nbefore release 2.1. In release 2.1 the order was\n"
            "kept, but only by\naccident.")
    found = sentences(text)
    assert [s.text for s in found] == [
        "Changed in version 2.4: Orren maps kept no order before release 2.1.",
        "In release 2.1 the order was kept, but only by accident.",
    ]
    assert text[found[1].start : found[1].end] == "In release 2.1 the order was\nkept, but only by\naccident."


def test_the_same_text_split_twice_gives_equal_lists_the_caller_may_change():
    text = "Tomas Reed painted. He sold nothing."
    first = sentences(text)
    first.pop()
    assert len(sentences(text)) == 2


def test_a_name_with_initials_stays_one_name():
    names = entities("In spring Ann B. Vole met Dr. J. R. Quill in Orren. They spoke.")
    assert "Ann B. Vole" in names
    assert any(name.endswith("J. R. Quill") for name in names)
    assert "Vole" not in names and "Quill" not in names


def test_inflections_meet_and_short_words_are_not_mangled():
    assert stem("makes") == stem("making") == stem("made") == stem("make")
    assert stem("founded") == stem("founding") == stem("founds")
    assert stem("built") == stem("builds") and stem("wrote") == stem("writes")
    assert stem("sung") == stem("sings") and stem("drawn") == stem("draws") and stem("chosen") == stem("chooses")
    assert stem("kept") == stem("keeps") and stem("went") == stem("go") and stem("sent") == stem("sends")
    # a past that is a verb of its own stays whole ("to felt", "to found"); one that is only another verb's form
    # meets that verb, whatever else the word may be ("the left bank" reads as "leave", as a question and its
    # sources both do)
    assert stem("felt") != stem("feel") and stem("found") != stem("find")
    assert stem("left") == stem("leave") and stem("lent") == stem("lend")
    assert stem("cities") == stem("city") and stem("studies") == stem("studied")
    assert (stem("news"), stem("this"), stem("does"), stem("his")) == ("news", "this", "does", "his")
    assert stem("news") != stem("new")


def test_stems_of_a_sentence_and_its_paraphrase_overlap():
    assert {stem("founded"), stem("cider")} <= stems("Lina Moss founds a cider works") & stems(
        "The cider works were founded by Lina Moss")


def test_a_paragraph_with_no_abbreviation_shaped_word_splits_as_one_with_them_does():
    plain = "Lina Moss founded the cider works in 1901. Tomas Reed ran them until 1931. The works closed."
    shaped = "Lina Moss founded the cider works in 1901. Capt. Tomas Reed ran them until 1931. The works closed."
    assert [s.text for s in sentences(plain)] == [
        "Lina Moss founded the cider works in 1901.", "Tomas Reed ran them until 1931.", "The works closed."]
    assert [s.text for s in sentences(shaped)][1] == "Capt. Tomas Reed ran them until 1931."


def test_a_release_number_is_one_term_that_no_longer_number_says() -> None:
    found = DOTTED_NUMBER.findall("Kesh 2.4.3 came before 3.0, and 3.0.1 mended it in 2016.")
    assert found == ["2.4.3", "3.0", "3.0.1"]
    assert "3.0" in stems("Kesh 3.0 shipped late.") and "3.0" not in stems("Kesh 13.0 and 3.0.1 shipped late.")


def test_a_past_form_ends_in_ed_unless_a_short_word_owns_its_ed():
    assert all(verb_shaped(word) for word in ("founded", "agreed", "decreed", "won", "born"))
    assert not any(verb_shaped(word) for word in ("seed", "breed", "speed", "steam-powered"))
    assert asked_phrase("What breed of dog guarded the Kesh mill?") == ["dog"]  # "breed" no longer ends the phrase


def test_a_statement_reporting_anothers_credit_or_hearsay_is_hedged() -> None:
    assert hedged("The 2004 guidebook credits Ivo Marr with building the lock-keeper's cottage.")
    assert hedged("He is credited with the first survey of the fen.")
    assert hedged("Apparently the lock was rebuilt twice.")
    assert hedged("It is said that Ivo Marr paid for the lock with his winnings.")
    assert hedged("Family legend says Ivo Marr built it.")
    assert not hedged("Ivo Marr built the lock-keeper's cottage in 1822, with stone from Kesh.")


def test_a_legend_of_abbreviations_is_no_claim():
    assert not claimable("Key: OB = old bridge, WH = Wenna Harrow, TT = tide table.")
    assert not claimable("Short forms (OB = old bridge; WH = Wenna Harrow) are used below.")
    assert claimable("Wenna Harrow (WH) kept the tide table from 1881.")
    assert claimable("The toll = two pence a cart, as the 1840 board said.")
