"""The API's refusals: JSON with a stable ``code`` and a ``message`` in the
token owner's language (the services' own translated messages)."""

from __future__ import annotations

from core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    StaleVersion,
    TimeRanOut,
    TooFast,
)


class ApiError(Exception):
    """A refusal the API itself makes (authentication, scopes, limits, input)."""

    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


# Most specific first: the first class an error is an instance of names its code.
CODES = [
    (StaleVersion, "stale_version"),
    (TimeRanOut, "deadline_passed"),
    (Conflict, "conflict"),
    (Forbidden, "forbidden"),
    (NotFound, "not_found"),
    (TooFast, "rate_limited"),
    (ServiceError, "refused"),
]


def code_of(error: ServiceError) -> str:
    for cls, code in CODES:
        if isinstance(error, cls):
            return code
    return "refused"  # pragma: no cover - ServiceError is last


def body(code: str, message: str, **extra) -> dict:
    return {"error": {"code": code, "message": str(message), **extra}}
