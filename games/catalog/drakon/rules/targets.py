"""Where things can go: hero moves, Drakon's reach and the targets of room effects.

Each function answers one rule's question from the state and a ``Lair``;
the legal actions, the room effects and the bot are all built on them.
"""

from __future__ import annotations

from games.catalog.drakon.rules.lair import (
    BACK,
    ENTRANCE_KEY,
    MASKS,
    STEPS,
    Lair,
    key_of,
    legal_rotations,
    neighbours,
    xy,
)
from games.catalog.drakon.rules.state import (
    ability_ready,
    are_enemies,
    edition_of,
    occupied_keys,
    tiles_of,
)
from games.engine.base import State

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
    if not ability_ready(state, seat, edition_of(state).power_hero):
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
    for _step in range(steps):
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


# Whether coins can still change hands (ruling 20) ----------------------------------------------

#: Rooms whose effect moves a coin between a hero and the hoard or another hero.
COIN_ROOMS = frozenset(
    {"find_coin", "lose_coin", "steal_left", "steal_right", "find_gold", "drakons_due", "start"}
)
#: Of those, the rooms that take a coin from the hoard (nothing to take when it is empty).
GAIN_ROOMS = frozenset({"find_coin", "find_gold"})
#: Rooms that change the lair, move Drakon or move another hero: once one can be
#: entered, any room may become reachable, so nothing can be ruled out.
CHANGING_ROOMS = frozenset(
    {
        "destroy",
        "drakon_moves",
        "floating",
        "mind_control",
        "rotate",
        "steal_tile",
        "swap",
        "map",
        "mind_orb",
        "shift",
        "wishing_well",
    }
)


def reachable_rooms(state: State, lair: Lair, seat: int, start: str) -> frozenset[tuple[int, int]]:
    """Every chamber ``seat``'s hero can stand on from ``start`` by move actions in the
    lair as it is (the start included), with a Sorceress's unused power once.

    Move targets read only the lair, the edition and where the hero stands, so
    the answer is kept on the lair by (edition, start, power left): the search's
    rollouts ask it at every turn of a game's dry end, over a lair that no longer
    changes."""
    power_left = ability_ready(state, seat, "sorceress")
    memo_key = ("reach", state["edition"], start, power_left)
    found = lair.memo.get(memo_key)
    if found is not None:
        return found
    probe = dict(state)
    heroes = list(state["heroes"])
    probe["heroes"] = heroes
    seen = {(xy(start), power_left)}
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
    found = lair.memo[memo_key] = frozenset(pos for pos, _power in seen)
    return found


def _worth_reaching(state: State, room: str, held: bool, hoard: bool) -> bool:
    """Whether entering ``room`` could move a coin, end the Escape variant or change the lair."""
    if room in CHANGING_ROOMS:
        return True
    if room in GAIN_ROOMS:
        return hoard
    if room in COIN_ROOMS:
        return held
    return bool(state["options"].get("escape")) and room in edition_of(state).escape_rooms


def coins_can_change_hands(state: State, lair: Lair) -> bool:
    """Whether any coin may still move between the heroes and the hoard (ruling 20).

    Decided on the position, erring towards "yes": with a tile in any hand the
    lair can still grow, so yes. Otherwise yes if an unused Thief can act, or
    if some hero can walk (over the lair as it is, from where it stands or from
    the Entrance, where Drakon sends heroes) into a room that moves a coin that
    exists (Find a Coin with gold in the hoard; Lose a Coin, a steal, Drakon's
    chamber or Drakon Moves while some hero holds a coin), into an Escape room
    of the Escape variant, or into a room that changes the lair or moves a
    figure. Only "no" lets the no-progress guard end the game.
    """
    if any(state["hands"]):
        return True
    held = any(state["coins"])
    hoard = bool(state["hoard"])
    if held and any(ability_ready(state, s, "thief") for s in range(state["n_players"])):
        return True
    escape = bool(state["options"].get("escape"))
    memo_key = ("wanted", state["edition"], held, hoard, escape)
    worth = lair.memo.get(memo_key)
    if worth is None:
        worth = lair.memo[memo_key] = frozenset(
            pos for pos, room in lair.kind.items() if _worth_reaching(state, room, held, hoard)
        )
    wanted = set(worth)
    if state["drakon"] is not None and held:
        wanted.add(xy(state["drakon"]))
    if not wanted:
        return False
    starts = {ENTRANCE_KEY} if state["drakon"] is not None else set()
    for seat in range(state["n_players"]):
        for start in {state["heroes"][seat], *starts}:
            if reachable_rooms(state, lair, seat, start) & wanted:
                return True
    return False
