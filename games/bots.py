"""Glue between matches and each game's pure bot (named by the game's registration).

A bot module defines ``choose(state, seat, rng, level) -> action`` for the
levels in ``LEVELS``. It may read only ``view(state, seat)`` and
``legal_actions(state, seat)``: the conformance kit changes everything the
seat must not know and checks that the choice stays the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import registry
from games.engine.base import Action, Game, State
from games.engine.rng import Rng

LEVELS = ("heuristic", "random")


def choose_best(
    game: Game,
    state: State,
    seat: int,
    rng: Rng,
    level: str,
    scorer: Callable[[dict[str, Any]], Callable[[Action], float]],
) -> Action:
    """What every game's bot does around its own judgement.

    The seat must have a legal action; ``"random"`` picks one uniformly;
    ``"heuristic"`` asks ``scorer(view)`` for a scoring function, built once
    from the seat's own view (the bot sees nothing else), and picks among the
    best-scoring actions with ``rng``. Pure: bots import this.
    """
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    if level == "random":
        return rng.choice(legal)
    if level != "heuristic":
        raise ValueError(f"unknown bot level {level!r}; choose from {LEVELS}")
    score = scorer(game.view(state, seat))
    scores = [score(action) for action in legal]
    best = max(scores)
    return rng.choice([a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9])


def bot_module(game_key: str):
    return registry.registration(game_key).bot_module()


def bot_seats_to_act(match, game, seats=None) -> list:
    """The bot-played seats the rules are waiting on now."""
    waiting = set(match.seats_to_move(game))
    if not waiting:
        return []
    seats = match.seats.all() if seats is None else seats
    return [seat for seat in seats if seat.index in waiting and seat.played_by_bot]


def choose_action(match, game, seat) -> dict:
    """Ask the game's bot for a move. Its randomness is private to the server
    (derived from the secret seed) yet repeatable for a given position."""
    rng = Rng.from_seed(f"bot:{match.seed}:{match.version}:{seat.index}")
    return bot_module(match.game_key).choose(match.state, seat.index, rng, level=seat.bot_level)
