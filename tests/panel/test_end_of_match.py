"""The end of a match: who won and why, the score broken down, the rematch, the fairness check."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from games.models import Invitation, Match, MatchStatus
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def finish(match, game):
    for i in range(2000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        play_one(match, game, choose=i * 3)
    raise AssertionError("the match did not end")


@pytest.fixture
def finished(started_match, nogi):
    return finish(started_match, nogi)


def test_the_banner_names_the_winner_and_breaks_the_score_down(finished, alice):
    page = client_for(alice).get(reverse("match_detail", args=[finished.pk])).content.decode()
    banner = re.search(r'<section class="final-banner".*?</section>', page, re.S).group(0)
    seats = {seat.index: seat for seat in finished.seats.all()}
    winners = [seat.user.profile.name for seat in seats.values() if seat.rank == 1]
    if len(winners) == 1:
        assert f"{winners[0]} won." in banner
    else:
        assert "share the win" in banner
    # One row per seat, in rank order, each with the game's own columns and its total.
    for column in ["Shield (castle points per colour)", "Bunnies rescued", "Total"]:
        assert f">{column}</th>" in banner
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", banner, re.S)
    assert len(rows) == 3
    details = finished.result["details"]["seats"]
    for seat in seats.values():
        row = next(r for r in rows if seat.user.profile.name in r)
        assert f"<td>{details[seat.index]['score']}</td>" in row
        assert f"<td>{seat.rank}</td>" in row
    assert reverse("match_verify", args=[finished.pk]) in banner
    reason = finished.result["details"]["end_reason"]
    expected = {
        "castle_full": "Four knights reached the castle.",
        "few_knights_left": "Only two knights were left on the track.",
    }[reason]
    assert expected in banner
    assert 'id="rematch-button"' in banner


def test_a_spectator_sees_the_banner_but_no_rematch(finished):
    page = Client().get(reverse("match_detail", args=[finished.pk])).content.decode()
    assert 'class="final-banner"' in page and "rematch-button" not in page


def test_no_banner_while_the_match_is_in_play(started_match, alice):
    page = client_for(alice).get(reverse("match_detail", args=[started_match.pk]))
    assert 'class="final-banner"' not in page.content.decode()


def test_a_game_without_its_own_summary_shows_the_plain_score(alice, bob):
    hatchlings = registry.get("hatchlings")
    match = lobby.create_match(user=alice, game_key="hatchlings", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match = finish(match, hatchlings)
    page = client_for(bob).get(reverse("match_detail", args=[match.pk])).content.decode()
    banner = re.search(r'<section class="final-banner".*?</section>', page, re.S).group(0)
    assert ">Score</th>" in banner
    for score in match.result["scores"]:
        assert f"<td>{score}</td>" in banner


def test_rematch_rotates_the_seats_and_keeps_options_and_clock(finished, alice, bob, carol):
    before = {seat.user_id: seat.index for seat in finished.seats.all()}
    response = client_for(bob).post(reverse("match_rematch", args=[finished.pk]))
    new = Match.objects.get(rematch_of=finished)
    assert response.status_code == 302 and response.url == reverse("match_detail", args=[new.pk])
    assert (new.game_key, new.n_seats, new.options) == ("nogi", 3, finished.options)
    assert (new.time_per_move, new.time_bank, new.timeout_policy) == (
        finished.time_per_move,
        finished.time_bank,
        finished.timeout_policy,
    )
    assert new.status == MatchStatus.OPEN and new.visibility == "private"
    assert [(s.user_id, s.index) for s in new.seats.all()] == [(bob.pk, (before[bob.pk] + 1) % 3)]
    assert set(Invitation.objects.filter(match=new).values_list("invited_user", flat=True)) == {
        alice.pk,
        carol.pk,
    }
    # Asking again (anyone) leads to the same rematch; each of the others takes the
    # seat after theirs.
    client_for(carol).post(reverse("match_rematch", args=[finished.pk]))
    assert Match.objects.filter(rematch_of=finished).count() == 1
    page = client_for(alice).get(reverse("match_detail", args=[finished.pk])).content.decode()
    assert f'href="{reverse("match_detail", args=[new.pk])}"' in page
    lobby.join_match(user=carol, match=new)
    lobby.join_match(user=alice, match=new)
    new.refresh_from_db()
    assert new.status == MatchStatus.ACTIVE
    assert {s.user_id: s.index for s in new.seats.all()} == {
        user: (index + 1) % 3 for user, index in before.items()
    }


def test_rematch_refusals_change_nothing(started_match, finished, make_user):
    stranger = make_user("stranger")
    response = client_for(stranger).post(reverse("match_rematch", args=[finished.pk]))
    assert response.status_code == 403
    active = lobby.create_match(user=stranger, game_key="nogi", n_seats=2)
    response = client_for(stranger).post(reverse("match_rematch", args=[active.pk]))
    assert response.status_code == 409
    assert not Match.objects.filter(rematch_of__isnull=False).exists()


def _finish_with(match, state):
    """Put a finished position on the match and close it as the service layer does."""
    from games.play import services

    game = registry.get(match.game_key)
    result = game.result(state)
    match.state = state
    seats = list(match.seats.order_by("index"))
    services.finish_match(match, seats, result.ranks, result.scores, result.to_json())
    match.save()
    return match


def test_drakon_breaks_the_gold_down_coin_by_coin(alice, bob):
    from games.catalog.drakon.builders import build_state

    match = lobby.create_match(user=alice, game_key="drakon", n_seats=2)
    lobby.join_match(user=bob, match=match)
    state = build_state(2, coins=[[1, 2, 3], [3]])
    state.update(over=True, active=None, pending=[], end={"reason": "goal", "winners": [0]})
    match = _finish_with(match, state)
    page = client_for(bob).get(reverse("match_detail", args=[match.pk])).content.decode()
    banner = re.search(r'<section class="final-banner".*?</section>', page, re.S).group(0)
    assert ">Coins</th>" in banner and ">Gold</th>" in banner
    assert "<td>1 + 2 + 3</td>" in banner and "<td>6</td>" in banner
    assert "The winner gathered the gold the game asks for." in banner


def test_seven_dragons_shows_each_goal_and_its_largest_group(alice, bob):
    from games.catalog.seven_dragons.builders import position

    match = lobby.create_match(user=alice, game_key="seven_dragons", n_seats=2)
    lobby.join_match(user=bob, match=match)
    state = position(board={"1,0": "DR-S-red", "2,0": "DR-S-red"}, goals=["red", "blue"])
    state.update(over=True, winners=[0], end_reason="exhausted", active=None)
    match = _finish_with(match, state)
    page = client_for(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    banner = re.search(r'<section class="final-banner".*?</section>', page, re.S).group(0)
    assert ">Goal colour</th>" in banner and ">Largest group of it</th>" in banner
    assert "<td>red</td>" in banner and "<td>blue</td>" in banner
    assert "The cards ran out: the largest group of a player" in banner
