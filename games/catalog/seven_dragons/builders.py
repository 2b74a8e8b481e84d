"""Building Seven Dragons positions for scenario tests, from the state schema.

``position(...)`` returns a state in play at the start of the active seat's
play (its draw already made unless ``draw=True``), with a chosen grid, pile,
hands, goals and deck; impossible positions are refused. Cards may be named by
their spec id without the copy number (``"DR-S-red"``, ``"ACT-ZAP"``): the
builder picks a free copy. Every card not named goes to the deck (its order
from ``seed``); when ``deck`` names its cards or gives its size, the cards left
over go to the hand of the last seat other than the active one. Pure: no Django.

Example (spec D-11)::

    state = position(
        board={"1,0": "DR-S-red", "0,1": "DR-S-blue"},
        hands=[["DR-H-red-blue"], []],
        goals=["red", "blue"],
    )
    GAME.apply(state, 0, {"type": "place", "card": "DR-H-red-blue", "cell": "1,1", "rot": 0})
"""

from __future__ import annotations

from typing import Any

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import (
    GAME,
    ORIGIN,
    _begin_turn,
    check_position,
    new_state,
    parse_cell,
)
from games.engine.base import State, resolve_options
from games.engine.rng import Rng


class _Cards:
    """Hands out concrete copies for spec ids, refusing a card used twice."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, name: str) -> str:
        if name in C.DECK:
            candidates = [name]
        else:
            candidates = [c for c in C.DECK if C.base_name(c) == name]
            if not candidates:
                raise ValueError(f"no card called {name!r}")
        for card in candidates:
            if card not in self.taken:
                self.taken.add(card)
                return card
        raise ValueError(f"every copy of {name!r} is already used")


def card(name: str, nth: int = 1) -> str:
    """The concrete id of a card: ``card("DR-S-red", 2) == "DR-S-red#2"``, ``card("DR-Q01")``."""
    if name in C.DECK:
        return name
    copies = [c for c in C.DECK if C.base_name(c) == name]
    if not copies:
        raise ValueError(f"no card called {name!r}")
    return copies[nth - 1]


def position(
    *,
    board: dict[str, Any] | None = None,
    hands: list[list[str]] | None = None,
    goals: list[str] | None = None,
    pile: list[str] | None = None,
    deck: list[str] | int | None = None,
    active: int = 0,
    draw: bool = False,
    options: dict[str, Any] | None = None,
    seed: str = "seven-dragons-test",
) -> State:
    """A position in play (see the module docstring).

    ``board`` maps ``"x,y"`` to a card name or ``(name, rot)``; the silver
    dragon is always at ``0,0``. ``goals`` lists the real seats' goals (the
    rest go to the imaginary seats in colour order) or all five. ``pile`` is
    bottom to top. ``deck`` as a list is top-last (the next draw is its last
    card); as an int it is the deck's size, filled from the unused cards.
    """
    hands = [list(h) for h in (hands if hands is not None else [[], []])]
    n = len(hands)
    if not GAME.min_players <= n <= GAME.max_players:
        raise ValueError("Seven Dragons needs 2 to 5 hands")
    if not 0 <= active < n:
        raise ValueError("the active seat is not at the table")
    cards = _Cards()
    grid: dict[str, list] = {}
    for key, value in (board or {}).items():
        name, rot = (value, 0) if isinstance(value, str) else value
        if key == ORIGIN:
            raise ValueError("the silver dragon sits at 0,0")
        parse_cell(key)
        concrete = cards.take(name)
        if not C.is_dragon(concrete) or rot not in (0, 180):
            raise ValueError(f"{name!r} at {rot} cannot lie on the grid")
        grid[key] = [concrete, rot]
    real_hands = [[cards.take(name) for name in hand] for hand in hands]
    piled = [cards.take(name) for name in (pile or [])]
    if not all(C.is_action(c) for c in piled):
        raise ValueError("only action cards go on the pile")
    goals = list(goals if goals is not None else C.COLOURS[:n])
    if len(goals) not in (n, C.GOAL_SEATS) or len(set(goals)) != len(goals):
        raise ValueError("give one distinct goal per player (or all five)")
    goals += [c for c in C.COLOURS if c not in goals]
    rest = [c for c in C.DECK if c not in cards.taken]
    rest = Rng.from_seed(seed).shuffled(rest)
    if isinstance(deck, list):
        chosen = [cards.take(name) for name in deck]
        leftover = [c for c in rest if c not in chosen]
        deck_cards = chosen
    else:
        size = len(rest) if deck is None else deck
        if size > len(rest):
            raise ValueError("not enough cards left for that deck")
        deck_cards, leftover = rest[:size], rest[size:]
    # Cards named nowhere and not in the deck cannot vanish: they go to the hand of
    # the last seat other than the active one.
    holder = max(s for s in range(n) if s != active)
    real_hands[holder] += leftover
    state = new_state(
        options=resolve_options(GAME, options or {}),
        hands=real_hands,
        goals=goals,
        deck=deck_cards,
        board=grid,
        pile=piled,
        active=active,
    )
    state["rng"] = Rng.from_seed(seed).dump()
    state["turn"] = 5
    if draw:
        _begin_turn(state, active, [])
    check_position(state)
    return state
