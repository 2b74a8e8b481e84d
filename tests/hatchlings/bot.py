"""Hatchlings bot: reads only its own view and legal actions."""

from __future__ import annotations

from games.engine.base import Action, State
from games.engine.rng import Rng
from tests.hatchlings.rules import GAME


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    legal = GAME.legal_actions(state, seat)
    if level == "random":
        return legal[rng.below(len(legal))]
    hatches = [a for a in legal if a["type"] == "hatch"]
    view = GAME.view(state, seat)
    # Bury the smallest egg while the clutch still has eggs to draw instead.
    if view["clutch_count"] and not view["buried"][seat] and min(view["my_hand"]) <= 2:
        return {"type": "bury", "egg": min(view["my_hand"])}
    return max(hatches, key=lambda a: a["egg"])
