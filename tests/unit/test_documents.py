"""PDF and Word files read as a person reads them: paragraphs whole, pages and headings kept, bad files refused in
words a person can act on."""

from __future__ import annotations

import pytest

from satiate.tools.documents.base import DocumentLimits, UnreadableDocument
from satiate.tools.documents.passages import document_passages
from satiate.tools.documents.pdf_layout import is_page_number, page_paragraphs, pages_as_paragraphs
from satiate.tools.documents.plain import markdown_sections, plain_title
from satiate.tools.documents.reading import read_document
from satiate.tools.documents.tables import markdown_tables
from satiate.tools.text import sentences
from support.document_files import (
    write_damaged_pdf,
    write_docx,
    write_encrypted_pdf,
    write_pdf,
    write_pdf_with_damaged_page,
)

HEADER = "Larkspur Parish Council - Minutes of the Spring Meeting"
PAGE_ONE = [HEADER, "The committee met in the village hall on a wet Tuesday",
            "evening to discuss the roof and the parish-",
            "ioners who had written to the clerk about it.", "1"]
PAGE_TWO = [HEADER, "The treasurer, Odile Ferncastle, reported that the roof",
            "repairs of the village hall would cost four",
            "thousand two hundred crowns in total.", "2"]


def test_wrapped_lines_join_and_a_hyphen_before_a_lowercase_letter_is_undone():
    lines = ["The mill on the Fernhollow brook was rebuilt by the Larkspur-",
             "Upton guild after the great flood of the wet and the windy",
             "spring of that same year, and all the grateful parish-", "ioners paid for it."]
    assert page_paragraphs(lines) == [
        "The mill on the Fernhollow brook was rebuilt by the Larkspur-Upton guild after the great flood of the wet "
        "and the windy spring of that same year, and all the grateful parishioners paid for it."]


def test_a_short_line_ends_its_paragraph_and_list_items_stay_apart():
    lines = ["Agenda", "The clerk read out the items that the committee had set",
             "for the evening, one by one.", "- the roof of the hall", "- the mill wheel"]
    assert page_paragraphs(lines) == [
        "Agenda", "The clerk read out the items that the committee had set for the evening, one by one.",
        "- the roof of the hall", "- the mill wheel"]


def test_running_headers_and_page_numbers_are_dropped_and_pages_kept_apart():
    said = ["The clerk opened the meeting.", "The bells were discussed at length.", "The treasurer closed it."]
    pages = [[HEADER, line, f"Page {n} of 3"] for n, line in enumerate(said, 1)]
    assert pages_as_paragraphs(pages) == [[line] for line in said]
    assert all(is_page_number(line) for line in ["12", "- 12 -", "Page 12", "12 of 40", "xii"])
    assert not is_page_number("12 crowns")


def test_a_two_page_pdf_keeps_its_pages_title_and_whole_sentences(tmp_path):
    path = write_pdf(tmp_path / "minutes.pdf", [PAGE_ONE, PAGE_TWO], title="Larkspur spring minutes")
    document = read_document(path, DocumentLimits())
    assert document.title == "Larkspur spring minutes"
    assert [part.page for part in document.parts] == [1, 2]
    assert document.parts[0].text == ("The committee met in the village hall on a wet Tuesday evening to discuss the "
                                      "roof and the parishioners who had written to the clerk about it.")
    assert "would cost four thousand two hundred crowns" in document.parts[1].text
    assert HEADER not in document.parts[1].text
    passages = document_passages("minutes.pdf", path.resolve().as_uri(), document)
    assert [passage.url.rsplit("#", 1)[1] for passage in passages] == ["page=1", "page=2"]


def test_a_producer_placeholder_title_gives_way_to_the_first_heading_line(tmp_path):
    path = write_pdf(tmp_path / "report.pdf", [["Fernhollow Mill Annual Report",
                                                "The mill ground four hundred sacks of rye."]],
                     title="Microsoft Word - report.docx")
    assert read_document(path, DocumentLimits()).title == "Fernhollow Mill Annual Report"


def test_the_page_cap_reads_the_first_pages_and_says_so(tmp_path):
    path = write_pdf(tmp_path / "long.pdf", [[f"The record of day {n} at the mill."] for n in range(1, 6)])
    document = read_document(path, DocumentLimits(max_pages=2))
    assert [part.page for part in document.parts] == [1, 2]
    assert document.note == "read the first 2 of 5 pages (document_max_pages)"


@pytest.mark.parametrize(
    ("write", "reason"),
    [
        (lambda path: write_pdf(path, [[], []]), "no text layer; OCR is not supported"),
        (write_damaged_pdf, "damaged PDF"),
        (lambda path: path.write_bytes(b""), "empty file (0 bytes)"),
        (lambda path: write_encrypted_pdf(path, [["A locked page."]], user_password="sesame"),
         "encrypted with a password"),
        (lambda path: path.write_bytes(b"x" * 3000), "too big to read"),
    ],
    ids=["scanned", "damaged", "empty", "encrypted", "too-big"],
)
def test_a_pdf_without_readable_text_is_refused_with_its_reason(tmp_path, write, reason):
    path = tmp_path / "bad.pdf"
    write(path)
    with pytest.raises(UnreadableDocument, match=reason.replace("(", r"\(").replace(")", r"\)")):
        read_document(path, DocumentLimits(max_bytes=2000))


def test_a_damaged_page_is_noted_and_the_other_pages_are_read(tmp_path):
    path = write_pdf_with_damaged_page(tmp_path / "torn.pdf", [["The ferry ran at dawn."], ["Lost words."],
                                                                ["The ferry ran at dusk."]], damaged=2)
    document = read_document(path, DocumentLimits())
    assert [part.page for part in document.parts] == [1, 3]
    assert document.note == "1 damaged page not read (2)"


def test_a_pdf_locked_only_against_copying_is_read(tmp_path):
    path = write_encrypted_pdf(tmp_path / "locked.pdf", [["The mill wheel was painted green in the spring."]])
    assert read_document(path, DocumentLimits()).parts[0].text == "The mill wheel was painted green in the spring."


def test_a_word_file_keeps_order_headings_and_table_rows(tmp_path):
    path = write_docx(tmp_path / "mill.docx", [
        ("Title", "Fernhollow Mill Report"),
        ("Normal", "Written for the parish by the clerk."),
        ("Heading 1", "Millers"),
        ("Normal", "Bastian Quell ran the mill from 1871."),
        ("Heading 2", "Apprentices"),
        ("Normal", "Two apprentices learned the trade under him."),
        ("Heading 1", "Costs"),
        ("table", [["Item", "Cost"], ["Wheel", "9 florins"], ["Roof", "4 florins"]]),
    ])
    document = read_document(path, DocumentLimits())
    assert document.title == "Fernhollow Mill Report"
    assert [(part.heading, part.text) for part in document.parts] == [
        ("", "Written for the parish by the clerk."),
        ("Millers", "Bastian Quell ran the mill from 1871."),
        ("Millers › Apprentices", "Two apprentices learned the trade under him."),
        ("Costs", "Item: Wheel; Cost: 9 florins.\n\nItem: Roof; Cost: 4 florins."),
    ]
    passages = document_passages("mill.docx", path.resolve().as_uri(), document)
    assert passages[1].text.startswith("# Millers\n\n")


def test_a_word_file_without_a_title_style_takes_its_first_heading(tmp_path):
    path = write_docx(tmp_path / "notes.docx", [("Heading 1", "Harvest Notes"), ("Normal", "The rye came in late.")])
    assert read_document(path, DocumentLimits()).title == "Harvest Notes"


def test_a_damaged_word_file_is_refused(tmp_path):
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip archive")
    with pytest.raises(UnreadableDocument, match="damaged Word file"):
        read_document(path, DocumentLimits())


def test_a_plain_files_title_is_its_first_line_not_its_name():
    first_line = plain_title("\n\n  Notes on the Larkspur bells\nThey ring at noon.", "notes")
    assert first_line == "Notes on the Larkspur bells"
    assert plain_title("intro text\n# The Bell Tower\n", "notes") == "The Bell Tower"
    assert plain_title("====\n\n", "notes") == "notes"
    assert len(plain_title("word " * 100, "notes")) <= 121


def test_a_markdown_table_reads_as_one_labelled_sentence_per_row():
    notes = ("# Ferries\n\nThe boats we kept.\n\n| # | Boat | Crossing | Built |\n|:--|---|---|--:|\n"
             "| 1 | Merrow Lass | Tarrin to Ossel | 1931 |\n| 2 | Slate Gull | — | 1948 |\n"
             "| 3 | Tern \\| II | Ossel to Fenner |  |\n\nBoth were sold in 1960.\n")
    text = markdown_tables(notes)
    assert "Boat: Merrow Lass; Crossing: Tarrin to Ossel; Built: 1931." in text
    assert "Boat: Slate Gull; Built: 1948." in text  # a dash is no value, and the row counter has no name
    assert "Boat: Tern | II; Crossing: Ossel to Fenner." in text  # an escaped pipe stays in its cell
    assert "|" not in text.replace("Tern | II", "") and "The boats we kept." in text and "sold in 1960" in text
    assert [line.text for line in sentences(text)].count("Boat: Slate Gull; Built: 1948.") == 1


def test_pipes_without_a_header_separator_are_not_a_table():
    text = "Route: Tarrin | Ossel | Fenner\nThe ferry | the bus\n"
    assert markdown_tables(text) == text


def test_markdown_sections_are_parts_with_their_headings():
    text = ("# Harrow notes\n\nFrom the registers.\n\n## Ansel Harrow\n\nHe kept the lamp.\n\n### Letters ##\n\n"
            "Two survive.\n")
    parts = markdown_sections(text)
    assert [(part.heading, part.text) for part in parts] == [
        ("", "# Harrow notes\n\nFrom the registers."), ("Ansel Harrow", "He kept the lamp."),
        ("Letters", "Two survive.")]
    assert [part.heading for part in markdown_sections("# Only a title\n\n## Empty\n\n## Kept\n\nText.")] == ["Kept"]
