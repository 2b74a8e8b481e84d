"""What each answer to a decision does (the action is already known to be legal).

``HANDLERS[kind](state, task, action, events)`` changes the private copy
made by ``apply`` and pushes whatever must follow onto the task stack.
"""

from __future__ import annotations

from games.catalog.drakon.rules.effects import (
    check_coin_goal,
    draw_tiles,
    encounter,
    escape_win,
    lose_coin_now,
    steal_random_tile,
)
from games.catalog.drakon.rules.lair import (
    MASKS,
    Lair,
    arrows_of,
    key_of,
    lair_of,
    remove_room,
    set_room,
    xy,
)
from games.catalog.drakon.rules.state import (
    ACTION,
    AFTER_ACTION,
    AFTER_CHECK,
    CHOOSE_HERO,
    COIN_LOSS,
    DESTROY,
    DRAKON_MOVE,
    DRUID,
    ENTER,
    ESCAPE,
    FLOAT,
    KNIGHT_BLOCK,
    KNIGHT_TAKE,
    MIND_CONTROL,
    OFFER_ACTION,
    PLACE_DRAKON,
    ROTATE,
    STEAL_TILE,
    SWAP,
    TAKE_START,
    WARRIOR,
    drawn_event,
    edition_of,
    heroes_at,
    pool_of,
    pool_seats,
    private_events,
    random_index,
    room_at,
    rule_of,
    tiles_of,
)
from games.catalog.drakon.rules.targets import move_targets
from games.engine.base import Action, Event, State

# Decision handlers (the action is already known to be legal) ---------------------------------


def _on_choose_hero(state: State, task: dict, action: Action, events: list[Event]) -> None:
    seat = task["seat"]
    state["hero_names"][seat] = action["hero"]
    events.append({"type": "hero_chosen", "seat": seat, "hero": action["hero"]})


def _on_action(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """The turn's action (A-5, A-6), or an ability used before it (A-12)."""
    seat = task["seat"]
    kind = action["type"]
    if kind == "ability":
        state["pending"].append({"kind": OFFER_ACTION, "who": seat})
        _use_ability(state, seat, action, events)
        return
    state["pending"].append({"kind": AFTER_CHECK, "who": seat})
    if kind == "place":
        _place(state, seat, action, events)
    else:
        _move_action(state, seat, action, events)


def _on_after_action(state: State, task: dict, action: Action, events: list[Event]) -> None:
    if action["type"] == "ability":
        _use_ability(state, task["seat"], action, events)


def _place(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A-5: put the tile into play, draw from the pile, then the placement hooks."""
    tile, at, rot = action["tile"], action["at"], action["rot"]
    state["hands"][seat].remove(tile)
    set_room(state, at, [tile, rot])
    events.append(_placed_event(state, seat, tile, at, rot, "placed"))
    drawn = draw_tiles(state, seat, 1)
    events.append(
        {"type": "tile_drawn", "seat": seat, "count": len(drawn), "stack": len(state["stack"])}
    )
    events.extend(private_events(state, [seat], drawn_event(state, seat, drawn)))
    _put_in_play_hooks(state, seat, at, tile)


def _placed_event(state: State, seat: int, tile: int, at: str, rot: int, how: str) -> Event:
    room, pattern = tiles_of(state)[tile]
    return {
        "type": "room_placed",
        "how": how,
        "seat": seat,
        "tile": tile,
        "room": room,
        "pattern": pattern,
        "at": at,
        "rot": rot,
        "arrows": arrows_of(MASKS[pattern][rot]),
    }


def _put_in_play_hooks(state: State, seat: int, at: str, tile: int) -> None:
    """First Drakon Moves brings Drakon (A-10, D-2); Escape lets the hero on (A-9, D-22)."""
    room = tiles_of(state)[tile][0]
    if room == "drakon_moves" and state["drakon"] is None:
        state["pending"].append({"kind": PLACE_DRAKON, "seat": seat})
    elif rule_of(state, room) == "escape":
        state["pending"].append({"kind": ESCAPE, "seat": seat, "at": at})


def _move_action(state: State, seat: int, action: Action, events: list[Event]) -> None:
    lair = lair_of(state)
    power = bool(action.get("power"))
    if power:
        state["abilities_used"][seat] = True
        events.append({"type": "ability_used", "seat": seat, "hero": edition_of(state).power_hero})
        targets = move_targets(state, lair, seat, power=True)
    else:
        targets = move_targets(state, lair, seat)
    cell = xy(action["to"])
    _move_hero(state, lair, seat, cell, targets[cell], events, cause="power" if power else "move")


def _move_hero(
    state: State,
    lair: Lair,
    seat: int,
    cell: tuple[int, int],
    via: tuple[tuple[int, int], ...],
    events: list[Event],
    *,
    cause: str,
    by: int | None = None,
) -> None:
    """Move a hero (the path is already legal) and queue the entered room's resolution."""
    origin = state["heroes"][seat]
    to = key_of(cell)
    state["heroes"][seat] = to
    events.append(
        {
            "type": "hero_moved",
            "seat": seat,
            "from": origin,
            "to": to,
            "via": [key_of(p) for p in via],
            "from_room": lair.kind[xy(origin)],
            "cause": cause,
            "by": by,
        }
    )
    state["pending"].append({"kind": ENTER, "who": seat, "at": to})


def _use_ability(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A-12: flip the card and carry out the ability."""
    state["abilities_used"][seat] = True
    hero = action["hero"]
    ABILITY_HANDLERS[(edition_of(state).abilities_as or {}).get(hero, hero)](
        state, seat, action, events
    )


def _knight(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-16: the target moves where the Knight says and resolves it; then lose a tile."""
    target = action["target"]
    events.append({"type": "ability_used", "seat": seat, "hero": "knight", "target": target})
    state["pending"].append({"kind": KNIGHT_TAKE, "who": seat, "target": target})
    lair = lair_of(state)
    cell = xy(action["to"])
    via = move_targets(state, lair, target)[cell]
    _move_hero(state, lair, target, cell, via, events, cause="knight", by=seat)


def _barbarian(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """B-7: the pushed hero resolves the chamber entered; then a random tile of its hand."""
    target = action["target"]
    events.append({"type": "ability_used", "seat": seat, "hero": "barbarian", "target": target})
    state["pending"].append(
        {"kind": KNIGHT_TAKE, "who": seat, "target": target, "cause": "barbarian"}
    )
    _move_hero(state, lair_of(state), target, xy(action["to"]), (), events, cause="barbarian",
               by=seat)  # fmt: skip


def _ranger(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-19: an extra move action."""
    events.append({"type": "ability_used", "seat": seat, "hero": action["hero"]})
    lair = lair_of(state)
    cell = xy(action["to"])
    via = move_targets(state, lair, seat)[cell]
    _move_hero(state, lair, seat, cell, via, events, cause="ranger")


def _warrior(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-20: the first tile is chosen with the ability; more follow one by one."""
    events.append({"type": "ability_used", "seat": seat, "hero": action["hero"]})
    task = {"kind": WARRIOR, "seat": seat, "chosen": [action["tile"]]}
    count = edition_of(state).cycle_count
    if count is not None:  # the Dwarf: exactly two tiles, or the only one (D-20)
        task["need"] = min(count, len(state["hands"][seat]))
    if len(state["hands"][seat]) == 1 or task.get("need") == 1:
        _finish_warrior(state, task, events)
    else:
        state["pending"].append(task)


def _thief(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """D-15: steal from an enemy in the chamber (the Druid may cancel), or exchange."""
    if "target" in action:
        target = action["target"]
        events.append(
            {
                "type": "ability_used",
                "seat": seat,
                "hero": "thief",
                "mode": "steal",
                "target": target,
            }
        )
        state["pending"].append(
            {
                "kind": COIN_LOSS,
                "victim": target,
                "to": seat,
                "cause": "thief",
                "by": seat,
                "protectable": True,
            }
        )
        return
    events.append({"type": "ability_used", "seat": seat, "hero": "thief", "mode": "exchange"})
    pool = state["coins"][pool_of(state, seat)]
    hoard = state["hoard"]
    got = hoard.pop(random_index(state, len(hoard)))  # draw first: never the same coin back
    pool.remove(action["coin"])
    hoard.append(action["coin"])
    pool.append(got)
    events.append({"type": "coin_exchanged", "seat": seat})
    detail = {"type": "coin_exchanged_value", "seat": seat, "gave": action["coin"], "got": got}
    events.extend(private_events(state, pool_seats(state, pool_of(state, seat)), detail))
    check_coin_goal(state, seat, events)


ABILITY_HANDLERS = {
    "barbarian": _barbarian,
    "knight": _knight,
    "ranger": _ranger,
    "warrior": _warrior,
    "thief": _thief,
}


def _on_warrior(state: State, task: dict, action: Action, events: list[Event]) -> None:
    if action["type"] == "warrior_done":
        _finish_warrior(state, task, events)
        return
    task = {**task, "chosen": [*task["chosen"], action["tile"]]}
    if len(task["chosen"]) in (len(state["hands"][task["seat"]]), task.get("need")):
        _finish_warrior(state, task, events)
    else:
        state["pending"].append(task)


def _finish_warrior(state: State, task: dict, events: list[Event]) -> None:
    """D-20, D-11: the chosen tiles go under the pile in order, then draw as many."""
    seat = task["seat"]
    chosen = task["chosen"]
    hand = state["hands"][seat]
    for tile in chosen:
        hand.remove(tile)
    state["stack"].extend(chosen)
    drawn = draw_tiles(state, seat, len(chosen))
    events.append({"type": "tiles_cycled", "seat": seat, "count": len(chosen)})
    events.extend(
        private_events(
            state,
            [seat],
            {"type": "tiles_cycled_detail", "seat": seat, "under": list(chosen), "tiles": drawn},
        )
    )


def _on_place_drakon(state: State, task: dict, action: Action, events: list[Event]) -> None:
    state["drakon"] = action["at"]
    events.append({"type": "drakon_placed", "seat": task["seat"], "at": action["at"]})


def _on_escape(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """A-9 Escape: the hero goes onto the new chamber (not a move: no Harp, no leave effect)."""
    seat = task["seat"]
    if action["type"] == "skip":
        events.append({"type": "escape_declined", "seat": seat, "at": task["at"]})
        return
    origin = state["heroes"][seat]
    state["heroes"][seat] = task["at"]
    events.append({"type": "hero_placed", "seat": seat, "from": origin, "to": task["at"]})
    if edition_of(state).escape_placement_wins:
        escape_win(state, seat, room_at(state, task["at"]), events)


def _on_destroy(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-23: the chamber goes face down under the pile."""
    at = action["at"]
    tile, _rot = remove_room(state, at)
    state["stack"].append(tile)
    room, pattern = tiles_of(state)[tile]
    events.append(
        {
            "type": "room_destroyed",
            "seat": task["seat"],
            "at": at,
            "tile": tile,
            "room": room,
            "pattern": pattern,
        }
    )


def _on_drakon_move(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """A-10, A-11: only heroes where Drakon stops meet her (0 steps included)."""
    origin = state["drakon"]
    state["drakon"] = action["to"]
    events.append(
        {"type": "drakon_moved", "seat": task["seat"], "from": origin, "to": action["to"]}
    )
    encounter(state, action["to"], events)


def _on_float(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-5: the chamber flies with every figure on it; nothing else triggers."""
    seat = task["seat"]
    origin = task["at"]
    if action["type"] == "skip":
        events.append({"type": "float_declined", "seat": seat, "at": origin})
        return
    tile, _rot = remove_room(state, origin)
    to = action["to"]
    set_room(state, to, [tile, action["rot"]])
    carried = heroes_at(state, origin)
    for other in carried:
        state["heroes"][other] = to
    if state["drakon"] == origin:  # never in play (she would have met the hero); kept safe
        state["drakon"] = to
    pattern = tiles_of(state)[tile][1]
    events.append(
        {
            "type": "room_floated",
            "seat": seat,
            "from": origin,
            "to": to,
            "rot": action["rot"],
            "arrows": arrows_of(MASKS[pattern][action["rot"]]),
            "carried": carried,
        }
    )


def _on_mind_control(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-6: the controller chose the move; the target resolves whatever it enters."""
    seat, target = task["seat"], action["target"]
    lair = lair_of(state)
    cell = xy(action["to"])
    events.append({"type": "mind_controlled", "seat": seat, "target": target})
    via = move_targets(state, lair, target)[cell]
    _move_hero(state, lair, target, cell, via, events, cause="mind_control", by=seat)


def _on_rotate(state: State, task: dict, action: Action, events: list[Event]) -> None:
    at = action["at"]
    tile, rot = state["board"][at]
    new_rot = (rot + action["turns"]) % 4
    set_room(state, at, [tile, new_rot])
    pattern = tiles_of(state)[tile][1]
    events.append(
        {
            "type": "room_rotated",
            "seat": task["seat"],
            "at": at,
            "turns": action["turns"],
            "rot": new_rot,
            "arrows": arrows_of(MASKS[pattern][new_rot]),
        }
    )


def _on_steal_tile(state: State, task: dict, action: Action, events: list[Event]) -> None:
    steal_random_tile(state, task["seat"], action["from"], "steal_tile", events)


def _on_swap(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-22: exchange; the new tile triggers nothing but counts as put into play; no draw."""
    seat = task["seat"]
    at, tile, rot = action["at"], action["tile"], action["rot"]
    old, _old_rot = state["board"][at]
    state["hands"][seat].remove(tile)
    state["hands"][seat].append(old)
    set_room(state, at, [tile, rot])
    old_room, old_pattern = tiles_of(state)[old]
    events.append(
        {
            "type": "room_removed",
            "seat": seat,
            "at": at,
            "tile": old,
            "room": old_room,
            "pattern": old_pattern,
        }
    )
    events.append(_placed_event(state, seat, tile, at, rot, "swapped"))
    _put_in_play_hooks(state, seat, at, tile)


def _on_take_start(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """B-6 Start: take one of the coins lying there (it may win at once), or leave them."""
    seat = task["seat"]
    if action["type"] == "skip":
        events.append({"type": "start_coin_left", "seat": seat})
        return
    state["coins"][pool_of(state, seat)].append(state["start_coins"].pop())
    events.append({"type": "start_coin_taken", "seat": seat})
    check_coin_goal(state, seat, events)


def _on_druid(state: State, task: dict, action: Action, events: list[Event]) -> None:
    """D-17: cancel the whole coin loss (the stealer gains nothing), once per game."""
    seat = task["seat"]
    if action["type"] == "protect":
        state["abilities_used"][seat] = True
        hero = edition_of(state).protector
        events.append({"type": "ability_used", "seat": seat, "hero": hero, "cause": task["cause"]})
        return
    lose_coin_now(state, seat, task["to"], task["cause"], events)


HANDLERS = {
    CHOOSE_HERO: _on_choose_hero,
    ACTION: _on_action,
    AFTER_ACTION: _on_after_action,
    PLACE_DRAKON: _on_place_drakon,
    ESCAPE: _on_escape,
    DESTROY: _on_destroy,
    DRAKON_MOVE: _on_drakon_move,
    FLOAT: _on_float,
    MIND_CONTROL: _on_mind_control,
    ROTATE: _on_rotate,
    STEAL_TILE: _on_steal_tile,
    SWAP: _on_swap,
    DRUID: _on_druid,
    WARRIOR: _on_warrior,
    TAKE_START: _on_take_start,
    KNIGHT_BLOCK: _on_druid,
}
