"""A read document as index passages: a PDF page's passages link to that page, a Word section's carry its heading."""

from __future__ import annotations

from satiate.tools.documents.base import DocumentText
from satiate.tools.search.fts_index import Passage, chunk_text


def page_passages(unit: str, uri: str, title: str, page: int, text: str) -> list[Passage]:
    """A page's passages, all linked to ``uri#page=N`` (the PDF open parameter: a click opens that page)."""
    chunks = chunk_text(text)
    base, url = f"{unit}#page={page}", f"{uri}#page={page}"
    if len(chunks) == 1:
        return [Passage(base, title, url, chunks[0])]
    return [Passage(f"{base}#p{n}", title, url, chunk) for n, chunk in enumerate(chunks, 1)]


def document_passages(unit: str, uri: str, document: DocumentText) -> list[Passage]:
    """Every part's passages. A section's chunks each start with its heading as a Markdown heading line, so a passage
    found alone still says which section it is from (and the heading is never read as a claim)."""
    passages: list[Passage] = []
    sections: list[str] = []
    for part in document.parts:
        if part.page is not None:
            passages.extend(page_passages(unit, uri, document.title, part.page, part.text))
            continue
        heading = f"# {part.heading}\n\n" if part.heading else ""
        sections.extend(heading + chunk for chunk in chunk_text(part.text))
    if len(sections) == 1:
        passages.append(Passage(unit, document.title, uri, sections[0]))
    else:
        passages.extend(Passage(f"{unit}#p{n}", document.title, f"{uri}#p{n}", text)
                        for n, text in enumerate(sections, 1))
    return passages
