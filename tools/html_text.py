"""The text a reader of an HTML page actually sees: hidden elements dropped, then the visible text; and the page
without its chrome (menus, cookie banners, breadcrumbs, footers) for the main-text extractor (``drop_chrome``).

A page can carry text no browser shows (``display:none``, ``visibility:hidden``, ``font-size:0``, the ``hidden``
attribute, ``aria-hidden="true"``, ``<template>``, ``<noscript>``, a closed ``<dialog>``). Such text is where a page
hides instructions meant for a model, so it is removed before any extractor sees the page: web pages
(``tools.fetch``) and local HTML corpus files (``tools.search.local_corpus``) go through the same ``drop_hidden``.

Only inline markup is judged: a rule in a style sheet (``.x {display:none}``) would need a CSS engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html.parser import HTMLParser

import lxml.etree
import lxml.html

NEVER_RENDERED_TAGS = frozenset({"template", "noscript"})
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # not HTML text; lxml refuses strings with them
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")  # lxml refuses a str that declares its own encoding
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.DOTALL)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)
_ZERO_LENGTH = re.compile(r"[+-]?(0+\.?0*|\.0+)(px|em|rem|ex|ch|pt|pc|cm|mm|in|q|vw|vh|vmin|vmax|%)?")


def _css_unescape(text: str) -> str:
    """CSS escapes decoded (``d\\isplay`` is ``display`` to a browser, so it must be to us)."""

    def replace(match: re.Match[str]) -> str:
        if match.group(1):
            code = int(match.group(1), 16)
            return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"
        return match.group(2)

    return _CSS_ESCAPE.sub(replace, text)


def style_hides(style: str) -> str | None:
    """The declaration of an inline ``style`` that hides its element (``"display:none"``), or None."""
    style = _css_unescape(_CSS_COMMENT.sub("", style)).lower()
    for declaration in style.split(";"):
        name, colon, value = declaration.partition(":")
        if not colon:
            continue
        name = name.strip()
        value = re.sub(r"!\s*important", "", value).strip()
        if name == "display" and value == "none":
            return "display:none"
        if name == "visibility" and value in ("hidden", "collapse"):
            return f"visibility:{value}"
        if name == "font-size" and _ZERO_LENGTH.fullmatch(value):
            return "font-size:0"
    return None


def hidden_reason(tag: str, attributes: Mapping[str, str]) -> str | None:
    """Why an element with this tag and these attributes is not shown to a reader, or None when it is shown."""
    tag = tag.lower()
    if tag in NEVER_RENDERED_TAGS:
        return f"<{tag}>"
    if tag == "dialog" and "open" not in attributes:
        return "a closed <dialog>"
    if "hidden" in attributes:
        return "the hidden attribute"
    if (attributes.get("aria-hidden") or "").strip().lower() == "true":
        return 'aria-hidden="true"'
    return style_hides(attributes.get("style") or "")


def drop_hidden(html: str) -> str:
    """The page with every hidden element (and all it contains) removed; the page itself when nothing is hidden.

    Parsed with lxml, the parser trafilatura uses, so both agree on where a hidden element ends.
    """
    cleaned = _XML_DECLARATION.sub("", _CONTROL_CHARACTERS.sub("", html), count=1)
    try:
        root = lxml.html.document_fromstring(cleaned)
    except (lxml.etree.ParserError, ValueError):  # no element at all ("Document is empty"): nothing visible
        return ""
    hidden = [element for element in root.iter()
              if isinstance(element.tag, str) and hidden_reason(element.tag, element.attrib)]
    if not hidden:
        return html
    if hidden[0] is root:
        return ""
    for element in hidden:
        if element.getparent() is not None:  # already gone when an ancestor was dropped first (document order)
            element.drop_tree()
    return lxml.html.tostring(root, encoding="unicode", method="html")


# Page chrome: what a site puts around every article (menus, banners, footers), never the article itself.
CHROME_TAGS = frozenset({"nav", "footer", "aside"})
CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
CONTENT_TAGS = frozenset({"article", "main"})
_CHROME_NAME = re.compile(r"(^|[-_\s])(cookies?|consent|gdpr|breadcrumbs?|skip-?links?|skip-?to-?content)([-_\s]|$)",
                          re.IGNORECASE)
_SKIP_LINK = re.compile(r"^\s*skip\b", re.IGNORECASE)


def chrome_reason(element: lxml.html.HtmlElement) -> str | None:
    """Why an element is page chrome rather than content, or None.

    A landmark tag or role (``<nav>``, ``<footer>``, ``<aside>``, a page-level ``<header>``, ``role="navigation"``),
    a cookie or consent banner or a breadcrumb trail (named so in its class or id), or a "Skip to content" link. A
    ``<header>`` inside an article is the article's own heading, so it stays.
    """
    tag = element.tag.lower() if isinstance(element.tag, str) else ""
    if tag in CHROME_TAGS:
        return f"<{tag}>"
    if tag == "header" and not any(a.tag in CONTENT_TAGS for a in element.iterancestors() if isinstance(a.tag, str)):
        return "a page-level <header>"
    role = (element.get("role") or "").strip().lower()
    if role in CHROME_ROLES:
        return f'role="{role}"'
    names = f"{element.get('class') or ''} {element.get('id') or ''} {element.get('aria-label') or ''}"
    if tag not in ("html", "body", "main", "article") and _CHROME_NAME.search(names):
        return "a cookie banner or breadcrumb trail"
    if tag == "a" and (element.get("href") or "").startswith("#") and _SKIP_LINK.match(element.text_content()):
        return "a skip link"
    return None


def drop_chrome(html: str) -> str:
    """The page without its chrome (see ``chrome_reason``), for the main-text extractor: on a short article an
    extractor tuned for recall keeps menus and banners as text. The page itself when it has no chrome."""
    cleaned = _XML_DECLARATION.sub("", _CONTROL_CHARACTERS.sub("", html), count=1)
    try:
        root = lxml.html.document_fromstring(cleaned)
    except (lxml.etree.ParserError, ValueError):
        return html
    chrome = [element for element in root.iter() if isinstance(element.tag, str) and chrome_reason(element)]
    if not chrome:
        return html
    for element in chrome:
        if element.getparent() is not None:
            element.drop_tree()
    return lxml.html.tostring(root, encoding="unicode", method="html")


class _TextExtractor(HTMLParser):
    """Visible text of an HTML document (scripts and styles dropped), with paragraph breaks at block elements."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in {"script", "style", "noscript", "template"}:
            self._skip += 1
        if tag == "title":
            self._in_title = True
        if tag in {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "section", "article", "tr"}:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style", "noscript", "template"} and self._skip:
            self._skip -= 1
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, text) of an HTML document with the stdlib parser; hidden elements are *not* dropped here."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    text = re.sub(r"[ \t]+", " ", "".join(extractor.parts))
    text = re.sub(r"\n\s*\n\s*", "\n\n", text).strip()
    return extractor.title.strip(), text


def visible_text(html: str) -> tuple[str, str]:
    """(title, text) a reader sees: ``drop_hidden`` then the stdlib extractor."""
    return html_to_text(drop_hidden(html))
