"""Hatchlings for people: the nest as SVG, log sentences, the clicks of a move."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

BOARD_TEMPLATE = "games/hatchlings/board.jinja"
PRIVATE_TEMPLATE = "games/hatchlings/private.jinja"
SENTENCES_NAME_THE_ACTOR = True
# A piece on the board, measured at a phone's width by the browser tests.
PIECE_SELECTOR = ".hand .card"
# The lobby's tile.
ICON = "dragon-head"
SUMMARY = gettext_lazy("Hatch the eggs in your hand into the nest: the higher score wins.")
EGG_W = 44


def describe_event(event: dict, names: list[str]) -> str:
    who = names[event["seat"]] if "seat" in event else ""
    kind = event["type"]
    if kind == "dealt":
        return _("%(who)s was dealt %(n)s eggs.") % {"who": who, "n": event["count"]}
    if kind == "dealt_eggs":
        return _("Your eggs: %(eggs)s.") % {"eggs": ", ".join(map(str, event["eggs"]))}
    if kind == "hatched":
        return _("%(who)s hatched an egg worth %(n)s.") % {"who": who, "n": event["egg"]}
    if kind == "buried":
        return _("%(who)s buried an egg face down.") % {"who": who}
    if kind == "drew":
        return _("%(who)s drew an egg.") % {"who": who}
    if kind == "drew_egg":
        return _("You drew an egg worth %(n)s.") % {"n": event["egg"]}
    if kind == "game_over":
        return _("The nest is full: the game is over.")
    raise ValueError(f"unknown event {kind!r}")


def action_steps(action: dict, view: dict) -> list[tuple[str, str]]:
    egg = action["egg"]
    if action["type"] == "hatch":
        return [(f"hatch-{egg}", _("Hatch the egg worth %(n)s") % {"n": egg})]
    return [(f"bury-{egg}", _("Bury the egg worth %(n)s") % {"n": egg})]


def board_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict:
    nest = [
        {"x": 10 + i * (EGG_W + 6), "seat": seat, "value": value, "name": names[seat]}
        for i, (seat, value) in enumerate(view["nest"])
    ]
    return {
        "width": max(320, 20 + len(nest) * (EGG_W + 6)),
        "nest": nest,
        "egg_w": EGG_W,
        # Plurals are worded here: ``make messages`` gathers ngettext from Python only.
        "scores": [
            (name, score, ngettext("%(n)s egg in hand", "%(n)s eggs in hand", count) % {"n": count})
            for name, score, count in zip(names, view["scores"], view["hand_counts"], strict=True)
        ],
        "clutch": view["clutch_count"],
        "hands_at_end": view["hands_at_end"],
        "description": _("%(n)s eggs in the nest; %(c)s in the clutch.")
        % {"n": len(nest), "c": view["clutch_count"]},
    }


def private_context(view: dict, viewer: int | None, names: list[str], choices=None) -> dict | None:
    """The viewer's eggs, each with its clicks; None for a spectator."""
    if view["my_hand"] is None:
        return None
    by_key = {choice.key: choice for choice in choices.choices} if choices else {}
    hand = [
        {"value": value, "hatch": by_key.get(f"hatch-{value}"), "bury": by_key.get(f"bury-{value}")}
        for value in view["my_hand"]
    ]
    return {"hand": hand}


def changed(before: dict, after: dict) -> set[str]:
    """``egg:<i>`` for an egg new in the nest (or different at its place) and
    ``hand:<value>`` for an egg value the viewer holds more of than before."""
    keys = {
        f"egg:{i}"
        for i, entry in enumerate(after["nest"])
        if i >= len(before["nest"]) or before["nest"][i] != entry
    }
    held = before["my_hand"] or []
    for value in set(after["my_hand"] or []):
        if after["my_hand"].count(value) > held.count(value):
            keys.add(f"hand:{value}")
    return keys


def describe_board(view: dict, names: list[str]) -> list[str]:
    """The nest egg by egg, the scores, the clutch, and the viewer's own eggs."""
    lines = [
        _("In the nest: %(eggs)s.")
        % {
            "eggs": ", ".join(f"{names[seat]} {value}" for seat, value in view["nest"])
            or _("no eggs")
        },
        _("Scores: %(scores)s.")
        % {"scores": ", ".join(f"{n} {s}" for n, s in zip(names, view["scores"], strict=True))},
        _("Eggs in the clutch: %(n)s.") % {"n": view["clutch_count"]},
    ]
    if view["my_hand"] is not None:
        lines.append(_("Your eggs: %(eggs)s.") % {"eggs": ", ".join(map(str, view["my_hand"]))})
    return [str(line) for line in lines]
