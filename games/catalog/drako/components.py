"""Component data for Drako: Dragon & Dwarves as plain constants.

The authoritative source is ``shared/rules/drako.md``: B1 (the board), B2
(starting positions), B4 (damage boxes), B5 and B6 (the two 38-card decks).
The rulebook's pictures are missing, so most numbers here are Smoki's own
choice ("OC" in the spec); they are data so that a corrected value is a
one-line change. Changing a deck or a box count changes how old move logs
replay: bump ``DrakoGame.rules_version`` when you do.

Hexes are axial ``(q, r)`` written as the string ``"q,r"`` in states and
actions (JSON keys must be strings); players read them by their printed names
(``hex_name``: lettered rows, numbered hexes, "C3" for the centre).
"""

from __future__ import annotations

from functools import cache

# The board (B1) ---------------------------------------------------------------------------

RADIUS = 2
#: The 6 directions, in the spec's order: (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
BLOCKED: tuple[str, ...] = ()  # no terrain (spec B1, our choice)


def hex_key(q: int, r: int) -> str:
    return f"{q},{r}"


def parse_hex(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


#: Every hex of the board, row by row (r from -2 to 2, q ascending).
HEXES: tuple[str, ...] = tuple(
    hex_key(q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if max(abs(q), abs(r), abs(-q - r)) <= RADIUS and hex_key(q, r) not in BLOCKED
)

#: The name printed on each hex and used in every sentence: the rows are lettered from the
#: top of the board (A, r = -2) to its bottom (E, r = 2) and the hexes of a row numbered
#: from the left (1), so "0,0", the centre, is C3.
ROW_LETTERS = "ABCDE"
HEX_NAMES: dict[str, str] = {}
for _row, _r in enumerate(range(-RADIUS, RADIUS + 1)):
    _keys = [key for key in HEXES if parse_hex(key)[1] == _r]  # q ascending: left to right
    HEX_NAMES.update({key: f"{ROW_LETTERS[_row]}{n}" for n, key in enumerate(_keys, start=1)})


def hex_name(key: str) -> str:
    """The printed name of hex ``"q,r"`` (``"0,0"`` -> ``"C3"``)."""
    return HEX_NAMES[key]


# Figures (B2, B3, B4) ----------------------------------------------------------------------

DRAGON = "dragon"
DWARVES = "dwarves"
SIDES = (DRAGON, DWARVES)

XBOW = "xbow"
NET = "net"
FURY = "fury"
#: The three dwarves by ability; this is also the placement order.
DWARF_IDS: tuple[str, ...] = (XBOW, NET, FURY)
#: Flavour names (spec B4).
DWARF_NAMES = {XBOW: "Morin", NET: "Urpen", FURY: "Brald"}
#: Damage boxes per dwarf (all different, spec B4, our choice).
DWARF_BOXES = {XBOW: 5, NET: 4, FURY: 6}

DRAGON_START = "0,0"
#: First-game positions (spec B2, our choice): every other side-midpoint of the outer ring.
FIRST_GAME_DWARVES = {XBOW: "2,-1", NET: "-1,-1", FURY: "-1,2"}

ARMOUR = "armour"
FLY_TRACK = "fly"
MOVE_TRACK = "move"
FIRE_TRACK = "fire"
#: Dragon board boxes (spec B4): armour first, then the dwarf player picks among the rest.
DRAGON_BOXES = {ARMOUR: 4, FLY_TRACK: 2, MOVE_TRACK: 2, FIRE_TRACK: 2}
ABILITY_TRACKS: tuple[str, ...] = (FLY_TRACK, MOVE_TRACK, FIRE_TRACK)

STARTING_HAND = 4
HAND_LIMIT = 6
DRAW_COUNT = 2
ACTIONS_PER_TURN = 2
FIRST_TURN_ACTIONS = 1  # the dragon's very first turn

# Symbols ------------------------------------------------------------------------------------
# A symbol is written "CODE" or "CODE:n" (n = steps or strength), as in the spec.

MOVE1 = "MOVE1"  # one dwarf moves up to n
MOVE2 = "MOVE2"  # up to two different dwarves each move up to n
ATK1 = "ATK1"  # one dwarf next to the dragon attacks with n
ATK2 = "ATK2"  # up to two dwarves next to the dragon attack with n each
SHOOT = "XBOW"  # the crossbow dwarf shoots along a clear straight line
THROW_NET = "NET"  # the net dwarf nets the dragon from anywhere; cannot be blocked
DEF = "DEF"  # blocks one attack; only as a reaction
DMOVE = "DMOVE"  # the dragon walks up to n
FLY = "FLY"  # the dragon lands on any empty hex
BITE = "BITE"  # the dragon bites one adjacent dwarf with n
FIRE = "FIRE"  # the dragon breathes fire along a ray: every dwarf on it is attacked with n

#: Symbols a side may use; which ability track (if any) a dragon symbol needs.
SYMBOLS = {
    DWARVES: (MOVE1, MOVE2, ATK1, ATK2, SHOOT, THROW_NET, DEF),
    DRAGON: (DMOVE, FLY, BITE, FIRE, DEF),
}
NEEDS_TRACK = {DMOVE: MOVE_TRACK, FLY: FLY_TRACK, FIRE: FIRE_TRACK}


@cache
def symbol_code(symbol: str) -> str:
    """``"ATK1:2"`` → ``"ATK1"`` (kept: the symbols are few and read on every move)."""
    return symbol.split(":")[0]


@cache
def symbol_value(symbol: str) -> int:
    """``"ATK1:2"`` → 2, ``"DEF"`` → 0."""
    code, _sep, value = symbol.partition(":")
    return int(value) if value else 0


# Decks (B5, B6) -----------------------------------------------------------------------------
# (type, count, options). Our choice within the constraints the spec found.

DWARF_DECK: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("W01", 4, ("MOVE1:1", "DEF")),
    ("W02", 2, ("MOVE1:2",)),
    ("W03", 4, ("MOVE2:1",)),
    ("W04", 2, ("MOVE2:2",)),
    ("W05", 4, ("ATK1:1", "MOVE1:1")),
    ("W06", 3, ("ATK1:2",)),
    ("W07", 5, ("ATK2:1",)),
    ("W08", 3, ("XBOW:1", "MOVE1:1")),
    ("W09", 2, ("XBOW:2",)),
    ("W10", 3, ("NET", "MOVE1:1")),
    ("W11", 6, ("DEF",)),
)

DRAGON_DECK: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("G01", 4, ("DMOVE:1", "DEF")),
    ("G02", 4, ("DMOVE:2",)),
    ("G03", 3, ("DMOVE:1", "BITE:1")),
    ("G04", 4, ("BITE:2",)),
    ("G05", 2, ("BITE:3",)),
    ("G06", 3, ("BITE:1", "DEF")),
    ("G07", 3, ("FIRE:1",)),
    ("G08", 3, ("FIRE:2",)),
    ("G09", 3, ("FLY",)),
    ("G10", 1, ("FLY", "DEF")),
    ("G11", 8, ("DEF",)),
)

DECKS = {DWARVES: DWARF_DECK, DRAGON: DRAGON_DECK}


def _expand(deck: tuple[tuple[str, int, tuple[str, ...]], ...]) -> tuple[str, ...]:
    """Card id -> card type: ids 0..37 run through the types in order."""
    return tuple(kind for kind, count, _options in deck for _ in range(count))


#: ``CARD_TYPES[side][card_id]`` is the card's type ("W05").
CARD_TYPES: dict[str, tuple[str, ...]] = {side: _expand(deck) for side, deck in DECKS.items()}
#: ``CARD_OPTIONS[side][type]`` is the card's symbols, in the order printed.
CARD_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    side: {kind: options for kind, _count, options in deck} for side, deck in DECKS.items()
}
DECK_SIZE = 38


def card_options(side: str, card: int) -> tuple[str, ...]:
    return CARD_OPTIONS[side][CARD_TYPES[side][card]]


def can_defend(side: str, card: int) -> bool:
    return DEF in card_options(side, card)
