"""The moderators' ladder actions through the admin: a reason and a
confirmation, recorded in the moderators' audit; refused to staff outside the
moderators and to players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from games.models import ModerationAction
from ladders import services
from ladders.models import Challenge, Entry, Outcome
from tests.ladders.conftest import order

pytestmark = pytest.mark.django_db


def _staff(make_user, name: str, moderator: bool):
    user = make_user(name)
    user.is_staff = True
    user.save()
    if moderator:
        user.groups.add(Group.objects.get(name="moderator"))
    client = Client()
    client.force_login(user)
    return client


def test_a_moderator_removes_a_player_from_the_desk(ladder_of, make_user):
    ladder_of(3)
    client = _staff(make_user, "mod", moderator=True)
    entry = Entry.objects.get(user__username="p2")
    url = reverse("admin:ladders_entry_remove", args=[entry.pk])
    assert client.get(reverse("admin:ladders_entry_changelist")).status_code == 200
    assert "Remove a player from a ladder" in client.get(url).content.decode()
    response = client.post(url, {"reason": "x"})  # no reason, no confirmation
    assert response.status_code == 200 and order() == ["p1", "p2", "p3"]
    response = client.post(url, {"reason": "cheating, see the report", "confirm": "on"})
    assert response.status_code == 302
    assert order() == ["p1", "p3"]
    (audit,) = ModerationAction.objects.all()
    assert audit.reason == "cheating, see the report" and audit.user.username == "p2"


def test_a_moderator_cancels_a_challenge_from_the_desk(ladder_of, make_user):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    client = _staff(make_user, "mod", moderator=True)
    assert client.get(reverse("admin:ladders_challenge_changelist")).status_code == 200
    url = reverse("admin:ladders_challenge_cancel", args=[challenge.pk])
    response = client.post(url, {"reason": "both asked us to", "confirm": "on"})
    assert response.status_code == 302
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED
    # Again: refused with the reason on the page, nothing more recorded.
    response = client.post(url, {"reason": "both asked us to", "confirm": "on"})
    assert "This challenge is over." in response.content.decode()
    assert ModerationAction.objects.count() == 1


def test_staff_outside_the_moderators_may_not(ladder_of, make_user):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    client = _staff(make_user, "staff", moderator=False)
    entry = Entry.objects.get(user=p1)
    for url in (
        reverse("admin:ladders_entry_remove", args=[entry.pk]),
        reverse("admin:ladders_challenge_cancel", args=[challenge.pk]),
    ):
        response = client.post(url, {"reason": "no reason at all", "confirm": "on"})
        assert response.status_code == 403
    assert order() == ["p1", "p2"] and Challenge.objects.get().is_open
    assert not ModerationAction.objects.exists()
