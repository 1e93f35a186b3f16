"""Run metrics (design §18): per-run numbers in the run output, and the same through Prometheus when enabled.

``run_metrics(state)`` needs nothing but the finished state. The Prometheus exporter is optional (``pip install
'satiate[metrics]'``) and only starts when the ``metrics_port`` setting is given; it listens on 127.0.0.1 (the
port is for a local scraper or a tunnel, not the open network). The exporter a run reports to comes from
``satiate.graph.deps.metrics_for``: the model engine observes each call as it happens, ``finalize`` the run at its
end (``PrometheusExporter.observe_run``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from satiate.state.records import search_failed
from satiate.tools.llm.meters import model_metrics

DURATION_BUCKETS = (1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
ITERATION_BUCKETS = (1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0)
MODEL_CALL_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
METRICS_ADDRESS = "127.0.0.1"


class MetricsUnavailable(RuntimeError):
    """Prometheus export was asked for but prometheus-client is not installed."""


def run_metrics(state: Mapping[str, Any]) -> dict[str, float]:
    """The run metrics (plus the model layer's counters) from a run's state."""
    counters = state.get("counters", {}) or {}
    searches = state.get("search_results", []) or []
    return {
        "research_loop_duration_seconds": float(state.get("elapsed_s", 0.0) or 0.0),
        "iterations_per_request": float(len(state.get("novelty_scores", []) or [])),
        "cycles_per_request": float(len(state.get("rounds", []) or [])),
        "searches_total": float(len(searches)),
        "search_failures_total": float(sum(1 for r in searches if search_failed(str(r.get("outcome", ""))))),
        "model_calls_total": float(counters.get("model_calls", 0)),
        "model_retries_total": float(counters.get("model_retries", 0)),
        "model_repairs_total": float(counters.get("model_repairs", 0)),
        "model_fallbacks_total": float(counters.get("model_fallbacks", 0)),
        "prompt_truncations_total": float(counters.get("prompt_truncations", 0)),
        "tokens_used": float(state.get("tokens_used", 0) or 0),
        "errors_total": float(len(state.get("error_log", []) or [])),
        **model_metrics(counters),
    }


class PrometheusExporter:
    """The metrics as Prometheus collectors in their own registry (so tests and embedders do not collide)."""

    def __init__(self, registry: Any | None = None) -> None:
        try:
            from prometheus_client import CollectorRegistry, Counter, Histogram
        except ImportError as exc:
            raise MetricsUnavailable("metrics_port needs prometheus-client: pip install 'satiate[metrics]'") from exc
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        self.runs = Counter("research_runs", "Research runs finished.", registry=r)
        self.duration = Histogram("research_loop_duration_seconds", "Wall time of a research run, summed over nodes.",
                                  buckets=DURATION_BUCKETS, registry=r)
        self.iterations = Histogram("iterations_per_request", "Search rounds a research run made.",
                                    buckets=ITERATION_BUCKETS, registry=r)
        self.search_failures = Counter("search_failures", "Searches that failed (not: came back empty).", registry=r)
        self.model_calls = Counter("model_calls", "Model calls, by task and outcome.", ["task", "outcome"], registry=r)
        self.model_retries = Counter("model_retries", "Re-asks after an unusable model answer.", registry=r)
        self.model_fallbacks = Counter("model_fallbacks", "Decisions the deterministic engine made for the model.",
                                       registry=r)
        self.model_call_seconds = Histogram("model_call_duration_seconds", "Duration of one model decision.",
                                            ["task"], buckets=MODEL_CALL_BUCKETS, registry=r)
        self._server: Any = None
        self.port: int | None = None

    def observe_model_call(self, task: str, outcome: str, calls: int, seconds: float) -> None:
        self.model_calls.labels(task=task, outcome=outcome).inc(max(calls, 0))
        self.model_call_seconds.labels(task=task).observe(seconds)

    def observe_run(self, state: Mapping[str, Any]) -> dict[str, float]:
        numbers = run_metrics(state)
        self.runs.inc()
        self.duration.observe(numbers["research_loop_duration_seconds"])
        self.iterations.observe(numbers["iterations_per_request"])
        self.search_failures.inc(numbers["search_failures_total"])
        self.model_retries.inc(numbers["model_retries_total"])
        self.model_fallbacks.inc(numbers["model_fallbacks_total"])
        return numbers

    def serve(self, port: int, address: str = METRICS_ADDRESS) -> int:
        """Serve /metrics on ``address:port`` (0 picks a free port); returns the port."""
        from prometheus_client import start_http_server

        started = start_http_server(port, addr=address, registry=self.registry)
        self._server = started[0] if isinstance(started, tuple) else None
        self.port = int(self._server.server_port) if self._server is not None else port
        return self.port

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
