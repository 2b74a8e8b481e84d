"""The API's event stream (``api.stream``, ``api.events``, ``streams.events``):
what each change tells each player, resuming after a number without loss or
duplicates, the scopes, one stream per token, the keep-alive, pruning, and
that an open stream holds no database connection."""

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.http import JsonResponse
from django.test import AsyncClient, Client, RequestFactory
from django.utils import timezone

from api import stream, tokens
from core.errors import ServiceError
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Visibility
from games.play import chat, services
from streams import events
from streams.models import Event
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db

ALL = list(tokens.HUMAN_SCOPES)


def opened_for(user, scopes=ALL, since=None):
    _token, raw = tokens.make_token(user, "bot", scopes)
    query = "" if since is None else f"?since={since}"
    request = RequestFactory().get(f"/api/v1/stream{query}", HTTP_AUTHORIZATION=f"Bearer {raw}")
    opened = stream.open_stream(request)
    assert not isinstance(opened, JsonResponse), opened.content
    return opened


def read(opened, since=0):
    lines, last = stream.read(opened, since)
    return [json.loads(line) for line in lines], last


@pytest.fixture
def pair(alice, bob):
    """Alice's Nogi match that bob joined (alice seat 0, bob seat 1)."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


def test_a_match_tells_its_players_each_moment_in_order(pair, nogi, alice, bob):
    first_deadline = pair.deadline
    starter = user_to_move(pair, nogi)
    waiter = bob if starter == alice else alice
    move = play_one(pair, nogi)
    seen, last = read(opened_for(alice))
    assert [e["type"] for e in seen][:2] == ["challenge_accepted", "match_started"]
    assert [e["id"] for e in seen] == list(range(1, len(seen) + 1)) and last == len(seen)
    accepted, started = seen[:2]
    assert accepted["by"] == "bob" and accepted["match"] == pair.pk
    assert started["my_seat"] == 0 and [s["player"] for s in started["seats"]] == ["alice", "bob"]
    # The starter hears the match start, their turn, their own move; the
    # other the move and then their turn.
    seen_by = {alice: seen[1:], bob: read(opened_for(bob))[0]}
    assert [e["type"] for e in seen_by[starter]] == ["match_started", "your_turn", "move"]
    assert [e["type"] for e in seen_by[waiter]] == ["match_started", "move", "your_turn"]
    turn = seen_by[starter][1]
    assert turn["version"] == 0 and turn["deadline"] == first_deadline.isoformat()
    pair.refresh_from_db()
    assert seen_by[waiter][2]["version"] == 1
    assert seen_by[waiter][2]["deadline"] == pair.deadline.isoformat()
    for user, my_turn in ((starter, False), (waiter, True)):
        moved = [e for e in seen_by[user] if e["type"] == "move"][0]
        assert moved["version"] == move.seq == 1 and moved["seat"] == move.seat
        assert moved["to_move"] == [1 - move.seat] and moved["my_turn"] is my_turn
        assert moved["lines"] and moved["who"] == starter.username


def test_resuming_after_a_number_sends_the_rest_once(pair, nogi, alice):
    opened = opened_for(alice)
    first, last = read(opened)
    play_one(pair, nogi)
    play_one(pair, nogi)
    rest, newest = read(opened, last)
    assert [e["id"] for e in rest] == list(range(last + 1, newest + 1))
    assert read(opened, newest) == ([], newest)
    # A new stream resuming from the same number sends the same lines.
    again, _last = read(opened_for(alice, since=last), last)
    assert again == rest


def test_a_stream_without_since_starts_with_what_comes_next(pair, nogi, alice):
    opened = opened_for(alice)
    kept = Event.objects.filter(user=alice).count()
    assert opened.since == kept  # accepted, started, maybe a turn: kept, not sent again
    play_one(pair, nogi)
    seen, _last = read(opened, opened.since)
    assert "move" in [e["type"] for e in seen]
    assert all(e["id"] > kept for e in seen)


def test_numbers_follow_visibility_not_ids(alice):
    """A transaction that took an id first but committed last still gets the
    next number: a stream that sent number N never misses it."""
    late_id = 1000
    Event.objects.create(pk=late_id + 5, user=alice, kind="chat")
    assert events.settle(alice.pk) == 1
    Event.objects.create(pk=late_id, user=alice, kind="move")  # committed after
    assert events.settle(alice.pk) == 2
    assert [(e.pk, e.seq) for e in events.after(alice.pk, 1, ["move", "chat"])] == [(late_id, 2)]


def test_a_refused_move_writes_no_event(pair, nogi):
    user = user_to_move(pair, nogi)
    seat = pair.seats.get(user=user)
    action = nogi.legal_actions(pair.state, seat.index)[0]
    before = list(Event.objects.values_list("pk", flat=True))
    with pytest.raises(ServiceError):
        services.submit_action(pair, user, action, pair.version + 1)  # stale
    assert list(Event.objects.values_list("pk", flat=True)) == before
    services.submit_action(pair, user, action, pair.version)
    assert Event.objects.filter(kind="move").count() == 2  # one per seated player


def test_chat_and_challenges(alice, bob, carol):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE
    )
    invitations.invite_user(user=alice, match=match, username="bob")
    invitations.invite_user(user=alice, match=match, username="carol")
    bob_stream, carol_stream = opened_for(bob), opened_for(carol)
    assert [e["type"] for e in read(bob_stream, 0)[0]] == ["challenge_received"]
    invitations.decline_invitation(user=carol, match=match)
    lobby.join_match(user=bob, match=match)
    seen, _last = read(opened_for(alice))
    assert [(e["type"], e.get("by")) for e in seen] == [
        ("challenge_declined", "carol"),
        ("challenge_accepted", "bob"),
    ]
    assert carol_stream.since == 1
    match.refresh_from_db()


def test_chat_reaches_the_other_players(pair, alice, bob):
    chat.post_message(alice, pair, "good luck")
    seen, _last = read(opened_for(bob))
    said = [e for e in seen if e["type"] == "chat"]
    assert [(e["by"], e["text"]) for e in said] == [("alice", "good luck")]
    assert not [e for e in read(opened_for(alice))[0] if e["type"] == "chat"]


@pytest.mark.parametrize(
    "scopes,heard",
    [
        (["challenge:read"], ["challenge_accepted"]),
        (["match:read"], ["match_started"]),
    ],  # bot:play, a bot account's, is heard with in tests/clients/test_reference_client_e2e.py
)
def test_a_token_hears_only_what_its_scopes_allow(pair, alice, scopes, heard):
    heard_now = [e["type"] for e in read(opened_for(alice, scopes))[0] if e["type"] != "your_turn"]
    assert heard_now == heard


def _get(raw, *, since="", **headers):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}", **headers)
    return client.get("/api/v1/stream" + (f"?since={since}" if since else ""))


def _error(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == code


def test_bad_requests_are_json_errors(alice):
    _token, raw = tokens.make_token(alice, "t", ["match:play", "tournament:write"])
    _error(_get(raw), 403, "missing_scope")
    _error(Client().get("/api/v1/stream"), 401, "no_token")
    _error(_get("smk_nothing"), 401, "bad_token")
    _token, good = tokens.make_token(alice, "t2", ["match:read"])
    for bad in ("x", "-1", "1e3", "٣", "9" * 30):
        _error(_get(good, since=bad), 400, "bad_input")
    assert Client().post("/api/v1/stream").status_code == 405


def close(response) -> None:
    """End a stream as its client leaving would, without the end of the
    request closing the test's database connection (as the live stream's
    tests do: PostgreSQL would refuse it inside the test's transaction)."""
    from unittest import mock

    with mock.patch.object(connection, "close_if_unusable_or_obsolete", lambda: None):
        response.close()


def test_a_second_stream_on_a_token_is_refused_until_the_first_ends(alice):
    _token, raw = tokens.make_token(alice, "t", ["match:read"])
    first = _get(raw)
    assert first.status_code == 200
    assert first["Content-Type"] == "application/x-ndjson"
    _error(_get(raw), 409, "stream_open")
    _token, other = tokens.make_token(alice, "t2", ["match:read"])
    second = _get(other)  # another token of the same player may
    assert second.status_code == 200
    close(first)
    close(second)
    again = _get(raw)
    assert again.status_code == 200
    close(again)


def test_the_kept_events_are_pruned_after_the_window(alice, settings):
    events.record([events.New(alice.pk, "chat"), events.New(alice.pk, "move")])
    old = timezone.now() - timedelta(hours=settings.SMOKI["STREAM_KEEP_HOURS"], minutes=1)
    Event.objects.filter(kind="chat").update(created_at=old)
    assert events.prune() == 1
    assert list(Event.objects.values_list("kind", flat=True)) == ["move"]
    from streams import tasks

    assert tasks.prune_events() == 0


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_move_arrives_with_keepalives_and_no_connection_is_held(
    alice, bob, nogi, settings
):
    """The production path: the async iterator served as is. The move made
    while the stream waits arrives; keep-alive lines come while nothing
    happens; and every read has closed its database connection after it."""
    settings.SMOKI = {
        **settings.SMOKI,
        "REDIS_URL": "",
        "LIVE_PROBE_SECONDS": 0.05,
        "STREAM_KEEPALIVE_SECONDS": 0.2,
    }
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    _token, raw = tokens.make_token(bob, "bot", ["match:read"])
    held = []
    original = stream.read

    def reading(opened, since):
        answer = original(opened, since)
        memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
        held.append(not memory and connection.connection is not None)
        return answer

    async def scenario():
        client = AsyncClient()
        response = await client.get("/api/v1/stream", headers={"Authorization": f"Bearer {raw}"})
        assert response.status_code == 200, response.content
        chunks = aiter(response.streaming_content)
        first = await anext(chunks)
        await sync_to_async(play_one)(match, nogi)
        seen = []
        while not any(b'"move"' in chunk for chunk in seen):
            seen.append(await asyncio.wait_for(anext(chunks), 10))
        while seen[-1] != b"\n":
            seen.append(await asyncio.wait_for(anext(chunks), 10))
        await chunks.aclose()
        await sync_to_async(connections.close_all)()
        return first, seen

    stream._read = sync_to_async(reading, thread_sensitive=False)
    try:
        first, seen = asyncio.run(scenario())
    finally:
        stream._read = sync_to_async(original, thread_sensitive=False)
    assert first == b"\n"
    moves = [json.loads(line) for chunk in seen for line in chunk.splitlines() if line]
    assert [e["version"] for e in moves if e["type"] == "move"] == [1]
    assert seen[-1] == b"\n"
    assert held and not any(held)


def test_a_revoked_token_ends_its_stream_at_the_next_keepalive(alice, settings):
    """Revoking on the tokens page marks the token in the shared cache: the
    stream's keep-alive sees it and the stream ends, without a database
    check; the periodic check (``token_alive``) agrees."""
    token, raw = tokens.make_token(alice, "bot", ["match:read"])
    request = RequestFactory().get("/api/v1/stream", HTTP_AUTHORIZATION=f"Bearer {raw}")
    opened = stream.open_stream(request)
    assert stream.beat(opened) and stream.token_alive(token.pk)
    tokens.revoke_token(alice, token.pk)
    assert not stream.beat(opened) and not stream.token_alive(token.pk)
    # Deleted with its owner's account: the same.
    other, raw = tokens.make_token(alice, "bot2", ["match:read"])
    again = stream.open_stream(
        RequestFactory().get("/api/v1/stream", HTTP_AUTHORIZATION=f"Bearer {raw}")
    )
    assert stream.beat(again)
    alice.delete()
    assert not stream.beat(again) and not stream.token_alive(other.pk)


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_revoked_tokens_stream_ends(alice, settings):
    settings.SMOKI = {
        **settings.SMOKI,
        "REDIS_URL": "",
        "LIVE_PROBE_SECONDS": 0.05,
        "STREAM_KEEPALIVE_SECONDS": 0.1,
    }
    token, raw = tokens.make_token(alice, "bot", ["match:read"])

    async def scenario():
        client = AsyncClient()
        response = await client.get("/api/v1/stream", headers={"Authorization": f"Bearer {raw}"})
        assert response.status_code == 200, response.content
        chunks = aiter(response.streaming_content)
        assert await anext(chunks) == b"\n"
        await sync_to_async(tokens.revoke_token)(alice, token.pk)
        rest = []
        async for chunk in chunks:  # ends: no timeout needed beyond the test's own
            rest.append(chunk)
            assert len(rest) < 100
        await sync_to_async(connections.close_all)()
        return rest

    rest = asyncio.run(scenario())
    assert all(chunk == b"\n" for chunk in rest)


def test_an_oauth_tokens_stream_is_checked_as_its_access_token(alice):
    from oauth2_provider.models import AccessToken

    access = AccessToken.objects.create(
        user=alice,
        token_checksum="0" * 64,
        scope="match:read",
        expires=timezone.now() + timedelta(hours=1),
    )
    key = f"oauth-{access.pk}"
    assert stream.token_alive(key)
    access.expires = timezone.now() - timedelta(seconds=1)
    access.save()
    assert not stream.token_alive(key)
    access.delete()  # revoked by its app (RFC 7009) or on the tokens page
    assert not stream.token_alive(key)
    from django.core.cache import cache

    assert cache.get(tokens.revoked_key(key))


def test_reading_numbers_and_reads_what_settle_and_after_would(alice, bob):
    """``events.read`` (one statement on PostgreSQL) gives what ``settle``
    then ``after`` give, kinds filtered, and numbers only once."""
    events.record([events.New(alice.pk, "move", version=1), events.New(alice.pk, "chat")])
    events.record([events.New(bob.pk, "move", version=1)])
    got = events.read(alice.pk, 0, ["move"])
    assert [(e.kind, e.seq, e.version) for e in got] == [("move", 1, 1)]
    assert events.settle(alice.pk) == 2  # the chat row was numbered too
    assert events.read(alice.pk, 1, ["move", "chat"])[0].seq == 2
    assert events.read(alice.pk, 2, ["move", "chat"]) == []
    events.record([events.New(alice.pk, "move", version=2)])
    assert [e.seq for e in events.read(alice.pk, 0, ["move"])] == [1, 3]
    assert [e.seq for e in events.read(bob.pk, 0, ["move"])] == [1]


def test_an_oauth_token_opens_a_stream_and_its_revocation_ends_it(alice):
    """An OAuth access token hears as a personal token does; the stream's
    token check reads the access token (revoking one deletes it)."""
    from oauth2_provider.models import AccessToken, set_token_value

    from api import oauth

    raw = oauth.access_token(None)
    token = AccessToken(user=alice, scope="match:read", expires=timezone.now() + timedelta(hours=1))
    set_token_value(token, raw)
    token.save()
    request = RequestFactory().get("/api/v1/stream", HTTP_AUTHORIZATION=f"Bearer {raw}")
    opened = stream.open_stream(request)
    assert not isinstance(opened, JsonResponse), opened.content
    assert opened.user_id == alice.pk and opened.token_id == f"oauth-{token.pk}"
    assert stream.token_alive(opened.token_id)
    token.delete()
    assert not stream.token_alive(opened.token_id)
    stream.release(opened)
