"""Drako bots for either side: they play for bot seats and timed-out seats.

A bot reads only ``GAME.view(state, seat)`` and ``GAME.legal_actions(state,
seat)``: it never sees the other side's hand or either deck's order.

Levels:

- ``"random"``: a uniform choice among the legal actions.
- ``"heuristic"``: scores each legal action from the view. The dragon hunts
  the weakest dwarf (the fewest boxes left), keeps out of the crossbow's
  lines and away from crowds, frees itself from the net, and defends the
  hardest blows. The dwarves close in around the dragon, net it, shoot when
  the line is clear, attack whenever they can, use fury when they have an
  attack to spend it on, and put the dragon's wounds on its fire first.
  Ties are broken with the given ``Rng``.
"""

from __future__ import annotations

from typing import Any

from games.catalog.drako import components as C
from games.catalog.drako.rules import (
    BETWEEN,
    DISTANCES,
    GAME,
    NEIGHBOURS,
    RAYS,
    between,
    distance,
    ray,
)
from games.engine.base import Action, State
from games.engine.rng import Rng

LEVELS = ("random", "heuristic")

#: The strong level's search (games.engine.bots.SEARCH_DEFAULTS). Drako's rollouts ran
#: at about 14 a second of one core when the cap was 12; since the schema copy and
#: the heuristic's per-decision memo (docs/performance.md) they run about three
#: times as fast as at 12, so 36 a move take the time 12 took (docs/bots.md).
SEARCH = {"max_iterations": 36}


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    legal = GAME.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    if level == "random":
        return rng.choice(legal)
    if level != "heuristic":
        raise ValueError(f"unknown bot level {level!r}; choose from {LEVELS}")
    scores = _scores(GAME.view(state, seat), legal)
    best = max(scores)
    return rng.choice([a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9])


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    return _scores(GAME.view(state, seat), legal)


def _scores(view: dict[str, Any], legal: list[Action]) -> list[float]:
    """Every legal action's score, from the view. What every action's score reads of
    the position (the living dwarves, the weakest, the present formation or
    spot) is worked out once per decision, not once per action: the strong
    level's rollouts score every legal action of every move."""
    memo: dict[str, Any] = {}
    score = _dragon_score if view["my_side"] == C.DRAGON else _dwarves_score
    return [score(view, action, memo) for action in legal]


def _once(memo: dict[str, Any] | None, name: str, compute):
    """``compute()``, kept in ``memo`` under ``name`` for the rest of one decision."""
    if memo is None:
        return compute()
    if name not in memo:
        memo[name] = compute()
    return memo[name]


# Shared helpers on the view -----------------------------------------------------------------


def _living(view: dict[str, Any]) -> dict[str, str]:
    return {d: rec["at"] for d, rec in view["dwarves"].items() if rec["at"] is not None}


def _left(view: dict[str, Any], dwarf: str) -> int:
    return C.DWARF_BOXES[dwarf] - view["dwarves"][dwarf]["wounds"]


def _card_value(side: str, card: int) -> float:
    """How much a card is worth keeping (for discards)."""
    value = 0.0
    for symbol in C.card_options(side, card):
        code = C.symbol_code(symbol)
        strength = C.symbol_value(symbol)
        value = max(
            value,
            {
                C.DEF: 3,
                C.THROW_NET: 5,
                C.SHOOT: 3 + strength,
                C.ATK1: 2 + strength,
                C.ATK2: 3 + strength,
                C.BITE: 2 + strength,
                C.FIRE: 3 + strength,
                C.FLY: 4,
            }.get(code, 1 + strength * 0.5),
        )
    return value


def _in_crossbow_line(view: dict[str, Any], at: str, dwarves: dict[str, str] | None = None) -> bool:
    dwarves = _living(view) if dwarves is None else dwarves
    xbow = dwarves.get(C.XBOW)
    if xbow is None:
        return False
    line = BETWEEN[xbow, at] if (xbow, at) in BETWEEN else between(xbow, at)
    if line is None:
        return False
    others = {h for d, h in dwarves.items() if d != C.XBOW}
    return not any(h in others for h in line)


# The dragon ----------------------------------------------------------------------------------


def _weakest(view: dict[str, Any]) -> str | None:
    dwarves = _living(view)
    return min(dwarves, key=lambda d: (_left(view, d), d)) if dwarves else None


def _spot_value(view: dict[str, Any], at: str, memo: dict[str, Any] | None = None) -> float:
    """Where the dragon likes to stand: next to the weakest dwarf, out of crossbow lines,
    not surrounded."""
    dwarves = _once(memo, "living", lambda: _living(view))
    occupied = _once(memo, "occupied", lambda: set(dwarves.values()))
    near = [d for d, h in dwarves.items() if h in NEIGHBOURS[at]]
    value = -12.0 if _in_crossbow_line(view, at, dwarves) else 0.0
    value -= 4.0 * max(0, len(near) - 1)
    weakest = _once(memo, "weakest", lambda: _weakest(view))
    if weakest is not None:
        value -= 2.0 * _distance(at, dwarves[weakest])
        if weakest in near:
            value += 6.0
    value += 1.5 * len(_lines_occupied(at, occupied))
    return value


#: For a hex and another on one of its six lines: that line's direction (the board is
#: small and fixed; the rollouts ask "which line is this dwarf on" thousands of times).
_LINE_OF: dict[str, dict[str, int]] = {
    start: {h: direction for direction in range(6) for h in RAYS[start, direction]}
    for start in C.HEXES
}


def _lines_occupied(at: str, occupied: set[str]) -> dict[int, int]:
    """How many of the ``occupied`` hexes lie on each of ``at``'s lines, by direction."""
    lines = _LINE_OF.get(at)
    if lines is None:  # not a hex of the board: walk the rays
        found = {d: sum(1 for h in _ray(at, d) if h in occupied) for d in range(6)}
        return {d: n for d, n in found.items() if n}
    counts: dict[int, int] = {}
    for h in occupied:
        direction = lines.get(h)
        if direction is not None:
            counts[direction] = counts.get(direction, 0) + 1
    return counts


def _distance(a: str, b: str) -> int:
    found = DISTANCES.get((a, b))
    return distance(a, b) if found is None else found


def _ray(start: str, direction: int) -> tuple[str, ...]:
    """``rules.ray`` without the copy (the bot only reads it)."""
    found = RAYS.get((start, direction))
    return tuple(ray(start, direction)) if found is None else found


def _dragon_score(
    view: dict[str, Any], action: Action, memo: dict[str, Any] | None = None
) -> float:
    kind = action["type"]
    me = view["dragon"]
    hand = view["me"]["hand"]
    if kind == "keep":
        return 1.0
    if kind == "exchange":
        return 2.0 if sum(C.can_defend(C.DRAGON, c) for c in hand) == 0 else 0.0
    if kind == "defend":
        attack = view["pending"]["attacks"][action["attack"]]
        return 10.0 + attack["strength"] - 0.1 * _card_value(C.DRAGON, action["card"])
    if kind == "no_defence":
        attacks = [a for a in view["pending"]["attacks"] if not a["blocked"]]
        armour_left = C.DRAGON_BOXES[C.ARMOUR] - me[C.ARMOUR]
        hit = sum(a["strength"] for a in attacks)
        return 11.0 if hit <= armour_left - 2 else 0.0
    if kind == "discard":
        return -_card_value(C.DRAGON, action["card"])
    if kind == "free":
        return 30.0
    if kind == "draw":
        return 7.0 if len(hand) <= 3 else 2.0 if len(hand) < C.HAND_LIMIT else -5.0
    if kind != "play":
        return 0.0
    code = C.symbol_code(action["symbol"])
    strength = C.symbol_value(action["symbol"])
    if code == C.BITE:
        dwarf = action["dwarf"]
        kill = 20.0 if strength >= _left(view, dwarf) else 0.0
        weakest = _once(memo, "weakest", lambda: _weakest(view))
        return 8.0 + 4.0 * strength + kill + (3.0 if dwarf == weakest else 0.0)
    if code == C.FIRE:
        dwarves = _once(memo, "living", lambda: _living(view))
        line = _ray(me["at"], action["dir"])
        targets = [d for d, h in dwarves.items() if h in line]
        if not targets:
            return -8.0
        kills = sum(20.0 for d in targets if strength >= _left(view, d))
        return 7.0 + 4.0 * strength * len(targets) + kills
    if code in (C.DMOVE, C.FLY):
        here = _once(memo, "spot", lambda: _spot_value(view, me["at"], memo))
        gain = _spot_value(view, action["to"], memo) - here
        return gain - (2.0 if code == C.FLY else 0.0) - (3.0 if action["to"] == me["at"] else 0.0)
    return 0.0


# The dwarves ---------------------------------------------------------------------------------


def _formation(view: dict[str, Any], dwarves: dict[str, str]) -> float:
    """Surround the dragon: close in, the crossbow in a clear line, not lined up for fire."""
    dragon = view["dragon"]["at"]
    occupied = set(dwarves.values())
    value = -3.0 * sum(_distance(h, dragon) for h in dwarves.values())
    xbow = dwarves.get(C.XBOW)
    if xbow is not None:
        line = BETWEEN[xbow, dragon] if (xbow, dragon) in BETWEEN else between(xbow, dragon)
        if line is not None and occupied.isdisjoint(line):
            value += 5.0
    # Every term is a whole number, so the sum does not depend on the lines' order.
    for hit in _lines_occupied(dragon, occupied).values():
        if hit > 1:
            value -= 2.0 * (hit - 1)
    return value


def _dwarves_score(
    view: dict[str, Any], action: Action, memo: dict[str, Any] | None = None
) -> float:
    kind = action["type"]
    hand = view["me"]["hand"]
    dwarves = _once(memo, "living", lambda: _living(view))
    if kind == "keep":
        return 1.0
    if kind == "exchange":
        attacks = sum(
            1
            for c in hand
            if any(
                C.symbol_code(s) in (C.ATK1, C.ATK2, C.SHOOT) for s in C.card_options(C.DWARVES, c)
            )
        )
        return 2.0 if attacks == 0 else 0.0
    if kind == "place":
        placed = {d: h for d, h in dwarves.items() if d != action["dwarf"]}
        placed[action["dwarf"]] = action["at"]
        preferred = C.FIRST_GAME_DWARVES[action["dwarf"]] == action["at"]
        return _formation(view, placed) + (4.0 if preferred else 0.0)
    if kind == "defend":
        attack = view["pending"]["attacks"][action["attack"]]
        kill = 10.0 if attack["strength"] >= _left(view, attack["target"]) else 0.0
        return 5.0 + attack["strength"] + kill - 0.1 * _card_value(C.DWARVES, action["card"])
    if kind == "no_defence":
        return 5.5
    if kind == "wound":
        return {C.FIRE_TRACK: 3.0, C.FLY_TRACK: 2.0, C.MOVE_TRACK: 1.0}[action["track"]]
    if kind == "discard":
        return -_card_value(C.DWARVES, action["card"])
    if kind == "fury":
        playable_attack = any(
            C.symbol_code(s) in (C.ATK1, C.ATK2, C.SHOOT, C.THROW_NET)
            for c in hand
            for s in C.card_options(C.DWARVES, c)
        )
        healthy = _left(view, C.FURY) > 2
        return 9.0 if playable_attack and healthy and view["turn"]["actions_left"] == 0 else -1.0
    if kind == "end_turn":
        return 0.0
    if kind == "draw":
        return 6.0 if len(hand) <= 2 else 1.0 if len(hand) < C.HAND_LIMIT else -5.0
    if kind in ("move", "stop"):
        if kind == "stop":
            return 0.0
        moved = dict(dwarves)
        moved[action["dwarf"]] = action["to"]
        return _formation(view, moved) - _once(memo, "formation", lambda: _formation(view, dwarves))
    if kind != "play":
        return 0.0
    code = C.symbol_code(action["symbol"])
    strength = C.symbol_value(action["symbol"])
    if code == C.THROW_NET:
        return 25.0
    if code == C.SHOOT:
        return 10.0 + 5.0 * strength
    if code == C.ATK1:
        return 9.0 + 5.0 * strength
    if code == C.ATK2:
        return 8.0 + 5.0 * strength * len(action["dwarves"])
    if code == C.MOVE1:
        moved = dict(dwarves)
        moved[action["dwarf"]] = action["to"]
        here = _once(memo, "formation", lambda: _formation(view, dwarves))
        return _formation(view, moved) - here - 1.0
    if code == C.MOVE2:
        return 4.0 * strength
    return 0.0
