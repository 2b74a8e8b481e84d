"""Drakon rules version 2 (issue: two later-edition rules put right) and version 1 kept.

Version 2: a hero that ends its turn in Drakon's chamber meets her, however
the turn ended (A-11 as the rulebook words it); the no-progress guard
(ruling 6) ends a game only when no coin can change hands (ruling 20).
Matches set up under version 1 keep playing and replaying as they were.
"""

from __future__ import annotations

from games.catalog.drakon import components as C
from games.catalog.drakon.builders import build_state, start_next_turn
from games.catalog.drakon.rules import GAME
from games.engine.replay import replay
from games.engine.testing import play_random_game
from games.history.verification import verify_log

#: A loop heroes can walk for ever: (2,0) -> (3,0) -> (3,1) -> (2,1) -> (2,0),
#: entered from the Entrance through (1,0) and never left.
LOOP = {
    (1, 0): "empty {E}",
    (2, 0): "empty {E}",
    (3, 0): "empty {N}",
    (3, 1): "empty {W}",
    (2, 1): "empty {S}",
}
DRY = C.EDITIONS["4e"].dry_rounds


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


# A hero meets Drakon when its turn ends in her chamber ---------------------------------------


def standing_with_drakon(version):
    """Seat 0 stands with Drakon on the Entrance holding 2 coins and a tile to place."""
    return build_state(
        2,
        rooms={(1, 0): "empty {E}"},
        heroes=["0,0", "1,0"],
        drakon="0,0",
        hands=[["empty A1"], ["empty A1"]],
        coins=[[2, 3], [1]],
        stack=["empty", "empty"],
        rules_version=version,
    )


def test_placing_a_room_while_standing_with_drakon_ends_the_turn_with_a_meeting():
    state = standing_with_drakon(2)
    place = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "place")
    new, events = GAME.apply(state, 0, place)
    assert of_type(events, "drakon_encounter") == [
        {"type": "drakon_encounter", "at": "0,0", "heroes": [0]}
    ]
    assert len(new["coins"][0]) == 1 and new["heroes"][0] == "0,0"
    assert new["met"] == [] and GAME.current_seats(new) == [1]
    GAME.check_invariants(new)


def test_under_version_1_the_same_placement_meets_nobody():
    state = standing_with_drakon(1)
    assert "rules_version" not in state and "met" not in state
    place = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "place")
    new, events = GAME.apply(state, 0, place)
    assert not of_type(events, "drakon_encounter")
    assert new["coins"][0] == [2, 3] and "met" not in new


def test_walking_away_from_drakon_ends_the_turn_without_a_meeting():
    state = standing_with_drakon(2)
    new, events = GAME.apply(state, 0, {"type": "move", "to": "1,0"})
    assert not of_type(events, "drakon_encounter")
    assert new["coins"][0] == [2, 3]


def test_a_hero_that_met_drakon_during_its_turn_does_not_meet_her_again_at_its_end():
    state = build_state(
        2,
        rooms={(0, -1): "empty {N}"},
        heroes=["0,-1", "0,-1"],
        drakon="0,0",
        coins=[[2, 3], [1]],
        hands=[[], ["empty A1"]],
        rules_version=2,
    )
    new, events = GAME.apply(state, 0, {"type": "move", "to": "0,0"})
    assert len(of_type(events, "drakon_encounter")) == 1
    assert len(new["coins"][0]) == 1  # one coin lost, not two
    assert new["heroes"][0] == "0,0" and new["drakon"] == "0,0"


def test_a_skipped_turn_in_drakons_chamber_ends_with_a_meeting():
    # Seat 1 stands with Drakon on the Entrance, holds no tile and has no room to
    # move to: its turn is skipped, and so ends in her chamber.
    state = build_state(
        2,
        rooms={(0, -1): "empty {S}"},
        heroes=["0,-1", "0,0"],
        drakon="0,0",
        coins=[[1], [2, 3]],
        hands=[["empty A1"], []],
        stack=["empty"],
        active=0,
        decision=False,
        rules_version=2,
    )
    new, events = start_next_turn(state)
    assert [e["type"] for e in events] == [
        "turn_started",
        "turn_skipped",
        "drakon_encounter",
        "coin_lost",
        "coin_lost_value",
        "turn_started",
    ]
    assert of_type(events, "drakon_encounter")[0]["heroes"] == [1]
    assert len(new["coins"][1]) == 1 and GAME.current_seats(new) == [0]
    old, old_events = start_next_turn({**state, "rules_version": 1})
    assert not of_type(old_events, "drakon_encounter")


# The no-progress guard waits while a coin can change hands -----------------------------------


def dry_position(version, **extra):
    """Every hand empty for long enough that the version 1 guard ends the game now."""
    state = build_state(
        2,
        rooms=LOOP | extra.pop("rooms", {}),
        heroes=["2,0", "3,1"],
        coins=[[], [2]],
        stack=[],
        decision=False,
        active=1,
        turn=1 + 2 * DRY,
        rules_version=version,
        **extra,
    )
    return {**state, "dry_since": 1}


def test_with_nothing_to_gain_or_lose_the_guard_still_ends_the_game():
    for version in (1, 2):
        new, _ = start_next_turn(dry_position(version))
        assert new["end"] == {"reason": "exhausted", "winners": [1]}, version


def test_an_unreachable_find_a_coin_room_does_not_keep_the_game_going():
    # (0,1) is a Find a Coin room, but nobody can leave the loop to reach it.
    new, _ = start_next_turn(dry_position(2, rooms={(0, 1): "find_coin {N}"}))
    assert new["end"]["reason"] == "exhausted"


def test_a_reachable_find_a_coin_room_with_gold_in_the_hoard_keeps_the_game_going():
    rooms = {(3, 1): "find_coin {W}"}  # on the loop itself
    new, _ = start_next_turn(dry_position(2, rooms=rooms))
    assert not new["over"] and GAME.current_seats(new) == [0]
    old, _ = start_next_turn(dry_position(1, rooms=rooms))
    assert old["end"]["reason"] == "exhausted"  # version 1 ended it


def test_an_empty_hoard_makes_the_find_a_coin_room_worthless_to_the_guard():
    rooms = {(3, 1): "find_coin {W}"}
    new, _ = start_next_turn(dry_position(2, rooms=rooms, hoard=[]))
    assert new["end"]["reason"] == "exhausted"


def test_drakon_in_reach_of_a_hero_with_coins_keeps_the_game_going():
    # Drakon sends heroes to the Entrance, from where (1,0) holding her is reachable.
    new, _ = start_next_turn(dry_position(2, drakon="1,0"))
    assert not new["over"]


# Matches of version 1 replay as they were played ---------------------------------------------


def play_first_choices(state, moves):
    """Play the first legal action for ``moves`` steps (or to the end); the actions."""
    log = []
    for _ in range(moves):
        if state["over"]:
            break
        seat = GAME.current_seats(state)[0]
        action = GAME.legal_actions(state, seat)[0]
        state, _events = GAME.apply(state, seat, action)
        log.append((seat, action))
    return state, log


def test_version_1_matches_set_up_and_replay_as_before():
    assert GAME.rules_version == 2 and GAME.knows_rules_version(1)
    assert not GAME.knows_rules_version(3)
    old = GAME.setup_for(1, 3, {}, "old-match")
    assert "rules_version" not in old and "met" not in old
    assert GAME.setup(3, {}, "old-match")["rules_version"] == 2
    final, log = play_first_choices(old, 40)
    assert "rules_version" not in final
    assert replay(GAME, 3, {}, "old-match", log, 1) == final
    assert replay(GAME, 3, {}, "old-match", log) != final  # the current version is another game
    run = play_random_game(GAME, 3, {}, "new-match", thorough=False)
    assert replay(GAME, 3, {}, "new-match", run.moves, 2) == run.final


def test_the_fairness_check_replays_an_old_match_under_its_own_version():
    state = GAME.setup_for(1, 2, {}, "fair")
    moves = []

    class Move:
        def __init__(self, seq, seat, action, events):
            self.seq, self.seat, self.action, self.events = seq, seat, action, events

    for seq in range(1, 30):
        if state["over"]:
            break
        seat = GAME.current_seats(state)[0]
        action = GAME.legal_actions(state, seat)[0]
        state, events = GAME.apply(state, seat, action)
        moves.append(Move(seq, seat, action, events))
    report = verify_log(GAME, 2, {}, "fair", moves, state, rules_version=1)
    assert report.final_state_matches and not report.mismatched_moves
    current = verify_log(GAME, 2, {}, "fair", moves, state)
    assert not current.final_state_matches  # the current version's state records its version
