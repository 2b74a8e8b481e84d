"""Component data for Nogi za pas! as plain constants.

Everything the rulebook leaves out (die faces, bunny and dragon token values,
which colours sit on which shield) is Smoki's own choice, recorded in
``shared/rules/nogi.md`` section B. Keeping the values here as data means a
corrected value is a one-line change and the rules code never hard-codes one.
Changing any value changes how old move logs replay, so bump
``NogiGame.rules_version`` with it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Knights and dice -----------------------------------------------------------

#: The seven knight colours, in the canonical order used everywhere
#: (state keys, legal-action order, roll order).
COLOURS: tuple[str, ...] = ("yellow", "green", "orange", "purple", "blue", "pink", "black")

#: The neutral eighth die: every face on it may move any knight.
WHITE = "white"

#: All eight dice in canonical order: one per colour, then white.
DICE: tuple[str, ...] = (*COLOURS, WHITE)

# Board ----------------------------------------------------------------------

#: The track runs over fields 1..LAST_FIELD; moving past LAST_FIELD reaches the castle.
FIRST_FIELD = 1
LAST_FIELD = 36

#: Field 0 encodes the dragon mountain next to field 1, where the dragon starts.
DRAGON_START = 0

#: Every knight starts here, whatever the player count.
KNIGHT_START = 10

#: Fields that start with one face-down bunny token each.
BUNNY_FIELDS: tuple[int, ...] = (17, 21, 25, 30, 36)

#: Bunny token values [our choice: three 1s and two 2s].
BUNNY_VALUES: tuple[int, ...] = (1, 1, 1, 2, 2)

#: Dragon token values, one per token [our choice for the multiset; range 3..8 found].
DRAGON_TOKENS: tuple[int, ...] = (3, 4, 5, 5, 6, 6, 7, 8)

#: Castle spaces in arrival order: the first knight gets X (0 points), then 5, 3, 2.
CASTLE_SPACE_LABELS: tuple[str, ...] = ("X", "5", "3", "2")
CASTLE_POINTS: tuple[int, ...] = (0, 5, 3, 2)

# Shields --------------------------------------------------------------------

#: The seven shields (table B.3): the Fano plane built from {0, 1, 3} + i (mod 7)
#: over the colours in COLOURS order. Any two shields share exactly one colour.
SHIELDS: tuple[tuple[str, str, str], ...] = (
    ("yellow", "green", "purple"),  # S1
    ("green", "orange", "blue"),  # S2
    ("orange", "purple", "pink"),  # S3
    ("purple", "blue", "black"),  # S4
    ("blue", "pink", "yellow"),  # S5
    ("pink", "black", "green"),  # S6
    ("black", "yellow", "orange"),  # S7
)

#: Shields each player draws: 1, or 2 in the two-player variant.
SHIELDS_PER_PLAYER_TWO_PLAYERS = 2
SHIELDS_PER_PLAYER = 1

MIN_PLAYERS = 2
MAX_PLAYERS = 7

# Dice faces -----------------------------------------------------------------

#: Face kinds (spec A.3).
NUM = "NUM"  # move the die's knight forward n; die set aside
NUM_KEEP = "NUM_KEEP"  # move the die's knight forward n; die returns to the pool
NUM_ANY = "NUM_ANY"  # move any knight forward n; die set aside
MINUS = "MINUS"  # move the die's knight (white die: any knight) back to the nearest knight
PLUS = "PLUS"  # move any knight forward to the nearest knight (white die only)
ONE_PLUS_ONE = "ONE_PLUS_ONE"  # move two different knights forward 1 each; die returns

FACE_KINDS: tuple[str, ...] = (NUM, NUM_KEEP, NUM_ANY, MINUS, PLUS, ONE_PLUS_ONE)

#: Kinds whose die goes back to the pool after use (the "two arrows" symbol).
KEEP_KINDS: frozenset[str] = frozenset({NUM_KEEP, ONE_PLUS_ONE})

#: Kinds that let the player pick the knight even on a coloured die.
ANY_KNIGHT_KINDS: frozenset[str] = frozenset({NUM_ANY, PLUS, ONE_PLUS_ONE})

#: Kinds that carry a number of fields.
NUMBERED_KINDS: frozenset[str] = frozenset({NUM, NUM_KEEP, NUM_ANY})


@dataclass(frozen=True)
class Face:
    """One face of a die: its kind and, for numbered kinds, how many fields."""

    kind: str
    n: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True)
class DieSpec:
    """A die: its name and its six faces. ``any_knight`` makes every face free-choice."""

    name: str
    faces: tuple[Face, ...]
    any_knight: bool = False


#: Table B.1, coloured dice [our choice]: all seven are identical.
COLOURED_FACES: tuple[Face, ...] = (
    Face(NUM, 2),
    Face(NUM, 3),
    Face(NUM, 4),
    Face(NUM_KEEP, 5),
    Face(NUM_ANY, 3),
    Face(MINUS),
)

#: Table B.1, white die [our choice]: every face may move any knight.
WHITE_FACES: tuple[Face, ...] = (
    Face(PLUS),
    Face(ONE_PLUS_ONE),
    Face(NUM_ANY, 2),
    Face(NUM_ANY, 3),
    Face(NUM_ANY, 4),
    Face(MINUS),
)

DIE_SPECS: dict[str, DieSpec] = {
    **{colour: DieSpec(colour, COLOURED_FACES) for colour in COLOURS},
    WHITE: DieSpec(WHITE, WHITE_FACES, any_knight=True),
}
