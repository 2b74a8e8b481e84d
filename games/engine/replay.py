"""Rebuild a state from its seed and move log: the basis of fair-play checks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.base import Action, Game, State


def replay(
    game: Game,
    n_players: int,
    options: dict[str, Any],
    seed: str,
    moves: Iterable[tuple[int, Action]],
) -> State:
    """Set the game up from ``seed`` and apply every ``(seat, action)`` in order.

    Raises ``IllegalAction`` if the log holds a move the rules refuse, which
    means the log does not belong to this seed, options or rules version.
    """
    state = game.setup(n_players, options, seed)
    for seat, action in moves:
        state, _events = game.apply(state, seat, action)
    return state
