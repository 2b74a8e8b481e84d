"""What the conformance kit needs to know about the registered games.

Every test in ``tests/conformance`` is parametrised over ``GAME_KEYS``: every
game registered with ``games.engine.registry`` (the catalog packages, and the
test suite's own Hatchlings). A new game gets the whole kit by registering.
"""

from __future__ import annotations

import pytest

from games.engine import bots, registry
from games.engine.base import Game
from games.engine.rng import Rng
from games.engine.search import Budget

GAME_KEYS = [entry.key for entry in registry.registrations()]

#: Kit checks a registered game does not pass yet, each with its reason. They
#: are strict expected failures: once the game is put right the check passes,
#: the run fails on the unexpected pass, and the entry must be removed here.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


def keys_for(check: str) -> list:
    """``GAME_KEYS`` as pytest parameters, with the known gaps of ``check`` marked."""
    return [
        pytest.param(key, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[key, check]))
        if (key, check) in KNOWN_GAPS
        else key
        for key in GAME_KEYS
    ]


def setups(game: Game) -> list[tuple[int, dict]]:
    """Every (player count, options) the game can be played with."""
    return [
        (n, options)
        for n in range(game.min_players, game.max_players + 1)
        for options in game.option_matrix(n)
    ]


def spread(game: Game, count: int) -> list[tuple[int, dict]]:
    """``count`` setups spread over the player counts and the option matrix."""
    every = setups(game)
    return [
        every[(i * 7919) % len(every)] if len(every) > count else every[i % len(every)]
        for i in range(count)
    ]


#: The strong level's budget in the kit: a few iterations, no wall-time cap (so
#: the choice is the same on a slow machine).
KIT_BUDGET = Budget(iterations=4, seconds=None)


def bot_choice(key: str, state: dict, seat: int, level: str, salt: str) -> dict:
    """The game's bot's choice, with the randomness the site gives it."""
    return bots.choose(key, state, seat, Rng.from_seed(f"kit:{salt}"), level, KIT_BUDGET)
