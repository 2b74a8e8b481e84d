""" "Let's play live now" and the match page's live parts: the offer tells the
other seated humans (bell and email, a link to the match), once per match in
the limit's window, and refuses everyone else without changing anything; the
page carries the stream's address and the button only where they belong;
the poll still answers without any stream; the endpoints' queries are bounded."""

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.offer import LIVE_OFFER_NEWS
from games.lobby import services as lobby
from games.models import Notification
from games.play import safety
from tests.conftest import each_seat_moves, inside_one_window, play_one
from tests.live.test_live_stream import close

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def offer(user, match):
    return client_of(user).post(reverse("match_offer_live", args=[match.pk]))


def test_the_offer_tells_the_other_seated_players(
    started_match, alice, bob, carol, django_capture_on_commit_callbacks
):
    inside_one_window(window=600)
    client = client_of(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("match_offer_live", args=[started_match.pk]))
    assert response.status_code == 302
    rows = Notification.objects.filter(kind=LIVE_OFFER_NEWS)
    assert sorted(row.user.username for row in rows) == ["bob", "carol"]
    row = rows.first()
    assert row.about["match"] == started_match.pk
    # The bell leads to the match, and the email says who offers and where.
    bell = client_of(bob).get(reverse("notifications")).content.decode()
    assert reverse("match_detail", args=[started_match.pk]) in bell
    assert "offers to play" in bell
    sent = [m for m in mail.outbox if "live" in m.subject]
    assert {tuple(m.to) for m in sent} == {("bob@example.com",), ("carol@example.com",)}
    assert "alice" in sent[0].subject
    page = client.get(response["Location"])
    assert "The other players are told" in page.content.decode()


def test_a_second_offer_within_the_window_is_refused(started_match, alice, bob):
    inside_one_window(window=600)
    assert offer(alice, started_match).status_code == 302
    response = offer(bob, started_match)  # whoever offers: once per match
    assert response.status_code == 429
    assert "a few minutes ago" in response.content.decode()
    assert Notification.objects.filter(kind=LIVE_OFFER_NEWS).count() == 2


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_only_a_seated_player_may_offer(started_match, make_user, who):
    user = make_user("dave") if who == "spectator" else None
    response = offer(user, started_match)
    assert response.status_code == 403
    assert not Notification.objects.filter(kind=LIVE_OFFER_NEWS).exists()


def test_no_offer_in_a_match_over_or_against_bots_alone(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    each_seat_moves(match)
    safety.resign(user=bob, match=match)
    assert offer(alice, match).status_code == 409
    bots = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.fill_with_bots(user=alice, match=bots)
    response = offer(alice, bots)
    assert response.status_code == 400
    assert "nobody to play live with" in response.content.decode()
    assert not Notification.objects.filter(kind=LIVE_OFFER_NEWS).exists()


def test_the_page_shows_the_stream_and_the_button_where_they_belong(
    started_match, alice, make_user
):
    url = reverse("match_detail", args=[started_match.pk])
    events = reverse("match_events", args=[started_match.pk])
    seated = client_of(alice).get(url).content.decode()
    assert f'data-events="{events}"' in seated
    assert 'id="live-offer"' in seated
    assert "smoki:live" in seated  # the poll is asked at once on an event
    spectator = client_of(make_user("dave")).get(url).content.decode()
    assert f'data-events="{events}"' in spectator
    assert 'id="live-offer"' not in spectator


def test_the_poll_still_works_without_any_stream(started_match, nogi, alice):
    """No stream open anywhere: the page's poll alone brings the move."""
    client = client_of(alice)
    panel = reverse("match_panel", args=[started_match.pk])
    started_match.refresh_from_db()
    stamp = started_match.stamp
    assert client.get(panel, {"since": stamp}).status_code == 204
    play_one(started_match, nogi)
    fresh = client.get(panel, {"since": stamp})
    assert fresh.status_code == 200
    assert 'id="match-panel"' in fresh.content.decode()


def counted(queries: CaptureQueriesContext) -> list[str]:
    """The statements sent in production (no test SAVEPOINTs)."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_the_live_endpoints_read_a_bounded_number_of_rows(started_match, alice):
    """Opening a stream: the user, the access check and the seats; the stream
    itself reads nothing more while Redis carries its messages. The offer: the
    user, the match, its seats, and a look and a row for each player told."""
    client = client_of(alice)
    client.get(reverse("lobby"))  # the session is in the cache
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("match_events", args=[started_match.pk]))
    close(response)
    assert len(counted(queries)) <= 3, counted(queries)
    inside_one_window(window=600)
    with CaptureQueriesContext(connection) as queries:
        client.post(reverse("match_offer_live", args=[started_match.pk]))
    assert len(counted(queries)) <= 3 + 2 * 2, counted(queries)
