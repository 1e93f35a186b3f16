"""The answer comes first: answer types, candidate spans, the bridge that is not the answer, honest abstention."""

from __future__ import annotations

import pytest

from satiate.engine.answer import (
    candidate_spans,
    evidence_lines,
    expected_answer,
    find_answer,
    head_noun,
    name_spans,
    read_for,
    with_subject,
)
from satiate.engine.reading.kinds import counted_noun
from satiate.nodes.synthesize import gated_short_answer
from satiate.state.contracts import ClaimDraft, SynthesisResponse
from satiate.tools.text import stem, stems
from support.graph_support import build, corpus_deps, run_settings
from support.research_corpus import PASSAGES, QUESTION


def sources_of(passages: list[dict]) -> list[dict]:
    return [{"id": f"S{n}", "key": f"doc:{p['doc_id']}", "title": p["title"], "text": p["text"], "url": "",
             "angle": "question"} for n, p in enumerate(passages, 1)]


def page(title: str, text: str) -> dict:
    return {"doc_id": title.lower().replace(" ", "-"), "title": title, "text": text}


PEOPLE = [
    {"doc_id": "quill", "title": "Ada Quill",
     "text": "Ada Quill (born 4 May 1931) is a Welsh painter of harbour scenes. She studied in Cardiff."},
    {"doc_id": "marsh", "title": "Tom Marsh",
     "text": "Tom Marsh (born 9 June 1926) is a Welsh sculptor who works in slate. He taught in Bangor."},
    {"doc_id": "velmora", "title": "Harbor of Velmora",
     "text": "The Harbor of Velmora is a fishing port on the north coast. Its breakwater is 17 metres high. It was "
             "rebuilt in 1921 after a storm."},
]


@pytest.mark.parametrize(("question", "kind"), [
    ("Who founded the company that makes the Lumen kettle?", "person"),
    ("When was the Harbor of Velmora rebuilt?", "date"),
    ("In what year was the breakwater rebuilt?", "date"),
    ("How many litres does the kettle hold?", "number"),
    ("How high is the breakwater of the Harbor of Velmora?", "number"),
    ("Where did Ada Quill study?", "place"),
    ("In which county is Velmora?", "place"),
    ("Were Ada Quill and Tom Marsh of the same nationality?", "yes_no"),
    ("Who is older, Ada Quill or Tom Marsh?", "choice"),
    ("What does the __init__ method do?", "description"),
    ("What is a generator?", "description"),
    ("How does the import statement find modules?", "description"),
    ("What is the name of the anthem of the college in Orrenford?", "name"),
    # a behaviour asked about with its context after the verb is still a behaviour, not a name
    ("What does the grind statement do in a mill block?", "description"),
    ("What does harbor.dock return when the quay is full?", "description"),
    ("What does the Orren Cider Works make?", "name"),
    # a preposition before "whose" or "whom" still asks for a person; a relative "whose" does not
    ("On whose orders was the Velmora school shut?", "person"),
    ("With whom did Ada Quill sail to Velmora?", "person"),
    ("What was the name of the ferry whose horn opened the Velmora festival?", "name"),
    # a question set after what it builds on asks by its last clause
    ("The Velmora barge was named after a woman; who was her husband?", "person"),
    ("My aunt says Ada Quill paid for the Velmora hall. Who really did?", "person"),
    # "what" as what was paid asks a sum of money; as what was sold, a thing
    ("What did the Velmora trust pay for the old ferry?", "number"),
    ("What did the new Velmora roof cost?", "number"),
    ("What did the Velmora mill sell?", "name"),
    ("What proportion of the Velmora boats were saved?", "number"),
    ("The St. Orren ferry ran until the war. Where did it sail from?", "place"),
])
def test_the_question_says_what_kind_of_answer_it_wants(question: str, kind: str) -> None:
    assert expected_answer(question).kind == kind


def test_two_option_questions_name_their_options_as_written() -> None:
    expected = expected_answer("Which band, Salt Hollow or Copper Weather, had more members?")
    assert expected.kind == "choice" and expected.options == ("Salt Hollow", "Copper Weather")
    assert expected.direction == "more"
    older = expected_answer("Who is older, Ada Quill or Tom Marsh?")
    assert older.options == ("Ada Quill", "Tom Marsh") and older.direction == "early"


def test_names_stop_at_punctuation_and_fragments_of_quoted_titles_are_not_names() -> None:
    spans = name_spans("Quellbrook is a community in Harrow County, New Westmarch, Eastland.")
    assert spans[:1] == ["Quellbrook"] and "Harrow County" in spans and "New Westmarch" in spans
    assert not any("," in span for span in spans)
    quoted = name_spans('"All the Lamps Are Lit Again" is a song written by Orla Vance.')
    assert quoted == ["All the Lamps Are Lit Again", "Orla Vance"]
    # a capitalised common word that opens the sentence is no name
    assert name_spans("The journal is published monthly.", frozenset({"journal"})) == []
    # a number is a whole word of a name or none of it: a decade after "of the" is no part of the name before it
    assert name_spans("Who ran the Quellbrook Fair of the 1880s?") == ["Quellbrook Fair"]
    assert name_spans("Who won the Quellbrook Cup of 1901?") == ["Quellbrook Cup of 1901"]


def test_a_title_in_single_quotes_is_one_name_and_an_apostrophe_opens_none() -> None:
    assert name_spans("The one lost was 'Kesh Pearl', a small hard pear from Orren.") == ["Kesh Pearl", "Orren"]
    assert name_spans("In the winter of '71 the Pells' cellar at Kesh flooded.") == ["Pells", "Kesh"]
    assert name_spans("Ada's 'Gull Rose' was built by Ivo Pell.") == ["Gull Rose", "Ada", "Ivo Pell"]


def test_a_full_stop_after_a_word_ends_a_name_but_not_after_an_initial_or_an_abbreviation() -> None:
    # the splitter leaves a quotation whole (one too long to be a title); a word's full stop in it ends a sentence
    quoted = ('She wrote that "the finest voice the whole valley ever heard was Tarrow. Ada Pell only began to sing '
              'after the war" in her notes.')
    assert name_spans(quoted) == ["Tarrow", "Ada Pell"]
    assert name_spans("Ivo K. Marren worked with Bellwood Bros. Pictures near St. Anselm.") == [
        "Ivo K. Marren", "Bellwood Bros. Pictures", "St. Anselm"]


def test_a_conjunction_opening_the_sentence_is_no_part_of_the_name_after_it() -> None:
    assert name_spans("Although the Kesh Rowing Club paid for it, the boathouse was the town's.") == [
        "Kesh Rowing Club"]
    assert name_spans("Because Ada Pell kept the keys, nobody else went in.") == ["Ada Pell"]


def test_a_nickname_quoted_inside_a_name_belongs_to_it() -> None:
    spans = name_spans('Ada "Kit" Pell (born 1950) is a sailor who named her boat "Heron" after Tom Vane.')
    assert "Ada Kit Pell" in spans and "Ada" not in spans and "Pell" not in spans
    assert "Heron" in spans and "Tom Vane" in spans  # a quoted title elsewhere stays a name of its own


def test_a_value_given_in_code_is_no_name() -> None:
    assert name_spans("gullbase.open(mode=Fast): opens the Tarrow Mill archive") == ["Tarrow Mill"]


def test_an_instruction_opening_a_sentence_is_no_name_and_does_not_stick_to_the_name_it_governs() -> None:
    common = frozenset({"raise", "send"})
    assert name_spans("Send a value into the generator.", common) == []
    assert name_spans("Request that a generator exit.", common) == []  # before a determiner, common or not
    assert name_spans("Generator.send(value): Send a value into the generator.", common) == ["Generator.send"]
    assert name_spans("Raise GeneratorExit inside the generator.", common) == ["GeneratorExit"]
    # prose names keep their first word, and a name followed by a verb is still a name
    assert name_spans("Grant Hill was drafted in 1994.", frozenset({"grant"})) == ["Grant Hill"]
    assert name_spans("Hall, who was born in 1844, taught there.", common) == ["Hall"]


def test_candidates_have_the_wanted_kind() -> None:
    text = "Ada Quill (born 4 May 1931) is a Welsh painter who moved to Cardiff in 1960 with 3 easels."
    assert candidate_spans(text, expected_answer("When was Ada Quill born?")) == ["4 May 1931", "1960"]
    # "how many easels" counts easels: the answer is the number; "3 easels" would repeat the question
    assert candidate_spans(text, expected_answer("How many easels did she take?"), counted="easels") == ["3"]
    people = candidate_spans(text, expected_answer("Who moved to Cardiff?"))
    assert "Ada Quill" in people and not any(ch.isdigit() for span in people for ch in span)


def test_a_number_that_counts_something_else_is_no_answer_and_a_qualifier_stays() -> None:
    text = "The hall has a population of 713 inhabitants and 4 police officers; it can hold 900 (650 seated)."
    question = "How many inhabitants does the hall have?"
    spans = candidate_spans(text, expected_answer(question), counted=counted_noun(question))
    assert "713" in spans and "4" not in spans  # 4 counts police officers, not inhabitants
    # a comparative bound belongs to the number: "more than 40" is not "40"
    bounded = "How many lighthouses does the Tarrow company run?"
    assert candidate_spans("It runs more than 40 lighthouses and up to 6 ferries.", expected_answer(bounded),
                           counted=counted_noun(bounded)) == ["more than 40"]
    seated = "The hall can seat how many people?"
    qualifiers = frozenset(stems(seated)) - {stem(counted_noun(seated))}
    assert "650 seated" in candidate_spans(text, expected_answer(seated), qualifiers=qualifiers,
                                           counted=counted_noun(seated))


def test_the_noun_the_question_asks_by_does_not_make_the_answer_part_of_the_question() -> None:
    passages = [page("Tellmoor Galleria", "Tellmoor Galleria is a mall located in Brackwater County, Ostland.")]
    found = find_answer("Tellmoor Galleria is located in what county?", sources_of(passages))
    assert found.short_answer == "Brackwater County"
    # a relative "which" names no answer noun: "rock" is not what "in which Gull Rock ..." asks for
    assert head_noun("Where did they play in the state in which Gull Rock is located?") == ""
    assert head_noun("What nationality were Ada Quill and Tom Marsh?") == "nationality"


def test_a_birthday_is_no_name() -> None:
    passages = [page("Oren Vask", "Oren Vask (born April 22, 1946) is an American film director. "
                     "Vask hosted the Lumen Awards in 2002.")]
    found = find_answer("Which American film director hosted the Lumen Awards in 2002?", sources_of(passages))
    assert found.short_answer == "Oren Vask"  # not "April 22"


def test_a_nationality_question_is_answered_by_the_adjective_both_pages_share() -> None:
    passages = [page("Ada Quill", "Ada Quill (born 1931) was a Welsh social anthropologist."),
                page("Tom Marsh", "Tom Marsh (born 1920) was a Welsh social anthropologist.")]
    assert find_answer("What nationality were Ada Quill and Tom Marsh?", sources_of(passages)).short_answer == "Welsh"


def test_a_two_hop_answer_is_the_name_behind_the_bridge_not_the_bridge() -> None:
    found = find_answer(QUESTION, sources_of(PASSAGES))
    assert found.short_answer == "Ada Pell" and found.kind == "person"
    answer_line, hop_line = found.evidence
    assert "Ada Pell" in answer_line.text and "founded" in answer_line.text
    assert "Harbor Works" in hop_line.text and "Lumen" in hop_line.text  # question -> bridge -> answer


def test_a_number_answer_keeps_its_unit_and_its_sentence_gets_its_subject_back() -> None:
    found = find_answer("How high is the breakwater of the Harbor of Velmora?", sources_of(PEOPLE))
    assert found.short_answer == "17 metres"
    assert with_subject(found.evidence[0].text, found.evidence[0].source["title"]) == \
        "Harbor of Velmora's breakwater is 17 metres high."
    assert with_subject("It was rebuilt in 1921.", "Harbor of Velmora (port)") == \
        "Harbor of Velmora was rebuilt in 1921."
    assert with_subject("Harbor of Velmora was rebuilt.", "Harbor of Velmora") == "Harbor of Velmora was rebuilt."


def test_a_section_headed_by_a_name_is_what_its_pronouns_stand_for() -> None:
    # a section of Ansel Harrow's page headed by his sister's name speaks of her
    assert with_subject("She taught at Ossel.", "Ansel Harrow", "# Wenna Harrow (1856–1930)\n\nShe taught at "
                        "Ossel.") == "Wenna Harrow taught at Ossel."
    assert with_subject("In 1880 he left.", "Wenna Harrow", "# Ansel Harrow – abroad\n\nIn 1880 he left.") == \
        "In 1880 Ansel Harrow left."
    # a heading that names a topic, not someone, leaves the pronoun to the page
    assert with_subject("It was sold in 1901.", "Ossel Point light", "# The sale\n\nIt was sold in 1901.") == \
        "Ossel Point light was sold in 1901."
    assert with_subject("It was sold in 1901.", "Ossel Point light", "# Timeline\n\nIt was sold in 1901.") == \
        "Ossel Point light was sold in 1901."


def test_comparisons_read_what_each_source_says() -> None:
    older = find_answer("Who is older, Ada Quill or Tom Marsh?", sources_of(PEOPLE))
    assert older.short_answer == "Tom Marsh"  # born 1926, before 1931
    assert {line.source["title"] for line in older.evidence} == {"Ada Quill", "Tom Marsh"}
    same = find_answer("Were Ada Quill and Tom Marsh of the same nationality?", sources_of(PEOPLE))
    assert same.short_answer == "yes"
    different = sources_of(PEOPLE)
    different[1]["text"] = different[1]["text"].replace("Welsh", "Danish")
    assert find_answer("Were Ada Quill and Tom Marsh of the same nationality?", different).short_answer == "no"


def test_the_finder_abstains_with_a_reason_when_the_sources_do_not_say() -> None:
    found = find_answer("Who designed the Crumb toaster?", sources_of(PASSAGES))
    assert found.short_answer is None and "no person" in found.reason
    missing = find_answer("Who is older, Ada Quill or Rhys Bowen?", sources_of(PEOPLE))
    assert missing.short_answer is None and "Rhys Bowen" in missing.reason
    assert find_answer("Who founded it?", []).short_answer is None


def test_evidence_for_a_model_is_short_ranked_and_carries_the_hop() -> None:
    lines = evidence_lines(QUESTION, sources_of(PASSAGES), limit=4)
    texts = [line.text for line in lines]
    assert len(texts) == 4
    founded = next(i for i, text in enumerate(texts) if "founded in 1987" in text)
    assert any("made by Harbor Works" in text for text in texts[:founded])  # the hop precedes its answer


def test_a_short_answer_survives_only_with_a_gated_claim_that_states_it() -> None:
    synthesis = SynthesisResponse(short_answer="Ada Pell", answer_kind="person",
                                  claims=[ClaimDraft(claim="Harbor Works was founded by Ada Pell.", role="answer")])
    stating = {"claim": "Harbor Works was founded by Ada Pell.", "source_ids": ["S2"], "role": "answer"}
    assert gated_short_answer(synthesis, [stating])["text"] == "Ada Pell"
    cut = gated_short_answer(synthesis, [])
    assert cut["text"] is None and "grounding gate" in cut["reason"]
    elsewhere = {**stating, "claim": "Harbor Works was founded in 1987."}
    assert gated_short_answer(synthesis, [elsewhere])["text"] is None  # the claim must state the answer
    # ... or cite the page the answer names: "Ada Pell" for "Ada Margaret Pell founded it." on the page "Ada Pell"
    fuller = {**stating, "claim": "Ada Margaret Pell founded Harbor Works."}
    assert gated_short_answer(synthesis, [fuller], {"S2": "Ada Pell"})["text"] == "Ada Pell"
    assert gated_short_answer(synthesis, [fuller], {"S2": "Harbor Works"})["text"] is None
    abstained = gated_short_answer(SynthesisResponse(abstain_reason="nothing named"), [stating])
    assert abstained == {"text": None, "kind": "", "reason": "nothing named"}


def test_a_run_leads_with_the_short_answer_and_its_citation(tmp_path, write_jsonl) -> None:
    corpus = write_jsonl(PASSAGES)
    deps, _ = corpus_deps(corpus, tmp_path)
    out = build(deps).invoke({"question": QUESTION, "settings": run_settings(corpus, tmp_path)})
    result = out["result"]
    assert result["short_answer"] == "Ada Pell" and result["short_answer_reason"] == ""
    lead = result["answer"].split("\n\n")[0]
    assert lead.startswith("**Ada Pell** — ") and "[1]" in lead and "founded" in lead
    stating = [c for c in result["claims"] if c["role"] == "answer"]
    assert stating and "Ada Pell" in stating[0]["claim"]
    assert "How the sources lead there:" in result["answer"]  # the hop through Harbor Works, cited


def test_a_run_without_an_answer_says_so_first(tmp_path, write_jsonl) -> None:
    corpus = write_jsonl(PASSAGES)
    deps, _ = corpus_deps(corpus, tmp_path)
    out = build(deps).invoke({"question": "Who designed the Crumb toaster?",
                              "settings": run_settings(corpus, tmp_path)})
    result = out["result"]
    assert result["short_answer"] is None and result["short_answer_reason"]
    assert result["answer"].startswith("The sources read do not support a direct answer (")


def test_an_explanation_question_is_not_told_its_answer_is_unsupported(tmp_path) -> None:
    from satiate.engine.base import ResearchView
    from satiate.engine.deterministic import DeterministicEngine
    from satiate.state.settings import Settings

    sources = [{**s, "backend": "corpus", "read_kind": "passage", "cycle": 1} for s in sources_of(PASSAGES)]
    view = ResearchView(question="What is a kettle?", settings=Settings(llm="none", data_dir=str(tmp_path)),
                        sources=sources, knowledge_state="", search_results=[])
    report = DeterministicEngine().critique(view).value
    assert report.gaps and not any(g.description.startswith("The answer is not supported") for g in report.gaps)


def test_equal_sources_share_one_reading_and_a_changed_text_gets_its_own() -> None:
    first = read_for(QUESTION, sources_of(PASSAGES))
    again = read_for(QUESTION, sources_of(PASSAGES))  # new dicts, equal content: the critic after synthesize
    assert again is first
    edited = sources_of(PASSAGES)
    edited[0] = {**edited[0], "text": edited[0]["text"] + " It was rebuilt in 1921 by Tom Marsh."}
    changed = read_for(QUESTION, edited)
    assert changed is not first and any("Tom Marsh" in line.text for line in changed.pool)
    assert read_for("Who rebuilt it?", sources_of(PASSAGES)) is not first  # another question, another ranking



DOCS = [
    page("Python stdlib: functools.lru_cache", "functools.lru_cache(maxsize=128, typed=False): Least-recently-used "
         "cache decorator that memoizes calls. If maxsize is set to None, the LRU features are disabled and the cache "
         "can grow without bound. Arguments to the cached function must be hashable."),
    page("Python language reference: Binary arithmetic operations", "The % operator yields the remainder from the "
         "division of the first argument by the second. The // operator yields the floor of the division."),
    page("Python stdlib: Sequence Types — Tuples", "Tuples are immutable sequences, typically used to store "
         "collections of heterogeneous data. Tuples may be constructed in a number of ways."),
    page("Python stdlib: Sequence Types — Lists", "Lists are mutable sequences, typically used to store collections "
         "of homogeneous items. Lists may be constructed in several ways."),
    page("Python stdlib: Set Types — set, frozenset", "The set type is mutable: its contents can be changed with "
         "methods like add() and remove(). The frozenset type is immutable and hashable, so it can be used as a "
         "dictionary key or as an element of another set."),
]


def test_an_explanation_opens_with_the_first_sentence_of_the_page_about_the_subject() -> None:
    found = find_answer("What does functools.lru_cache do?", sources_of(DOCS))
    assert found.kind == "description" and found.short_answer is None
    assert found.evidence[0].text.startswith("functools.lru_cache(maxsize=128, typed=False): Least-recently-used")


def test_a_possessive_names_its_owner_and_a_number_before_a_connector_ends_a_name() -> None:
    assert name_spans("Ada Pell's nephew, born 1921, kept the books.") == ["Ada Pell"]
    assert name_spans("Built 1834 for Bo Reed, who owned it.", frozenset({"built"})) == ["Bo Reed"]
    assert name_spans("The Gull 7 of Tarrow sailed.") == ["Gull 7", "Tarrow"]
    assert name_spans("The Battle of 1812 ended.") == ["Battle of 1812"]  # a number after a connector stays


def test_a_notes_line_opening_on_its_verb_names_what_the_verb_acts_on() -> None:
    assert name_spans("Paid Ada Pell's wage from 1901.", frozenset({"paid"})) == ["Ada Pell"]
    # a past form the lexicon knows is the line's verb, written in lower case elsewhere or not; a name that only
    # ends as a past does is a name; a year after a name dates the line
    assert name_spans("Paid Ada Pell's wage from 1901.") == ["Ada Pell"]
    assert name_spans("Buried Ivo Marr 1902 at Kesh.") == ["Ivo Marr", "Kesh"]
    assert name_spans("Winifred Marr came in 1902.") == ["Winifred Marr"]
    assert name_spans("> Dear Dr Pell, thank you for the photographs.") == ["Dr Pell"]  # a letter's greeting
    assert name_spans("14 Oct Auction of the boats, 1931.") == ["Auction"]  # a day and a short month: a date
    assert name_spans("On 3 Jan Ivo Marr came.") == ["Ivo Marr"]
    assert name_spans("Jan Ferris came.") == ["Jan Ferris"]


def test_an_explanation_of_something_no_source_names_is_an_abstention_that_says_what_is_missing() -> None:
    found = find_answer("What does the walrus operator do?", sources_of(DOCS))
    assert found.evidence == [] and found.reason == "no source read mentions 'walrus'"
    # named somewhere, but by no sentence the question's other words lead to: still no explanation of it
    aside = DOCS + [page("pydantic changelog", "Support walrus in validators.")]
    assert "'walrus'" in find_answer("What does the walrus operator do?", sources_of(aside)).reason


def test_the_subjects_own_page_leads_even_when_pages_that_only_mention_it_rank_higher() -> None:
    zlib = page("Python stdlib: zlib module", " ".join(
        f"The function number {n} of this module compresses data like GNU zip does." for n in range(50)))
    own = page("Python built-in: zip", "zip(*iterables): Iterate over several iterables in parallel, in tuples.")
    found = find_answer("What does the zip function do?", sources_of([zlib, own]))
    assert found.evidence[0].text.startswith("zip(*iterables): Iterate over several iterables")


def test_a_page_indexed_as_several_passages_opens_with_its_first() -> None:
    title, url = "Python language reference: The with statement", "https://docs.python.org/3/with.html"
    later = {"id": "S1", "key": "doc:with#p3", "doc_id": "python:with#p3", "title": title, "url": url,
             "text": "You can also write multi-item with statements over several lines if the items are in "
                     "parentheses. The with statement then manages every item in turn."}
    first = {"id": "S2", "key": "doc:with#p1", "doc_id": "python:with#p1", "title": title, "url": url,
             "text": "The with statement wraps the execution of a block with methods defined by a context manager."}
    found = find_answer("What is the with statement?", [later, first])
    assert found.evidence[0].text.startswith("The with statement wraps the execution of a block")


def test_a_version_note_does_not_open_an_explanation() -> None:
    with_note = [page("Python stdlib: functools.cache", "Changed in version 3.9: Added the function to the module "
                      "namespace.\n\nfunctools.cache(user_function): Simple lightweight unbounded function cache.")]
    found = find_answer("What does functools.cache do?", sources_of(with_note))
    assert found.evidence[0].text.startswith("functools.cache(user_function): Simple lightweight")


def test_a_module_named_like_a_contraction_fragment_is_a_term():
    from satiate.tools.text import content_terms, words

    # the tokenizer keeps "we're" whole, so a lone "re" is never a contraction's fragment: it is the re module
    assert words("we're sure") == ["we're", "sure"]
    assert content_terms("How does the re module split text?") == ["re", "module", "split", "text"]


def test_a_one_word_label_opening_a_line_is_no_name():
    from satiate.engine.reading.names import name_spans

    assert name_spans("Args: sack: The sack to weigh.") == []  # a docstring's label names what follows
    assert name_spans("Note: Harbor Works closed.") == ["Harbor Works"]
    assert name_spans("Ada Pell: a botanist from Orren.") == ["Ada Pell", "Orren"]  # a name of two words stays


def test_a_keyword_named_as_such_is_the_subject_not_a_stopword() -> None:
    from satiate.tools.text import content_terms

    assert content_terms("What does the with statement do?") == ["with", "statement"]
    assert content_terms("What is the in operator?") == ["in", "operator"]
    assert content_terms("the operator of the mine") == ["operator", "mine"]  # an article is never a keyword
    # one list of syntax nouns for every reader: a keyword named by any of them, singular or plural, is a term
    assert content_terms("What does the if block hold?") == ["if", "block", "hold"]
    assert content_terms("How do the is tests differ?") == ["is", "tests", "differ"]
    assert expected_answer("What is the in operator?").kind == "description"


def test_what_a_kind_of_thing_is_within_a_field_asks_for_an_explanation() -> None:
    assert expected_answer("What is a decorator in Python?").kind == "description"
    assert expected_answer("What is the capital in the north of Wales?").kind != "description"  # "the": a name
    assert expected_answer("What is a term for the court in secular society?").kind == "name"
    assert expected_answer("What is the purpose of the global statement?").kind == "description"
    assert expected_answer("What is functools.partial used for?").kind == "description"
    assert expected_answer("Are both towers used for real estate?").kind == "yes_no"


def test_a_comparison_asks_for_an_explanation_about_the_things_compared() -> None:
    assert expected_answer("What is the difference between a set and a frozenset?").kind == "description"
    assert expected_answer("How does a tuple differ from a list?").kind == "description"
    assert expected_answer("How many years difference is there between A and B?").kind == "number"
    found = find_answer("What is the difference between a set and a frozenset?", sources_of(DOCS))
    assert "mutable" in found.evidence[0].text  # "difference" itself is in no sentence, nor needed
    # only operators and comparison words: no sentence can be told to be about them
    assert find_answer("What is the difference between is and ==?", sources_of(DOCS)).evidence == []


def test_a_question_ending_in_when_asks_for_a_time():
    assert expected_answer("The Orlin fair in Tarrow began when?").kind == "date"


def test_a_when_question_takes_the_year_the_sentence_gives_its_act_not_another_year_of_it() -> None:
    passages = [page("Ivo Lant", "The Kesh engineer from 1879 to 1908 was Ivo Lant, a millwright born at Orren in "
                                 "1851."),
                page("Kesh hospital", "Ada Pell ran the Kesh hospital from its opening in Orren Cottage until 1889, "
                                      "and moved the patients to Mill Road in 1881.")]
    assert find_answer("In what year was the Kesh engineer Ivo Lant born?", sources_of(passages)).short_answer == "1851"
    assert find_answer("When did the Kesh hospital move out of Orren Cottage?",
                       sources_of(passages)).short_answer == "1881"


def test_who_did_an_act_told_through_its_converse_is_the_one_the_converse_marks() -> None:
    passages = [page("Orren station", "In 1951 the Kesh railway sold the station building at Orren to Mrs Ada Pell "
                                      "for £350, and she ran it as a tea room."),
                page("Ivo Lant", "Ivo Lant, the station master at Orren in 1951, kept the station building in good "
                                 "repair.")]
    found = find_answer("Who purchased the Orren station building in 1951?", sources_of(passages))
    assert found.short_answer is not None and "Ada Pell" in found.short_answer
    # the converse states the act asked, so its sentence far outweighs one that only shares the question's other words
    assert found.candidates[0][1] > 2 * found.candidates[1][1]


def test_an_adverb_opening_the_sentence_is_no_part_of_the_name_after_it():
    assert name_spans("Apparently Orla Venn sold the ferry to Kesh.") == ["Orla Venn", "Kesh"]
    assert name_spans("Sadly Orla Venn never saw it.") == ["Orla Venn"]
    assert name_spans("Emily Venn sold the ferry.") == ["Emily Venn"]  # a name that ends in -ly stays whole
