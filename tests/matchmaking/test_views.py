"""Quick match's page and buttons: the form in two steps, a request made and
withdrawn (from the page and from the lobby), refusals that change nothing
and never answer 500, the three languages, and a fixed number of queries
whatever the number of requests."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matchmaking import services
from matchmaking.models import Request, RequestStatus
from tests.players.test_query_counts import counted

pytestmark = pytest.mark.django_db

URL = "/quick-match/"
DAY = 86400


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _form(game="nogi", counts=("2", "3"), low=DAY, high=7 * DAY, window="200", **more):
    return {
        "game": game,
        "counts": list(counts),
        "clock_min": str(low),
        "clock_max": str(high),
        "rated": "on",
        "window": window,
        **more,
    }


def test_the_page_offers_the_games_then_the_form(alice):
    client = _client(alice)
    page = client.get(URL).content.decode()
    assert 'id="quick-match-games"' in page and "?game=any" in page and "?game=drakon" in page
    page = client.get(URL + "?game=drakon").content.decode()
    assert 'id="quick-match-form"' in page and "opt_drakon_team_play" in page
    assert '<p id="quick-match-game"><strong>Drakon (fourth edition)</strong>' in page
    assert 'value="7"' not in page  # Drakon seats 2 to 6
    page = client.get(URL + "?game=any").content.decode()
    assert 'id="quick-match-form"' in page and 'value="7"' in page
    assert '<p id="quick-match-game"><strong>Any game</strong>' in page


def test_a_visitor_sees_the_counts_and_is_asked_to_log_in(alice):
    services.request(
        alice,
        game_key="nogi",
        counts=[2],
        clock_min=services.clocks()[1],
        clock_max=services.clocks()[3],
    )
    page = _client().get(URL).content.decode()
    assert "Log in to find a game." in page
    assert 'data-game="nogi">Nogi za pas!&nbsp;1</span>' in page
    response = _client().post(URL, _form())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Request.objects.count() == 1


def test_a_request_made_on_the_page_waits_on_the_page_and_the_lobby(alice):
    client = _client(alice)
    response = client.post(URL, _form(opt_nogi_first_player="host"))
    assert response.status_code == 302
    made = Request.objects.get()
    assert made.options == {"first_player": "host"} and made.window == 200
    assert made.clock_min.days == 1 and made.clock_max.days == 7
    for url in (URL, "/"):
        page = client.get(url).content.decode()
        assert f'id="quick-request-{made.pk}"' in page
        assert "2 to 3 players" in page and "rating ± 200" in page


def test_a_request_that_plays_bots_after_twelve_hours(alice):
    client = _client(alice)
    assert client.post(URL, _form(bots_after="12")).status_code == 302
    made = Request.objects.get()
    assert made.bots_after == 12
    assert "bots after 12 hours" in client.get(URL).content.decode()
    assert client.post(URL, _form(game="drakon", bots_after="7")).status_code == 400
    assert Request.objects.count() == 1


def test_a_request_for_any_game_with_any_rating(alice):
    response = _client(alice).post(URL, _form(game="any", counts=("4", "7"), window=""))
    assert response.status_code == 302
    made = Request.objects.get()
    assert made.game_key == "" and made.window is None and made.options == {}


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (_form(game="drako", counts=("2", "3")), 400, None),  # 3 is not a choice for Drako
        (_form(game="drakon", counts=("3",), opt_drakon_team_play="True"), 400, "Team play"),
        (_form(counts=()), 400, None),
        (_form(low=3 * DAY, high=DAY), 400, "must not be above the longest"),
        (_form(low=12345), 400, None),
        (_form(game="chess"), 400, "Choose a game, or any game."),
        (_form(game=""), 400, "Choose a game, or any game."),
        (_form(window="12"), 400, None),
        (_form(opt_nogi_first_player="nobody"), 400, None),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_nothing_changes(alice, data, status, words):
    response = _client(alice).post(URL, data)
    assert response.status_code == status
    page = response.content.decode()
    assert 'id="quick-match-error"' in page
    if words:
        assert words in page
    assert not Request.objects.exists()


def test_a_second_request_for_a_game_is_refused_with_409(alice):
    client = _client(alice)
    client.post(URL, _form())
    response = client.post(URL, _form(counts=("4",)))
    assert response.status_code == 409
    assert "already have a quick-match request waiting" in response.content.decode()
    assert Request.objects.count() == 1


def test_withdrawing_from_the_lobby_returns_to_the_lobby(alice, bob):
    client = _client(alice)
    client.post(URL, _form())
    made = Request.objects.get()
    # Another player cannot withdraw it.
    response = _client(bob).post(reverse("quick_match_withdraw", args=[made.pk]))
    assert response.status_code == 404
    response = client.post(reverse("quick_match_withdraw", args=[made.pk]), {"next": "lobby"})
    assert response.status_code == 302 and response["Location"] == "/"
    made.refresh_from_db()
    assert made.status == RequestStatus.WITHDRAWN
    response = client.post(reverse("quick_match_withdraw", args=[made.pk]))
    assert response.status_code == 409
    response = client.post(reverse("quick_match_withdraw", args=[2**70]))
    assert response.status_code == 404


def test_a_seated_request_links_to_its_match(alice, bob):
    for user in (alice, bob):
        _client(user).post(URL, _form(counts=("2",)))
    services.match_waiting()
    made = Request.objects.get(user=alice)
    page = _client(alice).get(URL).content.decode()
    assert f'href="/m/{made.match_id}/"' in page and "seated: match #" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("pl", ["Szybka gra", "Znajdź mi grę", "Twoje prośby"]),
        ("cs", ["Rychlá hra", "Najdi mi hru"]),
    ],
)
def test_the_page_and_the_lobby_speak_the_players_language(alice, language, words):
    alice.profile.language = language
    alice.profile.save()
    client = _client(alice)
    client.post(URL, _form())
    for url in (URL, URL + "?game=nogi", "/"):
        page = client.get(url).content.decode()
        for word in words[:2]:
            assert word in page, (url, word)
    page = client.get(URL).content.decode()
    assert "Quick match" not in page and "Find me a game" not in page


# -- Queries ------------------------------------------------------------------------------


def _measure(client: Client, url: str) -> list[str]:
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return counted(queries)


QUICK_MATCH_PAGE_QUERIES = (
    4  # the bell (signed in), the counts, the player's requests, the user's profile
)


@pytest.mark.parametrize("url", [URL, "/"])
def test_the_page_and_the_lobby_read_a_fixed_number_of_queries(make_user, url):
    viewer = make_user("viewer")
    client = _client(viewer)
    clocks = services.clocks()
    services.request(viewer, game_key="nogi", counts=[2], clock_min=clocks[1], clock_max=clocks[3])
    few = _measure(client, url)
    for i in range(30):
        other = make_user(f"w{i}")
        services.request(
            other,
            game_key=["nogi", "drakon", ""][i % 3],
            counts=[3],
            clock_min=clocks[1],
            clock_max=clocks[1 + i % 4],
        )
    services.request(viewer, game_key="", counts=[7], clock_min=clocks[1], clock_max=clocks[3])
    lots = _measure(client, url)
    print(f"\n{url}: {len(few)}, {len(lots)}")
    assert len(few) == len(lots), "\n".join(lots)
    if url == URL:
        assert len(lots) <= QUICK_MATCH_PAGE_QUERIES, "\n".join(lots)
