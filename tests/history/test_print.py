"""The printable record of a match (issue 26, item 4): everything on paper, nothing secret."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.lobby import services as lobby
from games.models import MatchStatus
from tests.history.test_replay import play, start

pytestmark = pytest.mark.django_db


def test_the_record_prints_players_options_every_move_and_the_result(make_user):
    game, match, users = start("nogi", make_user, "p")
    play(game, match, 200)
    assert match.status == MatchStatus.FINISHED
    response = Client().get(reverse("match_print", args=[match.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    for user in users:
        assert user.profile.name in body or user.username in body
    log = response.context["log"]
    assert [line.seq for line in log] == list(range(match.version + 1))
    assert body.count("<li value=") >= match.version + 1
    assert response.context["final"] is not None
    assert response.context["final"].headline in body
    assert match.seed in body
    for label, value in response.context["option_rows"]:
        assert str(label) in body and str(value) in body


def test_the_record_has_print_styles_that_hide_the_site_around_it():
    css = (Path(__file__).resolve().parents[2] / "static/css/smoki.css").read_text()
    rules = css[css.index("@media print") :]
    for selector in (".topbar", ".site-footer", ".no-print"):
        assert selector in rules.split("}")[0]
    assert "max-height: none" in rules


def test_the_record_of_a_match_in_play_shows_no_secret_and_no_seed(make_user):
    game, match, users = start("seven_dragons", make_user, "pp")
    play(game, match, 4, stop_before_end=True)
    response = Client().get(reverse("match_print", args=[match.pk]))
    assert response.status_code == 200
    assert match.seed not in response.content.decode()
    assert response.context["final"] is None


def test_a_private_matchs_record_is_hidden_from_strangers(make_user):
    users = [make_user(f"pv{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2, visibility="private")
    lobby.join_match(user=users[1], match=match, token=match.invite_token)
    stranger = Client()
    stranger.force_login(make_user("nosy"))
    assert stranger.get(reverse("match_print", args=[match.pk])).status_code == 404


def _queries(client, match) -> int:
    url = reverse("match_print", args=[match.pk])
    client.get(url)  # the session and the log's words settle first
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries)


def test_the_record_costs_the_same_queries_for_a_short_and_a_long_match(make_user):
    """The whole log is one query however long it is; the finished record adds
    the result, not a query per move."""
    game, match, users = start("nogi", make_user, "pq")
    player = Client()
    player.force_login(users[0])
    play(game, match, 3, stop_before_end=True)
    short = [_queries(Client(), match), _queries(player, match)]
    play(game, match, 60, stop_before_end=True)
    assert match.version >= 15
    long = [_queries(Client(), match), _queries(player, match)]
    assert short == long, (short, long)
    assert max(long) <= 6, long
    play(game, match, 200)
    assert match.status == MatchStatus.FINISHED
    finished = [_queries(Client(), match), _queries(player, match)]
    assert max(finished) <= max(long) + 1, (long, finished)
