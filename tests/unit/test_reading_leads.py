"""How-to leads, member entries, signature-only openings, "not covered" and briefs, on invented pages."""

from __future__ import annotations

from satiate.engine.answer import description_lead, read_for
from satiate.engine.reading.brief import brief_runs
from satiate.engine.reading.coverage import is_not_covered, named_things, not_covered
from satiate.engine.reading.gaps import as_question, unique_questions, worth_asking
from satiate.engine.reading.leads import task_lead
from satiate.tools.search.task_pages import is_howto, signature_only, task_terms


def page(number: int, title: str, text: str, url: str = "") -> dict:
    return {"id": f"S{number}", "key": f"k{number}", "url": url or f"https://docs.example/{number}", "title": title,
            "text": text, "backend": "builtin", "read_kind": "passage", "query": "q", "angle": "direct", "cycle": 1,
            "round": 0, "doc_id": f"doc{number}"}


MILL_PAGES = [
    page(1, "Python stdlib: mill.grind_bytes", "mill.grind_bytes(data): Grind the given bytes and return the flour as "
         "a new object.\n\nThe stones turn slowly when the water is low."),
    page(2, "Python stdlib: mill.sackcopy", "mill.sackcopy(src, dst): Copy a sack of flour from one cart to another "
         "cart in the most careful way possible.\n\nA sack that is torn is skipped with a warning."),
    page(3, "Python stdlib: mill.copy_sack_range", "mill.copy_sack_range(src, dst, count): Copy count scoops between "
         "two sacks that are both open.\n\nThe sacks must belong to the same mill."),
    page(4, "Python stdlib: mill.Hopper", "mill.Hopper(size): Hopper(size) --> hopper object\n\nHold grain above the "
         "stones until it is fed down.\n\nHopper.drain(): Empty the hopper into the sack below it."),
]


def lead_text(question: str, sources: list[dict]) -> str:
    reading = read_for(question, sources)
    lead = description_lead(question, sources, reading.ranked)
    assert not isinstance(lead, str), lead
    return lead.line.text


def test_a_howto_question_is_led_by_the_page_whose_name_does_the_task():
    assert is_howto("How do I copy a sack?") and not is_howto("What does mill.sackcopy do?")
    assert task_terms("How do I copy a sack in Python?") == ["copy", "sack"]
    # the page named for the task wins over a page whose name carries an extra part ("range") and one about grinding
    assert lead_text("How do I copy a sack?", MILL_PAGES).startswith("mill.sackcopy(src, dst): Copy a sack")


def test_no_howto_lead_when_no_page_name_or_summary_holds_the_task():
    reading = read_for("How do I paint the barn door?", MILL_PAGES)
    assert task_lead("How do I paint the barn door?", reading.ranked) is None


def test_a_signature_only_opening_gives_way_to_the_sentence_after_it():
    assert signature_only("mill.Hopper: Hopper(size) --> hopper object")
    assert not signature_only("mill.sackcopy(src, dst): Copy a sack of flour from one cart to another")
    assert lead_text("What is mill.Hopper?", MILL_PAGES).startswith("Hold grain above the stones")


def test_a_named_method_leads_with_its_entry_in_its_class_page():
    assert lead_text("What does mill.Hopper.drain do?", MILL_PAGES).startswith("Hopper.drain(): Empty the hopper")


def test_not_covered_when_a_named_thing_or_most_distinctive_words_occur_in_no_source():
    reason = not_covered("How do I configure a Brightwell router?", MILL_PAGES)
    assert reason is not None and is_not_covered(reason) and "Brightwell" in reason
    assert named_things("How do I tune Quillstone for Python?") == ["Quillstone"]
    assert is_not_covered(not_covered("Which lantern suits a night shepherd?", MILL_PAGES, names_must_occur=False))
    assert not_covered("How do I copy a sack?", MILL_PAGES) is None
    assert not_covered("How do I drain the Hopper?", MILL_PAGES) is None


def test_a_third_party_description_covers_only_a_question_that_names_its_package():
    pypi = page(9, "relaykit: event relays", "Behind a Brightwell router, configure relaykit with a long timeout.",
                url="https://pypi.org/project/relaykit/")
    assert not_covered("How do I configure a Brightwell router?", [*MILL_PAGES, pypi]) is not None
    assert not_covered("How do I run relaykit behind a Brightwell router?", [*MILL_PAGES, pypi]) is None
    # a word only a third-party description uses names a third-party thing, whatever its case
    assert "timeout" in not_covered("How do I copy a sack with a timeout?", [*MILL_PAGES, pypi])
    assert not_covered("How do I copy a sack with a timeout?", [*MILL_PAGES, pypi], names_must_occur=False) \
        is None


def test_a_brief_quotes_runs_in_document_order_with_the_lead_page_first_and_no_framing_only_sentence():
    sources = [
        page(1, "The Gearwheel", "The gearwheel turns the upper stone. Its teeth mesh with the lantern pinion. "
             "Explain how it works, said the visitor. The pinion drives the gearwheel shaft at twice the speed."),
        page(2, "Water supply", "The gearwheel is driven by the water wheel outside. Fish live in the pond."),
    ]
    question = "How does the gearwheel work?"
    reading = read_for(question, sources)
    lead = next(s for s in reading.ranked if s.line.text.startswith("The gearwheel turns"))
    runs = brief_runs(question, reading.ranked, 400, first=lead)
    assert [run.page for run in runs] == ["doc1", "doc2"]
    first = [s.line.text for s in runs[0].lines]
    assert first[0].startswith("The gearwheel turns") and first[-1].startswith("The pinion drives")
    assert not any("visitor" in text for text in first)  # shares only "how" and "works" with the question
    # a sentence with no word of the question goes on with the run it is part of
    assert [s.line.text for s in runs[1].lines] == ["The gearwheel is driven by the water wheel outside.",
                                                     "Fish live in the pond."]


def test_open_questions_only_for_gaps_a_reader_should_see():
    counter = {"kind": "missing-counterarg", "description": "No claim presents an opposing view."}
    unread = {"kind": "unread-source", "description": "'Pinion' is named by the sources read but ..."}
    assert not worth_asking(counter, "How does the gearwheel turn?", explanation=True)
    assert worth_asking(counter, "Should a mill use an overshot wheel?", explanation=False)
    assert not worth_asking(unread, "How does the gearwheel turn?", explanation=True)
    assert worth_asking(unread, "Who built the Harrow mill?", explanation=False)
    assert as_question("No claim covers: pinion, axle.") == "What do the sources say about pinion, axle?"
    framing = {"kind": "modality", "description": "No claim covers: work."}
    assert not worth_asking(framing, "How does the gearwheel work?", explanation=True)
    assert worth_asking({**framing, "description": "No claim covers: axle."}, "How does the axle turn?", True)
    twice = [{"question": "What about the axle?"}, {"question": "what about  the axle?"}, {"question": "Why?"}]
    assert [q["question"] for q in unique_questions(twice)] == ["What about the axle?", "Why?"]


def test_a_module_pages_summary_line_is_supported_although_its_title_repeats_it():
    from satiate.engine.grounding import supports
    module = page(5, "Python stdlib: sieve module — Tool for sifting flour of small mills",
                  "Tool for sifting flour of small mills.\n\nThe mesh is chosen by the miller.")
    assert supports("Tool for sifting flour of small mills.", module, 0.6) is not None
    assert supports("Tool for sifting gravel of large quarries.", module, 0.6) is None


def test_a_hyphenated_name_is_covered_when_a_part_of_it_is_read():
    sources = [page(6, "Python stdlib: mill.quote", "mill.quote(text): Quote the text for a URL query.")]
    assert not_covered("How do I URL-quote a text?", sources) is None


def test_when_code_runs_is_answered_by_the_sentence_that_says_when():
    from satiate.engine.reading.behaviour import asks_when_code_runs, behaviour_lead
    assert asks_when_code_runs("When is the __close__ method called?")
    assert asks_when_code_runs("When does the rinse step of a grind cycle run?")
    assert not asks_when_code_runs("When was the Harrow mill built?")
    assert asks_when_code_runs("What does the within operator test?")
    assert asks_when_code_runs("What does mill.grind return?")
    assert not asks_when_code_runs("What does the Harrow mill's owner do for a living?")
    assert asks_when_code_runs("What are __hooks__ for?")
    assert asks_when_code_runs("What is the then clause of a grind statement used for?")
    assert not asks_when_code_runs("What is the Harrow mill known for?")
    sources = [page(7, "Mill customization", "Mill objects have special methods. The __close__ method is called "
                    "after the last sack is filled and the stones stop. It must return None.")]
    question = "When is the __close__ method called?"
    lead = behaviour_lead(question, read_for(question, sources), sources)
    assert lead is not None and lead.line.text.startswith("The __close__ method is called after the last sack")


def test_an_explanation_leads_from_the_page_whose_title_names_its_subject_not_a_passing_mention():
    sources = [page(1, "Mill doors", "The door gear works only when the protocol of the mill is followed."),
               page(2, "Implementing gears", "A gear passes force from one shaft to the next, as the protocol says.")]
    assert lead_text("How does the gear protocol work?", sources).startswith("A gear passes force")


def test_a_named_special_method_leads_with_the_first_sentence_of_its_own_entry():
    sources = [page(8, "Mill customization", "Mill objects have special methods.\n\nobject.__close__(self)\n\n"
                    "Called after the last sack is filled and the stones stop.\n\nobject.__open__(self)\n\n"
                    "Called before the first sack; __close__ is never called twice.")]
    assert lead_text("What does the __close__ method do?", sources).startswith("Called after the last sack")
    assert lead_text("When is __open__ called?", sources).startswith("Called before the first sack")


def test_a_special_methods_entry_is_found_when_its_first_sentence_runs_over_several_lines():
    sources = [page(9, "Mill customization", "Mill objects have special methods.\n\nobject.__close__(self)\n\n"
                    "   Called after the last sack is filled\n   and the stones stop.\n\nobject.__open__(self)\n\n"
                    "   Called before the first sack.")]
    assert lead_text("When is the __close__ method called?", sources).startswith(
        "Called after the last sack is filled and the stones stop")


def test_a_special_methods_entry_that_ends_its_passage_is_described_by_the_next_passage():
    first = {**page(10, "Mill customization", "Mill objects have special methods.\n\nobject.__close__(self)"),
             "doc_id": "mill:custom#p1"}
    second = {**page(11, "Mill customization", "   Called after the last sack is filled.\n\nobject.__open__(self)"),
              "doc_id": "mill:custom#p2"}
    assert lead_text("When is the __close__ method called?", [first, second]).startswith("Called after the last sack")


def test_a_keyword_named_as_such_is_the_subject_even_when_it_is_a_function_word():
    from satiate.tools.search.named_pages import named_keywords
    assert named_keywords("What does the upon operator test?") == ["upon"]
    assert named_keywords("When is the then clause of a until loop run?") == ["then", "until"]
    assert named_keywords("What does `via` do?") == ["via"]
    assert named_keywords("What does the 'upon' test check?") == ["upon"]
    assert named_keywords("Who founded the Harrow mill?") == []
    sources = [page(12, "Mill reference: Comparisons", "Values are compared by the mill's rules. The operators "
                    "\"upon\" and \"not upon\" test for a sack's place. The operator \"via\" tests for a route.")]
    assert lead_text("What does the upon operator test?", sources).startswith('The operators "upon" and "not upon"')


def test_a_keywords_own_page_leads_past_an_opening_that_only_says_where_it_may_be_written():
    sources = [page(13, "Mill reference: Grind expressions", "Grinding is done in many places."),
               page(14, 'Mill reference: The "stop" statement',
                    'stop_stmt ::= "stop"\n\n"stop" may only occur nested in a "grind" block.\n\nIt halts the '
                    'nearest turning wheel.\n\nIn a sifting block, the "stop" statement empties the sieve first.')]
    assert lead_text("What does the stop statement do?", sources).startswith("It halts the nearest turning wheel")
    # words beyond the page's name pick the sentence that speaks to them
    assert lead_text("What does a stop statement inside a sifting block do?", sources).startswith("In a sifting block")
    # a page named by the keyword and a syntax noun is its own page too
    assert lead_text("What does a grind expression do?", sources).startswith("Grinding is done")


def test_a_keywords_page_leads_before_its_sections_unless_the_question_names_a_section():
    # the section shares "sacks" with the question and ranks first, but the page itself says what the keyword does
    sources = [{**page(17, 'Mill reference: The "grind" statement — "sift" clause', 'The "sift" clause of a grind '
                       "statement sorts the sacks into fine and coarse sacks before the sacks are stored."),
                "doc_id": "grind/1"},
               {**page(18, 'Mill reference: The "grind" statement', 'The "grind" statement turns the stones over '
                       "the grain of the sacks in the hopper."), "doc_id": "grind"}]
    assert lead_text("Explain how the grind statement handles sacks.", sources).startswith(
        'The "grind" statement turns the stones')
    assert lead_text("What does the sift clause of a grind statement do with sacks?", sources).startswith(
        'The "sift" clause of a grind')


def test_a_definition_question_is_led_by_the_sentence_that_defines_its_phrase_either_way_round():
    from satiate.engine.reading.definitions import defined_phrase
    assert defined_phrase("What is a seed grain?") == ["seed", "grain"]
    assert defined_phrase("What is a grain?") == [] and defined_phrase("What is the seed grain of the mill?") == []
    sources = [page(15, "Mill reference: Grains", "Grains are what a mill grinds. A grain kept back for sowing in "
                    "spring is a *seed grain*; see Sowing.")]
    assert lead_text("What is a seed grain?", sources).startswith("A grain kept back for sowing")
    sources = [page(16, "Mill reference: Grains", "Grains are what a mill grinds. Seed grains (or sowing grains) are "
                    "grains kept back for sowing.")]
    assert lead_text("What are seed grains?", sources).startswith("Seed grains (or sowing grains) are")


def test_a_third_party_description_leads_only_when_the_question_names_its_package():
    pypi = page(20, "quernlib: stone tools", "Quernlib grinds the stone to the greatest fineness possible.",
                url="https://pypi.org/project/quernlib/")
    mill = page(21, "Mill reference: Stones", "A stone of the greatest weight is set below. Stones are cut from rock.")
    assert lead_text("How do I find the greatest stone?", [pypi, mill]).startswith("A stone of the greatest weight")
    assert lead_text("How does quernlib grind?", [pypi, mill]).startswith("Quernlib grinds")


def test_a_brief_reads_the_other_sections_of_the_leads_reference_page_next_and_skips_a_bare_introduction():
    sources = [
        {**page(30, "Mill reference: The grind statement", "The grind statement turns the stones. The syntax of a "
                "grind is:\n\ngrind_stmt ::= 'grind' target\n\nA grind ends when the hopper is empty."), "doc_id": "g"},
        {**page(31, "Mill reference: Stones", "Grind stones wear down with each grind statement, so every grind "
                "statement costs stone."), "doc_id": "s"},
        {**page(32, "Mill reference: The grind statement — stop clause", "The stop clause of a grind halts the "
                "stones."), "doc_id": "g/1"},
    ]
    question = "How does the grind statement work?"
    reading = read_for(question, sources)
    lead = next(s for s in reading.ranked if s.line.text.startswith("The grind statement turns"))
    runs = brief_runs(question, reading.ranked, 1000, first=lead)
    assert [run.page for run in runs] == ["g", "g/1", "s"]
    assert [s.line.text for s in runs[0].lines] == ["The grind statement turns the stones.",
                                                     "A grind ends when the hopper is empty."]
