"""The end banner names the side that actually won, however the match ended.

A resignation ends a two-player match at once (the other player wins,
whatever the timeout policy); a loss on time ends one too. For every game the
banner then names the winner, says how it ended, and, in Drako, names the
winning side (the dragon or the dwarves) by who won, not by what the rules
saw when a bot had taken over the other seat.
"""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus, SeatStatus, TimeoutPolicy
from games.play import safety, services, timeouts
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db

GAMES = ["nogi", "drakon", "drakon_classic", "seven_dragons", "drako"]


def two_player(alice, bob, key, policy=TimeoutPolicy.BOT_STRIKES):
    match = lobby.create_match(user=alice, game_key=key, n_seats=2, timeout_policy=policy)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match


def banner(match, user=None, language="en") -> str:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    found = re.search(r'<section class="final-banner".*?</section>', page, re.S)
    assert found, "no end banner"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


def drako_side(match, user) -> str:
    """ "dragon" or "dwarves": the side ``user`` played."""
    seat = match.seats.get(user=user).index
    return "dragon" if match.state["dragon_seat"] == seat else "dwarves"


SIDE_WINS = {"dragon": "The dragon wins.", "dwarves": "The dwarves win."}


@pytest.mark.parametrize("policy", [TimeoutPolicy.BOT_STRIKES, TimeoutPolicy.LOSS])
@pytest.mark.parametrize("key", GAMES)
def test_resigning_a_two_player_match_ends_it_and_the_banner_says_so(alice, bob, key, policy):
    # Each seat has moved: resigning before that aborts the match instead
    # (tests/players/test_fair_ratings.py).
    match = each_seat_moves(two_player(alice, bob, key, policy))
    page = Client()
    page.force_login(bob)
    before = page.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "You lose this match at once." in before
    safety.resign(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert {s.user_id: s.rank for s in match.seats.all()} == {alice.pk: 1, bob.pk: 2}
    text = banner(match, alice)
    assert "alice won." in text and "bob resigned." in text
    if key == "drako":
        winner = drako_side(match, alice)
        loser = "dwarves" if winner == "dragon" else "dragon"
        assert SIDE_WINS[winner] in text and SIDE_WINS[loser] not in text
    log = Client().get(reverse("match_log", args=[match.pk])).content.decode()
    # The name links to bob's page (tests/e2e/test_e2e_player_links.py).
    assert "bob resigned and lost the match." in re.sub(r"<[^>]+>", "", log)
    assert 'href="/players/bob/"' in log


@pytest.mark.parametrize("key", GAMES)
def test_a_loss_on_time_names_the_late_player_and_the_winner(alice, bob, key):
    match = each_seat_moves(two_player(alice, bob, key, TimeoutPolicy.LOSS))
    game = registry.get(key)
    late = match.seats.get(index=game.current_seats(match.state)[0]).user
    other = bob if late == alice else alice
    assert timeouts.wake_match(match.pk, now=match.deadline + timedelta(minutes=1)) == "timed out"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    text = banner(match)
    assert f"{other.username} won." in text and f"{late.username} ran out of time." in text
    if key == "drako":
        winner = drako_side(match, other)
        loser = "dwarves" if winner == "dragon" else "dragon"
        assert SIDE_WINS[winner] in text and SIDE_WINS[loser] not in text
    polish = banner(match, language="pl")
    assert "ran out of time" not in polish and f"{late.username} " in polish


def test_drako_names_the_side_of_the_winner_when_a_bot_had_won_for_the_other(alice, bob):
    """The rules saw the dwarves win (the dragon is dead), but the dwarves' player
    had lost the seat to the bot: the dragon's player wins, and so does the dragon."""
    match = two_player(alice, bob, "drako")
    dragon_seat = match.state["dragon_seat"]
    dwarves = match.seats.get(index=1 - dragon_seat)
    dwarves.status = SeatStatus.BOT
    dwarves.save(update_fields=["status"])
    seats = services.seats_of(match)
    ranks = [1 if seat == dwarves.index else 2 for seat in range(2)]
    result = {
        "ranks": ranks,
        "scores": [None, None],
        "details": {"winner": "dwarves", "end_reason": "dragon_killed"},
    }
    services.finish_match(match, seats, ranks, [None, None], result)
    match.save()
    match = Match.objects.get(pk=match.pk)
    dragon_player = match.seats.get(index=dragon_seat).user
    text = banner(match)
    assert f"{dragon_player.username} won." in text
    assert "the dragon wins." in text and "the dwarves win" not in text
    assert "The dragon is dead: the dwarves win." not in text
    assert "came first in the game, but a bot had taken over the seat" in text


def test_drako_keeps_its_reason_when_the_winner_played_on(alice, bob):
    match = two_player(alice, bob, "drako")
    dragon_seat = match.state["dragon_seat"]
    seats = services.seats_of(match)
    ranks = [1 if seat == dragon_seat else 2 for seat in range(2)]
    result = {
        "ranks": ranks,
        "scores": [None, None],
        "details": {"winner": "dragon", "end_reason": "dwarves_killed"},
    }
    services.finish_match(match, seats, ranks, [None, None], result)
    match.save()
    text = banner(Match.objects.get(pk=match.pk))
    assert "All three dwarves are dead: the dragon wins." in text
    assert "came first in the game" not in text
