"""A friend's view of a friend's match holds no secret of the friend's seat.

The differential of tests/web/test_secrets.py over the pages friendship
adds to or changes: Watch with its "Friends' games", the friends page, the
lobby (friends' matches first) and the friend's player page. The viewer is
the owner's friend and a spectator of their match; changing only the
owner's secrets leaves each page byte-for-byte the same."""

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby
from games.models import Match
from tests.conftest import play_one
from tests.web.test_secrets import alter_secrets_of, normalise

pytestmark = pytest.mark.django_db


def _pages(client, owner) -> dict[str, str]:
    urls = [
        reverse("watch"),
        reverse("friends"),
        reverse("lobby"),
        reverse("player_page", args=[owner.username]),
    ]
    return {url: normalise(client.get(url).content.decode()) for url in urls}


def test_a_friend_watching_sees_no_secret_of_the_friends_seat(
    make_user, alice, bob, carol, nogi, befriend
):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match)
    for i in range(6):
        play_one(match, nogi, choose=i * 5)
    match.refresh_from_db()
    friend = make_user("dave")
    befriend(friend, alice)
    client = Client()
    client.force_login(friend)
    before = _pages(client, alice)
    assert f"/m/{match.pk}/" in before[reverse("watch")].split('id="live-matches"')[0]
    owner = match.seats.get(user=alice)
    match.state["collected"][owner.index] = [1, 2]
    Match.objects.filter(pk=match.pk).update(state=match.state)
    before = _pages(client, alice)
    alter_secrets_of(Match.objects.get(pk=match.pk), owner.index)
    assert _pages(client, alice) == before
