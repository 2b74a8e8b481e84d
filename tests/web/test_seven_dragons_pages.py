"""Seven Dragons through the site: what a seat learns by trading hands or goals it may
see, and nothing else.

A three-player match is arranged, alice trades hands with bob and then bob trades
goals with carol, all through the service layer. Then, for every seat and a
spectator, every page, fragment, log and email is captured, the game's
``perturb_secrets`` changes all that viewer must not know, and everything must
come out byte-identical (the conformance kit's differential check, at exactly the
moments a trade happens). The traded cards and goals reach their new owners'
logs and no one else's.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.presenter import card_label
from games.catalog.seven_dragons.rules import GAME
from games.engine.rng import Rng
from games.lobby import services as lobby
from games.models import Match
from games.play import services
from tests.conformance.test_secrets import _capture, _viewers

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob, carol):
    match = lobby.create_match(user=alice, game_key="seven_dragons", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match)
    match.refresh_from_db()
    state = position(
        hands=[["ACT-TRADEHANDS", "DR-Q01"], ["ACT-TRADEGOALS", "DR-Q02", "DR-Q03"], ["DR-Q04"]],
        goals=["red", "blue", "green"],
        deck=30,
        options=match.options,
    )
    Match.objects.filter(pk=match.pk).update(state=state)
    match.refresh_from_db()
    return match


def play(match, user, action):
    services.submit_action(match, user, action, match.version)
    match.refresh_from_db()


def assert_no_leak(match, users, salt):
    original = match.state
    rng = Rng.from_seed(f"sd-trade-{salt}")
    for seat_index, user, client in _viewers(match, users):
        before = _capture(client, match, user)
        perturbed = GAME.perturb_secrets(original, seat_index, rng)
        assert perturbed != original
        Match.objects.filter(pk=match.pk).update(state=perturbed)
        after = _capture(client, match, user)
        Match.objects.filter(pk=match.pk).update(state=original)
        for name in before:
            assert after[name] == before[name], f"{name} for seat {seat_index} leaks"


def log_of(user, match):
    client = Client()
    client.force_login(user)
    page = client.get(reverse("match_log", args=[match.pk])).content.decode()
    return re.sub(r"<[^>]+>", "", page)  # its words: the log links each player's name


def test_trading_hands_and_goals_shows_each_seat_only_what_it_learns(match, alice, bob, carol):
    users = [alice, bob, carol]
    # The opening entry tells each seat the hand it was really dealt before the
    # position was arranged; that hand may hold a card of the same colours, so
    # the checks count mentions before and after the trade.
    taken = card_label("DR-Q02")
    mentions = {user: log_of(user, match).count(taken) for user in users}
    play(match, alice, {"type": "action", "card": "ACT-TRADEHANDS#1", "mode": "top"})
    play(match, alice, {"type": "trade_hands", "with": 1})
    assert sorted(match.state["hands"][0]) == ["ACT-TRADEGOALS#1", "DR-Q02", "DR-Q03"]
    assert_no_leak(match, users, "hands")
    # alice now knows the cards she took; carol learns only who traded with whom.
    assert log_of(alice, match).count(taken) > mentions[alice]
    assert log_of(carol, match).count(taken) == mentions[carol]
    assert "traded hands with bob" in log_of(carol, match)

    # bob and carol lay a dragon card each; then alice, holding bob's Trade Goals
    # card now, trades goals with carol.
    assert "DR-Q01" in match.state["hands"][1]
    for seat, user in ((1, bob), (2, carol)):
        placement = next(a for a in GAME.legal_actions(match.state, seat) if a["type"] == "place")
        play(match, user, placement)
    play(match, alice, {"type": "action", "card": "ACT-TRADEGOALS#1", "mode": "bottom"})
    play(match, alice, {"type": "trade_goals", "with": 2})
    assert match.state["goals"][:3] == ["green", "blue", "red"]
    assert_no_leak(match, users, "goals")
    assert "Your secret goal is now green." in log_of(alice, match)
    assert "Your secret goal is now red." in log_of(carol, match)
    bob_log = log_of(bob, match)
    assert "Your secret goal is now" not in bob_log
    assert "alice traded goals with carol." in bob_log
