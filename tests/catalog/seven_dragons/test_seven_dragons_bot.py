"""Seven Dragons bots: legal at both levels, games between them end, and the heuristic
grows its own colour, blocks the leader and uses actions sensibly."""

from __future__ import annotations

import pytest

from games.catalog.seven_dragons import bot
from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME, cell_key, group_sizes
from games.engine.rng import Rng
from games.engine.testing import play_random_game


@pytest.mark.parametrize(
    ("levels", "n"), [(("heuristic",) * 3, 3), (("heuristic", "random"), 2), (("random",) * 4, 4)]
)
def test_bot_games_end(levels, n):
    for i in range(2):

        def chooser(state, seat, legal, rng):
            action = bot.choose(state, seat, rng, levels[seat])
            assert action in legal
            return action

        run = play_random_game(GAME, n, {}, f"sd-bots-{n}-{i}", thorough=False, chooser=chooser)
        assert run.final["over"]


def test_the_heuristic_beats_random_play_more_often_than_not():
    wins = 0
    games = 8
    for i in range(games):

        def chooser(state, seat, legal, rng):
            return bot.choose(state, seat, rng, "heuristic" if seat == 0 else "random")

        run = play_random_game(GAME, 2, {}, f"sd-duel-{i}", thorough=False, chooser=chooser)
        wins += 0 in run.final["winners"]
    assert wins > games // 2


def test_the_heuristic_completes_its_own_seven_when_it_can():
    row = ["DR-S-red", "DR-S-red", "DR-H-red-gold", "DR-RBW", "DR-H-red-blue", "DR-H-red-green"]
    board = {f"{i + 1},0": name for i, name in enumerate(row)}
    state = position(
        board=board,
        pile=["ACT-ROTATE"],
        hands=[["DR-H-red-black", "DR-S-blue", "ACT-ZAP"], []],
        goals=["red", "blue"],
    )
    # A Zap on top would turn the silver dragon red too, but only after zapping a red card.
    action = bot.choose(state, 0, Rng.from_seed("x"), "heuristic")
    assert action["type"] == "place" and action["card"] == "DR-H-red-black"
    assert GAME.apply(state, 0, action)[0]["winners"] == [0]


def test_the_heuristic_does_not_hand_the_leader_a_seven_and_zaps_its_group():
    # Gold has six in a row; the bot (goal red) holds a gold card and a Zap.
    row = ["DR-S-gold", "DR-S-gold", "DR-H-gold-blue", "DR-H-gold-green", "DR-H-gold-black"]
    board = {f"{i + 1},0": name for i, name in enumerate(row)}
    board["6,0"] = "DR-V-gold-blue"
    state = position(
        board=board,
        pile=["ACT-ROTATE"],
        hands=[["DR-V-red-gold", "ACT-ZAP"], []],
        goals=["red", "green"],
    )
    assert GAME.view(state, 0)["largest"]["gold"] == 6
    rng = Rng.from_seed("block")
    action = bot.choose(state, 0, rng, "heuristic")
    assert action["type"] == "action" and action["card"].startswith("ACT-ZAP")
    state, _ = GAME.apply(state, 0, action)
    if state["pending"]:
        zap = bot.choose(state, 0, rng, "heuristic")
        assert zap["type"] == "zap" and zap["cell"] in {f"{x},0" for x in range(2, 6)}


def test_the_heuristic_trades_hands_with_the_fullest_hand():
    state = position(
        hands=[["ACT-TRADEHANDS"], ["DR-Q01"], ["DR-Q02", "DR-Q03", "DR-Q04", "DR-Q05"]],
        deck=30,
        active=0,
    )
    state, _ = GAME.apply(state, 0, {"type": "action", "card": "ACT-TRADEHANDS#1", "mode": "top"})
    choice = bot.choose(state, 0, Rng.from_seed("t"), "heuristic")
    counts = GAME.view(state, 0)["hand_counts"]
    assert choice == {"type": "trade_hands", "with": max((1, 2), key=lambda s: counts[s])}


def test_the_bots_one_pass_group_count_equals_the_rules_along_random_games():
    """The heuristic's fast count of every colour's largest group (its rollouts' hot
    path) is the rules' ``group_sizes``, on boards of random games, with every
    colour the silver dragon can take."""
    checked = 0
    for index in range(4):
        run = play_random_game(GAME, 3, {}, f"groups-{index}", thorough=False)
        state = GAME.setup(3, run.options, run.seed)
        for move, (seat, action) in enumerate(run.moves):
            if move % 3 == 0:
                board = state["board"]
                for silver in (*C.COLOURS, C.WILD):
                    grid = bot._grid(board, silver)
                    expected = {
                        colour: (group_sizes(grid, colour) or [0])[0] for colour in C.COLOURS
                    }
                    assert bot._largest_groups(board, silver) == expected
                    checked += 1
            state, _events = GAME.apply(state, seat, action)
    assert checked > 50


def test_the_groups_after_one_more_card_equal_a_recount_along_random_games():
    """``_Groups.with_card`` (the heuristic's placement score, from the new card's
    neighbours alone) equals recounting the whole board with the card laid, for
    every legal placement of the hands and every colour the silver dragon takes."""
    checked = 0
    for index in range(3):
        run = play_random_game(GAME, 3, {}, f"with-card-{index}", thorough=False)
        state = GAME.setup(3, run.options, run.seed)
        for move, (seat, action) in enumerate(run.moves):
            if move % 4 == 0:
                board = state["board"]
                for silver in (C.WILD, C.COLOURS[move % 5]):
                    groups = bot._Groups(board, silver)
                    for legal in GAME.legal_actions(state, seat):
                        if legal["type"] != "place":
                            continue
                        laid = {**board, legal["cell"]: [legal["card"], legal["rot"]]}
                        where = bot.parse_cell(legal["cell"])
                        expected = bot._largest_groups(laid, silver)
                        assert groups.with_card(where, legal["card"], legal["rot"]) == expected
                        checked += 1
            state, _events = GAME.apply(state, seat, action)
    assert checked > 500


#: Red's row from the silver dragon: with the wild silver, a group of five cards.
RED_ROW = {"1,0": "DR-S-red", "2,0": "DR-S-red", "3,0": "DR-H-red-gold", "4,0": "DR-H-red-blue"}
#: The same row one card longer: six red, a red card away from seven.
RED_SIX = {**RED_ROW, "5,0": "DR-H-red-black"}


def test_the_strong_levels_evaluation_favours_the_goal_nearer_seven():
    """``evaluate`` judges an unfinished sample: the seat whose goal colour's group
    leads is favoured, and in two players the two chances add up to one."""
    hands = [["DR-Q01"], ["DR-Q02"]]
    state = position(board=RED_ROW, hands=hands, goals=["red", "green"])
    assert bot.evaluate(state, 0) > 0.5
    assert bot.evaluate(state, 0) + bot.evaluate(state, 1) == pytest.approx(1.0)
    even = position(hands=[["DR-S-red"], ["DR-S-green"]], goals=["red", "green"])
    assert bot.evaluate(even, 0) == pytest.approx(0.5)


def test_the_evaluation_counts_the_cards_in_hand():
    """What each player could lay next counts more than the groups on the table
    (the fitted weights, docs/bots.md): a red card in the red player's hand
    raises its chances, and a win in the hand of the player to move is
    nearly certain, while the same card in the hand of a player who must wait
    is worth far less."""
    green_hand = ["DR-S-blue"]
    holding = position(board=RED_SIX, hands=[["DR-V-red-gold"], green_hand], goals=["red", "green"])
    empty_handed = position(
        board=RED_SIX, hands=[["DR-S-black"], green_hand], goals=["red", "green"]
    )
    assert (
        bot._groups_of(bot._board_key(holding["board"]), C.WILD).reach(["DR-V-red-gold"], "red")
        == 7
    )
    assert bot.evaluate(holding, 0) > 0.99
    assert bot.evaluate(empty_handed, 0) < 0.9
    waiting = position(
        board=RED_SIX, hands=[["DR-V-red-gold"], green_hand], goals=["red", "green"], active=1
    )
    assert 0.5 < bot.evaluate(waiting, 0) < 0.95
    assert bot.evaluate(waiting, 1) == pytest.approx(1 - bot.evaluate(waiting, 0))


@pytest.mark.parametrize("index", range(3))
def test_reach_is_the_best_group_any_legal_placement_of_the_hand_makes(index):
    """``_Groups.reach`` (what ``evaluate`` reads) against laying each dragon card
    of the hand at each legal cell and rotation and counting the board again."""
    run = play_random_game(GAME, 2, {}, f"reach-{index}", thorough=False)
    state = GAME.setup(2, run.options, run.seed)
    checked = 0
    for move, (seat, action) in enumerate(run.moves):
        if move % 3 == 0 and not state["pending"]:
            board = state["board"]
            silver = bot.silver_colour(state["pile"])
            groups = bot._Groups(board, silver)
            hand = state["hands"][seat]
            grid = bot._grid(board, silver)
            for colour in C.COLOURS:
                best = bot._largest_groups(board, silver)[colour]
                for card in hand:
                    if C.is_dragon(card):
                        for cell, rot in bot.placements(grid, card):
                            laid = {**board, cell_key(*cell): [card, rot]}
                            best = max(best, bot._largest_groups(laid, silver)[colour])
                assert groups.reach(hand, colour) == best
                checked += 1
        state, _events = GAME.apply(state, seat, action)
    assert checked > 40


def test_only_the_player_to_move_has_a_win_in_hand():
    """With three players a rival's winning card threatens at once only when that
    rival is the one to move: the next player may still block it."""
    hands = [["DR-S-blue"], ["DR-S-gold"], ["DR-V-red-gold"]]
    goals = ["green", "blue", "red"]
    between = position(board=RED_SIX, hands=hands, goals=goals, active=1)
    assert bot.evaluation_features(between, 0)[2] == 0
    threat = position(board=RED_SIX, hands=hands, goals=goals, active=2)
    assert bot.evaluation_features(threat, 0)[2] == -1
    assert bot.evaluation_features(threat, 2)[2] == 1
    assert bot.evaluate(threat, 0) < bot.evaluate(between, 0)
