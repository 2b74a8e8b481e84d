"""Refusals a write can answer with, shared by every service and view.

A view turns one into a page or a fragment with ``status`` and ``message``;
they live apart from the services so that chat, moderation and the accounts
app can refuse the same way without importing the move path.
"""

from django.utils.translation import gettext as _


class ServiceError(Exception):
    """A refused request. ``status`` is the HTTP status a view answers with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    """No such thing, or nothing this person may see (private matches are
    not admitted to exist)."""

    status = 404


class Conflict(ServiceError):
    status = 409


class StaleVersion(Conflict):
    """The player acted on a position that is no longer current."""


class TimeRanOut(Conflict):
    """A player's move arrived after the turn's deadline: the clock's rule
    applies first, whether or not the sweep has run yet."""

    def __init__(self):
        super().__init__(
            _(
                "The deadline had passed before this move arrived, so the match's timeout "
                "rule was applied first. Here is the current position."
            )
        )


class TooFast(ServiceError):
    """A rate limit was reached (see games/limits.py)."""

    status = 429
