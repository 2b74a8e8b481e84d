"""The reliability record, the minimum a match asks and the cap on matches at
once (games.play.reliability, docs/correspondence.md "The reliability record")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import ServiceError
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Seat, SeatStatus
from games.play import reliability
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db


def _ended(ann, other, status=SeatStatus.PLAYING, strikes=0, days_ago=0) -> Match:
    """A finished two-player match where ann's seat ended with ``status``."""
    match = start_match([ann, other])
    Seat.objects.filter(match=match, user=ann).update(status=status, strikes=strikes)
    match = finish(match, [2, 1])
    if days_ago:
        Match.objects.filter(pk=match.pk).update(
            finished_at=timezone.now() - timedelta(days=days_ago)
        )
    return match


def test_the_record_counts_completed_matches_timeouts_and_strikes_of_90_days(alice, bob):
    _ended(alice, bob)  # played to the end
    _ended(alice, bob, SeatStatus.RESIGNED)  # resigning is completing
    _ended(alice, bob, SeatStatus.TIMED_OUT)  # lost on time: not completed
    _ended(alice, bob, SeatStatus.BOT, strikes=3)  # left to the bot: not completed
    _ended(alice, bob, SeatStatus.TIMED_OUT, strikes=2, days_ago=91)  # too old
    in_play = start_match([alice, bob])
    Seat.objects.filter(match=in_play, user=alice).update(strikes=1)

    record = reliability.record_of(alice.pk)
    assert (record.ended, record.completed, record.timeouts, record.strikes) == (4, 2, 2, 4)
    assert record.percent == 50
    assert record.meets(50) and not record.meets(51) and record.meets(None)
    # Bob completed every one of his.
    assert reliability.record_of(bob.pk).percent == 100


def test_a_newcomer_has_no_share_yet_and_meets_any_minimum(alice):
    record = reliability.record_of(alice.pk)
    assert record.percent is None and record.meets(100)
    assert record.summary.startswith("No finished matches in the last 90 days.")


def test_the_player_page_shows_the_record(client, alice, bob):
    _ended(alice, bob)
    _ended(alice, bob, SeatStatus.TIMED_OUT)
    _ended(alice, bob, SeatStatus.PLAYING)
    page = client.get(reverse("player_page", args=[alice.username])).content.decode()
    assert 'id="reliability"' in page
    assert "Completed 66% of 3 finished matches in the last 90 days." in page
    assert "1 timeout" in page


def test_the_player_page_shows_the_record_in_polish(client, alice, bob):
    _ended(alice, bob, SeatStatus.TIMED_OUT)
    client.cookies["django_language"] = "pl"
    page = client.get(
        reverse("player_page", args=[alice.username]), HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert "Ukończone 0% z 1 zakończonej partii w ciągu ostatnich 90 dni." in page


def test_a_match_asking_a_minimum_refuses_a_player_below_it_and_changes_nothing(alice, bob, carol):
    _ended(bob, carol, SeatStatus.TIMED_OUT)  # bob: 0 %
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2, min_reliability=80)
    with pytest.raises(reliability.BelowMinimum) as refused:
        lobby.join_match(user=bob, match=match)
    assert "at least 80%" in refused.value.message and "your record is 0%" in refused.value.message
    assert match.seats.count() == 1
    lobby.join_match(user=carol, match=match)  # 100 %
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


@pytest.mark.parametrize("bad", [-1, 101])
def test_a_minimum_outside_0_to_100_is_refused(alice, bad):
    with pytest.raises(ServiceError):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2, min_reliability=bad)
    assert not Match.objects.exists()


def test_the_form_takes_the_minimum_and_refuses_nonsense(client, alice, bob):
    client.force_login(alice)
    url = reverse("match_create") + "?game=nogi"
    data = {
        "game": "nogi",
        "n_seats": 2,
        "visibility": "public",
        "time_per_move": 259200,
        "time_bank": 0,
        "time_bank_increment": 0,
        "timeout_policy": "bot_strikes",
        "takeover_level": "heuristic",
        "opt_nogi_first_player": "random",
        "rated": "on",
    }
    assert client.post(url, {**data, "min_reliability": "150"}).status_code == 400
    assert not Match.objects.exists()
    response = client.post(url, {**data, "min_reliability": "75"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Match.objects.get().min_reliability == 75
    # The lobby and the match page say it before anyone joins.
    match = Match.objects.get()
    client.force_login(bob)
    assert "Minimum reliability: 75%" in client.get(reverse("lobby")).content.decode()
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Minimum reliability: 75%" in page


def test_the_cap_grows_with_finished_matches():
    assert reliability.limit_for(0) == 10
    assert reliability.limit_for(4) == 10
    assert reliability.limit_for(5) == 11
    assert reliability.limit_for(100) == 30
    assert reliability.limit_for(10_000) == 100


def test_a_player_at_the_cap_can_neither_create_nor_join(alice, bob, moderator):
    for _ in range(reliability.BASE_LIMIT):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    with pytest.raises(reliability.TooManyMatches) as refused:
        lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    assert "10 matches at once" in refused.value.message
    assert Match.objects.filter(created_by=alice).count() == reliability.BASE_LIMIT
    other = lobby.create_match(user=bob, game_key="nogi", n_seats=2)
    with pytest.raises(reliability.TooManyMatches):
        lobby.join_match(user=alice, match=other)
    assert other.seats.count() == 1
    # Leaving one makes room; "Play a bot now" is not held back; moderators are exempt.
    lobby.leave_match(user=alice, match=Match.objects.filter(created_by=alice).first())
    lobby.join_match(user=alice, match=other)
    lobby.play_bot(user=alice, game_key="nogi", level="heuristic")
    for _ in range(reliability.BASE_LIMIT + 1):
        lobby.create_match(user=moderator, game_key="nogi", n_seats=2)


def test_the_record_and_the_load_are_one_statement_each(alice, bob, django_assert_num_queries):
    for status in (SeatStatus.PLAYING, SeatStatus.TIMED_OUT, SeatStatus.BOT):
        _ended(alice, bob, status)
    start_match([alice, bob])
    with django_assert_num_queries(1):
        reliability.record_of(alice.pk)
    with django_assert_num_queries(1):
        assert reliability.load_of(alice.pk) == (1, 3)


# -- Tournaments ------------------------------------------------------------------------


def _tournament(creator, **kw):
    from tests.tournaments.conftest import new_tournament

    return new_tournament(creator, **kw)


def test_a_tournament_asking_a_minimum_refuses_an_entrant_below_it(client, alice, bob, carol):
    from tournaments import services as tournaments
    from tournaments.models import Entrant

    _ended(bob, carol, SeatStatus.BOT)  # bob: 0 %
    tournament = _tournament(alice, min_reliability=90)
    with pytest.raises(reliability.BelowMinimum):
        tournaments.join(user=bob, tournament=tournament)
    assert not Entrant.objects.filter(user=bob).exists()
    tournaments.join(user=carol, tournament=tournament)
    # Through the page: the minimum is shown, and the refusal says why.
    client.force_login(bob)
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "Minimum reliability: 90%" in page
    response = client.post(reverse("tournament_action", args=[tournament.pk, "join"]), follow=True)
    assert response.status_code == 200
    assert "at least 90%" in response.content.decode()
    assert not Entrant.objects.filter(user=bob).exists()


def test_a_player_at_the_cap_cannot_enter_a_tournament(alice, bob):
    from tournaments import services as tournaments

    tournament = _tournament(alice)
    for _ in range(reliability.BASE_LIMIT):
        lobby.create_match(user=bob, game_key="nogi", n_seats=2)
    with pytest.raises(reliability.TooManyMatches):
        tournaments.join(user=bob, tournament=tournament)
    assert tournament.entrants.count() == 1
    with pytest.raises(ServiceError):
        _tournament(alice, min_reliability=120)


def test_a_player_at_the_cap_cannot_ask_for_a_quick_match(alice):
    from matchmaking import services as matchmaking
    from matchmaking.models import Request

    for _ in range(reliability.BASE_LIMIT):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    with pytest.raises(reliability.TooManyMatches):
        matchmaking.request(
            alice,
            game_key="nogi",
            counts=(2,),
            clock_min=timedelta(days=1),
            clock_max=timedelta(days=7),
        )
    assert not Request.objects.exists()


def test_the_pages_refuse_a_player_at_the_cap_with_the_message_never_a_500(client, alice, bob):
    from matchmaking.models import Request
    from tests.matchmaking.test_views import URL, _form

    other = lobby.create_match(user=bob, game_key="nogi", n_seats=2, min_reliability=50)
    for _ in range(reliability.BASE_LIMIT):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    client.force_login(alice)
    response = client.post(reverse("match_join", args=[other.pk]))
    assert response.status_code == 409
    assert "10 matches at once" in response.content.decode()
    assert other.seats.count() == 1
    response = client.post(URL, _form())
    assert response.status_code == 409
    assert "10 matches at once" in response.content.decode()
    assert not Request.objects.exists()


def test_the_join_page_refuses_a_player_below_the_minimum_with_their_record(
    client, alice, bob, carol
):
    _ended(carol, alice, SeatStatus.TIMED_OUT)  # carol: 0 %
    match = lobby.create_match(user=bob, game_key="nogi", n_seats=2, min_reliability=50)
    client.force_login(carol)
    response = client.post(reverse("match_join", args=[match.pk]))
    assert response.status_code == 403
    assert "your record is 0%" in response.content.decode()
    assert match.seats.count() == 1
