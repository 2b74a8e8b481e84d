"""Building Drako positions for scenario tests, from the state schema.

``position(...)`` returns a state at the start of an action of the side to
move (no decision pending), with chosen figures, wounds, markers, hands and
piles; ``check(state)`` refuses impossible positions. Cards are named by type
("W06" is the dwarves' Attack-with-1-dwarf 2 card, "G08" the dragon's Fire 2;
see ``components.DWARF_DECK`` and ``DRAGON_DECK``), and the builder picks the
copies. Pure: no Django.

Example (spec S15)::

    state = position(
        to_move="dwarves",
        dwarves={"fury": "2,0", "xbow": "-2,2", "net": "0,-2"},
        hands={"dwarves": ["W06"]},
    )
    GAME.apply(state, seat_of(state, "dwarves"), {...})
"""

from __future__ import annotations

from typing import Any

from games.catalog.drako import components as C
from games.catalog.drako.rules import (
    GAME,
    PLAY,
    check_position,
    dragon_dead,
    living,
    new_state,
)
from games.engine.base import State, resolve_options
from games.engine.rng import Rng

#: Dwarves "out of the way" in scenarios (none in line with, or next to, the centre).
FAR_DWARVES = dict(C.FIRST_GAME_DWARVES)


def cards(
    side: str, kinds: list[str] | tuple[str, ...], taken: set[int] | None = None
) -> list[int]:
    """Card ids for the given types (one id per entry), skipping ids in ``taken``."""
    taken = set() if taken is None else taken
    ids = []
    for kind in kinds:
        for card, card_kind in enumerate(C.CARD_TYPES[side]):
            if card_kind == kind and card not in taken:
                ids.append(card)
                taken.add(card)
                break
        else:
            raise ValueError(f"no {kind} card left in the {side} deck")
    return ids


def card_id(side: str, kind: str, nth: int = 0) -> int:
    """The id of the ``nth`` copy of a card type."""
    matches = [card for card, k in enumerate(C.CARD_TYPES[side]) if k == kind]
    return matches[nth]


def position(
    *,
    to_move: str = C.DRAGON,
    dragon_seat: int = 0,
    dragon_at: str = C.DRAGON_START,
    dwarves: dict[str, str | None] | None = None,
    wounds: dict[str, int] | None = None,
    dragon_tracks: dict[str, int] | None = None,
    netted: bool = False,
    fury_available: bool = True,
    hands: dict[str, list[str]] | None = None,
    piles: dict[str, int | list[str]] | None = None,
    actions_left: int = 2,
    turn_number: int = 3,
    options: dict[str, Any] | None = None,
    seed: str = "drako-test",
) -> State:
    """A position in play, at the start of an action of ``to_move``.

    - ``dwarves``: ``{dwarf: hex}``; a dwarf given as None is dead (its boxes
      are filled). Dwarves left out stand on their first-game hexes.
    - ``wounds``: ``{dwarf: markers}`` for living dwarves.
    - ``dragon_tracks``: ``{"armour": 4, "fly": 1, ...}``.
    - ``netted``: the net marker is on the dragon (and not available).
    - ``hands``: ``{side: [card types]}``; a side left out holds 4 cards
      without a Defence (dragon G02, G02, G04, G07; dwarves W03, W03, W05,
      W02), so attacks against it resolve without a reaction.
    - ``piles``: ``{side: count or [card types]}`` (a list is in draw order,
      the first drawn first); default 10 cards. A count takes unused cards in
      id order. Cards in no hand and no pile have been played.
    - ``actions_left``: of the side to move (the dragon's first turn has 1).
    """
    placed = dict(FAR_DWARVES)
    placed.update(dwarves or {})
    hands = hands if hands is not None else {}
    hand_kinds = {
        C.DRAGON: hands.get(C.DRAGON, ["G02", "G02", "G04", "G07"]),
        C.DWARVES: hands.get(C.DWARVES, ["W03", "W03", "W05", "W02"]),
    }
    piles = piles if piles is not None else {}
    hand_ids: dict[str, list[int]] = {}
    pile_ids: dict[str, list[int]] = {}
    for side in C.SIDES:
        taken: set[int] = set()
        hand_ids[side] = cards(side, hand_kinds[side], taken)
        pile = piles.get(side, 10)
        if isinstance(pile, int):
            free = [c for c in range(C.DECK_SIZE) if c not in taken]
            if pile > len(free):
                raise ValueError(f"the {side} deck has only {len(free)} cards left")
            chosen = free[:pile]
        else:
            chosen = cards(side, pile, taken)
        pile_ids[side] = list(reversed(chosen))  # the state draws from the end
    state = new_state(
        options=resolve_options(GAME, options or {"sides": "seat1_dragon"}),
        dragon_seat=dragon_seat,
        dwarves=placed,
        hands=hand_ids,
        piles=pile_ids,
        dragon_at=dragon_at,
    )
    for dwarf, at in placed.items():
        if at is None:
            state["dwarves"][dwarf]["wounds"] = C.DWARF_BOXES[dwarf]
    for dwarf, count in (wounds or {}).items():
        state["dwarves"][dwarf]["wounds"] = count
    for track, count in (dragon_tracks or {}).items():
        state["dragon"][track] = count
    state["dragon"]["netted"] = netted
    state["net_available"] = not netted
    state["fury_available"] = fury_available
    state["exchanged"] = dict.fromkeys(C.SIDES, True)
    state["phase"] = PLAY
    state["turn"] = {
        "side": to_move,
        "number": turn_number,
        "actions_left": actions_left,
        "free_possible": actions_left == C.ACTIONS_PER_TURN,
    }
    state["rng"] = Rng.from_seed(seed).dump()
    check(state)
    return state


def check(state: State) -> None:
    """Refuse an impossible position with ValueError (figures sharing a hex, a dead
    dragon still playing, a living dwarf with full boxes, lost cards...)."""
    for dwarf in C.DWARF_IDS:
        record = state["dwarves"][dwarf]
        if record["at"] is not None and record["wounds"] >= C.DWARF_BOXES[dwarf]:
            raise ValueError(f"{dwarf} has every box filled but stands on the board")
    if state["phase"] == PLAY:
        if dragon_dead(state):
            raise ValueError("the dragon is dead: the game would be over")
        if not living(state):
            raise ValueError("every dwarf is dead: the game would be over")
    try:
        check_position(state)
    except AssertionError as error:
        raise ValueError(str(error)) from None
