"""The match's events stream (games.live): a committed move reaches every open
stream as a version event, a stream tells a seated player whether every seated
human has the page open ("live"), it never carries anything a seat must not
know, it answers 404 to whoever may not see the match, and without Redis a
change made by another process still arrives by the stream's probe."""

import asyncio
import socket
import time
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.live import stream
from games.lobby import services as lobby
from games.models import Match, MatchStatus
from games.play import safety
from games.web import live_views
from streams import bus
from tests.conftest import each_seat_moves, play_one
from tests.web.test_secrets import alter_secrets_of

FAST = {"LIVE_HEARTBEAT_SECONDS": 60, "LIVE_PROBE_SECONDS": 60, "REDIS_URL": ""}


@pytest.fixture
def live_settings(settings):
    settings.SMOKI = {**settings.SMOKI, **FAST}
    return settings


@pytest.fixture
def no_probe(monkeypatch):
    """The stream's probe reads the database from another thread; these tests
    hold their data in one uncommitted transaction, so the probe sees nothing
    new (it is tested apart, on committed data)."""

    async def nothing():
        return "same"

    monkeypatch.setattr(live_views, "_probe_for", lambda pk: nothing)


@pytest.fixture
def pair(alice, bob):
    """A started two-player public Nogi match: alice seat 0, bob seat 1."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


def open_stream(user, match):
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("match_events", args=[match.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    return response, iter(response.streaming_content)


def close(response) -> None:
    """End a stream as the page leaving it would, without the end of the
    request closing the test's database connection (PostgreSQL would then
    refuse it inside the test's transaction; the test client's own wrapper
    puts that receiver back while the response closes)."""
    from unittest import mock

    from django.db import connection

    with mock.patch.object(connection, "close_if_unusable_or_obsolete", lambda: None):
        response.close()


def next_event(chunks) -> str:
    """The next event, skipping the retry line and heartbeats."""
    while True:
        chunk = next(chunks).decode()
        if chunk.startswith("event:"):
            return chunk


pytestmark = pytest.mark.django_db


def test_a_committed_move_reaches_the_others_stream(
    pair, nogi, live_settings, no_probe, django_capture_on_commit_callbacks, bob
):
    response, chunks = open_stream(bob, pair)
    try:
        assert next_event(chunks) == "event: live\ndata: 0\n\n"  # alice is not there
        with django_capture_on_commit_callbacks(execute=True):
            move = play_one(pair, nogi)
        assert next_event(chunks) == f"event: version\ndata: {move.seq}\n\n"
    finally:
        close(response)


def test_nothing_is_sent_before_the_commit(pair, nogi, live_settings, no_probe, bob):
    """The announcement waits for the commit: a page must never fetch a
    position that is not there yet."""
    from streams.bus import _listeners

    response, chunks = open_stream(bob, pair)
    try:
        next_event(chunks)
        play_one(pair, nogi)  # the test's transaction never commits
        queued = [list(queue._queue) for pairs in _listeners.values() for _loop, queue in pairs]
        assert queued == [[stream.PRESENCE]]  # bob's own arrival, not the move
    finally:
        close(response)


def test_live_while_every_seated_human_has_the_page_open(pair, alice, bob, live_settings, no_probe):
    response_b, bob_stream = open_stream(bob, pair)
    try:
        assert next_event(bob_stream) == "event: live\ndata: 0\n\n"
        response_a, alice_stream = open_stream(alice, pair)
        assert next_event(alice_stream) == "event: live\ndata: 1\n\n"
        assert next_event(bob_stream) == "event: live\ndata: 1\n\n"
        close(response_a)  # alice leaves the page
        assert next_event(bob_stream) == "event: live\ndata: 0\n\n"
    finally:
        close(response_b)


def test_bots_count_as_present(alice, live_settings, no_probe):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.fill_with_bots(user=alice, match=match)
    match.refresh_from_db()
    response, chunks = open_stream(alice, match)
    try:
        assert next_event(chunks) == "event: live\ndata: 1\n\n"
    finally:
        close(response)


def test_a_spectator_hears_versions_but_not_who_is_there(
    pair, carol, nogi, live_settings, no_probe, django_capture_on_commit_callbacks
):
    response, chunks = open_stream(carol, pair)
    try:
        assert next(chunks) == b"retry: 2000\n\n"  # listening from here on
        with django_capture_on_commit_callbacks(execute=True):
            move = play_one(pair, nogi)
        assert next_event(chunks) == f"event: version\ndata: {move.seq}\n\n"
    finally:
        close(response)


def test_who_may_not_see_the_match_gets_404_and_an_ended_match_204(alice, bob, carol):
    private = lobby.create_match(user=alice, game_key="nogi", n_seats=2, visibility="private")
    lobby.join_match(user=bob, match=private, token=private.invite_token)
    for user in (carol, None):
        client = Client()
        if user is not None:
            client.force_login(user)
        assert client.get(reverse("match_events", args=[private.pk])).status_code == 404
    assert Client().get(reverse("match_events", args=[10**6])).status_code == 404
    each_seat_moves(private)
    safety.resign(user=bob, match=private)
    assert Match.objects.get(pk=private.pk).status == MatchStatus.FINISHED
    client = Client()
    client.force_login(alice)
    assert client.get(reverse("match_events", args=[private.pk])).status_code == 204
    assert client.post(reverse("match_events", args=[private.pk])).status_code == 405


def stream_bytes(match, viewer, nogi, capture) -> bytes:
    """Everything a viewer's stream sends while the others make two moves."""
    response, chunks = open_stream(viewer, match)
    seen = [next(chunks), next(chunks)]  # retry, live
    try:
        for _ in range(2):
            with capture(execute=True):
                play_one(match, nogi)
            seen.append(next(chunks))
    finally:
        close(response)
    return b"".join(seen)


def test_the_stream_carries_no_secret(
    alice, bob, carol, nogi, live_settings, no_probe, django_capture_on_commit_callbacks
):
    """Two deals that differ only in what carol may not know (alice's and bob's
    shields and bunnies, the dragon stack, the dice's state) give carol's
    stream the same bytes."""
    streams = []
    for altered in (False, True):
        match = lobby.create_match(user=carol, game_key="nogi", n_seats=3)
        lobby.join_match(user=alice, match=match)
        lobby.join_match(user=bob, match=match)
        match.refresh_from_db()
        if altered:
            for seat in match.seats.exclude(user=carol):
                alter_secrets_of(match, seat.index)
                match.refresh_from_db()
        streams.append(stream_bytes(match, carol, nogi, django_capture_on_commit_callbacks))
    assert streams[0] == streams[1]
    assert b"event: version" in streams[0]


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_probe_sees_a_change_made_elsewhere(alice, bob, settings):
    """A bot's move made by the worker is published in the worker's process: a
    stream served elsewhere hears of it by its probe, within a second."""
    settings.SMOKI = {**settings.SMOKI, "REDIS_URL": "", "LIVE_PROBE_SECONDS": 0.2}
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    response, chunks = open_stream(bob, match)
    try:
        next_event(chunks)  # live: 0
        # A write no one announces in this process (as another process's would be).
        Match.objects.filter(pk=match.pk).update(version=match.version + 1)
        started = time.monotonic()
        assert next_event(chunks) == f"event: version\ndata: {match.version + 1}\n\n"
        assert time.monotonic() - started < 1.0
    finally:
        close(response)


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_a_move_committed_elsewhere_reaches_the_stream(
    alice, bob, nogi, settings, monkeypatch
):
    """The production path: the move publishes on Redis, the stream's process
    hears it on its one pattern subscription."""
    if not _redis_up():
        pytest.skip("no Redis server on 127.0.0.1:6379 (the Redis path needs one)")
    settings.SMOKI = {**settings.SMOKI, **FAST, "REDIS_URL": "redis://127.0.0.1:6379/0"}
    # Topics of this run alone: pub/sub is shared by every database of the server.
    monkeypatch.setattr(bus, "PREFIX", f"smoki-test-{uuid.uuid4().hex}:")
    monkeypatch.setattr(bus, "_publisher", None)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    response, chunks = open_stream(bob, match)
    try:
        assert next_event(chunks) == "event: live\ndata: 0\n\n"
        move = play_one(match, nogi)
        started = time.monotonic()
        assert next_event(chunks) == f"event: version\ndata: {move.seq}\n\n"
        assert time.monotonic() - started < 1.0
    finally:
        close(response)
        asyncio.run(asyncio.sleep(0))


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_holds_no_database_connection(alice, bob, nogi, live_settings):
    """The production path (an ASGI server, the async iterator served as is):
    the move arrives, and the thread that read the seats has closed its
    database connection before the first event."""
    from asgiref.sync import sync_to_async
    from django.db import connection, connections
    from django.test import AsyncClient

    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    opened = []
    original = live_views._watch

    def watching(request, pk):
        watch = original(request, pk)
        # Closed by _watch itself (SQLite's in-memory test database ignores a
        # close, which would lose it: there the close is asked for, no more).
        memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
        opened.append("closed" if memory or connection.connection is None else "open")
        return watch

    async def scenario():
        client = AsyncClient()
        await sync_to_async(client.force_login)(bob)
        response = await client.get(reverse("match_events", args=[match.pk]))
        assert response.status_code == 200
        chunks = aiter(response.streaming_content)
        seen = [await anext(chunks), await anext(chunks)]  # retry, live
        move = await sync_to_async(play_one)(match, nogi)
        seen.append(await asyncio.wait_for(anext(chunks), 5))
        await chunks.aclose()
        # The test's own calls ran in a thread of asgiref's: its connection too.
        await sync_to_async(connections.close_all)()
        return seen, move

    live_views._watch = watching
    try:
        seen, move = asyncio.run(scenario())
    finally:
        live_views._watch = original
    assert seen[0] == b"retry: 2000\n\n"
    assert seen[1] == b"event: live\ndata: 0\n\n"
    assert seen[2] == f"event: version\ndata: {move.seq}\n\n".encode()
    assert opened == ["closed"]


def test_an_open_table_is_not_live_and_its_stream_ends_when_it_fills(
    alice, bob, live_settings, no_probe, django_capture_on_commit_callbacks
):
    """A creator alone at a table still gathering players is not playing
    live; when the table fills, the stream says so and ends, and the
    browser's reconnection reads the seats afresh."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    response, chunks = open_stream(alice, match)
    try:
        assert next(chunks) == b"retry: 2000\n\n"
        with django_capture_on_commit_callbacks(execute=True):
            lobby.join_match(user=bob, match=match)
        assert next_event(chunks).startswith("event: version\n")
        assert list(chunks) == []  # the stream has ended
    finally:
        close(response)
    response, chunks = open_stream(alice, match)
    try:
        assert next_event(chunks) == "event: live\ndata: 0\n\n"  # bob is not there
    finally:
        close(response)


def test_a_redis_out_of_reach_costs_a_move_once_then_nothing(settings, monkeypatch):
    """Publishing never raises, and after one failure the process leaves Redis
    alone for a while: the next moves do not wait on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once closed
    settings.SMOKI = {**settings.SMOKI, "REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    monkeypatch.setattr(bus, "_publisher", None)
    monkeypatch.setattr(bus, "_paused_until", 0.0)
    bus.publish("match:1", "2")  # refused: the pause starts
    assert bus._paused_until > time.monotonic()
    started = time.monotonic()
    for version in range(3, 13):
        bus.publish("match:1", str(version))
    assert time.monotonic() - started < 0.05
