"""Nogi za pas! for people: the board as SVG coordinates, log sentences, and
the clicks that build a move. Works on ``view`` output only, never the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.catalog.nogi import components as C

BOARD_TEMPLATE = "games/nogi/board.html"
# Log sentences do not name the actor; the log shows the seat's name first.
SENTENCES_NAME_THE_ACTOR = False

COLOUR_NAMES = {
    "yellow": gettext_lazy("yellow"),
    "green": gettext_lazy("green"),
    "orange": gettext_lazy("orange"),
    "purple": gettext_lazy("purple"),
    "blue": gettext_lazy("blue"),
    "pink": gettext_lazy("pink"),
    "black": gettext_lazy("black"),
    "white": gettext_lazy("white"),
}
COLOUR_HEX = {
    "yellow": "#f2c200",
    "green": "#2e9d43",
    "orange": "#f07f1a",
    "purple": "#7d3fa8",
    "blue": "#2a6fd0",
    "pink": "#e76aa7",
    "black": "#222222",
    "white": "#ffffff",
}
DIE_STATUS = {
    "pool": gettext_lazy("rolled"),
    "aside": gettext_lazy("set aside"),
    "boxed": gettext_lazy("out of the game"),
}
INK_ON = {"yellow": "#222", "white": "#222", "pink": "#222", "orange": "#222"}

# Board geometry: a serpentine track of 36 fields in 4 rows of 9, the dragon
# mountain before field 1 and the castle after field 36.
CELL = 62
GAP = 6
COLS = 9
LEFT = 20 + CELL + GAP  # column 0 of the track; the mountain sits left of it
TOP = 16
BOARD_WIDTH = LEFT + COLS * (CELL + GAP) + 12
CASTLE_TOP = TOP + 4 * (CELL + GAP) + 10
DICE_TOP = CASTLE_TOP + CELL + 34
BOARD_HEIGHT = DICE_TOP + 70


def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def face_text(face: dict) -> str:
    """A die face as a short label: 3, 5⟳ (die returns), ③ (any knight), −, +, 1+1."""
    kind, n = face["kind"], face.get("n")
    return {
        C.NUM: f"{n}",
        C.NUM_KEEP: f"{n}⟳",
        C.NUM_ANY: f"{n}*",
        C.MINUS: "−",
        C.PLUS: "+",
        C.ONE_PLUS_ONE: "1+1⟳",
    }[kind]


def face_sentence(face: dict) -> str:
    kind, n = face["kind"], face.get("n")
    return {
        C.NUM: _("forward %(n)s") % {"n": n},
        C.NUM_KEEP: _("forward %(n)s, die returns") % {"n": n},
        C.NUM_ANY: _("any knight forward %(n)s") % {"n": n},
        C.MINUS: _("back to the nearest knight"),
        C.PLUS: _("forward to the nearest knight"),
        C.ONE_PLUS_ONE: _("two knights forward 1, die returns"),
    }[kind]


def field_xy(number: int) -> tuple[int, int]:
    """Top-left corner of track field 1..36 (0 = the dragon mountain)."""
    if number <= 0:
        return LEFT - CELL - GAP, TOP
    row, index = divmod(number - 1, COLS)
    col = index if row % 2 == 0 else COLS - 1 - index
    return LEFT + col * (CELL + GAP), TOP + row * (CELL + GAP)


@dataclass
class Piece:
    colour: str
    hex: str
    x: int
    y: int
    label: str
    choice: object = None  # the click that picks this knight now, if any


@dataclass
class Field:
    number: int
    x: int
    y: int
    bunny: bool
    dragon: bool


@dataclass
class Die:
    colour: str
    hex: str
    ink: str
    status: str
    text: str
    title: str
    x: int
    y: int
    choice: object = None  # the click that picks this die now, if any


@dataclass
class CastleSpace:
    label: str
    points: int
    x: int
    y: int
    knights: list[Piece] = field(default_factory=list)


def _knight_pieces(board: dict[str, int]) -> list[Piece]:
    """Knights drawn as small discs, up to 7 on one field in a 3-column grid."""
    pieces = []
    by_field: dict[int, list[str]] = {}
    for colour in C.COLOURS:
        if colour in board:
            by_field.setdefault(board[colour], []).append(colour)
    for number, colours in by_field.items():
        x0, y0 = field_xy(number)
        for i, colour in enumerate(colours):
            row, col = divmod(i, 3)
            pieces.append(
                Piece(
                    colour=colour,
                    hex=COLOUR_HEX[colour],
                    x=x0 + 12 + col * 19,
                    y=y0 + 24 + row * 15,
                    label=colour_name(colour),
                )
            )
    return pieces


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    board = view["board"]
    dragon = view["dragon"]
    bunnies = set(view["bunny_fields"])
    fields = []
    for number in range(C.FIRST_FIELD, C.LAST_FIELD + 1):
        x, y = field_xy(number)
        fields.append(Field(number, x, y, number in bunnies, number == dragon))
    dragon_x, dragon_y = field_xy(dragon)
    castle = []
    for space, (label, points) in enumerate(
        zip(C.CASTLE_SPACE_LABELS, view["castle_points"], strict=True)
    ):
        x = LEFT + space * 2 * (CELL + GAP)
        occupants = view["castle"][space] if space < len(view["castle"]) else []
        knights = [
            Piece(c, COLOUR_HEX[c], x + 14 + i * 20, CASTLE_TOP + 40, colour_name(c))
            for i, c in enumerate(occupants)
        ]
        castle.append(CastleSpace(label, points, x, CASTLE_TOP, knights))
    dice = []
    for i, colour in enumerate(C.DICE):
        status = view["dice"][colour]
        rolled = view["roll"].get(colour)
        text = face_text(rolled) if rolled and status == "pool" else ""
        title = f"{colour_name(colour)}: " + (
            face_sentence(rolled) if rolled and status == "pool" else str(DIE_STATUS[status])
        )
        dice.append(
            Die(
                colour=colour,
                hex=COLOUR_HEX[colour],
                ink=INK_ON.get(colour, "#fff"),
                status=status,
                text=text,
                title=title,
                x=LEFT + i * 64,
                y=DICE_TOP,
            )
        )
    # The viewer's next clicks, drawn where they happen: a die, then a knight.
    clicks = {choice.key: choice for choice in choices.choices} if choices else {}
    for die in dice:
        die.choice = clicks.get(f"die-{die.colour}")
    knights = _knight_pieces(board)
    for knight in knights:
        knight.choice = next(
            (
                clicks[k]
                for k in (
                    f"knight-{knight.colour}",
                    f"first-{knight.colour}",
                    f"then-{knight.colour}",
                )
                if k in clicks
            ),
            None,
        )
    me = view.get("me")
    mine = None
    if me is not None:
        mine = {
            "shields": [
                [(colour_name(c), COLOUR_HEX[c]) for c in shield] for shield in me["shields"]
            ],
            "bunny_values": me["bunny_values"],
            "bunny_points": me["bunny_points"],
        }
    revealed = None
    if view.get("over") and view.get("revealed"):
        revealed = [
            {
                "name": names[seat],
                "shields": [
                    [(colour_name(c), COLOUR_HEX[c]) for c in shield]
                    for shield in view["revealed"]["shields"][seat]
                ],
                "bunny_values": view["revealed"]["bunny_values"][seat],
            }
            for seat in range(view["n_players"])
        ]
    return {
        "width": BOARD_WIDTH,
        "height": BOARD_HEIGHT,
        "cell": CELL,
        "fields": fields,
        "knights": knights,
        "dragon": {"field": dragon, "x": dragon_x, "y": dragon_y},
        "mountain": field_xy(0),
        "castle": castle,
        "castle_top": CASTLE_TOP,
        "dice_top": DICE_TOP,
        "dice": dice,
        "defeated": [(colour_name(c), COLOUR_HEX[c]) for c in view["defeated"]],
        "tokens_left": view["dragon_tokens_left"],
        "tokens_revealed": view["dragon_revealed"],
        "bunnies_collected": list(zip(names, view["bunnies_collected"], strict=True)),
        "mine": mine,
        "revealed": revealed,
    }


# -- The clicks that build a move ------------------------------------------------------------


def _preview(view: dict, knight: str, face: dict) -> str:
    """Where the knight would go, for the button label."""
    board = view["board"]
    here = board[knight]
    kind = face["kind"]
    if kind in (C.NUM, C.NUM_KEEP, C.NUM_ANY, C.ONE_PLUS_ONE):
        to = here + (face["n"] if kind != C.ONE_PLUS_ONE else 1)
    else:
        others = [f for k, f in board.items() if k != knight]
        if kind == C.MINUS:
            behind = [f for f in others if f < here]
            to = max(behind) if behind else here
        else:
            ahead = [f for f in others if f > here]
            to = min(ahead) if ahead else here
    if to > C.LAST_FIELD:
        return f"{here} → " + _("castle")
    if to == here:
        return f"{here}, " + _("no effect")
    return f"{here} → {to}"


def action_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    die = action["die"]
    face = view["roll"][die]
    die_label = f"{colour_name(die).capitalize()} {face_text(face)} — {face_sentence(face)}"
    steps = [(f"die-{die}", die_label)]
    if "knights" in action:
        first, second = action["knights"]
        steps.append((f"first-{first}", _("%(k)s knight first") % {"k": colour_name(first)}))
        steps.append((f"then-{second}", _("then %(k)s knight") % {"k": colour_name(second)}))
        return steps
    knight = action["knight"]
    chooses_knight = die == C.WHITE or face["kind"] in C.ANY_KNIGHT_KINDS
    if chooses_knight:
        label = f"{colour_name(knight).capitalize()} ({_preview(view, knight, face)})"
        steps.append((f"knight-{knight}", label))
    return steps


# -- The move log --------------------------------------------------------------------------


def describe_event(event: dict, names: list[str]) -> str:
    kind = event["type"]
    seat_name = names[event["seat"]] if "seat" in event and event["seat"] is not None else ""
    if kind == "die_used":
        knights = ", ".join(colour_name(k) for k in event["knights"])
        return _("used the %(die)s die (%(face)s) on %(knights)s.") % {
            "die": colour_name(event["die"]),
            "face": face_text(event["face"]),
            "knights": knights,
        }
    if kind == "knight_moved":
        if event.get("castle"):
            return _("The %(k)s knight ran into the castle.") % {"k": colour_name(event["knight"])}
        return _("The %(k)s knight moved from %(a)s to %(b)s.") % {
            "k": colour_name(event["knight"]),
            "a": event["from"],
            "b": event["to"],
        }
    if kind == "no_effect":
        return _("The %(k)s knight stayed on %(f)s (nothing happens).") % {
            "k": colour_name(event["knight"]),
            "f": event["field"],
        }
    if kind == "bunny_rescued":
        return _("%(p)s rescued the bunny on field %(f)s.") % {"p": seat_name, "f": event["field"]}
    if kind == "bunny_value":
        return _("(Only you see this: that bunny is worth %(v)s.)") % {"v": event["value"]}
    if kind == "castle_arrival":
        return _("The %(k)s knight takes castle space %(s)s (%(p)s points).") % {
            "k": colour_name(event["knight"]),
            "s": C.CASTLE_SPACE_LABELS[event["space"]]
            if event["space"] is not None and event["space"] < len(C.CASTLE_SPACE_LABELS)
            else "—",
            "p": event["points"],
        }
    if kind == "castle_placed":
        return _("The last knights (%(k)s) share castle space %(s)s (%(p)s points each).") % {
            "k": ", ".join(colour_name(k) for k in event["knights"]),
            "s": C.CASTLE_SPACE_LABELS[event["space"]],
            "p": event["points"],
        }
    if kind == "knight_defeated":
        return _("The dragon defeated the %(k)s knight on field %(f)s.") % {
            "k": colour_name(event["knight"]),
            "f": event["field"],
        }
    if kind == "dragon_attack":
        if event["token"] is None:
            return _("%(p)s gathered the dice; the dragon has no tokens left.") % {"p": seat_name}
        return _(
            "Dragon attack! %(p)s gathered the dice; token %(t)s: the dragon moved from %(a)s to %(b)s."
        ) % {
            "p": seat_name,
            "t": event["token"],
            "a": event["from"],
            "b": event["to"],
        }
    if kind == "dice_rolled":
        faces = ", ".join(
            f"{colour_name(die)} {face_text(face)}" for die, face in event["faces"].items()
        )
        return _("%(p)s rolled: %(faces)s.") % {"p": seat_name, "faces": faces}
    if kind == "turn_started":
        return _("Turn %(n)s: %(p)s to play.") % {"n": event["turn"], "p": seat_name}
    if kind == "game_over":
        return _("The game is over.")
    return kind.replace("_", " ")
