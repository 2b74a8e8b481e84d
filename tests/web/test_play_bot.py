"""Play a bot now: one click from the lobby or a How to play page starts a match
against a bot of the chosen level, with the game's default options and a
relaxed clock."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.engine.base import resolve_options
from games.lobby import services as lobby
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


@pytest.mark.parametrize("level", ["random", "heuristic", "strong"])
def test_each_level_of_the_match_page_picker_is_the_bot_seats_level(alice, level):
    match = lobby.create_match(user=alice, game_key="drakon", n_seats=3)
    response = _client(alice).post(reverse("match_fill_bots", args=[match.pk]), {"level": level})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    bots = match.seats.filter(is_bot=True)
    assert [seat.bot_level for seat in bots] == [level, level]
    assert match.seats.get(user=alice).bot_level == "heuristic"  # a person's seat is untouched


def test_filling_without_a_level_fills_with_the_heuristic_bot(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    assert _client(alice).post(reverse("match_fill_bots", args=[match.pk])).status_code == 302
    assert list(match.seats.filter(is_bot=True).values_list("bot_level", flat=True)) == [
        "heuristic"
    ]


@pytest.mark.parametrize("forged", ["expert", "Strong", "strong ", "", "\x00", "strong\x00"])
def test_a_forged_level_changes_nothing(alice, forged):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    response = _client(alice).post(reverse("match_fill_bots", args=[match.pk]), {"level": forged})
    match.refresh_from_db()
    if forged == "":
        # An empty choice is the default, as an old page without the picker posts.
        assert response.status_code == 302
        return
    assert response.status_code == 400
    if "\x00" not in forged:  # a NUL is refused before the view, with its own message
        assert "Choose one of the bot levels." in response.content.decode()
    assert match.status == MatchStatus.OPEN and not match.seats.filter(is_bot=True).exists()


def test_the_match_page_offers_every_level_the_heuristic_chosen(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    page = _client(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    form = page[page.index('class="fill-bots-form"') :]
    form = form[: form.index("</form>")]
    assert 'name="level"' in form
    for value in ("random", "heuristic", "strong"):
        assert f'value="{value}"' in form
    assert 'value="heuristic" selected' in form
    assert "strong bot" in form
