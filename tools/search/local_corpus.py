"""Search a local corpus: a folder of .md/.txt/.html files or a JSONL file of ``{doc_id, title, text}``."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

from satiate.tools.search.base import RawHit
from satiate.tools.search.fts_index import FtsIndex, Passage, passages_of, read_jsonl

TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".rst", ".html", ".htm"}


class CorpusError(ValueError):
    """The corpus path is missing or unreadable; the message says which path and why."""


class _TextExtractor(HTMLParser):
    """Visible text of an HTML file (scripts and styles dropped); enough for local files we trust."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in {"script", "style", "noscript"}:
            self._skip += 1
        if tag == "title":
            self._in_title = True
        if tag in {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "section", "article", "tr"}:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style", "noscript"} and self._skip:
            self._skip -= 1
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    extractor = _TextExtractor()
    extractor.feed(html)
    text = re.sub(r"[ \t]+", " ", "".join(extractor.parts))
    text = re.sub(r"\n\s*\n\s*", "\n\n", text).strip()
    return extractor.title.strip(), text


def read_text_file(path: Path, root: Path) -> list[Passage]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    title = path.stem.replace("_", " ").replace("-", " ")
    if path.suffix.lower() in {".html", ".htm"}:
        html_title, raw = html_to_text(raw)
        title = html_title or title
    else:
        heading = re.search(r"^#\s+(.+)$", raw, re.MULTILINE)
        title = heading.group(1).strip() if heading else title
    relative = path.relative_to(root).as_posix()
    return passages_of(relative, title, path.resolve().as_uri(), raw)


def index_path_for(data_dir: Path, corpus: Path) -> Path:
    digest = hashlib.sha1(str(corpus.resolve()).encode()).hexdigest()[:12]
    slug = re.sub(r"[^a-z0-9]+", "-", corpus.stem.lower()).strip("-")[:40] or "corpus"
    return data_dir / "corpora" / f"{slug}-{digest}.sqlite"


def _signature(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


class LocalCorpusBackend:
    """A folder or JSONL file indexed once into SQLite FTS5 (re-indexed incrementally when files change)."""

    query_ceiling = 12

    def __init__(self, corpus: str | Path, data_dir: Path, name: str = "corpus") -> None:
        self.root = Path(corpus).expanduser()
        if not self.root.exists():
            raise CorpusError(f"corpus not found: {self.root}")
        self.name = name
        self.description = f"local corpus {self.root.name}: passages searched with BM25; exact words matter"
        self.index = FtsIndex(index_path_for(data_dir, self.root))
        self.reindexed = self.index.sync(self._units())
        if self.index.count() == 0:
            raise CorpusError(f"corpus has no readable .md/.txt/.html/.jsonl text: {self.root}")

    def _units(self) -> dict[str, tuple[str, object]]:
        root = self.root
        if root.is_file():
            if root.suffix.lower() == ".jsonl":
                return {root.name: (_signature(root), lambda: read_jsonl(root))}
            if root.suffix.lower() in TEXT_SUFFIXES:
                return {root.name: (_signature(root), lambda: read_text_file(root, root.parent))}
            raise CorpusError(f"unsupported corpus file type {root.suffix!r}: use a folder, .jsonl, .md, .txt or .html")
        units: dict[str, tuple[str, object]] = {}
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.name.startswith("."):
                continue
            suffix = path.suffix.lower()
            if suffix == ".jsonl":
                loader = (lambda p=path: read_jsonl(p))
            elif suffix in TEXT_SUFFIXES:
                loader = (lambda p=path: read_text_file(p, root))
            else:
                continue
            units[path.relative_to(root).as_posix()] = (_signature(path), loader)
        return units

    def search(self, query: str, max_results: int) -> list[RawHit]:
        return self.index.search(query, max_results)

