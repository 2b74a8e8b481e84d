"""The lair's geometry: cells, arrows, rotations and the index of the rooms in play.

Arrows are bit masks (N=1, E=2, S=4, W=8, clockwise); x grows east, y grows
north (C-0). Everything here is a pure function of the board and the tile
catalogue, cached per board object because every rule asks it again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from games.catalog.drakon import components as C
from games.catalog.drakon.rules.state import tiles_of
from games.engine.base import State

BITS: dict[str, int] = {"N": 1, "E": 2, "S": 4, "W": 8}
LETTERS: dict[int, str] = {bit: letter for letter, bit in BITS.items()}
STEPS: tuple[tuple[int, int, int], ...] = ((1, 0, 1), (2, 1, 0), (4, 0, -1), (8, -1, 0))
BACK: dict[int, int] = {1: 4, 2: 8, 4: 1, 8: 2}

ENTRANCE_KEY = "0,0"


def rotate_mask(mask: int, turns: int) -> int:
    """The arrows after ``turns`` quarter-turns clockwise (N->E->S->W->N)."""
    for _turn in range(turns % 4):
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
    ``memo`` keeps what the rules work out from the lair alone (the frontier's
    cells in order, a pattern's placements, where a hero can walk), as a lair
    is never changed once built: a changed board gets a new one.
    """

    __slots__ = ("kind", "memo", "mask")

    def __init__(self, state: State | None = None):
        kind: dict[tuple[int, int], str] = {}
        mask: dict[tuple[int, int], int] = {}
        self.kind = kind
        self.mask = mask
        self.memo: dict[Any, Any] = {}
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

    def frontier_cells(self) -> list[tuple[str, int]]:
        """``frontier`` as (cell key, forbidden arrows), west to east then south to north
        (kept: every placement listing asks for it)."""
        cells = self.memo.get("cells")
        if cells is None:
            keys = _KEY_CACHE
            cells = self.memo["cells"] = [
                (keys.get(cell) or key_of(cell), forbidden)
                for cell, forbidden in sorted(self.frontier().items())
            ]
        return cells

    def frontier(self) -> dict[tuple[int, int], int]:
        """Empty cells sharing an edge with a room, each with its forbidden arrows
        (kept; the caller reads it, never changes it)."""
        out = self.memo.get("frontier")
        if out is not None:
            return out
        kind = self.kind
        out = {}
        for (x, y), arrows in self.mask.items():
            for bit, dx, dy in STEPS:
                cell = (x + dx, y + dy)
                if cell in kind:
                    continue
                # An arrow of this room pointing at the cell forbids the cell's arrow back.
                out[cell] = out.get(cell, 0) | (BACK[bit] if arrows & bit else 0)
        self.memo["frontier"] = out
        return out

    def with_room(self, pos: tuple[int, int], room: str, arrows: int) -> Lair:
        """This lair with a room added on the empty cell ``pos``: its frontier, when
        known, follows from this one's (only the cell and its neighbours change)."""
        other = Lair()
        other.kind = {**self.kind, pos: room}
        other.mask = {**self.mask, pos: arrows}
        frontier = self.memo.get("frontier")
        if frontier is not None:
            kind = other.kind
            out = dict(frontier)
            out.pop(pos, None)
            x, y = pos
            for bit, dx, dy in STEPS:
                cell = (x + dx, y + dy)
                if cell not in kind:
                    out[cell] = out.get(cell, 0) | (BACK[bit] if arrows & bit else 0)
            other.memo["frontier"] = out
        return other


def legal_rotations(pattern: str, forbidden: int) -> list[int]:
    return [r for r, mask in DISTINCT[pattern] if not mask & forbidden]


#: ROTATIONS[pattern][forbidden]: ``legal_rotations(pattern, forbidden)`` for every
#: set of forbidden arrows (0..15).
ROTATIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    pattern: tuple(tuple(legal_rotations(pattern, forbidden)) for forbidden in range(16))
    for pattern in DISTINCT
}


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


def share_lair(state: State, copy: State) -> None:
    """``copy``'s board, a fresh copy of ``state``'s with the same rooms, gets the lair
    ``state``'s board has (if built): a lair is never changed, and ``set_room`` and
    ``remove_room`` drop a board's entry when its rooms change."""
    board = state["board"]
    entry = _LAIRS.get(id(board))
    if entry is None or entry[0] is not board or entry[1] is not tiles_of(copy):
        return
    if len(_LAIRS) >= _LAIR_CACHE_SIZE:
        _LAIRS.clear()
    _LAIRS[id(copy["board"])] = (copy["board"], entry[1], entry[2])


def set_room(state: State, key: str, room: list[int]) -> None:
    """Put ``[tile, rot]`` at ``key`` (the only ways the rules change a board).

    A room put on an empty cell of a board whose lair is built gets that lair
    with the room added (``Lair.with_room``); otherwise the lair is dropped."""
    board = state["board"]
    entry = _LAIRS.pop(id(board), None)
    fresh = key not in board
    board[key] = room
    if fresh and entry is not None and entry[0] is board and entry[1] is tiles_of(state):
        kind, pattern = entry[1][room[0]]
        _LAIRS[id(board)] = (
            board,
            entry[1],
            entry[2].with_room(xy(key), kind, MASKS[pattern][room[1]]),
        )


def remove_room(state: State, key: str) -> list[int]:
    _LAIRS.pop(id(state["board"]), None)
    return state["board"].pop(key)
