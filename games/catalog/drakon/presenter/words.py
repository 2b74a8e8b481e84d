"""Drakon in words: the position for a screen reader, and the end-of-match breakdown.

``describe_board`` sees only the viewer's ``view``: every room by name and
place (never coordinates), its arrows and who stands in it, Drakon, each
hero's coin and tile counts, the pile, the hoard and the goal; the values of
coins only for the viewer's own (and for everyone once the game is over).
``final_summary`` sees the stored result, which is public once it is over.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.catalog.drakon.presenter.texts import (
    describe_pending,
    edition_of,
    hero_name,
    origin_of,
    room_name,
    room_with_place,
)

ARROW_NAMES = {
    "N": gettext_lazy("north"),
    "E": gettext_lazy("east"),
    "S": gettext_lazy("south"),
    "W": gettext_lazy("west"),
}

END_REASONS = {
    "goal": gettext_lazy("The winner gathered the gold the game asks for."),
    "escape": gettext_lazy("The winner escaped from the lair with enough gold."),
    "blocked": gettext_lazy("No hero could act any more; the most gold won."),
    "exhausted": gettext_lazy("No more coins could change hands; the most gold won."),
    "turn_limit": gettext_lazy("The game reached its last round; the most gold won."),
}


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def _coins(n: int) -> str:
    return ngettext("%(n)s coin", "%(n)s coins", n) % {"n": n}


def _tiles(n: int) -> str:
    return ngettext("%(n)s tile", "%(n)s tiles", n) % {"n": n}


def _who(view: dict, hero: dict, names: list[str]) -> str:
    """ "Alice (Knight)" when heroes are chosen, else the name alone."""
    name = _name(names, hero["seat"])
    if hero.get("hero"):
        return _("%(name)s (%(hero)s)") % {"name": name, "hero": hero_name(hero["hero"])}
    return name


def _room_at(view: dict, room: dict) -> str:
    """A room by name and place ("Portal (1 east of the Entrance)"); the Entrance by name."""
    if room["at"] == "0,0":
        return room_name(room["room"], edition_of(view))
    return room_with_place(room["room"], room["at"], origin_of(view))


def room_words(view: dict, names: list[str]) -> dict[str, str]:
    """Each room of the lair in words, by its place: its name and place, its arrows,
    who is there and the coins on it. The board in words lists them, and the drawn
    board names each room by its line (so a screen reader does not read its glyphs)."""
    here: dict[str, list[str]] = {}
    for hero in view["heroes"]:
        if hero.get("at") is not None:
            here.setdefault(hero["at"], []).append(_who(view, hero, names))
    drakon = view.get("drakon")
    words = {}
    for room in view["board"]:
        arrows = ", ".join(str(ARROW_NAMES[a]) for a in room["arrows"]) or _("none")
        line = _("%(room)s: arrows %(arrows)s.") % {"room": _room_at(view, room), "arrows": arrows}
        figures = list(here.get(room["at"], []))
        if room["at"] == drakon:
            figures.append(_("Drakon"))
        if figures:
            line += " " + _("Here: %(figures)s.") % {"figures": ", ".join(figures)}
        if room["room"] == "start" and view.get("start_coins"):
            line += " " + _("Coins on the Start: %(n)s.") % {"n": view["start_coins"]}
        words[room["at"]] = line
    return words


def describe_board(view: dict, names: list[str]) -> list[str]:
    """The labyrinth room by room, then the heroes, the pile and hoard, and the viewer's own."""
    lines: list[str] = []
    rooms = {room["at"]: room for room in view["board"]}
    drakon = view.get("drakon")
    if drakon and drakon in rooms:
        lines.append(_("Drakon: %(room)s.") % {"room": _room_at(view, rooms[drakon])})
    else:
        lines.append(_("Drakon is not in the lair yet."))
    lines.append(
        ngettext("The lair has %(n)s chamber:", "The lair has %(n)s chambers:", len(rooms))
        % {"n": len(rooms)}
    )
    words = room_words(view, names)
    lines.extend(words[room["at"]] for room in view["board"])
    heroes_on = (view.get("options") or {}).get("heroes")
    for hero in view["heroes"]:
        where = (
            _room_at(view, rooms[hero["at"]])
            if hero.get("at") in rooms
            else _("not in the lair yet")
        )
        line = _("%(who)s: %(where)s; %(coins)s, %(tiles)s in hand.") % {
            "who": _who(view, hero, names),
            "where": where,
            "coins": _coins(hero["coins"]),
            "tiles": _tiles(hero["tiles"]),
        }
        if heroes_on and hero.get("hero"):
            line += " " + (_("Ability used.") if hero.get("ability_used") else _("Ability unused."))
        lines.append(line)
    for number, team in enumerate(view.get("teams") or [], start=1):
        lines.append(
            _("Team %(n)s: %(names)s.")
            % {"n": number, "names": ", ".join(_name(names, s) for s in team)}
        )
    lines.append(_("Tiles in the pile: %(n)s.") % {"n": view["stack"]})
    lines.append(_("Coins in Drakon's hoard: %(n)s.") % {"n": view["hoard"]})
    goal = view.get("goal") or {}
    if goal.get("gold"):
        lines.append(_("Goal: %(n)s gold.") % {"n": goal["gold"]})
    if goal.get("escape_gold"):
        lines.append(
            _("Escape with %(n)s gold through: %(rooms)s.")
            % {
                "n": goal["escape_gold"],
                "rooms": ", ".join(
                    room_name(r, edition_of(view)) for r in goal.get("escape_rooms", [])
                ),
            }
        )
    me = view.get("me")
    if me is not None:
        coins = " + ".join(str(value) for value in me["coins"]) or "0"
        lines.append(
            _("Your coins: %(coins)s = %(gold)s gold.") % {"coins": coins, "gold": me["gold"]}
        )
        hand = ", ".join(room_name(tile["room"], edition_of(view)) for tile in me["hand"])
        hand = hand or _("none")
        lines.append(_("Your tiles: %(tiles)s.") % {"tiles": hand})
    pending = describe_pending(view, names)
    if pending:
        lines.append(pending)
    revealed = (view.get("revealed") or {}).get("coins") if view.get("over") else None
    for seat, coins in enumerate(revealed or []):
        lines.append(
            _("%(name)s had %(coins)s = %(gold)s gold.")
            % {
                "name": _name(names, seat),
                "coins": " + ".join(str(c) for c in coins) or "0",
                "gold": sum(coins),
            }
        )
    return [str(line) for line in lines]


def final_summary(result: dict, names: list[str]) -> dict:
    """Why it ended, and each seat's gold as its coins add up (A-13: the most gold ranks first
    after the winners); in team play the team whose pool it is."""
    details = result.get("details") or {}
    coins = details.get("coins") or []
    gold = details.get("gold") or result.get("scores") or []
    teams = details.get("teams")
    winners = set(details.get("winners") or [])
    columns = [_("Coins"), _("Gold")]
    if teams:
        columns = [_("Team"), *columns]
    cells = []
    for seat in range(len(names)):
        row = [
            " + ".join(str(c) for c in (coins[seat] if seat < len(coins) else [])) or "0",
            str(gold[seat]) if seat < len(gold) and gold[seat] is not None else "",
        ]
        if teams:
            team = next((i for i, members in enumerate(teams, start=1) if seat in members), None)
            row = ["" if team is None else str(team), *row]
        cells.append(row)
    reason = str(END_REASONS.get(details.get("reason"), ""))
    if winners and details.get("reason") == "escape":
        reason = _("%(names)s escaped from the lair with enough gold.") % {
            "names": ", ".join(_name(names, s) for s in sorted(winners))
        }
    return {"reason": str(reason), "columns": [str(c) for c in columns], "cells": cells}
