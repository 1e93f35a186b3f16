"""Small PDF and Word files written by hand, so document tests need no writer library and no file from elsewhere.

``write_pdf`` lays each page out as a PDF producer does: one Helvetica text object, one ``Tj`` a line, ``T*`` to the
next line, the content stream FlateDecode-compressed, an optional /Title in the document information. A page given no
lines has no text layer at all, as a scanned page. ``write_docx`` writes the parts a .docx needs, with
paragraph styles (Title, Heading 1, Heading 2) and tables.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

LINE_HEIGHT = 14


def _pdf_string(text: str) -> bytes:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return b"(" + escaped.encode("latin-1") + b")"


def _content_stream(lines: Sequence[str]) -> bytes:
    if not lines:  # a scanned page: a grey box where the picture would be, and no text operator at all
        return b"0.5 g 72 72 468 648 re f"
    parts = [b"BT /F1 11 Tf", f"{LINE_HEIGHT} TL 72 740 Td".encode()]
    for number, line in enumerate(lines):
        if number:
            parts.append(b"T*")
        parts.append(_pdf_string(line) + b" Tj")
    parts.append(b"ET")
    return b"\n".join(parts)


def pdf_bytes(pages: Sequence[Sequence[str]], title: str | None = None) -> bytes:
    """A PDF whose page i shows ``pages[i]``, one string a line, top to bottom."""
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: page tree, filled in below
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")  # 3
    kids: list[int] = []
    for lines in pages:
        stream = zlib.compress(_content_stream(lines))
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content_number = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                       b" /Contents %d 0 R >>" % content_number)
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    info = 0
    if title is not None:
        objects.append(b"<< /Title " + _pdf_string(title) + b" /Producer (satiate tests) >>")
        info = len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = b"<< /Size %d /Root 1 0 R" % (len(objects) + 1) + (b" /Info %d 0 R" % info if info else b"") + b" >>"
    out += b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def write_pdf(path: Path, pages: Sequence[Sequence[str]], title: str | None = None) -> Path:
    path.write_bytes(pdf_bytes(pages, title))
    return path


def write_damaged_pdf(path: Path) -> Path:
    """A PDF cut off a third of the way through, as a download that broke."""
    whole = pdf_bytes([["The minutes of a meeting that never finished downloading."] * 3])
    path.write_bytes(whole[: len(whole) // 3])
    return path


def write_pdf_with_damaged_page(path: Path, pages: Sequence[Sequence[str]], damaged: int) -> Path:
    """``pages`` as a PDF whose page ``damaged`` (from 1) has its compressed content overwritten with zero bytes."""
    whole = pdf_bytes(pages)
    stream = list(re.finditer(rb"stream\n(.*?)\nendstream", whole, re.DOTALL))[damaged - 1]
    path.write_bytes(whole[: stream.start(1)] + bytes(len(stream.group(1))) + whole[stream.end(1):])
    return path


# A block of a Word document: ("Title" | "Heading 1" | "Heading 2" | "Normal", text), or ("table", rows).
Block = tuple[str, object]

_CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml"
 ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml"
 ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>"""
_RELATIONSHIPS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Target="word/document.xml"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>
</Relationships>"""
_DOCUMENT_RELATIONSHIPS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Target="styles.xml"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"/>
</Relationships>"""
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
STYLES = ("Normal", "Title", "Heading 1", "Heading 2")


def _style_id(name: str) -> str:
    return name.replace(" ", "")


def _styles() -> str:
    default = ' w:default="1"'
    defined = "".join(f'<w:style w:type="paragraph"{default if name == "Normal" else ""} '
                      f'w:styleId="{_style_id(name)}"><w:name w:val="{name}"/></w:style>' for name in STYLES)
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="{_W}">{defined}</w:styles>'


def _paragraph(style: str, text: str) -> str:
    properties = "" if style == "Normal" else f'<w:pPr><w:pStyle w:val="{_style_id(style)}"/></w:pPr>'
    return f'<w:p>{properties}<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'


def _table(rows: Sequence[Sequence[str]]) -> str:
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{_paragraph('Normal', cell)}</w:tc>" for cell in row) + "</w:tr>"
                    for row in rows)
    return f"<w:tbl><w:tblPr/>{cells}</w:tbl>"


def write_docx(path: Path, blocks: Sequence[Block]) -> Path:
    """A .docx of ``blocks`` in order, with the styles part that names its paragraph styles (``STYLES``)."""
    body = "".join(_table(content) if kind == "table" else _paragraph(kind, str(content))  # type: ignore[arg-type]
                   for kind, content in blocks)
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="{_W}">'
                f"<w:body>{body}</w:body></w:document>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _RELATIONSHIPS)
        archive.writestr("word/document.xml", document)
        archive.writestr("word/_rels/document.xml.rels", _DOCUMENT_RELATIONSHIPS)
        archive.writestr("word/styles.xml", _styles())
    return path


def write_encrypted_pdf(path: Path, pages: Sequence[Sequence[str]], user_password: str = "") -> Path:
    """``pages`` as a PDF encrypted with RC4 (no extra package needed): ``user_password`` "" opens without one, as a
    PDF locked only against printing or copying."""
    from pypdf import PdfWriter

    plain = path.with_name(path.name + ".plain")
    write_pdf(plain, pages)
    writer = PdfWriter(clone_from=plain)
    writer.encrypt(user_password, owner_password="owner-only", algorithm="RC4-128")
    with path.open("wb") as out:
        writer.write(out)
    plain.unlink()
    return path
