"""``bench.multihop --web`` on a tiny invented data folder: the web row runs through the loopback stand-in, its pages
are scored as the corpus' doc ids, and the pages it fetched and skipped are reported beside the local row. It asserts
no timing and no recall level (numbers belong to bench/)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.multihop import main
from bench.web_mode import WEB, as_doc_ids, chrome_leaks, doc_id_of, half

PASSAGES = [
    ("mill", "Harrowgate Mill", "Harrowgate Mill is a restored watermill on the river Tansy in the invented county of "
     "Brackenshire. It was built in 1781 by the millwright Oswin Pell, who also designed its sluice gates."),
    ("pell", "Oswin Pell", "Oswin Pell was a millwright born in the village of Cardle Green in 1742. He learned the "
     "trade from his uncle and built four mills along the river Tansy, of which only one still stands."),
    ("kettle", "Lumen kettle", "The Lumen kettle is a stovetop kettle made by Harbor Works, a small appliance maker "
     "in the invented port of Saltmere, with a whistle tuned to a low note."),
]
QUESTIONS = [{"qid": "inv-1", "dataset": "invented", "type": "bridge", "question": "Where was the millwright who "
              "built Harrowgate Mill born?", "answers": ["Cardle Green"], "gold_doc_ids": ["mill", "pell"]}]


def test_the_web_row_is_scored_on_doc_ids_and_reports_its_pages_beside_the_local_row(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "corpus.jsonl").write_text("".join(json.dumps({"doc_id": d, "title": t, "text": x}) + "\n"
                                               for d, t, x in PASSAGES), encoding="utf-8")
    (data / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    out = tmp_path / "out"
    code = main(["--data", str(data), "--web", "--seeds", "1", "--jobs", "1", "--curve-k", "3", "--out", str(out),
                 "--data-dir", str(tmp_path / "satiate-data")])
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [c["name"] for c in summary["configurations"]] == ["satiate", WEB]
    runs = {r["config"]: r for r in map(json.loads, (out / "runs.jsonl").read_text().splitlines())}
    web = runs[WEB]
    assert web["read"] and set(web["read"]) <= {d for d, _, _ in PASSAGES}  # pages scored as the corpus' passages
    assert web["pages"]["fetched"] >= len(web["read"]) and web["pages"]["failed"] == 0
    row = summary["web"][WEB]["all"]
    assert row["runs"] == 1 and row["pages_fetched"] == web["pages"]["fetched"] and row["recall"] is not None
    assert web["chrome_found"] == [] and row["chrome_leaks"] == 0  # no chrome or hidden text in a cited page
    assert summary["web"]["satiate"]["all"]["pages_fetched"] == 0  # the local row reads passages, fetches nothing
    table = (out / "table.md").read_text()
    assert f"| {WEB} | all | 1 |" in table and "| satiate | all | 1 |" in table


def test_page_urls_and_keys_map_back_to_doc_ids_and_other_ids_stay() -> None:
    assert doc_id_of("http://127.0.0.1:4100/page/musique%3Aab12") == "musique:ab12"
    assert doc_id_of("url:127.0.0.1:4100/page/inv%201") == "inv 1"
    assert doc_id_of("pell") == "pell"
    record = {"read": ["http://127.0.0.1:1/page/mill"], "seen": ["url:127.0.0.1:1/page/pell"], "cited": [],
              "queries": [{"hit_ids": ["http://127.0.0.1:1/page/kettle"]}]}
    mapped = as_doc_ids(record)
    assert (mapped["read"], mapped["seen"], mapped["queries"][0]["hit_ids"]) == (["mill"], ["pell"], ["kettle"])
    assert {half(q) for q in ("a", "b", "c", "d", "e", "f")} == {"tuning", "held-out"}
    # a marker the passage itself contains is no leak; one it does not contain is
    passages = {"mill": ("Harrowgate Mill", "A mill with a Sitemap of its sluices.")}
    assert chrome_leaks({"chrome_found": [["mill", "Sitemap"], ["mill", "SYSTEM NOTICE"]]}, passages) == 1
