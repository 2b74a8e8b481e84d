"""Running the task stack: automatic steps, and the start of each turn.

``run_tasks`` carries out automatic steps until a decision is on top of
``state["pending"]`` or the game is over; with an empty stack it starts
the next turn (skipping seats that cannot act, ending when nobody can).
"""

from __future__ import annotations

from games.catalog.drakon.rules.effects import (
    best_seats,
    draw_tiles,
    finish_game,
    lose_coin_now,
    meet_at_turn_end,
    steal_random_tile,
)
from games.catalog.drakon.rules.lair import lair_of
from games.catalog.drakon.rules.legal import ability_actions
from games.catalog.drakon.rules.rooms import enter_room
from games.catalog.drakon.rules.state import (
    ACTION,
    AFTER_ACTION,
    AFTER_CHECK,
    COIN_LOSS,
    DEAL,
    END_BLOCKED,
    END_EXHAUSTED,
    END_TURN_LIMIT,
    ENTER,
    KNIGHT_TAKE,
    OFFER_ACTION,
    PROTECT_KIND,
    RULES_END_OF_TURN,
    ability_ready,
    drawn_event,
    edition_of,
    pool_of,
    private_events,
    rules_version_of,
)
from games.catalog.drakon.rules.targets import can_act, coins_can_change_hands
from games.engine.base import Event, State

# Running the task stack -----------------------------------------------------------------------


def run_tasks(state: State, events: list[Event]) -> None:
    """Carry out automatic steps until a decision is on top or the game is over."""
    pending = state["pending"]
    while not state["over"]:
        if not pending:
            _start_next_turn(state, events)
            continue
        task = pending[-1]
        if "seat" in task:
            return
        pending.pop()
        AUTO[task["kind"]](state, task, events)


def _start_next_turn(state: State, events: list[Event]) -> None:
    """A-4, A-6, D-12: next seat clockwise; skip a seat that cannot act; end when nobody can.

    Under rules version 2 the turn that ends first meets Drakon if it ends in her
    chamber (A-11), and the no-progress guard (ruling 6, ``exhausted``) ends the
    game only when no coin can change hands any more (ruling 20). The round
    limit stays as the bound on a match's length.
    """
    n = state["n_players"]
    edition = edition_of(state)
    later = rules_version_of(state) >= RULES_END_OF_TURN
    while not state["over"]:
        if later and state["turn"] > 0:
            meet_at_turn_end(state, events)
            state["met"] = []
        seat = state["first_seat"] if state["turn"] == 0 else (state["active"] + 1) % n
        state["turn"] += 1
        state["active"] = seat
        lair = lair_of(state)
        if not can_act(state, lair, seat) and not any(
            can_act(state, lair, other) for other in range(n)
        ):
            finish_game(state, END_BLOCKED, best_seats(state), events)
            return
        if not any(state["hands"]) and state["dry_since"] is None:
            state["dry_since"] = state["turn"]
        dry_long = (
            not any(state["hands"])
            and state["dry_since"] is not None
            and state["turn"] - state["dry_since"] >= edition.dry_rounds * n
        )
        too_long = state["turn"] > edition.max_rounds * n
        if dry_long and (not later or not coins_can_change_hands(state, lair)):
            finish_game(state, END_EXHAUSTED, best_seats(state), events)
            return
        if too_long:
            finish_game(state, END_TURN_LIMIT, best_seats(state), events)
            return
        events.append({"type": "turn_started", "seat": seat, "turn": state["turn"]})
        if can_act(state, lair, seat):
            state["pending"].append({"kind": ACTION, "seat": seat})
            return
        events.append({"type": "turn_skipped", "seat": seat})


# Automatic steps ------------------------------------------------------------------------------


def _auto_deal(state: State, task: dict, events: list[Event]) -> None:
    """A-3 step 6: each player draws the starting hand, in turn order."""
    n = state["n_players"]
    size = edition_of(state).hand_size
    for offset in range(n):
        seat = (state["first_seat"] + offset) % n
        drawn = draw_tiles(state, seat, size)
        events.append({"type": "hand_dealt", "seat": seat, "count": len(drawn)})
        events.extend(private_events(state, [seat], drawn_event(state, seat, drawn)))


def _auto_coin_loss(state: State, task: dict, events: list[Event]) -> None:
    """A coin loss aimed at a hero: the Druid may cancel it first (D-17)."""
    victim = task["victim"]
    if not state["coins"][pool_of(state, victim)]:
        events.append({"type": "no_coin", "seat": victim, "cause": task["cause"]})
        return
    protector = edition_of(state).protector
    if task["protectable"] and ability_ready(state, victim, protector):
        state["pending"].append(
            {
                "kind": PROTECT_KIND[protector],
                "seat": victim,
                "to": task["to"],
                "cause": task["cause"],
                "by": task["by"],
            }
        )
        return
    lose_coin_now(state, victim, task["to"], task["cause"], events)


def _auto_after_check(state: State, task: dict, events: list[Event]) -> None:
    """After the action: offer the ability window only if an ability could be used now."""
    seat = task["who"]
    if not state["options"]["heroes"] or state["abilities_used"][seat]:
        return
    if ability_actions(state, lair_of(state), seat):
        state["pending"].append({"kind": AFTER_ACTION, "seat": seat})


def _auto_offer_action(state: State, task: dict, events: list[Event]) -> None:
    """After an ability used before the action: the action, unless none is possible."""
    seat = task["who"]
    if can_act(state, lair_of(state), seat):
        state["pending"].append({"kind": ACTION, "seat": seat})
    else:
        events.append({"type": "no_action", "seat": seat})


def _auto_knight_take(state: State, task: dict, events: list[Event]) -> None:
    """D-16 "then": the Knight takes a random tile from the moved hero's hand."""
    steal_random_tile(state, task["who"], task["target"], task.get("cause", "knight"), events)


AUTO = {
    DEAL: _auto_deal,
    ENTER: enter_room,
    COIN_LOSS: _auto_coin_loss,
    AFTER_CHECK: _auto_after_check,
    OFFER_ACTION: _auto_offer_action,
    KNIGHT_TAKE: _auto_knight_take,
}
