"""Nogi za pas! for people: the board (a winding track of small SVG fields),
log sentences, and the clicks that build a move. Works on ``view`` output only, never the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.catalog.nogi import components as C
from games.catalog.wording import per_language

BOARD_TEMPLATE = "games/nogi/board.jinja"
PRIVATE_TEMPLATE = "games/nogi/private.jinja"
# Log sentences do not name the actor; the log shows the seat's name first.
SENTENCES_NAME_THE_ACTOR = False
# A piece on the board, measured at a phone's width by the browser tests.
PIECE_SELECTOR = "circle.knight"
# The lobby's tile: the castle the knights run for, and what the game is about.
ICON = "castle"
SUMMARY = gettext_lazy(
    "Seven knights run from a dragon to the castle: back three colours in secret and "
    "score the knights that make it."
)

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

# Board geometry. The track is a winding list of 36 fields laid out by CSS
# (the board toolkit's ``.track``): 9 columns by 4 rows on a desktop, 6 by 6 in
# a narrower column, 4 by 9 on a phone, always as a serpentine, so each field
# keeps its size and every knight stays at least 24 px wide. Each field is a
# small SVG of FIELD x FIELD units with a 3 x 3 grid of slots: the number in the
# top-left slot, a bunny in the top-right one, knights in the others.
FIELD = 84
KNIGHT_R = 13
SLOT = (15, 42, 69)
#: The track's layouts, by columns (the toolkit's CSS picks one by the board's width).
TRACK_COLUMNS = (9, 6, 4)
DIE = 52


@per_language
def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def face_text(face: dict) -> str:
    """A die face as a short label: 3, 5⟳ (die returns), "3 on white" (any knight: the
    printed die shows the number on a white background), −, +, 1+1."""
    kind, n = face["kind"], face.get("n")
    if kind == C.NUM_ANY:
        return _("%(n)s on white") % {"n": n}
    return {
        C.NUM: f"{n}",
        C.NUM_KEEP: f"{n}⟳",
        C.MINUS: "−",
        C.PLUS: "+",
        C.ONE_PLUS_ONE: "1+1⟳",
    }[kind]


# What each kind of face does, worded once per call (not all six every time:
# a board names every rolled die's face).
FACE_SENTENCES = {
    C.NUM: gettext_lazy("forward %(n)s"),
    C.NUM_KEEP: gettext_lazy("forward %(n)s, die returns"),
    C.NUM_ANY: gettext_lazy("any knight forward %(n)s"),
    C.MINUS: gettext_lazy("back to the nearest knight"),
    C.PLUS: gettext_lazy("forward to the nearest knight"),
    C.ONE_PLUS_ONE: gettext_lazy("two knights forward 1, die returns"),
}


def in_tray_order(by_die: dict) -> list[tuple]:
    """``by_die``'s items in the order the tray draws the dice (``C.DICE``), not
    in the order they were stored: PostgreSQL's ``jsonb`` keeps a state's and
    an event's keys in an order of its own, so the words of a position read
    back from the database would otherwise differ from the words of the same
    position drawn in answer to the move that made it."""
    return [(die, by_die[die]) for die in C.DICE if die in by_die]


def face_sentence(face: dict) -> str:
    # A sentence without a number ignores the mapping it is given.
    return str(FACE_SENTENCES[face["kind"]]) % {"n": face.get("n")}


def track_place(number: int, columns: int) -> tuple[int, int]:
    """Row and column (from 1) of track field 1..36 in a serpentine of ``columns``."""
    row, index = divmod(number - 1, columns)
    col = index if row % 2 == 0 else columns - 1 - index
    return row + 1, col + 1


@per_language
def empty_field_title(number: int) -> str:
    """A field's name when no knight stands on it: most of the track, on every board."""
    return _("Field %(f)s") % {"f": number}


@lru_cache(maxsize=8)
def _colour_names(language: str) -> dict[str, str]:
    """Every knight's and die's ``colour_name`` in ``language`` (the active one):
    a board names a colour a few dozen times, with one look-up of the language."""
    return {colour: colour_name(colour) for colour in C.DICE}


@lru_cache(maxsize=8)
def _empty_field_titles(language: str) -> tuple[str, ...]:
    """Every field's ``empty_field_title`` in ``language`` (the active one),
    indexed by its number: one look-up of the language a board, not one a field."""
    return tuple(
        "" if number < C.FIRST_FIELD else empty_field_title(number)
        for number in range(C.LAST_FIELD + 1)
    )


@cache
def track_classes(number: int) -> str:
    """The toolkit's placement classes of a field: ``t9-r1 t9-c1 t6-r1 ...``."""
    classes = []
    for columns in TRACK_COLUMNS:
        row, col = track_place(number, columns)
        classes += [f"t{columns}-r{row}", f"t{columns}-c{col}"]
    return " ".join(classes)


def knight_slots(bunny: bool) -> list[tuple[int, int]]:
    """Slot centres for knights on a field: the middle and bottom rows first, then
    the top row beside the number (unless a bunny sits in its corner)."""
    slots = [(x, y) for y in SLOT[1:] for x in SLOT]
    slots.append((SLOT[1], SLOT[0]))
    if not bunny:
        slots.append((SLOT[2], SLOT[0]))
    return slots


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
    bunny: bool
    dragon: bool
    css: str
    knights: list[Piece] = field(default_factory=list)
    title: str = ""

    def look(self) -> tuple | None:
        """Everything the field shows, as a key of the board toolkit's
        ``drawn_once`` (with the board's sizes and role), or None while one of
        its knights is a click, which names the match and its version."""
        if any(knight.choice is not None for knight in self.knights):
            return None
        knights = tuple((k.colour, k.x, k.y, k.label) for k in self.knights)
        return (self.number, self.bunny, self.dragon, self.css, self.title, knights)


@dataclass
class Die:
    colour: str
    hex: str
    ink: str
    status: str
    text: str
    title: str
    choice: object = None  # the click that picks this die now, if any
    any_knight: bool = False  # the number on a white square: any knight moves

    def look(self) -> tuple | None:
        """Everything the die shows, as a key of the board toolkit's
        ``drawn_once`` (with the board's sizes and role), or None while it is a
        click, which names the match and its version."""
        if self.choice is not None:
            return None
        return (self.colour, self.status, self.text, self.title, self.any_knight)


@dataclass
class CastleSpace:
    label: str
    points: int
    knights: list[Piece] = field(default_factory=list)


def _knights_by_field(
    board: dict[str, int], bunnies: set[int], named: dict[str, str]
) -> dict[int, list[Piece]]:
    """Knights drawn as discs in their field's slots (up to 7 on one field)."""
    by_field: dict[int, list[Piece]] = {}
    for colour in C.COLOURS:
        if colour not in board:
            continue
        number = board[colour]
        here = by_field.setdefault(number, [])
        slots = knight_slots(number in bunnies)
        x, y = slots[len(here) % len(slots)]
        here.append(Piece(colour, COLOUR_HEX[colour], x, y, named[colour]))
    return by_field


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    board = view["board"]
    dragon = view["dragon"]
    bunnies = set(view["bunny_fields"])
    named = _colour_names(get_language())
    knights_on = _knights_by_field(board, bunnies, named)
    empty_titles = _empty_field_titles(get_language())
    fields = []
    for number in range(C.FIRST_FIELD, C.LAST_FIELD + 1):
        knights = knights_on.get(number, [])
        # The field's name for a screen reader, with the knights on it (a picture
        # without clicks is read as one image, by this name).
        title = (
            _("Field %(f)s: %(k)s.") % {"f": number, "k": ", ".join(k.label for k in knights)}
            if knights
            else empty_titles[number]
        )
        fields.append(
            Field(
                number=number,
                bunny=number in bunnies,
                dragon=number == dragon,
                css=track_classes(number),
                knights=knights,
                title=title,
            )
        )
    castle = []
    for space, (label, points) in enumerate(
        zip(C.CASTLE_SPACE_LABELS, view["castle_points"], strict=True)
    ):
        occupants = view["castle"][space] if space < len(view["castle"]) else []
        knights = [Piece(c, COLOUR_HEX[c], KNIGHT_R + 1, KNIGHT_R + 1, named[c]) for c in occupants]
        castle.append(CastleSpace(label, points, knights))
    dice = []
    for colour in C.DICE:
        status = view["dice"][colour]
        rolled = view["roll"].get(colour)
        shown = rolled if rolled and status == "pool" else None
        # The any-knight face is drawn as printed: its number on a white square.
        any_knight = bool(shown) and shown["kind"] == C.NUM_ANY
        text = (str(shown["n"]) if any_knight else face_text(shown)) if shown else ""
        title = f"{named[colour]}: " + (
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
                any_knight=any_knight,
            )
        )
    # The viewer's next clicks, drawn where they happen: a die, then a knight.
    clicks = {choice.key: choice for choice in choices.choices} if choices else {}
    for die in dice:
        die.choice = clicks.get(f"die-{die.colour}")
    for knight in (k for f in fields for k in f.knights):
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
    revealed = None
    if view.get("over") and view.get("revealed"):
        revealed = [
            {
                "name": names[seat],
                "shields": [
                    [(named[c], COLOUR_HEX[c]) for c in shield]
                    for shield in view["revealed"]["shields"][seat]
                ],
                "bunny_values": view["revealed"]["bunny_values"][seat],
            }
            for seat in range(view["n_players"])
        ]
    return {
        "field": FIELD,
        "knight_r": KNIGHT_R,
        "die": DIE,
        "fields": fields,
        "dragon": dragon,
        "dragon_home": dragon <= 0,
        "castle": castle,
        "dice": dice,
        "defeated": [(named[c], COLOUR_HEX[c]) for c in view["defeated"]],
        "tokens_left": view["dragon_tokens_left"],
        "tokens_revealed": view["dragon_revealed"],
        "bunnies_collected": list(zip(names, view["bunnies_collected"], strict=True)),
        "revealed": revealed,
    }


def private_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict | None:
    """The viewer's shield and bunnies (``PRIVATE_TEMPLATE``); None for a spectator."""
    me = view.get("me")
    if me is None:
        return None
    named = _colour_names(get_language())
    return {
        "shields": [[(named[c], COLOUR_HEX[c]) for c in shield] for shield in me["shields"]],
        "bunny_values": me["bunny_values"],
        "bunny_points": me["bunny_points"],
    }


# -- What changed between two positions -------------------------------------------------------


def _knight_place(view: dict, colour: str):
    """Where a knight is drawn: on a field, in a castle space, or nowhere (defeated)."""
    if colour in view["board"]:
        return ("field", view["board"][colour])
    for space, occupants in enumerate(view["castle"]):
        if colour in occupants:
            return ("castle", space)
    return None


def _die_face(view: dict, colour: str):
    """A die as drawn: its status and, while rolled, its face."""
    status = view["dice"][colour]
    return status, view["roll"].get(colour) if status == "pool" else None


def changed(before: dict, after: dict) -> set[str]:
    """The knights that moved (on the track or into the castle), the dragon when it
    moved, and the dice whose status or face changed: ``knight:<colour>``,
    ``dragon``, ``die:<colour>``, each drawn on the board. A knight the dragon
    caught is no longer drawn, so it is not named (the log says it)."""
    keys = set()
    for colour in C.COLOURS:
        place = _knight_place(after, colour)
        if place is not None and place != _knight_place(before, colour):
            keys.add(f"knight:{colour}")
    if before["dragon"] != after["dragon"]:
        keys.add("dragon")
    for colour in C.DICE:
        if _die_face(before, colour) != _die_face(after, colour):
            keys.add(f"die:{colour}")
    return keys


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
            f"{colour_name(die)} {face_text(face)}" for die, face in in_tray_order(event["faces"])
        )
        return _("%(p)s rolled: %(faces)s.") % {"p": seat_name, "faces": faces}
    if kind == "turn_started":
        return _("Turn %(n)s: %(p)s to play.") % {"n": event["turn"], "p": seat_name}
    if kind == "game_over":
        return _("The game is over.")
    return kind.replace("_", " ")


END_REASONS = {
    "castle_full": gettext_lazy("Four knights reached the castle."),
    "few_knights_left": gettext_lazy("Only two knights were left on the track."),
}


def final_summary(result: dict, names: list[str]):
    """A.9 broken down: the castle points of the shield's colours, the bunnies, the total."""
    details = result.get("details") or {}
    points = details.get("knight_points", {})
    cells = []
    for row in details.get("seats", []):
        shields = " + ".join(
            ", ".join(f"{colour_name(c)} {points.get(c, 0)}" for c in shield)
            for shield in row["shields"]
        )
        bunnies = " + ".join(str(v) for v in row["bunny_values"]) or "0"
        cells.append(
            [
                shields,
                str(row["knight_points"]),
                bunnies,
                str(row["bunny_points"]),
                str(row["score"]),
            ]
        )
    return dict(
        reason=str(END_REASONS.get(details.get("end_reason"), "")),
        columns=[
            _("Shield (castle points per colour)"),
            _("Knights"),
            _("Bunnies rescued"),
            _("Bunny points"),
            _("Total"),
        ],
        cells=cells,
    )


def describe_board(view: dict, names: list[str]) -> list[str]:
    """The position in words, for a screen reader: the track, the castle, the dice, the bunnies."""
    lines = []
    named = _colour_names(get_language())
    dragon = view["dragon"]
    if dragon <= 0:
        lines.append(_("The dragon is on its mountain, before field 1."))
    else:
        lines.append(_("The dragon is on field %(f)s.") % {"f": dragon})
    lines.append(_("Dragon tokens left: %(n)s.") % {"n": view["dragon_tokens_left"]})
    by_field: dict[int, list[str]] = {}
    for colour, field_number in view["board"].items():
        by_field.setdefault(field_number, []).append(named[colour])
    for field_number in sorted(by_field, reverse=True):
        knights = ", ".join(sorted(by_field[field_number]))
        if field_number in view["bunny_fields"]:
            lines.append(_("Field %(f)s, with a bunny: %(k)s.") % {"f": field_number, "k": knights})
        else:
            lines.append(_("Field %(f)s: %(k)s.") % {"f": field_number, "k": knights})
    free_bunnies = [f for f in view["bunny_fields"] if f not in by_field]
    if free_bunnies:
        lines.append(
            _("Bunnies wait on fields %(f)s.") % {"f": ", ".join(str(f) for f in free_bunnies)}
        )
    places = [
        f"{', '.join(named[c] for c in space)} ({points})"
        for space, points in zip(view["castle"], view["castle_points"], strict=False)
        if space
    ]
    if places:
        lines.append(_("In the castle (points): %(p)s.") % {"p": "; ".join(places)})
    if view["defeated"]:
        defeated = ", ".join(named[c] for c in view["defeated"])
        lines.append(_("Defeated: %(k)s.") % {"k": defeated})
    rolled = [
        f"{named[die]} {face_text(face)}"
        for die, face in in_tray_order(view["roll"])
        if view["dice"].get(die) == "pool"
    ]
    if rolled:
        lines.append(_("Dice to choose from: %(d)s.") % {"d": ", ".join(rolled)})
    aside = [named[d] for d, status in in_tray_order(view["dice"]) if status == "aside"]
    if aside:
        lines.append(_("Dice set aside: %(d)s.") % {"d": ", ".join(aside)})
    rescued = ", ".join(
        f"{name} {count}" for name, count in zip(names, view["bunnies_collected"], strict=False)
    )
    lines.append(_("Bunnies rescued: %(r)s.") % {"r": rescued})
    me = view.get("me")
    if me:
        shields = "; ".join(", ".join(named[c] for c in shield) for shield in me["shields"])
        lines.append(_("Your secret shield colours: %(s)s.") % {"s": shields or _("none")})
        bunnies = " + ".join(str(v) for v in me["bunny_values"]) or "0"
        lines.append(_("Your bunnies: %(b)s points.") % {"b": f"{bunnies} = {me['bunny_points']}"})
    return [str(line) for line in lines]
