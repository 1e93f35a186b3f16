"""Load the prompt files (package data) and render them into chat messages.

A prompt file has a front matter naming its task, role, output and the variables it takes, then a ``[system]`` and a
``[user]`` section. Placeholders are ``{{name}}``; every declared variable must be used and every placeholder
declared, and rendering insists on exactly the declared values, so a prompt and its caller cannot drift apart
silently. Values are inserted once and never re-scanned, so braces in source text are harmless.

Source text and other gathered text go into a prompt only through ``quote_data``: wrapped in a named tag, with any
copy of our own tags inside it defused, so text from the web can neither close the quotation nor pose as part of the
instructions.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

TASKS = ("plan", "plan_query", "novelty", "compress", "reflect", "critic", "synthesize")
DATA_TAGS = ("question", "target", "executed", "knowledge", "results", "searches", "thin", "sources", "source",
             "claims", "evidence")
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
_OUR_TAGS = re.compile(r"<\s*(/?)\s*(" + "|".join(DATA_TAGS) + r")\b", re.I)


class PromptError(ValueError):
    """A prompt file is malformed, or was rendered with missing or unexpected values."""


@dataclass(frozen=True)
class PromptTemplate:
    task: str
    role: str
    output: str
    variables: tuple[str, ...]
    system: str
    user: str

    def placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.system)) | set(_PLACEHOLDER.findall(self.user))

    def render(self, **values: object) -> list[BaseMessage]:
        """The system and user messages with every variable filled in (exactly the declared ones)."""
        missing = [v for v in self.variables if v not in values]
        unexpected = sorted(set(values) - set(self.variables))
        if missing or unexpected:
            raise PromptError(f"prompt {self.task!r}: missing {missing}, unexpected {unexpected}")

        def fill(template: str) -> str:
            return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template)

        return [SystemMessage(content=fill(self.system)), HumanMessage(content=fill(self.user))]


def parse_prompt(text: str, name: str) -> PromptTemplate:
    """Parse one prompt file's text (front matter, ``[system]``, ``[user]``)."""
    match = re.match(r"\A---\n(.*?)\n---\n(.*)\Z", text, re.S)
    if not match:
        raise PromptError(f"prompt {name!r}: missing the '---' front matter")
    header: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            header[key.strip()] = value.strip()
    body = match.group(2)
    sections = re.split(r"^\[(system|user)\]\s*$", body, flags=re.M)
    parts = {sections[i]: sections[i + 1].strip("\n") for i in range(1, len(sections) - 1, 2)}
    if set(parts) != {"system", "user"} or "task" not in header or "variables" not in header:
        raise PromptError(f"prompt {name!r}: needs task, variables, a [system] and a [user] section")
    variables = tuple(v.strip() for v in header["variables"].split(",") if v.strip())
    template = PromptTemplate(header["task"], header.get("role", ""), header.get("output", ""), variables,
                              parts["system"], parts["user"])
    used = template.placeholders()
    if used != set(variables):
        raise PromptError(f"prompt {name!r}: declared {sorted(variables)} but uses {sorted(used)}")
    return template


@functools.cache
def load_prompt(task: str) -> PromptTemplate:
    """The prompt of one task, read from the installed package data."""
    if task not in TASKS:
        raise PromptError(f"unknown prompt {task!r}; known: {', '.join(TASKS)}")
    text = resources.files("satiate.prompts").joinpath(f"{task}.md").read_text(encoding="utf-8")
    template = parse_prompt(text, task)
    if template.task != task:
        raise PromptError(f"prompt file {task}.md declares task {template.task!r}")
    return template


def defuse_tags(text: str) -> str:
    """Make copies of our own data tags inside quoted text inert ('</sources>' -> '‹/sources>')."""
    return _OUR_TAGS.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)


def quote_data(text: str, tag: str, **attributes: str) -> str:
    """Wrap gathered text in ``<tag …>…</tag>`` as inert data."""
    if tag not in DATA_TAGS:
        raise PromptError(f"unknown data tag {tag!r}")
    attrs = "".join(f' {key}="{defuse_tags(value).replace(chr(34), chr(39))}"' for key, value in attributes.items())
    return f"<{tag}{attrs}>\n{defuse_tags(text).strip()}\n</{tag}>"
