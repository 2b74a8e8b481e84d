"""Drakon in words: the whole position a seat may see, and the end-of-match breakdown.

The description names every room by its name and where it lies (never by
coordinates), every figure, each hero's public counts, the pile, the hoard
and the goal, and the values of coins only for the viewer's own.
"""

from __future__ import annotations

import re

from django.utils import translation

from games.catalog.drakon import presenter
from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME, GAME_CLASSIC

COORDINATES = re.compile(r"-?\d+,-?\d+")
NAMES = ["Ann", "Bob", "Cy"]


def scene():
    return build_state(
        3,
        rooms={(1, 0): "find_coin {N,E}", (0, 1): "portal {N}"},
        heroes=["1,0", "0,0", "0,0"],
        drakon="0,1",
        coins=[[1, 2], [3], []],
        hands=[["harp"], ["whirlwind", "empty"], []],
        options={"heroes": True},
    )


def test_every_room_figure_and_count_is_described_by_name_and_place():
    lines = presenter.describe_board(GAME.view(scene(), 0), NAMES)
    text = "\n".join(lines)
    assert not COORDINATES.search(text)
    assert "Drakon: Portal (1 north of the Entrance)." in lines
    assert "The lair has 3 chambers:" in lines
    assert "Entrance Chamber: arrows north, east, west. Here: Bob (Warrior), Cy (Ranger)." in lines
    assert "Portal (1 north of the Entrance): arrows north. Here: Drakon." in lines
    assert "Find a Coin (1 east of the Entrance): arrows north, east. Here: Ann (Knight)." in lines
    assert (
        "Ann (Knight): Find a Coin (1 east of the Entrance); 2 coins, 1 tile in hand. "
        "Ability unused."
    ) in lines
    assert "Bob (Warrior): Entrance Chamber; 1 coin, 2 tiles in hand. Ability unused." in lines
    assert f"Tiles in the pile: {GAME.view(scene(), 0)['stack']}." in lines
    assert "Goal: 10 gold." in lines
    assert "Your coins: 1 + 2 = 3 gold." in lines
    assert "Your tiles: Magic Harp." in lines
    assert "Ann places a chamber or moves." in lines


def test_a_seat_reads_its_own_coins_and_tiles_and_nobody_elses():
    mine = presenter.describe_board(GAME.view(scene(), 1), NAMES)
    assert "Your coins: 3 = 3 gold." in mine
    assert "Your tiles: Whirlwind, Empty Chamber." in mine
    spectator = "\n".join(presenter.describe_board(GAME.view(scene(), None), NAMES))
    assert "Your coins" not in spectator and "Whirlwind" not in spectator
    assert "Magic Harp" not in spectator and "1 + 2" not in spectator


def test_without_heroes_no_ability_is_mentioned():
    state = build_state(2, rooms={(1, 0): "empty {E}"}, coins=[[1], []])
    text = "\n".join(presenter.describe_board(GAME.view(state, 0), NAMES[:2]))
    assert "Ability" not in text
    assert "Drakon is not in the lair yet." in text


def test_the_description_is_translated():
    with translation.override("pl"):
        text = "\n".join(presenter.describe_board(GAME.view(scene(), 0), NAMES))
    assert "Portal (1 na północ od komnaty wejściowej)" in text
    assert "Your coins" not in text and "Goal" not in text and "arrows" not in text
    with translation.override("cs"):
        text = "\n".join(presenter.describe_board(GAME.view(scene(), 0), NAMES))
    assert "Your coins" not in text and "Goal" not in text and "arrows" not in text


def test_the_first_edition_names_its_start_and_the_coins_lying_there():
    state = build_state(
        2,
        rooms={(1, 0): "find_gold {N,E}"},
        heroes=["1,0", "0,0"],
        drakon="1,0",
        coins=[[1], [1]],
        edition="1e",
        start_coins=2,
    )
    lines = presenter.describe_board(GAME_CLASSIC.view(state, 1), NAMES[:2])
    assert any(
        line.startswith("Start: arrows") and "Coins on the Start: 2." in line for line in lines
    )
    assert (
        "Find Gold (1 east of the Start): arrows north, east. Here: Ann (Knight), Drakon." in lines
    )


def finished(state, reason, winners):
    state["over"] = True
    state["active"] = None
    state["pending"] = []
    state["end"] = {"reason": reason, "winners": winners}
    return GAME.result(state).to_json()


def test_the_summary_adds_each_seats_coins_up_and_says_why_it_ended():
    result = finished(scene(), "goal", [0])
    summary = presenter.final_summary(result, NAMES)
    assert summary["columns"] == ["Coins", "Gold"]
    assert summary["cells"] == [["1 + 2", "3"], ["3", "3"], ["0", "0"]]
    assert summary["reason"] == "The winner gathered the gold the game asks for."
    escaped = presenter.final_summary(finished(scene(), "escape", [1]), NAMES)
    assert escaped["reason"] == "Bob escaped from the lair with enough gold."
    with translation.override("cs"):
        czech = presenter.final_summary(result, NAMES)
    assert czech["columns"] != ["Coins", "Gold"] and czech["reason"] != summary["reason"]


def test_in_team_play_the_summary_shows_each_seats_team():
    state = build_state(4, coins=[[1, 2], [3]], options={"team_play": True})
    result = finished(state, "blocked", [0, 2])
    summary = presenter.final_summary(result, ["A", "B", "C", "D"])
    assert summary["columns"] == ["Team", "Coins", "Gold"]
    teams = result["details"]["teams"]
    for seat in range(4):
        team = next(i for i, members in enumerate(teams, start=1) if seat in members)
        assert summary["cells"][seat][0] == str(team)
