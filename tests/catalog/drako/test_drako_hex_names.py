"""Hexes have names a player can read and find on the board: lettered rows from the top
(A to E) and hexes numbered from the left, printed on each hex and used in the buttons,
the log and the board in words, in every language; never the raw "q,r" coordinates."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.catalog.drako import components as C
from games.catalog.drako import presenter as P
from games.catalog.drako.rules import GAME
from games.engine.rng import Rng

RAW = re.compile(r"-?\d+,-?\d+")  # "0,-2", "1,0": a hex as the state writes it
LANGUAGES = ("en", "pl", "cs")


def test_rows_are_lettered_from_the_top_and_hexes_numbered_from_the_left():
    assert C.hex_name("0,-2") == "A1" and C.hex_name("2,-2") == "A3"
    assert C.hex_name("-1,-1") == "B1" and C.hex_name("2,-1") == "B4"
    assert C.hex_name("-2,0") == "C1" and C.hex_name(C.DRAGON_START) == "C3"
    assert C.hex_name("2,0") == "C5" and C.hex_name("-2,2") == "E1"
    assert sorted(C.HEX_NAMES) == sorted(C.HEXES)
    assert len(set(C.HEX_NAMES.values())) == len(C.HEXES) == 19
    # On the drawn board a letter is one row (one height) and the numbers run left to right.
    for row in C.ROW_LETTERS:
        keys = [key for key, name in C.HEX_NAMES.items() if name[0] == row]
        centres = [P.centre(key) for key in sorted(keys, key=lambda k: int(C.hex_name(k)[1:]))]
        assert len({y for _x, y in centres}) == 1
        assert [x for x, _y in centres] == sorted(x for x, _y in centres)
    tops = [P.centre(key)[1] for key in C.HEXES if C.hex_name(key).endswith("1")]
    assert tops == sorted(tops)  # A above B above ... E


def test_the_board_prints_each_hexs_name_on_it():
    state = GAME.setup(2, {"sides": "seat1_dwarves"}, "names")
    board = P.board_context(GAME.view(state, 0), 0, ["Ada", "Bo"])
    assert {h.key: h.label for h in board["hexes"]} == C.HEX_NAMES


def test_a_move_reads_by_hex_names_in_three_languages():
    moved = {"type": "moved", "figure": C.DRAGON, "from": "0,0", "to": "0,-1"}
    flew = {"type": "flew", "from": "0,0", "to": "-2,2"}
    with translation.override("en"):
        assert P.describe_event(moved, ["Ada", "Bo"]) == "The dragon moved from C3 to B2."
        assert P.describe_event(flew, ["Ada", "Bo"]) == "The dragon flew from C3 to E1."
        assert P.hex_label("1,1") == "hex D4"
    with translation.override("pl"):
        assert P.hex_label("1,1") == "pole D4"
        assert "C3" in P.describe_event(moved, ["Ada", "Bo"])
    with translation.override("cs"):
        assert P.hex_label("1,1") == "pole D4"
        assert "E1" in P.describe_event(flew, ["Ada", "Bo"])


def _walk(seed: str, steps: int):
    """Random legal play: every position, legal action and event on the way."""
    state = GAME.setup(2, {"sides": "seat1_dwarves", "exchange": True}, seed)
    rng = Rng.from_seed(seed)
    for _step in range(steps):
        if GAME.result(state) is not None:
            return
        seat = GAME.current_seats(state)[0]
        legal = GAME.legal_actions(state, seat)
        yield state, seat, legal, []
        state, events = GAME.apply(state, seat, legal[rng.below(len(legal))])
        yield state, seat, [], events


@pytest.mark.parametrize("language", LANGUAGES)
def test_buttons_log_and_words_never_show_raw_coordinates(language):
    names = ["Ada", "Bo"]
    seen = {"buttons": 0, "log": 0, "words": 0}
    with translation.override(language):
        for seed in ("raw-1", "raw-2", "raw-3"):
            for state, seat, legal, events in _walk(seed, 80):
                view = {**GAME.view(state, seat), "_names": names, "_version": 1}
                for action in legal:
                    for _key, label in P.action_steps(action, view):
                        assert not RAW.search(str(label)), (label, action)
                        seen["buttons"] += 1
                for event in events:
                    sentence = P.describe_event(event, names)
                    assert not RAW.search(sentence), (sentence, event)
                    seen["log"] += 1
                for line in P.describe_board(GAME.view(state, seat), names):
                    assert not RAW.search(str(line)), line
                    seen["words"] += 1
    assert all(seen.values()), seen
