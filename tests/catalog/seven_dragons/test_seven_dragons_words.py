"""Seven Dragons in words: the grid panel by panel, the silver dragon, the groups, the pile,
every hand's size and only the viewer's own goal; the end-of-match breakdown."""

from __future__ import annotations

from django.utils import translation

from games.catalog.seven_dragons import presenter
from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import EXHAUSTED, GAME, SEVEN

NAMES = ["Ann", "Bob"]


def scene():
    return position(
        board={"1,0": "DR-S-red", "0,1": ("DR-H-red-blue", 180)},
        hands=[["DR-V-red-blue", "ACT-ZAP"], []],
        goals=["red", "blue"],
        pile=["ACT-MOVE"],
    )


def test_every_card_and_panel_the_silver_dragon_and_the_groups_are_described():
    state = scene()
    lines = presenter.describe_board(GAME.view(state, 0), NAMES)
    assert lines[0] == "The silver dragon counts as green."
    assert "3 cards on the grid:" in lines
    assert "Column 0, row 0: the silver dragon, counting as green." in lines
    assert "Column 1, row 0: dragon card red." in lines
    # Turned upside down: the blue half is now on top.
    assert "Column 0, row 1: dragon card red/blue: top blue and blue, bottom red and red." in lines
    assert "Largest group of each colour: red 1, gold 0, blue 1, green 1, black 0." in lines
    assert "Action pile: 1 card, Move a Card (green) on top." in lines
    assert f"Cards in the deck: {len(state['deck'])}." in lines
    hands = [len(hand) for hand in state["hands"]]
    assert f"Cards in hand: Ann {hands[0]}, Bob {hands[1]}." in lines
    assert "3 goals are set aside face down." in lines
    assert "Ann to play." in lines


def test_only_the_viewers_own_goal_and_cards_are_named():
    state = scene()
    ann = presenter.describe_board(GAME.view(state, 0), NAMES)
    assert "Your secret goal: red." in ann
    assert "Your cards: Zap a Card (red), dragon card red/blue." in ann
    bob = "\n".join(presenter.describe_board(GAME.view(state, 1), NAMES))
    assert "Your secret goal: blue." in bob and "red." not in bob.split("Your secret goal")[1]
    assert "Zap a Card" not in bob
    spectator = "\n".join(presenter.describe_board(GAME.view(state, None), NAMES))
    assert "goal:" not in spectator.lower() and "Your" not in spectator


def test_once_over_every_goal_and_hand_is_named():
    state = scene()
    state.update(over=True, winners=[0], end_reason=EXHAUSTED, active=None)
    lines = presenter.describe_board(GAME.view(state, None), NAMES)
    assert any(line.startswith("Ann: goal red; cards:") for line in lines)
    assert any(line.startswith("Bob: goal blue; cards:") for line in lines)
    assert "The cards ran out: Ann won with the largest group." in lines


def test_the_description_is_translated():
    for language in ("pl", "cs"):
        with translation.override(language):
            text = "\n".join(presenter.describe_board(GAME.view(scene(), 0), NAMES))
        assert "silver dragon" not in text and "Largest group" not in text
        assert "Your secret goal" not in text


def test_the_summary_shows_each_goal_and_its_largest_group():
    state = scene()
    state.update(over=True, winners=[1], end_reason=SEVEN, active=None)
    summary = presenter.final_summary(GAME.result(state).to_json(), NAMES)
    assert summary["columns"] == ["Goal colour", "Largest group of it"]
    assert summary["cells"] == [["red", "1"], ["blue", "1"]]
    assert summary["reason"] == "A group of seven dragons of a player's goal colour won the game."
    with translation.override("pl"):
        polish = presenter.final_summary(GAME.result(state).to_json(), NAMES)
    assert polish["cells"][0][0] != "red" and polish["columns"] != summary["columns"]


def test_the_board_s_caption_reads_right_for_one_card():
    state = position(hands=[["DR-V-red-blue"], []], goals=["red", "blue"])
    view = {**GAME.view(state, 0), "_names": NAMES, "_version": 1}
    caption = presenter.board_context(view, 0, NAMES)["description"]
    assert caption.startswith("Cards on the grid: 1; the silver dragon counts as ")
    with translation.override("pl"):
        caption = presenter.board_context(view, 0, NAMES)["description"]
    assert caption.startswith("Kart na stole: 1;")
