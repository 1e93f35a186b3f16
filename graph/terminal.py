"""Text from corpora, web pages and questions made safe to show on a terminal.

A page or a JSONL corpus can carry escape sequences (clear the screen, retitle the window, fake a hyperlink) and a
question typed or pasted by someone else can too; printed raw, they act on the reader's terminal instead of being
read. ``strip_terminal_escapes`` removes them before anything reaches a terminal; files and pipes keep the text as is.
"""

from __future__ import annotations

import re

# ESC-introduced sequences, longest forms first: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ST), the string
# commands DCS/SOS/PM/APC (ESC P/X/^/_ ... ST), then any other two-character escape.
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b.?",
    re.DOTALL,
)
# What is left: C0 controls except tab and newline, DEL, and the C1 controls (U+0080-U+009F, e.g. the one-character
# CSI U+009B that some terminals obey).
_CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_terminal_escapes(text: str) -> str:
    """``text`` without terminal escape sequences and control characters; newlines and tabs stay."""
    text = text.replace("\r\n", "\n")
    return _CONTROL_CHARACTER.sub("", _ESCAPE_SEQUENCE.sub("", text))


_JSON_RAW_CONTROL = re.compile(r"[\x7f-\x9f]")


def json_safe_for_terminal(document: str) -> str:
    """A JSON document with DEL and the C1 controls written as ``\\u`` escapes: the same data once parsed, but nothing
    a terminal acts on (JSON encoders escape only the C0 controls). They can only occur inside strings."""
    return _JSON_RAW_CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", document)
