"""The CLI's progress view: the totals it keeps from streamed events, plain lines off a terminal, a live footer on
one."""

from __future__ import annotations

import io

from rich.console import Console

from satiate.graph.progress import ProgressView, RunTally, progress_line

EVENTS = [
    {"event": "plan", "queries": ["q1", "q2"], "engine": "deterministic", "backends": ["corpus"]},
    {"event": "search", "query": "q1", "angle": "entity", "backend": "corpus", "outcome": "ok", "hits": 3,
     "cached": True},
    {"event": "search", "query": "q2", "angle": "counter_argument", "backend": "corpus", "outcome": "failed_final",
     "hits": 0, "cached": False},
    {"event": "gate", "cycle": 1, "round": 1, "score": 7, "new_hits": 3, "total_hits": 3, "decision": "accepted",
     "reason": "novel", "draw": None},
    {"event": "compress", "new_sources": 3, "knowledge_chars": 400},
    {"event": "synthesize", "claims": 2, "cut": 1},
    {"event": "critic", "cycle": 1, "material_gaps": 0, "signoff": True, "clean_signoffs": 1},
]


def test_tally_counts_what_the_events_report() -> None:
    tally = RunTally()
    for event in EVENTS:
        tally.add(event)
    assert (tally.cycle, tally.search_round, tally.searches, tally.cached, tally.failed) == (1, 1, 2, 1, 1)
    assert (tally.sources, tally.claims, tally.clean_signoffs, tally.finished) == (3, 2, 1, False)
    assert "2 searches (1 cached, 1 failed)" in tally.summary()
    tally.add({"event": "finalize", "claims": 2, "sources": 5, "stop_reason": "converged"})
    assert tally.finished and tally.sources == 5


def render(terminal: bool) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=terminal, width=200, color_system=None)
    with ProgressView(console, progress_line) as view:
        for event in EVENTS:
            view.show(event)
    return buffer.getvalue()


def test_off_a_terminal_only_the_event_lines_are_printed() -> None:
    printed = render(terminal=False).splitlines()
    expected = [line for line in (progress_line(event) for event in EVENTS) if line]
    assert len(printed) == len(expected)
    assert printed[0].startswith("plan 2 queries") and "(cache)" in printed[1]
    assert "⟳" not in "".join(printed)


def test_on_a_terminal_a_live_footer_shows_the_totals() -> None:
    shown = render(terminal=True)
    assert "plan 2 queries" in shown
    assert "⟳ cycle 1 round 1 · 2 searches (1 cached, 1 failed) · 3 sources · 2 claims" in shown


def test_ctrl_c_while_a_line_is_printed_is_raised_after_it_and_later_lines_are_written(monkeypatch) -> None:
    """A Ctrl-C handled inside rich's Console.__exit__, before it closes its output buffer, left the buffer open: the
    CLI's "interrupted; resume with ..." line was kept in memory and never written (a flaky Ctrl-C test)."""
    import signal

    import pytest

    exit_buffer = Console._exit_buffer
    pressed: list[bool] = []

    def ctrl_c_then_exit_buffer(console: Console) -> None:
        if not pressed:
            pressed.append(True)
            signal.raise_signal(signal.SIGINT)  # its handler runs here, as for a Ctrl-C that lands at this point
        exit_buffer(console)

    monkeypatch.setattr(Console, "_exit_buffer", ctrl_c_then_exit_buffer)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None)
    with pytest.raises(KeyboardInterrupt), ProgressView(console, progress_line) as view:
        view.show(EVENTS[0])
    console.print("interrupted; resume with: satiate resume t")
    assert pressed
    printed = buffer.getvalue().splitlines()
    assert len(printed) == 2 and printed[0].startswith("plan 2 queries")
    assert printed[1] == "interrupted; resume with: satiate resume t"
