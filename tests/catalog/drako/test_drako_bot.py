"""Drako bots: legal, repeatable, blind to the other side's secrets, and the heuristic
level beats the random one on both sides."""

from __future__ import annotations

import pytest

from games.catalog.drako import bot
from games.catalog.drako.builders import position
from games.catalog.drako.rules import GAME, seat_of
from games.engine.rng import Rng
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, play


def play_out(levels, seed):
    state = GAME.setup(2, {"sides": "seat1_dragon"}, seed)
    rng = Rng.from_seed("rng-" + seed)
    while state["phase"] != "over":
        seat = GAME.current_seats(state)[0]
        state, _ = GAME.apply(state, seat, bot.choose(state, seat, rng, levels[seat]))
    return state["winner"]


@pytest.mark.parametrize("level", bot.LEVELS)
def test_bot_is_legal_and_repeatable(level):
    for i in range(30):
        state = GAME.setup(2, GAME.option_matrix(2)[i % 12], f"bot-legal-{i}")
        rng = Rng.from_seed(f"walk-{i}")
        for _ in range(i * 3):
            if state["phase"] == "over":
                break
            seat = GAME.current_seats(state)[0]
            first = bot.choose(state, seat, Rng.from_seed("same"), level)
            assert first == bot.choose(state, seat, Rng.from_seed("same"), level)
            assert first in GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, bot.choose(state, seat, rng, level))


def test_bot_refuses_out_of_turn_and_unknown_levels():
    state = GAME.setup(2, {"sides": "seat1_dragon"}, "x")
    with pytest.raises(ValueError):
        bot.choose(state, 1, Rng.from_seed("x"))
    with pytest.raises(ValueError):
        bot.choose(state, 0, Rng.from_seed("x"), level="grandmaster")


def test_bot_only_uses_what_its_seat_may_see():
    for i in range(40):
        state = GAME.setup(2, GAME.option_matrix(2)[i % 12], f"bot-blind-{i}")
        rng = Rng.from_seed(f"walk-{i}")
        for _ in range(i * 2):
            if state["phase"] == "over":
                break
            seat = GAME.current_seats(state)[0]
            state, _ = GAME.apply(state, seat, bot.choose(state, seat, rng, "random"))
        if state["phase"] == "over":
            continue
        seat = GAME.current_seats(state)[0]
        other = GAME.perturb_secrets(state, seat, Rng.from_seed(f"perturb-{i}"))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        for level in bot.LEVELS:
            assert bot.choose(other, seat, Rng.from_seed("b"), level) == bot.choose(
                state, seat, Rng.from_seed("b"), level
            )


def test_heuristic_beats_random_on_both_sides():
    dragon_wins = sum(play_out(("heuristic", "random"), f"hd-{i}") == DRAGON for i in range(20))
    dwarf_wins = sum(play_out(("random", "heuristic"), f"hw-{i}") == DWARVES for i in range(20))
    assert dragon_wins >= 15 and dwarf_wins >= 15


def test_heuristic_dragon_bites_the_weakest_dwarf():
    state = position(
        dwarves={"fury": "1,0", "net": "0,1"},
        wounds={"net": 2},
        hands={DRAGON: ["G04"], DWARVES: ["W03"]},
    )
    action = bot.choose(state, seat_of(state, DRAGON), Rng.from_seed("x"), "heuristic")
    assert action == play(DRAGON, "G04", "BITE:2", dwarf="net")


def test_heuristic_dragon_leaves_the_crossbow_line():
    state = position(
        dwarves={"xbow": "2,-2", "net": "-2,0", "fury": "0,2"},
        hands={DRAGON: ["G02"], DWARVES: ["W03"]},
        piles={DRAGON: 0},
    )
    action = bot.choose(state, seat_of(state, DRAGON), Rng.from_seed("x"), "heuristic")
    assert action["type"] == "play"
    from games.catalog.drako.rules import between

    assert between("2,-2", action["to"]) is None


def test_heuristic_dwarves_net_and_close_in():
    state = position(to_move=DWARVES, hands={DWARVES: ["W10", "W03"]})
    seat = seat_of(state, DWARVES)
    assert bot.choose(state, seat, Rng.from_seed("x"), "heuristic")["symbol"] == "NET"
    state, _ = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1"))
    move = bot.choose(state, seat, Rng.from_seed("x"), "heuristic")
    assert move["type"] == "move"
    from games.catalog.drako.rules import distance

    before = distance(state["dwarves"][move["dwarf"]]["at"], "0,0")
    assert distance(move["to"], "0,0") < before


def test_the_boards_tables_of_lines_and_distances_are_the_walked_geometry():
    """``ray``, ``between`` and ``distance`` read tables worked out once (the bots'
    hot path); they answer what walking the hexes answers, and a caller may change
    the list it gets without changing the next answer."""
    from games.catalog.drako import components as DC
    from games.catalog.drako import rules as drako_rules

    on_board = set(DC.HEXES)
    for start in DC.HEXES:
        q, r = DC.parse_hex(start)
        for direction, (dq, dr) in enumerate(DC.DIRECTIONS):
            walked, x, y = [], q + dq, r + dr
            while DC.hex_key(x, y) in on_board:
                walked.append(DC.hex_key(x, y))
                x, y = x + dq, y + dr
            line = drako_rules.ray(start, direction)
            assert line == walked
            line.append("spoiled")
            assert drako_rules.ray(start, direction) == walked
            for index, end in enumerate(walked):
                assert drako_rules.between(start, end) == walked[:index]
        for end in DC.HEXES:
            bq, br = DC.parse_hex(end)
            assert drako_rules.distance(start, end) == max(
                abs(q - bq), abs(r - br), abs(q + r - bq - br)
            )
            if end != start and not any(end in drako_rules.ray(start, d) for d in range(6)):
                assert drako_rules.between(start, end) is None
    assert drako_rules.between(DC.HEXES[0], DC.HEXES[0]) is None
