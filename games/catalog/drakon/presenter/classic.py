"""The first edition's presenter: the later edition's, with the log's places named
from the Start, the room that edition's labyrinth grows from.

The board, the clicks and the words see the edition in the view; a log event
does not carry it, so the first edition registers this module, whose
``describe_event`` names places from the Start.
"""

from django.utils.translation import gettext_lazy

from games.catalog.drakon.presenter import *  # noqa: F403 (the whole presenter contract)
from games.catalog.drakon.presenter import __all__ as _shared
from games.catalog.drakon.presenter.log import describe_event as _describe_event

__all__ = list(_shared)

# The lobby's tile: the first edition's five coins, and what it is about.
ICON = "two-coins"
SUMMARY = gettext_lazy(
    "The first edition: walk the dragon's labyrinth and be the first hero to collect 5 gold coins."
)


def describe_event(event: dict, names: list[str]) -> str:
    return _describe_event(event, names, origin="start")
