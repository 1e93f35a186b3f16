"""Which sentences a brief quotes (engine.reading.brief): what each adds per character, the pages the question names
before pages that mention them, and the contract (lead first, document order, claims limit, no version notes)."""

from __future__ import annotations

from satiate.engine.answer import description_lead, read_for
from satiate.engine.reading.brief import brief_runs, claim_groups, own_page, subject_stems


def page(number: int, title: str, text: str) -> dict:
    return {"id": f"S{number}", "key": f"k{number}", "url": f"https://docs.example/{number}", "title": title,
            "text": text, "backend": "builtin", "read_kind": "passage", "query": "q", "angle": "direct", "cycle": 1,
            "round": 0, "doc_id": f"doc{number}"}


QUERN = page(1, "Mill reference: The quern", "The quern grinds grain between two round stones. "
             "A quern grinds grain for the baker at the mill, as every quern grinds grain for a baker. "
             "The upper stone is turned by a wooden handle called the rynd. "
             "Changed in version 2.0: the rynd may be made of iron instead of oak.")


def quoted(question: str, sources: list[dict], max_chars: int, lead_opening: str, max_claims: int = 1_000
           ) -> list[list[str]]:
    reading = read_for(question, sources)
    lead = next(s for s in reading.ranked if s.line.text.startswith(lead_opening))
    return [[s.line.text for s in run.lines] for run in brief_runs(question, reading.ranked, max_chars, lead,
                                                                    max_claims)]


def test_a_sentence_that_says_something_new_beats_the_next_one_that_says_the_lead_again():
    # room for the lead and one more sentence: the handle and its name, not the grain and the stones a second time
    [run] = quoted("How does a quern work?", [QUERN], 130, "The quern grinds")
    assert run == ["The quern grinds grain between two round stones.",
                   "The upper stone is turned by a wooden handle called the rynd."]


def test_a_version_note_is_never_quoted_and_a_page_keeps_its_document_order():
    [run] = quoted("How does a quern work?", [QUERN], 1_000, "The quern grinds")
    assert not any(text.startswith("Changed in version") for text in run)
    assert run[0] == "The quern grinds grain between two round stones."
    positions = [QUERN["text"].index(text) for text in run]
    assert positions == sorted(positions)


def test_the_claims_limit_counts_runs_of_adjacent_sentences():
    assert claim_groups([7, 2, 3, 4, 5, 9]) == [[2, 3, 4], [5], [7], [9]]
    text = ("The sieve sifts flour through a mesh. Bran stays on the mesh of the sieve. Ducks swim in the mill pond. "
            "The sieve frame is bent from thin ash wood. Geese nest near the wheel.")
    sieve = page(2, "Mill reference: The sieve", text)
    one_claim = quoted("How does the sieve work?", [sieve], 1_000, "The sieve sifts", max_claims=1)
    # with one claim only the sentences adjacent to the lead can be added, three at most
    assert one_claim == [["The sieve sifts flour through a mesh.", "Bran stays on the mesh of the sieve.",
                          "Ducks swim in the mill pond."]]
    two_claims = quoted("How does the sieve work?", [sieve], 1_000, "The sieve sifts", max_claims=2)
    assert len(claim_groups([text.count(".", 0, text.index(s)) for s in two_claims[0]])) <= 2


def test_the_page_a_question_names_outweighs_pages_that_only_mention_it():
    subject = subject_stems("How does the quern module work?")
    assert own_page("How does the quern module work?", subject, "Mill stdlib: quern module — Hand mills")
    assert not own_page("How does the quern module work?", subject, "Mill stdlib: bakery module — Ovens")
    # most of a page's name in the question's subject words: "Sack Label Syntax" is about sack labels
    labels = subject_stems("Explain how sack.label and sack labels work.")
    assert own_page("Explain how sack.label and sack labels work.", labels, "Mill stdlib: Sack Label Syntax")
    assert not own_page("Explain how sack.label and sack labels work.", labels, "Mill stdlib: Label Printing Ink")
    # a section of the subject's reference page is about the subject too
    asked = "How does the grind statement work?"
    grind = subject_stems(asked)
    assert own_page(asked, grind, 'Mill reference: The "grind" statement — "stop" clause')
    assert not own_page(asked, grind, "Mill reference: Stones — Grind marks")
    quern = page(3, "Mill stdlib: quern module — Hand mills", "The quern module grinds small amounts of grain by hand. "
                 "Its stones are set with a spindle and a rynd.")
    bakery = page(4, "Mill stdlib: bakery module — Ovens", "The bakery module calls the quern module for fresh flour "
                  "before dawn. Loaves proof overnight in wicker baskets lined with linen cloth.")
    runs = quoted("How does the quern module work?", [quern, bakery], 150, "The quern module grinds")
    assert runs == [["The quern module grinds small amounts of grain by hand.",
                     "Its stones are set with a spindle and a rynd."]]


def test_a_module_the_question_names_leads_even_when_its_name_is_a_function_word():
    sources = [page(5, "Mill reference: Modules", "Modules hold the tools of a mill and are loaded once."),
               page(6, "Mill stdlib: up module — Lifting sacks", "Lift sacks from the cart to the loft with a rope.")]
    question = "How does the up module work?"
    lead = description_lead(question, sources, read_for(question, sources).ranked)
    assert not isinstance(lead, str) and lead.line.text.startswith("Lift sacks from the cart")


def test_a_line_of_a_code_sample_read_as_a_sentence_is_not_quoted():
    text = ("The hopper feeds the stones slowly from above.\n\n   for sack in the cart of the day:\n"
            "       hopper.fill(sack)  # one sack at a time into the hopper\n\n"
            "The hopper lid keeps rain away from the grain.")
    hopper = page(7, "Mill reference: The hopper", text)
    [run] = quoted("How does the hopper work?", [hopper], 1_000, "The hopper feeds")
    assert run == ["The hopper feeds the stones slowly from above.",
                   "The hopper lid keeps rain away from the grain."]
