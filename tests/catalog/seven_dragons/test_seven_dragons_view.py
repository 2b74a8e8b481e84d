"""Seven Dragons for people: the clicks of a play and what the board draws for each.

A dragon card is a card in the hand, then a cell outlined on the grid, then an
orientation preview; actions choose their targets on the grid or among players.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog.seven_dragons import presenter
from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME
from games.panel.presenters import choice_level

NAMES = ["ada", "bruno", "cyril"]


def board_at(state, seat, path):
    view = {**GAME.view(state, seat), "_names": NAMES[: len(state["hands"])]}
    level = choice_level(GAME.legal_actions(state, seat), view, presenter, path)
    return level, presenter.board_context(view, seat, view["_names"], level)


def test_a_card_then_an_outlined_cell_then_an_orientation_preview():
    state = position(board={"1,0": "DR-RBW"}, hands=[["DR-H-red-green", "DR-S-blue"], []])
    level, board = board_at(state, 0, [])
    hand = presenter.private_context(GAME.view(state, 0), 0, NAMES[:2], level)["hand"]
    clickable = [h.card for h in hand if h.choice]
    assert clickable == ["DR-H-red-green", "DR-S-blue#1"]
    assert board["spots"] == [] and board["previews"] == []

    level, board = board_at(state, 0, ["card-DR-H-red-green"])
    spots = {s.key for s in board["spots"] if s.choice}
    legal = {a["cell"] for a in GAME.legal_actions(state, 0) if a["card"] == "DR-H-red-green"}
    assert spots == legal and "2,0" in spots

    level, board = board_at(state, 0, ["card-DR-H-red-green", "cell-2,0"])
    assert [p["rot"] for p in board["previews"]] == [0, 180]  # next to the rainbow both fit
    assert [s.target for s in board["spots"]] == ["chosen"]
    assert all(p["choice"].action_json for p in board["previews"])
    upside_down = board["previews"][1]["quads"]
    assert [q.letter for q in upside_down] == ["G", "G", "R", "R"]


def test_a_single_colour_card_needs_no_orientation_click():
    state = position(hands=[["DR-S-blue"], []])
    level, _board = board_at(state, 0, ["card-DR-S-blue#1"])
    assert all(choice.action_json for choice in level.choices)


def test_zap_targets_are_outlined_on_the_grid_and_the_silver_dragon_is_not_one():
    state = position(board={"1,0": "DR-S-red", "2,0": "DR-S-gold"}, hands=[["ACT-ZAP"], []])
    level, board = board_at(state, 0, ["card-ACT-ZAP#1"])
    assert [c.key for c in board["other_choices"]] == [
        "mode-top",
        "mode-top_no_effect",
        "mode-bottom",
    ]
    state, _ = GAME.apply(state, 0, {"type": "action", "card": "ACT-ZAP#1", "mode": "top"})
    _level, board = board_at(state, 0, [])
    targets = {c.key: c.target for c in board["cells"]}
    assert targets == {"0,0": "", "1,0": "zap", "2,0": "zap"}
    assert board["pending"] == "ada chooses a card to zap."


def test_trade_targets_are_named_players_and_set_aside_goals():
    state = position(hands=[["ACT-TRADEGOALS"], [], []])
    state, _ = GAME.apply(state, 0, {"type": "action", "card": "ACT-TRADEGOALS#1", "mode": "top"})
    _level, board = board_at(state, 0, [])
    labels = [c.label for c in board["other_choices"]]
    assert labels == [
        "Trade goals with bruno",
        "Trade goals with cyril",
        "Trade goals with the goal set aside no. 1",
        "Trade goals with the goal set aside no. 2",
    ]


def test_the_board_shows_silver_colour_pile_top_and_largest_groups_to_everyone():
    state = position(board={"1,0": "DR-S-red", "2,0": "DR-S-red"}, pile=["ACT-ZAP"], hands=[[], []])
    _level, board = board_at(state, 1, [])
    assert board["silver"]["name"] == "red" and board["silver"]["letter"] == "R"
    assert board["pile_top"]["label"] == "Zap a Card (red)"
    assert {g["colour"]: g["size"] for g in board["largest"]}["red"] == 3
    assert presenter.private_context(GAME.view(state, None), None, NAMES[:2], None) is None


@pytest.mark.parametrize(
    ("language", "legend"),
    [
        ("en", [("R", "red"), ("Y", "gold"), ("B", "blue"), ("G", "green"), ("K", "black")]),
        (
            "pl",
            [
                ("C", "czerwony"),
                ("Ż", "żółty"),
                ("N", "niebieski"),
                ("Z", "zielony"),
                ("K", "czarny"),
            ],
        ),
        ("cs", [("Č", "červený"), ("Ž", "žlutý"), ("M", "modrý"), ("Z", "zelený"), ("K", "černý")]),
    ],
)
def test_the_colours_and_their_letters_read_in_the_readers_language(language, legend):
    """The printed cards' yellow is żółty / žlutý (never złoty), and each letter fits its
    colour's word: the board's legend, its cards and the silver dragon's colour."""
    state = position(board={"1,0": "DR-S-gold"}, pile=["ACT-TRADEGOALS"], hands=[[], []])
    with translation.override(language):
        _level, board = board_at(state, 1, [])
    assert board["legend"] == legend
    assert board["silver"]["letter"] == legend[1][0]  # the Trade Goals card: yellow
