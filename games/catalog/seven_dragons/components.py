"""Component data for Seven Dragons (Andrew Looney) as plain constants.

The authoritative source is ``shared/rules/seven_dragons.md``, section B: all
51 dragon cards in a 2x2 quadrant model (TL, TR, BL, BR at 0 degrees), the
silver dragon, 15 action cards (3 of each type) and 5 goals. They are data so
that a corrected card is a one-line change; changing a card changes how old
move logs replay, so bump ``SevenDragonsGame.rules_version`` when you do.

Card ids are the spec's ids; the two copies of a single-colour card and the
three copies of an action are told apart by ``#1``, ``#2``, ``#3``.
"""

from __future__ import annotations

from games.engine.i18n import _

RED, GOLD, BLUE, GREEN, BLACK = "red", "gold", "blue", "green", "black"
#: The five colours in the rules' cycle (red, gold, blue, green, black).
COLOURS: tuple[str, ...] = (RED, GOLD, BLUE, GREEN, BLACK)
RAINBOW = "rainbow"
SILVER = "silver"
#: A quadrant that matches every colour (the rainbow, the silver dragon on an empty pile).
WILD = "wild"

COLOUR_NAMES = {
    RED: _("red"),
    GOLD: _("gold"),
    BLUE: _("blue"),
    GREEN: _("green"),
    BLACK: _("black"),
    RAINBOW: _("rainbow"),
    SILVER: _("silver"),
}

# Dragon cards (spec B.2): id -> (layout, (TL, TR, BL, BR)) at 0 degrees -------------------

_SINGLE = "single"
_HALF_H = "half_h"
_HALF_V = "half_v"
_THREE_H = "three_h"
_THREE_V = "three_v"
_QUAD = "quad"
LAYOUTS = (_SINGLE, _HALF_H, _HALF_V, _THREE_H, _THREE_V, _QUAD)


def _quads() -> dict[str, tuple[str, tuple[str, str, str, str]]]:
    cards: dict[str, tuple[str, tuple[str, str, str, str]]] = {
        "DR-RBW": (_SINGLE, (RAINBOW,) * 4),
    }
    for colour in COLOURS:
        for copy in (1, 2):
            cards[f"DR-S-{colour}#{copy}"] = (_SINGLE, (colour,) * 4)
    for i, a in enumerate(COLOURS):
        for b in COLOURS[i + 1 :]:
            cards[f"DR-H-{a}-{b}"] = (_HALF_H, (a, a, b, b))
    for i, a in enumerate(COLOURS):
        for b in COLOURS[i + 1 :]:
            cards[f"DR-V-{a}-{b}"] = (_HALF_V, (a, b, a, b))
    return cards


DRAGONS: dict[str, tuple[str, tuple[str, str, str, str]]] = {
    **_quads(),
    "DR-T3H-red-black-green": (_THREE_H, (RED, RED, BLACK, GREEN)),
    "DR-T3H-gold-red-black": (_THREE_H, (GOLD, GOLD, RED, BLACK)),
    "DR-T3H-blue-gold-red": (_THREE_H, (BLUE, BLUE, GOLD, RED)),
    "DR-T3H-green-blue-gold": (_THREE_H, (GREEN, GREEN, BLUE, GOLD)),
    "DR-T3H-black-green-blue": (_THREE_H, (BLACK, BLACK, GREEN, BLUE)),
    "DR-T3V-red-gold-blue": (_THREE_V, (RED, GOLD, RED, BLUE)),
    "DR-T3V-gold-blue-green": (_THREE_V, (GOLD, BLUE, GOLD, GREEN)),
    "DR-T3V-blue-green-black": (_THREE_V, (BLUE, GREEN, BLUE, BLACK)),
    "DR-T3V-green-black-red": (_THREE_V, (GREEN, BLACK, GREEN, RED)),
    "DR-T3V-black-red-gold": (_THREE_V, (BLACK, RED, BLACK, GOLD)),
    "DR-Q01": (_QUAD, (RED, BLACK, BLUE, GREEN)),
    "DR-Q02": (_QUAD, (GOLD, BLUE, RED, BLACK)),
    "DR-Q03": (_QUAD, (GOLD, GREEN, BLUE, RED)),
    "DR-Q04": (_QUAD, (GOLD, BLACK, GREEN, BLUE)),
    "DR-Q05": (_QUAD, (BLUE, RED, GREEN, BLACK)),
    "DR-Q06": (_QUAD, (BLUE, BLACK, GOLD, RED)),
    "DR-Q07": (_QUAD, (GREEN, RED, GOLD, BLUE)),
    "DR-Q08": (_QUAD, (GREEN, RED, BLACK, GOLD)),
    "DR-Q09": (_QUAD, (GREEN, GOLD, BLUE, BLACK)),
    "DR-Q10": (_QUAD, (BLACK, GREEN, GOLD, RED)),
}

SILVER_CARD = "SILVER"
RAINBOW_CARD = "DR-RBW"

# Action cards (spec B.3) ------------------------------------------------------------------

MOVE = "move"
ZAP = "zap"
ROTATE = "rotate"
TRADE_GOALS = "trade_goals"
TRADE_HANDS = "trade_hands"
#: Each action with its fixed dragon colour (RB; C-27).
ACTION_COLOURS = {MOVE: GREEN, ZAP: RED, ROTATE: BLUE, TRADE_GOALS: GOLD, TRADE_HANDS: BLACK}
ACTION_IDS = {
    MOVE: "ACT-MOVE",
    ZAP: "ACT-ZAP",
    ROTATE: "ACT-ROTATE",
    TRADE_GOALS: "ACT-TRADEGOALS",
    TRADE_HANDS: "ACT-TRADEHANDS",
}
ACTION_COPIES = 3
ACTION_NAMES = {
    MOVE: _("Move a Card"),
    ZAP: _("Zap a Card"),
    ROTATE: _("Rotate Goals"),
    TRADE_GOALS: _("Trade Goals"),
    TRADE_HANDS: _("Trade Hands"),
}
ACTIONS: dict[str, str] = {
    f"{ACTION_IDS[kind]}#{copy}": kind
    for kind in ACTION_COLOURS
    for copy in range(1, ACTION_COPIES + 1)
}

#: The draw deck: every dragon card and every action card (66), never the silver or goals.
DECK: tuple[str, ...] = tuple(DRAGONS) + tuple(ACTIONS)
HAND_SIZE = 3
GOAL_SEATS = 5
WIN_SIZE = 7


def is_dragon(card: str) -> bool:
    return card in DRAGONS


def is_action(card: str) -> bool:
    return card in ACTIONS


def rotate180(quads: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
    """``[TL, TR, BL, BR] -> [BR, BL, TR, TL]`` (spec A.0)."""
    tl, tr, bl, br = quads
    return (br, bl, tr, tl)


_LAID: dict[tuple[str, int], tuple[str, str, str, str]] = {
    **{(card, 0): quads for card, (_layout, quads) in DRAGONS.items()},
    **{(card, 180): rotate180(quads) for card, (_layout, quads) in DRAGONS.items()},
    (SILVER_CARD, 0): (SILVER,) * 4,
    (SILVER_CARD, 180): (SILVER,) * 4,
}


def quadrants(card: str, rot: int = 0) -> tuple[str, str, str, str]:
    """The printed colours of ``card`` laid at ``rot`` (0 or 180) degrees."""
    return _LAID[card, rot]


def layout(card: str) -> str:
    return _SINGLE if card == SILVER_CARD else DRAGONS[card][0]


def base_name(card: str) -> str:
    """The card's spec id without the copy number (``DR-S-red#2`` -> ``DR-S-red``)."""
    return card.split("#")[0]
