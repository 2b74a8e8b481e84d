"""Hints in practice (games/play/hints.py): offered only in an unrated match
against bots alone, on the player's turn; honest (the same hint for two
positions that look the same to the seat); kept, and named by the replay."""

import pytest
from django.urls import reverse

from core import errors
from games.engine import registry
from games.engine.rng import Rng
from games.engine.search import Budget
from games.lobby import services as lobby
from games.models import Hint
from games.play import hints, services
from tests.clock import two_player

pytestmark = pytest.mark.django_db
GAMES = ["nogi", "drakon", "drakon_classic", "drako", "seven_dragons"]


def practice(user, game_key="nogi"):
    """A match against the heuristic bot, played on until it is ``user``'s turn."""
    match = lobby.play_bot(user=user, game_key=game_key, level="heuristic")
    services.play_bot_turns(match.pk, 50)
    match.refresh_from_db()
    return match


def test_a_hint_in_practice_is_kept_shown_and_named_by_the_replay(client, alice, settings):
    settings.SMOKI = {**settings.SMOKI, "BOT_STRONG_ITERATIONS": 16}
    match = practice(alice)
    seats = list(match.seats.all())
    assert hints.offered(match, seats, alice)
    client.force_login(alice)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="ask-hint"' in page
    response = client.post(reverse("match_hint", args=[match.pk]), {"version": match.version})
    assert response.status_code == 302
    hint = Hint.objects.get(match=match)
    game = registry.get(match.game_key)
    assert hint.action in game.legal_actions(match.state, hint.seat)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "The strong bot suggests:" in page and 'id="ask-hint"' not in page
    # Asking again at the same turn gives the same hint, not a second one.
    client.post(reverse("match_hint", args=[match.pk]), {"version": match.version})
    assert Hint.objects.filter(match=match).count() == 1
    replay = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert 'id="hints-used"' in replay


def test_no_hint_in_a_match_with_another_person(client, traveller, alice, bob):
    match = two_player(alice, bob)
    assert not hints.offered(match, list(match.seats.all()), alice)
    client.force_login(alice)
    assert (
        'id="ask-hint"' not in client.get(reverse("match_detail", args=[match.pk])).content.decode()
    )
    response = client.post(reverse("match_hint", args=[match.pk]), {"version": match.version})
    assert response.status_code == 403
    assert not Hint.objects.exists()


def test_no_hint_in_a_rated_match_against_bots(alice):
    match = practice(alice)
    match.rated = True
    match.save(update_fields=["rated"])
    with pytest.raises(errors.Forbidden):
        hints.ask(user=alice, match=match, version=match.version)
    assert not Hint.objects.exists()


def test_a_stale_or_forged_version_is_refused_and_changes_nothing(client, alice):
    match = practice(alice)
    client.force_login(alice)
    for version in (match.version - 1, "x", ""):
        response = client.post(reverse("match_hint", args=[match.pk]), {"version": version})
        assert response.status_code in (400, 409)
    assert not Hint.objects.exists()


@pytest.mark.parametrize("key", GAMES)
def test_the_hint_is_the_same_whatever_the_other_seats_hold(key):
    """Two positions that differ only in what the seat cannot see (another
    sample of the hidden information, the dice to come included) get the
    same hint: it is computed from the seat's view alone."""
    game = registry.get(key)
    n = max(2, game.min_players)
    state = game.setup(n, {}, f"setup-{key}")
    seat = game.current_seats(state)[0]
    other = game.sample_secrets(state, seat, Rng.from_seed("another deal"))
    assert game.view(other, seat) == game.view(state, seat)
    budget = Budget(iterations=24)
    first = hints.suggest(key, state, seat, "hint-seed", budget)
    second = hints.suggest(key, other, seat, "hint-seed", budget)
    assert first == second
