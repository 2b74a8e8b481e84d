"""An organiser's webhook on a tournament: added on the tournament's page,
tested with a button, its last deliveries shown; each round's start, each
round's results and the end posted once, signed the Standard Webhooks way,
to a local HTTPS receiver that checks the signature."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from standardwebhooks import Webhook as StandardWebhook

from games.correspondence import push, webhooks
from games.models import ChannelDelivery, DeliveryStatus, Webhook
from tests.correspondence.test_webhooks import answers, loopback_allowed, tls_server
from tests.tournaments.conftest import entered, new_tournament, play_round, start_now
from tournaments import feed
from tournaments.models import TournamentWebhook

pytestmark = pytest.mark.django_db

__all__ = ["loopback_allowed", "tls_server"]  # fixtures used by name


@pytest.fixture
def hooked(tls_server, loopback_allowed, monkeypatch, settings):
    """Webhooks on, hook.test resolving to the local TLS server, deliveries
    run at once (the tasks are eager in the tests)."""
    port, context, received = tls_server
    settings.WEBHOOKS_ENABLED = True
    monkeypatch.setattr(webhooks, "_resolve", answers("127.0.0.1"))
    monkeypatch.setattr(webhooks, "tls_context", lambda: context)
    return port, received


def page(client, tournament) -> str:
    response = client.get(reverse("tournament_detail", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def add(client, tournament, **data):
    return client.post(
        reverse("tournament_webhooks", args=[tournament.pk]), {"action": "add", **data}
    )


def test_the_organiser_adds_tests_and_removes_a_webhook_others_cannot(hooked, client, people):
    port, received = hooked
    organiser, other = people[0], people[1]
    tournament = new_tournament(organiser)
    client.force_login(other)
    assert 'id="tournament-webhooks"' not in page(client, tournament)
    response = add(client, tournament, kind="generic", url=f"https://hook.test:{port}/t")
    assert response.status_code == 403
    assert not Webhook.objects.exists()

    client.force_login(organiser)
    assert 'id="tournament-webhooks"' in page(client, tournament)
    response = add(client, tournament, kind="generic", url=f"https://hook.test:{port}/t")
    assert response.status_code == 302
    hook = Webhook.objects.get()
    assert hook.personal is False and hook.kinds == []
    assert TournamentWebhook.objects.get().tournament_id == tournament.pk
    drawn = page(client, tournament)
    assert hook.secret in drawn and "Nothing yet." in drawn
    # Not on the organiser's own page: it is the tournament's.
    assert hook.url not in client.get(reverse("push_devices")).content.decode()

    url = reverse("tournament_webhooks", args=[tournament.pk])
    response = client.post(url, {"action": "test", "webhook": hook.pk}, follow=True)
    assert "The endpoint answered 200." in response.content.decode()
    assert StandardWebhook(hook.secret).verify(received[-1][2], received[-1][1])["type"] == "test"

    client.force_login(other)
    assert client.post(url, {"action": "remove", "webhook": hook.pk}).status_code == 403
    client.force_login(organiser)
    assert client.post(url, {"action": "remove", "webhook": 10**6}).status_code == 404
    assert client.post(url, {"action": "remove", "webhook": hook.pk}).status_code == 302
    assert not Webhook.objects.exists() and not TournamentWebhook.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "generic", "url": "http://hook.test/t"},
        {"kind": "generic", "url": "https://10.0.0.1/t"},
        {"kind": "telegram", "url": "https://hook.test/t"},
        {"kind": "generic", "url": ""},
    ],
)
def test_a_bad_tournament_webhook_is_refused_and_nothing_saved(settings, client, people, data):
    settings.WEBHOOKS_ENABLED = True
    tournament = new_tournament(people[0])
    client.force_login(people[0])
    response = add(client, tournament, **data)
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_rounds_results_and_the_end_are_posted_once_each_and_signed(
    hooked, people, django_capture_on_commit_callbacks
):
    port, received = hooked
    organiser = people[0]
    organiser.profile.language = "pl"
    organiser.profile.save()
    tournament = entered(new_tournament(organiser, rounds=2), people[:4])
    hook = feed.add_hook(organiser, tournament, "generic", f"https://hook.test:{port}/t")
    rng = random.Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        start_now(tournament)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(tournament, rng)
    events = [StandardWebhook(hook.secret).verify(body, headers) for _p, headers, body in received]
    assert [e["type"] for e in events] == [
        feed.ROUND_STARTED,
        feed.ROUND_RESULTS,
        feed.ROUND_STARTED,
        feed.ROUND_RESULTS,
        feed.FINISHED,
    ]
    first = events[0]["data"]
    assert first["title"].startswith("Runda 1"), "in the organiser's language"
    assert first["url"].endswith(reverse("tournament_detail", args=[tournament.pk]))
    results = events[1]["data"]["text"]
    assert all(p.profile.name in results for p in people[:4]), results
    rows = ChannelDelivery.objects.filter(target_id=hook.pk, notification=None)
    assert rows.count() == 5
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.SENT}
    # Written again (a retried task): nothing doubled, nothing posted again.
    assert feed.publish(tournament, feed.cancelled_event, version=0, tag="end") == 0
    feed.round_started(tournament, 2)
    assert rows.count() == 5 and len(received) == 5
    for row in rows:
        assert push.deliver(row.pk) == "nothing to do"
    assert len(received) == 5


def test_a_failing_endpoint_is_retried_and_its_error_shown_to_the_organiser(
    settings, client, people, monkeypatch, django_capture_on_commit_callbacks
):
    settings.WEBHOOKS_ENABLED = True
    monkeypatch.setattr(webhooks, "_resolve", answers("93.184.216.34"))
    monkeypatch.setattr(webhooks, "post", lambda *a, **k: (503, b"busy"))
    organiser = people[0]
    tournament = entered(new_tournament(organiser), people[:2])
    hook = feed.add_hook(organiser, tournament, "discord", "https://hook.example/t")
    with django_capture_on_commit_callbacks(execute=True):
        start_now(tournament)
    row = ChannelDelivery.objects.get(target_id=hook.pk)
    assert row.status == DeliveryStatus.PENDING and row.attempts == 1
    assert "503" in row.last_error and row.next_attempt_at is not None
    client.force_login(organiser)
    assert "503 busy" in page(client, tournament)


def test_the_organisers_page_reads_a_bounded_number_of_queries(hooked, client, people):
    port, _received = hooked
    organiser = people[0]
    small = entered(new_tournament(organiser, name="small"), people[:2])
    big = entered(new_tournament(organiser, name="big"), people[:8])
    for tournament, count in ((small, 1), (big, 5)):
        for _ in range(count):
            feed.add_hook(organiser, tournament, "slack", f"https://hook.test:{port}/t")
        start_now(tournament)
    play_round(big, random.Random(2))
    client.force_login(organiser)
    counts = []
    for tournament in (small, big):
        page(client, tournament)
        with CaptureQueriesContext(connection) as queries:
            page(client, tournament)
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1] <= 8 + 2, counts


def test_the_feed_says_nothing_a_seat_hides(people):
    """The feed is built from the tournament's tables, names and points only:
    the same whatever the matches' states hold (the differential secrets
    check in tests/conformance/test_secrets.py captures it for every game)."""
    from games.models import Match

    tournament = entered(new_tournament(people[0]), people[:2])
    start_now(tournament)
    before = json.dumps(feed.round_started_event(tournament, 1))
    Match.objects.update(state={"anything": "secret"})
    assert json.dumps(feed.round_started_event(tournament, 1)) == before
    assert "secret" not in before
