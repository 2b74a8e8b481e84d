"""Every registered game can be played entirely through its pages.

For each game, random legal games are played by clicking: the player to move
loads the match page, follows random choice links (GET fragments) down the
choice tree until a final button, and posts it, exactly as a browser would.
Every page on the way must render, offer only legal actions, and every post
must be accepted. This proves each presenter's ``action_steps`` and board
work at every kind of decision the rules can reach.
"""

import html
import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from games.models import MatchStatus

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
LINK = re.compile(r'<a class="choice button" data-path="([^"]+)"')
FINAL = re.compile(r'name="action" value="([^"]+)"')


def _unescape(text: str) -> str:
    return html.unescape(text)


@pytest.mark.parametrize("game_key", [g.key for g in registry.all()])
@pytest.mark.parametrize("seed", [1, 2])
def test_play_moves_by_clicking(game_key, seed, make_user):
    game = registry.get(game_key)
    rng = random.Random(seed)
    n = min(3, game.max_players)
    users = [make_user(f"{game_key[:4]}{seed}p{i}") for i in range(n)]
    # Each seed takes another corner of the game's option matrix.
    matrix = game.option_matrix(n)
    options = matrix[(seed * 5) % len(matrix)]
    match = lobby.create_match(user=users[0], game_key=game_key, n_seats=n, options=options)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    for _step in range(60):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat_index = game.current_seats(match.state)[0]
        user = match.seats.get(index=seat_index).user
        client = clients[user.pk]
        legal = game.legal_actions(match.state, seat_index)
        page = client.get(reverse("match_detail", args=[match.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        path = ""
        for _depth in range(8):
            finals = [json.loads(_unescape(v)) for v in FINAL.findall(html)]
            links = LINK.findall(html)
            assert finals or links, f"no choice offered at {path!r}"
            for action in finals:
                assert action in legal, f"{action} offered but not legal"
            if finals and (not links or rng.random() < 0.5):
                action = rng.choice(finals)
                response = client.post(
                    reverse("match_act", args=[match.pk]),
                    {"action": json.dumps(action), "version": match.version},
                    **HTMX,
                )
                assert response.status_code == 200, response.content.decode()[:500]
                assert 'class="error"' not in response.content.decode()
                break
            path = rng.choice(links)
            html = client.get(
                reverse("match_panel", args=[match.pk]), {"path": path}, **HTMX
            ).content.decode()
        else:
            pytest.fail(f"the choice tree never ended at {path!r}")
    match.refresh_from_db()
    assert match.version >= 10 or match.status == MatchStatus.FINISHED
