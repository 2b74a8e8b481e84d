"""The state's vocabulary: task kinds, end reasons, the state's keys and small
queries over it (pools, teams, goals, who stands where).

Every other rules module reads the state through these helpers, so the
team and edition rules (D-9, section B) are decided in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.catalog.drakon import components as C
from games.engine.base import Event, State
from games.engine.i18n import _
from games.engine.rng import Rng

# Task kinds -----------------------------------------------------------------------------------

# Decisions (a seat must answer).
CHOOSE_HERO = "choose_hero"
ACTION = "action"
AFTER_ACTION = "after_action"
PLACE_DRAKON = "place_drakon"
ESCAPE = "escape"
DESTROY = "destroy"
DRAKON_MOVE = "drakon_move"
FLOAT = "float"
MIND_CONTROL = "mind_control"
ROTATE = "rotate"
STEAL_TILE = "steal_tile"
SWAP = "swap"
DRUID = "druid"
WARRIOR = "warrior"
TAKE_START = "take_start_coin"  # first edition: take a coin lying on the Start
KNIGHT_BLOCK = "knight_block"  # first edition: the Knight may prevent a coin loss

#: The decision offered to the edition's protector hero before a coin loss (D-17, B-7).
PROTECT_KIND = {"druid": DRUID, "knight": KNIGHT_BLOCK}

#: Coin losses whose coin goes onto the Start instead of the hoard (B-6 Drakon's Due).
TO_START = frozenset({"drakons_due"})

# Automatic steps.
DEAL = "deal_hands"
ENTER = "enter"
COIN_LOSS = "coin_loss"
AFTER_CHECK = "after_action_check"
OFFER_ACTION = "offer_action"
KNIGHT_TAKE = "knight_take"

# End reasons.
END_GOAL = "goal"
END_ESCAPE = "escape"
END_BLOCKED = "blocked"
END_EXHAUSTED = "exhausted"
END_TURN_LIMIT = "turn_limit"

#: The rules version from which a hero meets Drakon when its turn ends in her chamber,
#: and the no-progress guard waits until no coin can change hands (rulings 6, 20).
#: Such states record ``"rules_version"`` and ``"met"`` (the seats that met Drakon this
#: turn); a state without the key was set up under version 1 and plays as then.
RULES_END_OF_TURN = 2


def rules_version_of(state: State) -> int:
    """The rules version the match was set up under (1 when the state does not say)."""
    return state.get("rules_version", 1)


def drawn_event(state: State, seat: int, drawn: list[int]) -> Event:
    """The private ``tiles_drawn`` event; from rules version 2 it names the rooms drawn
    (the log says which chamber only its owner drew; version 1 logs stay as they were)."""
    event: Event = {"type": "tiles_drawn", "seat": seat, "tiles": drawn}
    if rules_version_of(state) >= RULES_END_OF_TURN:
        tiles = tiles_of(state)
        event["rooms"] = [tiles[tile][0] for tile in drawn]
    return event


BOOL_CHOICES = [(False, _("Off")), (True, _("On"))]


# Small helpers over the state -----------------------------------------------------------------


def edition_of(state: State) -> C.Edition:
    return C.EDITIONS[state["edition"]]


_EDITION_TILES: dict[str, list[list[str]]] = {
    key: C.tile_list(ed) for key, ed in C.EDITIONS.items()
}


def tiles_of(state: State) -> list[list[str]]:
    """The match's tile catalogue: index = tile id, ``[room, pattern]``.

    ``state["tiles"]`` is null in real games (the edition's inventory) and a
    full list only in test positions that re-pattern a tile (``build_state``).
    """
    return state["tiles"] or _EDITION_TILES[state["edition"]]


def room_at(state: State, key: str) -> str:
    return tiles_of(state)[state["board"][key][0]][0]


def rule_of(state: State, room: str) -> str:
    """The room whose rule ``room`` follows: itself, or in the first edition the later
    room it renames (Find Gold = Find a Coin, Magical Vortex = Portal, ...)."""
    return (edition_of(state).rules_as or {}).get(room, room)


def is_team(state: State) -> bool:
    return bool(state["options"].get("team_play"))


def pool_of(state: State, seat: int) -> int:
    """Index into ``state["coins"]``: the seat's own pool, or its team's (D-9)."""
    return seat % (state["n_players"] // 2) if is_team(state) else seat


def pool_seats(state: State, pool: int) -> list[int]:
    n = state["n_players"]
    return [pool, pool + n // 2] if is_team(state) else [pool]


def gold_of(state: State, seat: int) -> int:
    return sum(state["coins"][pool_of(state, seat)])


def are_enemies(state: State, a: int, b: int) -> bool:
    """Opponents: another seat, or in team play a seat of the other team (D-9)."""
    return a != b and pool_of(state, a) != pool_of(state, b)


def left_of(state: State, seat: int) -> int:
    """The left neighbour is the next seat in clockwise turn order (A-4, D-13)."""
    return (seat + 1) % state["n_players"]


def right_of(state: State, seat: int) -> int:
    return (seat - 1) % state["n_players"]


def coin_goal(state: State) -> int | None:
    """Gold that wins at once, or None in the Escape variant (A-13, A-14, D-9)."""
    options = state["options"]
    if options["escape"]:
        return None
    edition = edition_of(state)
    goal = edition.short_goal if options.get("short_game") else edition.goal
    return goal * edition.team_factor if is_team(state) else goal


def escape_goal(state: State) -> int | None:
    """Gold needed before entering an Escape or Portal room wins (A-14, D-10)."""
    if not state["options"]["escape"]:
        return None
    edition = edition_of(state)
    goal = edition.escape_goal
    return goal * edition.team_factor if is_team(state) else goal


def hero_of(state: State, seat: int) -> str | None:
    return state["hero_names"][seat]


def ability_ready(state: State, seat: int, hero: str) -> bool:
    """Whether ``seat`` plays ``hero`` with Heroes! on and has not flipped the card."""
    return (
        bool(state["options"]["heroes"])
        and state["hero_names"][seat] == hero
        and not state["abilities_used"][seat]
    )


def occupied_keys(state: State) -> set[str]:
    """Cells holding any figure: a hero or Drakon (A-7 "unoccupied")."""
    keys = set(state["heroes"])
    if state["drakon"] is not None:
        keys.add(state["drakon"])
    return keys


def heroes_at(state: State, key: str) -> list[int]:
    return [seat for seat, at in enumerate(state["heroes"]) if at == key]


def random_index(state: State, n: int) -> int:
    rng = Rng.load(state["rng"])
    index = rng.below(n)
    state["rng"] = rng.dump()
    return index


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clone(item) for item in value]
    return value


def copy_state(state: State) -> State:
    """A private copy for ``apply``: every container the rules mutate is copied.

    Board values (``[tile, rot]``) are replaced, never changed in place, so the
    board needs only a shallow copy. ``tiles`` is never changed after setup and
    is shared.
    """
    new = dict(state)
    new["options"] = dict(state["options"])
    new["board"] = dict(state["board"])
    new["stack"] = list(state["stack"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["coins"] = [list(pool) for pool in state["coins"]]
    new["hoard"] = list(state["hoard"])
    new["box"] = {"tiles": list(state["box"]["tiles"]), "coins": list(state["box"]["coins"])}
    new["heroes"] = list(state["heroes"])
    new["hero_names"] = list(state["hero_names"])
    new["abilities_used"] = list(state["abilities_used"])
    new["pending"] = [_clone(task) for task in state["pending"]]
    new["end"] = _clone(state["end"])
    if "met" in state:
        new["met"] = list(state["met"])
    if "start_coins" in state:
        new["start_coins"] = list(state["start_coins"])
    return new


def private_events(state: State, seats: Iterable[int], event: Event) -> list[Event]:
    return [dict(event, private_to=seat) for seat in seats]


def coin_value_events(state: State, seats: Iterable[int], event: Event) -> list[Event]:
    """A coin's value, told privately; nothing when all coins are alike (first edition)."""
    if len(edition_of(state).coins) == 1:
        return []
    return private_events(state, seats, event)


def is_seat(state: State, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["n_players"]


def pool_count(n_players: int, options: Mapping[str, Any]) -> int:
    return n_players // 2 if options.get("team_play") else n_players


def teams(state: State) -> list[list[int]] | None:
    if not is_team(state):
        return None
    return [pool_seats(state, pool) for pool in range(len(state["coins"]))]


def new_state(
    *,
    edition: str,
    n_players: int,
    options: dict[str, Any],
    first_seat: int,
    tiles: list[list[str]] | None,
    board: dict[str, list[int]],
    stack: list[int],
    hands: list[list[int]],
    coins: list[list[int]],
    hoard: list[int],
    heroes: list[str],
    hero_names: list[str | None],
    pending: list[dict[str, Any]],
    drakon: str | None = None,
    abilities_used: list[bool] | None = None,
    box: dict[str, list[int]] | None = None,
    active: int | None = None,
    turn: int = 0,
    start_coins: list[int] | None = None,
    rules_version: int = 1,
) -> State:
    """The one place that lists every state key (documented in docs/rules/drakon.md).

    ``start_coins`` (the coins lying on the Start) exists only in editions whose Start
    collects Drakon's Due (the first edition)."""
    state = {
        "edition": edition,
        "n_players": n_players,
        "options": dict(options),
        "first_seat": first_seat,
        "turn": turn,
        "active": active,
        "tiles": tiles,
        "board": board,
        "stack": stack,
        "hands": hands,
        "coins": coins,
        "hoard": hoard,
        "box": box or {"tiles": [], "coins": []},
        "heroes": heroes,
        "hero_names": hero_names,
        "abilities_used": abilities_used or [False] * n_players,
        "drakon": drakon,
        "pending": pending,
        "dry_since": None,
        "rng": "",
        "over": False,
        "end": None,
    }
    if start_coins is not None:
        state["start_coins"] = list(start_coins)
    if rules_version >= RULES_END_OF_TURN:  # version 1 states never had these keys
        state["rules_version"] = rules_version
        state["met"] = []
    return state
