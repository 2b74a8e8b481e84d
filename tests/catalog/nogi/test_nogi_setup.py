"""Nogi za pas!: components (spec B), setup (A.1, D.1, D.2, D.40) and the registry entry."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from games.catalog.nogi import components as C
from games.catalog.nogi.rules import GAME, NogiGame
from games.engine import registry
from games.engine.base import IllegalAction, resolve_options


def test_registered_under_its_key():
    assert registry.get("nogi") is GAME
    assert isinstance(GAME, NogiGame)
    assert GAME.key == "nogi"
    assert GAME.title == "Nogi za pas!"
    assert GAME.rules_version == 2
    assert GAME.old_rules_versions == (1,)
    assert (GAME.min_players, GAME.max_players) == (2, 7)


def test_first_player_option():
    [option] = GAME.options
    assert option.key == "first_player"
    assert option.choices == [("random", "Random"), ("host", "Seat 1 starts")]
    assert option.default == "random"
    assert resolve_options(GAME, {}) == {"first_player": "random"}
    with pytest.raises(IllegalAction):
        resolve_options(GAME, {"first_player": "oldest"})
    with pytest.raises(IllegalAction):
        resolve_options(GAME, {"two_player_variant": False})


def test_component_values_match_spec_b():
    assert C.COLOURS == ("yellow", "green", "orange", "purple", "blue", "pink", "black")
    assert (*C.COLOURS, "white") == C.DICE
    assert (C.FIRST_FIELD, C.LAST_FIELD, C.KNIGHT_START, C.DRAGON_START) == (1, 36, 10, 0)
    assert C.BUNNY_FIELDS == (17, 21, 25, 30, 36)
    assert sorted(C.BUNNY_VALUES) == [1, 1, 1, 2, 2]
    assert sorted(C.DRAGON_TOKENS) == [3, 4, 5, 5, 6, 6, 7, 8]
    assert C.CASTLE_POINTS == (0, 5, 3, 2)
    assert C.CASTLE_SPACE_LABELS == ("X", "5", "3", "2")


def test_shields_are_table_b3():
    assert C.SHIELDS == (
        ("yellow", "green", "purple"),
        ("green", "orange", "blue"),
        ("orange", "purple", "pink"),
        ("purple", "blue", "black"),
        ("blue", "pink", "yellow"),
        ("pink", "black", "green"),
        ("black", "yellow", "orange"),
    )


def test_d40_shield_structure_is_a_fano_plane():
    shields = [set(shield) for shield in C.SHIELDS]
    for first, second in itertools.combinations(shields, 2):
        assert len(first & second) == 1
    assert Counter(colour for shield in shields for colour in shield) == dict.fromkeys(C.COLOURS, 3)
    for pair in itertools.combinations(C.COLOURS, 2):
        assert sum(set(pair) <= shield for shield in shields) == 1
    for first, second in itertools.combinations(shields, 2):
        assert len(first | second) == 5


def test_die_faces_are_table_b1():
    coloured = [(face.kind, face.n) for face in C.COLOURED_FACES]
    assert coloured == [
        ("NUM", 2),
        ("NUM", 3),
        ("NUM", 4),
        ("NUM_KEEP", 5),
        ("NUM_ANY", 3),
        ("MINUS", None),
    ]
    white = [(face.kind, face.n) for face in C.WHITE_FACES]
    assert white == [
        ("PLUS", None),
        ("ONE_PLUS_ONE", None),
        ("NUM_ANY", 2),
        ("NUM_ANY", 3),
        ("NUM_ANY", 4),
        ("MINUS", None),
    ]
    for colour in C.COLOURS:
        assert C.DIE_SPECS[colour].faces == C.COLOURED_FACES
        assert not C.DIE_SPECS[colour].any_knight
    assert C.DIE_SPECS["white"].faces == C.WHITE_FACES
    assert C.DIE_SPECS["white"].any_knight
    assert {"NUM_KEEP", "ONE_PLUS_ONE"} == C.KEEP_KINDS


def test_d1_setup_four_players():
    state = GAME.setup(4, {"first_player": "random"}, "d1")
    assert state["board"] == dict.fromkeys(C.COLOURS, 10)
    assert state["dragon"] == 0
    assert sorted(state["bunnies"]) == ["17", "21", "25", "30", "36"]
    assert sorted(state["bunnies"].values()) == [1, 1, 1, 2, 2]
    assert sorted(state["dragon_stack"]) == [3, 4, 5, 5, 6, 6, 7, 8]
    assert state["dragon_revealed"] == []
    assert state["dice"] == dict.fromkeys(C.DICE, "pool")
    assert state["castle"] == [] and state["castle_unplaced"] == [] and state["defeated"] == []
    assert [len(shields) for shields in state["shields"]] == [1, 1, 1, 1]
    dealt = [index for shields in state["shields"] for index in shields]
    assert len(set(dealt)) == 4  # 3 shields stay unused
    assert state["collected"] == [[], [], [], []]
    assert state["active"] == state["first_seat"]
    assert GAME.current_seats(state) == [state["first_seat"]]
    assert sorted(state["roll"]) == sorted(C.DICE)  # the start player rolled all 8 dice
    assert state["over"] is False and GAME.result(state) is None
    GAME.check_invariants(state)


def test_rolled_faces_come_from_the_die_tables():
    seen: dict[str, set] = {"coloured": set(), "white": set()}
    for i in range(200):
        state = GAME.setup(3, {}, f"faces-{i}")
        for die, rolled in state["roll"].items():
            key = "white" if die == "white" else "coloured"
            seen[key].add((rolled["kind"], rolled["n"]))
    assert seen["coloured"] == {(face.kind, face.n) for face in C.COLOURED_FACES}
    assert seen["white"] == {(face.kind, face.n) for face in C.WHITE_FACES}


@pytest.mark.parametrize("seed", [f"d2-{i}" for i in range(30)])
def test_d2_setup_two_players_two_shields_sharing_one_colour(seed):
    state = GAME.setup(2, {}, seed)
    assert [len(shields) for shields in state["shields"]] == [2, 2]
    dealt = [index for shields in state["shields"] for index in shields]
    assert len(set(dealt)) == 4  # 3 unused
    for seat in range(2):
        first, second = (set(C.SHIELDS[i]) for i in state["shields"][seat])
        assert len(first & second) == 1
        assert len(first | second) == 5
    assert state["board"] == dict.fromkeys(C.COLOURS, 10)
    assert sorted(state["roll"]) == sorted(C.DICE)


@pytest.mark.parametrize("n_players", range(2, 8))
def test_shields_per_player(n_players):
    state = GAME.setup(n_players, {}, f"shields-{n_players}")
    expected = 2 if n_players == 2 else 1
    assert [len(s) for s in state["shields"]] == [expected] * n_players
    assert len(state["collected"]) == n_players
    GAME.check_invariants(state)


def test_host_option_starts_with_seat_zero():
    for i in range(20):
        state = GAME.setup(5, {"first_player": "host"}, f"host-{i}")
        assert state["active"] == 0 and state["first_seat"] == 0


def test_random_option_can_start_with_any_seat():
    starts = {GAME.setup(4, {"first_player": "random"}, f"rand-{i}")["active"] for i in range(60)}
    assert starts == {0, 1, 2, 3}


def test_setup_is_determined_by_the_seed():
    assert GAME.setup(3, {}, "same") == GAME.setup(3, {}, "same")
    assert GAME.setup(3, {}, "same") != GAME.setup(3, {}, "other")


@pytest.mark.parametrize("n_players", [0, 1, 8])
def test_setup_refuses_bad_player_counts(n_players):
    with pytest.raises(IllegalAction):
        GAME.setup(n_players, {}, "bad")


def test_setup_refuses_unknown_options():
    with pytest.raises(IllegalAction):
        GAME.setup(3, {"first_player": "youngest"}, "bad")


def test_opening_events_repeat_the_first_roll():
    state = GAME.setup(3, {}, "opening")
    assert GAME.opening_events(state) == [
        {"type": "turn_started", "seat": state["first_seat"], "turn": 1},
        {"type": "dice_rolled", "seat": state["first_seat"], "faces": state["roll"]},
    ]
