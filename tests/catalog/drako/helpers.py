"""Small helpers shared by the Drako scenario tests (positions come from builders)."""

from __future__ import annotations

from games.catalog.drako import components as C
from games.catalog.drako.builders import card_id
from games.catalog.drako.rules import GAME, seat_of

DRAGON = C.DRAGON
DWARVES = C.DWARVES


def act(state, side, action):
    """Apply ``action`` for ``side``; returns (state, events)."""
    return GAME.apply(state, seat_of(state, side), action)


def legal(state, side):
    return GAME.legal_actions(state, seat_of(state, side))


def to_move(state):
    """The side the rules wait on now."""
    seats = GAME.current_seats(state)
    if not seats:
        return None
    return DRAGON if seats == [state["dragon_seat"]] else DWARVES


def play(side, kind, symbol, nth=0, **params):
    """A play action for the ``nth`` copy of card type ``kind``."""
    return {"type": "play", "card": card_id(side, kind, nth), "symbol": symbol, **params}


def types(events):
    return [event["type"] for event in events]
