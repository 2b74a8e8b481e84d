"""A bot account can be invited to any seat (``docs/api.md``, "Bot
accounts"): from the match page's invite form and by the API's invitation,
to an open seat of a rated match too; the page names it with its BOT mark
while it is invited and once it sits; it takes the seat through the API."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import bots
from api import tokens
from games.lobby import services as lobby
from games.models import Invitation, MatchStatus, Seat

pytestmark = pytest.mark.django_db

MARK = '<span class="bot-mark" title="bot account">BOT</span>'


def _bot(make_user, name="botty"):
    user = make_user(name)
    bots.become_bot(user)
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def _api(user, scopes):
    _token, raw = tokens.make_token(user, "engine", list(scopes))
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _invited(page: str) -> str:
    found = re.search(r'<p id="invited">(.*?)</p>', page, re.S)
    return found.group(1) if found else ""


def _seats(page: str) -> str:
    return re.search(r'<ol class="seats">(.*?)</ol>', page, re.S).group(1)


def _takes_the_seat(bot, match) -> None:
    engine = _api(bot, ["bot:play", "challenge:read", "challenge:write", "match:read"])
    received = engine.get("/api/v1/invitations").json()["received"]
    assert [row["id"] for row in received] == [match.pk]
    # Invited, it sees the rated match among the open ones too.
    assert match.pk in [row["id"] for row in engine.get("/api/v1/challenges").json()["open"]]
    accepted = engine.post(f"/api/v1/matches/{match.pk}/accept")
    assert accepted.status_code == 200, accepted.content


def test_the_match_pages_invite_form_invites_a_bot_account(client, make_user, alice, bob):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    assert match.rated
    client.force_login(alice)
    sent = client.post(reverse("match_invite", args=[match.pk]), {"username": "botty"})
    assert sent.status_code in (200, 302)
    assert Invitation.objects.filter(match=match, invited_user=bot).exists()
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    invited = _invited(page)
    assert MARK in invited and "/players/botty/" in invited
    _takes_the_seat(bot, match)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert _invited(page) == ""  # seated now, no longer only invited
    assert MARK in _seats(page) and "botty" in _seats(page)
    # The last seat taken by a person, the rated match starts with the bot in it.
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert Seat.objects.filter(match=match, user=bot, index=1).exists()


def test_the_apis_invitation_invites_a_bot_account(make_user, alice):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    host = _api(alice, ["challenge:write"])
    answer = host.post(
        f"/api/v1/matches/{match.pk}/invite", {"username": "BOTTY"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"match": match.pk, "invited": "botty"}
    again = host.post(
        f"/api/v1/matches/{match.pk}/invite", {"username": "botty"}, content_type="application/json"
    )
    assert again.status_code == 200 and Invitation.objects.filter(match=match).count() == 1
    _takes_the_seat(bot, match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.rated


def test_the_apis_invitation_refuses_what_the_form_refuses(make_user, alice, bob):
    _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    for client, body, status, code in (
        (_api(bob, ["challenge:write"]), {"username": "botty"}, 403, "forbidden"),
        (_api(alice, ["challenge:read"]), {"username": "botty"}, 403, "missing_scope"),
        (_api(alice, ["challenge:write"]), {"username": "nobody"}, 400, None),
        (_api(alice, ["challenge:write"]), {"username": 5}, 400, "bad_input"),
        (_api(alice, ["challenge:write"]), {}, 400, "bad_input"),
    ):
        answer = client.post(
            f"/api/v1/matches/{match.pk}/invite", body, content_type="application/json"
        )
        assert answer.status_code == status, (body, answer.content)
        if code:
            assert answer.json()["error"]["code"] == code
    assert not Invitation.objects.exists()
