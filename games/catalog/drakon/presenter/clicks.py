"""The clicks that build a move: each legal action as a few labelled steps."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.catalog.drakon.presenter.texts import (
    edition_of,
    hero_name,
    is_classic,
    origin_of,
    place_name,
    room_name,
    room_with_place,
)
from games.catalog.drakon.rules import MASKS
from games.catalog.wording import per_language


def _tile_label(view: dict, tile: int) -> str:
    for t in (view.get("me") or {}).get("hand", []):
        if t["tile"] == tile:
            return room_name(t["room"], edition_of(view))
    return _("tile %(n)s") % {"n": tile}


def _room_at(view: dict, at: str) -> str:
    for room in view["board"]:
        if room["at"] == at:
            return room_with_place(room["room"], at, origin_of(view))
    return place_name(at, origin_of(view))


@per_language
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
            (
                f"cell-{action['at']}",
                _("at %(place)s") % {"place": place_name(action["at"], origin_of(view))},
            ),
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
        if action.get("power") and is_classic(view):
            label = _("Wizard: move to %(room)s") % {"room": _room_at(view, action["to"])}
        elif action.get("power"):
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
    if kind == "protect" and is_classic(view):
        return [("protect", _("Prevent the loss (Knight)"))]
    if kind == "protect":
        return [("protect", _("Protect the coin (Druid)"))]
    if kind == "take_coin":
        return [("take_coin", _("Take a coin from the Start"))]
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
            (
                f"float-{action['to']}",
                _("Fly it to %(place)s") % {"place": place_name(action["to"], origin_of(view))},
            ),
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
    if hero == "dwarf":
        return [
            first,
            (
                f"wtile-{action['tile']}",
                _("discarding %(room)s") % {"room": _tile_label(view, action["tile"])},
            ),
        ]
    if hero in ("knight", "barbarian"):
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
    if hero in ("ranger", "amazon"):
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
