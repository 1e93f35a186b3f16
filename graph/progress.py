"""The CLI's live progress view: one line per event as the run streams them, plus, on a terminal, a footer with the
run's totals so far (where it is, searches sent, cache hits, failures, sources, sign-offs, time).

Any ``stream_mode="custom"`` consumer gets the same events (Studio, the SDK, the notebook); this only renders them.
Off a terminal (a pipe, a log file, CI) only the lines are printed, so logs stay plain text.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.text import Text

from satiate.graph.terminal import strip_terminal_escapes
from satiate.state.records import search_failed

REFRESH_PER_SECOND = 8


def _text(value: Any, limit: int | None = None) -> str:
    """A value from the run (a query, a URL, a backend's message) as literal text: no escape sequence, no markup."""
    return escape(strip_terminal_escapes(str(value))[:limit])


def _quoted(value: Any, limit: int) -> str:
    return escape(repr(strip_terminal_escapes(str(value))[:limit]))


def _listed(values: Any) -> str:
    return ", ".join(_text(value) for value in values)


def progress_line(event: dict[str, Any]) -> str | None:
    """One rich-markup line for an event. Queries, URLs and reasons come from the question and the corpus, so they
    are shown as plain text: escape sequences removed and ``[`` escaped (a URL ending in ``[/]`` is not markup)."""
    kind = event.get("event")
    if kind == "plan":
        return (f"[bold]plan[/] {len(event['queries'])} queries · engine {_text(event['engine'])} · "
                f"backends {_listed(event['backends'])}")
    if kind == "search":
        cached = " (cache)" if event.get("cached") else ""
        # ProgressView keeps it once per reason
        error = f" [red]({_text(event['error'])})[/]" if event.get("error") else ""
        return (f"  search \\[{_text(event['angle'])}] {_quoted(event['query'], 70)} → {_text(event['backend'])}: "
                f"{_text(event['outcome'])}, {event['hits']} hits{cached}{error}")
    if kind == "round":
        return f"[bold]round[/] cycle {event['cycle']} round {event['round']}: {len(event['queries'])} queries"
    if kind == "fallback":
        return (f"  [yellow]fallback[/] {_listed(event['failed'])} failed → {_text(event['served_by'])} served "
                f"{_quoted(event['query'], 60)}")
    if kind == "enrich_skip":
        return f"  skip reading {_text(event['url'], 70)} ({_text(event['reason'])}, overlap {event['overlap']:.0%})"
    if kind == "page":
        return (f"  read {_text(event['url'], 70)}: {_text(event['outcome'])}, {event['chars']} chars"
                + (" (store)" if event.get("from_store") else ""))
    if kind == "quality_floor":
        return f"  [yellow]quality floor[/] {event['chars']} chars → fallback {_quoted(event['fallback'], 70)}"
    if kind == "gate":
        draw = f" draw={event['draw']:.3f}" if event.get("draw") is not None else ""
        return (f"[bold]novelty[/] cycle {event['cycle']} round {event['round']}: score {event['score']}/10 "
                f"({event['new_hits']} new of {event['total_hits']}) → {_text(event['decision'])} "
                f"({_text(event['reason'])}){draw}")
    if kind == "compress":
        return f"[bold]compress[/] +{event['new_sources']} sources, knowledge {event['knowledge_chars']} chars"
    if kind == "reflect":
        return (f"[bold]reflect[/] sufficient={event['sufficient']} confidence={event['confidence']:.2f}, "
                f"{len(event['next_queries'])} next queries")
    if kind == "synthesize":
        return f"[bold]synthesize[/] {event['claims']} claims kept, {event['cut']} cut by the grounding gate"
    if kind == "critic":
        return (f"[bold]critic[/] cycle {event['cycle']}: {event['material_gaps']} material gaps, sign-off "
                f"{'yes' if event['signoff'] else 'no'} ({event['clean_signoffs']} in a row)")
    if kind == "finalize":
        return (f"[bold]done[/] {event['claims']} claims from {event['sources']} sources · "
                f"{_text(event['stop_reason'])}")
    return None


@dataclass
class RunTally:
    """What the events said so far; pure bookkeeping, so it can be tested without a terminal."""

    cycle: int = 0
    search_round: int = 0
    searches: int = 0
    cached: int = 0
    failed: int = 0
    sources: int = 0
    claims: int = 0
    clean_signoffs: int = 0
    finished: bool = False
    started: float = field(default_factory=time.monotonic)

    def add(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "plan":
            self.cycle = max(self.cycle, 1)
        elif kind == "search":
            self.searches += 1
            self.cached += 1 if event.get("cached") else 0
            self.failed += 1 if search_failed(str(event.get("outcome", ""))) else 0
        elif kind == "gate":
            self.cycle, self.search_round = event.get("cycle", self.cycle), event.get("round", self.search_round)
        elif kind == "compress":
            self.sources += event.get("new_sources", 0)
        elif kind == "synthesize":
            self.claims = event.get("claims", self.claims)
        elif kind == "critic":
            self.cycle = event.get("cycle", self.cycle)
            self.clean_signoffs = event.get("clean_signoffs", self.clean_signoffs)
        elif kind == "finalize":
            self.finished = True
            self.sources = event.get("sources", self.sources)
            self.claims = event.get("claims", self.claims)

    def summary(self) -> str:
        where = f"cycle {self.cycle} round {self.search_round}" if self.cycle else "planning"
        extras = ", ".join(part for part in (f"{self.cached} cached" if self.cached else "",
                                             f"{self.failed} failed" if self.failed else "") if part)
        searches = f"{self.searches} searches" + (f" ({extras})" if extras else "")
        elapsed = time.monotonic() - self.started
        return (f"{where} · {searches} · {self.sources} sources · {self.claims} claims · "
                f"{self.clean_signoffs} clean sign-offs · {elapsed:.1f} s")


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C that arrives while rich writes, and raise it once rich is done.

    rich's Console does not survive a KeyboardInterrupt raised inside it: one raised in ``Console.__exit__`` before the
    console closes its output buffer leaves that buffer open for good, and every later line (the CLI's "interrupted;
    resume with ..." among them) is kept in memory and never written. Only Python's default handler (the one that
    raises KeyboardInterrupt) is held, and only in the main thread, where signal handlers run.
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    pressed: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: pressed.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if pressed:
            raise KeyboardInterrupt


class ProgressView:
    """Render streamed events: ``line_for(event)`` printed per event, and a live footer when writing to a terminal.
    Every call into rich holds Ctrl-C until it returns (``_ctrl_c_held``): a run stopped by Ctrl-C says so."""

    def __init__(self, console: Console, line_for: Callable[[dict[str, Any]], str | None]) -> None:
        self.console = console
        self.line_for = line_for
        self.tally = RunTally()
        self._live: Live | None = None
        self._failures_shown: set[tuple[str, str]] = set()  # (backend, reason): each said once, not per query

    def __enter__(self) -> ProgressView:
        if self.console.is_terminal:
            self._live = Live(self._footer(), console=self.console, transient=True,
                              refresh_per_second=REFRESH_PER_SECOND)
            try:
                with _ctrl_c_held():
                    self._live.start()
            except KeyboardInterrupt:  # pressed while the footer started: it is stopped, as __exit__ is not called
                self.__exit__(None, None, None)
                raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._live is not None:
            with _ctrl_c_held():
                self._live.stop()
            self._live = None

    def show(self, event: dict[str, Any]) -> None:
        self.tally.add(event)
        if event.get("event") == "search" and event.get("error"):
            failure = (str(event.get("backend")), str(event["error"]))
            if failure in self._failures_shown:
                event = {key: value for key, value in event.items() if key != "error"}
            self._failures_shown.add(failure)
        line = self.line_for(event)
        with _ctrl_c_held():
            if line:
                self.console.print(line, highlight=False)  # above the footer while it is live
            if self._live is not None:
                self._live.update(self._footer())

    def _footer(self) -> Text:
        return Text("⟳ " + self.tally.summary(), style="dim")
