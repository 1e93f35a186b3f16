"""``satiate cache stats|clear|prune``: look after the search cache and page store.

``stats`` counts rows per table (fresh and expired under the TTL), ``prune`` deletes what the TTL has expired,
``clear`` deletes everything (the next run searches and fetches afresh).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from satiate.graph.cli.options import overrides_from

if TYPE_CHECKING:  # imported when the command runs, so `satiate --help` starts fast
    import argparse

    from rich.console import Console

TABLE_CHOICES = ("search", "pages", "all")


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    try:
        return datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (ValueError, OverflowError, OSError):  # a stamp written by a badly set clock
        return f"{stamp:.0f}"


def command_cache(args: argparse.Namespace, out: Console, err: Console) -> int:
    from rich.table import Table

    from satiate.state.settings import resolve_settings
    from satiate.tools.store import TABLES, Store, store_url_for

    settings = resolve_settings(overrides_from(args))
    # A store of the command's own, not the process's shared one (graph.deps): that module loads every engine and
    # LangGraph, seconds of start-up a look at the cache does not need. Closed below.
    store = Store(store_url_for(settings))
    tables = tuple(TABLES) if args.table == "all" else (args.table,)
    now = time.time()
    try:
        if args.action == "stats":
            stats = store.stats(now=now, ttl_s=settings.cache_ttl_s)
            table = Table("table", "rows", "fresh", "expired", "oldest", "newest")
            for name in tables:
                row = stats[name]
                table.add_row(name, str(row.rows), str(row.fresh), str(row.expired), _when(row.oldest),
                              _when(row.newest))
            out.print(table)
            out.print(f"store: {store.engine.url!r}", highlight=False, soft_wrap=True)
            size = store.size_bytes()
            if size is not None:
                out.print(f"size on disk: {size / 1_048_576:.2f} MiB · TTL {settings.cache_ttl_s:g} s", highlight=False)
        elif args.action == "prune":
            deleted = store.prune(now=now, ttl_s=settings.cache_ttl_s, tables=tables)
            out.print("pruned " + ", ".join(f"{n} expired {name} rows" for name, n in deleted.items())
                      + f" (older than {settings.cache_ttl_s:g} s)", highlight=False)
        else:
            deleted = store.clear(tables)
            out.print("cleared " + ", ".join(f"{n} {name} rows" for name, n in deleted.items()), highlight=False)
    finally:
        store.dispose()  # the command's connections closed
    return 0
