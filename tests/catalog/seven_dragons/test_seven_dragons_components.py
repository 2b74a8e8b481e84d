"""Spec A.1, B and D-01, D-39: the 72 cards as data, and turning a card by 180 degrees."""

from __future__ import annotations

from collections import Counter

from games.catalog.seven_dragons import components as C


def test_d01_deck_census():
    layouts = Counter(C.layout(card) for card in C.DRAGONS)
    assert len(C.DRAGONS) == 51
    assert layouts == {
        "single": 11,
        "half_h": 10,
        "half_v": 10,
        "three_h": 5,
        "three_v": 5,
        "quad": 10,
    }
    assert [c for c in C.DRAGONS if C.quadrants(c) == (C.RAINBOW,) * 4] == ["DR-RBW"]
    assert len(C.ACTIONS) == 15
    assert Counter(C.ACTIONS.values()) == dict.fromkeys(C.ACTION_COLOURS, 3)
    assert len(C.DECK) == 66 and len(set(C.DECK)) == 66
    assert C.SILVER_CARD not in C.DECK
    assert len(C.COLOURS) == 5  # one goal per colour
    for colour in C.COLOURS:
        on_cards = [c for c in C.DRAGONS if colour in C.quadrants(c)]
        quadrants = sum(C.quadrants(c).count(colour) for c in C.DRAGONS)
        assert len(on_cards) == 24, colour
        assert quadrants == 40, colour


def test_action_colours_follow_the_rulebook():
    assert C.ACTION_COLOURS == {
        C.MOVE: C.GREEN,
        C.ZAP: C.RED,
        C.ROTATE: C.BLUE,
        C.TRADE_GOALS: C.GOLD,
        C.TRADE_HANDS: C.BLACK,
    }


def test_every_quad_lacks_one_colour_and_each_colour_is_missing_from_two_quads():
    quads = [c for c in C.DRAGONS if C.layout(c) == "quad"]
    missing = Counter()
    for card in quads:
        absent = set(C.COLOURS) - set(C.quadrants(card))
        assert len(absent) == 1 and len(set(C.quadrants(card))) == 4
        missing.update(absent)
    assert missing == dict.fromkeys(C.COLOURS, 2)


def test_no_card_shows_one_colour_in_two_separate_panels():
    """Equal quadrants of a card always touch, so a panel never counts twice (A.0)."""
    touching = {(0, 1), (0, 2), (1, 3), (2, 3)}
    for card in C.DRAGONS:
        quads = C.quadrants(card)
        for colour in set(quads):
            where = [i for i, q in enumerate(quads) if q == colour]
            if len(where) == 2:
                assert tuple(where) in touching, card


def test_d39_rotation():
    assert C.quadrants("DR-T3V-red-gold-blue", 180) == ("blue", "red", "gold", "red")
    assert C.quadrants("DR-S-red#1", 180) == C.quadrants("DR-S-red#1", 0)
    assert C.quadrants("DR-Q01", 180) == ("green", "blue", "black", "red")
    assert C.quadrants("DR-H-gold-blue", 180) == ("blue", "blue", "gold", "gold")
    assert C.quadrants("DR-V-red-green", 180) == ("green", "red", "green", "red")
