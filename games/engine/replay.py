"""Rebuild a state from its seed and move log: the basis of fair-play checks.

Besides the players' actions the log holds entries whose action type starts
with an underscore. ``"_opening"`` (seq 0) records what ``setup`` did by
itself (the first deal or roll, from ``Game.opening_events``); it changes
nothing on replay. Moderators' entries (``"_moderation"``) change nothing
either, except an undo (``{"type": "_moderation", "op": "undo", "count": N}``),
which takes back the last N game actions still in effect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.base import Action, Game, State

MODERATION = "_moderation"
OPENING = "_opening"


def is_moderation(action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") == MODERATION


def is_opening(action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") == OPENING


def effective_moves(moves: Iterable[tuple[int | None, Action]]) -> list[tuple[int, Action]]:
    """The game actions in effect after moderators' undos, in order."""
    effective: list[tuple[int, Action]] = []
    for seat, action in moves:
        if is_opening(action):
            continue
        if not is_moderation(action):
            effective.append((seat, action))
        elif action.get("op") in ("undo", "agreed_undo"):
            count = int(action["count"])
            del effective[len(effective) - count :]
    return effective


def replay(
    game: Game,
    n_players: int,
    options: dict[str, Any],
    seed: str,
    moves: Iterable[tuple[int | None, Action]],
    rules_version: int | None = None,
) -> State:
    """Set the game up from ``seed`` and apply every action in effect, in order.

    ``rules_version`` is the match's (default: the game's current one).
    Raises ``IllegalAction`` if the log holds a move the rules refuse, which
    means the log does not belong to this seed, options or rules version.
    """
    version = game.rules_version if rules_version is None else rules_version
    state = game.setup_for(version, n_players, options, seed)
    for seat, action in effective_moves(moves):
        state, _events = game.apply(state, seat, action)
    return state
