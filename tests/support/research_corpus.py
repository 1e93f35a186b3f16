"""A small hand-written corpus with a two-hop question, a planted contradiction and a planted counter-argument.

Fictional facts, so no test can pass on outside knowledge: the Lumen kettle is made by Harbor Works (hop 1), and
Harbor Works was founded by Ada Pell (hop 2, only reachable by following the breadcrumb "Harbor Works").
"""

from __future__ import annotations

import json
from pathlib import Path

QUESTION = "Who founded the company that makes the Lumen kettle?"

PASSAGES = [
    {"doc_id": "lumen", "title": "Lumen kettle",
     "text": "The Lumen kettle is a stainless steel electric kettle designed in 2015. The Lumen kettle is made by "
             "Harbor Works, a small appliance maker based in Bristol. It boils one litre of water in about three "
             "minutes."},
    {"doc_id": "harbor", "title": "Harbor Works",
     "text": "Harbor Works was founded in 1987 by the engineer Ada Pell in Bristol. The firm began by repairing ship "
             "pumps and moved into kitchen appliances in the 1990s."},
    {"doc_id": "harbor-press", "title": "Harbor Works history (press)",
     "text": "A press profile claims Harbor Works was founded in 1991 by Ada Pell after she left the navy yard. "
             "The profile gives no source for the year."},
    {"doc_id": "kettle-review", "title": "Kettle reviews",
     "text": "Reviewers praised the Lumen kettle for its quiet boil. However, critics noted the Lumen kettle is not "
             "as energy efficient as cheaper plastic kettles, a limitation the maker disputes."},
    {"doc_id": "pell-bio", "title": "Ada Pell",
     "text": "Ada Pell is a British engineer and businesswoman. She trained at the Bristol naval yard before starting "
             "her own company in the late 1980s."},
    {"doc_id": "toaster", "title": "Crumb toaster",
     "text": "The Crumb toaster is a two-slice toaster sold in supermarkets. It has a removable crumb tray and six "
             "browning levels."},
    {"doc_id": "tea", "title": "Tea brewing",
     "text": "Black tea is usually brewed with water just off the boil for three to five minutes. Green tea prefers "
             "cooler water around eighty degrees."},
    {"doc_id": "bristol", "title": "Bristol",
     "text": "Bristol is a city in south west England with a long maritime history. Its harbour was once one of the "
             "busiest ports in Britain."},
]


# Two passages on one topic, long enough to count as sources: the corpus behind the web-down fallback tests.
GENERATOR_PASSAGES = [
    {"doc_id": "gen", "title": "Generators", "text": "Python generators yield items one at a time, so they save "
     "memory compared with building a full list. " * 4},
    {"doc_id": "iter", "title": "Iterators", "text": "An iterator returns successive items; generators are the "
     "simplest way to write one and they keep memory use low. " * 4},
]


def write_benchmark_data(folder: Path) -> Path:
    """The corpus and its question in the layout the benchmarks read (``--data``): corpus.jsonl and
    questions.jsonl in ``folder``, which is returned."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(p) for p in PASSAGES) + "\n", encoding="utf-8")
    (folder / "questions.jsonl").write_text(json.dumps({
        "qid": "kettle", "dataset": "handmade", "type": "bridge", "question": QUESTION, "answers": ["Ada Pell"],
        "gold_doc_ids": ["lumen", "harbor"]}) + "\n", encoding="utf-8")
    return folder
