"""What the two Drakon editions' property tests share (``tests/catalog/drakon/
test_drakon_properties.py`` and ``tests/catalog/drakon_classic/
test_classic_properties.py``): type-first play through the lair, and games
with a bot in every seat. Each edition's test file keeps only what differs:
its options, its decision kinds, its endings and its game counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.catalog.drakon.bot import choose
from games.engine.base import Game, resolve_options
from games.engine.testing import play_random_game


def type_first(state, seat, legal, rng):
    """Pick an action type uniformly, then an action of that type.

    Uniform random play mostly places tiles (hundreds of placements against a
    handful of moves); picking the type first walks the lair, enters every
    kind of room and uses the heroes."""
    kinds = sorted({action["type"] for action in legal})
    kind = kinds[rng.below(len(kinds))]
    choices = [action for action in legal if action["type"] == kind]
    return choices[rng.below(len(choices))]


@dataclass
class Walk:
    """What type-first games met: decisions on top of the stack by kind, the
    heroes' abilities used, and how the games ended."""

    decisions: Counter = field(default_factory=Counter)
    abilities: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)


def walk_the_lair(
    game: Game, configurations: list, games: int, prefix: str, thorough_every: int = 20
) -> Walk:
    """Play ``games`` type-first games through the harness, cycling through
    ``configurations`` (player count, options); each ends, or the harness fails."""
    walk = Walk()

    def chooser(state, seat, legal, rng):
        walk.decisions[state["pending"][-1]["kind"]] += 1
        action = type_first(state, seat, legal, rng)
        if action["type"] in ("ability", "protect") or action.get("power"):
            walk.abilities[action.get("hero", state["hero_names"][seat])] += 1
        return action

    for i in range(games):
        n_players, options = configurations[i % len(configurations)]
        run = play_random_game(
            game,
            n_players,
            resolve_options(game, options),
            f"{prefix}-{i}",
            thorough=(i % thorough_every == 0),
            chooser=chooser,
        )
        walk.endings[run.final["end"]["reason"]] += 1
    return walk


def bot_games(game: Game, level: str, configurations: list, games: int, prefix: str) -> Counter:
    """``games`` games with the bot of ``level`` in every seat, checked by the
    harness as they go (every tenth thoroughly), each choice legal and each game
    finished with a result. Returns the endings by reason."""

    def chooser(state, seat, legal, rng):
        action = choose(state, seat, rng, level)
        assert action in legal
        return action

    endings = Counter()
    for i in range(games):
        n_players, options = configurations[i % len(configurations)]
        run = play_random_game(
            game,
            n_players,
            resolve_options(game, options),
            f"{prefix}-{level}-{i}",
            thorough=(i % 10 == 0),
            chooser=chooser,
        )
        assert run.final["over"] and game.result(run.final) is not None
        endings[run.final["end"]["reason"]] += 1
    return endings
