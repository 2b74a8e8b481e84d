"""What a seat may see of the state (its secrets and nobody else's)."""

from __future__ import annotations

from typing import Any

from games.catalog.drakon.rules.lair import ENTRANCE_KEY, MASKS, Lair, arrows_of, lair_of, xy
from games.catalog.drakon.rules.legal import LEGAL
from games.catalog.drakon.rules.state import (
    CHOOSE_HERO,
    DRUID,
    KNIGHT_BLOCK,
    WARRIOR,
    coin_goal,
    edition_of,
    escape_goal,
    is_seat,
    pool_of,
    teams,
    tiles_of,
)
from games.engine.base import Game, State

# View -----------------------------------------------------------------------------------------


def board_view(state: State) -> list[dict[str, Any]]:
    """Every room in play, west to east then south to north, ready to draw."""
    rooms = []
    for key in sorted(state["board"], key=xy):
        tile, rot = state["board"][key]
        room, pattern = tiles_of(state)[tile]
        x, y = xy(key)
        rooms.append(
            {
                "at": key,
                "x": x,
                "y": y,
                "tile": tile,
                "room": room,
                "pattern": pattern,
                "rot": rot,
                "arrows": arrows_of(MASKS[pattern][rot]),
            }
        )
    return rooms


def tile_view(state: State, tile: int) -> dict[str, Any]:
    room, pattern = tiles_of(state)[tile]
    return {"tile": tile, "room": room, "pattern": pattern}


def pending_view(state: State, viewer: int | None) -> dict[str, Any] | None:
    """The decision being waited for, with its public details (D: every choice is a decision)."""
    if state["over"] or not state["pending"]:
        return None
    task = state["pending"][-1]
    out: dict[str, Any] = {"kind": task["kind"], "seat": task["seat"]}
    for field in ("at", "cause", "by"):
        if field in task:
            out[field] = task[field]
    if task["kind"] == CHOOSE_HERO:
        out["available"] = [action["hero"] for action in LEGAL[CHOOSE_HERO](state, task)]
    if task["kind"] == WARRIOR:
        out["chosen_count"] = len(task["chosen"])
        if viewer == task["seat"]:
            out["chosen"] = [tile_view(state, tile) for tile in task["chosen"]]
    if task["kind"] in (DRUID, KNIGHT_BLOCK):
        out["victim"] = task["seat"]
    return out


def build_view(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = spectator).

    Public: the lair, every figure, hand and coin counts, pile and hoard
    sizes, abilities used, the decision awaited. Own secrets: the seat's hand
    and the values of its coins (the team pool in team play). Never shown:
    the pile order, the hoard's values, other hands, the PRNG. Once over,
    every player's coins are revealed (A-13).
    """
    n = state["n_players"]
    viewer = seat if is_seat(state, seat) else None
    heroes = [
        {
            "seat": s,
            "hero": state["hero_names"][s],
            "at": state["heroes"][s],
            "ability_used": state["abilities_used"][s],
            "pool": pool_of(state, s),
            "coins": len(state["coins"][pool_of(state, s)]),
            "tiles": len(state["hands"][s]),
        }
        for s in range(n)
    ]
    view: dict[str, Any] = {
        "game": game.key,
        "edition": state["edition"],
        "n_players": n,
        "options": dict(state["options"]),
        "viewer": viewer,
        "first_seat": state["first_seat"],
        "turn": state["turn"],
        "active": state["active"],
        "to_act": game.current_seats(state),
        "board": board_view(state),
        "entrance": ENTRANCE_KEY,
        "drakon": state["drakon"],
        "heroes": heroes,
        "hands": [len(hand) for hand in state["hands"]],
        "coins": [len(state["coins"][pool_of(state, s)]) for s in range(n)],
        "teams": teams(state),
        "stack": len(state["stack"]),
        "hoard": len(state["hoard"]),
        "start_coins": len(state["start_coins"]) if "start_coins" in state else None,
        "goal": {
            "gold": coin_goal(state),
            "escape_gold": escape_goal(state),
            "escape_rooms": sorted(edition_of(state).escape_rooms)
            if state["options"]["escape"]
            else [],
        },
        "pending": pending_view(state, viewer),
        "over": state["over"],
        "me": None,
    }
    if viewer is not None:
        values = sorted(state["coins"][pool_of(state, viewer)])
        view["me"] = {
            "seat": viewer,
            "hero": state["hero_names"][viewer],
            "hand": [tile_view(state, tile) for tile in state["hands"][viewer]],
            "coins": values,
            "gold": sum(values),
        }
    if state["over"]:
        view["result"] = game.result(state).to_json()
        view["revealed"] = {"coins": [sorted(state["coins"][pool_of(state, s)]) for s in range(n)]}
    return view


#: The keys of a seat's view that ``sight_view`` builds (the bot reads no other).
SIGHT_KEYS = ("n_players", "drakon", "heroes", "hands", "coins", "hoard", "start_coins", "goal")
#: The keys of a hero's entry there, and of ``"me"`` (the seat's own).
SIGHT_HERO_KEYS = ("at", "pool")
SIGHT_ME_KEYS = ("seat", "hand", "gold")


def sight_view(game: Game, state: State, seat: int) -> tuple[dict[str, Any], Lair]:
    """What the bot reads: part of ``seat``'s view (``SIGHT_KEYS``, each hero's
    ``SIGHT_HERO_KEYS`` and the seat's ``SIGHT_ME_KEYS``, every value as
    ``build_view`` has it), and the lair's index of the rooms of the view's
    ``"board"`` (every room's kind and arrows by cell: public).

    The same knowledge as the view, built faster: no dictionary per room and
    nothing the bot does not read, at every decision of every rollout (the lair
    is kept per board). ``tests/catalog/drakon/test_drakon_bot.py`` compares
    the two."""
    n = state["n_players"]
    pools = [pool_of(state, s) for s in range(n)]
    coins = state["coins"]
    values = coins[pools[seat]]
    options = state["options"]
    view = {
        "n_players": n,
        "drakon": state["drakon"],
        "heroes": [
            {"at": at, "pool": pool} for at, pool in zip(state["heroes"], pools, strict=True)
        ],
        "hands": [len(hand) for hand in state["hands"]],
        "coins": [len(coins[pool]) for pool in pools],
        "hoard": len(state["hoard"]),
        "start_coins": len(state["start_coins"]) if "start_coins" in state else None,
        "goal": {
            "gold": coin_goal(state),
            "escape_gold": escape_goal(state),
            "escape_rooms": sorted(edition_of(state).escape_rooms) if options["escape"] else [],
        },
        "me": {
            "seat": seat,
            "hand": [tile_view(state, tile) for tile in state["hands"][seat]],
            "gold": sum(values),
        },
    }
    return view, lair_of(state)
