"""The shared-cache rate limits of tournaments: new tournaments
(``CREATE_LIMIT``, 5 a player and hour) and entries or departures
(``ENTRY_LIMIT``, 30): past them a clear refusal, and nothing changes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from core import limits
from core.errors import TooFast
from tests.tournaments.conftest import new_tournament
from tournaments import services
from tournaments.models import Entrant, Tournament


@pytest.fixture(autouse=True)
def one_window(monkeypatch, settings):
    """Every hit in one window of the limits (a test never straddles an
    hour's turn), and room enough under the other bounds."""
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))
    settings.SMOKI = {**settings.SMOKI, "TOURNAMENTS_RUNNING_MAX": 50}


def test_the_limits_are_as_documented():
    assert (services.CREATE_LIMIT.count, services.CREATE_LIMIT.seconds) == (5, 3600)
    assert (services.ENTRY_LIMIT.count, services.ENTRY_LIMIT.seconds) == (30, 3600)


def test_a_sixth_tournament_in_an_hour_is_refused(people):
    for i in range(services.CREATE_LIMIT.count):
        new_tournament(people[0], name=f"Cup {i}")
    with pytest.raises(TooFast, match="You created many tournaments; wait an hour."):
        new_tournament(people[0], name="One too many")
    assert Tournament.objects.filter(created_by=people[0]).count() == 5
    assert not Tournament.objects.filter(name="One too many").exists()
    new_tournament(people[1], name="Someone else's")  # the limit is per player


def test_the_thirty_first_entry_or_departure_in_an_hour_is_refused(people):
    tournament = new_tournament(people[0])
    for _ in range(services.ENTRY_LIMIT.count // 2):
        services.join(user=people[1], tournament=tournament)
        services.leave(user=people[1], tournament=tournament)
    with pytest.raises(TooFast, match="Too many entries lately; wait an hour."):
        services.join(user=people[1], tournament=tournament)
    assert not Entrant.objects.filter(tournament=tournament, user=people[1]).exists()
    services.join(user=people[2], tournament=tournament)  # others still enter


def test_the_page_says_why_an_entry_is_refused(people):
    tournament = new_tournament(people[0])
    for _ in range(services.ENTRY_LIMIT.count // 2):
        services.join(user=people[1], tournament=tournament)
        services.leave(user=people[1], tournament=tournament)
    client = Client()
    client.force_login(people[1])
    url = reverse("tournament_action", args=[tournament.pk, "join"])
    page = client.post(url, follow=True).content.decode()
    assert "Too many entries lately; wait an hour." in page
    assert not Entrant.objects.filter(tournament=tournament, user=people[1]).exists()


def test_the_form_says_why_a_new_tournament_is_refused(people):
    from tests.tournaments.test_views import _form

    for i in range(services.CREATE_LIMIT.count):
        new_tournament(people[0], name=f"Cup {i}")
    client = Client()
    client.force_login(people[0])
    response = client.post(reverse("tournament_create") + "?game=nogi", _form(name="Sixth"))
    assert response.status_code == 429
    assert "You created many tournaments; wait an hour." in response.content.decode()
    assert not Tournament.objects.filter(name="Sixth").exists()
