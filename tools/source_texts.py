"""Source texts by reference: the graph state holds a text's SHA-256, the store holds the text once.

Text kept in the state is paid for in every checkpoint and task write that carries it (before this store: a
plain channel stored its whole value again at every step, steps x sources times); kept here it is paid for once, and
shared by every run that reads the same passage or page. ``keep_texts``
stores texts before a node returns their hashes, so no saved checkpoint refers to a text that was not saved;
``read_texts`` is the one way back, for the engines, the grounding gate and the report. Each text is recorded with
the thread that uses it, so deleting a run deletes exactly the texts no other run uses. The caller passes the store
(``satiate.graph.deps.store_for`` gives a run's).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable

from sqlalchemy.exc import SQLAlchemyError

from satiate.tools.store import StorageError, Store, storage_fault

SNIPPET_CHARS = 160  # what the state keeps of a source's text to show it (Studio, `satiate show` of a running run)


class TextsMissing(StorageError):
    """The store no longer holds texts a run refers to (deleted with its run, or lost with a damaged store)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "missing")


def text_hash(text: str) -> str:
    """The key a text is stored under: the SHA-256 of its UTF-8 bytes, so a text read twice is stored once."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of a text, cut at a word, for showing a source without loading its text."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return (flat[:limit].rsplit(" ", 1)[0] or flat[:limit]) + "…"


def run_owner() -> str:
    """The thread ID of the graph run calling (for a subgraph, its root's), or "" outside a run that has one."""
    try:
        from langgraph.config import get_config

        config = get_config()
    except (RuntimeError, ImportError):  # called outside a graph run (a unit test calling a node)
        return ""
    return str((config.get("configurable") or {}).get("thread_id") or "")


def _fault(store: Store, error: SQLAlchemyError) -> StorageError:
    if store.path is not None:
        return storage_fault(store.path, error, damaged=f"move it aside (mv {store.path} {store.path}.damaged); "
                             "runs whose texts it held must then be run again")
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    return StorageError(f"the store {store.label} cannot be used: {reason}")


def keep_texts(store: Store, texts: Iterable[str]) -> list[str]:
    """Store the texts for the run calling and return their distinct hashes, in order (a text this process already
    stored for the run costs a set lookup; any other, one idempotent write)."""
    by_hash = {text_hash(text): text for text in texts}
    hashes = list(by_hash)
    if not hashes:
        return hashes
    try:
        store.keep_texts(run_owner(), by_hash, now=time.time())
    except SQLAlchemyError as exc:
        raise _fault(store, exc) from None
    return hashes


def read_texts(store: Store, hashes: Iterable[str]) -> dict[str, str]:
    """The texts under these hashes, from the run's store: the one reader of source text. A text the store lost
    is a TextsMissing naming the store and what to do, never a KeyError deep in an engine."""
    wanted = set(hashes)
    if not wanted:
        return {}
    try:
        found = store.texts(wanted)
    except SQLAlchemyError as exc:
        raise _fault(store, exc) from None
    missing = wanted - found.keys()
    if missing:
        raise TextsMissing(
            f"the store {store.label} no longer holds {len(missing)} of the {len(wanted)} texts this run read (deleted "
            "with their run by 'satiate delete' or 'satiate prune', or lost with a damaged store): the run cannot go "
            "on without them; run the question again")
    return found


def run_text_bytes(store: Store, thread_id: str) -> int:
    """Bytes of the texts a run (thread) uses in its store; a text shared with other runs counts for each."""
    try:
        return store.owned_text_bytes(thread_id)
    except SQLAlchemyError as exc:
        raise _fault(store, exc) from None


def release_run_texts(store: Store, thread_id: str) -> int:
    """Forget a deleted run's texts: delete those no other run uses; returns how many were deleted."""
    try:
        return store.release_texts(thread_id, now=time.time())
    except SQLAlchemyError as exc:
        raise _fault(store, exc) from None
