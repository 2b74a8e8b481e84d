"""Conservation and consistency checks run after every step of the random games."""

from __future__ import annotations

from games.catalog.drakon import components as C
from games.catalog.drakon.rules.lair import BACK, ENTRANCE_KEY, key_of, lair_of, xy
from games.catalog.drakon.rules.legal import LEGAL
from games.catalog.drakon.rules.stack import AUTO
from games.catalog.drakon.rules.state import edition_of, is_seat, pool_count, tiles_of
from games.engine.base import State

# Invariants -----------------------------------------------------------------------------------

_COIN_LISTS: dict[str, list[int]] = {}


def _coin_list(edition: str) -> list[int]:
    if edition not in _COIN_LISTS:
        _COIN_LISTS[edition] = C.coin_list(C.EDITIONS[edition])
    return _COIN_LISTS[edition]


def check_invariants(state: State) -> None:
    """Conservation and consistency; the random-game harness calls this after every step."""
    edition = edition_of(state)
    n = state["n_players"]
    tiles = tiles_of(state)
    assert len(tiles) == sum(count for _room, _pattern, count in edition.tiles), (
        "tile catalogue size"
    )
    assert tiles[0][0] == edition.start_room, "tile 0 must be the Entrance"
    everywhere = [tile for tile, _rot in state["board"].values()]
    everywhere += state["stack"] + state["box"]["tiles"]
    for hand in state["hands"]:
        everywhere += hand
    assert sorted(everywhere) == list(range(len(tiles))), "every tile is in exactly one place"
    coins = list(state["hoard"]) + list(state["box"]["coins"])
    assert ("start_coins" in state) == edition.start_collects, "coins on the Start per edition"
    coins += state.get("start_coins", [])
    for pool in state["coins"]:
        coins += pool
    assert sorted(coins) == _coin_list(edition.key), "every coin is in exactly one place"
    assert state["board"].get(ENTRANCE_KEY, [None])[0] == 0, "the Entrance stays at 0,0"
    for key, (_tile, rot) in state["board"].items():
        assert key == key_of(xy(key)) and rot in (0, 1, 2, 3), f"bad board entry {key}"
    lair = lair_of(state)
    for (x, y), mask in lair.mask.items():
        for bit, other_pos in ((1, (x, y + 1)), (2, (x + 1, y))):
            other = lair.mask.get(other_pos)
            assert not (other is not None and mask & bit and other & BACK[bit]), (
                f"arrows meet between {x},{y} and {other_pos}"
            )
    assert len(state["heroes"]) == n and all(at in state["board"] for at in state["heroes"])
    assert state["drakon"] is None or state["drakon"] in state["board"], "Drakon off the lair"
    assert len(state["coins"]) == pool_count(n, state["options"])
    assert len(state["hands"]) == n and len(state["abilities_used"]) == n
    if not state["options"]["heroes"]:
        assert not any(state["abilities_used"]), "an ability was used without Heroes!"
    names = [name for name in state["hero_names"] if name is not None]
    assert len(names) == len(set(names)) and set(names) <= set(edition.heroes)
    if state["turn"] > 0:
        assert len(names) == n, "every seat has a hero once play starts"
    if state["over"]:
        assert state["pending"] == [] and state["active"] is None and state["end"] is not None
    else:
        assert state["end"] is None and state["pending"], "a running game waits for a decision"
        top = state["pending"][-1]
        assert is_seat(state, top.get("seat")), "the top task is a decision for a seat"
        for task in state["pending"]:
            assert task["kind"] in LEGAL or task["kind"] in AUTO, f"unknown task {task['kind']}"
