"""Presence: "online now" and "last seen", kept in the shared cache.

Coarse words (never seconds), a cache key touched at most once a minute per
player and no database write for it, a profile setting that hides it, and
every player of a page read with one ``get_many``."""

from __future__ import annotations

import html
import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import presence
from accounts.forms import ProfileForm
from tests.players.conftest import start_match

pytestmark = pytest.mark.django_db

MINUTE, HOUR, DAY = 60, 3600, 86400


@pytest.fixture(autouse=True)
def _fresh_memo():
    presence.forget_memo()
    yield
    presence.forget_memo()


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def seen(user, ago: float) -> None:
    cache.set(presence.seen_key(user.pk), int(time.time() - ago), presence.KEEP_SECONDS)


# -- The words ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ago", "words", "online"),
    [
        (0, "online now", True),
        (59, "online now", True),
        (4 * MINUTE + 59, "online now", True),
        (5 * MINUTE, "last seen 5 minutes ago", False),
        (59 * MINUTE + 59, "last seen 59 minutes ago", False),
        (HOUR, "last seen 1 hour ago", False),
        (23 * HOUR + 59 * MINUTE, "last seen 23 hours ago", False),
        (DAY, "last seen 1 day ago", False),
        (40 * DAY + 5, "last seen 40 days ago", False),
        (-30, "online now", True),  # a clock a little ahead
    ],
)
def test_presence_is_coarse_never_seconds(ago, words, online):
    now = 1_800_000_000.0
    shown = presence.presence_text(now - ago, now)
    assert (shown.text, shown.online) == (words, online)
    assert "second" not in shown.text


def test_the_words_in_polish_and_czech():
    from django.utils import translation

    now = 1_800_000_000.0
    with translation.override("pl"):
        assert presence.presence_text(now, now).text == "teraz online"
        assert presence.presence_text(now - 3 * HOUR, now).text == "ostatnio tutaj 3 godziny temu"
    with translation.override("cs"):
        assert presence.presence_text(now, now).text == "právě online"
        assert presence.presence_text(now - 5 * DAY, now).text == "naposledy tu před 5 dny"


# -- Touching the key ----------------------------------------------------------------------


def test_a_player_is_touched_at_most_once_a_minute(alice):
    now = time.time()
    with mock.patch.object(cache, "set", wraps=cache.set) as writes:
        assert presence.touch(alice.pk, now)
        assert not presence.touch(alice.pk, now + 30)
        presence.forget_memo()  # another web process: the shared guard stops it
        assert not presence.touch(alice.pk, now + 40)
    assert [c.args[0] for c in writes.call_args_list] == [presence.seen_key(alice.pk)]
    cache.delete(f"seen-guard:{alice.pk}")  # the guard's minute is over
    assert presence.touch(alice.pk, now + 101)
    assert cache.get(presence.seen_key(alice.pk)) == int(now + 101)


def test_requests_touch_the_cache_once_a_minute_and_write_no_row(alice):
    client = client_for(alice)
    with (
        mock.patch.object(cache, "set", wraps=cache.set) as writes,
        CaptureQueriesContext(connection) as queries,
    ):
        for _ in range(3):
            assert client.get(reverse("lobby")).status_code == 200
    touched = [c for c in writes.call_args_list if c.args[0] == presence.seen_key(alice.pk)]
    assert len(touched) == 1
    assert abs(cache.get(presence.seen_key(alice.pk)) - time.time()) < 5
    changes = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith("SELECT")]
    assert changes == [], changes


def test_a_visitor_is_not_touched(alice):
    with mock.patch.object(presence, "touch") as touch:
        client_for().get(reverse("lobby"))
    touch.assert_not_called()


def test_a_public_matchs_poll_loads_no_user_and_so_touches_nothing(alice, bob):
    match = start_match([alice, bob])
    client = client_for(alice)
    with mock.patch.object(presence, "touch") as touch:
        answer = client.get(reverse("match_panel", args=[match.pk]) + f"?since={match.stamp}")
    assert answer.status_code == 204
    touch.assert_not_called()


# -- Where it shows --------------------------------------------------------------------------


def test_the_player_page_says_online_now_or_last_seen(alice, bob):
    url = reverse("player_page", args=["bob"])
    assert 'id="presence"' not in text(client_for(alice).get(url))  # never seen
    seen(bob, 10)
    assert "online now" in text(client_for(alice).get(url))
    assert "online now" in text(client_for().get(url))  # a visitor too
    seen(bob, 3 * HOUR + 20)
    assert "last seen 3 hours ago" in text(client_for(alice).get(url))


def test_not_on_ones_own_page(bob):
    page = text(client_for(bob).get(reverse("player_page", args=["bob"])))
    assert 'id="presence"' not in page


def test_the_match_page_marks_each_other_player(alice, bob, carol):
    match = start_match([alice, bob, carol])
    seen(bob, 30)
    seen(carol, 2 * DAY)
    response = client_for(alice).get(reverse("match_detail", args=[match.pk]))
    rows = {row.username: row for row in response.context["seat_rows"]}
    assert rows["bob"].presence.text == "online now" and rows["bob"].presence.online
    assert rows["carol"].presence.text == "last seen 2 days ago"
    assert rows["alice"].presence is None  # not beside oneself
    page = text(response)
    assert '<span class="presence online small">online now</span>' in page
    assert "last seen 2 days ago" in page


def test_hiding_it_shows_nothing_to_others_and_keeps_nothing(alice, bob, carol):
    match = start_match([alice, bob, carol])
    seen(bob, 30)
    form = ProfileForm(
        {**ProfileForm(instance=bob.profile).initial, "show_presence": ""}, instance=bob.profile
    )
    assert form.is_valid(), form.errors
    form.save()
    assert cache.get(presence.seen_key(bob.pk)) is None
    client_for(bob).get(reverse("lobby"))  # bob's requests no longer touch it
    assert cache.get(presence.seen_key(bob.pk)) is None
    seen(bob, 30)  # a copy left behind (another process) is not shown either
    for client in (client_for(alice), client_for()):
        assert "online now" not in text(client.get(reverse("player_page", args=["bob"])))
        response = client.get(reverse("match_detail", args=[match.pk]))
        rows = {row.username: row for row in response.context["seat_rows"]}
        assert rows["bob"].presence is None


def test_the_profile_page_offers_the_setting(alice):
    page = text(client_for(alice).get(reverse("profile")))
    assert 'name="show_presence"' in page


# -- Bounded reads -----------------------------------------------------------------------------


def test_the_players_of_a_match_are_read_with_one_get_many_and_no_query(make_user):
    """Seven players at a Nogi table: each other player's presence, one
    cache read for all of them, and the page's queries the same with and
    without any presence to show."""
    users = [make_user(f"p{i}") for i in range(7)]
    match = start_match(users)
    url = reverse("match_detail", args=[match.pk])
    client = client_for(users[0])
    client.get(url)  # warm the board and the preferences
    with CaptureQueriesContext(connection) as without:
        client.get(url)
    for i, user in enumerate(users):
        seen(user, i * 10 * MINUTE)
    with (
        mock.patch.object(cache, "get_many", wraps=cache.get_many) as reads,
        CaptureQueriesContext(connection) as shown,
    ):
        response = client.get(url)
    marks = [row.presence for row in response.context["seat_rows"]]
    assert marks[0] is None and all(marks[1:]), marks
    presence_reads = [
        c for c in reads.call_args_list if any(k.startswith("seen:") for k in c.args[0])
    ]
    assert len(presence_reads) == 1
    assert sorted(presence_reads[0].args[0]) == sorted(presence.seen_key(u.pk) for u in users[1:])
    assert len(shown.captured_queries) == len(without.captured_queries)


def test_the_player_page_reads_presence_without_a_query(alice, bob):
    url = reverse("player_page", args=["bob"])
    client = client_for(alice)
    client.get(url)
    with CaptureQueriesContext(connection) as without:
        client.get(url)
    seen(bob, 10)
    with CaptureQueriesContext(connection) as shown:
        assert "online now" in text(client.get(url))
    assert len(shown.captured_queries) == len(without.captured_queries)


def test_a_match_gathering_players_marks_those_seated(alice, bob, carol):
    from games.lobby import services as lobby

    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    client = client_for(bob)
    url = reverse("match_detail", args=[match.pk])
    client.get(url)
    presence.forget(alice.pk)
    with CaptureQueriesContext(connection) as without:
        client.get(url)
    seen(alice, 20 * MINUTE)
    seen(bob, 10)
    with CaptureQueriesContext(connection) as shown:
        response = client.get(url)
    assert len(shown.captured_queries) == len(without.captured_queries)
    assert [
        (name, mark.text if mark else None) for name, mark in response.context["gathering"]
    ] == [("alice", "last seen 20 minutes ago"), ("bob", None)]
    assert "last seen 20 minutes ago" in text(response)
