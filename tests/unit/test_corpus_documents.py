"""A corpus folder of PDFs and Word files: passages cite their page, bad files are named once and skipped, and a
second index re-reads only what changed."""

from __future__ import annotations

import os

import pytest

from satiate.tools.documents.base import DocumentLimits
from satiate.tools.search.local_corpus import CorpusError, LocalCorpusBackend
from support.document_files import write_damaged_pdf, write_docx, write_pdf

PAGE_ONE = ["Larkspur Parish Council - Minutes", "The committee met in the village hall on a wet Tuesday",
            "evening to discuss the state of the roof of the old hall.", "1"]
PAGE_TWO = ["Larkspur Parish Council - Minutes", "The treasurer, Odile Ferncastle, reported that the roof",
            "repairs would cost four thousand two hundred crowns.", "2"]


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "papers"
    root.mkdir()
    write_pdf(root / "minutes.pdf", [PAGE_ONE, PAGE_TWO])
    write_docx(root / "mill.docx", [("Title", "Fernhollow Mill Report"), ("Heading 1", "Millers"),
                                    ("Normal", "Bastian Quell ran the Fernhollow mill from 1871.")])
    write_pdf(root / "scan.pdf", [[]])
    write_damaged_pdf(root / "broken.pdf")
    (root / "bells.txt").write_text("Notes on the Larkspur bells\n\nThe bells ring at noon.\n", encoding="utf-8")
    return root


def test_a_pdf_passage_carries_its_page_and_links_to_it(folder, isolated_data_dir):
    backend = LocalCorpusBackend(folder, isolated_data_dir)
    hit = backend.search("treasurer roof repairs crowns", 3)[0]
    assert hit.page == 2
    assert hit.url == (folder / "minutes.pdf").resolve().as_uri() + "#page=2"
    assert "Ferncastle, reported that the roof repairs would cost" in hit.body
    word = backend.search("Bastian Quell miller", 3)[0]
    assert word.title == "Fernhollow Mill Report" and word.page is None and "# Millers" in word.body
    assert backend.search("bells ring noon", 3)[0].title == "Notes on the Larkspur bells"


def test_bad_files_are_named_once_each_and_again_when_the_index_is_reused(folder, isolated_data_dir):
    first = LocalCorpusBackend(folder, isolated_data_dir)
    assert len(first.notices) == 2
    assert first.notices[0].startswith("broken.pdf: damaged PDF")
    assert first.notices[1].startswith("scan.pdf: no text layer; OCR is not supported")
    first.close()
    second = LocalCorpusBackend(folder, isolated_data_dir)
    assert second.reindexed == 0 and second.notices == first.notices


def test_a_second_index_rereads_only_the_changed_file(folder, isolated_data_dir):
    LocalCorpusBackend(folder, isolated_data_dir).close()
    changed = folder / "minutes.pdf"
    write_pdf(changed, [PAGE_ONE, ["The treasurer said the repairs of the roof would cost five thousand crowns."]])
    stat = changed.stat()
    os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    again = LocalCorpusBackend(folder, isolated_data_dir)
    assert again.reindexed == 1
    assert "five thousand crowns" in again.search("treasurer repairs five thousand", 1)[0].body


def test_raising_the_page_cap_rereads_the_documents_it_cut(folder, isolated_data_dir):
    capped = LocalCorpusBackend(folder, isolated_data_dir, limits=DocumentLimits(max_pages=1))
    assert "minutes.pdf: read the first 1 of 2 pages (document_max_pages)" in capped.notices
    assert all(hit.page != 2 for hit in capped.search("treasurer roof repairs crowns", 5))
    capped.close()
    uncapped = LocalCorpusBackend(folder, isolated_data_dir)
    assert uncapped.reindexed >= 1 and uncapped.search("treasurer roof repairs crowns", 1)[0].page == 2


def test_a_folder_of_only_bad_documents_is_one_clear_error_naming_them(tmp_path, isolated_data_dir):
    write_pdf(tmp_path / "scan.pdf", [[]])
    with pytest.raises(CorpusError, match=r"corpus has no readable text .*scan\.pdf: no text layer"):
        LocalCorpusBackend(tmp_path, isolated_data_dir)


def test_a_document_format_that_is_not_read_is_named_with_what_to_do(folder, isolated_data_dir):
    (folder / "budget.xlsx").write_bytes(b"PK\x03\x04 a spreadsheet")
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    notices = LocalCorpusBackend(folder, isolated_data_dir).notices
    assert "budget.xlsx: format not read (a spreadsheet: save it as PDF or .csv text); skipped" in notices
    assert not any("photo.jpg" in notice for notice in notices)
