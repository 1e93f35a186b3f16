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


# "the difference between X and Y", "how does X differ from Y", "X vs Y", "compare X with Y": two things side by side
_COMPARED = (
    re.compile(r"\bdifferences?\s+between\s+(.+?)\s+and\s+(.+)", re.IGNORECASE),
    re.compile(r"^\s*(?:how|in what way)\s+(?:does|do|is|are)\s+(.+?)\s+differ\s+from\s+(.+)", re.IGNORECASE),
    re.compile(r"\bcompare\s+(.+?)\s+(?:and|with|to)\s+(.+)", re.IGNORECASE),
    re.compile(r"^\s*(?:what is\s+)?([^,]+?)\s+(?:vs\.?|versus)\s+(.+)", re.IGNORECASE),
)
# What a side may carry around its name: an article, "in Python", the question mark, a syntax noun, call brackets
_SIDE_NOISE = re.compile(rf"^(?:the|an?)\s+|\s+in\s+python\b.*$|[?.!]+$|\s+{SYNTAX_NOUN}$|\(\)$", re.IGNORECASE)
_SIDE_NAME = re.compile(r"[A-Za-z_][\w.]*")


def compared_names(question: str) -> tuple[str, str] | None:
    """The two names a comparison question sets side by side ("the difference between a sack and a bale" ->
    ("sack", "bale")), or None when it is no comparison or a side is no single name (an operator symbol, a phrase).

    A noun after the second side belongs to both ("the grind and upon statements", "raw and baked bricks"); two
    sides that end in the same noun name kinds of it, which code writes joined ("a static method and a class
    method" -> ("staticmethod", "classmethod")).
    """
    for pattern in _COMPARED:
        match = pattern.search(question.strip())
        if match is None:
            continue
        sides = [_bare_side(side).split() for side in match.groups()]
        if len(sides[0]) == 1 and len(sides[1]) == 2:
            sides[1] = sides[1][:1]
        elif len(sides[0]) == len(sides[1]) == 2 and sides[0][1].lower() == sides[1][1].lower():
            sides = [["".join(side)] for side in sides]
        names = [side[0] if len(side) == 1 and _SIDE_NAME.fullmatch(side[0]) else "" for side in sides]
        if all(names) and names[0].lower() != names[1].lower():
            return names[0], names[1]
        return None
    return None


def _bare_side(side: str) -> str:
    """A side without its article, quotes, call brackets, syntax noun, "in Python" or question mark."""
    side = side.strip().strip(QUOTE_OPEN + QUOTE_CLOSE)
    while (plain := _SIDE_NOISE.sub("", side).strip().strip(QUOTE_OPEN + QUOTE_CLOSE)) != side:
        side = plain
    return side


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


def _side_page(connection: sqlite3.Connection, name: str) -> list[tuple[str, str, str, str]]:
    """The page of one side of a comparison: its special method entry, its own page, a method's passage, the member
    of that name with the shortest qualified name ("deepcopy" -> ``copy.deepcopy``; a module's page is no member: a
    plain word like "thread" would find one), or the keyword's page."""
    if _SPECIAL.fullmatch(name):
        return _special_entry(connection, name)
    found = _own_page(connection, name) or ("." in name and _method_passage(connection, name))
    if not found and "." not in name:
        found = _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE (doc_id GLOB ? OR "
                      "doc_id GLOB ?) AND title NOT LIKE '% module%' ORDER BY length(doc_id), id LIMIT 1",
                      (f"{PREFIX}*.{name}", f"{PREFIX}*.{name}#p1"))
    return found or _keyword_page(connection, name)


def _both_page(connection: sqlite3.Connection, first: str, second: str) -> list[tuple[str, str, str, str]]:
    """The first passage of the page whose title quotes both sides ('Bread types — "loaf", "bun"'): the page that
    sets them side by side."""
    return _rows(connection, "SELECT doc_id, title, url, text FROM passages WHERE title LIKE ? AND title LIKE ? "
                 "ORDER BY length(title), id LIMIT 1", (f'%"{first}"%', f'%"{second}"%'))


def _from_member(body: str, name: str) -> str:
    """A class page's passage cut to start at the member's own entry, so its first sentence is the member's."""
    member = name.rsplit(".", 1)[-1]
    match = re.search(rf"(?m)^\w+\.{re.escape(member)}\(", body)
    return body[match.start():] if match else body


def named_pages(index_path: Path, question: str) -> list[RawHit]:
    """For a comparison, each side's page and the page that quotes both; then the entry of each special method
    ``question`` names, the own page of each object it names, in the order named, and the page of each keyword it
    names; names with no page are skipped."""
    names = named_objects(question)
    special = list(dict.fromkeys(_SPECIAL.findall(question)))
    keywords = named_keywords(question)
    compared = compared_names(question)
    if not (names or special or keywords or compared) or not index_path.is_file():
        return []
    hits: list[RawHit] = []
    with closing(sqlite3.connect(f"file:{index_path}?mode=ro", uri=True, timeout=30)) as connection:
        if compared:
            rows = [*_side_page(connection, compared[0]), *_side_page(connection, compared[1]),
                    *_both_page(connection, *compared)]
            hits += [RawHit(doc_id=doc_id, title=title, url=url, body=text) for doc_id, title, url, text in rows]
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
