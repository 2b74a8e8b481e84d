"""The public JSON log hides a secret choice carried by an action until the end.

Hatchlings (the test suite's own game) buries an egg face down: which egg is
secret. While the match is in play ``/m/<id>/log.json`` shows the action as
the game's ``public_action`` makes it; once the match is over (and the seed
is revealed) it shows the action whole, so anyone can replay the match.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from games.models import MatchStatus
from games.play import services

pytestmark = pytest.mark.django_db


def test_a_buried_egg_stays_secret_in_the_public_log_until_the_end(alice, bob):
    game = registry.get("hatchlings")
    match = lobby.create_match(user=alice, game_key="hatchlings", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    players = {0: alice, 1: bob}
    egg = match.state["hands"][0][0]
    services.submit_action(match, alice, {"type": "bury", "egg": egg}, match.version)

    during = Client().get(reverse("match_log_json", args=[match.pk])).json()
    assert during["moves"][1]["action"] == {"type": "bury", "hidden": ["egg"]}
    assert during["seed"] is None

    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = game.current_seats(match.state)[0]
        hatch = next(a for a in game.legal_actions(match.state, seat) if a["type"] == "hatch")
        services.submit_action(match, players[seat], hatch, match.version)
    after = Client().get(reverse("match_log_json", args=[match.pk])).json()
    assert after["moves"][1]["action"] == {"type": "bury", "egg": egg}
    assert after["seed"] == match.seed


def test_drakon_hides_the_warriors_tile_and_the_thiefs_coin():
    game = registry.get("drakon")
    assert game.public_action({"type": "ability", "hero": "warrior", "tile": 17}) == {
        "type": "ability",
        "hero": "warrior",
        "hidden": ["tile"],
    }
    assert game.public_action({"type": "warrior_tile", "tile": 17}) == {
        "type": "warrior_tile",
        "hidden": ["tile"],
    }
    assert game.public_action({"type": "ability", "hero": "thief", "coin": 3}) == {
        "type": "ability",
        "hero": "thief",
        "hidden": ["coin"],
    }
    # Stealing from a player is public: whom, not what.
    steal = {"type": "ability", "hero": "thief", "target": 1}
    assert game.public_action(steal) == steal
    assert game.public_action({"type": "move", "to": "1,0"}) == {"type": "move", "to": "1,0"}
