"""The no-model engine's pure parts: breadcrumbs, disputes, claimable sentences, angle queries."""

from __future__ import annotations

from satiate.engine.breadcrumbs import rank_breadcrumbs, remaining_terms
from satiate.engine.deterministic import angle_queries, dispute_topic, has_conflict, same_subject
from satiate.state.contracts import MAX_QUERY_CHARS
from satiate.tools.text import claimable, entities, stem
from support.research_corpus import PASSAGES, QUESTION


def source(source_id: str, title: str, text: str) -> dict:
    return {"id": source_id, "key": f"doc:{source_id}", "title": title, "text": text, "url": "", "angle": "question"}


def test_the_bridge_entity_ranks_first_and_keeps_the_terms_the_next_hop_needs():
    lumen = next(p for p in PASSAGES if p["doc_id"] == "lumen")
    toaster = next(p for p in PASSAGES if p["doc_id"] == "toaster")
    sources = [source("S1", lumen["title"], lumen["text"]), source("S2", toaster["title"], toaster["text"])]
    crumbs = rank_breadcrumbs(QUESTION, sources)
    assert crumbs[0].name == "Harbor Works" and crumbs[0].kind == "organisation"
    assert "founded" in remaining_terms(QUESTION, crumbs[0], sources)
    # a page we already hold is not a breadcrumb to follow, but synthesis may still use it as a bridge
    held = sources + [source("S3", "Harbor Works", "Harbor Works was founded in 1987 by Ada Pell.")]
    assert "Harbor Works" not in [c.name for c in rank_breadcrumbs(QUESTION, held)]
    assert "Harbor Works" in [c.name for c in rank_breadcrumbs(QUESTION, held, include_held=True)]


def test_a_page_read_under_a_prefixed_or_dotted_title_holds_its_subject_and_its_members():
    question = "What does a Python generator do?"
    text = ("A generator object supports send and close, and close may raise an error. Generator.send(value) resumes "
            "the generator. Raise GeneratorExit inside the generator to close the generator early.")
    read = [source("S1", "Python stdlib: collections.abc.Generator", text)]
    names = [c.name for c in rank_breadcrumbs(question, read)]
    assert "GeneratorExit" in names and "Generator.send" not in names  # a member of the page read
    held = read + [source("S2", "Python built-in: GeneratorExit", "Request that a generator exit.")]
    assert "GeneratorExit" not in [c.name for c in rank_breadcrumbs(question, held)]


def test_disputes_need_the_same_subject():
    harbor = source("S1", "Harbor Works", "")
    press = source("S2", "Harbor Works history (press)", "")
    assert same_subject((harbor, "Harbor Works was founded in 1987 by Ada Pell."),
                        (press, "A press profile claims Harbor Works was founded in 1991 by Ada Pell."))
    harbour = source("S3", "Grey Harbour (film)", "")
    tide = source("S4", "The Long Tide", "")
    assert not same_subject((harbour, "Grey Harbour is a 2012 horror film directed by Ada Wrenfield."),
                            (tide, "The Long Tide is a 2014 horror film directed by Ada Wrenfield."))
    # a sentence that refers back takes its page's title as its subject
    assert not same_subject((source("S5", "Journal A", ""), "The journal was first published in 1963."),
                            (source("S6", "Journal B", ""), "The journal was first published in 2009."))
    # a label that opens two sentences ("Args:") is not their shared subject: each is about its own page
    assert not same_subject((source("S7", "Kiln.fire", ""), "Args: heat: The heat to fire at."),
                            (source("S8", "Kiln.cool", ""), "Args: heat: The heat to stop at, not below it."))
    assert has_conflict("founded in 1987", "founded in 1991") and not has_conflict("in 1987", "in 1987 too")
    # a dispute is named as a reader names it: its subject and the figures in dispute
    topic = dispute_topic((harbor, "Harbor Works was founded in 1987 by Ada Pell."),
                          (press, "A press profile claims Harbor Works was founded in 1991."))
    assert topic == "Harbor Works: 1987 or 1991"
    assert has_conflict("The kettle is efficient.", "The kettle is not efficient.")


def test_claimable_keeps_prose_and_drops_markup_code_and_badges():
    assert claimable("Harbor Works was founded in 1987 by the engineer Ada Pell in Bristol.")
    assert not claimable("|PyPI| |Pythons| |Coverage|")
    assert not claimable("```python import satiate")
    assert not claimable("- Fixed host encoding accepting Unicode code points in yarl.")
    assert not claimable("Short one.")
    assert not claimable("email.generator.Generator(outfp, mangle_from_=None, maxheaderlen=None, *, policy=None)")
    # a table of attributes flattened into one line is no statement; prose naming a module or two still is
    assert not claimable("Generator objects provide these attributes: gi_code code object gi_frame frame object "
                         "gi_running set to 1 when the generator is executing")
    assert claimable("The os.path module and the sys_exit helper are used by the build scripts here.")
    assert not claimable('lambda_expr ::= "lambda" [parameter_list] ":" expression')  # a grammar rule
    # a signature may name many keyword arguments: the summary after it still states something
    assert claimable("json.dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, "
                     "sort_keys=False): Serialize obj to a JSON formatted str.")


def test_a_documented_entry_states_its_summary_even_when_short_or_ending_in_parentheses():
    # the signature closes before the summary: a summary ending in parentheses is no bare signature
    assert claimable("harbor.moor(ship, rope=None): Tie a ship to the quay (by its bow or stern).")
    assert not claimable("harbor.moor(ship, rope=dict())")
    assert not claimable("harbor.moor(ship, rope=dict()).")
    # the entry's name is the subject of a short summary; a short line without one is still a fragment
    assert claimable("harbor.Bell(): Primitive quay bells.")
    assert not claimable("harbor.Bell(): Bells.")
    assert not claimable("Primitive quay bells.")


def test_a_sentence_cut_off_at_a_comma_is_a_fragment():
    assert not claimable("If every sack was weighed and stored (because the mill was idle, or because it was night),")
    assert claimable("If every sack was weighed and stored, the miller closed the mill for the night.")


def test_identifiers_and_irregular_verbs():
    assert entities("Contract GS-35F-0119Y and the slug python-360-is-now-available.").count("GS-35F-0119Y") == 1
    assert "python-360-is-now-available" not in entities("See python-360-is-now-available for details here.")
    assert stem("made") == stem("makes") == stem("making")


def test_angle_queries_put_the_target_first_and_always_hold_a_counter_argument():
    planned = angle_queries(QUESTION, ["entity", "counter_argument"])
    assert planned[0].query == QUESTION and planned[0].angle == "question"
    assert any(q.angle == "entity" and q.query == "Lumen" for q in planned)
    assert any(q.angle == "counter_argument" for q in planned)
    long_question = "Why " + "and why " * 200 + "?"
    assert len(angle_queries(long_question, [])[0].query) <= MAX_QUERY_CHARS


def test_novelty_against_everything_read_is_stricter_than_against_the_knowledge_state():
    from satiate.engine.base import ResearchView
    from satiate.engine.deterministic import DeterministicEngine
    from satiate.state.settings import Settings

    read = [source("S1", "Harbor Works", "Harbor Works was founded in 1987 by the engineer Ada Pell in Bristol.")]
    hit = {"body": "Harbor Works was founded by the engineer Ada Pell in Bristol in 1987.", "key": "doc:x"}
    views = {
        mode: ResearchView(question=QUESTION, settings=Settings(data_dir="/tmp/unused", novelty_reference=mode,
                                                                novelty_measure="words"),
                           sources=read, knowledge_state="The Lumen kettle is made by Harbor Works.",
                           search_results=[])
        for mode in ("knowledge_state", "sources")
    }
    engine = DeterministicEngine()
    assert engine.novelty(views["sources"], [hit]).value == 0
    assert engine.novelty(views["knowledge_state"], [hit]).value >= 5


def test_novelty_focus_judges_only_sentences_about_the_question():
    from satiate.engine.base import ResearchView
    from satiate.engine.deterministic import DeterministicEngine
    from satiate.state.settings import Settings

    off_topic = {"body": "The Crumb toaster has six browning levels. It sells in supermarkets.", "key": "doc:t"}
    on_topic = {"body": "Harbor Works makes the Lumen kettle in a Bristol factory.", "key": "doc:h"}

    def score(focus: bool, hit: dict) -> int:
        view = ResearchView(question=QUESTION, settings=Settings(data_dir="/tmp/unused", novelty_focus=focus,
                                                                 novelty_measure="words"),
                            sources=[], knowledge_state="", search_results=[])
        return DeterministicEngine().novelty(view, [hit]).value

    assert score(False, off_topic) == 10 and score(True, off_topic) == 0  # new words, but none about the question
    assert score(True, on_topic) == 10


def test_a_claim_covers_the_subject_its_cited_page_is_titled_by():
    from satiate.engine.base import ResearchView
    from satiate.engine.deterministic import DeterministicEngine
    from satiate.state.settings import Settings

    text = "The appliance boils a litre of water in two minutes and switches itself off when the water boils."
    claim = {"claim": text, "source_ids": ["S1"], "confidence": "high", "support": [],
             "verification": "unverified_single"}

    def uncovered(title: str) -> list[str]:
        view = ResearchView(question="What does the Lumen kettle do?", settings=Settings(data_dir="/tmp/unused"),
                            sources=[source("S1", title, text)], knowledge_state="", search_results=[],
                            claims=[claim])
        report = DeterministicEngine().critique(view).value
        return [g.description for g in report.gaps if g.description.startswith("No claim covers")]

    assert uncovered("Lumen kettle") == []  # the page's subject is what its sentences speak of
    assert uncovered("Household appliances") == ["No claim covers: lumen, kettle."]
