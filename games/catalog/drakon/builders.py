"""Positions for tests and examples, in the spec's E notation (``build_state``).

The public way to write a Drakon scenario: rooms, figures, hands, pile and
coins by name; every tile and coin not given goes to the pile, the hoard or
the box, and the result passes the game's invariants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from games.catalog.drakon import components as C
from games.catalog.drakon.rules.game import GAMES_BY_EDITION
from games.catalog.drakon.rules.invariants import check_invariants
from games.catalog.drakon.rules.lair import ENTRANCE_KEY, MASKS, key_of, mask_of
from games.catalog.drakon.rules.stack import run_tasks
from games.catalog.drakon.rules.state import ACTION, copy_state, new_state, pool_count
from games.engine.base import Event, State, resolve_options
from games.engine.rng import Rng

_SPEC_RE = re.compile(r"\s*([a-z_]+)\s*(?:\{([NESW,\s]*)\}|(A[0-4][sc]?))?\s*")


def pattern_for(mask: int) -> tuple[str, int]:
    """The arrow pattern and smallest rotation showing exactly ``mask``."""
    for pattern, masks in MASKS.items():
        for r, value in enumerate(masks):
            if value == mask:
                return pattern, r
    raise ValueError(f"no pattern shows arrows {mask}")


def parse_spec(spec: str | tuple) -> tuple[str, str | None, int | None]:
    """``"find_coin {N,E}"`` -> (room, pattern, rot); ``"find_coin A2c"`` / ``"find_coin"``
    -> (room, pattern or None, None). A tuple ``(room, "NE")`` means arrows."""
    if isinstance(spec, tuple):
        room, arrows = spec
        pattern, rot = pattern_for(mask_of(arrows))
        return room, pattern, rot
    match = _SPEC_RE.fullmatch(spec)
    if not match:
        raise ValueError(f"bad tile spec {spec!r}")
    room, arrows, pattern = match.groups()
    if arrows is not None:
        letters = [part.strip() for part in arrows.split(",") if part.strip()]
        found, rot = pattern_for(mask_of(letters))
        return room, found, rot
    return room, pattern, None


class _TileBox:
    """Hands out unused tile ids of a catalogue; re-patterns a spare tile when needed."""

    def __init__(self, tiles: list[list[str]]):
        self.tiles = tiles
        self.free = list(range(1, len(tiles)))

    def take(self, room: str, pattern: str | None) -> int:
        same_room = [tile for tile in self.free if self.tiles[tile][0] == room]
        if not same_room:
            raise ValueError(f"no unused {room} tile left")
        exact = [tile for tile in same_room if pattern is None or self.tiles[tile][1] == pattern]
        tile = exact[0] if exact else same_room[0]
        if pattern is not None:
            self.tiles[tile] = [room, pattern]
        self.free.remove(tile)
        return tile


def _take_coins(supply: list[int], values: Iterable[int]) -> list[int]:
    taken = []
    for value in values:
        if value not in supply:
            raise ValueError(f"no coin worth {value} left")
        supply.remove(value)
        taken.append(value)
    return taken


def build_state(
    n_players: int = 2,
    *,
    rooms: Mapping[Any, Any] | None = None,
    heroes: list[Any] | None = None,
    hero_names: list[str] | None = None,
    drakon: Any = None,
    hands: list[list[Any]] | None = None,
    stack: list[Any] | None = None,
    coins: list[list[int]] | None = None,
    hoard: list[int] | None = None,
    options: dict[str, Any] | None = None,
    active: int = 0,
    first_seat: int = 0,
    turn: int = 1,
    abilities_used: list[bool] | None = None,
    decision: bool = True,
    seed: str = "drakon-test",
    edition: str = "4e",
    start_coins: int = 0,
    rules_version: int | None = None,
) -> State:
    """Build any position for tests, in the spec's E notation.

    - ``rooms``: ``{(x, y) or "x,y": "find_coin {N,E}"}`` (arrows in the
      current rotation) or ``("find_coin", "NE")``. The Entrance is at 0,0 as
      ``{W,N,E}`` unless ``rooms`` gives it other arrows. Tiles come from the
      edition's inventory; if it has no tile of that room with that arrow
      pattern (E-30's Lose a Coin {E}), a spare tile of the room is re-patterned
      in this state's own catalogue.
    - ``hands`` / ``stack``: tile specs ``"empty A1"`` or ``"find_coin"`` (any
      pattern); ``stack`` is top first. ``stack=None`` puts every unused tile
      in the pile (in id order); otherwise unused tiles go to ``box`` (out of
      play), as do coins not given in ``coins`` / ``hoard``.
    - ``coins``: per pool (seat, or team in team play) the coin values;
      ``hoard=None`` puts every other coin in the hoard.
    - ``heroes``: per seat a cell (default the Entrance); ``hero_names``
      default to the edition's heroes in seat order; ``drakon`` a cell or None.
    - ``decision``: put ``active``'s action decision on the stack (no
      turn-start checks). With ``decision=False`` the stack is empty; call
      ``start_next_turn`` to run the turn start of the seat after ``active``.
    - ``rules_version``: the game's current one unless given (1 builds a
      position of a match created before the end-of-turn encounter, ruling 20).
    """
    ed = C.EDITIONS[edition]
    game = GAMES_BY_EDITION[edition]
    resolved = resolve_options(game, options or {})
    tiles = C.tile_list(ed)
    box = _TileBox(tiles)
    board: dict[str, list[int]] = {ENTRANCE_KEY: [0, 0]}
    for where, spec in (rooms or {}).items():
        key = where if isinstance(where, str) else key_of(tuple(where))
        room, pattern, rot = parse_spec(spec)
        if rot is None:
            raise ValueError(f"give the arrows of the room at {key}: {spec!r}")
        if key == ENTRANCE_KEY:
            if room != ed.start_room:
                raise ValueError("0,0 holds the Entrance")
            tiles[0] = [room, pattern]
            board[key] = [0, rot]
            continue
        board[key] = [box.take(room, pattern), rot]
    hand_ids = [[box.take(*parse_spec(spec)[:2]) for spec in hand] for hand in (hands or [])]
    hand_ids += [[] for _ in range(n_players - len(hand_ids))]
    if stack is None:
        stack_ids = list(box.free)
        box.free = []
    else:
        stack_ids = [box.take(*parse_spec(spec)[:2]) for spec in stack]
    supply = C.coin_list(ed)
    n_pools = pool_count(n_players, resolved)
    pools = [_take_coins(supply, values) for values in (coins or [])]
    on_start = _take_coins(supply, [1] * start_coins) if ed.start_collects else None
    pools += [[] for _ in range(n_pools - len(pools))]
    hoard_values = list(supply) if hoard is None else _take_coins(supply, hoard)
    if hoard is None:
        supply = []
    names = list(hero_names) if hero_names is not None else list(ed.heroes)[:n_players]
    positions = [
        ENTRANCE_KEY if at is None else (at if isinstance(at, str) else key_of(tuple(at)))
        for at in (heroes or [None] * n_players)
    ]
    state = new_state(
        edition=ed.key,
        n_players=n_players,
        options=resolved,
        first_seat=first_seat,
        tiles=None if tiles == C.tile_list(ed) else tiles,
        board=board,
        stack=stack_ids,
        hands=hand_ids,
        coins=pools,
        hoard=hoard_values,
        heroes=positions,
        hero_names=names,
        pending=[{"kind": ACTION, "seat": active}] if decision else [],
        drakon=drakon if drakon is None or isinstance(drakon, str) else key_of(tuple(drakon)),
        abilities_used=list(abilities_used) if abilities_used else None,
        box={"tiles": sorted(box.free), "coins": supply},
        active=active,
        turn=turn,
        start_coins=on_start,
        rules_version=game.rules_version if rules_version is None else rules_version,
    )
    state["rng"] = Rng.from_seed(seed).dump()
    if decision:
        check_invariants(state)
    return state


def start_next_turn(state: State) -> tuple[State, list[Event]]:
    """On a copy: run the turn start of the seat after ``active`` (skips, blocked end, guards)."""
    new = copy_state(state)
    new["pending"] = []
    events: list[Event] = []
    run_tasks(new, events)
    return new, events
