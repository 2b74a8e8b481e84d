"""The legal actions of each decision, and why an illegal one is refused.

``LEGAL[kind](state, task)`` lists every answer to the decision on top of
the stack; ``place_refusal`` and ``explain_refusal`` give the reason shown
to a player whose action is not among them.
"""

from __future__ import annotations

from games.catalog.drakon import components as C
from games.catalog.drakon.rules.lair import (
    BACK,
    DISTINCT,
    MASKS,
    ROTATIONS,
    Lair,
    key_of,
    lair_of,
    neighbours,
    parse_cell,
    xy,
)
from games.catalog.drakon.rules.state import (
    ACTION,
    AFTER_ACTION,
    CHOOSE_HERO,
    DESTROY,
    DRAKON_MOVE,
    DRUID,
    ESCAPE,
    FLOAT,
    KNIGHT_BLOCK,
    MIND_CONTROL,
    PLACE_DRAKON,
    ROTATE,
    STEAL_TILE,
    SWAP,
    TAKE_START,
    WARRIOR,
    ability_ready,
    are_enemies,
    edition_of,
    hero_of,
    heroes_at,
    occupied_keys,
    pool_of,
    tiles_of,
)
from games.catalog.drakon.rules.targets import (
    destroy_targets,
    drakon_reach,
    float_targets,
    mind_control_targets,
    move_targets,
    power_targets,
    rotate_targets,
    steal_tile_victims,
    step_options,
    swap_targets,
)
from games.engine.base import Action, IllegalAction, State
from games.engine.i18n import Msg, _


def typed_action(action: Action) -> frozenset | None:
    """An action's fields with their types: ``True`` is not seat 1, ``1.0`` not rotation 1."""
    try:
        return frozenset((key, type(value), value) for key, value in action.items())
    except TypeError:  # a list or dict inside: never a legal action
        return None


# Legal actions per decision -------------------------------------------------------------------


def _legal_choose_hero(state: State, task: dict) -> list[Action]:
    taken = {name for name in state["hero_names"] if name}
    return [
        {"type": "choose_hero", "hero": hero}
        for hero in edition_of(state).heroes
        if hero not in taken
    ]


def place_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-5: every (tile in hand, empty cell touching the lair, legal rotation)."""
    hand = state["hands"][seat]
    if not hand:
        return []
    tiles = tiles_of(state)
    actions: list[Action] = []
    for tile in hand:
        actions.extend(
            [
                {"type": "place", "tile": tile, "at": at, "rot": r}
                for at, r in place_spots(lair, tiles[tile][1])
            ]
        )
    return actions


def place_spots(lair: Lair, pattern: str) -> list[tuple[str, int]]:
    """(cell key, rotation) where a tile of ``pattern`` may be placed, in the order
    ``place_actions`` lists them (kept on the lair: the same for every tile of one
    pattern, and for every decision until the lair changes)."""
    memo = lair.memo
    spots = memo.get(("spots", pattern))
    if spots is None:
        rotations = ROTATIONS[pattern]
        spots = memo["spots", pattern] = [
            (at, r) for at, forbidden in lair.frontier_cells() for r in rotations[forbidden]
        ]
    return spots


def move_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-6 moves, then the Sorceress's extra destinations flagged ``power`` (D-18)."""
    plain = sorted(move_targets(state, lair, seat))
    actions: list[Action] = [{"type": "move", "to": key_of(cell)} for cell in plain]
    for cell in sorted(power_targets(state, lair, seat)):
        actions.append({"type": "move", "to": key_of(cell), "power": True})
    return actions


def ability_actions(state: State, lair: Lair, seat: int) -> list[Action]:
    """A-12 abilities usable before or after the action, when they can have an effect."""
    hero = hero_of(state, seat)
    if hero is None or not ability_ready(state, seat, hero):
        return []
    edition = edition_of(state)
    if edition.heroes[hero].timing != C.BEFORE_OR_AFTER:
        return []
    rule = (edition.abilities_as or {}).get(hero, hero)
    actions = ABILITIES[rule](state, lair, seat)
    if rule != hero:
        actions = [{**action, "hero": hero} for action in actions]
    return actions


def _knight_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-16: an enemy hero in the Knight's chamber that has a legal move; any destination."""
    here = state["heroes"][seat]
    actions = []
    for target in heroes_at(state, here):
        if not are_enemies(state, seat, target):
            continue
        for cell in sorted(move_targets(state, lair, target)):
            actions.append(
                {"type": "ability", "hero": "knight", "target": target, "to": key_of(cell)}
            )
    return actions


def _warrior_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-20: start by choosing the first tile to put under the pile."""
    return [{"type": "ability", "hero": "warrior", "tile": tile} for tile in state["hands"][seat]]


def _ranger_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-19: an extra move action following every movement rule."""
    return [
        {"type": "ability", "hero": "ranger", "to": key_of(cell)}
        for cell in sorted(move_targets(state, lair, seat))
    ]


def _thief_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """D-15: steal from an enemy with coins in your chamber, or exchange one of your coins."""
    here = state["heroes"][seat]
    actions: list[Action] = [
        {"type": "ability", "hero": "thief", "target": target}
        for target in heroes_at(state, here)
        if are_enemies(state, seat, target) and state["coins"][pool_of(state, target)]
    ]
    if state["hoard"] and edition_of(state).thief_exchange:
        own = state["coins"][pool_of(state, seat)]
        actions.extend(
            {"type": "ability", "hero": "thief", "coin": value} for value in sorted(set(own))
        )
    return actions


def _barbarian_options(state: State, lair: Lair, seat: int) -> list[Action]:
    """B-7 Barbarian: push another hero in your chamber one chamber along one of its arrows
    (not out of an arrowless chamber; no Gale or Vortex: a push is one step)."""
    here = state["heroes"][seat]
    cells = step_options(state, lair, xy(here))
    return [
        {"type": "ability", "hero": "barbarian", "target": target, "to": key_of(cell)}
        for target in heroes_at(state, here)
        if are_enemies(state, seat, target)
        for cell in sorted(cells)
    ]


ABILITIES = {
    "barbarian": _barbarian_options,
    "knight": _knight_options,
    "warrior": _warrior_options,
    "ranger": _ranger_options,
    "thief": _thief_options,
}


def _legal_action(state: State, task: dict) -> list[Action]:
    seat = task["seat"]
    lair = lair_of(state)
    return [
        *place_actions(state, lair, seat),
        *move_actions(state, lair, seat),
        *ability_actions(state, lair, seat),
    ]


def _legal_after_action(state: State, task: dict) -> list[Action]:
    seat = task["seat"]
    return [*ability_actions(state, lair_of(state), seat), {"type": "end_turn"}]


def _legal_place_drakon(state: State, task: dict) -> list[Action]:
    """A-10: any unoccupied chamber, the new tile included."""
    busy = occupied_keys(state)
    return [
        {"type": "place_drakon", "at": key}
        for key in sorted(state["board"], key=xy)
        if key not in busy
    ]


def _legal_escape(state: State, task: dict) -> list[Action]:
    return [{"type": "enter_escape"}, {"type": "skip"}]


def _legal_destroy(state: State, task: dict) -> list[Action]:
    return [{"type": "destroy", "at": key} for key in destroy_targets(state)]


def _legal_drakon_move(state: State, task: dict) -> list[Action]:
    lair = lair_of(state)
    return [
        {"type": "drakon_move", "to": key_of(cell)}
        for cell in drakon_reach(lair, xy(state["drakon"]))
    ]


def _legal_float(state: State, task: dict) -> list[Action]:
    spots = float_targets(state, lair_of(state), task["at"])
    return [*({"type": "float", "to": at, "rot": r} for at, r in spots), {"type": "skip"}]


def _legal_mind_control(state: State, task: dict) -> list[Action]:
    return [
        {"type": "mind_control", "target": target, "to": at}
        for target, at in mind_control_targets(state, lair_of(state), task["seat"])
    ]


def _legal_rotate(state: State, task: dict) -> list[Action]:
    return [
        {"type": "rotate", "at": at, "turns": turns}
        for at, turns in rotate_targets(state, lair_of(state))
    ]


def _legal_steal_tile(state: State, task: dict) -> list[Action]:
    return [
        {"type": "steal_tile", "from": victim} for victim in steal_tile_victims(state, task["seat"])
    ]


def _legal_swap(state: State, task: dict) -> list[Action]:
    return [
        {"type": "swap", "at": at, "tile": tile, "rot": r}
        for at, tile, r in swap_targets(state, lair_of(state), task["seat"])
    ]


def _legal_druid(state: State, task: dict) -> list[Action]:
    return [{"type": "protect"}, {"type": "skip"}]


def _legal_take_start(state: State, task: dict) -> list[Action]:
    return [{"type": "take_coin"}, {"type": "skip"}]


def _legal_warrior(state: State, task: dict) -> list[Action]:
    chosen = task["chosen"]
    return [
        *(
            {"type": "warrior_tile", "tile": tile}
            for tile in state["hands"][task["seat"]]
            if tile not in chosen
        ),
        *([] if "need" in task else [{"type": "warrior_done"}]),
    ]


LEGAL = {
    CHOOSE_HERO: _legal_choose_hero,
    ACTION: _legal_action,
    AFTER_ACTION: _legal_after_action,
    PLACE_DRAKON: _legal_place_drakon,
    ESCAPE: _legal_escape,
    DESTROY: _legal_destroy,
    DRAKON_MOVE: _legal_drakon_move,
    FLOAT: _legal_float,
    MIND_CONTROL: _legal_mind_control,
    ROTATE: _legal_rotate,
    STEAL_TILE: _legal_steal_tile,
    SWAP: _legal_swap,
    DRUID: _legal_druid,
    WARRIOR: _legal_warrior,
    TAKE_START: _legal_take_start,
    KNIGHT_BLOCK: _legal_druid,
}


# Refusal messages -----------------------------------------------------------------------------

PLACE_KEYS = frozenset({"type", "tile", "at", "rot"})


def place_refusal(state: State, seat: int, action: Action) -> IllegalAction | None:
    """Why a ``place`` action is illegal, as the error to raise (None if legal): A-5's fast path.

    Equivalent to membership in ``place_actions`` (a property test checks it),
    without building the few hundred placements.
    """
    if set(action) != PLACE_KEYS:
        return IllegalAction(
            _("A placement names exactly a tile, a cell (at) and a rotation (rot).")
        )
    tile, at, rot = action["tile"], action["at"], action["rot"]
    if type(tile) is not int or tile not in state["hands"][seat]:
        return IllegalAction(_("Place a tile from your own hand."))
    cell = parse_cell(at)
    if cell is None:
        return IllegalAction(_('Choose a cell written as "x,y".'))
    pattern = tiles_of(state)[tile][1]
    if type(rot) is not int or rot not in {r for r, _mask in DISTINCT[pattern]}:
        allowed = ", ".join(str(r) for r, _mask in DISTINCT[pattern])
        return IllegalAction(
            _("That tile can be turned to rotation %(allowed)s only."), allowed=allowed
        )
    board = state["board"]
    if at in board:
        return IllegalAction(_("That cell already holds a chamber."))
    forbidden = 0
    touching = False
    for bit, other in neighbours(cell):
        room = board.get(key_of(other))
        if room is None:
            continue
        touching = True
        if MASKS[tiles_of(state)[room[0]][1]][room[1]] & BACK[bit]:
            forbidden |= bit
    if not touching:
        return IllegalAction(_("A new chamber must share an edge with a chamber in play."))
    if MASKS[pattern][rot] & forbidden:
        return IllegalAction(
            _("Two arrows would point at each other: turn the tile or choose another cell.")
        )
    return None


def explain_refusal(state: State, task: dict, action: Action) -> Msg:
    """What the player should do instead, for an action the decision on top does not list."""
    kind = task["kind"]
    kind_name = action.get("type")
    if kind == ACTION and kind_name == "move":
        return _("Your hero cannot move there now: follow an arrow of your chamber.")
    if kind == ACTION and kind_name == "ability":
        return _("Your hero's ability cannot be used that way now.")
    messages = {
        CHOOSE_HERO: _("Choose one of the heroes still available."),
        ACTION: _("Place a chamber or move your hero."),
        AFTER_ACTION: _("Use your hero's ability or end your turn."),
        PLACE_DRAKON: _("Put Drakon on an unoccupied chamber."),
        ESCAPE: _("Decide whether your hero goes onto the Escape chamber."),
        DESTROY: _("Destroy an unoccupied chamber other than the Entrance."),
        DRAKON_MOVE: _("Drakon moves at most 3 chambers, never diagonally."),
        FLOAT: _("Fly the chamber next to another chamber with no arrows meeting, or skip."),
        MIND_CONTROL: _("Choose another hero and one of its legal moves."),
        ROTATE: _("Rotate a chamber by 1, 2 or 3 quarter-turns so that no arrows meet."),
        STEAL_TILE: _("Choose an opponent holding at least 2 tiles."),
        SWAP: _(
            "Swap an unoccupied chamber (not the Entrance) for a tile of yours, legally turned."
        ),
        DRUID: _("Decide whether the Druid protects her coin."),
        WARRIOR: _("Choose another tile from your hand, or finish."),
    }
    if edition_of(state).key == "1e" and kind in CLASSIC_MESSAGES:
        return CLASSIC_MESSAGES[kind]
    return messages.get(kind, _("That is not one of your choices now."))


#: The first edition's wording where its rooms or heroes differ.
CLASSIC_MESSAGES = {
    DESTROY: _("Destroy a chamber with no figure, other than the Start."),
    STEAL_TILE: _("Choose an opponent holding a tile."),
    SWAP: _(
        "Exchange a chamber with no figure (not the Start) for a tile of yours, legally turned."
    ),
    TAKE_START: _("Take a coin from the Start or leave it there."),
    KNIGHT_BLOCK: _("Decide whether the Knight prevents the coin loss."),
    WARRIOR: _("Choose the second tile the Dwarf discards."),
}
