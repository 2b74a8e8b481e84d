"""The small steps many rules share: coins and tiles changing hands, Drakon's
encounter, an Escape win and the end of the game.

They change the state at once (no decision is involved) and append the
events that tell it, private ones to the seats that may see a value.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.catalog.drakon.rules.lair import ENTRANCE_KEY
from games.catalog.drakon.rules.state import (
    END_ESCAPE,
    END_GOAL,
    TO_START,
    coin_goal,
    coin_value_events,
    edition_of,
    escape_goal,
    gold_of,
    heroes_at,
    pool_of,
    pool_seats,
    private_events,
    random_index,
    tiles_of,
)
from games.engine.base import Event, State


def best_seats(state: State) -> list[int]:
    gold = [gold_of(state, seat) for seat in range(state["n_players"])]
    best = max(gold)
    return [seat for seat, value in enumerate(gold) if value == best]


def finish_game(state: State, reason: str, winners: list[int], events: list[Event]) -> None:
    """End at once: clear every pending step, record the winners, reveal the coins."""
    state["over"] = True
    state["active"] = None
    state["pending"] = []
    state["end"] = {"reason": reason, "winners": sorted(winners)}
    n = state["n_players"]
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "winners": sorted(winners),
            "gold": [gold_of(state, seat) for seat in range(n)],
            "coins": [sorted(state["coins"][pool_of(state, seat)]) for seat in range(n)],
        }
    )


def draw_tiles(state: State, seat: int, count: int) -> list[int]:
    """Draw up to ``count`` tiles from the top of the pile (A-5; none when it is empty)."""
    drawn = state["stack"][:count]
    del state["stack"][:count]
    state["hands"][seat].extend(drawn)
    return drawn


def escape_win(state: State, seat: int, room: str, events: list[Event]) -> bool:
    """A-14.1, D-10: entering an Escape or Portal room with enough gold wins the variant."""
    goal = escape_goal(state)
    if goal is None or room not in edition_of(state).escape_rooms or gold_of(state, seat) < goal:
        return False
    events.append({"type": "escaped", "seat": seat, "at": state["heroes"][seat]})
    finish_game(state, END_ESCAPE, pool_seats(state, pool_of(state, seat)), events)
    return True


def encounter(state: State, at: str, events: list[Event], exempt: Iterable[int] = ()) -> None:
    """A-11: every hero in Drakon's chamber goes to the Entrance and returns a random coin.

    ``exempt`` heroes are left alone (the end-of-turn meeting spares those that
    met her earlier in the turn); rules version 2 records who met her in ``met``.
    """
    victims = [seat for seat in heroes_at(state, at) if seat not in exempt]
    if not victims:
        return
    if "met" in state:
        state["met"].extend(victims)
    for seat in victims:
        state["heroes"][seat] = ENTRANCE_KEY
    encounter = {"type": "drakon_encounter", "at": at, "heroes": victims}
    if edition_of(state).start_collects:  # the first edition's sentence names the Start
        encounter["to"] = "start"
    events.append(encounter)
    for seat in victims:
        lose_coin_now(state, seat, None, "drakon", events)


def lose_coin_now(
    state: State,
    victim: int,
    to: int | None,
    cause: str,
    events: list[Event],
) -> None:
    """Take a random coin from the victim's pool: to the hoard, or to seat ``to`` (a steal)."""
    pool = state["coins"][pool_of(state, victim)]
    if not pool:
        events.append({"type": "no_coin", "seat": victim, "cause": cause})
        return
    value = pool.pop(random_index(state, len(pool)))
    if to is None and cause in TO_START:
        state["start_coins"].append(value)
        events.append({"type": "coin_to_start", "seat": victim, "cause": cause})
        return
    if to is None:
        state["hoard"].append(value)
        events.append({"type": "coin_lost", "seat": victim, "cause": cause})
        events.extend(
            coin_value_events(state, pool_seats(state, pool_of(state, victim)),
                     {"type": "coin_lost_value", "seat": victim, "value": value})
        )  # fmt: skip
        return
    state["coins"][pool_of(state, to)].append(value)
    events.append({"type": "coin_stolen", "seat": to, "victim": victim, "cause": cause})
    seen = pool_seats(state, pool_of(state, to)) + pool_seats(state, pool_of(state, victim))
    events.extend(
        coin_value_events(
            state, seen, {"type": "coin_stolen_value", "seat": to, "victim": victim, "value": value}
        )
    )
    check_coin_goal(state, to, events)


def gain_from_hoard(state: State, seat: int, cause: str, events: list[Event]) -> None:
    """Find a Coin: a random coin from the hoard (nothing when it is empty, D-21)."""
    hoard = state["hoard"]
    if not hoard:
        events.append({"type": "hoard_empty", "seat": seat, "cause": cause})
        return
    value = hoard.pop(random_index(state, len(hoard)))
    state["coins"][pool_of(state, seat)].append(value)
    events.append({"type": "coin_found", "seat": seat, "cause": cause})
    events.extend(
        coin_value_events(state, pool_seats(state, pool_of(state, seat)),
                 {"type": "coin_found_value", "seat": seat, "value": value})
    )  # fmt: skip
    check_coin_goal(state, seat, events)


def check_coin_goal(state: State, seat: int, events: list[Event]) -> None:
    """A-13: collecting a coin that brings the total (team pool) to the goal wins at once."""
    goal = coin_goal(state)
    if goal is not None and gold_of(state, seat) >= goal:
        finish_game(state, END_GOAL, pool_seats(state, pool_of(state, seat)), events)


def steal_random_tile(
    state: State, thief: int, victim: int, cause: str, events: list[Event]
) -> None:
    hand = state["hands"][victim]
    if not hand:
        events.append({"type": "no_tile", "seat": thief, "victim": victim, "cause": cause})
        return
    tile = hand.pop(random_index(state, len(hand)))
    state["hands"][thief].append(tile)
    events.append({"type": "tile_stolen", "seat": thief, "victim": victim, "cause": cause})
    room, pattern = tiles_of(state)[tile]
    detail = {"type": "tile_stolen_detail", "seat": thief, "victim": victim, "tile": tile,
              "room": room, "pattern": pattern}  # fmt: skip
    events.extend(private_events(state, [thief, victim], detail))


def meet_at_turn_end(state: State, events: list[Event]) -> None:
    """A-11 as the rulebook words it (rules version 2): a hero that *ends its turn* in
    Drakon's chamber meets her, however the turn ended (a placement, a skipped turn,
    an effect that moved Drakon), unless it met her earlier in that turn."""
    seat = state["active"]
    if seat is None or state["drakon"] is None or state["heroes"][seat] != state["drakon"]:
        return
    if seat not in state["met"]:
        encounter(state, state["drakon"], events, exempt=list(state["met"]))
