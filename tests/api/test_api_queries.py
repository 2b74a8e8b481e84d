"""Every API endpoint reads a bounded number of rows, whatever the match's
length or the number of my matches (a query count that does not grow)."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from api import tokens
from games.lobby import services as lobby
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db

LIMIT = 12  # queries per request, the most any endpoint needs


def _count(client, method, url, **kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, **kwargs)
    assert response.status_code < 500, response.content
    return len(captured)


def _urls(match):
    return [
        ("get", "/api/v1/me", {}),
        ("get", "/api/v1/games", {}),
        ("get", "/api/v1/matches", {}),
        ("get", "/api/v1/matches/finished", {}),
        ("get", f"/api/v1/matches/{match.pk}", {}),
        ("get", f"/api/v1/matches/{match.pk}/log", {}),
        ("get", "/api/v1/challenges", {}),
        ("get", "/api/v1/tournaments", {}),
        ("get", "/api/v1/players/bob", {}),
        ("get", "/api/v1/leaderboards/nogi", {}),
        (
            "post",
            f"/api/v1/matches/{match.pk}/notes",
            {"data": {"text": "n"}, "content_type": "application/json"},
        ),
        (
            "post",
            f"/api/v1/matches/{match.pk}/chat",
            {"data": {"text": "hi"}, "content_type": "application/json"},
        ),
    ]


def _counts(client, match):
    return [_count(client, method, url, **kw) for method, url, kw in _urls(match)]


def _more_matches(alice, bob, n):
    for _ in range(n):
        other = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
        lobby.join_match(user=bob, match=other)


def test_every_endpoint_is_bounded_and_does_not_grow(started_match, nogi, alice, bob, carol):
    _token, raw = tokens.make_token(alice, "q", list(tokens.HUMAN_SCOPES))
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    client.get("/api/v1/me")  # the token's first use is written (then once an hour)
    # A few moves and matches first (the lists then hold rows of each kind), then more.
    for _ in range(3):
        play_one(started_match, nogi)
    _more_matches(alice, bob, 2)
    _counts(client, started_match)  # the first note is made, later ones saved over it
    small = _counts(client, started_match)
    for _ in range(6):
        play_one(started_match, nogi)
    _more_matches(alice, bob, 4)
    large = _counts(client, started_match)
    assert max(large) <= LIMIT, list(zip(_urls(started_match), large, strict=True))
    assert large == small, (small, large)


def test_a_move_through_the_api_is_bounded(started_match, nogi):
    user = user_to_move(started_match, nogi)
    _token, raw = tokens.make_token(user, "q", ["match:read", "match:play"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    queries = _count(
        client,
        "post",
        f"/api/v1/matches/{started_match.pk}/actions",
        data={"action_id": data["legal_actions"][0]["id"], "version": data["version"]},
        content_type="application/json",
        headers={"Idempotency-Key": "one"},
    )
    assert queries <= 30, queries


def test_a_move_through_the_api_reads_the_match_once_under_its_lock(started_match, nogi):
    """As the page's form move: no read before the write; the action id is
    matched to the legal actions of the position read under the lock. With
    the token kept, the one SELECT is that locked read."""
    user = user_to_move(started_match, nogi)
    _token, raw = tokens.make_token(user, "q", ["match:read", "match:play"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    with CaptureQueriesContext(connection) as ctx:
        answer = client.post(
            f"/api/v1/matches/{started_match.pk}/actions",
            data={"action_id": data["legal_actions"][0]["id"], "version": data["version"]},
            content_type="application/json",
        )
    assert answer.status_code == 200, answer.content
    selects = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1, selects


def _lobby_urls():
    return [
        ("get", "/api/v1/invitations", {}),
        ("get", "/api/v1/ladders", {}),
        ("get", "/api/v1/ladders/drako", {}),
    ]


# A new match is a write through the lobby's services (the limits, the
# invitee's rules, the invitation and its notification): bounded apart.
WRITE_LIMIT = 35


def _lobby_writes():
    return [
        (
            "post",
            "/api/v1/matches",
            {"data": {"game": "nogi", "players": 3}, "content_type": "application/json"},
        ),
        (
            "post",
            "/api/v1/matches",
            {
                "data": {"game": "nogi", "players": 2, "invite": "carol"},
                "content_type": "application/json",
            },
        ),
    ]


def _lobby_counts(client, urls):
    return [_count(client, method, url, **kw) for method, url, kw in urls]


def _more_lobby(alice, make_user, n, start):
    """``n`` more of everything the lobby's lists show: invitations alice
    received and sent, and players on the ladder, one of them challenging."""
    from games.lobby import invitations
    from ladders import services as ladders

    for i in range(start, start + n):
        other = make_user(f"lobby{i}")
        theirs = lobby.create_match(user=other, game_key="nogi", n_seats=3)
        invitations.send_invitation(theirs, inviter=other, invitee=alice)
        mine = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
        invitations.send_invitation(mine, inviter=alice, invitee=other)
        ladders.join(other, "drako")
    if start == 0:
        ladders.challenge(other, "drako", "lobby0")


def test_the_lobby_and_ladder_endpoints_are_bounded_and_do_not_grow(
    alice, carol, make_user, monkeypatch
):
    from core import limits
    from games.play import reliability

    monkeypatch.setattr(limits, "MATCH", limits.Limit("match", 100, 3600))
    monkeypatch.setattr(reliability, "BASE_LIMIT", reliability.MAX_LIMIT)
    _token, raw = tokens.make_token(alice, "q", list(tokens.HUMAN_SCOPES))
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    client.get("/api/v1/me")
    _more_lobby(alice, make_user, 2, 0)
    small = _lobby_counts(client, _lobby_urls())
    small_writes = _lobby_counts(client, _lobby_writes())
    _more_lobby(alice, make_user, 5, 2)
    large = _lobby_counts(client, _lobby_urls())
    large_writes = _lobby_counts(client, _lobby_writes())
    assert max(large) <= LIMIT, list(zip(_lobby_urls(), large, strict=True))
    assert large == small, (small, large)
    assert max(large_writes) <= WRITE_LIMIT, large_writes
    assert large_writes == small_writes, (small_writes, large_writes)
    assert len(client.get("/api/v1/invitations").json()["received"]) == 7


def test_the_apis_poll_is_the_pages_one_query(started_match, alice):
    """``GET /api/v1/matches/<pk>?since=<stamp>`` while nothing changed: the
    token is kept in the cache after its first use (its last use written at
    most once an hour), so the answer costs the poll's own stamp check."""
    _token, raw = tokens.make_token(alice, "q", ["match:read"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    stamp = client.get(f"/api/v1/matches/{started_match.pk}").json()["stamp"]
    url = f"/api/v1/matches/{started_match.pk}?since={stamp}"
    assert client.get(url).json()["changed"] is False
    assert _count(client, "get", url) == 1
