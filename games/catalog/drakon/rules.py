"""Pure rules of Drakon (Tom Jolly; later edition "4E", key ``drakon``).

The authoritative spec is ``shared/rules/drakon.md``; the section numbers in
docstrings (A-5, D-8, E-16, ...) refer to it. State, action, event and view
schemas and the rulings made beyond the spec are in ``docs/rules/drakon.md``.
This module must not import Django.

How a turn works. The state holds a stack of *tasks* (``state["pending"]``).
A task is either a **decision** (it names the ``seat`` that must answer;
``current_seats`` returns that seat and ``legal_actions`` lists the answers)
or an **automatic step** (resolving an entered room, a coin loss, ...), which
``_run`` carries out at once. ``apply`` pops the decision on top, lets its
handler push whatever follows, and runs automatic steps until a decision is
on top again or the game is over. Room effects, forced moves, the Druid's
out-of-turn protection and the hero abilities all nest on this one stack, so
there are no callbacks and every intermediate state is plain JSON.

Editions. Everything the first edition changes is read from the
``components.Edition`` stored by key in ``state["edition"]``: tile and coin
lists, goals, forced-move rooms and step counts, Harp-like rooms, heroes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from games.catalog.drakon import components as C
from games.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    Result,
    State,
    rank_by_score,
    resolve_options,
)
from games.engine.rng import Rng

# Geometry -------------------------------------------------------------------------------------
# Arrows are bit masks: N=1, E=2, S=4, W=8 (clockwise). x grows east, y grows north (C-0).

BITS: dict[str, int] = {"N": 1, "E": 2, "S": 4, "W": 8}
LETTERS: dict[int, str] = {bit: letter for letter, bit in BITS.items()}
STEPS: tuple[tuple[int, int, int], ...] = ((1, 0, 1), (2, 1, 0), (4, 0, -1), (8, -1, 0))
BACK: dict[int, int] = {1: 4, 2: 8, 4: 1, 8: 2}

ENTRANCE_KEY = "0,0"


def rotate_mask(mask: int, turns: int) -> int:
    """The arrows after ``turns`` quarter-turns clockwise (N->E->S->W->N)."""
    for _ in range(turns % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def mask_of(letters: Iterable[str]) -> int:
    mask = 0
    for letter in letters:
        mask |= BITS[letter]
    return mask


def arrows_of(mask: int) -> list[str]:
    """Arrow letters in N, E, S, W order."""
    return [LETTERS[bit] for bit in (1, 2, 4, 8) if mask & bit]


#: MASKS[pattern][r]: the arrows of a pattern at rotation r.
MASKS: dict[str, tuple[int, ...]] = {
    pattern: tuple(rotate_mask(mask_of(arrows), r) for r in range(4))
    for pattern, arrows in C.PATTERNS.items()
}

#: DISTINCT[pattern]: ((r, mask), ...) for the smallest r giving each different arrow set.
#: Placing, flying and swapping list only these rotations (the others look the same).
DISTINCT: dict[str, tuple[tuple[int, int], ...]] = {
    pattern: tuple((r, masks[r]) for r in range(4) if masks[r] not in masks[:r])
    for pattern, masks in MASKS.items()
}

_POS_CACHE: dict[str, tuple[int, int]] = {}
_KEY_CACHE: dict[tuple[int, int], str] = {}
_KEY_RE = re.compile(r"-?\d+,-?\d+")


def xy(key: str) -> tuple[int, int]:
    """Parse a trusted ``"x,y"`` key from the state (cached: positions repeat all game)."""
    pos = _POS_CACHE.get(key)
    if pos is None:
        x, y = key.split(",")
        pos = _POS_CACHE[key] = (int(x), int(y))
    return pos


def key_of(pos: tuple[int, int]) -> str:
    key = _KEY_CACHE.get(pos)
    if key is None:
        key = _KEY_CACHE[pos] = f"{pos[0]},{pos[1]}"
    return key


def parse_cell(value: Any) -> tuple[int, int] | None:
    """Parse an untrusted cell key from an action; None unless it is in canonical form."""
    if not isinstance(value, str) or len(value) > 24 or not _KEY_RE.fullmatch(value):
        return None
    x, y = (int(part) for part in value.split(","))
    return (x, y) if f"{x},{y}" == value else None


def neighbours(pos: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    x, y = pos
    return [(bit, (x + dx, y + dy)) for bit, dx, dy in STEPS]


class Lair:
    """A read-only index of the rooms in play, built from ``state["board"]`` for one call.

    ``kind[pos]`` is the room key and ``mask[pos]`` its arrows in the current
    rotation. Building it once per call keeps every rule a dictionary lookup.
    """

    __slots__ = ("kind", "mask")

    def __init__(self, state: State | None = None):
        kind: dict[tuple[int, int], str] = {}
        mask: dict[tuple[int, int], int] = {}
        self.kind = kind
        self.mask = mask
        if state is not None:
            tiles = tiles_of(state)
            cache = _POS_CACHE
            for key, value in state["board"].items():
                pos = cache.get(key) or xy(key)
                room, pattern = tiles[value[0]]
                kind[pos] = room
                mask[pos] = MASKS[pattern][value[1]]

    def without(self, pos: tuple[int, int]) -> Lair:
        other = Lair()
        other.kind = {p: k for p, k in self.kind.items() if p != pos}
        other.mask = {p: m for p, m in self.mask.items() if p != pos}
        return other

    def adjacent_rooms(self, pos: tuple[int, int]) -> list[tuple[int, int]]:
        return [p for _bit, p in neighbours(pos) if p in self.kind]

    def forbidden(self, pos: tuple[int, int]) -> int:
        """Arrows a room at ``pos`` may not have: sides facing a neighbour's arrow (A-5)."""
        result = 0
        x, y = pos
        mask = self.mask
        for bit, dx, dy in STEPS:
            other = mask.get((x + dx, y + dy))
            if other is not None and other & BACK[bit]:
                result |= bit
        return result

    def frontier(self) -> dict[tuple[int, int], int]:
        """Empty cells sharing an edge with a room, each with its forbidden arrows."""
        kind = self.kind
        out: dict[tuple[int, int], int] = {}
        for (x, y), arrows in self.mask.items():
            for bit, dx, dy in STEPS:
                cell = (x + dx, y + dy)
                if cell in kind:
                    continue
                # An arrow of this room pointing at the cell forbids the cell's arrow back.
                out[cell] = out.get(cell, 0) | (BACK[bit] if arrows & bit else 0)
        return out


def legal_rotations(pattern: str, forbidden: int) -> list[int]:
    return [r for r, mask in DISTINCT[pattern] if not mask & forbidden]


# A small cache of Lairs by board identity. States are never changed in place
# except the private copy inside ``apply``, whose board changes only through
# ``set_room`` / ``remove_room`` (which drop its entry). Each entry keeps a
# reference to its board, so an id cannot be reused while the entry lives.
_LAIRS: dict[int, tuple[dict, list, Lair]] = {}
_LAIR_CACHE_SIZE = 64


def lair_of(state: State) -> Lair:
    """The ``Lair`` of ``state``'s board, built once per board object."""
    board = state["board"]
    entry = _LAIRS.get(id(board))
    tiles = tiles_of(state)
    if entry is not None and entry[0] is board and entry[1] is tiles:
        return entry[2]
    lair = Lair(state)
    if len(_LAIRS) >= _LAIR_CACHE_SIZE:
        _LAIRS.clear()
    _LAIRS[id(board)] = (board, tiles, lair)
    return lair


def set_room(state: State, key: str, room: list[int]) -> None:
    """Put ``[tile, rot]`` at ``key`` (the only ways the rules change a board)."""
    _LAIRS.pop(id(state["board"]), None)
    state["board"][key] = room


def remove_room(state: State, key: str) -> list[int]:
    _LAIRS.pop(id(state["board"]), None)
    return state["board"].pop(key)


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

BOOL_CHOICES = [(False, "Off"), (True, "On")]


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


def is_team(state: State) -> bool:
    return bool(state["options"]["team_play"])


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
    goal = edition.short_goal if options["short_game"] else edition.goal
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


def _random_index(state: State, n: int) -> int:
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


def _copy_state(state: State) -> State:
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
    return new


def _private(state: State, seats: Iterable[int], event: Event) -> list[Event]:
    return [dict(event, private_to=seat) for seat in seats]


# Movement (A-6, A-9, D-3, D-4, D-18) ------------------------------------------------------------


def step_options(
    state: State, lair: Lair, pos: tuple[int, int], *, power: bool = False
) -> list[tuple[int, int]]:
    """One step governed by the arrows of the room at ``pos``.

    A Harp pull (D-4) restricts the step to the Harps the room points at; it
    applies to the Sorceress too. ``power`` is the Sorceress's "any adjacent
    chamber, ignoring arrows".
    """
    mask = lair.mask[pos]
    kind = lair.kind
    pull = edition_of(state).pull_rooms
    x, y = pos
    targets = [cell for bit, dx, dy in STEPS if mask & bit and (cell := (x + dx, y + dy)) in kind]
    pulled = [cell for cell in targets if kind[cell] in pull]
    if pulled:
        return pulled
    if power:
        return lair.adjacent_rooms(pos)
    return targets


def open_steps(lair: Lair, pos: tuple[int, int]) -> list[tuple[int, int]]:
    """From an arrowless room passed through: every neighbour not pointing back (D-3)."""
    return [
        cell
        for bit, cell in neighbours(pos)
        if cell in lair.kind and not lair.mask[cell] & BACK[bit]
    ]


def _continue_paths(
    state: State, lair: Lair, path: list[tuple[int, int]], remaining: int, out: dict
) -> None:
    """Extend a forced multi-chamber path without revisiting a chamber (D-3)."""
    if remaining == 0:
        out.setdefault(path[-1], tuple(path[1:-1]))
        return
    here = path[-1]
    if lair.kind[here] in edition_of(state).open_rooms:
        nexts = open_steps(lair, here)
    else:
        nexts = step_options(state, lair, here)
    for cell in nexts:
        if cell not in path:
            _continue_paths(state, lair, [*path, cell], remaining - 1, out)


def move_targets(
    state: State, lair: Lair, seat: int, *, power: bool = False
) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """Every destination of a move action of ``seat``'s hero -> the chambers passed through.

    - Portal: any other chamber in play; Master Key: any adjacent chamber (A-9).
    - Whirlwind: exactly 2 chambers, the first one's arrows (or every allowed
      direction for a Master Key / Portal) and Harp pull deciding the second
      step; no complete path means no move at all (D-3).
    - Otherwise one step along an arrow of the hero's room, with the Harp
      pull (D-4); ``power`` adds the Sorceress's free first step (D-18).
    """
    edition = edition_of(state)
    here = xy(state["heroes"][seat])
    kind = lair.kind[here]
    if kind in edition.teleport_rooms:
        return {cell: () for cell in lair.kind if cell != here}
    if kind in edition.key_rooms:
        return {cell: () for cell in lair.adjacent_rooms(here)}
    first = step_options(state, lair, here, power=power)
    steps = edition.forced_steps.get(kind, 1)
    if steps == 1:
        return {cell: () for cell in first}
    out: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    for cell in first:
        _continue_paths(state, lair, [here, cell], steps - 1, out)
    return out


def power_targets(
    state: State, lair: Lair, seat: int
) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """Destinations only the Sorceress's ability reaches (the others need no ability)."""
    if not ability_ready(state, seat, "sorceress"):
        return {}
    plain = move_targets(state, lair, seat)
    extra = move_targets(state, lair, seat, power=True)
    return {cell: via for cell, via in extra.items() if cell not in plain}


def can_act(state: State, lair: Lair, seat: int) -> bool:
    """A player can act with a tile in hand or a legal move action (A-6, D-12)."""
    if state["hands"][seat]:
        return True
    return bool(move_targets(state, lair, seat)) or bool(power_targets(state, lair, seat))


def drakon_reach(lair: Lair, start: tuple[int, int], steps: int = 3) -> list[tuple[int, int]]:
    """Chambers Drakon can end on after 0..3 orthogonal steps over chambers (A-10, D-8)."""
    seen = {start}
    layer = [start]
    for _ in range(steps):
        nxt = []
        for pos in layer:
            for cell in lair.adjacent_rooms(pos):
                if cell not in seen:
                    seen.add(cell)
                    nxt.append(cell)
        layer = nxt
    return sorted(seen)


# Effect targets (A-9, D-5..D-7, D-22..D-24) ------------------------------------------------------


def destroy_targets(state: State) -> list[str]:
    """Unoccupied chambers other than the Entrance (D-23)."""
    busy = occupied_keys(state)
    return sorted(
        (key for key in state["board"] if key != ENTRANCE_KEY and key not in busy), key=xy
    )


def float_targets(state: State, lair: Lair, key: str) -> list[tuple[str, int]]:
    """(cell, rotation) the Floating Chamber at ``key`` may fly to (D-5)."""
    pos = xy(key)
    pattern = tiles_of(state)[state["board"][key][0]][1]
    rest = lair.without(pos)
    out = []
    for cell, forbidden in sorted(rest.frontier().items()):
        if cell == pos:
            continue
        out.extend((key_of(cell), r) for r in legal_rotations(pattern, forbidden))
    return out


def rotate_targets(state: State, lair: Lair) -> list[tuple[str, int]]:
    """(chamber, quarter-turns 1..3) keeping the arrow ban with every neighbour (D-7)."""
    out = []
    for pos in sorted(lair.kind):
        forbidden = lair.forbidden(pos)
        key = key_of(pos)
        tile, rot = state["board"][key]
        pattern = tiles_of(state)[tile][1]
        out.extend(
            (key, turns) for turns in (1, 2, 3) if not MASKS[pattern][(rot + turns) % 4] & forbidden
        )
    return out


def swap_targets(state: State, lair: Lair, seat: int) -> list[tuple[str, int, int]]:
    """(chamber, tile from hand, rotation) for Swap a Chamber (D-22)."""
    hand = state["hands"][seat]
    if not hand:
        return []
    out = []
    for key in destroy_targets(state):
        forbidden = lair.forbidden(xy(key))
        for tile in hand:
            pattern = tiles_of(state)[tile][1]
            out.extend((key, tile, r) for r in legal_rotations(pattern, forbidden))
    return out


def mind_control_targets(state: State, lair: Lair, seat: int) -> list[tuple[int, str]]:
    """(other hero, destination) for Mind Control: any other hero with a legal move (D-6)."""
    out = []
    for target in range(state["n_players"]):
        if target == seat:
            continue
        for cell in sorted(move_targets(state, lair, target)):
            out.append((target, key_of(cell)))
    return out


def steal_tile_victims(state: State, seat: int) -> list[int]:
    minimum = edition_of(state).steal_tile_min
    return [
        other
        for other in range(state["n_players"])
        if are_enemies(state, seat, other) and len(state["hands"][other]) >= minimum
    ]


# The game -------------------------------------------------------------------------------------


class DrakonGame(Game):
    """The Drakon game object: see ``games.engine.base.Game`` for the contract.

    ``edition`` selects the component and rule data (``components.EDITIONS``);
    only the later edition is registered so far.
    """

    rules_version = 1

    def __init__(self, edition: str = "4e", key: str = "drakon", title: str = "Drakon"):
        self.edition = C.EDITIONS[edition]
        self.key = key
        self.title = title
        self.min_players = self.edition.min_players
        self.max_players = self.edition.max_players
        self.options = [
            Option(
                key="heroes",
                label="Heroes!",
                choices=BOOL_CHOICES,
                default=False,
                help="Each hero has a once-per-game ability; heroes are chosen in turn order.",
            ),
            Option(
                key="escape",
                label="Escape from Drakon's lair",
                choices=BOOL_CHOICES,
                default=False,
                help="Win by entering an Escape or Portal chamber with 8 gold or more "
                "(16 for a team). Cannot be combined with Short game.",
            ),
            Option(
                key="short_game",
                label="Short game",
                choices=BOOL_CHOICES,
                default=False,
                help="7 gold wins (14 for a team).",
            ),
            Option(
                key="team_play",
                label="Team play",
                choices=BOOL_CHOICES,
                default=False,
                help="4 or 6 players in teams of two sharing their coins: seats 1 and 3 "
                "against 2 and 4, or 1+4, 2+5, 3+6. A team needs 20 gold.",
            ),
        ]

    # Setup ----------------------------------------------------------------------------------

    def validate_setup(self, n_players: Any, options: Mapping[str, Any] | None) -> str | None:
        """An error message for a player count and options that cannot be played, or None.

        The match service should call this when a match is created and again
        when it starts (the seat count may change in between).
        """
        if (
            not isinstance(n_players, int)
            or isinstance(n_players, bool)
            or not self.min_players <= n_players <= self.max_players
        ):
            return f"Drakon needs {self.min_players} to {self.max_players} players."
        try:
            resolved = resolve_options(self, dict(options or {}))
        except IllegalAction as error:
            return error.message
        if resolved["team_play"] and n_players not in self.edition.team_sizes:
            return "Team play needs 4 or 6 players."
        if resolved["escape"] and resolved["short_game"]:
            return "Short game and Escape from Drakon's lair change the same goal: choose one."
        return None

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        """A-3: Entrance at (0,0), shuffled pile, mixed hoard, random first player, heroes, hands.

        With Heroes! each seat chooses a hero in turn order (a decision each);
        hands are dealt once the heroes are chosen, as in the rulebook.
        """
        error = self.validate_setup(n_players, options)
        if error:
            raise IllegalAction(error)
        options = resolve_options(self, options)
        edition = self.edition
        rng = Rng.from_seed(seed)
        stack = rng.shuffled(list(range(1, sum(count for _r, _p, count in edition.tiles))))
        hoard = rng.shuffled(C.coin_list(edition))
        first_seat = rng.below(n_players)
        order = [(first_seat + i) % n_players for i in range(n_players)]
        hero_names: list[str | None] = [None] * n_players
        pending: list[dict[str, Any]] = [{"kind": DEAL}]
        if options["heroes"]:
            pending.extend({"kind": CHOOSE_HERO, "seat": seat} for seat in reversed(order))
        else:
            for index, seat in enumerate(order):
                hero_names[seat] = list(edition.heroes)[index]
        state = new_state(
            edition=edition.key,
            n_players=n_players,
            options=options,
            first_seat=first_seat,
            tiles=None,
            board={ENTRANCE_KEY: [0, 0]},
            stack=stack,
            hands=[[] for _ in range(n_players)],
            coins=[[] for _ in range(_pool_count(n_players, options))],
            hoard=hoard,
            heroes=[ENTRANCE_KEY] * n_players,
            hero_names=hero_names,
            pending=pending,
        )
        state["rng"] = rng.dump()
        _run(state, [])
        return state

    def opening_events(self, state: State) -> list[Event]:
        """The events ``setup`` produced, rebuilt from a fresh setup state for the log.

        ``setup`` returns only a state. Without Heroes! it already dealt the
        hands and started the first turn; with Heroes! nothing has happened
        yet (the first seat is choosing a hero).
        """
        if state["options"]["heroes"] or state["turn"] != 1:
            return []
        events: list[Event] = []
        n = state["n_players"]
        for offset in range(n):
            seat = (state["first_seat"] + offset) % n
            drawn = list(state["hands"][seat])
            events.append({"type": "hand_dealt", "seat": seat, "count": len(drawn)})
            events.extend(
                _private(state, [seat], {"type": "tiles_drawn", "seat": seat, "tiles": drawn})
            )
        events.append({"type": "turn_started", "seat": state["first_seat"], "turn": 1})
        return events

    # Queries --------------------------------------------------------------------------------

    def current_seats(self, state: State) -> list[int]:
        if state["over"] or not state["pending"]:
            return []
        return [state["pending"][-1]["seat"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or not _is_seat(state, seat):
            return []
        task = state["pending"][-1]
        if task.get("seat") != seat:
            return []
        return LEGAL[task["kind"]](state, task)

    def result(self, state: State) -> Result | None:
        """A-13, D-12: the winner(s) first, then every other seat by gold; ties share."""
        if not state["over"]:
            return None
        n = state["n_players"]
        winners = set(state["end"]["winners"])
        gold = [gold_of(state, seat) for seat in range(n)]
        ranks = rank_by_score([(seat in winners, gold[seat]) for seat in range(n)])
        details = {
            "reason": state["end"]["reason"],
            "winners": sorted(winners),
            "gold": gold,
            "coins": [sorted(state["coins"][pool_of(state, seat)]) for seat in range(n)],
            "teams": teams(state),
        }
        return Result(ranks=ranks, scores=gold, details=details)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    # Acting ---------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Answer the decision on top of the stack, then run until the next decision."""
        task = self._refuse_illegal(state, seat, action)
        new = _copy_state(state)
        new["pending"].pop()
        events: list[Event] = []
        HANDLERS[task["kind"]](new, task, action, events)
        _run(new, events)
        return new, events

    def _refuse_illegal(self, state: State, seat: int, action: Action) -> dict[str, Any]:
        """Return the decision answered, or raise IllegalAction with a readable reason."""
        if state["over"]:
            raise IllegalAction("The game is over.")
        if not _is_seat(state, seat) or not state["pending"]:
            raise IllegalAction("It is not your turn.")
        task = state["pending"][-1]
        if task.get("seat") != seat:
            raise IllegalAction("It is not your turn to decide.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("That is not an action.")
        if task["kind"] == ACTION and action.get("type") == "place":
            reason = place_refusal(state, seat, action)
            if reason:
                raise IllegalAction(reason)
            return task
        wanted = typed_action(action)
        if wanted is None or wanted not in {
            typed_action(a) for a in LEGAL[task["kind"]](state, task)
        }:
            raise IllegalAction(explain_refusal(state, task, action))
        return task

    def check_invariants(self, state: State) -> None:
        check_invariants(state)

    def public_action(self, action: Action) -> Action:
        """While a match is in play, hide the tile a Warrior slips under the pile
        (from a secret hand) and the coin a Thief gives the hoard (a secret value)."""
        secret = _SECRET_ACTION_FIELDS.get((action.get("type"), action.get("hero")), ())
        hidden = [key for key in secret if key in action]
        if not hidden:
            return action
        shown = {key: value for key, value in action.items() if key not in hidden}
        shown["hidden"] = hidden
        return shown


#: Fields of actions that carry a secret choice: (action type, hero) -> field names.
_SECRET_ACTION_FIELDS: dict[tuple[Any, Any], tuple[str, ...]] = {
    ("ability", "warrior"): ("tile",),
    ("warrior_tile", None): ("tile",),
    ("ability", "thief"): ("coin",),
}


def typed_action(action: Action) -> frozenset | None:
    """An action's fields with their types: ``True`` is not seat 1, ``1.0`` not rotation 1."""
    try:
        return frozenset((key, type(value), value) for key, value in action.items())
    except TypeError:  # a list or dict inside: never a legal action
        return None


def _is_seat(state: State, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["n_players"]


def _pool_count(n_players: int, options: Mapping[str, Any]) -> int:
    return n_players // 2 if options["team_play"] else n_players


def teams(state: State) -> list[list[int]] | None:
    if not is_team(state):
        return None
    return [pool_seats(state, pool) for pool in range(len(state["coins"]))]


# Legal actions per decision -------------------------------------------------------------------


def _legal_choose_hero(state: State, task: dict) -> list[Action]:
    taken = {name for name in state["hero_names"] if name}
    return [
        {"type": "choose_hero", "hero": hero}
        for hero in edition_of(state).heroes
        if hero not in taken
    ]


def place_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-5: every (tile in hand, empty cell touching the lair, legal rotation)."""
    hand = state["hands"][seat]
    if not hand:
        return []
    cells = [(key_of(cell), forbidden) for cell, forbidden in sorted(lair.frontier().items())]
    tiles = tiles_of(state)
    by_pattern: dict[str, list[tuple[str, int]]] = {}
    actions: list[Action] = []
    for tile in hand:
        pattern = tiles[tile][1]
        spots = by_pattern.get(pattern)
        if spots is None:
            rotations = DISTINCT[pattern]
            spots = by_pattern[pattern] = [
                (at, r) for at, forbidden in cells for r, mask in rotations if not mask & forbidden
            ]
        actions.extend([{"type": "place", "tile": tile, "at": at, "rot": r} for at, r in spots])
    return actions


def move_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-6 moves, then the Sorceress's extra destinations flagged ``power`` (D-18)."""
    plain = sorted(move_targets(state, lair, seat))
    actions: list[Action] = [{"type": "move", "to": key_of(cell)} for cell in plain]
    for cell in sorted(power_targets(state, lair, seat)):
        actions.append({"type": "move", "to": key_of(cell), "power": True})
    return actions


def ability_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-12 abilities usable before or after the action, when they can have an effect."""
    hero = hero_of(state, seat)
    if hero is None or not ability_ready(state, seat, hero):
        return []
    if edition_of(state).heroes[hero].timing != C.BEFORE_OR_AFTER:
        return []
    return ABILITIES[hero](state, lair, seat)


def _knight_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-16: an enemy hero in the Knight's chamber that has a legal move; any destination."""
    here = state["heroes"][seat]
    actions = []
    for target in heroes_at(state, here):
        if not are_enemies(state, seat, target):
            continue
        for cell in sorted(move_targets(state, lair, target)):
            actions.append(
                {"type": "ability", "hero": "knight", "target": target, "to": key_of(cell)}
            )
    return actions


def _warrior_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-20: start by choosing the first tile to put under the pile."""
    return [{"type": "ability", "hero": "warrior", "tile": tile} for tile in state["hands"][seat]]


def _ranger_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-19: an extra move action following every movement rule."""
    return [
        {"type": "ability", "hero": "ranger", "to": key_of(cell)}
        for cell in sorted(move_targets(state, lair, seat))
    ]


def _thief_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-15: steal from an enemy with coins in your chamber, or exchange one of your coins."""
    here = state["heroes"][seat]
    actions: list[Action] = [
        {"type": "ability", "hero": "thief", "target": target}
        for target in heroes_at(state, here)
        if are_enemies(state, seat, target) and state["coins"][pool_of(state, target)]
    ]
    if state["hoard"]:
        own = state["coins"][pool_of(state, seat)]
        actions.extend(
            {"type": "ability", "hero": "thief", "coin": value} for value in sorted(set(own))
        )
    return actions


ABILITIES = {
    "knight": _knight_options,
    "warrior": _warrior_options,
    "ranger": _ranger_options,
    "thief": _thief_options,
}


def _legal_action(state: State, task: dict) -> list[Action]:
    seat = task["seat"]
    lair = lair_of(state)
    return [
        *place_actions(state, lair, seat),
        *move_actions(state, lair, seat),
        *ability_actions(state, lair, seat),
    ]


def _legal_after_action(state: State, task: dict) -> list[Action]:
    seat = task["seat"]
    return [*ability_actions(state, lair_of(state), seat), {"type": "end_turn"}]


def _legal_place_drakon(state: State, task: dict) -> list[Action]:
    """A-10: any unoccupied chamber, the new tile included."""
    busy = occupied_keys(state)
    return [
        {"type": "place_drakon", "at": key}
        for key in sorted(state["board"], key=xy)
        if key not in busy
    ]


def _legal_escape(state: State, task: dict) -> list[Action]:
    return [{"type": "enter_escape"}, {"type": "skip"}]


def _legal_destroy(state: State, task: dict) -> list[Action]:
    return [{"type": "destroy", "at": key} for key in destroy_targets(state)]


def _legal_drakon_move(state: State, task: dict) -> list[Action]:
    lair = lair_of(state)
    return [
        {"type": "drakon_move", "to": key_of(cell)}
        for cell in drakon_reach(lair, xy(state["drakon"]))
    ]


def _legal_float(state: State, task: dict) -> list[Action]:
    spots = float_targets(state, lair_of(state), task["at"])
    return [*({"type": "float", "to": at, "rot": r} for at, r in spots), {"type": "skip"}]


def _legal_mind_control(state: State, task: dict) -> list[Action]:
    return [
        {"type": "mind_control", "target": target, "to": at}
        for target, at in mind_control_targets(state, lair_of(state), task["seat"])
    ]


def _legal_rotate(state: State, task: dict) -> list[Action]:
    return [
        {"type": "rotate", "at": at, "turns": turns}
        for at, turns in rotate_targets(state, lair_of(state))
    ]


def _legal_steal_tile(state: State, task: dict) -> list[Action]:
    return [
        {"type": "steal_tile", "from": victim} for victim in steal_tile_victims(state, task["seat"])
    ]


def _legal_swap(state: State, task: dict) -> list[Action]:
    return [
        {"type": "swap", "at": at, "tile": tile, "rot": r}
        for at, tile, r in swap_targets(state, lair_of(state), task["seat"])
    ]


def _legal_druid(state: State, task: dict) -> list[Action]:
    return [{"type": "protect"}, {"type": "skip"}]


def _legal_warrior(state: State, task: dict) -> list[Action]:
    chosen = task["chosen"]
    return [
        *(
            {"type": "warrior_tile", "tile": tile}
            for tile in state["hands"][task["seat"]]
            if tile not in chosen
        ),
        {"type": "warrior_done"},
    ]


LEGAL = {
    CHOOSE_HERO: _legal_choose_hero,
    ACTION: _legal_action,
    AFTER_ACTION: _legal_after_action,
    PLACE_DRAKON: _legal_place_drakon,
    ESCAPE: _legal_escape,
    DESTROY: _legal_destroy,
    DRAKON_MOVE: _legal_drakon_move,
    FLOAT: _legal_float,
    MIND_CONTROL: _legal_mind_control,
    ROTATE: _legal_rotate,
    STEAL_TILE: _legal_steal_tile,
    SWAP: _legal_swap,
    DRUID: _legal_druid,
    WARRIOR: _legal_warrior,
}


# Refusal messages -----------------------------------------------------------------------------

PLACE_KEYS = frozenset({"type", "tile", "at", "rot"})


def place_refusal(state: State, seat: int, action: Action) -> str | None:
    """Why a ``place`` action is illegal (None if legal): the fast path for A-5.

    Equivalent to membership in ``place_actions`` (a property test checks it),
    without building the few hundred placements.
    """
    if set(action) != PLACE_KEYS:
        return "A placement names exactly a tile, a cell (at) and a rotation (rot)."
    tile, at, rot = action["tile"], action["at"], action["rot"]
    if type(tile) is not int or tile not in state["hands"][seat]:
        return "Place a tile from your own hand."
    cell = parse_cell(at)
    if cell is None:
        return 'Choose a cell written as "x,y".'
    pattern = tiles_of(state)[tile][1]
    if type(rot) is not int or rot not in {r for r, _mask in DISTINCT[pattern]}:
        allowed = ", ".join(str(r) for r, _mask in DISTINCT[pattern])
        return f"That tile can be turned to rotation {allowed} only."
    board = state["board"]
    if at in board:
        return "That cell already holds a chamber."
    forbidden = 0
    touching = False
    for bit, other in neighbours(cell):
        room = board.get(key_of(other))
        if room is None:
            continue
        touching = True
        if MASKS[tiles_of(state)[room[0]][1]][room[1]] & BACK[bit]:
            forbidden |= bit
    if not touching:
        return "A new chamber must share an edge with a chamber in play."
    if MASKS[pattern][rot] & forbidden:
        return "Two arrows would point at each other: turn the tile or choose another cell."
    return None


def explain_refusal(state: State, task: dict, action: Action) -> str:
    kind = task["kind"]
    kind_name = action.get("type")
    if kind == ACTION and kind_name == "move":
        return "Your hero cannot move there now: follow an arrow of your chamber."
    if kind == ACTION and kind_name == "ability":
        return "Your hero's ability cannot be used that way now."
    messages = {
        CHOOSE_HERO: "Choose one of the heroes still available.",
        ACTION: "Place a chamber or move your hero.",
        AFTER_ACTION: "Use your hero's ability or end your turn.",
        PLACE_DRAKON: "Put Drakon on an unoccupied chamber.",
        ESCAPE: "Decide whether your hero goes onto the Escape chamber.",
        DESTROY: "Destroy an unoccupied chamber other than the Entrance.",
        DRAKON_MOVE: "Drakon moves at most 3 chambers, never diagonally.",
        FLOAT: "Fly the chamber next to another chamber with no arrows meeting, or skip.",
        MIND_CONTROL: "Choose another hero and one of its legal moves.",
        ROTATE: "Rotate a chamber by 1, 2 or 3 quarter-turns so that no arrows meet.",
        STEAL_TILE: "Choose an opponent holding at least 2 tiles.",
        SWAP: "Swap an unoccupied chamber (not the Entrance) for a tile of yours, legally turned.",
        DRUID: "Decide whether the Druid protects her coin.",
        WARRIOR: "Choose another tile from your hand, or finish.",
    }
    return messages.get(kind, "That is not one of your choices now.")


# Running the task stack -----------------------------------------------------------------------


def _run(state: State, events: list[Event]) -> None:
    """Carry out automatic steps until a decision is on top or the game is over."""
    pending = state["pending"]
    while not state["over"]:
        if not pending:
            _start_next_turn(state, events)
            continue
        task = pending[-1]
        if "seat" in task:
            return
        pending.pop()
        AUTO[task["kind"]](state, task, events)


def _start_next_turn(state: State, events: list[Event]) -> None:
    """A-4, A-6, D-12: next seat clockwise; skip a seat that cannot act; end when nobody can."""
    n = state["n_players"]
    edition = edition_of(state)
    while not state["over"]:
        seat = state["first_seat"] if state["turn"] == 0 else (state["active"] + 1) % n
        state["turn"] += 1
        state["active"] = seat
        lair = lair_of(state)
        if not can_act(state, lair, seat) and not any(
            can_act(state, lair, other) for other in range(n)
        ):
            _finish(state, END_BLOCKED, _best_seats(state), events)
            return
        if not any(state["hands"]):
            if state["dry_since"] is None:
                state["dry_since"] = state["turn"]
            elif state["turn"] - state["dry_since"] >= edition.dry_rounds * n:
                _finish(state, END_EXHAUSTED, _best_seats(state), events)
                return
        if state["turn"] > edition.max_rounds * n:
            _finish(state, END_TURN_LIMIT, _best_seats(state), events)
            return
        events.append({"type": "turn_started", "seat": seat, "turn": state["turn"]})
        if can_act(state, lair, seat):
            state["pending"].append({"kind": ACTION, "seat": seat})
            return
        events.append({"type": "turn_skipped", "seat": seat})


def _best_seats(state: State) -> list[int]:
    gold = [gold_of(state, seat) for seat in range(state["n_players"])]
    best = max(gold)
    return [seat for seat, value in enumerate(gold) if value == best]


def _finish(state: State, reason: str, winners: list[int], events: list[Event]) -> None:
    """End at once: clear every pending step, record the winners, reveal the coins."""
    state["over"] = True
    state["active"] = None
    state["pending"] = []
    state["end"] = {"reason": reason, "winners": sorted(winners)}
    n = state["n_players"]
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "winners": sorted(winners),
            "gold": [gold_of(state, seat) for seat in range(n)],
            "coins": [sorted(state["coins"][pool_of(state, seat)]) for seat in range(n)],
        }
    )


# Automatic steps ------------------------------------------------------------------------------


def _auto_deal(state: State, task: dict, events: list[Event]) -> None:
    """A-3 step 6: each player draws the starting hand, in turn order."""
    n = state["n_players"]
    size = edition_of(state).hand_size
    for offset in range(n):
        seat = (state["first_seat"] + offset) % n
        drawn = _draw(state, seat, size)
        events.append({"type": "hand_dealt", "seat": seat, "count": len(drawn)})
        events.extend(
            _private(state, [seat], {"type": "tiles_drawn", "seat": seat, "tiles": drawn})
        )


def _draw(state: State, seat: int, count: int) -> list[int]:
    """Draw up to ``count`` tiles from the top of the pile (A-5; none when it is empty)."""
    drawn = state["stack"][:count]
    del state["stack"][:count]
    state["hands"][seat].extend(drawn)
    return drawn


def _auto_enter(state: State, task: dict, events: list[Event]) -> None:
    """A hero ended a move in a chamber: Drakon first (A-11), then Escape win, then effect."""
    seat, at = task["who"], task["at"]
    if state["drakon"] == at:
        _encounter(state, at, events)
        return
    room = room_at(state, at)
    if _escape_win(state, seat, room, events):
        return
    effect = ENTER_EFFECTS.get(room)
    if effect is not None:
        effect(state, seat, at, events)


def _escape_win(state: State, seat: int, room: str, events: list[Event]) -> bool:
    """A-14.1, D-10: entering an Escape or Portal room with enough gold wins the variant."""
    goal = escape_goal(state)
    if goal is None or room not in edition_of(state).escape_rooms or gold_of(state, seat) < goal:
        return False
    events.append({"type": "escaped", "seat": seat, "at": state["heroes"][seat]})
    _finish(state, END_ESCAPE, pool_seats(state, pool_of(state, seat)), events)
    return True


def _encounter(state: State, at: str, events: list[Event]) -> None:
    """A-11: every hero in Drakon's chamber goes to the Entrance and returns a random coin."""
    victims = heroes_at(state, at)
    if not victims:
        return
    for seat in victims:
        state["heroes"][seat] = ENTRANCE_KEY
    events.append({"type": "drakon_encounter", "at": at, "heroes": victims})
    for seat in victims:
        _lose_coin_now(state, seat, None, "drakon", events)


def _auto_coin_loss(state: State, task: dict, events: list[Event]) -> None:
    """A coin loss aimed at a hero: the Druid may cancel it first (D-17)."""
    victim = task["victim"]
    if not state["coins"][pool_of(state, victim)]:
        events.append({"type": "no_coin", "seat": victim, "cause": task["cause"]})
        return
    if task["protectable"] and ability_ready(state, victim, "druid"):
        state["pending"].append(
            {
                "kind": DRUID,
                "seat": victim,
                "to": task["to"],
                "cause": task["cause"],
                "by": task["by"],
            }
        )
        return
    _lose_coin_now(state, victim, task["to"], task["cause"], events)


def _lose_coin_now(
    state: State,
    victim: int,
    to: int | None,
    cause: str,
    events: list[Event],
) -> None:
    """Take a random coin from the victim's pool: to the hoard, or to seat ``to`` (a steal)."""
    pool = state["coins"][pool_of(state, victim)]
    if not pool:
        events.append({"type": "no_coin", "seat": victim, "cause": cause})
        return
    value = pool.pop(_random_index(state, len(pool)))
    if to is None:
        state["hoard"].append(value)
        events.append({"type": "coin_lost", "seat": victim, "cause": cause})
        events.extend(
            _private(state, pool_seats(state, pool_of(state, victim)),
                     {"type": "coin_lost_value", "seat": victim, "value": value})
        )  # fmt: skip
        return
    state["coins"][pool_of(state, to)].append(value)
    events.append({"type": "coin_stolen", "seat": to, "victim": victim, "cause": cause})
    seen = pool_seats(state, pool_of(state, to)) + pool_seats(state, pool_of(state, victim))
    events.extend(
        _private(
            state, seen, {"type": "coin_stolen_value", "seat": to, "victim": victim, "value": value}
        )
    )
    _check_coin_goal(state, to, events)


def _gain_from_hoard(state: State, seat: int, cause: str, events: list[Event]) -> None:
    """Find a Coin: a random coin from the hoard (nothing when it is empty, D-21)."""
    hoard = state["hoard"]
    if not hoard:
        events.append({"type": "hoard_empty", "seat": seat, "cause": cause})
        return
    value = hoard.pop(_random_index(state, len(hoard)))
    state["coins"][pool_of(state, seat)].append(value)
    events.append({"type": "coin_found", "seat": seat, "cause": cause})
    events.extend(
        _private(state, pool_seats(state, pool_of(state, seat)),
                 {"type": "coin_found_value", "seat": seat, "value": value})
    )  # fmt: skip
    _check_coin_goal(state, seat, events)


def _check_coin_goal(state: State, seat: int, events: list[Event]) -> None:
    """A-13: collecting a coin that brings the total (team pool) to the goal wins at once."""
    goal = coin_goal(state)
    if goal is not None and gold_of(state, seat) >= goal:
        _finish(state, END_GOAL, pool_seats(state, pool_of(state, seat)), events)


def _auto_after_check(state: State, task: dict, events: list[Event]) -> None:
    """After the action: offer the ability window only if an ability could be used now."""
    seat = task["who"]
    if not state["options"]["heroes"] or state["abilities_used"][seat]:
        return
    if ability_actions(state, lair_of(state), seat):
        state["pending"].append({"kind": AFTER_ACTION, "seat": seat})


def _auto_offer_action(state: State, task: dict, events: list[Event]) -> None:
    """After an ability used before the action: the action, unless none is possible."""
    seat = task["who"]
    if can_act(state, lair_of(state), seat):
        state["pending"].append({"kind": ACTION, "seat": seat})
    else:
        events.append({"type": "no_action", "seat": seat})


def _auto_knight_take(state: State, task: dict, events: list[Event]) -> None:
    """D-16 "then": the Knight takes a random tile from the moved hero's hand."""
    _steal_random_tile(state, task["who"], task["target"], "knight", events)


def _steal_random_tile(
    state: State, thief: int, victim: int, cause: str, events: list[Event]
) -> None:
    hand = state["hands"][victim]
    if not hand:
        events.append({"type": "no_tile", "seat": thief, "victim": victim, "cause": cause})
        return
    tile = hand.pop(_random_index(state, len(hand)))
    state["hands"][thief].append(tile)
    events.append({"type": "tile_stolen", "seat": thief, "victim": victim, "cause": cause})
    room, pattern = tiles_of(state)[tile]
    detail = {"type": "tile_stolen_detail", "seat": thief, "victim": victim, "tile": tile,
              "room": room, "pattern": pattern}  # fmt: skip
    events.extend(_private(state, [thief, victim], detail))


AUTO = {
    DEAL: _auto_deal,
    ENTER: _auto_enter,
    COIN_LOSS: _auto_coin_loss,
    AFTER_CHECK: _auto_after_check,
    OFFER_ACTION: _auto_offer_action,
    KNIGHT_TAKE: _auto_knight_take,
}


# Room effects on entering (A-9) -----------------------------------------------------------------


def _effect_find_coin(state: State, seat: int, at: str, events: list[Event]) -> None:
    _gain_from_hoard(state, seat, "find_coin", events)


def _effect_lose_coin(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, seat, None, "lose_coin", None)


def _effect_steal_left(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, left_of(state, seat), seat, "steal_left", seat)


def _effect_steal_right(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, right_of(state, seat), seat, "steal_right", seat)


def _push_coin_loss(state: State, victim: int, to: int | None, cause: str, by: int | None) -> None:
    if to is not None and pool_of(state, victim) == pool_of(state, to):
        return  # never a steal from one's own pool (impossible with the team seatings)
    state["pending"].append(
        {
            "kind": COIN_LOSS,
            "victim": victim,
            "to": to,
            "cause": cause,
            "by": by,
            "protectable": True,
        }
    )


def _push_if(state: State, events: list[Event], seat: int, room: str, ok: bool, task: dict) -> None:
    """Push a mandatory effect's decision, or log that it has nothing to act on."""
    if ok:
        state["pending"].append(task)
    else:
        events.append({"type": "no_effect", "seat": seat, "room": room})


def _effect_destroy(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_if(
        state,
        events,
        seat,
        "destroy",
        bool(destroy_targets(state)),
        {"kind": DESTROY, "seat": seat},
    )


def _effect_drakon_moves(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = state["drakon"] is not None
    _push_if(state, events, seat, "drakon_moves", ok, {"kind": DRAKON_MOVE, "seat": seat})


def _effect_floating(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(float_targets(state, lair_of(state), at))
    _push_if(state, events, seat, "floating", ok, {"kind": FLOAT, "seat": seat, "at": at})


def _effect_mind_control(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(mind_control_targets(state, lair_of(state), seat))
    _push_if(state, events, seat, "mind_control", ok, {"kind": MIND_CONTROL, "seat": seat})


def _effect_rotate(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(rotate_targets(state, lair_of(state)))
    _push_if(state, events, seat, "rotate", ok, {"kind": ROTATE, "seat": seat})


def _effect_steal_tile(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(steal_tile_victims(state, seat))
    _push_if(state, events, seat, "steal_tile", ok, {"kind": STEAL_TILE, "seat": seat})


def _effect_swap(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(swap_targets(state, lair_of(state), seat))
    _push_if(state, events, seat, "swap", ok, {"kind": SWAP, "seat": seat})


ENTER_EFFECTS = {
    "find_coin": _effect_find_coin,
    "lose_coin": _effect_lose_coin,
    "steal_left": _effect_steal_left,
    "steal_right": _effect_steal_right,
    "destroy": _effect_destroy,
    "drakon_moves": _effect_drakon_moves,
    "floating": _effect_floating,
    "mind_control": _effect_mind_control,
    "rotate": _effect_rotate,
    "steal_tile": _effect_steal_tile,
    "swap": _effect_swap,
}


# Decision handlers (the action is already known to be legal) ---------------------------------


def _on_choose_hero(state: State, task: dict, action: Action, events: list[Event]) -> None:
    seat = task["seat"]
    state["hero_names"][seat] = action["hero"]
    events.append({"type": "hero_chosen", "seat": seat, "hero": action["hero"]})


def _on_action(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """The turn's action (A-5, A-6), or an ability used before it (A-12)."""
    seat = task["seat"]
    kind = action["type"]
    if kind == "ability":
        state["pending"].append({"kind": OFFER_ACTION, "who": seat})
        _use_ability(state, seat, action, events)
        return
    state["pending"].append({"kind": AFTER_CHECK, "who": seat})
    if kind == "place":
        _place(state, seat, action, events)
    else:
        _move_action(state, seat, action, events)


def _on_after_action(state: State, task: dict, action: Action, events: list[Event]) -> None:
    if action["type"] == "ability":
        _use_ability(state, task["seat"], action, events)


def _place(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A-5: put the tile into play, draw from the pile, then the placement hooks."""
    tile, at, rot = action["tile"], action["at"], action["rot"]
    state["hands"][seat].remove(tile)
    set_room(state, at, [tile, rot])
    events.append(_placed_event(state, seat, tile, at, rot, "placed"))
    drawn = _draw(state, seat, 1)
    events.append(
        {"type": "tile_drawn", "seat": seat, "count": len(drawn), "stack": len(state["stack"])}
    )
    events.extend(_private(state, [seat], {"type": "tiles_drawn", "seat": seat, "tiles": drawn}))
    _put_in_play_hooks(state, seat, at, tile)


def _placed_event(state: State, seat: int, tile: int, at: str, rot: int, how: str) -> Event:
    room, pattern = tiles_of(state)[tile]
    return {
        "type": "room_placed",
        "how": how,
        "seat": seat,
        "tile": tile,
        "room": room,
        "pattern": pattern,
        "at": at,
        "rot": rot,
        "arrows": arrows_of(MASKS[pattern][rot]),
    }


def _put_in_play_hooks(state: State, seat: int, at: str, tile: int) -> None:
    """First Drakon Moves brings Drakon (A-10, D-2); Escape lets the hero on (A-9, D-22)."""
    room = tiles_of(state)[tile][0]
    if room == "drakon_moves" and state["drakon"] is None:
        state["pending"].append({"kind": PLACE_DRAKON, "seat": seat})
    elif room == "escape":
        state["pending"].append({"kind": ESCAPE, "seat": seat, "at": at})


def _move_action(state: State, seat: int, action: Action, events: list[Event]) -> None:
    lair = lair_of(state)
    power = bool(action.get("power"))
    if power:
        state["abilities_used"][seat] = True
        events.append({"type": "ability_used", "seat": seat, "hero": "sorceress"})
        targets = move_targets(state, lair, seat, power=True)
    else:
        targets = move_targets(state, lair, seat)
    cell = xy(action["to"])
    _move_hero(state, lair, seat, cell, targets[cell], events, cause="power" if power else "move")


def _move_hero(
    state: State,
    lair: Lair,
    seat: int,
    cell: tuple[int, int],
    via: tuple[tuple[int, int], ...],
    events: list[Event],
    *,
    cause: str,
    by: int | None = None,
) -> None:
    """Move a hero (the path is already legal) and queue the entered room's resolution."""
    origin = state["heroes"][seat]
    to = key_of(cell)
    state["heroes"][seat] = to
    events.append(
        {
            "type": "hero_moved",
            "seat": seat,
            "from": origin,
            "to": to,
            "via": [key_of(p) for p in via],
            "from_room": lair.kind[xy(origin)],
            "cause": cause,
            "by": by,
        }
    )
    state["pending"].append({"kind": ENTER, "who": seat, "at": to})


def _use_ability(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A-12: flip the card and carry out the ability."""
    state["abilities_used"][seat] = True
    ABILITY_HANDLERS[action["hero"]](state, seat, action, events)


def _knight(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-16: the target moves where the Knight says and resolves it; then lose a tile."""
    target = action["target"]
    events.append({"type": "ability_used", "seat": seat, "hero": "knight", "target": target})
    state["pending"].append({"kind": KNIGHT_TAKE, "who": seat, "target": target})
    lair = lair_of(state)
    cell = xy(action["to"])
    via = move_targets(state, lair, target)[cell]
    _move_hero(state, lair, target, cell, via, events, cause="knight", by=seat)


def _ranger(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-19: an extra move action."""
    events.append({"type": "ability_used", "seat": seat, "hero": "ranger"})
    lair = lair_of(state)
    cell = xy(action["to"])
    via = move_targets(state, lair, seat)[cell]
    _move_hero(state, lair, seat, cell, via, events, cause="ranger")


def _warrior(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-20: the first tile is chosen with the ability; more follow one by one."""
    events.append({"type": "ability_used", "seat": seat, "hero": "warrior"})
    task = {"kind": WARRIOR, "seat": seat, "chosen": [action["tile"]]}
    if len(state["hands"][seat]) == 1:
        _finish_warrior(state, task, events)
    else:
        state["pending"].append(task)


def _thief(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-15: steal from an enemy in the chamber (the Druid may cancel), or exchange."""
    if "target" in action:
        target = action["target"]
        events.append(
            {
                "type": "ability_used",
                "seat": seat,
                "hero": "thief",
                "mode": "steal",
                "target": target,
            }
        )
        state["pending"].append(
            {
                "kind": COIN_LOSS,
                "victim": target,
                "to": seat,
                "cause": "thief",
                "by": seat,
                "protectable": True,
            }
        )
        return
    events.append({"type": "ability_used", "seat": seat, "hero": "thief", "mode": "exchange"})
    pool = state["coins"][pool_of(state, seat)]
    hoard = state["hoard"]
    got = hoard.pop(_random_index(state, len(hoard)))  # draw first: never the same coin back
    pool.remove(action["coin"])
    hoard.append(action["coin"])
    pool.append(got)
    events.append({"type": "coin_exchanged", "seat": seat})
    detail = {"type": "coin_exchanged_value", "seat": seat, "gave": action["coin"], "got": got}
    events.extend(_private(state, pool_seats(state, pool_of(state, seat)), detail))
    _check_coin_goal(state, seat, events)


ABILITY_HANDLERS = {"knight": _knight, "ranger": _ranger, "warrior": _warrior, "thief": _thief}


def _on_warrior(state: State, task: dict, action: Action, events: list[Event]) -> None:
    if action["type"] == "warrior_done":
        _finish_warrior(state, task, events)
        return
    task = {**task, "chosen": [*task["chosen"], action["tile"]]}
    if len(task["chosen"]) == len(state["hands"][task["seat"]]):
        _finish_warrior(state, task, events)
    else:
        state["pending"].append(task)


def _finish_warrior(state: State, task: dict, events: list[Event]) -> None:
    """D-20, D-11: the chosen tiles go under the pile in order, then draw as many."""
    seat = task["seat"]
    chosen = task["chosen"]
    hand = state["hands"][seat]
    for tile in chosen:
        hand.remove(tile)
    state["stack"].extend(chosen)
    drawn = _draw(state, seat, len(chosen))
    events.append({"type": "tiles_cycled", "seat": seat, "count": len(chosen)})
    events.extend(
        _private(
            state,
            [seat],
            {"type": "tiles_cycled_detail", "seat": seat, "under": list(chosen), "tiles": drawn},
        )
    )


def _on_place_drakon(state: State, task: dict, action: Action, events: list[Event]) -> None:
    state["drakon"] = action["at"]
    events.append({"type": "drakon_placed", "seat": task["seat"], "at": action["at"]})


def _on_escape(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """A-9 Escape: the hero goes onto the new chamber (not a move: no Harp, no leave effect)."""
    seat = task["seat"]
    if action["type"] == "skip":
        events.append({"type": "escape_declined", "seat": seat, "at": task["at"]})
        return
    origin = state["heroes"][seat]
    state["heroes"][seat] = task["at"]
    events.append({"type": "hero_placed", "seat": seat, "from": origin, "to": task["at"]})
    if edition_of(state).escape_placement_wins:
        _escape_win(state, seat, room_at(state, task["at"]), events)


def _on_destroy(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-23: the chamber goes face down under the pile."""
    at = action["at"]
    tile, _rot = remove_room(state, at)
    state["stack"].append(tile)
    room, pattern = tiles_of(state)[tile]
    events.append(
        {
            "type": "room_destroyed",
            "seat": task["seat"],
            "at": at,
            "tile": tile,
            "room": room,
            "pattern": pattern,
        }
    )


def _on_drakon_move(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """A-10, A-11: only heroes where Drakon stops meet her (0 steps included)."""
    origin = state["drakon"]
    state["drakon"] = action["to"]
    events.append(
        {"type": "drakon_moved", "seat": task["seat"], "from": origin, "to": action["to"]}
    )
    _encounter(state, action["to"], events)


def _on_float(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-5: the chamber flies with every figure on it; nothing else triggers."""
    seat = task["seat"]
    origin = task["at"]
    if action["type"] == "skip":
        events.append({"type": "float_declined", "seat": seat, "at": origin})
        return
    tile, _rot = remove_room(state, origin)
    to = action["to"]
    set_room(state, to, [tile, action["rot"]])
    carried = heroes_at(state, origin)
    for other in carried:
        state["heroes"][other] = to
    if state["drakon"] == origin:  # never in play (she would have met the hero); kept safe
        state["drakon"] = to
    pattern = tiles_of(state)[tile][1]
    events.append(
        {
            "type": "room_floated",
            "seat": seat,
            "from": origin,
            "to": to,
            "rot": action["rot"],
            "arrows": arrows_of(MASKS[pattern][action["rot"]]),
            "carried": carried,
        }
    )


def _on_mind_control(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-6: the controller chose the move; the target resolves whatever it enters."""
    seat, target = task["seat"], action["target"]
    lair = lair_of(state)
    cell = xy(action["to"])
    events.append({"type": "mind_controlled", "seat": seat, "target": target})
    via = move_targets(state, lair, target)[cell]
    _move_hero(state, lair, target, cell, via, events, cause="mind_control", by=seat)


def _on_rotate(state: State, task: dict, action: Action, events: list[Event]) -> None:
    at = action["at"]
    tile, rot = state["board"][at]
    new_rot = (rot + action["turns"]) % 4
    set_room(state, at, [tile, new_rot])
    pattern = tiles_of(state)[tile][1]
    events.append(
        {
            "type": "room_rotated",
            "seat": task["seat"],
            "at": at,
            "turns": action["turns"],
            "rot": new_rot,
            "arrows": arrows_of(MASKS[pattern][new_rot]),
        }
    )


def _on_steal_tile(state: State, task: dict, action: Action, events: list[Event]) -> None:
    _steal_random_tile(state, task["seat"], action["from"], "steal_tile", events)


def _on_swap(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-22: exchange; the new tile triggers nothing but counts as put into play; no draw."""
    seat = task["seat"]
    at, tile, rot = action["at"], action["tile"], action["rot"]
    old, _old_rot = state["board"][at]
    state["hands"][seat].remove(tile)
    state["hands"][seat].append(old)
    set_room(state, at, [tile, rot])
    old_room, old_pattern = tiles_of(state)[old]
    events.append(
        {
            "type": "room_removed",
            "seat": seat,
            "at": at,
            "tile": old,
            "room": old_room,
            "pattern": old_pattern,
        }
    )
    events.append(_placed_event(state, seat, tile, at, rot, "swapped"))
    _put_in_play_hooks(state, seat, at, tile)


def _on_druid(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-17: cancel the whole coin loss (the stealer gains nothing), once per game."""
    seat = task["seat"]
    if action["type"] == "protect":
        state["abilities_used"][seat] = True
        events.append(
            {"type": "ability_used", "seat": seat, "hero": "druid", "cause": task["cause"]}
        )
        return
    _lose_coin_now(state, seat, task["to"], task["cause"], events)


HANDLERS = {
    CHOOSE_HERO: _on_choose_hero,
    ACTION: _on_action,
    AFTER_ACTION: _on_after_action,
    PLACE_DRAKON: _on_place_drakon,
    ESCAPE: _on_escape,
    DESTROY: _on_destroy,
    DRAKON_MOVE: _on_drakon_move,
    FLOAT: _on_float,
    MIND_CONTROL: _on_mind_control,
    ROTATE: _on_rotate,
    STEAL_TILE: _on_steal_tile,
    SWAP: _on_swap,
    DRUID: _on_druid,
    WARRIOR: _on_warrior,
}


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
        out["available"] = [action["hero"] for action in _legal_choose_hero(state, task)]
    if task["kind"] == WARRIOR:
        out["chosen_count"] = len(task["chosen"])
        if viewer == task["seat"]:
            out["chosen"] = [tile_view(state, tile) for tile in task["chosen"]]
    if task["kind"] == DRUID:
        out["victim"] = task["seat"]
    return out


def build_view(game: DrakonGame, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = spectator).

    Public: the lair, every figure, hand and coin counts, pile and hoard
    sizes, abilities used, the decision awaited. Own secrets: the seat's hand
    and the values of its coins (the team pool in team play). Never shown:
    the pile order, the hoard's values, other hands, the PRNG. Once over,
    every player's coins are revealed (A-13).
    """
    n = state["n_players"]
    viewer = seat if _is_seat(state, seat) else None
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
    assert len(state["coins"]) == _pool_count(n, state["options"])
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
        assert _is_seat(state, top.get("seat")), "the top task is a decision for a seat"
        for task in state["pending"]:
            assert task["kind"] in LEGAL or task["kind"] in AUTO, f"unknown task {task['kind']}"


# State construction ---------------------------------------------------------------------------


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
) -> State:
    """The one place that lists every state key (documented in docs/rules/drakon.md)."""
    return {
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
    """
    ed = C.EDITIONS[edition]
    resolved = resolve_options(GAME, options or {})
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
    n_pools = _pool_count(n_players, resolved)
    pools = [_take_coins(supply, values) for values in (coins or [])]
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
    )
    state["rng"] = Rng.from_seed(seed).dump()
    if decision:
        check_invariants(state)
    return state


def start_next_turn(state: State) -> tuple[State, list[Event]]:
    """On a copy: run the turn start of the seat after ``active`` (skips, blocked end, guards)."""
    new = _copy_state(state)
    new["pending"] = []
    events: list[Event] = []
    _run(new, events)
    return new, events


GAME = DrakonGame()
