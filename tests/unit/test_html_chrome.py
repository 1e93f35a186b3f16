"""Page chrome (menus, cookie banners, breadcrumbs, footers) and hidden text never reach a page's main text."""

from __future__ import annotations

from bench.web_standin import CHROME_MARKERS, page_html
from satiate.tools.fetch import extract_page
from satiate.tools.html_text import drop_chrome

SHORT = "Tansy Bridge is a stone footbridge over the river Tansy, built by the parish of Cardle Green in 1806."


def test_a_short_article_keeps_its_text_and_loses_every_piece_of_chrome_and_hidden_text():
    extraction = extract_page(page_html("Tansy Bridge", SHORT), "text/html")
    assert SHORT in extraction.text
    leaked = [marker for marker in CHROME_MARKERS if marker.lower() in extraction.text.lower()]
    assert leaked == []


def test_a_header_inside_the_article_is_content_but_the_page_header_is_chrome():
    page = ("<html><body><header><a href='/'>Site logo text</a></header><article><header><h1>Cardle Green "
            "parish</h1></header><p>Body of the article.</p></article><div class='cookie-notice'>Accept cookies"
            "</div><a href='#main'>Skip to content</a><div class='share-price'>Share price 12.5</div></body></html>")
    cleaned = drop_chrome(page)
    assert "Cardle Green parish" in cleaned and "Body of the article." in cleaned
    assert "Site logo text" not in cleaned and "Accept cookies" not in cleaned and "Skip to content" not in cleaned
    assert "Share price 12.5" in cleaned  # a class that merely contains a chrome-like word is not chrome


def test_a_page_without_chrome_is_returned_as_it_was():
    page = "<html><body><p>Nothing around it.</p></body></html>"
    assert drop_chrome(page) == page
