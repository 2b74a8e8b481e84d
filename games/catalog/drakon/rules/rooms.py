"""What a chamber does to the hero who ends a move in it (A-9, A-11, A-14).

``enter_room`` is the automatic step queued by every move: Drakon first,
then an Escape win, then the room's effect. Effects that need a choice
push a decision for the entering seat; the others act at once.
"""

from __future__ import annotations

from games.catalog.drakon.rules.effects import encounter, escape_win, gain_from_hoard
from games.catalog.drakon.rules.lair import lair_of
from games.catalog.drakon.rules.state import (
    COIN_LOSS,
    DESTROY,
    DRAKON_MOVE,
    FLOAT,
    MIND_CONTROL,
    ROTATE,
    STEAL_TILE,
    SWAP,
    TAKE_START,
    left_of,
    pool_of,
    right_of,
    room_at,
    rule_of,
)
from games.catalog.drakon.rules.targets import (
    destroy_targets,
    float_targets,
    mind_control_targets,
    rotate_targets,
    steal_tile_victims,
    swap_targets,
)
from games.engine.base import Event, State


def enter_room(state: State, task: dict, events: list[Event]) -> None:
    """A hero ended a move in a chamber: Drakon first (A-11), then Escape win, then effect."""
    seat, at = task["who"], task["at"]
    if state["drakon"] == at:
        encounter(state, at, events)
        return
    room = room_at(state, at)
    if escape_win(state, seat, room, events):
        return
    effect = ENTER_EFFECTS.get(rule_of(state, room))
    if effect is not None:
        effect(state, seat, at, events)


# Room effects on entering (A-9) -----------------------------------------------------------------


def _effect_find_coin(state: State, seat: int, at: str, events: list[Event]) -> None:
    gain_from_hoard(state, seat, room_at(state, at), events)


def _effect_lose_coin(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, seat, None, room_at(state, at), None)


def _effect_start(state: State, seat: int, at: str, events: list[Event]) -> None:
    """B-6 Start (first edition): if coins lie here, the hero may take one."""
    if state.get("start_coins"):
        state["pending"].append({"kind": TAKE_START, "seat": seat})


def _effect_drakons_due(state: State, seat: int, at: str, events: list[Event]) -> None:
    """B-6 Drakon's Due: put one of your coins on the Start (a coin loss the Knight may stop)."""
    _push_coin_loss(state, seat, None, "drakons_due", None)


def _effect_steal_left(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, left_of(state, seat), seat, "steal_left", seat)


def _effect_steal_right(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_coin_loss(state, right_of(state, seat), seat, "steal_right", seat)


def _push_coin_loss(state: State, victim: int, to: int | None, cause: str, by: int | None) -> None:
    if to is not None and pool_of(state, victim) == pool_of(state, to):
        return  # never a steal from one's own pool (impossible with the team seatings)
    state["pending"].append(
        {
            "kind": COIN_LOSS,
            "victim": victim,
            "to": to,
            "cause": cause,
            "by": by,
            "protectable": True,
        }
    )


def _push_if(state: State, events: list[Event], seat: int, room: str, ok: bool, task: dict) -> None:
    """Push a mandatory effect's decision, or log that it has nothing to act on."""
    if ok:
        state["pending"].append(task)
    else:
        events.append({"type": "no_effect", "seat": seat, "room": room})


def _effect_destroy(state: State, seat: int, at: str, events: list[Event]) -> None:
    _push_if(
        state,
        events,
        seat,
        "destroy",
        bool(destroy_targets(state)),
        {"kind": DESTROY, "seat": seat},
    )


def _effect_drakon_moves(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = state["drakon"] is not None
    _push_if(state, events, seat, "drakon_moves", ok, {"kind": DRAKON_MOVE, "seat": seat})


def _effect_floating(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(float_targets(state, lair_of(state), at))
    _push_if(state, events, seat, "floating", ok, {"kind": FLOAT, "seat": seat, "at": at})


def _effect_mind_control(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(mind_control_targets(state, lair_of(state), seat))
    _push_if(state, events, seat, room_at(state, at), ok, {"kind": MIND_CONTROL, "seat": seat})


def _effect_rotate(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(rotate_targets(state, lair_of(state)))
    _push_if(state, events, seat, "rotate", ok, {"kind": ROTATE, "seat": seat})


def _effect_steal_tile(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(steal_tile_victims(state, seat))
    _push_if(state, events, seat, room_at(state, at), ok, {"kind": STEAL_TILE, "seat": seat})


def _effect_swap(state: State, seat: int, at: str, events: list[Event]) -> None:
    ok = bool(swap_targets(state, lair_of(state), seat))
    _push_if(state, events, seat, room_at(state, at), ok, {"kind": SWAP, "seat": seat})


ENTER_EFFECTS = {
    "start": _effect_start,
    "drakons_due": _effect_drakons_due,
    "find_coin": _effect_find_coin,
    "lose_coin": _effect_lose_coin,
    "steal_left": _effect_steal_left,
    "steal_right": _effect_steal_right,
    "destroy": _effect_destroy,
    "drakon_moves": _effect_drakon_moves,
    "floating": _effect_floating,
    "mind_control": _effect_mind_control,
    "rotate": _effect_rotate,
    "steal_tile": _effect_steal_tile,
    "swap": _effect_swap,
}
