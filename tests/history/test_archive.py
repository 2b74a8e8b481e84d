"""The archive of finished matches (issue 26, item 3): filters, pages, privacy."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.history import archive
from games.lobby import services as lobby
from games.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


def _finish(match, when, ranks=(1, 2)):
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=when)
    for seat in match.seats.all():
        seat.rank = ranks[seat.index % len(ranks)]
        seat.save(update_fields=["rank"])
    match.refresh_from_db()
    return match


def _shown(client, **query) -> set[int]:
    response = client.get(reverse("match_archive"), query)
    assert response.status_code == 200, response.content.decode()[:500]
    return {row.match.pk for row in response.context["rows"]}


@pytest.fixture
def finished(make_user):
    """Public finished matches of two games on two days, one private one, one in play."""
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    day = timezone.now().replace(hour=12) - dt.timedelta(days=10)
    matches = {}
    for name, key, players, days in [
        ("nogi_ab", "nogi", (ann, ben), 0),
        ("drako_ab", "drako", (ann, ben), 5),
        ("nogi_bc", "nogi", (ben, cat), 5),
    ]:
        match = lobby.create_match(user=players[0], game_key=key, n_seats=2)
        lobby.join_match(user=players[1], match=match)
        matches[name] = _finish(match, day + dt.timedelta(days=days))
    private = lobby.create_match(user=ben, game_key="nogi", n_seats=2, visibility="private")
    lobby.join_match(user=cat, match=private, token=private.invite_token)
    matches["private_bc"] = _finish(private, day)
    active = lobby.create_match(user=ann, game_key="nogi", n_seats=2)
    lobby.join_match(user=cat, match=active)
    matches["active"] = active
    return {"ann": ann, "ben": ben, "cat": cat, "day": day, **matches}


def test_the_archive_lists_finished_public_matches_and_only_ones_own_private_ones(finished):
    public = {finished[n].pk for n in ("nogi_ab", "drako_ab", "nogi_bc")}
    assert _shown(Client()) == public
    ann = Client()
    ann.force_login(finished["ann"])
    assert _shown(ann) == public
    assert _shown(ann, player="cat") == {finished["nogi_bc"].pk}
    ben = Client()
    ben.force_login(finished["ben"])
    assert _shown(ben) == public | {finished["private_bc"].pk}
    assert finished["private_bc"].pk in _shown(ben, player="cat")


def test_the_archive_filters_by_game_player_and_date(finished):
    client = Client()
    day = finished["day"].date()
    assert _shown(client, game="drako") == {finished["drako_ab"].pk}
    assert _shown(client, player="ANN") == {finished["nogi_ab"].pk, finished["drako_ab"].pk}
    later = (day + dt.timedelta(days=3)).isoformat()
    assert _shown(client, since=later) == {finished["drako_ab"].pk, finished["nogi_bc"].pk}
    assert _shown(client, until=day.isoformat()) == {finished["nogi_ab"].pk}
    assert _shown(client, game="nogi", player="ben", since=later) == {finished["nogi_bc"].pk}
    assert _shown(client, player="nobody") == set()


@pytest.mark.parametrize(
    "query",
    [
        {"game": "chess"},
        {"since": "yesterday"},
        {"until": "2026-13-45"},
        {"since": "2026-05-02", "until": "2026-05-01"},
        {"player": "x" * 151},
    ],
)
def test_bad_filters_get_a_message_and_show_nothing(finished, query):
    response = Client().get(reverse("match_archive"), query)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert response.context["rows"] == []


def test_the_archive_is_paginated_and_keeps_its_filters(finished, make_user, monkeypatch):
    monkeypatch.setattr(archive, "PER_PAGE", 1)
    client = Client()
    first = client.get(reverse("match_archive"), {"game": "nogi"})
    body = first.content.decode()
    assert len(first.context["rows"]) == 1
    assert "?game=nogi&amp;page=2" in body
    second = client.get(reverse("match_archive"), {"game": "nogi", "page": "2"})
    # Newest first: the match that ended later, then the other, one a page.
    assert [r.match.pk for r in first.context["rows"]] == [finished["nogi_bc"].pk]
    assert [r.match.pk for r in second.context["rows"]] == [finished["nogi_ab"].pk]
    later = second.content.decode()
    assert '?game=nogi&amp;page=1" rel="prev"' in later
    assert 'rel="next"' not in later
    for page in ("0", "-1", "99", "abc", "1e9"):
        assert client.get(reverse("match_archive"), {"page": page}).status_code == 200


def _queries(client) -> int:
    client.get(reverse("match_archive"))  # the session and the cache settle first
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("match_archive")).status_code == 200
    return sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries)


def test_the_archive_costs_a_few_queries_whatever_it_lists(finished, make_user):
    """The same count for a page of 3 matches and a full page of 25 (with more
    pages after it), for a visitor and for a player signed in."""
    ann = Client()
    ann.force_login(finished["ann"])
    small = [_queries(Client()), _queries(ann)]
    dee, eve = make_user("dee"), make_user("eve")
    for days in range(archive.PER_PAGE + 5):
        match = lobby.create_match(user=dee, game_key="nogi", n_seats=2)
        lobby.join_match(user=eve, match=match)
        _finish(match, finished["day"] + dt.timedelta(days=days, hours=1))
    assert len(Client().get(reverse("match_archive")).context["rows"]) == archive.PER_PAGE
    large = [_queries(Client()), _queries(ann)]
    assert small == large, (small, large)
    assert max(large) <= 5, large
