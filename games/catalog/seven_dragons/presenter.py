"""Seven Dragons for people: the grid of cards as SVG, log sentences, and the clicks of a play.

Works on ``view`` output only, never on the state. A dragon card is played
in up to three clicks: the card in the hand, one of the legal cells outlined
on the grid, then one of its legal orientations shown as a preview. An action
card is clicked in the hand, then its mode; its target is then clicked on the
grid (the card to zap, or to move and where) or among the players.
Every panel carries a letter as well as its colour, for colour-blind players.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import (
    CLOCKWISE,
    EXHAUSTED,
    P_MOVE_TO,
    SEVEN,
    parse_cell,
)
from games.catalog.wording import per_language

BOARD_TEMPLATE = "games/seven_dragons/board.jinja"
PRIVATE_TEMPLATE = "games/seven_dragons/private.jinja"
# The sentences name who acted ("Ada placed ..."), so the log omits the seat name.
SENTENCES_NAME_THE_ACTOR = True
# A piece on the board, measured at a phone's width by the browser tests.
PIECE_SELECTOR = "g.sd-card"
# The lobby's tile: a coiled dragon, and what the game is about.
ICON = "dragon-spiral"
SUMMARY = gettext_lazy(
    "Grow a grid of dragon cards until seven panels of your secret colour connect."
)

CW = 44  # a card's width on the grid, in SVG units (pixels at natural size)
CH = 60  # its height (cards are portrait)
GAP = 2
# The grid is drawn larger than its SVG units so a card reads at a glance on a
# desktop; a phone scrolls a wide grid sideways rather than shrinking it.
ZOOM = 1.4
# The least frame of the grid, in cards: 5 x 4 is 325 px wide at ZOOM (a phone's width).
MIN_COLS = 5
MIN_ROWS = 4
# The strips above and left of the grid that number its columns and rows, as the log
# names a card's place ("column 1, row -2"), so a place read in the log is found.
AXIS = 12
HAND_W = 40
HAND_H = 56

FILL = {
    C.RED: "#c62828",
    C.GOLD: "#f2b705",
    C.BLUE: "#1e5bb8",
    C.GREEN: "#2e7d32",
    C.BLACK: "#262626",
    C.RAINBOW: "url(#sd-rainbow)",
    C.SILVER: "#b9bec7",
    C.WILD: "url(#sd-rainbow)",
}
INK = {C.RED: "#fff", C.GOLD: "#222", C.BLUE: "#fff", C.GREEN: "#fff", C.BLACK: "#fff"}
#: A pattern per colour on top of the fill, so colours differ without colour vision too.
PATTERN = {
    C.RED: "",
    C.GOLD: "url(#sd-dots)",
    C.BLUE: "url(#sd-rows)",
    C.GREEN: "url(#sd-slant)",
    C.BLACK: "url(#sd-grid)",
}
QUAD_OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))


#: A letter per colour that fits the reader's word for it (English R, Y, B, G, K; Polish
#: C, Ż, N, Z, K; Czech Č, Ž, M, Z, K: black keeps the printers' K beside czerwony/červený).
COLOUR_LETTERS = {
    C.RED: pgettext_lazy("colour letter", "R"),
    C.GOLD: pgettext_lazy("colour letter", "Y"),
    C.BLUE: pgettext_lazy("colour letter", "B"),
    C.GREEN: pgettext_lazy("colour letter", "G"),
    C.BLACK: pgettext_lazy("colour letter", "K"),
}


@per_language
def colour_letter(colour: str | None) -> str:
    """The colour's letter in the reader's language; "*" for the rainbow (every colour)."""
    letter = COLOUR_LETTERS.get(colour)
    return str(letter) if letter is not None else "*"


@per_language
def colour_name(colour: str) -> str:
    if colour == C.WILD:
        return _("any colour")
    return _(C.COLOUR_NAMES[colour])


@per_language
def card_label(card: str) -> str:
    """A card named for people: its action, or its colours from top left."""
    if C.is_action(card):
        kind = C.ACTIONS[card]
        return _("%(action)s (%(colour)s)") % {
            "action": _(C.ACTION_NAMES[kind]),
            "colour": colour_name(C.ACTION_COLOURS[kind]),
        }
    if card == C.SILVER_CARD:
        return _("the silver dragon")
    colours = list(dict.fromkeys(C.quadrants(card)))
    if colours == [C.RAINBOW]:
        return _("the rainbow dragon")
    return _("dragon card %(colours)s") % {"colours": "/".join(colour_name(c) for c in colours)}


@per_language
def cell_label(key: str) -> str:
    x, y = parse_cell(key)
    return _("column %(x)s, row %(y)s") % {"x": x, "y": y}


@per_language
def rot_label(rot: int) -> str:
    return _("upright") if rot == 0 else _("turned upside down")


def seat_label(view: dict, seat: int) -> str:
    names = view.get("_names") or []
    if seat < view["n_players"]:
        return names[seat] if seat < len(names) else _("Player %(n)s") % {"n": seat + 1}
    return _("the goal set aside no. %(n)s") % {"n": seat - view["n_players"] + 1}


def mode_label(card: str, mode: str) -> str:
    colour = colour_name(C.ACTION_COLOURS[C.ACTIONS[card]])
    if mode == "top":
        return _("Use it, then put it on top (the silver dragon turns %(colour)s)") % {
            "colour": colour
        }
    if mode == "bottom":
        return _("Use it, then put it at the bottom (the silver dragon keeps its colour)")
    return _("Only put it on top, without its action (the silver dragon turns %(colour)s)") % {
        "colour": colour
    }


# The clicks of an action -----------------------------------------------------------------


def _orientation_matters(card: str) -> bool:
    return C.rotate180(C.quadrants(card)) != C.quadrants(card)


def action_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    kind = action["type"]
    if kind == "place":
        card = action["card"]
        steps = [
            (f"card-{card}", _("Play %(card)s") % {"card": card_label(card)}),
            (f"cell-{action['cell']}", _("at %(cell)s") % {"cell": cell_label(action["cell"])}),
        ]
        if _orientation_matters(card):
            steps.append((f"rot-{action['rot']}", rot_label(action["rot"])))
        return steps
    if kind == "action":
        card = action["card"]
        return [
            (f"card-{card}", _("Play %(card)s") % {"card": card_label(card)}),
            (f"mode-{action['mode']}", mode_label(card, action["mode"])),
        ]
    if kind == "pass":
        return [("pass", _("Pass: no card of yours fits anywhere"))]
    if kind == "zap":
        return [
            (
                f"zap-{action['cell']}",
                _("Zap the card at %(cell)s") % {"cell": cell_label(action["cell"])},
            )
        ]
    if kind == "lift":
        return [
            (
                f"lift-{action['cell']}",
                _("Move the card at %(cell)s") % {"cell": cell_label(action["cell"])},
            )
        ]
    if kind == "drop":
        steps = [
            (f"cell-{action['cell']}", _("to %(cell)s") % {"cell": cell_label(action["cell"])})
        ]
        pending = view.get("pending") or {}
        moving = view["board"].get(pending.get("from", ""), [C.SILVER_CARD])[0]
        if _orientation_matters(moving):
            steps.append((f"rot-{action['rot']}", rot_label(action["rot"])))
        return steps
    if kind == "rotate":
        if action["direction"] == CLOCKWISE:
            return [("dir-clockwise", _("Turn every goal one seat clockwise"))]
        return [("dir-counterclockwise", _("Turn every goal one seat counter-clockwise"))]
    if kind == "trade_goals":
        return [
            (
                f"goal-{action['with']}",
                _("Trade goals with %(who)s") % {"who": seat_label(view, action["with"])},
            )
        ]
    if kind == "trade_hands":
        return [
            (
                f"hand-{action['with']}",
                _("Trade hands with %(who)s") % {"who": seat_label(view, action["with"])},
            )
        ]
    raise ValueError(f"unknown action {kind!r}")


# The board ---------------------------------------------------------------------------------


@dataclass
class Quad:
    x: float
    y: float
    w: float
    h: float
    fill: str
    pattern: str
    letter: str
    ink: str


@dataclass
class Cell:
    key: str
    x: float
    y: float
    label: str
    quads: list[Quad] = field(default_factory=list)
    silver: str = ""
    choice: object = None
    target: str = ""  # "spot", "zap", "lift", "chosen", "lifted"


@dataclass
class HandCard:
    card: str
    label: str
    quads: list[Quad]
    action: str = ""
    colour: str = ""
    ink: str = "#fff"
    choice: object = None


def _quads(card: str, rot: int, x: float, y: float, w: float, h: float, silver: str) -> list[Quad]:
    out = []
    for q, colour in enumerate(C.quadrants(card, rot)):
        shown = silver if colour == C.SILVER else colour
        dx, dy = QUAD_OFFSETS[q]
        out.append(
            Quad(
                x=x + dx * w / 2,
                y=y + dy * h / 2,
                w=w / 2,
                h=h / 2,
                fill=FILL[shown],
                pattern=PATTERN.get(shown, ""),
                letter=colour_letter(shown),
                ink=INK.get(shown, "#222"),
            )
        )
    return out


def _index(choices) -> dict[str, object]:
    return {choice.key: choice for choice in (choices.choices if choices else [])}


def _path_value(choices, prefix: str) -> str | None:
    """The value of a click already made (``cell-1,0`` in the path ``card-X.cell-1,0``)."""
    for choice in choices.choices if choices else []:
        for step in choice.path.split("."):
            if step.startswith(prefix):
                return step[len(prefix) :]
    return None


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    by_key = _index(choices)
    view = {**view, "_names": names}
    silver = view["silver"]
    pending = view["pending"] or {}
    chosen_cell = (
        _path_value(choices, "cell-") if any(k.startswith("rot-") for k in by_key) else None
    )
    lifted = pending.get("from") if pending.get("kind") == P_MOVE_TO else None
    keys = set(view["board"])
    keys |= {key[len("cell-") :] for key in by_key if key.startswith("cell-")}
    xs = [parse_cell(k)[0] for k in keys]
    ys = [parse_cell(k)[1] for k in keys]
    min_x, min_y = min(xs) - 0, min(ys) - 0
    cols, rows = max(xs) - min_x + 1, max(ys) - min_y + 1
    # A small grid is centred in a frame of at least MIN_COLS x MIN_ROWS cards, so that
    # sized to a desktop's column the lone silver dragon is not blown up.
    left = AXIS + max(0, MIN_COLS - cols) * (CW + GAP) // 2
    top = AXIS + max(0, MIN_ROWS - rows) * (CH + GAP) // 2
    axes = {
        "columns": [
            {"n": x, "x": left + GAP + (x - min_x) * (CW + GAP) + CW // 2}
            for x in range(min_x, min_x + cols)
        ],
        "rows": [
            {"n": y, "y": top + GAP + (y - min_y) * (CH + GAP) + CH // 2}
            for y in range(min_y, min_y + rows)
        ],
        "column_y": AXIS - 2,
        "row_x": AXIS // 2,
    }
    cols, rows = max(cols, MIN_COLS), max(rows, MIN_ROWS)

    def at(key: str) -> tuple[float, float]:
        x, y = parse_cell(key)
        return (left + GAP + (x - min_x) * (CW + GAP), top + GAP + (y - min_y) * (CH + GAP))

    cells = []
    for key, (card, rot) in sorted(view["board"].items()):
        x, y = at(key)
        choice = by_key.get(f"zap-{key}") or by_key.get(f"lift-{key}")
        target = "zap" if f"zap-{key}" in by_key else "lift" if f"lift-{key}" in by_key else ""
        if key == lifted:
            target = "lifted"
        label = card_label(card)
        if card == C.SILVER_CARD:
            label = _("The silver dragon, counting as %(colour)s") % {"colour": colour_name(silver)}
        cells.append(
            Cell(
                key=key,
                x=x,
                y=y,
                label=f"{cell_label(key)}: {label}" + (f" ({rot_label(rot)})" if rot else ""),
                quads=_quads(card, rot, x, y, CW, CH, silver),
                silver=colour_letter(silver) if card == C.SILVER_CARD else "",
                choice=choice,
                target=target,
            )
        )
    spots = []
    for key, choice in by_key.items():
        if key.startswith("cell-"):
            cell = key[len("cell-") :]
            x, y = at(cell)
            spots.append(Cell(key=cell, x=x, y=y, label=choice.label, choice=choice, target="spot"))
    if chosen_cell is not None:
        x, y = at(chosen_cell)
        spots.append(
            Cell(key=chosen_cell, x=x, y=y, label=cell_label(chosen_cell), target="chosen")
        )
    previews = _previews(view, by_key, chosen_cell, silver)
    width = AXIS + GAP + cols * (CW + GAP)
    height = AXIS + GAP + rows * (CH + GAP)
    return {
        "width": width,
        "height": height,
        "axes": axes,
        "display_width": round(width * ZOOM),
        "display_height": round(height * ZOOM),
        "cells": cells,
        "spots": spots,
        "previews": previews,
        "silver": {
            "name": colour_name(silver),
            "fill": FILL[silver],
            "letter": colour_letter(silver),
        },
        "pile_top": _pile_top(view),
        "pile_count": len(view["pile"]),
        # Plurals are worded here: makemessages gathers no ngettext from Jinja.
        "pile_count_text": ngettext(
            "%(n)s card in the pile", "%(n)s cards in the pile", len(view["pile"])
        )
        % {"n": len(view["pile"])},
        "largest": [
            {
                "colour": colour,
                "name": colour_name(colour),
                "fill": FILL[colour],
                "pattern": PATTERN[colour],
                "letter": colour_letter(colour),
                "ink": INK[colour],
                "size": view["largest"][colour],
            }
            for colour in C.COLOURS
        ],
        "seats": _seats(view, names),
        "deck": view["deck_count"],
        "imaginary": view["imaginary"],
        "imaginary_text": ngettext(
            "%(n)s goal set aside", "%(n)s goals set aside", view["imaginary"]
        )
        % {"n": view["imaginary"]},
        "turn": _turn_line(view, names),
        "pending": _pending_line(view, names),
        "other_choices": [c for k, c in by_key.items() if not k.startswith(DRAWN_ON_BOARD)],
        "over": _over(view, names),
        "revealed": _revealed(view, names),
        "description": _(
            "Cards on the grid: %(n)s; the silver dragon counts as %(colour)s; cards in the deck: %(deck)s."
        )
        % {"n": len(view["board"]), "colour": colour_name(silver), "deck": view["deck_count"]},
        "legend": [(colour_letter(c), colour_name(c)) for c in C.COLOURS],
    }


# Choice keys drawn where they happen (cells, cards in hand, previews); every other
# choice (modes, directions, players) is a button above the board.
DRAWN_ON_BOARD = ("cell-", "zap-", "lift-", "card-", "rot-")


def _previews(view: dict, by_key: dict, chosen_cell: str | None, silver: str) -> list[dict]:
    pending = view["pending"] or {}
    card = None
    for key in by_key:
        if key.startswith("rot-"):
            if pending.get("kind") == P_MOVE_TO:
                card = view["board"][pending["from"]][0]
            else:
                card = _path_value_from(by_key, "card-")
            break
    if card is None:
        return []
    out = []
    for rot in (0, 180):
        choice = by_key.get(f"rot-{rot}")
        if choice is None:
            continue
        out.append(
            {
                "rot": rot,
                "label": choice.label,
                "choice": choice,
                "quads": _quads(card, rot, 2, 2, HAND_W, HAND_H, silver),
            }
        )
    return out


def _path_value_from(by_key: dict, prefix: str) -> str | None:
    for choice in by_key.values():
        for step in choice.path.split("."):
            if step.startswith(prefix):
                return step[len(prefix) :]
    return None


def _cards_drawn(view: dict) -> dict[str, tuple]:
    """Each card on the grid as drawn: the card, its turn, and for the silver dragon
    the colour it counts as (its disc changes colour with the pile)."""
    return {
        cell: (card, rot, view["silver"] if card == C.SILVER_CARD else None)
        for cell, (card, rot) in view["board"].items()
    }


def changed(before: dict, after: dict) -> set[str]:
    """What changed on the table for the viewer: ``card:<cell>`` for a card laid,
    moved, swapped or (the silver dragon) counting as another colour, ``silver``
    and ``pile`` for the silver dragon's colour and the action pile's top card
    beside the grid, ``hand:<card>`` for a card new in the viewer's hand and
    ``goal`` when the viewer's own goal changed. A card taken off the grid is
    gone and not named."""
    keys = set()
    drawn = _cards_drawn(before)
    for cell, face in _cards_drawn(after).items():
        if drawn.get(cell) != face:
            keys.add(f"card:{cell}")
    if before["silver"] != after["silver"]:
        keys.add("silver")
    if after["pile"] and before["pile"][-1:] != after["pile"][-1:]:
        keys.add("pile")
    held = set(before["my_hand"] or [])
    keys.update(f"hand:{card}" for card in after["my_hand"] or [] if card not in held)
    if after["my_goal"] and before["my_goal"] != after["my_goal"]:
        keys.add("goal")
    return keys


def _pile_top(view: dict) -> dict | None:
    if not view["pile"]:
        return None
    card = view["pile"][-1]
    colour = C.ACTION_COLOURS[C.ACTIONS[card]]
    return {
        "label": card_label(card),
        "name": _(C.ACTION_NAMES[C.ACTIONS[card]]),
        "fill": FILL[colour],
        "ink": INK[colour],
        "letter": colour_letter(colour),
    }


def private_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict | None:
    """The viewer's secret goal and hand (the cards a click may play); None for
    a spectator."""
    if not view["my_hand"] and not view["my_goal"]:
        return None
    return {
        "hand": _hand(view, _index(choices), view["silver"]),
        "my_goal": _goal(view["my_goal"]) if view["my_goal"] else None,
    }


def _goal(colour: str) -> dict:
    return {
        "name": colour_name(colour),
        "fill": FILL[colour],
        "ink": INK[colour],
        "letter": colour_letter(colour),
    }


def _hand(view: dict, by_key: dict, silver: str) -> list[HandCard]:
    cards = []
    for card in view["my_hand"] or []:
        choice = by_key.get(f"card-{card}")
        if C.is_action(card):
            colour = C.ACTION_COLOURS[C.ACTIONS[card]]
            cards.append(
                HandCard(
                    card=card,
                    label=card_label(card),
                    quads=[],
                    action=_(C.ACTION_NAMES[C.ACTIONS[card]]),
                    colour=FILL[colour],
                    ink=INK[colour],
                    choice=choice,
                )
            )
        else:
            cards.append(
                HandCard(
                    card=card,
                    label=card_label(card),
                    quads=_quads(card, 0, 2, 2, HAND_W, HAND_H, silver),
                    choice=choice,
                )
            )
    return cards


def _seats(view: dict, names: list[str]) -> list[dict]:
    return [
        {
            "name": names[seat] if seat < len(names) else str(seat + 1),
            "cards": ngettext("%(n)s card", "%(n)s cards", count) % {"n": count},
            "active": view["active"] == seat,
        }
        for seat, count in enumerate(view["hand_counts"])
    ]


def _turn_line(view: dict, names: list[str]) -> str:
    if view["over"]:
        return ""
    who = names[view["active"]] if view["active"] < len(names) else ""
    return _("%(who)s to play.") % {"who": who}


def _pending_line(view: dict, names: list[str]) -> str:
    pending = view["pending"]
    if not pending:
        return ""
    who = names[view["active"]] if view["active"] < len(names) else ""
    kind = pending["kind"]
    texts = {
        C.ZAP: _("%(who)s chooses a card to zap."),
        C.MOVE: _("%(who)s chooses a card to move."),
        P_MOVE_TO: _("%(who)s chooses where the lifted card goes."),
        C.ROTATE: _("%(who)s chooses which way the goals turn."),
        C.TRADE_GOALS: _("%(who)s chooses whose goal to take."),
        C.TRADE_HANDS: _("%(who)s chooses whose hand to take."),
    }
    return texts[kind] % {"who": who}


def _over(view: dict, names: list[str]) -> str:
    if not view["over"]:
        return ""
    winners = ", ".join(names[s] for s in view["winners"] if s < len(names))
    if view["end_reason"] == EXHAUSTED:
        return _("The cards ran out: %(who)s won with the largest group.") % {"who": winners}
    return _("%(who)s connected seven dragons and won.") % {"who": winners}


def _revealed(view: dict, names: list[str]) -> list[dict]:
    revealed = view["revealed"]
    if not revealed:
        return []
    rows = []
    for seat, colour in enumerate(revealed["goals"]):
        hand = revealed["hands"][seat] if seat < len(revealed["hands"]) else []
        rows.append(
            {
                "who": seat_label({**view, "_names": names}, seat),
                "goal": _goal(colour),
                "hand": ", ".join(card_label(c) for c in hand),
            }
        )
    return rows


# The log -----------------------------------------------------------------------------------


def describe_event(event: dict, names: list[str]) -> str:
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event and event["seat"] < len(names) else ""
    if kind == "dealt":
        return ngettext(
            "%(who)s was dealt %(n)s card.", "%(who)s was dealt %(n)s cards.", event["count"]
        ) % {"who": who, "n": event["count"]}
    if kind == "your_cards":
        return _("Your cards: %(cards)s.") % {"cards": _cards(event["cards"])}
    if kind == "your_goal":
        return _("Your secret goal: %(colour)s.") % {"colour": colour_name(event["colour"])}
    if kind == "goals_aside":
        return ngettext(
            "%(n)s goal was set aside face down.",
            "%(n)s goals were set aside face down.",
            event["count"],
        ) % {"n": event["count"]}
    if kind == "drew":
        return _("%(who)s drew a card.") % {"who": who}
    if kind == "drew_card":
        return _("You drew %(card)s.") % {"card": card_label(event["card"])}
    if kind == "bonus_drawn":
        return ngettext(
            "%(who)s drew %(n)s extra card for connecting several colours.",
            "%(who)s drew %(n)s extra cards for connecting several colours.",
            event["count"],
        ) % {"who": who, "n": event["count"]}
    if kind == "placed":
        return _("%(who)s placed %(card)s at %(cell)s, %(rot)s.") % {
            "who": who,
            "card": card_label(event["card"]),
            "cell": cell_label(event["cell"]),
            "rot": rot_label(event["rot"]),
        }
    if kind == "action":
        return _("%(who)s played %(card)s: %(mode)s.") % {
            "who": who,
            "card": card_label(event["card"]),
            "mode": mode_label(event["card"], event["mode"]),
        }
    if kind == "lifted":
        return _("%(who)s lifted %(card)s from %(cell)s.") % {
            "who": who,
            "card": card_label(event["card"]),
            "cell": cell_label(event["cell"]),
        }
    if kind == "moved":
        return _("%(who)s moved %(card)s from %(from)s to %(cell)s, %(rot)s.") % {
            "who": who,
            "card": card_label(event["card"]),
            "from": cell_label(event["from"]),
            "cell": cell_label(event["cell"]),
            "rot": rot_label(event["rot"]),
        }
    if kind == "zapped":
        return _("%(who)s zapped %(card)s from %(cell)s into their hand.") % {
            "who": who,
            "card": card_label(event["card"]),
            "cell": cell_label(event["cell"]),
        }
    if kind == "rotated":
        if event["direction"] == CLOCKWISE:
            return _("%(who)s turned every goal one seat clockwise.") % {"who": who}
        return _("%(who)s turned every goal one seat counter-clockwise.") % {"who": who}
    if kind == "goal_now":
        return _("Your secret goal is now %(colour)s.") % {"colour": colour_name(event["colour"])}
    if kind == "traded_goals":
        if event["imaginary"]:
            return _("%(who)s traded goals with a goal set aside.") % {"who": who}
        return _("%(who)s traded goals with %(other)s.") % {
            "who": who,
            "other": names[event["with"]],
        }
    if kind == "traded_hands":
        return _("%(who)s traded hands with %(other)s.") % {
            "who": who,
            "other": names[event["with"]],
        }
    if kind == "hand_now":
        return _("Your hand now: %(cards)s.") % {"cards": _cards(event["cards"]) or _("no cards")}
    if kind == "pile":
        if event["at"] == "bottom":
            return _(
                "The action card went to the bottom of the pile; the silver dragon counts as %(colour)s."
            ) % {"colour": colour_name(event["silver"])}
        return _(
            "The action card went on top of the pile; the silver dragon counts as %(colour)s."
        ) % {"colour": colour_name(event["silver"])}
    if kind == "passed":
        return _("%(who)s could not play any card and passed.") % {"who": who}
    if kind == "skipped":
        return _("%(who)s has no cards left and is skipped.") % {"who": who}
    if kind == "won":
        return _("%(who)s connected %(n)s %(colour)s dragons and won!") % {
            "who": who,
            "n": event["size"],
            "colour": colour_name(event["colour"]),
        }
    if kind == "exhausted":
        winners = ", ".join(names[s] for s in event["winners"] if s < len(names))
        return _("The deck and the hands ran out: %(who)s won with a group of %(n)s.") % {
            "who": winners,
            "n": event["size"],
        }
    if kind == "goals_revealed":
        view = {"n_players": event["players"], "_names": names}
        goals = [
            _("%(who)s: %(colour)s") % {"who": seat_label(view, s), "colour": colour_name(c)}
            for s, c in enumerate(event["goals"])
        ]
        return _("The goals were: %(goals)s.") % {"goals": "; ".join(goals)}
    raise ValueError(f"unknown event {kind!r}")


def _cards(cards: list[str]) -> str:
    return ", ".join(card_label(card) for card in cards)


# In words ----------------------------------------------------------------------------------


def _card_in_words(card: str, rot: int, silver: str) -> str:
    """A laid card with the colours of its four panels as they lie (top row, then bottom)."""
    if card == C.SILVER_CARD:
        return _("the silver dragon, counting as %(colour)s") % {"colour": colour_name(silver)}
    name = card_label(card)
    tl, tr, bl, br = (colour_name(c) for c in C.quadrants(card, rot))
    if len({tl, tr, bl, br}) == 1:
        return name
    return _("%(card)s: top %(tl)s and %(tr)s, bottom %(bl)s and %(br)s") % {
        "card": name,
        "tl": tl,
        "tr": tr,
        "bl": bl,
        "br": br,
    }


def describe_board(view: dict, names: list[str]) -> list[str]:
    """The grid card by card (each panel's colour as it lies), the silver dragon, the
    largest group of each colour, the pile, the deck, every hand's size, and the viewer's
    own goal and hand; everyone's goals only once they are revealed."""
    silver = view["silver"]
    lines = [_("The silver dragon counts as %(colour)s.") % {"colour": colour_name(silver)}]
    lines.append(
        ngettext("%(n)s card on the grid:", "%(n)s cards on the grid:", len(view["board"]))
        % {"n": len(view["board"])}
    )
    for key in sorted(view["board"], key=lambda k: parse_cell(k)[::-1]):
        card, rot = view["board"][key]
        lines.append(
            _("%(cell)s: %(card)s.")
            % {"cell": _cap(cell_label(key)), "card": _card_in_words(card, rot, silver)}
        )
    lines.append(
        _("Largest group of each colour: %(groups)s.")
        % {
            "groups": ", ".join(
                f"{colour_name(colour)} {view['largest'][colour]}" for colour in C.COLOURS
            )
        }
    )
    top = _pile_top(view)
    if top:
        lines.append(
            ngettext(
                "Action pile: %(n)s card, %(card)s on top.",
                "Action pile: %(n)s cards, %(card)s on top.",
                len(view["pile"]),
            )
            % {"n": len(view["pile"]), "card": top["label"]}
        )
    else:
        lines.append(_("The action pile is empty."))
    lines.append(_("Cards in the deck: %(n)s.") % {"n": view["deck_count"]})
    lines.append(
        _("Cards in hand: %(hands)s.")
        % {
            "hands": ", ".join(
                f"{names[seat] if seat < len(names) else seat + 1} {count}"
                for seat, count in enumerate(view["hand_counts"])
            )
        }
    )
    if view["imaginary"]:
        lines.append(
            ngettext(
                "%(n)s goal is set aside face down.",
                "%(n)s goals are set aside face down.",
                view["imaginary"],
            )
            % {"n": view["imaginary"]}
        )
    if view["my_goal"]:
        lines.append(_("Your secret goal: %(colour)s.") % {"colour": colour_name(view["my_goal"])})
    if view["my_hand"] is not None and not view["over"]:
        lines.append(_("Your cards: %(cards)s.") % {"cards": _cards(view["my_hand"]) or _("none")})
    for line in (_turn_line(view, names), _pending_line(view, names), _over(view, names)):
        if line:
            lines.append(line)
    for row in _revealed(view, names):
        lines.append(
            _("%(who)s: goal %(colour)s; cards: %(hand)s.")
            % {"who": row["who"], "colour": row["goal"]["name"], "hand": row["hand"] or _("none")}
        )
    return [str(line) for line in lines]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


END_REASONS = {
    SEVEN: gettext_lazy("A group of seven dragons of a player's goal colour won the game."),
    EXHAUSTED: gettext_lazy(
        "The cards ran out: the largest group of a player's goal colour won the game."
    ),
}


def final_summary(result: dict, names: list[str]) -> dict:
    """A.9, A.10: each seat's secret goal (revealed) and the largest group of that colour."""
    details = result.get("details") or {}
    goals = details.get("goals") or []
    scores = result.get("scores") or []
    cells = []
    for seat in range(len(names)):
        goal = goals[seat] if seat < len(goals) else None
        score = scores[seat] if seat < len(scores) else None
        cells.append(
            [
                colour_name(goal) if goal else "",
                "" if score is None else str(score),
            ]
        )
    return {
        "reason": str(END_REASONS.get(details.get("end_reason"), "")),
        "columns": [str(_("Goal colour")), str(_("Largest group of it"))],
        "cells": cells,
    }


# How to play: pictures drawn as the board draws cards ---------------------------------------

FIGURES_TEMPLATE = "games/seven_dragons/figures.jinja"
#: A matching placement: the new card's top-left red dragon touches the red one on its left.
PLACEMENT = {"0,0": "DR-H-red-green", "1,0": "DR-V-red-blue"}
PLACED = "1,0"
#: A winning group: seven cards whose red dragons touch edge to edge (the rainbow counts).
WINNING = {
    "0,0": "DR-S-red#1",
    "1,0": "DR-H-red-gold",
    "2,0": "DR-S-red#2",
    "3,0": "DR-RBW",
    "0,1": "DR-H-red-blue",
    "2,1": "DR-V-red-green",
    "3,1": "DR-H-red-black",
}
#: The silver dragon takes the colour of the action card on top of the pile.
SILVER_EXAMPLE = C.ACTION_IDS[C.ZAP] + "#1"


def _figure_grid(cards: dict[str, str]) -> dict:
    """A few cards laid out as the board lays them (``Cell``s with their quadrants)."""
    xs = [parse_cell(key)[0] for key in cards]
    ys = [parse_cell(key)[1] for key in cards]
    cells = []
    for key, card in cards.items():
        x, y = parse_cell(key)
        left, top = GAP + (x - min(xs)) * (CW + GAP), GAP + (y - min(ys)) * (CH + GAP)
        cells.append(
            Cell(
                key=key,
                x=left,
                y=top,
                label=card_label(card),
                quads=_quads(card, 0, left, top, CW, CH, C.WILD),
                target="lift" if cards is PLACEMENT and key == PLACED else "",
            )
        )
    width = GAP + (max(xs) - min(xs) + 1) * (CW + GAP)
    height = GAP + (max(ys) - min(ys) + 1) * (CH + GAP)
    return {"cells": cells, "width": width, "height": height}


def _action_card(card: str) -> HandCard:
    colour = C.ACTION_COLOURS[C.ACTIONS[card]]
    return HandCard(
        card=card,
        label=card_label(card),
        quads=[],
        action=_(C.ACTION_NAMES[C.ACTIONS[card]]),
        colour=FILL[colour],
        ink=INK[colour],
    )


def how_to_play_figure(name: str) -> tuple[str, dict]:
    """The template and context of a picture on the How to play page (``{% how_to_play_figure
    "…" %}``): the action cards, a matching placement, the silver dragon's colour and a
    winning group, drawn with the board's own card drawing and colours (``defs``: the
    patterns they fill with, once per page)."""
    figure: dict = {"name": name}
    if name == "defs":  # the colours' gradient and patterns, once, before the others
        pass
    elif name == "actions":
        figure["cards"] = [_action_card(f"{C.ACTION_IDS[kind]}#1") for kind in C.ACTION_COLOURS]
    elif name == "placement":
        figure.update(_figure_grid(PLACEMENT))
        figure["title"] = _(
            "A placement that fits: the new card's red dragon touches a red dragon edge to edge."
        )
    elif name == "winning":
        figure.update(_figure_grid(WINNING))
        figure["title"] = _("A winning group: seven cards connected by their red dragons.")
    elif name == "silver":
        colour = C.ACTION_COLOURS[C.ACTIONS[SILVER_EXAMPLE]]
        figure["silver"] = {
            "fill": FILL[colour],
            "letter": colour_letter(colour),
            "name": colour_name(colour),
        }
        figure["pile_top"] = _action_card(SILVER_EXAMPLE)
        figure["title"] = _(
            "The silver dragon takes the colour of the action card on top of the pile: %(colour)s."
        ) % {"colour": colour_name(colour)}
    else:
        raise ValueError(f"Seven Dragons has no picture called {name!r}")
    return FIGURES_TEMPLATE, {"figure": figure}
