"""What the LangGraph server loads (``langgraph dev``, Studio, ``langgraph up``), as named in ``langgraph.json``.

The server refuses a graph compiled with its own checkpointer: it brings persistence of its own. So ``graph`` is
compiled without one, and ``checkpointer`` hands the server satiate's own store (langgraph.json's ``checkpointer``
entry): the SQLite file the CLI writes, or the PostgreSQL URL in ``SATIATE_CHECKPOINT_URL``. A thread run in Studio
can then be shown or resumed with ``satiate show/resume THREAD_ID``, and a CLI run opened in Studio, because both
read and write the same checkpoints.

The store is fixed when the server starts, from the environment (``SATIATE_DATA_DIR`` / ``SATIATE_CHECKPOINT_URL``);
a ``data_dir`` chosen per run still moves that run's search cache and indexes, but not where its checkpoints go.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver

from satiate.graph import graph
from satiate.graph.checkpoint import open_async_checkpointer
from satiate.state.settings import resolve_settings

__all__ = ["checkpointer", "graph"]


@asynccontextmanager
async def checkpointer() -> AsyncIterator[BaseCheckpointSaver]:
    """The server's checkpointer, entered once per event loop by the server and closed on shutdown."""
    async with open_async_checkpointer(resolve_settings()) as saver:
        yield saver
