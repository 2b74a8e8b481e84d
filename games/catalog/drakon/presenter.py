"""Drakon for people: the labyrinth as SVG, log sentences, and the clicks that
build a move. Works on ``view`` output only, never on the state.

The board is drawn on a grid that grows in every direction: its viewBox is
fitted around the rooms (plus a ring of free cells when a room can be placed
there), so it fills the width of a phone or a desktop. The viewer's current
choices are drawn where they happen: free cells to place a room on, rooms to
move to, rotations as previews. With htmx a click on a final choice posts the
move; without JavaScript it leads to a page that asks to confirm it.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.catalog.drakon.rules import MASKS, arrows_of

BOARD_TEMPLATE = "games/drakon/board.html"
# Log sentences say who acted ("Alice placed ..."), so the log omits the name.
SENTENCES_NAME_THE_ACTOR = True
CELL = 64
MARGIN = 12

ROOM_NAMES = {
    "entrance": gettext_lazy("Entrance Chamber"),
    "empty": gettext_lazy("Empty Chamber"),
    "destroy": gettext_lazy("Destroy a Chamber"),
    "drakon_moves": gettext_lazy("Drakon Moves"),
    "escape": gettext_lazy("Escape"),
    "find_coin": gettext_lazy("Find a Coin"),
    "floating": gettext_lazy("Floating Chamber"),
    "lose_coin": gettext_lazy("Lose a Coin"),
    "harp": gettext_lazy("Magic Harp"),
    "master_key": gettext_lazy("Master Key"),
    "mind_control": gettext_lazy("Mind Control"),
    "rotate": gettext_lazy("Rotate a Chamber"),
    "steal_left": gettext_lazy("Steal a Coin (left)"),
    "steal_right": gettext_lazy("Steal a Coin (right)"),
    "steal_tile": gettext_lazy("Steal a Chamber"),
    "swap": gettext_lazy("Swap a Chamber"),
    "portal": gettext_lazy("Portal"),
    "whirlwind": gettext_lazy("Whirlwind"),
}
ROOM_TEXTS = {
    "entrance": gettext_lazy("All heroes start here and return here after meeting Drakon."),
    "empty": gettext_lazy("No effect."),
    "destroy": gettext_lazy(
        "Put 1 unoccupied chamber (not the Entrance) face down under the draw pile."
    ),
    "drakon_moves": gettext_lazy(
        "You may move Drakon 0-3 chambers in any direction, ignoring arrows."
    ),
    "escape": gettext_lazy("When you place this chamber, you may put your hero on it."),
    "find_coin": gettext_lazy("Take 1 random coin from Drakon's hoard."),
    "floating": gettext_lazy(
        "You may fly this chamber (and its figures) to any empty space next to another "
        "chamber, rotated as you like."
    ),
    "lose_coin": gettext_lazy("Return 1 random coin of yours to the hoard."),
    "harp": gettext_lazy(
        "A hero moved out of an adjacent chamber with an arrow at the Harp must move into the Harp."
    ),
    "master_key": gettext_lazy(
        "The next time your hero is moved it may go to any adjacent chamber, ignoring arrows."
    ),
    "mind_control": gettext_lazy(
        "Force another hero to move; you choose where, that hero resolves the effects."
    ),
    "rotate": gettext_lazy(
        "Rotate any 1 chamber by 90° or 180° so that no arrows point at each other."
    ),
    "steal_left": gettext_lazy("Take 1 random coin from the player on your left."),
    "steal_right": gettext_lazy("Take 1 random coin from the player on your right."),
    "steal_tile": gettext_lazy("Take 1 random tile from an opponent holding 2 or more."),
    "swap": gettext_lazy(
        "Exchange 1 unoccupied chamber (not the Entrance) with a tile from your hand."
    ),
    "portal": gettext_lazy("The next time your hero is moved it may go to any chamber in play."),
    "whirlwind": gettext_lazy(
        "The next time your hero is moved it must move 2 chambers at once; the first one's "
        "effect is not resolved."
    ),
}
HERO_NAMES = {
    "knight": gettext_lazy("Knight"),
    "warrior": gettext_lazy("Warrior"),
    "ranger": gettext_lazy("Ranger"),
    "sorceress": gettext_lazy("Sorceress"),
    "druid": gettext_lazy("Druid"),
    "thief": gettext_lazy("Thief"),
}
HERO_TEXTS = {
    "knight": gettext_lazy(
        "Once: move an enemy hero in your chamber along an arrow and take a random tile from "
        "that player."
    ),
    "warrior": gettext_lazy("Once: put any tiles from your hand under the pile and draw as many."),
    "ranger": gettext_lazy("Once: take a move action (before or after your action)."),
    "sorceress": gettext_lazy("Once: move to any adjacent chamber, ignoring arrows."),
    "druid": gettext_lazy("Once, at any time: prevent the loss of a coin."),
    "thief": gettext_lazy(
        "Once: steal a random coin from a hero in your chamber, or exchange a coin with the hoard."
    ),
}

# A symbol and a colour per room: what it does at a glance, explained in the key.
#   gold: you gain, grey-red: you lose, blue: movement, purple: the lair changes,
#   red: Drakon, green: the way out.
ROOM_STYLE = {
    "entrance": ("IN", "#e8dcc4"),
    "empty": ("", "#efe7d6"),
    "find_coin": ("+$", "#f4d35e"),
    "lose_coin": ("−$", "#c9b7b0"),
    "steal_left": ("$←", "#f4d35e"),
    "steal_right": ("$→", "#f4d35e"),
    "steal_tile": ("T+", "#f4d35e"),
    "destroy": ("✕", "#c7b3dd"),
    "rotate": ("↻", "#c7b3dd"),
    "swap": ("⇄", "#c7b3dd"),
    "floating": ("≈", "#c7b3dd"),
    "harp": ("♪", "#a9c9ec"),
    "master_key": ("K", "#a9c9ec"),
    "portal": ("◎", "#a9c9ec"),
    "whirlwind": ("2»", "#a9c9ec"),
    "mind_control": ("MC", "#a9c9ec"),
    "drakon_moves": ("D", "#f1a39a"),
    "escape": ("EX", "#a7d7a0"),
}
HERO_COLOURS = ["#1f6feb", "#d1242f", "#2da44e", "#bf8700", "#8250df", "#e16f24"]

# Choice keys that name a cell on the board ("<prefix>-x,y").
CELL_PREFIXES = (
    "cell",
    "move",
    "power",
    "drakon",
    "destroy",
    "dmove",
    "float",
    "to",
    "rotate",
    "swap",
)


def room_name(room: str) -> str:
    return str(ROOM_NAMES.get(room, room))


def hero_name(hero: str | None) -> str:
    return str(HERO_NAMES.get(hero, hero or "?"))


def parse(at: str) -> tuple[int, int]:
    x, y = at.split(",")
    return int(x), int(y)


def pattern_arrows(pattern: str, rot: int) -> list[str]:
    return arrows_of(MASKS[pattern][rot])


# -- Geometry ------------------------------------------------------------------------------


@dataclass
class Frame:
    """Maps grid cells (x east, y north) to SVG coordinates (y down)."""

    min_x: int
    max_y: int

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return MARGIN + (x - self.min_x) * CELL, MARGIN + (self.max_y - y) * CELL


ARROW_TIPS = {
    # (dx, dy) of the tip from the cell centre, and the two base points.
    "N": ((0, -29), (-7, -21), (7, -21)),
    "E": ((29, 0), (21, -7), (21, 7)),
    "S": ((0, 29), (-7, 21), (7, 21)),
    "W": ((-29, 0), (-21, -7), (-21, 7)),
}


def arrow_paths(cx: int, cy: int, arrows: list[str]) -> list[str]:
    paths = []
    for arrow in arrows:
        tip, left, right = ARROW_TIPS[arrow]
        paths.append(
            f"M{cx + tip[0]} {cy + tip[1]} L{cx + left[0]} {cy + left[1]} "
            f"L{cx + right[0]} {cy + right[1]} Z"
        )
    return paths


@dataclass
class RoomTile:
    at: str
    x: int
    y: int
    cx: int
    cy: int
    room: str
    name: str
    symbol: str
    fill: str
    arrows: list[str]
    arrow_paths: list[str]
    is_entrance: bool = False


@dataclass
class Piece:
    label: str
    colour: str
    cx: int
    cy: int
    title: str


@dataclass
class Spot:
    """A cell or room the viewer may click now."""

    x: int
    y: int
    label: str
    href_path: str
    post_vals: str | None  # hx-vals for a click that completes the move
    is_room: bool


@dataclass
class Preview:
    """A rotation to choose, drawn as a little tile."""

    label: str
    href_path: str
    post_vals: str | None
    arrow_paths: list[str] = field(default_factory=list)
    symbol: str = ""
    fill: str = ""


def _spot_for(choice, frame: Frame, rooms: set[str], version: int | None) -> Spot | None:
    prefix, _sep, rest = choice.key.partition("-")
    if prefix not in CELL_PREFIXES or "," not in rest:
        return None
    at = rest
    try:
        x, y = parse(at)
    except ValueError:
        return None
    ox, oy = frame.origin(x, y)
    return Spot(
        x=ox,
        y=oy,
        label=choice.label,
        href_path=choice.path,
        post_vals=_post_vals(choice, version),
        is_room=at in rooms,
    )


def _post_vals(choice, version: int | None) -> str | None:
    if choice.action_json is None or version is None:
        return None
    return json.dumps({"action": choice.action_json, "version": version})


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    rooms = view["board"]
    cells = [(r["x"], r["y"]) for r in rooms]
    choice_cells = []
    if choices is not None:
        for choice in choices.choices:
            prefix, _sep, rest = choice.key.partition("-")
            if prefix in CELL_PREFIXES and "," in rest:
                with contextlib.suppress(ValueError):
                    choice_cells.append(parse(rest))
    every = cells + choice_cells
    min_x = min(x for x, _y in every)
    max_x = max(x for x, _y in every)
    min_y = min(y for _x, y in every)
    max_y = max(y for _x, y in every)
    frame = Frame(min_x=min_x, max_y=max_y)
    width = 2 * MARGIN + (max_x - min_x + 1) * CELL
    height = 2 * MARGIN + (max_y - min_y + 1) * CELL

    tiles = []
    for room in rooms:
        ox, oy = frame.origin(room["x"], room["y"])
        cx, cy = ox + CELL // 2, oy + CELL // 2
        symbol, fill = ROOM_STYLE.get(room["room"], ("?", "#ddd"))
        tiles.append(
            RoomTile(
                at=room["at"],
                x=ox,
                y=oy,
                cx=cx,
                cy=cy,
                room=room["room"],
                name=room_name(room["room"]),
                symbol=symbol,
                fill=fill,
                arrows=room["arrows"],
                arrow_paths=arrow_paths(cx, cy, room["arrows"]),
                is_entrance=room["at"] == view.get("entrance", "0,0"),
            )
        )

    pieces = _pieces(view, frame, names)
    version = view.get("_version")
    spots: list[Spot] = []
    previews: list[Preview] = []
    hand_links: dict[int, str] = {}
    if choices is not None:
        room_keys = {r["at"] for r in rooms}
        for choice in choices.choices:
            spot = _spot_for(choice, frame, room_keys, version)
            if spot is not None:
                spots.append(spot)
            elif choice.key.startswith("rot-") or choice.key.startswith("turns-"):
                previews.append(_preview(choice, view, choices, version))
            elif choice.key.startswith("tile-"):
                hand_links[int(choice.key.split("-")[1])] = choice.path

    me = view.get("me")
    mine = None
    if me is not None:
        mine = {
            "hero": hero_name(me.get("hero")),
            "hero_text": str(HERO_TEXTS.get(me.get("hero"), "")),
            "coins": me["coins"],
            "gold": me["gold"],
            "hand": [
                {
                    "tile": t["tile"],
                    "name": room_name(t["room"]),
                    "symbol": ROOM_STYLE.get(t["room"], ("?", "#ddd"))[0],
                    "fill": ROOM_STYLE.get(t["room"], ("?", "#ddd"))[1],
                    "arrow_paths": arrow_paths(32, 32, pattern_arrows(t["pattern"], 0)),
                    "path": hand_links.get(t["tile"]),
                }
                for t in me["hand"]
            ],
        }
    players = []
    for hero in view["heroes"]:
        seat = hero["seat"]
        players.append(
            {
                "name": names[seat] if seat < len(names) else "?",
                "hero": hero_name(hero.get("hero")),
                "colour": HERO_COLOURS[seat % len(HERO_COLOURS)],
                "coins": hero["coins"],
                "tiles": hero["tiles"],
                "ability_used": hero.get("ability_used"),
                "at": hero.get("at"),
            }
        )
    goal = view.get("goal", {})
    return {
        "width": width,
        "height": height,
        "cell": CELL,
        "tiles": tiles,
        "pieces": pieces,
        "spots": spots,
        "previews": previews,
        "players": players,
        "mine": mine,
        "stack": view["stack"],
        "hoard": view["hoard"],
        "goal_gold": goal.get("gold"),
        "escape_gold": goal.get("escape_gold"),
        "options": [str(label) for label in option_labels(view["options"])],
        "pending": describe_pending(view, names),
        "key": [
            {
                "symbol": ROOM_STYLE[key][0],
                "fill": ROOM_STYLE[key][1],
                "name": room_name(key),
                "text": str(ROOM_TEXTS[key]),
            }
            for key in ROOM_STYLE
        ],
        "revealed": _revealed(view, names),
    }


def _pieces(view: dict, frame: Frame, names: list[str]) -> list[Piece]:
    """Heroes as lettered discs, Drakon as a red diamond, spread within a room."""
    by_cell: dict[str, list[tuple[str, str, str]]] = {}
    for hero in view["heroes"]:
        if hero.get("at") is None:
            continue
        seat = hero["seat"]
        label = (hero_name(hero.get("hero")) or "?")[:1].upper()
        title = f"{names[seat] if seat < len(names) else '?'}: {hero_name(hero.get('hero'))}"
        by_cell.setdefault(hero["at"], []).append(
            (label, HERO_COLOURS[seat % len(HERO_COLOURS)], title)
        )
    pieces = []
    offsets = [(-16, -14), (16, -14), (-16, 14), (16, 14), (0, -18), (0, 18)]
    for at, figures in by_cell.items():
        x, y = parse(at)
        ox, oy = frame.origin(x, y)
        for i, (label, colour, title) in enumerate(figures):
            dx, dy = offsets[i % len(offsets)]
            pieces.append(Piece(label, colour, ox + CELL // 2 + dx, oy + CELL // 2 + dy, title))
    if view.get("drakon"):
        x, y = parse(view["drakon"])
        ox, oy = frame.origin(x, y)
        pieces.append(Piece("Dr", "#8b0000", ox + CELL // 2, oy + CELL // 2, _("Drakon")))
    return pieces


def _preview(choice, view: dict, choices, version) -> Preview:
    """A rotation choice drawn as the tile it would give."""
    pattern, room = _pattern_in_play(view, choices)
    arrows: list[str] = []
    if pattern is not None:
        rot = int(choice.key.split("-")[1])
        if choice.key.startswith("turns-"):
            rot = (_current_rot(view, choices) + rot) % 4
        arrows = pattern_arrows(pattern, rot)
    symbol, fill = ROOM_STYLE.get(room or "", ("", "#efe7d6"))
    return Preview(
        label=choice.label,
        href_path=choice.path,
        post_vals=_post_vals(choice, version),
        arrow_paths=arrow_paths(32, 32, arrows),
        symbol=symbol,
        fill=fill,
    )


def _pattern_in_play(view: dict, choices) -> tuple[str | None, str | None]:
    """The pattern and room of the tile the rotation choices are about."""
    path = choices.choices[0].path.split(".") if choices.choices else []
    by_tile = {t["tile"]: t for t in (view.get("me") or {}).get("hand", [])}
    by_at = {r["at"]: r for r in view["board"]}
    for key in path:
        prefix, _sep, rest = key.partition("-")
        if prefix == "tile" and rest.isdigit() and int(rest) in by_tile:
            tile = by_tile[int(rest)]
            return tile["pattern"], tile["room"]
    for key in path:
        prefix, _sep, rest = key.partition("-")
        if prefix in ("float", "rotate") and rest in by_at:
            return by_at[rest]["pattern"], by_at[rest]["room"]
    pending = view.get("pending") or {}
    if pending.get("at") in by_at:
        room = by_at[pending["at"]]
        return room["pattern"], room["room"]
    return None, None


def _current_rot(view: dict, choices) -> int:
    by_at = {r["at"]: r for r in view["board"]}
    path = choices.choices[0].path.split(".") if choices.choices else []
    for key in path:
        prefix, _sep, rest = key.partition("-")
        if prefix == "rotate" and rest in by_at:
            return by_at[rest]["rot"]
    return 0


def _revealed(view: dict, names: list[str]):
    if not view.get("over") or not view.get("revealed"):
        return None
    return [
        {"name": names[seat] if seat < len(names) else "?", "coins": coins, "gold": sum(coins)}
        for seat, coins in enumerate(view["revealed"]["coins"])
    ]


def option_labels(options: dict) -> list:
    labels = {
        "heroes": gettext_lazy("Heroes!"),
        "escape": gettext_lazy("Escape from Drakon's lair"),
        "short_game": gettext_lazy("Short game"),
        "team_play": gettext_lazy("Team play"),
    }
    return [labels[key] for key, on in options.items() if on and key in labels]


def describe_pending(view: dict, names: list[str]) -> str:
    """What the game is waiting for, in a sentence."""
    pending = view.get("pending")
    if not pending:
        return ""
    seat = pending.get("seat")
    who = names[seat] if isinstance(seat, int) and seat < len(names) else "?"
    texts = {
        "choose_hero": _("%(who)s chooses a hero."),
        "action": _("%(who)s places a chamber or moves."),
        "after_action": _("%(who)s may use their hero's ability or end the turn."),
        "place_drakon": _("%(who)s puts Drakon into the lair."),
        "escape": _("%(who)s may step onto the new Escape."),
        "destroy": _("%(who)s chooses a chamber to destroy."),
        "drakon_move": _("%(who)s moves Drakon."),
        "float": _("%(who)s may fly the Floating Chamber."),
        "mind_control": _("%(who)s chooses a hero to control."),
        "rotate": _("%(who)s rotates a chamber."),
        "steal_tile": _("%(who)s chooses whom to take a tile from."),
        "swap": _("%(who)s swaps a chamber."),
        "druid": _("%(who)s may protect a coin with the Druid."),
        "warrior": _("%(who)s picks tiles to put under the pile."),
    }
    return str(texts.get(pending["kind"], _("%(who)s decides."))) % {"who": who}


# -- The clicks that build a move ----------------------------------------------------------


def _tile_label(view: dict, tile: int) -> str:
    for t in (view.get("me") or {}).get("hand", []):
        if t["tile"] == tile:
            return room_name(t["room"])
    return _("tile %(n)s") % {"n": tile}


def _room_at(view: dict, at: str) -> str:
    for room in view["board"]:
        if room["at"] == at:
            return f"{room_name(room['room'])} ({at})"
    return at


def _rot_label(rot: int) -> str:
    return _("turned %(deg)s°") % {"deg": rot * 90}


def action_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    kind = action["type"]
    if kind == "place":
        steps = [
            (
                f"tile-{action['tile']}",
                _("Place %(room)s") % {"room": _tile_label(view, action["tile"])},
            ),
            (f"cell-{action['at']}", _("at %(at)s") % {"at": action["at"]}),
        ]
        pattern = next(
            (t["pattern"] for t in view["me"]["hand"] if t["tile"] == action["tile"]), None
        )
        if pattern is None or len({MASKS[pattern][r] for r in range(4)}) > 1:
            steps.append((f"rot-{action['rot']}", _rot_label(action["rot"])))
        return steps
    if kind == "move":
        prefix = "power" if action.get("power") else "move"
        label = _("Move to %(room)s") % {"room": _room_at(view, action["to"])}
        if action.get("power"):
            label = _("Sorceress: move to %(room)s") % {"room": _room_at(view, action["to"])}
        return [(f"{prefix}-{action['to']}", label)]
    if kind == "end_turn":
        return [("end_turn", _("End the turn"))]
    if kind == "choose_hero":
        return [
            (f"hero-{action['hero']}", _("Play the %(hero)s") % {"hero": hero_name(action["hero"])})
        ]
    if kind == "place_drakon":
        return [
            (
                f"drakon-{action['at']}",
                _("Put Drakon in %(room)s") % {"room": _room_at(view, action["at"])},
            )
        ]
    if kind == "enter_escape":
        return [("enter_escape", _("Step onto the Escape"))]
    if kind == "skip":
        return [("skip", _("Skip"))]
    if kind == "protect":
        return [("protect", _("Protect the coin (Druid)"))]
    if kind == "destroy":
        return [
            (
                f"destroy-{action['at']}",
                _("Destroy %(room)s") % {"room": _room_at(view, action["at"])},
            )
        ]
    if kind == "drakon_move":
        return [
            (
                f"dmove-{action['to']}",
                _("Drakon to %(room)s") % {"room": _room_at(view, action["to"])},
            )
        ]
    if kind == "float":
        return [
            (f"float-{action['to']}", _("Fly it to %(at)s") % {"at": action["to"]}),
            (f"rot-{action['rot']}", _rot_label(action["rot"])),
        ]
    if kind == "mind_control":
        who = _seat_name(view, action["target"])
        return [
            (f"target-{action['target']}", _("Control %(who)s") % {"who": who}),
            (
                f"to-{action['to']}",
                _("send them to %(room)s") % {"room": _room_at(view, action["to"])},
            ),
        ]
    if kind == "rotate":
        return [
            (
                f"rotate-{action['at']}",
                _("Rotate %(room)s") % {"room": _room_at(view, action["at"])},
            ),
            (f"turns-{action['turns']}", _("by %(deg)s°") % {"deg": action["turns"] * 90}),
        ]
    if kind == "steal_tile":
        return [
            (
                f"from-{action['from']}",
                _("Take a tile from %(who)s") % {"who": _seat_name(view, action["from"])},
            )
        ]
    if kind == "swap":
        return [
            (f"swap-{action['at']}", _("Swap %(room)s") % {"room": _room_at(view, action["at"])}),
            (
                f"tile-{action['tile']}",
                _("for %(room)s") % {"room": _tile_label(view, action["tile"])},
            ),
            (f"rot-{action['rot']}", _rot_label(action["rot"])),
        ]
    if kind == "warrior_tile":
        return [
            (
                f"wtile-{action['tile']}",
                _("Put %(room)s under the pile") % {"room": _tile_label(view, action["tile"])},
            )
        ]
    if kind == "warrior_done":
        return [("warrior_done", _("Done: draw the new tiles"))]
    if kind == "ability":
        return _ability_steps(action, view)
    return [(kind, kind.replace("_", " "))]


def _ability_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    hero = action["hero"]
    first = (f"ability-{hero}", _("%(hero)s's ability") % {"hero": hero_name(hero)})
    if hero == "knight":
        return [
            first,
            (
                f"target-{action['target']}",
                _("push %(who)s") % {"who": _seat_name(view, action["target"])},
            ),
            (f"to-{action['to']}", _("to %(room)s") % {"room": _room_at(view, action["to"])}),
        ]
    if hero == "warrior":
        return [
            first,
            (
                f"wtile-{action['tile']}",
                _("starting with %(room)s") % {"room": _tile_label(view, action["tile"])},
            ),
        ]
    if hero == "ranger":
        return [
            first,
            (f"to-{action['to']}", _("move to %(room)s") % {"room": _room_at(view, action["to"])}),
        ]
    if hero == "thief" and "target" in action:
        return [
            first,
            (
                f"steal-{action['target']}",
                _("steal from %(who)s") % {"who": _seat_name(view, action["target"])},
            ),
        ]
    if hero == "thief":
        return [
            first,
            (f"coin-{action['coin']}", _("exchange a %(v)s-gold coin") % {"v": action["coin"]}),
        ]
    return [first]


def _seat_name(view: dict, seat: int) -> str:
    names = view.get("_names") or []
    if 0 <= seat < len(names):
        return names[seat]
    return _("seat %(n)s") % {"n": seat + 1}


# -- The move log ----------------------------------------------------------------------------


def describe_event(event: dict, names: list[str]) -> str:
    kind = event["type"]

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and seat < len(names) else "?"

    def room(key: str = "room") -> str:
        return room_name(event.get(key, ""))

    sentences = {
        "hero_chosen": lambda: (
            _("%(p)s plays the %(hero)s.") % {"p": who(), "hero": hero_name(event["hero"])}
        ),
        "hand_dealt": lambda: _("%(p)s gets %(n)s tiles.") % {"p": who(), "n": event["count"]},
        "tiles_drawn": lambda: (
            _("(Only you see this: you drew %(n)s tile(s).)") % {"n": len(event["tiles"])}
        ),
        "turn_started": lambda: "",
        "turn_skipped": lambda: _("%(p)s cannot act and passes.") % {"p": who()},
        "room_placed": lambda: (
            _("%(p)s placed %(room)s at %(at)s.") % {"p": who(), "room": room(), "at": event["at"]}
        ),
        "tile_drawn": lambda: (
            _("%(p)s drew a tile.") % {"p": who()} if event["count"] else _("The pile is empty.")
        ),
        "drakon_placed": lambda: (
            _("%(p)s put Drakon in the chamber at %(at)s.") % {"p": who(), "at": event["at"]}
        ),
        "hero_placed": lambda: _("%(p)s stepped onto the new Escape.") % {"p": who()},
        "escape_declined": lambda: _("%(p)s stayed put.") % {"p": who()},
        "hero_moved": lambda: (
            _("%(p)s moved from %(a)s to %(b)s.")
            % {"p": who(), "a": event["from"], "b": event["to"]}
        ),
        "mind_controlled": lambda: (
            _("%(p)s took control of %(q)s.") % {"p": who(), "q": who("target")}
        ),
        "drakon_encounter": lambda: _("Drakon! The heroes there flee to the Entrance."),
        "drakon_moved": lambda: (
            _("Drakon moved from %(a)s to %(b)s.") % {"a": event["from"], "b": event["to"]}
        ),
        "coin_found": lambda: _("%(p)s found a coin.") % {"p": who()},
        "coin_found_value": lambda: (
            _("(Only you see this: it is worth %(v)s.)") % {"v": event["value"]}
        ),
        "hoard_empty": lambda: _("Drakon's hoard is empty."),
        "coin_lost": lambda: _("%(p)s lost a coin to the hoard.") % {"p": who()},
        "coin_lost_value": lambda: (
            _("(Only you see this: it was worth %(v)s.)") % {"v": event["value"]}
        ),
        "coin_stolen": lambda: (
            _("%(p)s stole a coin from %(q)s.") % {"p": who(), "q": who("victim")}
        ),
        "coin_stolen_value": lambda: (
            _("(Only you see this: the coin is worth %(v)s.)") % {"v": event["value"]}
        ),
        "no_coin": lambda: (
            _("%(p)s had no coin to take.") % {"p": who("victim") if "victim" in event else who()}
        ),
        "room_destroyed": lambda: (
            _("%(p)s destroyed %(room)s at %(at)s.")
            % {"p": who(), "room": room(), "at": event["at"]}
        ),
        "room_floated": lambda: (
            _("%(p)s flew the Floating Chamber from %(a)s to %(b)s.")
            % {"p": who(), "a": event["from"], "b": event["to"]}
        ),
        "float_declined": lambda: _("%(p)s left the Floating Chamber where it is.") % {"p": who()},
        "room_rotated": lambda: (
            _("%(p)s rotated the chamber at %(at)s.") % {"p": who(), "at": event["at"]}
        ),
        "room_removed": lambda: (
            _("%(p)s took %(room)s at %(at)s back into their hand.")
            % {"p": who(), "room": room(), "at": event["at"]}
        ),
        "tile_stolen": lambda: (
            _("%(p)s took a tile from %(q)s.") % {"p": who(), "q": who("victim")}
        ),
        "tile_stolen_detail": lambda: (
            _("(Only you see this: the tile is %(room)s.)") % {"room": room()}
        ),
        "no_tile": lambda: _("%(q)s had no tile to take.") % {"q": who("victim")},
        "no_effect": lambda: _("%(room)s had nothing to act on.") % {"room": room()},
        "ability_used": lambda: (
            _("%(p)s used the %(hero)s's ability.") % {"p": who(), "hero": hero_name(event["hero"])}
        ),
        "coin_exchanged": lambda: _("%(p)s exchanged a coin with the hoard.") % {"p": who()},
        "coin_exchanged_value": lambda: (
            _("(Only you see this: you gave %(a)s and got %(b)s.)")
            % {"a": event["gave"], "b": event["got"]}
        ),
        "tiles_cycled": lambda: (
            _("%(p)s put %(n)s tiles under the pile and drew as many.")
            % {"p": who(), "n": event["count"]}
        ),
        "tiles_cycled_detail": lambda: _("(Only you see this: tiles exchanged.)"),
        "no_action": lambda: _("%(p)s had no action left.") % {"p": who()},
        "escaped": lambda: _("%(p)s escaped from Drakon's lair!") % {"p": who()},
        "game_over": lambda: _("The game is over."),
    }
    describe = sentences.get(kind)
    if describe is None:
        return kind.replace("_", " ")
    return str(describe())
