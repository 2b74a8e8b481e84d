"""Play a bot now: one click from the lobby or a How to play page starts a match
against a bot of the chosen level, with the game's default options and a
relaxed clock."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import lobby
from games.engine import registry
from games.engine.base import resolve_options
from games.models import Match, MatchStatus, Visibility

pytestmark = pytest.mark.django_db

CATALOG = ["drako", "drakon", "drakon_classic", "nogi", "seven_dragons"]


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _form_action(key):
    return f'action="{reverse("match_play_bot", args=[key])}"'


@pytest.mark.parametrize("level", ["random", "heuristic", "strong"])
@pytest.mark.parametrize("key", CATALOG)
def test_one_click_starts_a_match_against_a_bot(alice, key, level):
    response = _client(alice).post(reverse("match_play_bot", args=[key]), {"level": level})
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    game = registry.get(key)
    assert match.status == MatchStatus.ACTIVE and match.game_key == key
    assert match.visibility == Visibility.PRIVATE and not match.rated
    assert match.options == resolve_options(game, {})
    assert match.time_per_move == lobby.PLAY_BOT_TIME_PER_MOVE >= timedelta(days=7)
    seats = list(match.seats.order_by("index"))
    assert [s.user for s in seats] == [alice] + [None] * (len(seats) - 1)
    assert len(seats) == max(2, game.min_players)
    assert all(s.is_bot and s.bot_level == level for s in seats[1:])


def test_every_how_to_play_page_and_the_lobby_offer_it(alice):
    for key in CATALOG:
        page = _client().get(reverse("how_to_play", args=[key])).content.decode()
        assert _form_action(key) in page, key
        assert 'value="strong"' in page
    lobby_page = _client(alice).get(reverse("lobby")).content.decode()
    assert all(_form_action(key) in lobby_page for key in CATALOG)


@pytest.mark.parametrize("level", ["", "expert", "<script>", None])
def test_a_bad_level_is_refused_clearly_and_changes_nothing(alice, level):
    data = {} if level is None else {"level": level}
    response = _client(alice).post(reverse("match_play_bot", args=["nogi"]), data)
    assert response.status_code == 400
    assert "Choose one of the bot levels." in response.content.decode()
    assert not Match.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in_first():
    response = _client().post(reverse("match_play_bot", args=["nogi"]), {"level": "strong"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Match.objects.exists()


def test_an_unknown_game_is_a_404(alice):
    response = _client(alice).post(reverse("match_play_bot", args=["chess"]), {"level": "strong"})
    assert response.status_code == 404
    assert not Match.objects.exists()


def test_it_counts_against_the_new_match_limit(alice):
    client = _client(alice)
    url = reverse("match_play_bot", args=["nogi"])
    statuses = [client.post(url, {"level": "random"}).status_code for _ in range(11)]
    assert statuses[:10] == [302] * 10 and statuses[10] == 429
    assert Match.objects.count() == 10


def test_filling_seats_takes_the_chosen_level(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    client = _client(alice)
    refused = client.post(reverse("match_fill_bots", args=[match.pk]), {"level": "expert"})
    assert refused.status_code == 400
    assert not match.seats.filter(is_bot=True).exists()
    client.post(reverse("match_fill_bots", args=[match.pk]), {"level": "strong"})
    assert sorted(match.seats.filter(is_bot=True).values_list("bot_level", flat=True)) == [
        "strong",
        "strong",
    ]
