"""The API's fuzzer: every endpoint, with every scope and role, and bad input.

Roles: the seat to move, a seat not to move, a stranger, a token without
the scope, a revoked token, an expired one, no token, and OAuth access
tokens (a stranger's with every scope, an expired one). Matches: one in play,
another person's private one, a finished one, one that does not exist.
Bodies: malformed JSON, wrong types, unknown action ids, stale versions.
Each answer is either a success the role is entitled to or a 4xx with a JSON
error; never a 500; and a refusal changes nothing (the version, the status,
the chat and the seats stay as they were).
"""

import json
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from oauth2_provider.models import AccessToken, set_token_value

from accounts import bots
from api import oauth, tokens
from api import urls as api_urls
from api.models import ApiToken
from games.lobby import services as lobby
from games.models import ChatMessage, Invitation, Match, MatchStatus, Seat, Visibility
from games.play import safety
from ladders.models import Entry
from tests.conftest import each_seat_moves, user_to_move

pytestmark = pytest.mark.django_db

# Every API endpoint (by URL name) and the paths and bodies it is fuzzed with.
GETS = {
    "api-v1:me": ["/api/v1/me"],
    "api-v1:games": ["/api/v1/games"],
    "api-v1:my_matches": ["/api/v1/matches"],
    "api-v1:finished": ["/api/v1/matches/finished?page={junk}", "/api/v1/matches/finished"],
    "api-v1:match": ["/api/v1/matches/{pk}", "/api/v1/matches/{pk}?since={junk}"],
    "api-v1:match_log": ["/api/v1/matches/{pk}/log", "/api/v1/matches/{pk}/log?page={junk}"],
    "api-v1:openapi-json": ["/api/v1/openapi.json"],
    "api-v1:openapi-view": ["/api/v1/docs"],
    "api-v1:api-root": ["/api/v1/"],
    "api-v1:index": ["/api/v1/"],
    "api-v1:challenges": ["/api/v1/challenges"],
    "api-v1:tournaments": ["/api/v1/tournaments"],
    "api-v1:player": ["/api/v1/players/{junk}", "/api/v1/players/alice"],
    "api-v1:leaderboard": ["/api/v1/leaderboards/{junk}", "/api/v1/leaderboards/nogi?page={junk}"],
    "api-v1:invitation_lists": ["/api/v1/invitations"],
    "api-v1:ladders": ["/api/v1/ladders"],
    "api-v1:ladder": ["/api/v1/ladders/{junk}", "/api/v1/ladders/drako"],
}
POSTS = {
    "api-v1:act": "/api/v1/matches/{pk}/actions",
    "api-v1:resign": "/api/v1/matches/{pk}/resign",
    "api-v1:post_chat": "/api/v1/matches/{pk}/chat",
    "api-v1:post_notes": "/api/v1/matches/{pk}/notes",
    "api-v1:undo": "/api/v1/matches/{pk}/undo",
    "api-v1:join": "/api/v1/matches/{pk}/join",
    "api-v1:leave": "/api/v1/matches/{pk}/leave",
    "api-v1:decline": "/api/v1/matches/{pk}/decline",
    "api-v1:rematch": "/api/v1/matches/{pk}/rematch",
    "api-v1:tournament_action": "/api/v1/tournaments/{pk}/join",
    "api-v1:accept": "/api/v1/matches/{pk}/accept",
    "api-v1:invite": "/api/v1/matches/{pk}/invite",
    "api-v1:ladder_challenge": "/api/v1/ladders/drako/challenge",
    "api-v1:ladder_answer": "/api/v1/ladders/challenges/{pk}/accept",
}
# Paths without a match: a new match (POST /matches), a ladder's rows. None of
# the BODIES makes a valid one, so each answer is a 4xx.
POSTS_ELSEWHERE = {
    "api-v1:create_match": "/api/v1/matches",
    "api-v1:ladder_join": "/api/v1/ladders/{junk}/join",
    "api-v1:ladder_leave": "/api/v1/ladders/{junk}/leave",
}
# What the waiting seat may really do to the match in play: write (checked apart).
WRITES = {"api-v1:post_chat", "api-v1:post_notes"}
# The event stream (``GET /api/v1/stream``, outside the ninja API's
# namespace): fuzzed apart, below, as it is long-lived.
STREAM = "api_stream"
FUZZED = set(GETS) | set(POSTS) | set(POSTS_ELSEWHERE) | {STREAM}
BODIES = [
    "{not json",
    "[]",
    '{"action_id": 5, "version": "x"}',
    '{"action_id": "0000000000000000", "version": 1}',
    '{"action_id": "0000000000000000", "version": 999999}',
    '{"text": ""}',
    '{"text": 12}',
    '{"text": "' + "x" * 5000 + '"}',
    '{"answer": "ask"}',
    '{"answer": "agree"}',
    '{"answer": "maybe"}',
    '{"username": "nobody-at-all"}',
    '{"username": 5}',
    '{"username": "' + "ż" * 300 + '"}',
    '{"opponent": "alice"}',
    '{"opponent": 5}',
    '{"game": "nogi", "players": 99}',
    '{"game": "nogi", "players": 3, "options": {"first_player": "me"}}',
    '{"game": "nogi", "players": 3, "options": "x"}',
    '{"game": "drako", "players": 2, "invite": "nobody"}',
    '{"game": "drako", "players": 2, "time_per_move": -5}',
]
JUNK = ["0", "-1", "x", "99999999999999999999", "%00", "ż" * 200]


def _api_names(patterns=None, namespace=None):
    names = set()
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            names |= _api_names(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name and namespace == "api-v1":
            names.add(f"{namespace}:{pattern.name}")
    return names


def _stream_names() -> set[str]:
    return {p.name for p in api_urls.urlpatterns if isinstance(p, URLPattern) and p.name}


def test_every_api_endpoint_is_fuzzed():
    assert _api_names() | _stream_names() == FUZZED


def _snapshot(matches):
    return [
        (
            m.version,
            m.status,
            ChatMessage.objects.filter(match=m).count(),
            list(Seat.objects.filter(match=m).values_list("status", flat=True)),
        )
        for m in Match.objects.filter(pk__in=[m.pk for m in matches]).order_by("pk")
    ]


def _clients(match, nogi, make_user):
    to_move = user_to_move(match, nogi)
    waiting = match.seats.exclude(user=to_move).first().user
    stranger = make_user("fuzz-stranger")
    # A bot account holding no seat, with every scope a bot may hold.
    bot = make_user("fuzz-bot")
    bots.become_bot(bot)
    bot = type(bot).objects.select_related("profile").get(pk=bot.pk)
    clients = {"no token": Client()}
    for name, user, scopes in (
        ("to move, no scope", to_move, ["tournament:write"]),
        ("waiting", waiting, ["match:read", "match:play"]),
        ("stranger", stranger, list(tokens.HUMAN_SCOPES)),
        ("bot account", bot, list(tokens.SCOPES)),
        ("revoked", to_move, list(tokens.HUMAN_SCOPES)),
        ("expired", to_move, list(tokens.HUMAN_SCOPES)),
    ):
        token, raw = tokens.make_token(user, name, scopes)
        if name == "revoked":
            tokens.revoke_token(user, token.pk)
        if name == "expired":
            ApiToken.objects.filter(pk=token.pk).update(expires_at="2000-01-01T00:00Z")
        clients[name] = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    # OAuth access tokens: a stranger's with every scope, and an expired one.
    for name, user, expires in (
        ("oauth stranger", stranger, timezone.now() + timedelta(hours=1)),
        ("oauth expired", to_move, timezone.now() - timedelta(seconds=1)),
    ):
        raw = oauth.access_token(None)
        token = AccessToken(user=user, scope=" ".join(tokens.SCOPES), expires=expires)
        set_token_value(token, raw)
        token.save()
        clients[name] = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return clients


def _check(response, where):
    assert response.status_code < 500, where
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), where
        assert response.json()["error"]["code"], where


def test_no_role_scope_or_input_gets_a_500_or_changes_anything(
    started_match, nogi, alice, bob, make_user
):
    private = lobby.create_match(
        user=bob, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    finished = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=finished)
    finished = each_seat_moves(finished)
    safety.resign(user=alice, match=finished)
    finished.refresh_from_db()
    assert finished.status == MatchStatus.FINISHED
    matches = [started_match, private, finished]
    before = _snapshot(matches)
    matches_before = Match.objects.count()
    for role, client in _clients(started_match, nogi, make_user).items():
        elsewhere = {path.format(junk=junk) for path in POSTS_ELSEWHERE.values() for junk in JUNK}
        for url in sorted(elsewhere):
            for data in BODIES:
                response = client.post(url, data, content_type="application/json")
                _check(response, f"{role} POST {url} {data[:40]}")
                assert response.status_code >= 400, (role, url, data[:40])
        for pk in [m.pk for m in matches] + [987654]:
            for paths in GETS.values():
                for path in paths:
                    for junk in JUNK:
                        url = path.format(pk=pk, junk=junk)
                        _check(client.get(url), f"{role} GET {url}")
            for name, path in POSTS.items():
                entitled = role == "waiting" and pk == started_match.pk
                if entitled and name == "api-v1:resign":
                    continue  # a real resignation (tests/api/test_api.py)
                url = path.format(pk=pk)
                for data in BODIES:
                    response = client.post(url, data, content_type="application/json")
                    _check(response, f"{role} POST {url} {data[:40]}")
                    if not (entitled and name in WRITES):
                        assert response.status_code >= 400, (role, url, data[:40])
    # Only the waiting seat's well-formed chat line may have been posted.
    after = _snapshot(matches)
    assert Match.objects.count() == matches_before
    assert not Entry.objects.exists() and not Invitation.objects.exists()
    assert [row[:2] + row[3:] for row in after] == [row[:2] + row[3:] for row in before]
    assert after[1][2] == before[1][2] and after[2][2] == before[2][2]


# -- The event stream -------------------------------------------------------------------

# Bad numbers to resume after, as ``?since=`` or a ``Last-Event-ID`` header;
# ``after`` is no parameter of the stream's, and is ignored.
STREAM_JUNK = [*JUNK, "", " 1", "1.5", "1e3", "٣", "+1", "0x10", "9" * 30, "1\n2"]


@contextmanager
def streams_end_at_once(settings):
    """A stream that ends after its first keep-alive (``SMOKI_STREAM_SECONDS``
    0), and whose end does not close the test's own database connection
    (its reads run in a worker thread, as the server's do: the tests that
    read one commit their rows, ``transaction=True``)."""
    settings.SMOKI = {**settings.SMOKI, "STREAM_SECONDS": 0}
    with mock.patch.object(connection, "close_if_unusable_or_obsolete", lambda: None):
        yield


def drain(response) -> list[dict]:
    """Read a stream to its end (the first keep-alive) and close it: its
    lines, each a JSON object or empty."""
    assert response["Content-Type"] == "application/x-ndjson"
    body = b"".join(response.streaming_content)
    response.close()
    assert body.endswith(b"\n"), body[-40:]
    return [json.loads(line) for line in body.split(b"\n") if line.strip()]


def check_stream(response, where) -> list[dict] | None:
    """A 4xx JSON error, or a stream read to its end; never a 500."""
    _check(response, where)
    if response.status_code >= 400:
        return None
    assert response.status_code == 200, where
    return drain(response)


@pytest.mark.django_db(transaction=True)
def test_the_stream_answers_every_role_and_bad_input_with_json(
    started_match, nogi, make_user, settings
):
    """Every role (wrong scopes, revoked, expired, no token, OAuth), every bad
    number to resume after (query or header), a second stream on a token,
    and other methods: a 4xx JSON error or a stream read to its end."""
    clients = _clients(started_match, nogi, make_user)
    answered = {}
    with streams_end_at_once(settings):
        for role, client in clients.items():
            for junk in STREAM_JUNK:
                for url, headers in (
                    (f"/api/v1/stream?since={junk}", {}),
                    (f"/api/v1/stream?after={junk}", {}),
                    ("/api/v1/stream", {"HTTP_LAST_EVENT_ID": junk}),
                ):
                    cache.clear()  # below the limits per token and address
                    response = client.get(url, **headers)
                    check_stream(response, f"{role} GET {url} {headers}")
                    answered.setdefault(role, set()).add(response.status_code)
            for method in ("post", "put", "delete", "patch"):
                response = getattr(client, method)("/api/v1/stream", "{}", "application/json")
                _check(response, f"{role} {method} stream")
                assert response.status_code == 405
    # Who may hear gets a stream; the others their refusal.
    for role in ("waiting", "stranger", "bot account", "oauth stranger"):
        assert 200 in answered[role] and 400 in answered[role], (role, answered[role])
    for role, status in (
        ("no token", 401),
        ("revoked", 401),
        ("expired", 401),
        ("oauth expired", 401),
        ("to move, no scope", 403),
    ):
        # Their refusal; or 400 first where a parameter holds a NUL (the
        # site's guard answers before any token is read).
        assert status in answered[role] <= {status, 400}, (role, answered[role])


@pytest.mark.django_db(transaction=True)
def test_a_second_stream_and_a_revoked_token_are_json_errors(started_match, alice, settings):
    token, raw = tokens.make_token(alice, "stream", ["match:read"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    with streams_end_at_once(settings):
        first = client.get("/api/v1/stream?since=0")
        assert first.status_code == 200
        for headers in ({}, {"HTTP_LAST_EVENT_ID": "1"}, {"HTTP_LAST_EVENT_ID": "x"}):
            second = client.get("/api/v1/stream", **headers)
            _check(second, f"second stream {headers}")
            assert second.status_code in (409, 400)
        seen = drain(first)
        assert "match_started" in [e["type"] for e in seen]
        again = client.get("/api/v1/stream?since=0")  # the first ended: its mark went with it
        assert [e["type"] for e in check_stream(again, "again")] == [e["type"] for e in seen]
        tokens.revoke_token(alice, token.pk)
        revoked = client.get("/api/v1/stream")
        _check(revoked, "revoked")
        assert revoked.status_code == 401
