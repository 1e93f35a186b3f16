"""The pages a question names: "what does pkg.func do?" asks about ``pkg.func``'s own page, not a neighbour's.

BM25 scores a dotted name as its separate words, so a page that repeats one of them (a class named like its module)
can beat the page of the object the question names. The built-in corpus gives every documented object a predictable id
(``stdlib:<qualified name>``, a class's methods inside its page as ``Class.method(...)``), so a named object's page
is looked up by name and put first. The lookup reads the index file through its own read-only connection.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

from satiate.tools.search.base import RawHit
from satiate.tools.text import SYNTAX_NOUN, unique

# A dotted name as code writes it ("pkg.mod.func", "str.split", "Path.exists()"), not a version or a file name
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?(?![\w.]*\w)")
# "the <name> module" / "the <name> package" names a module ("the glenmoor module")
_MODULE = re.compile(r"\bthe\s+`?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)`?\s+(?:module|package)\b", re.IGNORECASE)
# File names and suffixes written like dotted names ("config.json", "setup.py"): not objects
_FILE_SUFFIXES = frozenset({"py", "txt", "json", "csv", "cfg", "ini", "toml", "yaml", "yml", "md", "html", "xml",
                            "zip", "gz", "tar", "log", "exe", "com", "org", "net", "io"})
PREFIX = "stdlib:"
# A special method as code names it ("__close__"): its entry ("object.__close__(self)") sits inside a page about many
_SPECIAL = re.compile(r"(?<!\w)(__[a-z][a-z0-9_]*__)(?!\w)")


QUOTE_OPEN, QUOTE_CLOSE = "`\"'“‘", "`\"'”’"
# "the upon operator", "a grind expression", "the `via` test": X before a syntax noun
_NAMED = re.compile(rf"\b(?:the|an?)\s+[{QUOTE_OPEN}]?([A-Za-z_]\w*)[{QUOTE_CLOSE}]?\s+{SYNTAX_NOUN}\b", re.IGNORECASE)
# "what does `grind` do?", 'what does "upon" test?': one word written as code
_QUOTED = re.compile(rf"(?<!\w)[{QUOTE_OPEN}]([A-Za-z_]\w*)[{QUOTE_CLOSE}](?!\w)")


def named_keywords(question: str) -> list[str]:
    """The words the question names as keywords ("the upon operator", "`via`"), in order, each once (lower case).
    Many keywords are also function words that a search drops, so the keyword's own page is looked up by title."""
    found = [(m.start(), m.group(1).lower()) for m in _NAMED.finditer(question)]
    found += [(m.start(), m.group(1).lower()) for m in _QUOTED.finditer(question)]
    return unique(word for _, word in sorted(found))


def named_objects(question: str) -> list[str]:
    """Dotted names and "the X module" names in ``question``, in order, each once."""
    names = [m.group(1) for m in _DOTTED.finditer(question) if m.group(1).rsplit(".", 1)[-1] not in _FILE_SUFFIXES]
    names += [m.group(1) for m in _MODULE.finditer(question)]
    return list(dict.fromkeys(names))


def _rows(connection: sqlite3.Connection, sql: str, parameters: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    return connection.execute(sql, parameters).fetchall()


def _own_page(connection: sqlite3.Connection, name: str) -> list[tuple[str, str, str, str]]:
    """The first passage of the object's own document (``stdlib:name``, or its first chunk)."""
    return _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE doc_id IN (?, ?) ORDER BY id LIMIT 1",
                 (f"{PREFIX}{name}", f"{PREFIX}{name}#p1"))


def _method_passage(connection: sqlite3.Connection, name: str) -> list[tuple[str, str, str, str]]:
    """The passage that documents ``owner.member`` when it has no page of its own: a method inside its class's page
    (``str.split`` in ``str``'s), else a module-level alias of a method of a class in that module (a module function
    bound to a hidden instance documents itself as ``Class.member``)."""
    owner, member = name.rsplit(".", 1)
    short_owner = owner.rsplit(".", 1)[-1]
    found = _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE (doc_id = ? OR doc_id LIKE ?) "
                  "AND instr(text, ?) > 0 ORDER BY id LIMIT 1",
                  (f"{PREFIX}{owner}", f"{PREFIX}{owner}#p%", f"{short_owner}.{member}("))
    if found:
        return found
    return _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE doc_id LIKE ? AND doc_id NOT LIKE ? "
                 "AND instr(text, ?) > 0 ORDER BY length(doc_id), id LIMIT 1",
                 (f"{PREFIX}{owner}.%", f"{PREFIX}{owner}.%.%", f".{member}("))


def _special_entry(connection: sqlite3.Connection, name: str) -> list[tuple[str, str, str, str]]:
    """The passage holding a special method's own entry ("object.__close__(self)" at a line's start), and the passage
    after it when the entry ends its passage (its description then opens the next one)."""
    found = _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE instr(text, ?) > 0 ORDER BY id",
                  (f"object.{name}(",))
    for doc_id, title, url, text in found:
        entry = re.search(rf"(?m)^[ \t]*object\.{re.escape(name)}\(.*$", text)
        if entry is None:
            continue
        rows = [(doc_id, title, url, text)]
        chunk = re.search(r"#p(\d+)$", doc_id)
        if chunk and not text[entry.end():].strip():
            rows += _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE doc_id = ?",
                          (f"{doc_id[:chunk.start()]}#p{int(chunk.group(1)) + 1}",))
        return rows
    return []


def _keyword_page(connection: sqlite3.Connection, keyword: str) -> list[tuple[str, str, str, str]]:
    """The first passage of the reference page whose title quotes the keyword ('The "grind" statement'); of several,
    the shortest title (the page about the keyword, not a section that mentions it)."""
    return _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE title LIKE ? ORDER BY length(title), "
                 "id LIMIT 1", (f'%"{keyword}"%',))


def _from_member(body: str, name: str) -> str:
    """A class page's passage cut to start at the member's own entry, so its first sentence is the member's."""
    member = name.rsplit(".", 1)[-1]
    match = re.search(rf"(?m)^\w+\.{re.escape(member)}\(", body)
    return body[match.start():] if match else body


def named_pages(index_path: Path, question: str) -> list[RawHit]:
    """The entry of each special method ``question`` names, then the own page of each object it names, in the order
    named, then the page of each keyword it names; names with no page are skipped."""
    names = named_objects(question)
    special = list(dict.fromkeys(_SPECIAL.findall(question)))
    keywords = named_keywords(question)
    if not (names or special or keywords) or not index_path.is_file():
        return []
    hits: list[RawHit] = []
    with closing(sqlite3.connect(f"file:{index_path}?mode=ro", uri=True, timeout=30)) as connection:
        for name in special:
            hits += [RawHit(doc_id=doc_id, title=title, url=url, body=text)
                     for doc_id, title, url, text in _special_entry(connection, name)]
        for name in names:
            rows = _own_page(connection, name)
            method = not rows and "." in name
            if method:
                rows = _method_passage(connection, name)
            for doc_id, title, url, text in rows:
                hits.append(RawHit(doc_id=doc_id, title=title, url=url,
                                   body=_from_member(text, name) if method else text))
        for keyword in keywords:
            hits += [RawHit(doc_id=doc_id, title=title, url=url, body=text)
                     for doc_id, title, url, text in _keyword_page(connection, keyword)]
    return hits
