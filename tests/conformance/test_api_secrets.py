"""Nothing a seat must not know reaches it through the API's JSON.

The same differential as ``test_secrets.py``, over the API: for every game,
a match is played a few moves; for each seat (its own token) and for a
stranger (a spectator's view), the match, its log, my matches and the
finished list are fetched, the game's ``perturb_secrets`` changes everything
that viewer must not know, and they are fetched again: the bytes must be
the same.
"""

import pytest
from django.test import Client

from api import tokens
from games.engine.rng import Rng
from games.models import Match
from tests.conformance.kit import keys_for
from tests.conformance.test_secrets import MOVES, _play, _start

pytestmark = pytest.mark.django_db


def _capture(client, match) -> dict[str, bytes]:
    urls = {
        "match": f"/api/v1/matches/{match.pk}",
        "log": f"/api/v1/matches/{match.pk}/log",
        "mine": "/api/v1/matches",
        "finished": "/api/v1/matches/finished",
    }
    captured = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (url, response.content)
        captured[name] = response.content
    return captured


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_api_shows_no_seat_another_seats_secrets(key, make_user):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    original = match.state
    rng = Rng.from_seed(f"kit-api-secrets-{key}")
    viewers = [(seat.index, seat.user) for seat in match.seats.order_by("index")]
    viewers.append((None, make_user(f"{key[:8]}-spectator")))
    for seat_index, user in viewers:
        _token, raw = tokens.make_token(user, "kit", ["match:read"])
        client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
        before = _capture(client, match)
        perturbed = game.perturb_secrets(original, seat_index, rng)
        assert perturbed != original
        Match.objects.filter(pk=match.pk).update(state=perturbed)
        after = _capture(client, match)
        Match.objects.filter(pk=match.pk).update(state=original)
        for name in before:
            assert after[name] == before[name], (
                f"{key}: what {'a spectator' if seat_index is None else f'seat {seat_index}'}"
                f" is served by the API as {name!r} changes with secrets it must not know"
            )


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_api_shows_a_seat_its_own_secrets(key, make_user):
    """The comparison can fail: a spectator's perturbation shows in some seat's JSON."""
    game, match, users = _start(key, make_user)
    original = match.state
    rng = Rng.from_seed(f"kit-api-owner-{key}")
    clients = []
    for seat in match.seats.order_by("index"):
        _token, raw = tokens.make_token(seat.user, "kit", ["match:read"])
        clients.append(Client(HTTP_AUTHORIZATION=f"Bearer {raw}"))
    seen = False
    for _checkpoint in range(4):
        _play(game, match, MOVES // 2)
        original = match.state
        for _attempt in range(4):
            perturbed = game.perturb_secrets(original, None, rng)
            for client in clients:
                before = client.get(f"/api/v1/matches/{match.pk}").content
                Match.objects.filter(pk=match.pk).update(state=perturbed)
                after = client.get(f"/api/v1/matches/{match.pk}").content
                Match.objects.filter(pk=match.pk).update(state=original)
                seen = seen or before != after
        if seen:
            break
    assert seen, f"{key}: no seat sees its own secrets change in the API: the kit proves nothing"
