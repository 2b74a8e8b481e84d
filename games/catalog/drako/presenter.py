"""Drako for people: the hex board and the two mats as SVG, log sentences, and the
clicks that build a move. Works on ``view`` output only, never on the state.

A card is played in a few clicks: the card (in the hand, under the board),
then its symbol when it has two, then the target where it is on the board: a
hex to move or fly to, a dwarf to move or bite, a direction to breathe fire.
The defender's reaction, the wounds the dwarf player places on the dragon's
mat, fury and freeing from the net are clicked where they are drawn too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.catalog.drako import components as C
from games.catalog.drako.rules import ray

BOARD_TEMPLATE = "games/drako/board.jinja"
PRIVATE_TEMPLATE = "games/drako/private.jinja"
# The sentences name who acted ("The dragon bites Urpen."), so the log omits the seat name.
SENTENCES_NAME_THE_ACTOR = True
# A piece on the board, measured at a phone's width by the browser tests.
PIECE_SELECTOR = ".drako-board g.piece circle"
# The lobby's tile: a dwarf's face, and what the game is about.
ICON = "dwarf-face"
SUMMARY = gettext_lazy(
    "A duel: three dwarves against a dragon, each side playing its own deck of cards."
)

SIZE = 36  # hex radius in SVG units
ROOT3 = math.sqrt(3)
BOARD_W = 320
BOARD_H = 300
CX = BOARD_W / 2
CY = BOARD_H / 2

DWARF_COLOURS = {C.XBOW: "#2a6fd0", C.NET: "#2e8b57", C.FURY: "#d2691e"}
DRAGON_COLOUR = "#b4321f"
TRACK_LABELS = {
    C.ARMOUR: gettext_lazy("Armour"),
    C.FLY_TRACK: gettext_lazy("Wings (fly)"),
    C.MOVE_TRACK: gettext_lazy("Legs (walk)"),
    C.FIRE_TRACK: gettext_lazy("Fire"),
}
ABILITY_LABELS = {
    C.XBOW: gettext_lazy("crossbow"),
    C.NET: gettext_lazy("net"),
    C.FURY: gettext_lazy("fury"),
}
SYMBOL_LABELS = {
    C.MOVE1: gettext_lazy("Move 1 dwarf"),
    C.MOVE2: gettext_lazy("Move 2 dwarves"),
    C.ATK1: gettext_lazy("Attack with 1 dwarf"),
    C.ATK2: gettext_lazy("Attack with 2 dwarves"),
    C.SHOOT: gettext_lazy("Crossbow shot"),
    C.THROW_NET: gettext_lazy("Net"),
    C.DEF: gettext_lazy("Defence"),
    C.DMOVE: gettext_lazy("Dragon move"),
    C.FLY: gettext_lazy("Fly"),
    C.BITE: gettext_lazy("Bite"),
    C.FIRE: gettext_lazy("Fire breath"),
}
DIRECTION_LABELS = (
    gettext_lazy("east"),
    gettext_lazy("north-east"),
    gettext_lazy("north-west"),
    gettext_lazy("west"),
    gettext_lazy("south-west"),
    gettext_lazy("south-east"),
)
REASONS = {
    "dragon_killed": gettext_lazy("The dragon is dead: the dwarves win."),
    "dwarves_killed": gettext_lazy("All three dwarves are dead: the dragon wins."),
    "dwarves_out_of_cards": gettext_lazy(
        "The dwarves have played their last card and the dragon lives: the dragon wins."
    ),
}
# The rules' winner had left the match (a bot played the seat): the other side wins.
LEFT_REASONS = {
    "dragon_killed": gettext_lazy(
        "The dragon is dead, but the dwarves' player had left the match: the dragon wins."
    ),
    "dwarves_killed": gettext_lazy(
        "All three dwarves are dead, but the dragon's player had left the match: the dwarves win."
    ),
    "dwarves_out_of_cards": gettext_lazy(
        "The dwarves have played their last card, but the dragon's player had left the match: "
        "the dwarves win."
    ),
}


# Names --------------------------------------------------------------------------------------


def _you_play(side: str | None) -> str | None:
    if side is None:
        return None
    return _("You play the dragon.") if side == C.DRAGON else _("You play the three dwarves.")


def by_side(side: str, dragon: str, dwarves: str) -> str:
    """The sentence of the side (verbs agree with "the dragon" or "the dwarves")."""
    return dragon if side == C.DRAGON else dwarves


def side_name(side: str) -> str:
    return _("the dragon") if side == C.DRAGON else _("the dwarves")


def Side_name(side: str) -> str:  # noqa: N802 - capitalised for the start of a sentence
    return _("The dragon") if side == C.DRAGON else _("The dwarves")


def dwarf_name(dwarf: str) -> str:
    """'Morin (crossbow)'."""
    return f"{C.DWARF_NAMES[dwarf]} ({ABILITY_LABELS[dwarf]})"


def figure_name(figure: str) -> str:
    return _("the dragon") if figure == C.DRAGON else C.DWARF_NAMES[figure]


def symbol_label(symbol: str) -> str:
    code = C.symbol_code(symbol)
    value = C.symbol_value(symbol)
    name = str(SYMBOL_LABELS[code])
    if code in (C.MOVE1, C.MOVE2, C.DMOVE):
        return _("%(name)s, up to %(n)s") % {"name": name, "n": value}
    if value:
        return _("%(name)s, strength %(n)s") % {"name": name, "n": value}
    return name


def card_label(side: str, card: int) -> str:
    return " / ".join(symbol_label(s) for s in C.card_options(side, card))


def hex_label(key: str) -> str:
    """ "hex C3": a hex by the name printed on the board, never its coordinates."""
    return _("hex %(hex)s") % {"hex": C.hex_name(key)}


def track_label(track: str) -> str:
    return str(TRACK_LABELS[track])


# Geometry -----------------------------------------------------------------------------------


def centre(key: str) -> tuple[float, float]:
    q, r = C.parse_hex(key)
    return CX + SIZE * ROOT3 * (q + r / 2), CY + SIZE * 1.5 * r


def corners(x: float, y: float, size: float = SIZE) -> str:
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{x + size * math.cos(angle):.1f},{y + size * math.sin(angle):.1f}")
    return " ".join(points)


def direction_point(at: str, direction: int, fraction: float = 0.5) -> tuple[float, float]:
    x, y = centre(at)
    dq, dr = C.DIRECTIONS[direction]
    dx = SIZE * ROOT3 * (dq + dr / 2)
    dy = SIZE * 1.5 * dr
    return x + dx * fraction, y + dy * fraction


# Board context ------------------------------------------------------------------------------


def coordinate(value: float, offset: int | None = None) -> str:
    """A coordinate to one decimal, unlocalised, as the board has always drawn it
    (Django's ``value|add:offset|floatformat:"1u"``): an offset first truncates
    the value to a whole number, as Django's ``add`` does."""
    return floatformat(value if offset is None else int(value) + offset, "1u")


class Centred:
    """A thing drawn at ``x``, ``y``: its centre as the board writes coordinates."""

    x: float
    y: float

    @property
    def cx(self) -> str:
        return coordinate(self.x)

    @property
    def cy(self) -> str:
        return coordinate(self.y)


@dataclass
class Hex:
    key: str
    x: float
    y: float
    points: str
    label: str
    choice: object = None
    target_points: str = ""

    @property
    def label_x(self) -> str:
        return coordinate(self.x)

    @property
    def label_y(self) -> str:
        return coordinate(self.y, 27)


@dataclass
class Piece(Centred):
    figure: str
    letter: str
    name: str
    colour: str
    x: float
    y: float
    r: int
    choice: object = None
    netted: bool = False
    icon: str = ""  # games/icons.py: the dragon's head, a dwarf's face
    badge: str = ""  # a letter beside the icon telling the dwarves apart

    @property
    def icon_size(self) -> float:
        return round(self.r * 1.5, 1)

    @property
    def icon_x(self) -> float:
        return round(self.x - self.icon_size / 2, 1)

    @property
    def icon_y(self) -> float:
        return round(self.y - self.icon_size / 2, 1)

    @property
    def badge_x(self) -> str:
        return coordinate(self.x, self.r - 3)

    @property
    def badge_y(self) -> str:
        return coordinate(self.y, self.r)

    @property
    def letter_y(self) -> str:
        return coordinate(self.y, 6)

    @property
    def net_path(self) -> str:
        """The net drawn over the piece: two diagonals, a horizontal and a vertical."""
        x, y = self.x, self.y
        return (
            f"M{coordinate(x, -20)} {coordinate(y, -20)} l40 40 "
            f"M{coordinate(x, 20)} {coordinate(y, -20)} l-40 40 "
            f"M{coordinate(x, -22)} {coordinate(y)} h44 "
            f"M{coordinate(x)} {coordinate(y, -22)} v44"
        )


@dataclass
class Arrow(Centred):
    label: str
    x: float
    y: float
    points: str
    choice: object


@dataclass
class Track:
    key: str
    label: str
    boxes: list[tuple[int, bool]]
    x: int
    y: int
    full: bool
    choice: object = None


@dataclass
class HandCard:
    card: int
    label: str
    symbols: list[str]
    choice: object = None
    defence: bool = False


def _index(choices) -> dict[str, object]:
    return {choice.key: choice for choice in (choices.choices if choices else [])}


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    by_key = _index(choices)
    dragon = view["dragon"]
    hexes = []
    for key in C.HEXES:
        x, y = centre(key)
        choice = by_key.get(f"hex-{key}")
        hexes.append(
            Hex(
                key=key,
                x=x,
                y=y,
                points=corners(x, y, SIZE - 1.5),
                label=C.hex_name(key),
                choice=choice,
                target_points=corners(x, y, SIZE - 6) if choice else "",
            )
        )
    pieces = []
    dx, dy = centre(dragon["at"])
    pieces.append(
        Piece(
            figure=C.DRAGON,
            letter="D",
            name=_("The dragon, on %(hex)s") % {"hex": hex_label(dragon["at"])}
            + (" — " + _("held by the net") if dragon["netted"] else ""),
            colour=DRAGON_COLOUR,
            x=dx,
            y=dy,
            r=20,
            netted=dragon["netted"],
            icon="dragon-head",
        )
    )
    for dwarf in C.DWARF_IDS:
        record = view["dwarves"][dwarf]
        if record["at"] is None:
            continue
        x, y = centre(record["at"])
        left = C.DWARF_BOXES[dwarf] - record["wounds"]
        pieces.append(
            Piece(
                figure=dwarf,
                letter=C.DWARF_NAMES[dwarf][0],
                name=_("%(dwarf)s, on %(hex)s, %(left)s of %(boxes)s boxes left")
                % {
                    "dwarf": dwarf_name(dwarf),
                    "hex": hex_label(record["at"]),
                    "left": left,
                    "boxes": C.DWARF_BOXES[dwarf],
                },
                colour=DWARF_COLOURS[dwarf],
                x=x,
                y=y,
                r=16,
                choice=by_key.get(f"dwarf-{dwarf}"),
                icon="dwarf-face",
                badge=C.DWARF_NAMES[dwarf][0],
            )
        )
    arrows = []
    for direction in range(6):
        choice = by_key.get(f"dir-{direction}")
        if choice is None:
            continue
        ax, ay = direction_point(dragon["at"], direction, 0.5)
        tx, ty = direction_point(dragon["at"], direction, 0.66)
        bx, by = direction_point(dragon["at"], direction, 0.36)
        # a triangle pointing along the direction
        nx, ny = (ty - by), -(tx - bx)
        norm = math.hypot(nx, ny) or 1
        nx, ny = nx / norm * 9, ny / norm * 9
        points = f"{tx:.1f},{ty:.1f} {bx + nx:.1f},{by + ny:.1f} {bx - nx:.1f},{by - ny:.1f}"
        arrows.append(Arrow(label=choice.label, x=ax, y=ay, points=points, choice=choice))

    return {
        "width": BOARD_W,
        "height": BOARD_H,
        "hexes": hexes,
        "pieces": pieces,
        "arrows": arrows,
        "dragon_mat": _dragon_mat(view, by_key),
        "dwarf_mat": _dwarf_mat(view),
        "markers": _markers(view, by_key),
        "counts": _counts(view, names),
        "turn": _turn_line(view, names),
        "pending": _pending(view, viewer, names, by_key),
        "draw_choice": by_key.get("draw"),
        "free_choice": by_key.get("free"),
        "fury_choice": by_key.get("fury"),
        "other_choices": [
            choice for key, choice in by_key.items() if not key.startswith(DRAWN_ELSEWHERE)
        ],
        "played": _played(view),
        "over": _over(view, names),
        "revealed": _revealed(view),
        "my_side": _you_play(view.get("my_side")),
    }


# Choice keys drawn where they happen (hexes, figures, arrows, cards, tracks, markers,
# the attack list); every other choice is a button above the board.
DRAWN_ELSEWHERE = (
    "hex-",
    "dwarf-",
    "dir-",
    "card-",
    "defend-",
    "discard-",
    "track-",
    "attack-",
    "draw",
    "free",
    "fury",
)

MAT_W = 320
BOX = 24
BOX_GAP = 4
BOX_X = 146
DRAGON_MAT_H = 34 + 4 * (BOX + 8) + 8
MATS_H = DRAGON_MAT_H + 34 + 3 * (BOX + 8) + 44


def _dragon_mat(view: dict, by_key: dict) -> dict:
    dragon = view["dragon"]
    tracks = []
    for row, track in enumerate((C.ARMOUR, *C.ABILITY_TRACKS)):
        boxes = C.DRAGON_BOXES[track]
        filled = dragon[track]
        tracks.append(
            Track(
                key=track,
                label=track_label(track),
                boxes=[(BOX_X + i * (BOX + BOX_GAP), i < filled) for i in range(boxes)],
                x=BOX_X,
                y=34 + row * (BOX + 8),
                full=filled >= boxes,
                choice=by_key.get(f"track-{track}"),
            )
        )
    total = sum(C.DRAGON_BOXES.values())
    wounds = sum(dragon[t] for t in C.DRAGON_BOXES)
    return {
        "tracks": tracks,
        "height": DRAGON_MAT_H,
        "summary": _("%(n)s of %(total)s boxes filled") % {"n": wounds, "total": total},
        "netted": dragon["netted"],
        "net_y": tracks[1].y + 12,
    }


def _dwarf_mat(view: dict) -> dict:
    rows = []
    for row, dwarf in enumerate(C.DWARF_IDS):
        record = view["dwarves"][dwarf]
        boxes = C.DWARF_BOXES[dwarf]
        rows.append(
            {
                "dwarf": dwarf,
                "name": dwarf_name(dwarf),
                "colour": DWARF_COLOURS[dwarf],
                "letter": C.DWARF_NAMES[dwarf][0],
                "dead": record["at"] is None and record["wounds"] >= boxes,
                "y": DRAGON_MAT_H + 34 + row * (BOX + 8),
                "boxes": [
                    (BOX_X + i * (BOX + BOX_GAP), i < record["wounds"]) for i in range(boxes)
                ],
                "summary": _("%(n)s of %(boxes)s wounds") % {"n": record["wounds"], "boxes": boxes},
            }
        )
    return {
        "rows": rows,
        "top": DRAGON_MAT_H,
        "title_y": DRAGON_MAT_H + 20,
        "markers_y": DRAGON_MAT_H + 34 + 3 * (BOX + 8) + 18,
        "height": MATS_H,
    }


def _markers(view: dict, by_key: dict) -> dict:
    return {
        "net_available": view["net_available"],
        "net_text": _("Net marker: with the dwarves")
        if view["net_available"]
        else _("Net marker: on the dragon (it cannot walk or fly)"),
        "fury_available": view["fury_available"],
        "fury_text": _("Fury marker: available (once per game, +1 action, 1 wound to Brald)")
        if view["fury_available"]
        else _("Fury marker: used"),
    }


def _counts(view: dict, names: list[str]) -> list[dict]:
    rows = []
    for side in C.SIDES:
        seat = view["dragon_seat"] if side == C.DRAGON else view["dwarves_seat"]
        rows.append(
            {
                "side": side,
                "who": Side_name(side),
                "name": names[seat] if seat < len(names) else "",
                "hand": view["hand_counts"][side],
                "pile": view["pile_counts"][side],
                "played": len(view["played"][side]),
            }
        )
    return rows


def _turn_line(view: dict, names: list[str]) -> str:
    turn = view.get("turn")
    if view["over"] or not turn:
        return ""
    left = turn["actions_left"]
    return ngettext(
        "Turn %(n)s: %(side)s, %(left)s action left.",
        "Turn %(n)s: %(side)s, %(left)s actions left.",
        left,
    ) % {"n": turn["number"], "side": side_name(turn["side"]), "left": left}


def _pending(view: dict, viewer, names: list[str], by_key: dict) -> dict | None:
    pending = view.get("pending")
    if not pending:
        return None
    kind = pending["kind"]
    seat = view["dragon_seat"] if pending["side"] == C.DRAGON else view["dwarves_seat"]
    mine = viewer is not None and viewer == seat
    side = pending["side"]
    text = ""
    attacks = []
    if kind == "defend":
        for index, attack in enumerate(pending["attacks"]):
            attacks.append(
                {
                    "text": _attack_text(attack),
                    "blocked": attack["blocked"],
                    "choice": by_key.get(f"attack-{index}"),
                }
            )
        if mine:
            text = _(
                "You are attacked! Play a defence card from your hand to block an attack, "
                "or take the hit."
            )
        else:
            text = by_side(
                side,
                _("The dragon may play a defence card to block the attack."),
                _("The dwarves may play a defence card to block the attack."),
            )
    elif kind == "wound":
        text = ngettext(
            "The dwarves place %(n)s wound on the dragon's abilities: choose a track on its mat.",
            "The dwarves place %(n)s wounds on the dragon's abilities: choose a track on its mat.",
            pending["markers"],
        ) % {"n": pending["markers"]}
    elif kind == "discard":
        text = by_side(
            side,
            ngettext(
                "The dragon holds more than 6 cards and discards %(n)s.",
                "The dragon holds more than 6 cards and discards %(n)s.",
                pending["count"],
            ),
            ngettext(
                "The dwarves hold more than 6 cards and discard %(n)s.",
                "The dwarves hold more than 6 cards and discard %(n)s.",
                pending["count"],
            ),
        ) % {"n": pending["count"]}
    elif kind == "move2":
        text = ngettext(
            "The dwarves move up to two dwarves, each up to %(n)s step.",
            "The dwarves move up to two dwarves, each up to %(n)s steps.",
            pending["n"],
        ) % {"n": pending["n"]}
    elif kind == "turn_end":
        text = _("The dwarves have used their actions: use fury for one more, or end the turn.")
    elif kind == "exchange":
        text = by_side(
            side,
            _("The dragon may exchange its starting hand once, or keep it."),
            _("The dwarves may exchange their starting hand once, or keep it."),
        )
    elif kind == "place":
        text = _("The dwarves place %(dwarf)s on a hex not next to the dragon.") % {
            "dwarf": dwarf_name(pending["dwarf"])
        }
    return {
        "kind": kind,
        "mine": mine,
        "reaction": kind == "defend",
        "text": text,
        "attacks": attacks,
        "take": by_key.get("take"),
    }


def _attack_text(attack: dict) -> str:
    if attack["target"] == C.DRAGON:
        who = dwarf_name(attack["by"])
        return _("%(who)s attacks the dragon with strength %(n)s") % {
            "who": who,
            "n": attack["strength"],
        }
    return _("The dragon attacks %(dwarf)s with strength %(n)s") % {
        "dwarf": dwarf_name(attack["target"]),
        "n": attack["strength"],
    }


def changed(before: dict, after: dict) -> set[str]:
    """What changed for the viewer: ``figure:<figure>`` for the dragon or a dwarf that
    moved, was netted or freed, or was wounded (a dead dwarf is off the board and
    not named), ``track:<track>`` for a track of the dragon's mat that filled,
    ``dwarf:<dwarf>`` for a dwarf's row of wounds, and ``hand:<card>`` for a card
    new in the viewer's own hand."""
    keys = set()
    dragon_before, dragon_after = before["dragon"], after["dragon"]
    if (dragon_before["at"], dragon_before["netted"]) != (
        dragon_after["at"],
        dragon_after["netted"],
    ):
        keys.add(f"figure:{C.DRAGON}")
    for track in (C.ARMOUR, *C.ABILITY_TRACKS):
        if dragon_before[track] != dragon_after[track]:
            keys.add(f"track:{track}")
    for dwarf in C.DWARF_IDS:
        was, now = before["dwarves"][dwarf], after["dwarves"][dwarf]
        if now["at"] is not None and (was["at"], was["wounds"]) != (now["at"], now["wounds"]):
            keys.add(f"figure:{dwarf}")
        if was["wounds"] != now["wounds"]:
            keys.add(f"dwarf:{dwarf}")
    held = set((before.get("me") or {}).get("hand", []))
    keys.update(
        f"hand:{card}" for card in (after.get("me") or {}).get("hand", []) if card not in held
    )
    return keys


def private_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict | None:
    """The viewer's hand, each card with its click; None for a spectator and a
    seat with no card (as the board drew it before: no empty hand)."""
    by_key = {choice.key: choice for choice in choices.choices} if choices else {}
    hand = _hand(view, by_key)
    return {"hand": hand} if hand else None


def board_viewpoint(viewer: int | None) -> str:
    """The board words its public parts for the seat it is seen from ("you
    play the dragon", "you are attacked!"), so each seat has its own drawing,
    the spectators one between them."""
    return "" if viewer is None else f"seat{viewer}"


def _hand(view: dict, by_key: dict) -> list[HandCard]:
    me = view.get("me")
    if not me:
        return []
    side = me["side"]
    cards = []
    for card in me["hand"]:
        choice = (
            by_key.get(f"card-{card}")
            or by_key.get(f"defend-{card}")
            or by_key.get(f"discard-{card}")
        )
        cards.append(
            HandCard(
                card=card,
                label=card_label(side, card),
                symbols=[symbol_label(s) for s in C.card_options(side, card)],
                choice=choice,
                defence=C.can_defend(side, card),
            )
        )
    return cards


def _played(view: dict) -> list[dict]:
    rows = []
    for side in C.SIDES:
        last = view["played"][side][-3:]
        rows.append(
            {
                "who": Side_name(side),
                "cards": [card_label(side, c) for c in reversed(last)],
            }
        )
    return rows


def _over(view: dict, names: list[str]) -> str:
    if not view["over"]:
        return ""
    return str(REASONS.get(view["end_reason"], ""))


def _revealed(view: dict) -> list[dict]:
    if not view["over"]:
        return []
    return [
        {"who": Side_name(side), "cards": [card_label(side, c) for c in view["revealed"][side]]}
        for side in C.SIDES
    ]


# The clicks that build an action ------------------------------------------------------------


def action_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    kind = action["type"]
    me = view.get("me") or {}
    side = me.get("side") or C.DRAGON
    if kind == "play":
        card = action["card"]
        steps = [(f"card-{card}", _("Play %(card)s") % {"card": card_label(side, card)})]
        if len(C.card_options(side, card)) > 1:
            steps.append((f"sym-{C.symbol_code(action['symbol'])}", symbol_label(action["symbol"])))
        return steps + _target_steps(action, view)
    if kind == "draw":
        count = min(C.DRAW_COUNT, view["pile_counts"][side])
        return [("draw", ngettext("Draw %(n)s card", "Draw %(n)s cards", count) % {"n": count})]
    if kind == "free":
        return [("free", _("Free the dragon from the net (takes the whole turn)"))]
    if kind == "fury":
        return [("fury", _("Use fury: Brald takes 1 wound, +1 action this turn"))]
    if kind == "end_turn":
        return [("end_turn", _("End the turn"))]
    if kind == "discard":
        card = action["card"]
        return [(f"discard-{card}", _("Discard %(card)s") % {"card": card_label(side, card)})]
    if kind == "keep":
        return [("keep", _("Keep the starting hand"))]
    if kind == "exchange":
        return [("exchange", _("Exchange the starting hand"))]
    if kind == "place":
        return [
            (
                f"hex-{action['at']}",
                _("Put %(dwarf)s on %(hex)s")
                % {"dwarf": dwarf_name(action["dwarf"]), "hex": hex_label(action["at"])},
            )
        ]
    if kind == "move":
        return [
            (f"dwarf-{action['dwarf']}", dwarf_name(action["dwarf"])),
            (f"hex-{action['to']}", _("to %(hex)s") % {"hex": hex_label(action["to"])}),
        ]
    if kind == "stop":
        return [("stop", _("Stop moving"))]
    if kind == "defend":
        card = action["card"]
        steps = [(f"defend-{card}", _("Defend with %(card)s") % {"card": card_label(side, card)})]
        attacks = view["pending"]["attacks"]
        if sum(1 for a in attacks if not a["blocked"]) > 1:
            attack = attacks[action["attack"]]
            steps.append(
                (f"attack-{action['attack']}", _("Block: %(a)s") % {"a": _attack_text(attack)})
            )
        return steps
    if kind == "no_defence":
        return [("take", _("No defence: take the hit"))]
    if kind == "wound":
        return [
            (f"track-{action['track']}", _("Wound on %(t)s") % {"t": track_label(action["track"])})
        ]
    return [(kind, kind)]


def _target_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    code = C.symbol_code(action["symbol"])
    if code == C.MOVE1:
        return [
            (f"dwarf-{action['dwarf']}", dwarf_name(action["dwarf"])),
            (f"hex-{action['to']}", _move_label(view, action["dwarf"], action["to"])),
        ]
    if code in (C.DMOVE, C.FLY):
        return [(f"hex-{action['to']}", _move_label(view, C.DRAGON, action["to"]))]
    if code in (C.ATK1, C.BITE):
        return [(f"dwarf-{action['dwarf']}", dwarf_name(action["dwarf"]))]
    if code == C.ATK2:
        names = [C.DWARF_NAMES[d] for d in action["dwarves"]]
        return [("dwarves-" + "+".join(action["dwarves"]), " + ".join(names))]
    if code == C.FIRE:
        direction = action["dir"]
        hit = [
            C.DWARF_NAMES[d]
            for d, rec in view["dwarves"].items()
            if rec["at"] in ray(view["dragon"]["at"], direction)
        ]
        label = _("Breathe fire %(dir)s") % {"dir": DIRECTION_LABELS[direction]}
        if hit:
            label += " (" + _("hits %(names)s") % {"names": ", ".join(hit)} + ")"
        else:
            label += " (" + _("no dwarf in the line") + ")"
        return [(f"dir-{direction}", label)]
    return []


def _move_label(view: dict, figure: str, to: str) -> str:
    here = view["dragon"]["at"] if figure == C.DRAGON else view["dwarves"][figure]["at"]
    if to == here:
        return _("stay on %(hex)s") % {"hex": hex_label(to)}
    return _("to %(hex)s") % {"hex": hex_label(to)}


# The move log --------------------------------------------------------------------------------


def describe_event(event: dict, names: list[str]) -> str:
    kind = event["type"]
    side = event.get("side")
    if kind == "sides":
        return _("%(dragon)s plays the dragon; %(dwarves)s plays the three dwarves.") % {
            "dragon": names[event["dragon_seat"]],
            "dwarves": names[event["dwarves_seat"]],
        }
    if kind == "dealt":
        n = event["count"]
        return by_side(
            side,
            ngettext(
                "The dragon drew a starting hand of %(n)s card.",
                "The dragon drew a starting hand of %(n)s cards.",
                n,
            ),
            ngettext(
                "The dwarves drew a starting hand of %(n)s card.",
                "The dwarves drew a starting hand of %(n)s cards.",
                n,
            ),
        ) % {"n": n}
    if kind in ("your_cards", "drawn_cards"):
        cards = "; ".join(card_label(side, c) for c in event["cards"]) or "—"
        return _("Your cards: %(cards)s.") % {"cards": cards}
    if kind == "turn_started":
        return ngettext(
            "Turn %(n)s: %(who)s, %(a)s action.",
            "Turn %(n)s: %(who)s, %(a)s actions.",
            event["actions"],
        ) % {"n": event["number"], "who": side_name(side), "a": event["actions"]}
    if kind == "placed":
        return _("The dwarves put %(dwarf)s on %(hex)s.") % {
            "dwarf": dwarf_name(event["dwarf"]),
            "hex": hex_label(event["at"]),
        }
    if kind == "kept":
        return by_side(
            side,
            _("The dragon kept its starting hand."),
            _("The dwarves kept their starting hand."),
        )
    if kind == "exchanged":
        return by_side(
            side,
            _("The dragon shuffled its starting hand back and drew 4 new cards."),
            _("The dwarves shuffled their starting hand back and drew 4 new cards."),
        )
    if kind == "drew":
        return by_side(
            side,
            ngettext("The dragon drew %(n)s card.", "The dragon drew %(n)s cards.", event["count"]),
            ngettext(
                "The dwarves drew %(n)s card.", "The dwarves drew %(n)s cards.", event["count"]
            ),
        ) % {"n": event["count"]}
    if kind == "discarded":
        card = {"card": card_label(side, event["card"])}
        if event["forced"]:
            return (
                by_side(
                    side,
                    _("The dragon could do nothing else and discarded %(card)s."),
                    _("The dwarves could do nothing else and discarded %(card)s."),
                )
                % card
            )
        return (
            by_side(
                side,
                _("The dragon discarded %(card)s (hand limit)."),
                _("The dwarves discarded %(card)s (hand limit)."),
            )
            % card
        )
    if kind == "played":
        params = {
            "card": card_label(side, event["card"]),
            "symbol": symbol_label(event["symbol"]),
        }
        if len(C.card_options(side, event["card"])) == 1:
            return (
                by_side(
                    side, _("The dragon played %(symbol)s."), _("The dwarves played %(symbol)s.")
                )
                % params
            )
        return (
            by_side(
                side,
                _("The dragon played %(symbol)s (card: %(card)s)."),
                _("The dwarves played %(symbol)s (card: %(card)s)."),
            )
            % params
        )
    if kind == "moved":
        name = figure_name(event["figure"])
        if event["from"] == event["to"]:
            return _("%(who)s stayed on %(hex)s.") % {
                "who": _cap(name),
                "hex": C.hex_name(event["to"]),
            }
        return _("%(who)s moved from %(a)s to %(b)s.") % {
            "who": _cap(name),
            "a": C.hex_name(event["from"]),
            "b": C.hex_name(event["to"]),
        }
    if kind == "flew":
        if event["from"] == event["to"]:
            return _("The dragon rose and landed again on %(hex)s.") % {
                "hex": C.hex_name(event["to"])
            }
        return _("The dragon flew from %(a)s to %(b)s.") % {
            "a": C.hex_name(event["from"]),
            "b": C.hex_name(event["to"]),
        }
    if kind == "move_stopped":
        return _("The dwarves stopped moving.")
    if kind == "attack":
        if event["target"] == C.DRAGON:
            return _("%(who)s attacks the dragon with strength %(n)s.") % {
                "who": C.DWARF_NAMES[event["by"]],
                "n": event["strength"],
            }
        return _("The dragon attacks %(dwarf)s with strength %(n)s.") % {
            "dwarf": C.DWARF_NAMES[event["target"]],
            "n": event["strength"],
        }
    if kind == "defended":
        return by_side(
            side,
            _("The dragon blocked the attack with %(card)s."),
            _("The dwarves blocked the attack on %(target)s with %(card)s."),
        ) % {"target": figure_name(event["target"]), "card": card_label(side, event["card"])}
    if kind == "no_defence":
        return by_side(side, _("The dragon did not defend."), _("The dwarves did not defend."))
    if kind == "fire":
        if not event["targets"]:
            return _("The dragon breathed fire %(dir)s; no dwarf stood in the flames.") % {
                "dir": DIRECTION_LABELS[event["dir"]]
            }
        return _("The dragon breathed fire %(dir)s at %(names)s.") % {
            "dir": DIRECTION_LABELS[event["dir"]],
            "names": ", ".join(C.DWARF_NAMES[d] for d in event["targets"]),
        }
    if kind == "netted":
        return _("Urpen threw the net: the dragon cannot walk or fly until it frees itself.")
    if kind == "freed":
        if event["auto"]:
            return _("The dragon, with no cards left, spent its turn freeing itself from the net.")
        return _("The dragon spent its whole turn freeing itself from the net.")
    if kind == "passed":
        return by_side(
            side,
            _("The dragon had no cards left and passed."),
            _("The dwarves had no cards left and passed."),
        )
    if kind == "dragon_wounded":
        return ngettext(
            "The dragon took %(n)s wound (%(a)s on its armour).",
            "The dragon took %(n)s wounds (%(a)s on its armour).",
            event["damage"],
        ) % {"n": event["damage"], "a": event["armour"]}
    if kind == "wound_placed":
        return _("A wound went on the dragon's %(track)s.") % {
            "track": track_label(event["track"]).lower()
        }
    if kind == "wounds_ignored":
        return _("%(n)s wound(s) found no empty box.") % {"n": event["count"]}
    if kind == "dwarf_wounded":
        return _("%(dwarf)s took %(n)s wound(s): %(w)s of %(b)s boxes filled.") % {
            "dwarf": C.DWARF_NAMES[event["dwarf"]],
            "n": event["damage"],
            "w": event["wounds"],
            "b": event["boxes"],
        }
    if kind == "dwarf_died":
        return _("%(dwarf)s died and leaves the board.") % {"dwarf": dwarf_name(event["dwarf"])}
    if kind == "fury":
        return _("The dwarves used fury: Brald takes a wound and they gain one more action.")
    if kind == "turn_ended":
        return _("The dwarves ended their turn.")
    if kind == "game_over":
        return str(REASONS.get(event["reason"], _("The game is over.")))
    return kind.replace("_", " ")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def final_summary(result: dict, names: list[str]):
    """Drako keeps no score: the side that won and why.

    The side is the one whose player won (``result["ranks"]``, with the
    dragon's seat of ``Drako.final_details``), which is not the side the
    rules saw win when a bot had taken over that seat, and which the rules
    never saw when the match ended by a resignation or on time. A result
    stored before the dragon's seat was recorded names the rules' winner."""
    details = result.get("details") or {}
    end_reason = details.get("end_reason")
    dragon_seat = details.get("dragon_seat")
    ranks = result.get("ranks") or []
    side = details.get("winner")
    if dragon_seat in (0, 1) and len(ranks) == 2 and ranks.count(1) == 1:
        side = C.DRAGON if ranks[dragon_seat] == 1 else C.DWARVES
    if end_reason in REASONS and side == details.get("winner"):
        reason = REASONS[end_reason]
    elif end_reason in LEFT_REASONS:
        reason = LEFT_REASONS[end_reason]
    elif side in (C.DRAGON, C.DWARVES):
        reason = by_side(side, _("The dragon wins."), _("The dwarves win."))
    else:
        reason = ""
    return dict(reason=str(reason), columns=[], cells=[[] for _name in names])


def describe_board(view: dict, names: list[str]) -> list[str]:
    """The position in words: where each figure stands, its wounds, the dragon's
    tracks, the markers and the cards left."""
    dragon = view["dragon"]
    lines = [
        _("The dragon stands on %(hex)s%(net)s.")
        % {
            "hex": hex_label(dragon["at"]),
            "net": _(", caught in the net") if dragon.get("netted") else "",
        }
    ]
    tracks = ", ".join(
        f"{track_label(track)} {dragon.get(track, 0)}/{boxes}"
        for track, boxes in C.DRAGON_BOXES.items()
    )
    lines.append(_("The dragon's wounds: %(tracks)s.") % {"tracks": tracks})
    for dwarf in C.DWARF_IDS:
        record = view["dwarves"][dwarf]
        boxes = C.DWARF_BOXES[dwarf]
        if record["wounds"] >= boxes:
            lines.append(_("%(dwarf)s is dead.") % {"dwarf": dwarf_name(dwarf)})
        elif record["at"] is None:
            lines.append(_("%(dwarf)s is not on the board yet.") % {"dwarf": dwarf_name(dwarf)})
        else:
            lines.append(
                _("%(dwarf)s stands on %(hex)s, wounds %(w)s/%(b)s.")
                % {
                    "dwarf": dwarf_name(dwarf),
                    "hex": hex_label(record["at"]),
                    "w": record["wounds"],
                    "b": boxes,
                }
            )
    lines.append(
        _("Net: %(net)s. Fury: %(fury)s.")
        % {
            "net": _("with the dwarves") if view["net_available"] else _("on the dragon"),
            "fury": _("available") if view["fury_available"] else _("used"),
        }
    )
    for side in C.SIDES:
        lines.append(
            _("%(side)s: %(hand)s cards in hand, %(pile)s in the pile.")
            % {
                "side": Side_name(side),
                "hand": view["hand_counts"][side],
                "pile": view["pile_counts"][side],
            }
        )
    me = view.get("me")
    if me:
        cards = "; ".join(card_label(me["side"], card) for card in me["hand"]) or _("none")
        lines.append(_("Your cards: %(cards)s.") % {"cards": cards})
    return [str(line) for line in lines]
