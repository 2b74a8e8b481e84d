"""Sixteen simultaneous move posts for the same position, as sixteen browser
tabs: exactly one answers with success (200 for htmx, 302 for a plain form),
the others 409 with the stale-version message, and the log and state are
those of the one move applied.

The threads start together (``free``) or queue behind the match row's lock
(``queued``), as in tests/play/test_race_postgres.py, which races the
service itself. SQLite serialises writers differently, so this module needs
PostgreSQL.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.match_race import (
    N_THREADS,
    check_log_and_state,
    distinct_actions,
    race_on_match,
    started_match,
    to_move,
)
from tests.postgres_race import MODES, ONLY_ON_POSTGRES

STALE_MESSAGE = "The game moved on while you were deciding"

pytestmark = ONLY_ON_POSTGRES


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_simultaneous_move_posts_answer_one_success_and_409s(mode, htmx):
    match = started_match()
    version = match.version
    seat, user = to_move(match)
    actions = distinct_actions(match, seat)
    clients = []
    for _ in range(N_THREADS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = reverse("match_act", args=[match.pk])
    headers = {"HX-Request": "true"} if htmx else {}

    def attempt(i: int):
        return clients[i].post(
            url, {"action": json.dumps(actions[i]), "version": version}, headers=headers
        )

    results = race_on_match(match, mode, attempt)

    errors = [value for kind, value in results if kind != "ok"]
    assert not errors, errors
    responses = [value for _kind, value in results]
    statuses = sorted(r.status_code for r in responses)
    success = 200 if htmx else 302
    assert statuses == [success] + [409] * (N_THREADS - 1), statuses
    (winner,) = [i for i, r in enumerate(responses) if r.status_code == success]
    if not htmx:
        assert responses[winner]["Location"] == reverse("match_detail", args=[match.pk])
    for response in responses:
        if response.status_code == 409:
            assert STALE_MESSAGE in response.content.decode()
    check_log_and_state(match, version, seat, actions[winner])
