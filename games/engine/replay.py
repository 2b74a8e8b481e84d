"""Rebuild a state from its seed and move log: the basis of fair-play checks.

Besides the players' actions the log may hold moderators' entries, whose
action type is ``"_moderation"``. They change nothing in the game except an
undo (``{"type": "_moderation", "op": "undo", "count": N}``), which takes
back the last N game actions still in effect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.base import Action, Game, State

MODERATION = "_moderation"


def is_moderation(action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") == MODERATION


def effective_moves(moves: Iterable[tuple[int | None, Action]]) -> list[tuple[int, Action]]:
    """The game actions in effect after moderators' undos, in order."""
    effective: list[tuple[int, Action]] = []
    for seat, action in moves:
        if not is_moderation(action):
            effective.append((seat, action))
        elif action.get("op") == "undo":
            count = int(action["count"])
            del effective[len(effective) - count :]
    return effective


def replay(
    game: Game,
    n_players: int,
    options: dict[str, Any],
    seed: str,
    moves: Iterable[tuple[int | None, Action]],
) -> State:
    """Set the game up from ``seed`` and apply every action in effect, in order.

    Raises ``IllegalAction`` if the log holds a move the rules refuse, which
    means the log does not belong to this seed, options or rules version.
    """
    state = game.setup(n_players, options, seed)
    for seat, action in effective_moves(moves):
        state, _events = game.apply(state, seat, action)
    return state
