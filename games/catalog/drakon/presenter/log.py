"""The move log: one translated sentence per event."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.catalog.drakon.presenter.texts import edition_from, hero_name, place_name, room_name


def describe_event(event: dict, names: list[str], origin: str = "entrance") -> str:
    """One log sentence; places are named from ``origin`` (the edition's first room)."""
    kind = event["type"]

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and seat < len(names) else "?"

    def room(key: str = "room") -> str:
        return room_name(event.get(key, ""), edition_from(origin))

    sentences = {
        "hero_chosen": lambda: (
            _("%(p)s plays the %(hero)s.") % {"p": who(), "hero": hero_name(event["hero"])}
        ),
        "hand_dealt": lambda: (
            ngettext("%(p)s gets %(n)s tile.", "%(p)s gets %(n)s tiles.", event["count"])
            % {"p": who(), "n": event["count"]}
        ),
        "tiles_drawn": lambda: _drawn(event, edition_from(origin)),
        "turn_started": lambda: _("Turn %(n)s: %(p)s to play.") % {"n": event["turn"], "p": who()},
        "turn_skipped": lambda: _("%(p)s cannot act and passes.") % {"p": who()},
        "room_placed": lambda: (
            _("%(p)s placed %(room)s: %(place)s.")
            % {"p": who(), "room": room(), "place": place_name(event["at"], origin)}
        ),
        "tile_drawn": lambda: (
            _("%(p)s drew a tile.") % {"p": who()} if event["count"] else _("The pile is empty.")
        ),
        "drakon_placed": lambda: (
            _("%(p)s put Drakon in the chamber %(place)s.")
            % {"p": who(), "place": place_name(event["at"], origin)}
        ),
        "hero_placed": lambda: _("%(p)s stepped onto the new Escape.") % {"p": who()},
        "escape_declined": lambda: _("%(p)s stayed put.") % {"p": who()},
        "hero_moved": lambda: (
            _("%(p)s moved: %(a)s → %(b)s.")
            % {
                "p": who(),
                "a": place_name(event["from"], origin),
                "b": place_name(event["to"], origin),
            }
        ),
        "mind_controlled": lambda: (
            _("%(p)s took control of %(q)s.") % {"p": who(), "q": who("target")}
        ),
        "drakon_encounter": lambda: (
            _("Drakon! The heroes there flee to the Start.")
            if event.get("to") == "start"
            else _("Drakon! The heroes there flee to the Entrance.")
        ),
        "hero_dealt": lambda: (
            _("%(p)s is dealt the %(hero)s.") % {"p": who(), "hero": hero_name(event["hero"])}
        ),
        "coin_to_start": lambda: _("%(p)s put a coin on the Start for Drakon.") % {"p": who()},
        "start_coin_taken": lambda: _("%(p)s took a coin from the Start.") % {"p": who()},
        "start_coin_left": lambda: _("%(p)s left the coins on the Start.") % {"p": who()},
        "drakon_moved": lambda: (
            _("Drakon moved: %(a)s → %(b)s.")
            % {"a": place_name(event["from"], origin), "b": place_name(event["to"], origin)}
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
            _("%(p)s destroyed %(room)s: %(place)s.")
            % {"p": who(), "room": room(), "place": place_name(event["at"], origin)}
        ),
        "room_floated": lambda: (
            _("%(p)s flew the Floating Chamber: %(a)s → %(b)s.")
            % {
                "p": who(),
                "a": place_name(event["from"], origin),
                "b": place_name(event["to"], origin),
            }
        ),
        "float_declined": lambda: _("%(p)s left the Floating Chamber where it is.") % {"p": who()},
        "room_rotated": lambda: (
            _("%(p)s rotated the chamber %(place)s.")
            % {"p": who(), "place": place_name(event["at"], origin)}
        ),
        "room_removed": lambda: (
            _("%(p)s took %(room)s back into their hand: %(place)s.")
            % {"p": who(), "room": room(), "place": place_name(event["at"], origin)}
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
            ngettext(
                "%(p)s put %(n)s tile under the pile and drew as many.",
                "%(p)s put %(n)s tiles under the pile and drew as many.",
                event["count"],
            )
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


def _drawn(event: dict, edition: str = "4e") -> str:
    """The private note of a draw: the rooms by name when the event carries them."""
    if event.get("rooms"):
        rooms = ", ".join(room_name(room, edition) for room in event["rooms"])
        return _("(Only you see this: you drew %(rooms)s.)") % {"rooms": rooms}
    n = len(event["tiles"])
    return ngettext(
        "(Only you see this: you drew %(n)s tile.)", "(Only you see this: you drew %(n)s tiles.)", n
    ) % {"n": n}
