"""What can go wrong when satiate talks to a model, as exceptions a caller can catch and records it can store.

Set-up problems (a provider package missing, no server, model not pulled) are raised before a run starts, with a
message that says what to do. Problems during a call are classified into a ``CallFailure`` so the engine can record
them as typed errors and answer that call deterministically.
"""

from __future__ import annotations

from dataclasses import dataclass


class ModelSetupError(RuntimeError):
    """The configured model cannot be used; the message names the fix."""


class ModelConfigError(ModelSetupError):
    """The model setting itself is unusable (unknown provider, package not installed, file missing)."""


class ModelUnavailable(ModelSetupError):
    """The model server or the model does not answer (no server, model not pulled, time-out)."""


@dataclass(frozen=True)
class CallFailure:
    """One failed model call, classified: ``kind`` becomes the error record's type."""

    kind: str
    message: str
    retryable: bool

    @property
    def transport(self) -> bool:
        """A failure of the connection to the model rather than of the model's answer."""
        return self.kind in TRANSPORT_KINDS


TRANSPORT_KINDS = frozenset({"model_unreachable", "model_timeout", "model_missing", "model_unavailable"})


def classify_failure(error: BaseException) -> CallFailure:
    """Map an exception raised by a chat model call to a ``CallFailure``."""
    import httpx

    if isinstance(error, ModelUnavailable):
        return CallFailure("model_unavailable", str(error), False)
    if isinstance(error, httpx.TimeoutException):
        return CallFailure("model_timeout", f"the model did not answer in time ({type(error).__name__})", True)
    if isinstance(error, (httpx.ConnectError, ConnectionError)):
        return CallFailure("model_unreachable", f"cannot connect to the model server: {error}", True)
    status = _response_status(error)
    if status == 404:
        return CallFailure("model_missing", f"the model server does not have the model: {error}", False)
    if status is not None:
        return CallFailure("model_error", f"the model server answered {status}: {error}", status >= 500)
    return CallFailure("model_error", f"{type(error).__name__}: {error}", False)


def _response_status(error: BaseException) -> int | None:
    """The HTTP status an Ollama (or other HTTP) client error carries, if any."""
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and status > 0:
        return status
    response = getattr(error, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None
