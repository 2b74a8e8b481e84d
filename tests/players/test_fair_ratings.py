"""Ratings cannot be raised with a second account (issue 40, item 8).

Three private rated Nogi matches, the second account joining by link and
resigning at once, raised a rating to 1168. What stops it now, as lichess
and Board Game Arena do:

- a private match is not rated (the form and the service refuse it), but
  for a ladder challenge's match;
- a two-player match that ends by a resignation or a loss on time before
  each seat has moved is aborted and unrated;
- only the first ``PAIR_LIMIT`` rated results of the same two players in a
  game within ``PAIR_WINDOW`` count;
- the moderators' desk lists the pairs worth a look.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from core import errors
from games.engine import registry
from games.history.verification import verify_match
from games.lobby import services as lobby
from games.models import (
    Match,
    MatchStatus,
    Notification,
    NotificationKind,
    TimeoutPolicy,
    Visibility,
)
from games.play import services
from players import ratings
from players.models import Rating, RatingChange
from tests.conftest import play_one
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db

PRIVATE_RATED = "A private match cannot be rated"


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_text(response) -> str:
    """The page's text, without its tags (names are links)."""
    content = re.sub(r"<(style|script)\b[^>]*>.*?</\1>", "", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", content))


# -- A private match is unrated ---------------------------------------------------------


def test_the_service_refuses_a_private_rated_match(alice):
    with pytest.raises(errors.ServiceError, match=PRIVATE_RATED):
        lobby.create_match(
            user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE, rated=True
        )
    assert not Match.objects.exists()


def test_the_form_refuses_a_private_rated_match_with_a_message(alice):
    form = {"game": "nogi", "n_seats": 2, "visibility": "private", "time_per_move": 86400}
    url = reverse("match_create") + "?game=nogi"
    response = client_for(alice).post(url, {**form, "rated": "on"})
    assert response.status_code == 400
    assert PRIVATE_RATED in page_text(response)
    assert not Match.objects.exists()
    # Unticked, the private match is created, unrated.
    assert client_for(alice).post(url, form).status_code == 302
    assert not Match.objects.get().rated


def test_a_rematch_is_private_so_unrated(alice, bob):
    match = finish(start_match([alice, bob]), [1, 2])
    assert match.rated
    new = lobby.rematch(user=bob, match=match)
    assert new.visibility == Visibility.PRIVATE and not new.rated


def test_a_ladder_challenge_is_the_one_private_rated_match(alice, bob):
    from ladders import services as ladders

    ladders.join(alice, "nogi")
    ladders.join(bob, "nogi")
    match = ladders.challenge(bob, "nogi", "alice").match
    assert match.visibility == Visibility.PRIVATE and match.rated


# -- A match that ends before each seat has moved is aborted ------------------------------


def _rated_nogi(host, guest) -> Match:
    """A public rated two-player Nogi match, host to move first, loss on time."""
    match = lobby.create_match(
        user=host,
        game_key="nogi",
        n_seats=2,
        options={"first_player": "host"},
        timeout_policy=TimeoutPolicy.LOSS,
    )
    lobby.join_match(user=guest, match=match)
    match.refresh_from_db()
    assert match.rated and match.status == MatchStatus.ACTIVE
    return match


def _move(match: Match, times: int = 1) -> Match:
    """Whoever is to move plays their first legal action, ``times`` times."""
    for _i in range(times):
        play_one(match, registry.get("nogi"))
    match.refresh_from_db()
    return match


def _resign(user, match: Match) -> Match:
    response = client_for(user).post(reverse("match_resign", args=[match.pk]))
    assert response.status_code in (200, 302)
    match.refresh_from_db()
    return match


def test_the_attack_three_matches_resigned_at_once_raise_no_rating(alice, make_user):
    """The probe's attack: a second account joins and resigns at once, three times."""
    second = make_user("alice2")
    for _i in range(3):
        match = _rated_nogi(alice, second)
        match = _resign(second, match)
        assert match.status == MatchStatus.ABORTED
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(rated_matches__gt=0).exists()


@pytest.mark.parametrize("moves", [0, 1])
def test_a_resignation_before_each_seat_moved_aborts_the_match(alice, bob, moves):
    """Before any move, or after the first player's only: aborted, unrated, and
    the end banner, the log and the email say so."""
    match = _move(_rated_nogi(alice, bob), moves)
    match = _resign(bob, match)
    assert match.status == MatchStatus.ABORTED
    assert match.ended_early_by == 1
    assert not RatingChange.objects.exists()
    page = page_text(client_for(alice).get(reverse("match_detail", args=[match.pk])))
    assert "The match was aborted." in page
    assert "bob resigned before each player had moved." in page
    assert "A match that ends so early is aborted, and no rating changes." in page
    assert (
        "bob resigned before each player had moved: the match is aborted and no rating changes."
        in page
    )
    assert "alice won" not in page
    assert Notification.objects.filter(
        user=alice, match=match, kind=NotificationKind.MATCH_FINISHED
    ).exists()
    subject, lines = _email(alice, match)
    assert subject == f"Nogi za pas! #{match.pk} was aborted"
    assert "ended before each player had moved" in lines[0]


def _email(user, match):
    from games.correspondence.compose import message_context

    row = Notification.objects.get(user=user, match=match, kind=NotificationKind.MATCH_FINISHED)
    context = message_context(row)
    return context["subject"], context["lines"]


def test_a_resignation_once_each_seat_has_moved_is_rated(alice, bob):
    match = _move(_rated_nogi(alice, bob), 2)
    match = _resign(bob, match)
    assert match.status == MatchStatus.FINISHED
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(("moves", "status"), [(1, "aborted"), (2, "finished")])
def test_a_loss_on_time_before_each_seat_moved_aborts_the_match(alice, bob, moves, status):
    match = _move(_rated_nogi(alice, bob), moves)
    with time_machine.travel(match.deadline + timedelta(minutes=1)):
        assert services.time_out(match.pk)
    match.refresh_from_db()
    assert match.status == status
    assert RatingChange.objects.exists() == (status == "finished")
    if status == "aborted":
        assert match.ended_early_by == (moves % 2)
        last = match.moves.order_by("-seq").first()
        assert last.action["op"] == "early_abort"
        page = page_text(client_for(alice).get(reverse("match_detail", args=[match.pk])))
        who = "bob" if moves % 2 else "alice"
        assert f"{who} ran out of time before each player had moved." in page
        assert verify_match(match).ok


def test_a_ladder_challenge_resigned_at_once_is_the_resigners_loss_unrated(alice, bob):
    """On the ladder, resigning at once loses as a decline does (the challenger
    takes the place); no rating changes."""
    from ladders import services as ladders
    from ladders.models import Entry, Outcome

    ladders.join(alice, "nogi")
    ladders.join(bob, "nogi")
    challenge = ladders.challenge(bob, "nogi", "alice")
    ladders.accept(alice, challenge.pk)
    match = _resign(alice, challenge.match)
    assert match.status == MatchStatus.ABORTED
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.WON and challenge.moved
    assert list(Entry.objects.order_by("rung").values_list("user__username", flat=True)) == [
        "bob",
        "alice",
    ]
    assert not RatingChange.objects.exists()


def test_a_tournament_match_resigned_at_once_is_a_forfeit_unrated(alice, bob):
    from tests.tournaments.conftest import entered, new_tournament, running_matches, start_now
    from tournaments import services as tournament_services
    from tournaments.models import Placement

    tournament = entered(new_tournament(alice, rounds=1), [alice, bob])
    start_now(tournament)
    (match,) = running_matches(tournament)
    assert match.rated
    loser = match.seats.get(index=1).user
    winner = match.seats.get(index=0).user
    match = _resign(loser, match)
    assert match.status == MatchStatus.ABORTED
    tournament_services.advance(tournament.pk)
    placements = {p.entrant.user_id: p for p in Placement.objects.filter(match=match)}
    assert (placements[winner.pk].points, placements[winner.pk].rank) == (1.0, 1)
    assert (placements[loser.pk].points, placements[loser.pk].rank) == (0.0, 2)
    assert not placements[winner.pk].aborted
    assert not RatingChange.objects.exists()


# -- Repeated results between the same two players -----------------------------------------


def _played(users, ranks, game_key="nogi") -> Match:
    return finish(start_match(users, game_key), ranks)


def test_only_the_first_results_of_the_same_pair_within_the_window_count(alice, bob, carol):
    """A second account losing match after match: past ``PAIR_LIMIT`` results
    within ``PAIR_WINDOW`` the pair's matches change no rating."""
    counted = [_played([alice, bob], [1, 2]) for _i in range(ratings.PAIR_LIMIT)]
    assert all(RatingChange.objects.filter(match=m).count() == 2 for m in counted)
    before = Rating.objects.get(user=alice, game_key="nogi").display
    extra = _played([bob, alice], [2, 1])
    assert not RatingChange.objects.filter(match=extra).exists()
    alice_rating = Rating.objects.get(user=alice, game_key="nogi")
    assert (alice_rating.display, alice_rating.rated_matches) == (before, ratings.PAIR_LIMIT)
    # Nor with a third player at the table; another pair, another game still count.
    trio = _played([alice, bob, carol], [1, 2, 3])
    assert not RatingChange.objects.filter(match=trio).exists()
    assert RatingChange.objects.filter(match=_played([alice, carol], [1, 2])).count() == 2
    assert RatingChange.objects.filter(match=_played([alice, bob], [1, 2], "drako")).count() == 2
    # The end banner and the email say why.
    note = (
        f"No rating changes: two of these players have already had {ratings.PAIR_LIMIT} "
        f"rated results together in Nogi za pas! within {ratings.PAIR_WINDOW.days} days."
    )
    page = page_text(client_for(alice).get(reverse("match_detail", args=[extra.pk])))
    assert note in page
    _subject, lines = _email(alice, extra)
    assert note in lines


def test_the_pair_counts_again_once_the_window_has_passed(alice, bob, traveller):
    for _i in range(ratings.PAIR_LIMIT):
        _played([alice, bob], [1, 2])
    assert not RatingChange.objects.filter(match=_played([alice, bob], [1, 2])).exists()
    traveller.shift(ratings.PAIR_WINDOW + timedelta(minutes=1))
    assert RatingChange.objects.filter(match=_played([alice, bob], [1, 2])).count() == 2


def test_the_rebuild_leaves_out_the_same_results(alice, bob, carol):
    played = [
        _played([alice, bob] if i % 3 else [carol, alice], [1 + i % 2, 2 - i % 2])
        for i in range(ratings.PAIR_LIMIT + 5)
    ]
    assert any(not RatingChange.objects.filter(match=m).exists() for m in played)
    stored = sorted(RatingChange.objects.values_list("match_id", "user_id", "display_after"))
    kept = sorted(Rating.objects.values_list("user_id", "display", "rated_matches", "wins"))
    ratings.recompute()
    assert sorted(RatingChange.objects.values_list("match_id", "user_id", "display_after")) == (
        stored
    )
    assert sorted(Rating.objects.values_list("user_id", "display", "rated_matches", "wins")) == (
        kept
    )


# -- The moderators' desk: suspicious pairs -------------------------------------------------


def test_the_desk_lists_a_pair_that_feeds_a_rating(alice, bob, carol, make_user, moderator):
    """A second account joining and resigning at once, then losing match after
    match: listed with its results, the one side always losing and the quick
    ends; an ordinary pair is not."""
    second = make_user("alice2")
    for _i in range(2):
        _resign(second, _rated_nogi(alice, second))  # aborted: before each seat moved
    for _i in range(ratings.PAIR_LIMIT + 1):
        _resign(second, _move(_rated_nogi(alice, second), 2))  # quick resignations
    _played([bob, carol], [1, 2])
    url = reverse("admin:players_suspicious_pairs")
    response = client_for(moderator).get(url)
    assert response.status_code == 200
    (pair,) = response.context["pairs"]
    assert (pair.first, pair.second) == (alice, second)
    assert pair.results == ratings.PAIR_LIMIT + 1
    assert (pair.first_wins, pair.second_wins) == (ratings.PAIR_LIMIT + 1, 0)
    assert pair.one_side_always_loses
    assert (pair.quick, pair.aborted_early) == (ratings.PAIR_LIMIT + 3, 2)
    text = page_text(response)
    assert "alice – alice2" in text and "one side always loses" in text
    assert "bob" not in text
    # From the ratings' list of the desk.
    listing = client_for(moderator).get(reverse("admin:players_rating_changelist"))
    assert url in listing.content.decode()


def test_only_moderators_see_the_suspicious_pairs(alice):
    from django.contrib.auth import get_user_model

    url = reverse("admin:players_suspicious_pairs")
    response = client_for(alice).get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    assert client_for(staff).get(url).status_code == 403
