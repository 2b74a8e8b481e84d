"""Component data for Drakon as plain constants, keyed by edition.

The authoritative source is ``shared/rules/drakon.md``: section C-1 (the 4E
tile list with its arrow patterns), A-1 (coins), A-9 (room effects) and A-12
(heroes). Counts and arrow patterns marked "our choice" there are Smoki's own
values, kept here as data so that a corrected value is a one-line change and
the rules code never hard-codes one.

Everything is keyed by edition and by an English id, never by the Polish name:
"Wichura" is the 2-step Whirlwind in the later edition and the 3-step Gale in
the first one. The later edition is ``"4e"`` (game key ``drakon``), the first edition
``"1e"`` (game key ``drakon_classic``).

Changing any value here changes how old move logs replay (the tile list and
the coin list are shuffled at setup), so bump ``DrakonGame.rules_version``.
"""

from __future__ import annotations

from dataclasses import dataclass

# Arrows ---------------------------------------------------------------------------------------

#: Compass directions in clockwise order. A quarter-turn clockwise maps each to the next.
DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")

#: Arrow patterns at rotation 0 (spec C-0). Rotation r = quarter-turns clockwise.
PATTERNS: dict[str, tuple[str, ...]] = {
    "A0": (),
    "A1": ("N",),
    "A2s": ("N", "S"),
    "A2c": ("N", "E"),
    "A3": ("W", "N", "E"),
    "A4": ("N", "E", "S", "W"),
}

# Rooms ----------------------------------------------------------------------------------------

#: When a room's effect happens (A-7).
NO_EFFECT = "none"
ON_ENTER = "enter"
ON_PLACE = "place"
ON_LEAVE = "leave"
PASSIVE = "passive"


@dataclass(frozen=True)
class Room:
    """One room type: its names, when it acts, whether it is a "may", and the aid's text."""

    key: str
    name: str
    name_pl: str
    trigger: str
    optional: bool
    text: str


ROOMS_4E: dict[str, Room] = {
    room.key: room
    for room in (
        Room("entrance", "Entrance Chamber", "Komnata wejściowa", NO_EFFECT, False,
             "All heroes start here and return here after meeting Drakon."),
        Room("empty", "Empty Chamber", "Pusta komnata", NO_EFFECT, False, "No effect."),
        Room("destroy", "Destroy a Chamber", "Zniszczenie komnaty", ON_ENTER, False,
             "Put 1 unoccupied chamber (not the Entrance) face down under the draw pile."),
        Room("drakon_moves", "Drakon Moves", "Ruch Drakon", ON_ENTER, True,
             "You may move Drakon 0-3 chambers in any direction, ignoring arrows."),
        Room("escape", "Escape", "Ucieczka", ON_PLACE, True,
             "When you place this chamber, you may put your hero on it."),
        Room("find_coin", "Find a Coin", "Znajdujesz monetę", ON_ENTER, False,
             "Take 1 random coin from Drakon's hoard."),
        Room("floating", "Floating Chamber", "Latająca komnata", ON_ENTER, True,
             "You may fly this chamber (and its figures) to any empty space next to another "
             "chamber, rotated as you like."),
        Room("lose_coin", "Lose a Coin", "Tracisz monetę", ON_ENTER, False,
             "Return 1 random coin of yours to the hoard."),
        Room("harp", "Magic Harp", "Magiczna harfa", PASSIVE, False,
             "A hero moved out of an adjacent chamber with an arrow at the Harp must move "
             "into the Harp."),
        Room("master_key", "Master Key", "Główny klucz", ON_LEAVE, True,
             "The next time your hero is moved it may go to any adjacent chamber, ignoring "
             "arrows."),
        Room("mind_control", "Mind Control", "Kontrola umysłu", ON_ENTER, False,
             "Force another hero to move; you choose where, that hero resolves the effects."),
        Room("rotate", "Rotate a Chamber", "Obrót komnaty", ON_ENTER, False,
             "Rotate any 1 chamber by 90° or 180° so that no arrows point at each other."),
        Room("steal_left", "Steal a Coin (left)", "Ukradnij monetę (w lewo)", ON_ENTER, False,
             "Take 1 random coin from the player on your left."),
        Room("steal_right", "Steal a Coin (right)", "Ukradnij monetę (w prawo)", ON_ENTER,
             False, "Take 1 random coin from the player on your right."),
        Room("steal_tile", "Steal a Chamber", "Ukradnij płytkę", ON_ENTER, False,
             "Take 1 random tile from an opponent holding 2 or more."),
        Room("swap", "Swap a Chamber", "Zamiana komnaty", ON_ENTER, False,
             "Exchange 1 unoccupied chamber (not the Entrance) with a tile from your hand."),
        Room("portal", "Portal", "Portal", ON_LEAVE, True,
             "The next time your hero is moved it may go to any chamber in play."),
        Room("whirlwind", "Whirlwind", "Wichura", ON_LEAVE, False,
             "The next time your hero is moved it must move 2 chambers at once; the first "
             "one's effect is not resolved."),
    )
}  # fmt: skip

#: The 72 tiles of the later edition (spec C-1): (room, arrow pattern, count).
#: The Entrance must come first: it gets tile id 0 and starts the lair at (0, 0).
TILES_4E: tuple[tuple[str, str, int], ...] = (
    ("entrance", "A3", 1),  # arrows: our choice (C-3.2)
    ("find_coin", "A1", 3),
    ("find_coin", "A2s", 4),
    ("find_coin", "A2c", 4),
    ("find_coin", "A3", 4),
    ("drakon_moves", "A1", 1),
    ("drakon_moves", "A2s", 1),
    ("drakon_moves", "A2c", 1),
    ("drakon_moves", "A3", 1),
    *(
        (room, pattern, 1)
        for room in (
            "destroy",
            "escape",
            "floating",
            "lose_coin",
            "harp",
            "mind_control",
            "rotate",
            "steal_left",
            "steal_right",
            "steal_tile",
            "swap",
            "whirlwind",
        )
        for pattern in ("A2s", "A2c", "A3")
    ),
    ("master_key", "A0", 3),  # no arrows (C-1, found)
    ("portal", "A0", 3),  # no arrows (C-1, found)
    ("empty", "A1", 3),  # count 10 and split: our choice (C-3.1)
    ("empty", "A2s", 2),
    ("empty", "A2c", 2),
    ("empty", "A3", 3),
)

#: Coin values and how many of each (A-1): 5 x 1, 18 x 2, 5 x 3 = 56 gold.
COINS_4E: tuple[tuple[int, int], ...] = ((1, 5), (2, 18), (3, 5))

# Heroes ---------------------------------------------------------------------------------------

#: When a hero's once-per-game ability may be used (A-12).
BEFORE_OR_AFTER = "before_or_after"  # on your turn, before or after your action
DURING_MOVE = "during_move"  # during one move action on your turn
ANY_TIME = "any_time"  # out of turn too (the Druid)


@dataclass(frozen=True)
class Hero:
    key: str
    name: str
    name_pl: str
    timing: str
    text: str


HEROES_4E: dict[str, Hero] = {
    hero.key: hero
    for hero in (
        Hero("knight", "Knight", "Rycerz", BEFORE_OR_AFTER,
             "Force a hero in your chamber to move (you choose where), then take 1 random "
             "tile from that hero's hand."),
        Hero("warrior", "Warrior", "Wojownik", BEFORE_OR_AFTER,
             "Put any number of your tiles under the draw pile, then draw as many."),
        Hero("ranger", "Ranger", "Tropiciel", BEFORE_OR_AFTER, "Take a move action."),
        Hero("sorceress", "Sorceress", "Czarodziejka", DURING_MOVE,
             "During one move action, go to any adjacent chamber, ignoring arrows."),
        Hero("druid", "Druid", "Druidka", ANY_TIME,
             "Ignore one room effect or enemy ability that would make you lose a coin."),
        Hero("thief", "Thief", "Złodziej", BEFORE_OR_AFTER,
             "Take 1 random coin from an enemy hero in your chamber, or exchange 1 of your "
             "coins for a random coin from the hoard."),
    )
}  # fmt: skip

# Editions -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edition:
    """Everything that differs between editions as data the rules code reads.

    ``pull_rooms`` pull a hero whose chamber points at them (the Magic Harp,
    D-4). ``teleport_rooms`` let a hero leave to any chamber (Portal) and
    ``key_rooms`` to any adjacent one (Master Key). ``forced_steps`` gives rooms whose leave effect forces a multi-chamber move
    and how many chambers (Whirlwind 2; the first edition's Gale 3, Strong
    Wind 2). ``open_rooms`` are arrowless rooms treated as having arrows "in
    every allowed direction" when passed through during such a move (D-3).
    """

    key: str
    rooms: dict[str, Room]
    tiles: tuple[tuple[str, str, int], ...]
    coins: tuple[tuple[int, int], ...]
    heroes: dict[str, Hero]
    start_room: str
    hand_size: int
    goal: int
    short_goal: int
    escape_goal: int
    escape_rooms: frozenset[str]
    #: D-10: putting your hero on a newly placed Escape counts as entering it.
    escape_placement_wins: bool
    team_factor: int
    team_sizes: tuple[int, ...]
    steal_tile_min: int
    forced_steps: dict[str, int]
    pull_rooms: frozenset[str]
    teleport_rooms: frozenset[str]
    key_rooms: frozenset[str]
    open_rooms: frozenset[str]
    min_players: int
    max_players: int
    #: Endless-game guards (our choice, see docs/rules/drakon.md): once no hand holds a
    #: tile, at most ``dry_rounds`` more rounds; and never more than ``max_rounds`` rounds.
    dry_rounds: int
    max_rounds: int
    #: The options the edition offers (the first edition has no Short game nor Team play).
    option_keys: tuple[str, ...] = ("heroes", "escape", "short_game", "team_play")
    #: Rooms that use another room's rule under their own name (first edition: Find Gold is
    #: Find a Coin, Magical Vortex is the Portal, ...): room -> the room whose rule applies.
    rules_as: dict[str, str] | None = None
    #: The Start room collects Drakon's Due coins and a hero entering may take one (B-6).
    start_collects: bool = False
    #: The hero who may cancel a coin loss aimed at them, out of turn (Druid; 1E Knight).
    protector: str = "druid"
    #: The hero whose once-per-game move ignores arrows (Sorceress; 1E Wizard, D-18).
    power_hero: str = "sorceress"
    #: Abilities used before or after the action that reuse a later-edition rule under
    #: another hero's name: hero -> rule (1E Amazon = the Ranger's extra move, Dwarf = the
    #: Warrior's cycle with exactly ``cycle_count`` tiles).
    abilities_as: dict[str, str] | None = None
    #: The Dwarf discards exactly this many tiles (fewer only if the hand is smaller);
    #: None = any number (the Warrior).
    cycle_count: int | None = None
    #: The Thief may also exchange a coin with the hoard (4E; not in 1E, D-15).
    thief_exchange: bool = True
    #: Heroes! deals the heroes at random (1E, B-7) instead of a choice in turn order.
    random_heroes: bool = False


EDITION_4E = Edition(
    key="4e",
    rooms=ROOMS_4E,
    tiles=TILES_4E,
    coins=COINS_4E,
    heroes=HEROES_4E,
    start_room="entrance",
    hand_size=4,
    goal=10,
    short_goal=7,
    escape_goal=8,
    escape_rooms=frozenset({"escape", "portal"}),
    escape_placement_wins=True,
    team_factor=2,
    team_sizes=(4, 6),
    steal_tile_min=2,
    forced_steps={"whirlwind": 2},
    pull_rooms=frozenset({"harp"}),
    teleport_rooms=frozenset({"portal"}),
    key_rooms=frozenset({"master_key"}),
    open_rooms=frozenset({"master_key", "portal"}),
    min_players=2,
    max_players=6,
    dry_rounds=20,
    max_rounds=200,
)

# The first edition (Galakta 2004 = FFG 2nd edition + the Drakon figure; spec B, C-2) ----------

ROOMS_1E: dict[str, Room] = {
    room.key: room
    for room in (
        Room("start", "Start", "Start", ON_ENTER, True,
             "Heroes start here and return here after meeting Drakon. If coins lie here, "
             "you may take one."),
        Room("empty", "Empty Chamber", "Pusta komnata", NO_EFFECT, False, "No effect."),
        Room("master_key", "Master Key", "Główny klucz", ON_LEAVE, True,
             "On your next move you may go in any direction, even against an arrow of the "
             "next chamber."),
        Room("vortex", "Magical Vortex", "Magiczny wir", ON_LEAVE, True,
             "On your next move you may go to any chamber in play."),
        Room("shift", "Magical Shift", "Magiczne przemieszczenie", ON_ENTER, False,
             "Exchange a chamber with no figure (not the Start) for a tile from your hand."),
        Room("mind_orb", "Mind Control Orb", "Kula kontroli umysłu", ON_ENTER, False,
             "Move another player's hero as if that player had chosen to move; its owner "
             "resolves the chamber it enters."),
        Room("destroy", "Destroy a Chamber", "Zniszcz komnatę", ON_ENTER, False,
             "Put a chamber with no figure (not the Start) at the bottom of the pile."),
        Room("find_gold", "Find Gold", "Znajdź złoto", ON_ENTER, False,
             "Take 1 coin from Drakon's hoard."),
        Room("drakons_due", "Drakon's Due", "Należność dla Drakon", ON_ENTER, False,
             "Put 1 of your coins on the Start chamber."),
        Room("steal_left", "Steal a Coin (left)", "Ukradnij monetę (w lewo)", ON_ENTER, False,
             "Take 1 coin from the player on your left."),
        Room("steal_right", "Steal a Coin (right)", "Ukradnij monetę (w prawo)", ON_ENTER,
             False, "Take 1 coin from the player on your right."),
        Room("map", "Map Chamber", "Komnata map", ON_ENTER, False,
             "Take 1 random tile from the hand of an opponent of your choice."),
        Room("rotate", "Rotate a Chamber", "Obrót komnatą", ON_ENTER, False,
             "Rotate any 1 chamber by 90° or 180° so that no arrows point at each other."),
        Room("gale", "Gale", "Wichura", ON_LEAVE, False,
             "On your next move you must move 3 chambers at once; the first two are ignored."),
        Room("strong_wind", "Strong Wind", "Silny wiatr", ON_LEAVE, False,
             "On your next move you must move 2 chambers at once; the first is ignored."),
        Room("wishing_well", "Wishing Well", "Studnia życzeń", ON_ENTER, False,
             "Return 1 of your coins to Drakon's hoard."),
        Room("drakon_moves", "Drakon Moves", "Drakon porusza się", ON_ENTER, True,
             "Move Drakon up to 3 chambers in any direction, ignoring arrows."),
    )
}  # fmt: skip

#: The 66 tiles of the first edition (spec C-2; every count but Start and Drakon Moves is
#: our choice). The Start must come first: tile id 0 at (0, 0).
TILES_1E: tuple[tuple[str, str, int], ...] = (
    ("start", "A3", 1),  # arrows: our choice (C-3.2)
    ("drakon_moves", "A2s", 1),  # 2 tiles: the publisher's note
    ("drakon_moves", "A3", 1),
    ("master_key", "A0", 3),  # no arrows: from the rulebook
    ("vortex", "A0", 3),  # no arrows: from the rulebook
    ("find_gold", "A1", 3),
    ("find_gold", "A2s", 3),
    ("find_gold", "A2c", 3),
    ("find_gold", "A3", 3),
    *(
        (room, pattern, 1)
        for room in (
            "shift",
            "mind_orb",
            "destroy",
            "drakons_due",
            "steal_left",
            "steal_right",
            "map",
            "rotate",
            "gale",
            "strong_wind",
            "wishing_well",
        )
        for pattern in ("A2s", "A2c", "A3")
    ),
    ("empty", "A1", 4),
    ("empty", "A2s", 3),
    ("empty", "A2c", 2),
    ("empty", "A3", 3),
)

#: 30 coins, all alike (worth 1 each: the goal counts coins). The count is our choice (C-2).
COINS_1E: tuple[tuple[int, int], ...] = ((1, 30),)

HEROES_1E: dict[str, Hero] = {
    hero.key: hero
    for hero in (
        Hero("knight", "Knight", "Rycerz", ANY_TIME,
             "Prevent one coin loss: a coin an opponent takes from you or a chamber makes "
             "you lose (even out of your turn)."),
        Hero("dwarf", "Dwarf", "Krasnolud", BEFORE_OR_AFTER,
             "Discard 2 tiles from your hand under the pile and draw 2 new ones."),
        Hero("barbarian", "Barbarian", "Barbarzyńca", BEFORE_OR_AFTER,
             "Push a hero in your chamber one chamber along an arrow, then take 1 random "
             "tile from its hand."),
        Hero("wizard", "Wizard", "Czarodziej", DURING_MOVE,
             "Once, move out of your chamber in a direction with no arrow."),
        Hero("thief", "Thief", "Złodziej", BEFORE_OR_AFTER,
             "Take 1 coin from a player whose hero is in your chamber."),
        Hero("amazon", "Amazon", "Amazonka", BEFORE_OR_AFTER,
             "Move one extra chamber along a legal path and resolve it."),
    )
}  # fmt: skip

EDITION_1E = Edition(
    key="1e",
    rooms=ROOMS_1E,
    tiles=TILES_1E,
    coins=COINS_1E,
    heroes=HEROES_1E,
    start_room="start",
    hand_size=4,
    goal=5,
    short_goal=5,  # no Short game in this edition (not offered)
    escape_goal=4,
    escape_rooms=frozenset({"master_key", "vortex"}),
    escape_placement_wins=False,  # no Escape room in this edition
    team_factor=1,
    team_sizes=(),
    steal_tile_min=1,  # Map Chamber: any opponent holding a tile (D-24)
    forced_steps={"gale": 3, "strong_wind": 2},
    pull_rooms=frozenset(),
    teleport_rooms=frozenset({"vortex"}),
    key_rooms=frozenset({"master_key"}),
    open_rooms=frozenset({"master_key", "vortex"}),
    min_players=2,
    max_players=6,
    dry_rounds=20,
    max_rounds=200,
    option_keys=("heroes", "escape"),
    rules_as={
        "find_gold": "find_coin",
        "wishing_well": "lose_coin",
        "shift": "swap",
        "mind_orb": "mind_control",
        "map": "steal_tile",
        "vortex": "portal",
    },
    start_collects=True,
    protector="knight",
    power_hero="wizard",
    abilities_as={"amazon": "ranger", "dwarf": "warrior", "barbarian": "barbarian"},
    cycle_count=2,
    thief_exchange=False,
    random_heroes=True,
)

EDITIONS: dict[str, Edition] = {"4e": EDITION_4E, "1e": EDITION_1E}


def tile_list(edition: Edition) -> list[list[str]]:
    """The edition's tiles expanded one per physical tile: index = tile id, ``[room, pattern]``."""
    return [[room, pattern] for room, pattern, count in edition.tiles for _ in range(count)]


def coin_list(edition: Edition) -> list[int]:
    """Every coin's value, one entry per coin, in ascending order."""
    return [value for value, count in edition.coins for _ in range(count)]
