"""Drakon: what the rollouts' speed rests on gives the same answers as before.

The bot reads the rooms from the lair's index and a part of the view
(``sight_view``), the lair is carried over a state's copy and grown by a
placed room (``share_lair``, ``Lair.with_room``), and the lair keeps what the
rules work out from it (the frontier, the placements per pattern, where a
hero can walk). Along bot games of both editions, every one of them is
compared at every position with what is built from scratch.
"""

from __future__ import annotations

import pytest

from games.catalog.drakon import bot
from games.catalog.drakon.rules import GAME, GAME_CLASSIC, Lair, lair_of
from games.catalog.drakon.rules.lair import DISTINCT, key_of
from games.catalog.drakon.rules.state import ability_ready, tiles_of
from games.catalog.drakon.rules.targets import move_targets, reachable_rooms
from games.catalog.drakon.rules.view import SIGHT_HERO_KEYS, SIGHT_KEYS, SIGHT_ME_KEYS, sight_view
from games.engine.rng import Rng


def _positions(game, games=5):
    """Every position of bot games (a random move in four), played with ``apply_legal``
    as in the rollouts; player counts and options spread over the game's matrix."""
    setups = [
        (players, options)
        for players in range(game.min_players, game.max_players + 1)
        for options in game.option_matrix(players)
    ]
    for index in range(games):
        players, options = setups[(index * 7) % len(setups)]
        state = game.setup(players, options, f"drakon-speed-{game.key}-{index}")
        rng = Rng.from_seed(f"drakon-speed-{index}")
        while game.current_seats(state):
            seat = game.current_seats(state)[0]
            yield state, seat
            level = "random" if rng.below(4) == 0 else "heuristic"
            state, _events = game.apply_legal(state, seat, bot.choose(state, seat, rng, level))


def _old_place_actions(state, seat):
    """A-5's listing as it was: every tile, every frontier cell, every legal rotation."""
    lair = Lair(state)
    cells = [(key_of(cell), forbidden) for cell, forbidden in sorted(lair.frontier().items())]
    tiles = tiles_of(state)
    return [
        {"type": "place", "tile": tile, "at": at, "rot": r}
        for tile in state["hands"][seat]
        for at, forbidden in cells
        for r, mask in DISTINCT[tiles[tile][1]]
        if not mask & forbidden
    ]


def _old_reachable(state, lair, seat, start):
    probe = dict(state)
    heroes = list(state["heroes"])
    probe["heroes"] = heroes
    seen = {(tuple(map(int, start.split(","))), ability_ready(state, seat, "sorceress"))}
    todo = list(seen)
    while todo:
        pos, power = todo.pop()
        heroes[seat] = key_of(pos)
        nexts = [(cell, power) for cell in move_targets(probe, lair, seat)]
        if power:
            nexts += [(cell, False) for cell in move_targets(probe, lair, seat, power=True)]
        for item in nexts:
            if item not in seen:
                seen.add(item)
                todo.append(item)
    return {pos for pos, _power in seen}


@pytest.mark.parametrize("game", [GAME, GAME_CLASSIC], ids=lambda game: game.key)
def test_the_kept_lair_equals_a_fresh_one_at_every_position(game):
    checked = 0
    for state, seat in _positions(game):
        kept, fresh = lair_of(state), Lair(state)
        assert kept.kind == fresh.kind and kept.mask == fresh.mask
        assert kept.frontier() == fresh.frontier()
        if state["pending"][-1]["kind"] == "action":
            legal = game.legal_actions(state, seat)
            assert [a for a in legal if a["type"] == "place"] == _old_place_actions(state, seat)
        for other in range(state["n_players"]):
            start = state["heroes"][other]
            assert reachable_rooms(state, kept, other, start) == _old_reachable(
                state, fresh, other, start
            )
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("game", [GAME, GAME_CLASSIC], ids=lambda game: game.key)
def test_the_bots_sight_equals_the_one_built_from_the_whole_view(game):
    compared = 0
    for state, seat in _positions(game, games=4):
        view = game.view(state, seat)
        part, lair = sight_view(game, state, seat)
        for key in SIGHT_KEYS:
            if key != "heroes":
                assert part[key] == view[key], key
        for mine, whole in zip(part["heroes"], view["heroes"], strict=True):
            assert mine == {key: whole[key] for key in SIGHT_HERO_KEYS}
        assert part["me"] == {key: view["me"][key] for key in SIGHT_ME_KEYS}
        fast, slow = bot.sight_of(game, state, seat), bot.Sight(view)
        assert fast.kind == slow.kind and fast.mask == slow.mask
        assert (fast.heroes, fast.pools, fast.drakon, fast.hand) == (
            slow.heroes,
            slow.pools,
            slow.drakon,
            slow.hand,
        )
        assert (fast.reach_me, fast.reach_enemies) == (slow.reach_me, slow.reach_enemies)
        legal = game.legal_actions(state, seat)
        assert fast.scores(legal) == [slow.score(action) for action in legal]
        compared += len(legal)
    assert compared > 10_000
