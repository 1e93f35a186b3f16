"""Token accounting: what a call cost, from the provider's usage metadata or, when it gives none, an estimate.

The estimate is characters / 4, the usual ratio for English text under the tokenizers of the model families people
run locally (Llama, Qwen, Gemma, Mistral). Prompt fitting uses a safety margin on top, because code, URLs and
non-English text tokenize worse than that.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_core.messages import BaseMessage

CHARS_PER_TOKEN = 4.0
# Share of the context window satiate lets its prompt fill, since the estimate can be low for dense text.
CONTEXT_SAFETY = 0.8


@dataclass(frozen=True)
class TokenCount:
    input_tokens: int
    output_tokens: int
    estimated: bool

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


def message_text(message: BaseMessage | str) -> str:
    """The text of a message, whether its content is a string or a list of content blocks."""
    if isinstance(message, str):
        return message
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def messages_tokens(messages: Iterable[BaseMessage]) -> int:
    return sum(estimate_tokens(message_text(m)) for m in messages)


def call_tokens(prompt: Iterable[BaseMessage], reply: BaseMessage | None) -> TokenCount:
    """Tokens of one call: the reply's ``usage_metadata`` when the provider reports it, else the estimate."""
    usage = getattr(reply, "usage_metadata", None) if reply is not None else None
    if usage and (usage.get("input_tokens") or usage.get("output_tokens")):
        return TokenCount(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)), estimated=False)
    output = estimate_tokens(message_text(reply)) if reply is not None else 0
    return TokenCount(messages_tokens(prompt), output, estimated=True)


def prompt_char_budget(num_ctx: int, reserved_output_tokens: int) -> int:
    """Characters a prompt may use so that it and the reserved output fit the context window."""
    usable = max(0, num_ctx - reserved_output_tokens) * CONTEXT_SAFETY
    return int(usable * CHARS_PER_TOKEN)
