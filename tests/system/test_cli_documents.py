"""`satiate run --corpus DIR` over a folder of PDFs and Word files: answers cite the file (and a PDF's page), and
unreadable files are named once each without stopping the run."""

from __future__ import annotations

import json

import pytest

from support.document_files import write_damaged_pdf, write_docx, write_pdf
from support.graph_support import run_cli

HEADER = "Larkspur Parish Council - Minutes of the Spring Meeting"


@pytest.fixture
def papers(tmp_path):
    root = tmp_path / "papers"
    root.mkdir()
    write_pdf(root / "minutes.pdf", [
        [HEADER, "The committee met in the village hall on a wet Tuesday", "evening to hear the parishioners about the",
         "state of the bell tower and the flooded lane.", "1"],
        [HEADER, "The treasurer, Odile Ferncastle, reported that the roof",
         "repairs of the Larkspur village hall would",
         "cost four thousand two hundred crowns in total.", "2"],
    ])
    write_docx(root / "mill.docx", [
        ("Title", "Fernhollow Mill Report"), ("Heading 1", "Millers"),
        ("Normal", "The Fernhollow mill was run by the miller Bastian Quell from 1871."),
    ])
    write_damaged_pdf(root / "broken.pdf")
    write_pdf(root / "scan.pdf", [[]])
    return root


def run_json(capsys, question, papers):
    code, out, err = run_cli(capsys, "run", question, "--corpus", str(papers), "--offline", "--llm", "none", "--json")
    assert code == 0, err
    return json.loads(out), err


def cited(result):
    return [source for source in result["sources"] if source["n"] is not None]


def test_a_pdf_answer_cites_its_page_and_bad_files_are_named_once(capsys, papers):
    result, err = run_json(capsys, "How much would the Larkspur village hall roof repairs cost?", papers)
    assert "four thousand two hundred crowns" in result["answer"]
    page_two = [source for source in cited(result) if source["page"] == 2]
    assert page_two and page_two[0]["url"] == (papers / "minutes.pdf").resolve().as_uri() + "#page=2"
    assert err.count("broken.pdf: damaged PDF") == 1
    assert err.count("scan.pdf: no text layer; OCR is not supported") == 1

    code, report, _ = run_cli(capsys, "show", result["thread_id"])
    assert code == 0 and ", p. 2 — local: file://" in report


def test_a_word_answer_cites_the_word_file(capsys, papers):
    result, _ = run_json(capsys, "Who ran the Fernhollow mill?", papers)
    assert "Bastian Quell" in result["answer"]
    assert [source["url"] for source in cited(result)] == [(papers / "mill.docx").resolve().as_uri()]
    assert cited(result)[0]["title"] == "Fernhollow Mill Report"
