"""Mass abandonment (docs/ratings.md): of a player's rated matches of one game
lost on time or left to the bot within a week, only the first changes their
opponents' ratings; the later ones rate the abandoner's loss and their
opponents only among themselves, so the leaderboard does not move."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Seat, SeatStatus
from players import ratings
from players.models import PROVISIONAL_MATCHES, Rating, RatingChange, display_of
from players.selectors import best_first, leaderboard_rows
from tests.players.conftest import finish, start_match
from tests.players.test_ratings import assert_stored, expected, state_of
from tests.players.test_recompute import stored

pytestmark = pytest.mark.django_db


def _left(users, leaver, ranks, status=SeatStatus.TIMED_OUT) -> Match:
    """A rated match of ``users`` that ``leaver`` left (on time or to the bot),
    finished with ``ranks``."""
    match = start_match(users)
    Seat.objects.filter(match=match, user=leaver).update(status=status)
    return finish(match, ranks)


def _established(users) -> None:
    """Give each player a leaderboard rating (distinct numbers)."""
    for i, user in enumerate(users):
        Rating.objects.update_or_create(
            user=user,
            game_key="nogi",
            defaults={
                "mu": 30 - i,
                "sigma": 3.0,
                "rated_matches": PROVISIONAL_MATCHES,
                "display": display_of(30 - i, 3.0),
                "last_played_at": timezone.now(),
            },
        )


def _board():
    return list(
        best_first(leaderboard_rows().filter(game_key="nogi")).values_list("user_id", "display")
    )


def test_only_the_first_abandoned_match_moves_the_opponents(players):
    ann, ben, cid, dan = players[:4]
    before = state_of([ann, ben])
    _left([ann, ben], ann, [2, 1])  # the first: rated the normal way
    assert_stored(expected(before, [[ben], [ann]], [1, 2]))

    before = state_of([ann, cid])
    match = _left([cid, ann], ann, [1, 2], SeatStatus.BOT)  # the second, left to the bot
    assert ratings.abandoned_again(match, ratings.outcomes_of(match, match.seats.all())) == {ann.pk}
    # Ann takes the loss as usual; cid neither gains nor loses.
    assert_stored({ann.pk: expected(before, [[cid], [ann]], [1, 2])[ann.pk]})
    assert not Rating.objects.filter(user=cid, rated_matches__gt=0).exists()
    assert list(RatingChange.objects.filter(match=match).values_list("user_id", flat=True)) == [
        ann.pk
    ]
    # A resignation is no abandonment: dan's win counts.
    match = start_match([ann, dan])
    Seat.objects.filter(match=match, user=ann).update(status=SeatStatus.RESIGNED)
    finish(match, [2, 1])
    assert Rating.objects.get(user=dan, game_key="nogi").rated_matches == 1


def test_the_others_at_a_larger_table_are_rated_among_themselves(players):
    ann, ben, cid, dan = players[:4]
    _left([ann, ben], ann, [2, 1])
    before = state_of([ann, cid, dan])
    _left([cid, ann, dan], ann, [1, 3, 2], SeatStatus.BOT)
    among = expected(before, [[cid], [dan]], [1, 2])
    whole = expected(before, [[cid], [dan], [ann]], [1, 2, 3])
    assert_stored({cid.pk: among[cid.pk], dan.pk: among[dan.pk], ann.pk: whole[ann.pk]})


def test_an_abandonment_after_the_window_or_in_another_game_is_a_first_again(players):
    ann, ben, cid = players[:3]
    first = _left([ann, ben], ann, [2, 1])
    Match.objects.filter(pk=first.pk).update(
        finished_at=first.finished_at - ratings.ABANDON_WINDOW - timedelta(minutes=1)
    )
    _left([cid, ann], ann, [1, 2])
    assert Rating.objects.get(user=cid, game_key="nogi").rated_matches == 1
    # Another game keeps its own count (its ratings are its own).
    match = start_match([ben, ann], "hatchlings")
    Seat.objects.filter(match=match, user=ann).update(status=SeatStatus.TIMED_OUT)
    finish(match, [1, 2])
    assert Rating.objects.get(user=ben, game_key="hatchlings").rated_matches == 1


def test_a_player_leaving_many_matches_does_not_reshuffle_the_leaderboard(players):
    leaver, *others = players[:6]
    _established([leaver, *others])
    board = [row for row in _board() if row[0] != leaver.pk]
    # The leaver abandons a match against each of the others, losing on time.
    for other in others:
        _left([other, leaver], leaver, [1, 2])
    after = [row for row in _board() if row[0] != leaver.pk]
    # Only the first opponent moved; everyone else kept their number and place.
    first = others[0].pk
    assert [r for r in after if r[0] != first] == [r for r in board if r[0] != first]
    assert Rating.objects.get(user=leaver, game_key="nogi").rated_matches == (
        PROVISIONAL_MATCHES + len(others)
    )


def test_the_rebuild_reaches_what_the_live_updates_stored(players):
    ann, ben, cid, dan = players[:4]
    _left([ann, ben], ann, [2, 1])
    _left([cid, ann, dan], ann, [1, 3, 2], SeatStatus.BOT)
    _left([ann, dan], ann, [2, 1])
    finish(start_match([ben, cid]), [1, 2])
    live = stored()
    ratings.recompute()
    assert stored() == live


def test_the_opponent_s_end_banner_and_email_say_why_their_rating_did_not_change(client, players):
    ann, ben, cid = players[:3]
    first = _left([ann, ben], ann, [2, 1])
    match = _left([cid, ann], ann, [1, 2])
    why = "No change to your rating: p0 left this match after leaving another lately"
    client.force_login(cid)
    response = client.get(reverse("match_detail", args=[match.pk]))
    assert response.status_code == 200
    assert why in response.content.decode()
    # Not to the abandoner, who sees their own change, nor after the first match.
    client.force_login(ann)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert why not in page and 'id="my-rating-change"' in page
    client.force_login(ben)
    assert why not in client.get(reverse("match_detail", args=[first.pk])).content.decode()
    # The "match finished" email says the same.
    from games.correspondence.compose import build_email
    from games.models import Notification, NotificationKind

    row = Notification.objects.get(user=cid, match=match, kind=NotificationKind.MATCH_FINISHED)
    assert why in build_email(row).body
