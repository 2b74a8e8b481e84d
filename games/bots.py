"""Glue between matches and each game's pure bot (named by the game's registration).

A bot module defines ``choose(state, seat, rng, level) -> action`` for the
levels in ``LEVELS``. It may read only ``view(state, seat)`` and
``legal_actions(state, seat)``: the conformance kit changes everything the
seat must not know and checks that the choice stays the same.
"""

from __future__ import annotations

from games.engine import registry
from games.engine.rng import Rng

LEVELS = ("heuristic", "random")


def bot_module(game_key: str):
    return registry.registration(game_key).bot_module()


def bot_seats_to_act(match, game, seats=None) -> list:
    """The bot-played seats the rules are waiting on now."""
    waiting = set(game.current_seats(match.state))
    if not waiting:
        return []
    seats = match.seats.all() if seats is None else seats
    return [seat for seat in seats if seat.index in waiting and seat.played_by_bot]


def choose_action(match, game, seat) -> dict:
    """Ask the game's bot for a move. Its randomness is private to the server
    (derived from the secret seed) yet repeatable for a given position."""
    rng = Rng.from_seed(f"bot:{match.seed}:{match.version}:{seat.index}")
    return bot_module(match.game_key).choose(match.state, seat.index, rng, level=seat.bot_level)
