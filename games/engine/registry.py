"""Where games are found by key.

Each catalog package registers its game object in ``rules.py``; the list of
catalog modules below is the one place a new game is switched on.
"""

from __future__ import annotations

import importlib

from games.engine.base import Game

CATALOG_MODULES = [
    "games.catalog.drakon.rules",
    "games.catalog.nogi.rules",
]

_games: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.key in _games and _games[game.key] is not game:
        raise ValueError(f"A game is already registered as {game.key!r}.")
    _games[game.key] = game
    return game


def _load() -> None:
    for module in CATALOG_MODULES:
        importlib.import_module(module)


def get(key: str) -> Game:
    _load()
    try:
        return _games[key]
    except KeyError:
        raise KeyError(f"No game is registered as {key!r}.") from None


def all() -> list[Game]:  # noqa: A001 - the contract's name
    _load()
    return [_games[key] for key in sorted(_games)]
