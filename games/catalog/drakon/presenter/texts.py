"""Drakon's words: room and hero names and texts, option labels, the awaited decision."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.catalog.wording import per_language

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
    # the first edition's rooms
    "start": gettext_lazy("Start"),
    "vortex": gettext_lazy("Magical Vortex"),
    "shift": gettext_lazy("Magical Shift"),
    "mind_orb": gettext_lazy("Mind Control Orb"),
    "find_gold": gettext_lazy("Find Gold"),
    "drakons_due": gettext_lazy("Drakon's Due"),
    "map": gettext_lazy("Map Chamber"),
    "gale": gettext_lazy("Gale"),
    "strong_wind": gettext_lazy("Strong Wind"),
    "wishing_well": gettext_lazy("Wishing Well"),
}
#: The first edition's rulebook names three shared rooms its own way (Polish "Zniszcz
#: komnatę", "Drakon porusza się", "Obrót komnatą"), as ``components.ROOMS_1E`` does.
CLASSIC_ROOM_NAMES = {
    "destroy": pgettext_lazy("drakon first edition", "Destroy a Chamber"),
    "drakon_moves": pgettext_lazy("drakon first edition", "Drakon Moves"),
    "rotate": pgettext_lazy("drakon first edition", "Rotate a Chamber"),
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
#: The first edition's texts: its own rooms, and the shared rooms it words differently.
CLASSIC_ROOM_TEXTS = {
    "start": gettext_lazy(
        "Heroes start here and return here after meeting Drakon. If coins lie here, you may "
        "take one."
    ),
    "empty": gettext_lazy("No effect."),
    "master_key": gettext_lazy(
        "On your next move you may go in any direction, even against an arrow of the next chamber."
    ),
    "vortex": gettext_lazy("On your next move you may go to any chamber in play."),
    "shift": gettext_lazy(
        "Exchange a chamber with no figure (not the Start) for a tile from your hand."
    ),
    "mind_orb": gettext_lazy(
        "Move another player's hero as if that player had chosen to move; its owner resolves "
        "the chamber it enters."
    ),
    "destroy": gettext_lazy(
        "Put a chamber with no figure (not the Start) at the bottom of the pile."
    ),
    "find_gold": gettext_lazy("Take 1 coin from Drakon's hoard."),
    "drakons_due": gettext_lazy("Put 1 of your coins on the Start chamber."),
    "steal_left": gettext_lazy("Take 1 coin from the player on your left."),
    "steal_right": gettext_lazy("Take 1 coin from the player on your right."),
    "map": gettext_lazy("Take 1 random tile from the hand of an opponent of your choice."),
    "rotate": gettext_lazy(
        "Rotate any 1 chamber by 90° or 180° so that no arrows point at each other."
    ),
    "gale": gettext_lazy(
        "On your next move you must move 3 chambers at once; the first two are ignored."
    ),
    "strong_wind": gettext_lazy(
        "On your next move you must move 2 chambers at once; the first is ignored."
    ),
    "wishing_well": gettext_lazy("Return 1 of your coins to Drakon's hoard."),
    "drakon_moves": gettext_lazy("Move Drakon up to 3 chambers in any direction, ignoring arrows."),
}
HERO_NAMES = {
    "knight": gettext_lazy("Knight"),
    "warrior": gettext_lazy("Warrior"),
    "ranger": gettext_lazy("Ranger"),
    "sorceress": gettext_lazy("Sorceress"),
    "druid": gettext_lazy("Druid"),
    "thief": gettext_lazy("Thief"),
    "dwarf": gettext_lazy("Dwarf"),
    "barbarian": gettext_lazy("Barbarian"),
    "wizard": gettext_lazy("Wizard"),
    "amazon": gettext_lazy("Amazon"),
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


#: The first edition's characters (the Knight and the Thief differ from the later ones).
CLASSIC_HERO_TEXTS = {
    "knight": gettext_lazy(
        "Once, even out of your turn: prevent the loss of a coin to an opponent or a chamber."
    ),
    "dwarf": gettext_lazy("Once: discard 2 tiles under the pile and draw 2 new ones."),
    "barbarian": gettext_lazy(
        "Once: push a hero in your chamber one chamber along an arrow and take a random tile "
        "from that player."
    ),
    "wizard": gettext_lazy("Once: move out of your chamber where no arrow points."),
    "thief": gettext_lazy("Once: take a coin from a hero in your chamber."),
    "amazon": gettext_lazy("Once: move one more chamber and resolve it too."),
}


@per_language
def room_name(room: str, edition: str = "4e") -> str:
    """The room's name as the edition's rulebook has it (``"1e"``: the first edition)."""
    if edition == "1e" and room in CLASSIC_ROOM_NAMES:
        return str(CLASSIC_ROOM_NAMES[room])
    return str(ROOM_NAMES.get(room, room))


def edition_of(view: dict) -> str:
    """``"1e"`` for the first edition, ``"4e"`` for the later one."""
    return "1e" if is_classic(view) else "4e"


def edition_from(origin: str) -> str:
    """The edition whose first room places are named from (the Start: the first edition)."""
    return "1e" if origin == "start" else "4e"


def is_classic(view: dict) -> bool:
    """The first edition (``drakon_classic``): its own room texts, heroes and sentences."""
    return view.get("edition") == "1e"


def room_text(view: dict, room: str) -> str:
    texts = CLASSIC_ROOM_TEXTS if is_classic(view) else ROOM_TEXTS
    return str(texts.get(room, ""))


def hero_text(view: dict, hero: str | None) -> str:
    """The hero's ability, only when Heroes! is played (otherwise a hero has none)."""
    if not (view.get("options") or {}).get("heroes"):
        return ""
    texts = CLASSIC_HERO_TEXTS if is_classic(view) else HERO_TEXTS
    return str(texts.get(hero, ""))


def hero_name(hero: str | None) -> str:
    return str(HERO_NAMES.get(hero, hero or "?"))


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
        "take_start_coin": _("%(who)s may take a coin from the Start."),
        "knight_block": _("%(who)s may prevent the coin loss with the Knight."),
    }
    return str(texts.get(pending["kind"], _("%(who)s decides."))) % {"who": who}


@per_language
def place_name(at: str, origin: str = "entrance") -> str:
    """A cell named from the edition's first room, never by coordinates nobody sees:
    "the Entrance", "1 east of the Entrance", "2 north, 1 west of the Entrance"; in
    the first edition (``origin="start"``) the same from the Start."""
    try:
        x, y = (int(part) for part in at.split(","))
    except (AttributeError, ValueError):
        return str(at)
    from_start = origin == "start"
    if x == 0 and y == 0:
        return _("the Start") if from_start else _("the Entrance")
    parts = []
    if y:
        parts.append((_("%(n)s north") if y > 0 else _("%(n)s south")) % {"n": abs(y)})
    if x:
        parts.append((_("%(n)s east") if x > 0 else _("%(n)s west")) % {"n": abs(x)})
    steps = ", ".join(parts)
    if from_start:
        return _("%(steps)s of the Start") % {"steps": steps}
    return _("%(steps)s of the Entrance") % {"steps": steps}


def origin_of(view: dict) -> str:
    """The room places are named from: the first edition's Start, the later Entrance."""
    return "start" if is_classic(view) else "entrance"


def room_with_place(room: str, at: str, origin: str = "entrance") -> str:
    """A room and where it lies: "Portal (1 east of the Entrance)"."""
    return _("%(room)s (%(place)s)") % {
        "room": room_name(room, edition_from(origin)),
        "place": place_name(at, origin),
    }
