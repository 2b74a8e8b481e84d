"""Drakon, first edition: what each seat sees (hands and pile hidden, a coin count only) and
how the presenter draws and tells it (its rooms in the key, its characters, its sentences)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog.drakon import components as C
from games.catalog.drakon import presenter
from games.catalog.drakon.builders import build_state
from games.catalog.drakon.presenter import classic
from games.catalog.drakon.rules import GAME as LATER
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.engine.rng import Rng


def position(n_players=2, **kwargs):
    return build_state(n_players, edition="1e", **kwargs)


def test_coins_are_counted_and_no_event_tells_a_value():
    state = position(rooms={(0, 1): "find_gold {N}", (0, 2): "wishing_well {W,N,E}"})
    state, events = GAME.apply(state, 0, {"type": "move", "to": "0,1"})
    assert [e["type"] for e in events if "coin" in e["type"]] == ["coin_found"]
    assert not any("private_to" in e for e in events)
    view = GAME.view(state, 1)
    assert view["coins"] == [1, 0] and view["me"]["coins"] == []


def test_other_hands_and_the_pile_are_hidden_from_a_seat():
    state = GAME.setup(3, {"heroes": True}, "hidden")
    for seat in range(3):
        changed = GAME.perturb_secrets(state, seat, Rng.from_seed(f"p{seat}"))
        GAME.check_invariants(changed)
        assert changed["hands"][seat] == state["hands"][seat]
        assert GAME.view(changed, seat) == GAME.view(state, seat)
    assert GAME.view(state, None)["me"] is None
    assert GAME.view(state, None)["hands"] == [4, 4, 4]


def test_the_board_key_lists_the_first_editions_rooms_with_their_texts():
    state = position(start_coins=2, options={"escape": True})
    view = GAME.view(state, 0)
    context = presenter.board_context(view, 0, ["ala", "ola"])
    key = [entry["name"] for entry in context["key"]]
    assert key == [str(presenter.room_name(room, "1e")) for room in C.ROOMS_1E]
    assert key[0] == "Start" and "Portal" not in key and "Gale" in key
    texts = {entry["name"]: entry["text"] for entry in context["key"]}
    assert texts["Destroy a Chamber"] == (
        "Put a chamber with no figure (not the Start) at the bottom of the pile."
    )
    start = next(tile for tile in context["tiles"] if tile.room == "start")
    assert start.symbol == "ST" and start.coins == 2
    assert context["classic"] and context["start_coins"] == 2 and context["escape_gold"] == 4
    later = presenter.board_context(LATER.view(build_state(2), 0), 0, ["ala", "ola"])
    assert len(later["key"]) == 18 and not later["classic"]


def test_the_first_editions_characters_and_sentences():
    state = position(options={"heroes": True}, hero_names=["knight", "wizard"])
    view = GAME.view(state, 0)
    mine = presenter.private_context(view, 0, ["ala", "ola"])
    assert mine["hero"] == "Knight"
    assert "even out of your turn" in mine["hero_text"]
    names = ["ala", "ola"]
    assert presenter.describe_event({"type": "coin_to_start", "seat": 0, "cause": "x"}, names) == (
        "ala put a coin on the Start for Drakon."
    )
    assert presenter.describe_event({"type": "start_coin_taken", "seat": 1}, names) == (
        "ola took a coin from the Start."
    )
    assert presenter.describe_event({"type": "hero_dealt", "seat": 1, "hero": "amazon"}, names) == (
        "ola is dealt the Amazon."
    )
    meeting = {"type": "drakon_encounter", "at": "0,1", "heroes": [0], "to": "start"}
    assert presenter.describe_event(meeting, names) == (
        "Drakon! The heroes there flee to the Start."
    )
    assert presenter.action_steps({"type": "take_coin"}, view) == [
        ("take_coin", "Take a coin from the Start")
    ]
    assert presenter.action_steps({"type": "protect"}, view) == [
        ("protect", "Prevent the loss (Knight)")
    ]


def test_places_are_named_from_the_start_in_buttons_board_words_and_log():
    """The first edition's labyrinth grows from the Start: no "Entrance" anywhere."""
    from django.utils import translation

    from games.panel import presenters

    state = position(rooms={(1, 0): "find_gold {E}"}, drakon="1,0")
    view = {**GAME.view(state, 0), "_names": ["ala", "ola"], "_version": 1}
    labels = [
        str(label)
        for action in GAME.legal_actions(state, 0)
        for _key, label in presenter.action_steps(action, view)
    ]
    assert "Move to Find Gold (1 east of the Start)" in labels
    context = presenter.board_context(view, 0, ["ala", "ola"])
    gold = next(tile for tile in context["tiles"] if tile.room == "find_gold")
    assert gold.title == "Find Gold (1 east of the Start)"
    words = presenter.describe_board(view, ["ala", "ola"])
    assert "Drakon: Find Gold (1 east of the Start)." in words
    log = presenters.get("drakon_classic")
    moved = {"type": "hero_moved", "seat": 0, "from": "0,0", "to": "1,0"}
    assert (
        log.describe_event(moved, ["ala", "ola"]) == "ala moved: the Start → 1 east of the Start."
    )
    with translation.override("pl"):
        assert (
            log.describe_event(moved, ["ala", "ola"])
            == "ala przechodzi: Start → 1 na wschód od Startu."
        )
    text = " ".join([*labels, gold.title, *words, log.describe_event(moved, ["ala", "ola"])])
    assert "Entrance" not in text
    # The later edition still names its places from the Entrance.
    assert presenters.get("drakon").describe_event(moved, ["ala", "ola"]) == (
        "ala moved: the Entrance → 1 east of the Entrance."
    )


@pytest.mark.parametrize(("edition", "rooms"), [("1e", C.ROOMS_1E), ("4e", C.ROOMS_4E)])
def test_each_edition_names_its_rooms_as_its_polish_rulebook(edition, rooms):
    """The first edition's board says "Zniszcz komnatę", "Drakon porusza się" and "Obrót
    komnatą" (its rulebook), never the later edition's "Zniszczenie komnaty"."""
    with translation.override("pl"):
        assert {key: presenter.room_name(key, edition) for key in rooms} == {
            key: room.name_pl for key, room in rooms.items()
        }


def test_the_first_editions_board_log_and_words_use_its_room_names():
    state = position(rooms={(0, 1): "destroy {N}", (1, 0): "drakon_moves {N}"})
    view = GAME.view(state, 0)
    with translation.override("pl"):
        context = presenter.board_context(view, 0, ["ala", "ola"])
        names = {tile.room: tile.name for tile in context["tiles"]}
        assert names["destroy"] == "Zniszcz komnatę"
        assert names["drakon_moves"] == "Drakon porusza się"
        assert "Obrót komnatą" in [entry["name"] for entry in context["key"]]
        words = " ".join(presenter.describe_board(view, ["ala", "ola"]))
        assert "Zniszcz komnatę" in words and "Zniszczenie" not in words
        event = {"type": "room_placed", "seat": 0, "room": "destroy", "at": "0,1"}
        assert "Zniszcz komnatę" in classic.describe_event(event, ["ala", "ola"])
