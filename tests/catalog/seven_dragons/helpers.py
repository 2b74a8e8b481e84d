"""Small helpers shared by the Seven Dragons scenario tests (positions come from builders)."""

from __future__ import annotations

from games.catalog.seven_dragons.builders import card
from games.catalog.seven_dragons.rules import GAME


def place(state, seat, name, cell, rot=0):
    """Place the card ``name`` (a spec id or a concrete copy) from ``seat``'s hand."""
    held = [c for c in state["hands"][seat] if c == name or c.split("#")[0] == name]
    assert held, f"{name} is not in seat {seat}'s hand"
    return GAME.apply(state, seat, {"type": "place", "card": held[0], "cell": cell, "rot": rot})


def play_action(state, seat, name, mode="top"):
    held = [c for c in state["hands"][seat] if c.split("#")[0] == name]
    assert held, f"{name} is not in seat {seat}'s hand"
    return GAME.apply(state, seat, {"type": "action", "card": min(held), "mode": mode})


def types(events):
    return [event["type"] for event in events]


def placement_actions(state, seat, name):
    """The legal (cell, rot) pairs for the card ``name`` held by ``seat``."""
    target = card(name) if "#" not in name else name
    return {
        (a["cell"], a["rot"])
        for a in GAME.legal_actions(state, seat)
        if a["type"] == "place" and a["card"].split("#")[0] == target.split("#")[0]
    }


def endgame(hands, top, goals, far=20):
    """A position with an empty deck where every card not named is spent.

    Unused action cards lie under ``top`` in the pile; unused dragon cards lie far
    from the centre, each alone (every other cell), so they join no group bigger
    than one card and touch nothing near the silver dragon.
    """
    from games.catalog.seven_dragons import components as C
    from games.catalog.seven_dragons.builders import position
    from games.catalog.seven_dragons.rules import check_position

    state = position(hands=hands, deck=0, goals=goals, pile=[top])
    named = [list(h) for h in state["hands"]]
    holder = max(s for s in range(len(hands)) if s != state["active"])
    parked = named[holder][len(hands[holder]) :]
    state["hands"][holder] = named[holder][: len(hands[holder])]
    state["pile"] = [c for c in parked if C.is_action(c)] + state["pile"]
    for i, dragon in enumerate(c for c in parked if C.is_dragon(c)):
        state["board"][f"{far + 2 * (i % 8)},{far + 2 * (i // 8)}"] = [dragon, 0]
    check_position(state)
    return state
