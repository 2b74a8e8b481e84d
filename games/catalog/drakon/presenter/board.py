"""The labyrinth as SVG: the rooms, the figures and the clicks drawn where they happen.

The board is drawn on a grid that grows in every direction: its viewBox is
fitted around the rooms, plus the ring of free cells around them while the
viewer is to move (every cell of the turn's choices touches a room), and is
never smaller than ``MIN_CELLS`` a side, so a lone Entrance is not blown up. The viewer's current
choices are drawn where they happen: free cells to place a room on, rooms to
move to, rotations as previews.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.catalog.drakon.components import EDITIONS
from games.catalog.drakon.presenter.texts import (
    describe_pending,
    edition_of,
    hero_name,
    hero_text,
    is_classic,
    option_labels,
    origin_of,
    room_name,
    room_text,
    room_with_place,
)
from games.catalog.drakon.presenter.words import room_words
from games.catalog.drakon.rules import MASKS, arrows_of

CELL = 64
MARGIN = 12
MIN_CELLS = 4  # the least frame, cells a side (280 units)

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
    # the first edition's rooms
    "start": ("ST", "#e8dcc4"),
    "find_gold": ("+$", "#f4d35e"),
    "wishing_well": ("−$", "#c9b7b0"),
    "drakons_due": ("$▸S", "#f1a39a"),
    "map": ("T+", "#f4d35e"),
    "shift": ("⇄", "#c7b3dd"),
    "mind_orb": ("MC", "#a9c9ec"),
    "vortex": ("◎", "#a9c9ec"),
    "gale": ("3»", "#a9c9ec"),
    "strong_wind": ("2»", "#a9c9ec"),
}


# The room's picture (games/icons.py): the same icon for the same idea in both editions
# (coins, a hand that takes, a key...); the symbol above tells variants apart (+$, −$, 2»).
ROOM_ICON = {
    "entrance": "dungeon-gate",
    "start": "dungeon-gate",
    "find_coin": "two-coins",
    "find_gold": "two-coins",
    "lose_coin": "two-coins",
    "wishing_well": "well",
    "steal_left": "grab",
    "steal_right": "grab",
    "steal_tile": "grab",
    "map": "treasure-map",
    "destroy": "crumbling-ball",
    "rotate": "clockwise-rotation",
    "swap": "back-forth",
    "shift": "back-forth",
    "floating": "feather",
    "harp": "harp",
    "master_key": "key",
    "portal": "magic-portal",
    "vortex": "vortex",
    "whirlwind": "whirlwind",
    "gale": "whirlwind",
    "strong_wind": "whirlwind",
    "mind_control": "psychic-waves",
    "mind_orb": "crystal-ball",
    "drakon_moves": "dragon-head",
    "drakons_due": "dragon-head",
    "escape": "exit-door",
}


def key_rooms(view: dict) -> list[str]:
    """The rooms of the view's edition, in the order of the key (symbol table)."""
    rooms = EDITIONS[view.get("edition", "4e")].rooms
    ordered = list(rooms) if is_classic(view) else list(ROOM_STYLE)
    return [room for room in ordered if room in rooms and room in ROOM_STYLE]


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


def parse(at: str) -> tuple[int, int]:
    x, y = at.split(",")
    return int(x), int(y)


def pattern_arrows(pattern: str, rot: int) -> list[str]:
    return arrows_of(MASKS[pattern][rot])


# -- Geometry ------------------------------------------------------------------------------


@dataclass
class Frame:
    """Maps grid cells (x east, y north) to SVG coordinates (y down); ``left`` and
    ``top`` centre a labyrinth smaller than the least frame."""

    min_x: int
    max_y: int
    left: int = 0
    top: int = 0

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return (
            MARGIN + self.left + (x - self.min_x) * CELL,
            MARGIN + self.top + (self.max_y - y) * CELL,
        )


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
    coins: int = 0  # coins lying on the room (the first edition's Start)
    icon: str = ""
    origin: str = "entrance"  # the room places are named from (the first edition's Start)
    words: str = ""  # the room's line of the board in words: its name on the drawn board

    @property
    def title(self) -> str:
        """The room's name and where it lies, for the tooltip and screen readers."""
        return room_with_place(self.room, self.at, self.origin)


@dataclass
class Piece:
    label: str
    colour: str
    cx: int
    cy: int
    title: str
    icon: str = ""
    key: str = ""  # hero:<seat> or drakon: what ``changed`` names


@dataclass
class Spot:
    """A cell or room the viewer may click now."""

    x: int
    y: int
    label: str
    choice: Any  # presenters.Choice, drawn with board_choice()
    is_room: bool

    @property
    def css(self) -> str:
        return "spot on-room" if self.is_room else "spot"


@dataclass
class Preview:
    """A rotation to choose, drawn as a little tile."""

    label: str
    choice: Any  # presenters.Choice, drawn with board_choice()
    arrow_paths: list[str] = field(default_factory=list)
    symbol: str = ""
    fill: str = ""
    arrows: list[str] = field(default_factory=list)
    icon: str = ""


def _spot_for(choice, frame: Frame, rooms: set[str]) -> Spot | None:
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
        choice=choice,
        is_room=at in rooms,
    )


def private_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict | None:
    """The viewer's hero, coins and hand, each tile with its click (a tile to
    place); None for a spectator."""
    me = view.get("me")
    if me is None:
        return None
    hand_choices = {
        int(choice.key.split("-")[1]): choice
        for choice in (choices.choices if choices is not None else [])
        if choice.key.startswith("tile-")
    }
    return {
        "hero": hero_name(me.get("hero")),
        "hero_text": hero_text(view, me.get("hero")),
        "coins": me["coins"],
        "gold": me["gold"],
        "hand": [
            {
                "tile": t["tile"],
                "name": room_name(t["room"], edition_of(view)),
                "symbol": ROOM_STYLE.get(t["room"], ("?", "#ddd"))[0],
                "fill": ROOM_STYLE.get(t["room"], ("?", "#ddd"))[1],
                "icon": ROOM_ICON.get(t["room"], ""),
                "arrow_paths": arrow_paths(32, 32, pattern_arrows(t["pattern"], 0)),
                "choice": hand_choices.get(t["tile"]),
            }
            for t in me["hand"]
        ],
    }


# The email's picture shows at most this many cells a side of the lair, so a
# room is at least 48 px wide in the 480 px picture (64 units of 640).
PICTURE_CELLS_WIDE = 10
PICTURE_CELLS_TALL = 12


def picture_focus(board: dict | None, viewer: int | None = None) -> dict | None:
    """What the email's picture draws (``games/panel/presenters.py:
    default_picture_focus``): the lair cropped to its rooms (a quarter of a
    cell around them); a lair larger than ``PICTURE_CELLS_WIDE`` by
    ``PICTURE_CELLS_TALL`` cells is cropped to that many around the viewer's
    hero (else the pieces' middle), so its rooms stay readable; then the
    player's own tiles. Not the key to the chambers nor the heroes' dots."""
    tiles = (board or {}).get("tiles") or []
    if not tiles:
        return None
    cell = board["cell"]
    pad = cell // 4
    left = min(t.x for t in tiles) - pad
    top = min(t.y for t in tiles) - pad
    right = max(t.x for t in tiles) + cell + pad
    bottom = max(t.y for t in tiles) + cell + pad
    width = min(right - left, PICTURE_CELLS_WIDE * cell)
    height = min(bottom - top, PICTURE_CELLS_TALL * cell)
    pieces = board.get("pieces") or []
    mine = [p for p in pieces if p.key == f"hero:{viewer}"]
    around = mine or pieces
    if around:
        cx = sum(p.cx for p in around) / len(around)
        cy = sum(p.cy for p in around) / len(around)
    else:
        cx, cy = (left + right) / 2, (top + bottom) / 2
    x = min(max(left, cx - width / 2), right - width)
    y = min(max(top, cy - height / 2), bottom - height)
    return {
        "box": (round(x), round(y), width, height),
        "cell": cell,
        "own": _("Your tiles"),
    }


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
    # The viewer to move sees the free ring around the lair too: every cell a room can
    # be placed on, moved to or floated to this turn touches a room, so the whole turn's
    # choices are in view from its first step, and the frame stays put through its steps.
    ring = 1 if choices is not None else 0
    every = [(x + dx, y + dy) for x, y in cells for dx in (-ring, ring) for dy in (-ring, ring)]
    every += choice_cells
    min_x = min(x for x, _y in every)
    max_x = max(x for x, _y in every)
    min_y = min(y for _x, y in every)
    max_y = max(y for _x, y in every)
    # A small lair is centred in a frame of at least MIN_CELLS a side, so a lone
    # Entrance is drawn at the size of a room in a grown labyrinth, not blown up.
    wide, tall = max_x - min_x + 1, max_y - min_y + 1
    frame = Frame(
        min_x=min_x,
        max_y=max_y,
        left=max(0, MIN_CELLS - wide) * CELL // 2,
        top=max(0, MIN_CELLS - tall) * CELL // 2,
    )
    width = 2 * MARGIN + max(wide, MIN_CELLS) * CELL
    height = 2 * MARGIN + max(tall, MIN_CELLS) * CELL

    tiles = []
    words = room_words(view, names)
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
                name=room_name(room["room"], edition_of(view)),
                symbol=symbol,
                fill=fill,
                arrows=room["arrows"],
                arrow_paths=arrow_paths(cx, cy, room["arrows"]),
                is_entrance=room["at"] == view.get("entrance", "0,0"),
                coins=(view.get("start_coins") or 0) if room["room"] == "start" else 0,
                icon=ROOM_ICON.get(room["room"], ""),
                origin=origin_of(view),
                words=words.get(room["at"], ""),
            )
        )

    pieces = _pieces(view, frame, names)
    spots: list[Spot] = []
    previews: list[Preview] = []
    if choices is not None:
        room_keys = {r["at"] for r in rooms}
        for choice in choices.choices:
            spot = _spot_for(choice, frame, room_keys)
            if spot is not None:
                spots.append(spot)
            elif choice.key.startswith("rot-") or choice.key.startswith("turns-"):
                previews.append(_preview(choice, view, choices))

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
                # worded here: makemessages gathers no plural from a Jinja template
                "coins_text": ngettext("%(n)s coin", "%(n)s coins", hero["coins"])
                % {"n": hero["coins"]},
                "tiles_text": ngettext("%(n)s tile", "%(n)s tiles", hero["tiles"])
                % {"n": hero["tiles"]},
                "ability_used": hero.get("ability_used"),
                "at": hero.get("at"),
                "seat": seat,
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
        "ghosts": _ghosts(previews, choices, frame, view),
        "players": players,
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
                "icon": ROOM_ICON.get(key, ""),
                "name": room_name(key, edition_of(view)),
                "text": room_text(view, key),
            }
            for key in key_rooms(view)
        ],
        "start_coins": view.get("start_coins"),
        "classic": is_classic(view),
        "revealed": _revealed(view, names),
    }


def _pieces(view: dict, frame: Frame, names: list[str]) -> list[Piece]:
    """Heroes as lettered discs, Drakon as a red diamond, spread within a room."""
    by_cell: dict[str, list[tuple[str, str, str, str]]] = {}
    for hero in view["heroes"]:
        if hero.get("at") is None:
            continue
        seat = hero["seat"]
        label = (hero_name(hero.get("hero")) or "?")[:1].upper()
        title = f"{names[seat] if seat < len(names) else '?'}: {hero_name(hero.get('hero'))}"
        by_cell.setdefault(hero["at"], []).append(
            (label, HERO_COLOURS[seat % len(HERO_COLOURS)], title, f"hero:{seat}")
        )
    pieces = []
    offsets = [(-16, -14), (16, -14), (-16, 14), (16, 14), (0, -18), (0, 18)]
    for at, figures in by_cell.items():
        x, y = parse(at)
        ox, oy = frame.origin(x, y)
        for i, (label, colour, title, key) in enumerate(figures):
            dx, dy = offsets[i % len(offsets)]
            pieces.append(
                Piece(label, colour, ox + CELL // 2 + dx, oy + CELL // 2 + dy, title, key=key)
            )
    if view.get("drakon"):
        x, y = parse(view["drakon"])
        ox, oy = frame.origin(x, y)
        pieces.append(
            Piece(
                "Dr",
                "#8b0000",
                ox + CELL // 2,
                oy + CELL // 2,
                _("Drakon"),
                "dragon-head",
                key="drakon",
            )
        )
    return pieces


def _preview(choice, view: dict, choices) -> Preview:
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
        choice=choice,
        arrow_paths=arrow_paths(32, 32, arrows),
        symbol=symbol,
        fill=fill,
        arrows=arrows,
        icon=ROOM_ICON.get(room or "", ""),
    )


#: Choice keys naming the cell a tile will lie on while its rotation is chosen
#: (a placed, flown or swapped tile, or a chamber being rotated where it lies).
GHOST_PREFIXES = ("cell", "float", "swap", "rotate")


def _ghost_cell(path: str) -> tuple[int, int] | None:
    for key in reversed(path.split(".")):
        prefix, _sep, rest = key.partition("-")
        if prefix in GHOST_PREFIXES and "," in rest:
            with contextlib.suppress(ValueError):
                return parse(rest)
    return None


def _ghosts(previews: list[Preview], choices, frame: Frame, view: dict) -> list[dict]:
    """The tile being turned, drawn on the board where it will lie, once per rotation
    the player may choose (``option`` N matches the N-th rotation button; the board
    shows the first, and the one under the pointer or focus). While a chosen
    rotation waits for confirmation, that rotation alone."""
    if choices is None:
        return []
    pending = choices.confirm
    if not previews and pending is not None and pending.key.startswith(("rot-", "turns-")):
        previews = [_preview(pending, view, choices)]
        path = pending.path
    elif previews and choices.choices:
        path = choices.choices[0].path
    else:
        return []
    cell = _ghost_cell(path)
    if cell is None:
        return []
    ox, oy = frame.origin(*cell)
    cx, cy = ox + CELL // 2, oy + CELL // 2
    return [
        {
            "option": option,
            "x": ox,
            "y": oy,
            "cx": cx,
            "cy": cy,
            "fill": preview.fill,
            "symbol": preview.symbol,
            "icon": preview.icon,
            "arrows": preview.arrows,
            "arrow_paths": arrow_paths(cx, cy, preview.arrows),
            "label": preview.label,
        }
        for option, preview in enumerate(previews)
    ]


def _path_of(choices) -> list[str]:
    """The keys clicked so far and the next one (or the one awaiting confirmation)."""
    if choices.choices:
        return choices.choices[0].path.split(".")
    return choices.confirm.path.split(".") if choices.confirm else []


def _pattern_in_play(view: dict, choices) -> tuple[str | None, str | None]:
    """The pattern and room of the tile the rotation choices are about."""
    path = _path_of(choices)
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
    path = _path_of(choices)
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


def _room_face(view: dict) -> dict[str, tuple]:
    """Each room as drawn: its tile, kind and turn, and the coins lying on the Start."""
    start_coins = view.get("start_coins") or 0
    return {
        room["at"]: (
            room["tile"],
            room["room"],
            room["rot"],
            start_coins if room["room"] == "start" else 0,
        )
        for room in view["board"]
    }


def _hero_rows(view: dict) -> dict[int, tuple]:
    return {
        hero["seat"]: (hero["coins"], hero["tiles"], hero.get("ability_used"))
        for hero in view["heroes"]
    }


def changed(before: dict, after: dict) -> set[str]:
    """What a move changed on the board, as the viewer sees it: ``room:<at>`` for a
    room laid, turned, swapped or with coins put on or taken off it (a destroyed
    room is gone and not named), ``hero:<seat>`` for a hero that moved (the piece)
    and ``heroes:<seat>`` for a row of the heroes' list whose coins, tiles or
    ability changed, ``drakon`` when the dragon moved, and ``hand:<tile>`` for a
    tile new in the viewer's own hand."""
    keys = set()
    rooms_before = _room_face(before)
    for at, face in _room_face(after).items():
        if rooms_before.get(at) != face:
            keys.add(f"room:{at}")
    places = {hero["seat"]: hero.get("at") for hero in before["heroes"]}
    for hero in after["heroes"]:
        if hero.get("at") is not None and places.get(hero["seat"]) != hero.get("at"):
            keys.add(f"hero:{hero['seat']}")
    rows_before = _hero_rows(before)
    for seat, row in _hero_rows(after).items():
        if rows_before.get(seat) != row:
            keys.add(f"heroes:{seat}")
    if after.get("drakon") and after.get("drakon") != before.get("drakon"):
        keys.add("drakon")
    held = {t["tile"] for t in (before.get("me") or {}).get("hand", [])}
    for tile in (after.get("me") or {}).get("hand", []):
        if tile["tile"] not in held:
            keys.add(f"hand:{tile['tile']}")
    return keys
