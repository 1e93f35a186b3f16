"""What a model engine remembers of each run between its calls, kept per run so that runs never share it.

A run's clock (its time budget starts at its first plan), the tokens its calls spent (the state's meter holds them
only once the node that made them returns), the evidence its last model answer came from with that answer (the same
sentences are not asked about twice), its best answer (kept over a worse later one; with no time left, it is the
answer), and how many synthesis calls it made with the model's own last usable answer (a small-profile run makes
few calls and merges that answer into each later synthesis). One engine serves every run of a process with the same
settings (``graph/deps.py``), so this memory is keyed by the run: its thread (every server and CLI run has one; a
resumed run keeps it), with the question and seed, since a thread can be asked a new question. A graph compiled
without a checkpointer has no thread: its runs are told apart by question and seed only. The memory is bounded: the
runs least recently used are forgotten first (a forgotten run's clock restarts at its next call, the behaviour of a
run resumed in another process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from satiate.engine.base import ResearchView
from satiate.state.contracts import SynthesisResponse

RUNS_KEPT = 256  # runs an engine remembers at once; far more than run at the same time in one process

RunKey = tuple[str | None, str, int | None]
EvidenceAnswer = tuple[tuple, SynthesisResponse]  # (the evidence it was written from, the synthesis)


@dataclass
class ModelRun:
    """One run's memory: when its clock started, its own token count, its last model answer and its best answer."""

    started: float
    tokens: int = 0
    last_answer: EvidenceAnswer | None = None
    best_answer: SynthesisResponse | None = None  # the best-supported synthesis so far (engine.model_merge)
    synthesis_calls: int = 0  # model calls the run's syntheses made, re-asks included
    model_answer: SynthesisResponse | None = None  # the model's last usable answer, its claims checked, unmerged


def run_key(view: ResearchView) -> RunKey:
    return (view.run_id, view.question, view.settings.seed)


class ModelRuns:
    """The per-run memory of one engine: an entry a run, thread-safe, least recently used forgotten first."""

    def __init__(self, clock: Callable[[], float], kept: int = RUNS_KEPT) -> None:
        self._clock = clock
        self._kept = kept
        self._runs: OrderedDict[RunKey, ModelRun] = OrderedDict()
        self._lock = threading.Lock()

    def _entry(self, view: ResearchView) -> ModelRun:
        key = run_key(view)
        run = self._runs.get(key)
        if run is None:
            run = self._runs[key] = ModelRun(started=self._clock())
            while len(self._runs) > self._kept:
                self._runs.popitem(last=False)
        self._runs.move_to_end(key)
        return run

    def start(self, view: ResearchView) -> None:
        """A run's first plan: its clock starts now, with nothing spent and no answer yet."""
        with self._lock:
            self._runs.pop(run_key(view), None)
            self._entry(view)

    def started(self, view: ResearchView) -> float:
        """When the run's clock started (at its first call here, for a run this engine has not seen)."""
        with self._lock:
            return self._entry(view).started

    def tokens(self, view: ResearchView) -> int:
        with self._lock:
            return self._entry(view).tokens

    def spend(self, view: ResearchView, tokens: int) -> None:
        with self._lock:
            self._entry(view).tokens += tokens

    def last_answer(self, view: ResearchView) -> EvidenceAnswer | None:
        with self._lock:
            return self._entry(view).last_answer

    def remember_answer(self, view: ResearchView, evidence: tuple, synthesis: SynthesisResponse) -> None:
        with self._lock:
            self._entry(view).last_answer = (evidence, synthesis.model_copy(deep=True))

    def best_answer(self, view: ResearchView) -> SynthesisResponse | None:
        with self._lock:
            return self._entry(view).best_answer

    def remember_best(self, view: ResearchView, synthesis: SynthesisResponse) -> None:
        with self._lock:
            self._entry(view).best_answer = synthesis.model_copy(deep=True)

    def synthesis_calls(self, view: ResearchView) -> int:
        with self._lock:
            return self._entry(view).synthesis_calls

    def count_synthesis_calls(self, view: ResearchView, calls: int) -> None:
        with self._lock:
            self._entry(view).synthesis_calls += calls

    def model_answer(self, view: ResearchView) -> SynthesisResponse | None:
        with self._lock:
            return self._entry(view).model_answer

    def remember_model_answer(self, view: ResearchView, synthesis: SynthesisResponse) -> None:
        with self._lock:
            self._entry(view).model_answer = synthesis.model_copy(deep=True)
