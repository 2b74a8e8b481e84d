"""The match panel prints one CSRF field, masked once, in all of its forms.

Django's Jinja2 backend masks the token anew each time ``csrf_input`` is
printed; the panel prints it in every form (``games.web.context_processors.
csrf_once`` draws it once per fragment instead). The field still works."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby

pytestmark = pytest.mark.django_db

FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_every_form_of_the_panel_carries_the_same_working_field(make_user):
    users = [make_user("csrf-a"), make_user("csrf-b")]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2)
    lobby.join_match(user=users[1], match=match)
    match.refresh_from_db()
    nogi = registry.get("nogi")
    seat = nogi.current_seats(match.state)[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[seat])
    client.get(reverse("match_detail", args=[match.pk]))  # the CSRF cookie
    panel = client.get(reverse("match_panel", args=[match.pk]), headers={"HX-Request": "true"})
    fields = FIELD.findall(panel.content.decode())
    assert len(fields) >= 2  # a form per choice, resign, ask to take back, chat
    assert len(set(fields)) == 1
    action = nogi.legal_actions(match.state, seat)[0]
    data = {"action": json.dumps(action), "version": match.version}
    refused = client.post(reverse("match_act", args=[match.pk]), data)
    assert refused.status_code == 403  # no field: the check is on
    data["csrfmiddlewaretoken"] = fields[0]
    response = client.post(reverse("match_act", args=[match.pk]), data)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1


def test_a_fragment_without_a_form_sets_no_csrf_cookie(make_user):
    """Printed only when a form asks for it: a spectator's poll of a finished
    or gathering match sets no cookie it would not have set before."""
    match = lobby.create_match(user=make_user("csrf-host"), game_key="nogi", n_seats=2)
    response = Client().get(reverse("match_panel", args=[match.pk]), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert ("csrfmiddlewaretoken" in body) == ("csrftoken" in response.cookies)
