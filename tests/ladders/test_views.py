"""The ladders' pages and buttons through HTTP: what each person sees and
may do, and refusals that say why, change nothing and are never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import MatchStatus
from ladders import services
from ladders.models import Challenge, ChallengeStatus, Entry, Outcome
from tests.ladders.conftest import order

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_list_shows_every_ladder_with_its_players(ladder_of):
    ladder_of(3)
    page = _client().get(reverse("ladder_list")).content.decode()
    assert 'href="/ladders/drako/"' in page and "3 players" in page
    assert 'href="/ladders/nogi/"' in page and "0 players" in page


def test_the_ladder_page_lists_players_with_ratings_and_links(ladder_of):
    ladder_of(3)
    page = _client().get(reverse("ladder_detail", args=["drako"])).content.decode()
    assert page.index('href="/players/p1/"') < page.index('href="/players/p2/"')
    assert "1000" in page  # a newcomer's rating
    assert "Log in to join the ladder." in page


def test_an_unknown_ladder_is_404(alice):
    assert _client(alice).get(reverse("ladder_detail", args=["chess"])).status_code == 404
    response = _client(alice).post(reverse("ladder_join", args=["chess"]))
    assert response.status_code == 404
    assert not Entry.objects.exists()


def test_join_challenge_decline_through_the_pages(ladder_of, make_user):
    p1, p2 = ladder_of(2)
    newcomer = make_user("newcomer")
    client = _client(newcomer)
    response = client.post(reverse("ladder_join", args=["drako"]), follow=True)
    assert "You joined the ladder at the bottom." in response.content.decode()
    page = response.content.decode()
    assert page.count('name="opponent"') == 2  # p1 and p2 are within reach
    response = client.post(reverse("ladder_challenge", args=["drako"]), {"opponent": "p1"})
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    page = _client(p1).get(reverse("ladder_detail", args=["drako"])).content.decode()
    assert f'action="/ladders/challenges/{challenge.pk}/accept/"' in page
    assert f'href="/m/{challenge.match_id}/"' in page
    # Nobody else sees the answer buttons.
    for other in (newcomer, p2):
        page = _client(other).get(reverse("ladder_detail", args=["drako"])).content.decode()
        assert "/accept/" not in page
    response = _client(p1).post(reverse("ladder_decline", args=[challenge.pk]))
    assert response.status_code == 302
    assert order() == ["newcomer", "p1", "p2"]


def test_accepting_opens_the_match(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    response = _client(p1).post(reverse("ladder_accept", args=[challenge.pk]))
    assert response.status_code == 302 and response.url == f"/m/{challenge.match_id}/"
    challenge.match.refresh_from_db()
    assert challenge.match.status == MatchStatus.ACTIVE


@pytest.mark.parametrize(
    "who, url_name, args, data, status, message",
    [
        ("p3", "ladder_challenge", ["drako"], {"opponent": "p3"}, 400, "yourself"),
        ("p5", "ladder_challenge", ["drako"], {"opponent": "p1"}, 400, "at most 3 places"),
        ("p1", "ladder_challenge", ["drako"], {"opponent": "p2"}, 400, "above you"),
        ("p2", "ladder_challenge", ["drako"], {}, 400, "No player of that name"),
        ("out", "ladder_challenge", ["drako"], {"opponent": "p1"}, 409, "Join the ladder"),
        ("out", "ladder_leave", ["drako"], {}, 409, "not on this ladder"),
        ("p1", "ladder_join", ["drako"], {}, 409, "already"),
    ],
)
def test_bad_requests_say_why_and_change_nothing(
    ladder_of, make_user, who, url_name, args, data, status, message
):
    users = {u.username: u for u in ladder_of(5)}
    users["out"] = make_user("out")
    response = _client(users[who]).post(reverse(url_name, args=args), data)
    assert response.status_code == status
    assert message in response.content.decode()
    assert order() == ["p1", "p2", "p3", "p4", "p5"]
    assert not Challenge.objects.exists()


def test_other_peoples_and_stale_challenges_are_refused(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    for user in (p1, p3):
        for name in ("ladder_accept", "ladder_decline"):
            response = _client(user).post(reverse(name, args=[challenge.pk]))
            assert response.status_code == 404
    for name in ("ladder_accept", "ladder_decline"):
        assert _client(p2).post(reverse(name, args=[10**6])).status_code == 404
        assert _client(p2).post(reverse(name, args=[2**63])).status_code == 404
    _client(p2).post(reverse("ladder_decline", args=[challenge.pk]))
    response = _client(p2).post(reverse("ladder_accept", args=[challenge.pk]))
    assert response.status_code == 409 and "This challenge is over." in response.content.decode()
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE and challenge.outcome == Outcome.DECLINED


def test_anonymous_posts_go_to_the_login(ladder_of):
    ladder_of(2)
    response = _client().post(reverse("ladder_join", args=["drako"]))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert order() == ["p1", "p2"]


def test_the_player_page_shows_ladder_places(ladder_of):
    users = ladder_of(3)
    services.join(users[2], "nogi")
    page = _client().get(reverse("player_page", args=["p3"])).content.decode()
    assert 'href="/ladders/drako/"' in page and "place 3 of 3" in page
    assert 'href="/ladders/nogi/"' in page and "place 1 of 1" in page
    page = _client().get(reverse("player_page", args=["p1"])).content.decode()
    assert "place 1 of 3" in page and 'href="/ladders/nogi/"' not in page


def test_the_lobby_links_to_the_ladders(alice):
    page = _client(alice).get(reverse("lobby")).content.decode()
    assert 'href="/ladders/"' in page
