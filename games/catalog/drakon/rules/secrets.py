"""What a seat must not know, changed on purpose (``DrakonGame.perturb_secrets``).

The conformance kit serves every page, fragment, log and email to a seat,
changes these secrets, and checks that nothing served changed. Secrets of
Drakon: the pile's order and contents, other seats' hands, the values of
coins in other pools and in the hoard, and the PRNG. Counts are public and
stay. A seat's own hand, and in team play its team's coins, stay.

The change is generous rather than exact: a tile or coin the seat saw pass
(one it lost to a thief, a chamber destroyed under the pile) is reshuffled
too. No page may depend on it through the state, so the test is only
stricter for it.
"""

from __future__ import annotations

from typing import Any

from games.catalog.drakon.rules.state import (
    WARRIOR,
    coin_goal,
    copy_state,
    is_seat,
    pool_of,
)
from games.engine.base import State
from games.engine.rng import Rng

#: How many reshuffles to try for coin values that keep every hidden pool under the goal.
COIN_ATTEMPTS = 50


def perturb_secrets(state: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``state`` with everything ``seat`` (None: a spectator) must not know changed."""
    return _redeal(state, seat, rng, canonical=False)


def sample_secrets(state: State, seat: int, rng: Rng) -> State:
    """A guess at what ``seat`` cannot see, for the search bot (``Game.sample_secrets``).

    As ``perturb_secrets``, but every hidden pool is sorted before it is
    shuffled, so the sample depends only on what the seat may know and ``rng``.
    """
    return _redeal(state, seat, rng, canonical=True)


def _redeal(state: State, seat: int | None, rng: Rng, *, canonical: bool) -> State:
    order = sorted if canonical else list
    new = copy_state(state)
    viewer = seat if is_seat(state, seat) else None
    _reshuffle_tiles(new, viewer, rng, order)
    if not state["over"]:  # at the end every pool is revealed; the hoard then is too
        _reshuffle_coins(new, viewer, rng, order)
    new["hoard"] = rng.shuffled(order(new["hoard"]))
    new["rng"] = Rng.from_seed(f"{rng.next64():016x}").dump()
    return new


def _reshuffle_tiles(state: State, viewer: int | None, rng: Rng, order=list) -> None:
    """Deal other seats' hands and the pile anew from the same tiles, keeping every count.

    A Warrior choosing tiles to put under the pile keeps the tiles chosen so
    far (the pending decision names them), whoever looks.
    """
    kept: dict[int, list[int]] = {}
    for task in state["pending"]:
        if task["kind"] == WARRIOR and task["seat"] != viewer:
            kept[task["seat"]] = list(task["chosen"])
    others = [s for s in range(state["n_players"]) if s != viewer]
    loose = list(state["stack"])
    for other in others:
        loose += [tile for tile in state["hands"][other] if tile not in kept.get(other, [])]
    loose = rng.shuffled(order(loose))
    for other in others:
        fixed = kept.get(other, [])
        n_free = len(state["hands"][other]) - len(fixed)
        state["hands"][other] = fixed + loose[:n_free]
        del loose[:n_free]
    state["stack"] = loose


def _reshuffle_coins(state: State, viewer: int | None, rng: Rng, order=list) -> None:
    """Give the hidden pools and the hoard other values, each pool keeping its coin count.

    A hidden pool never reaches the goal (that would have ended the game);
    if no reshuffle keeps them all under it, the values stay as they were.
    """
    mine = None if viewer is None else pool_of(state, viewer)
    hidden = [pool for pool in range(len(state["coins"])) if pool != mine]
    values: list[Any] = list(state["hoard"])
    for pool in hidden:
        values += state["coins"][pool]
    goal = coin_goal(state)
    for _attempt in range(COIN_ATTEMPTS):
        shuffled = rng.shuffled(order(values))
        pools, rest = {}, shuffled
        for pool in hidden:
            count = len(state["coins"][pool])
            pools[pool], rest = rest[:count], rest[count:]
        if goal is None or all(sum(coins) < goal for coins in pools.values()):
            for pool, coins in pools.items():
                state["coins"][pool] = coins
            state["hoard"] = rest
            return
