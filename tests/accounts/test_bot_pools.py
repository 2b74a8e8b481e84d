"""A bot account never enters a rated pool for people unless a player
invites it (``docs/api.md``, "Bot accounts"): one test per path a bot could
reach people by: the API's list of open matches and its join, the lobby
page, the quick-match pass and a season's start. Unrated open matches and
matches of bot accounts alone stay open to it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import bots
from api import tokens
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, Seat
from matchmaking import services as quick_match
from matchmaking.models import Request, RequestStatus
from seasons import services as seasons
from seasons.models import Season, SeasonEntry
from tests.seasons.conftest import SIGNUP_TIME, START_TIME, signed_up

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def _bot(make_user, name="botty"):
    user = make_user(name)
    bots.become_bot(user)
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def _api(user, scopes=("bot:play", "challenge:read", "challenge:write", "match:read")):
    _token, raw = tokens.make_token(user, "engine", list(scopes))
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _open_ids(api) -> list[int]:
    answer = api.get("/api/v1/challenges")
    assert answer.status_code == 200, answer.content
    return [row["id"] for row in answer.json()["open"]]


@pytest.fixture
def season(settings) -> Season:
    settings.SMOKI = {**settings.SMOKI, "SEASON_GAMES": ["nogi"]}
    seasons.open_signups(SIGNUP_TIME)
    return Season.objects.get(game_key="nogi", year=2027, quarter=1)


@pytest.fixture
def tables(make_user, alice):
    """Alice's rated and unrated open matches, and a rated one a bot opened."""
    other = _bot(make_user, "other")
    return {
        "rated": lobby.create_match(user=alice, game_key="nogi", n_seats=3),
        "unrated": lobby.create_match(user=alice, game_key="nogi", n_seats=3, rated=False),
        "bots": lobby.create_match(user=other, game_key="nogi", n_seats=3),
    }


def test_the_apis_open_matches_hide_a_persons_rated_match_from_a_bot(tables, make_user, alice, bob):
    bot = _bot(make_user)
    assert tables["rated"].rated and tables["bots"].rated
    seen = _open_ids(_api(bot))
    assert tables["rated"].pk not in seen
    assert tables["unrated"].pk in seen and tables["bots"].pk in seen
    # A person sees them all.
    person = _open_ids(_api(bob, ["challenge:read"]))
    assert {tables["rated"].pk, tables["unrated"].pk} <= set(person)
    # Invited, the bot sees it among its invitations and the open matches.
    invitations.invite_user(user=alice, match=tables["rated"], username="botty")
    answer = _api(bot).get("/api/v1/challenges").json()
    assert tables["rated"].pk in [row["id"] for row in answer["open"]]
    assert tables["rated"].pk in [row["id"] for row in answer["invitations"]]


def test_the_apis_join_keeps_a_bot_out_of_a_persons_rated_match(tables, make_user):
    bot = _bot(make_user)
    api = _api(bot)
    refused = api.post(f"/api/v1/matches/{tables['rated'].pk}/join")
    assert refused.status_code == 403
    assert "only when a player invites it" in refused.json()["error"]["message"]
    assert not Seat.objects.filter(match=tables["rated"], user=bot).exists()
    # Unrated, and a rated match of bot accounts alone: as anyone.
    assert api.post(f"/api/v1/matches/{tables['unrated'].pk}/join").status_code == 200
    assert api.post(f"/api/v1/matches/{tables['bots'].pk}/join").status_code == 200
    assert Seat.objects.filter(match=tables["bots"], user=bot).exists()


def test_a_rated_match_a_person_sat_down_in_is_closed_to_an_uninvited_bot(
    tables, make_user, alice, bob
):
    """A bot opened it, a person joined: it is a people's rated table now."""
    lobby.join_match(user=bob, match=tables["bots"])
    bot = _bot(make_user)
    assert tables["bots"].pk not in _open_ids(_api(bot))
    refused = _api(bot).post(f"/api/v1/matches/{tables['bots'].pk}/join")
    assert refused.status_code == 403
    assert not Seat.objects.filter(match=tables["bots"], user=bot).exists()


def test_the_lobby_page_hides_a_persons_rated_match_from_a_bot(tables, client, make_user):
    bot = _bot(make_user)
    client.force_login(bot)
    page = client.get(reverse("lobby")).content.decode()
    rated = reverse("match_detail", args=[tables["rated"].pk])
    unrated = reverse("match_detail", args=[tables["unrated"].pk])
    assert f'href="{unrated}"' in page
    assert f'href="{rated}"' not in page
    # A visitor sees it, as every person does.
    client.logout()
    assert f'href="{rated}"' in client.get(reverse("lobby")).content.decode()


def test_the_quick_match_pass_never_seats_a_bot_account_with_people(make_user, alice):
    """A request a bot account holds (made in the moment its owner turned it
    into one) is passed over: the person waits for a person."""
    bot = _bot(make_user)
    quick_match.request(alice, game_key="nogi", counts=(2,), clock_min=DAY, clock_max=7 * DAY)
    Request.objects.create(
        user=bot,
        game_key="nogi",
        options=Request.objects.get(user=alice).options,  # the same table alice asks for
        counts=1 << 2,
        clock_min=DAY,
        clock_max=7 * DAY,
    )
    outcome = quick_match.match_waiting()
    assert outcome["tables"] == 0
    assert not Match.objects.filter(seats__user=bot).exists()
    assert Request.objects.get(user=alice).status == RequestStatus.WAITING
    # A person who comes along is seated with alice.
    bob = make_user("bob2")
    quick_match.request(bob, game_key="nogi", counts=(2,), clock_min=DAY, clock_max=7 * DAY)
    assert quick_match.match_waiting()["tables"] == 1
    assert Request.objects.get(user=alice).status == RequestStatus.SEATED
    assert Request.objects.get(user=bot).status == RequestStatus.WAITING


def test_a_seasons_start_leaves_a_bot_account_out(season, make_user, alice, bob):
    """A season's entry a bot account holds (the sign-up in the moment of
    its conversion) is dropped at the start: its divisions are people's."""
    signed_up(season, [alice, bob])
    bot = _bot(make_user)
    SeasonEntry.objects.create(season=season, user=bot)
    assert seasons.start(season.pk, now=START_TIME) == "started"
    assert not SeasonEntry.objects.filter(user=bot).exists()
    members = set(season.divisions.values_list("tournament__entrants__user__username", flat=True))
    assert members == {"alice", "bob"}


def test_a_season_with_one_person_and_a_bot_is_cancelled(season, make_user, alice):
    signed_up(season, [alice])
    bot = _bot(make_user)
    SeasonEntry.objects.create(season=season, user=bot)
    assert seasons.start(season.pk, now=START_TIME) == "cancelled"
