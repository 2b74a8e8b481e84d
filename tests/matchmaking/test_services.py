"""Quick match through its services: requests and their refusals, the pass
that starts matches through the lobby's ``start_table``, withdrawals, blocks,
and the news each player is told."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Block
from core.errors import Conflict, NotFound, ServiceError
from games.correspondence import delivery
from games.models import Match, MatchStatus, Notification
from matchmaking import services, tasks
from matchmaking.models import Request, RequestStatus
from players.models import Rating
from tests.matchmaking.conftest import DAY

pytestmark = pytest.mark.django_db


def _waiting() -> int:
    return Request.objects.filter(status=RequestStatus.WAITING).count()


def _rate(user, game_key: str, display: int) -> None:
    Rating.objects.update_or_create(user=user, game_key=game_key, defaults={"display": display})


# -- Bad input: a clear refusal, nothing written ------------------------------------------


@pytest.mark.parametrize(
    ("game_key", "counts", "options", "words"),
    [
        ("drako", (2, 3), {}, "Drako: Dragon & Dwarves is for 2 to 2 players."),
        ("seven_dragons", (6,), {}, "is for 2 to 5 players."),
        ("drakon", (3, 4), {"team_play": True}, "Team play"),
        ("nogi", (), {}, "Choose how many players you accept."),
        ("nogi", (1, 2), {}, "A table seats 2 to 7 players."),
        ("nogi", (8,), {}, "A table seats 2 to 7 players."),
        ("nogi", (2,), {"first_player": "nobody"}, "not one of the choices"),
        ("nogi", (2,), {"no_such_option": 1}, ""),
        ("chess", (2,), {}, "There is no such game."),
        ("", (2,), {"first_player": "host"}, "Options are for one game"),
    ],
)
def test_a_request_a_game_cannot_seat_is_refused_and_nothing_is_written(
    ask, alice, game_key, counts, options, words
):
    with pytest.raises(ServiceError) as refusal:
        ask(alice, game_key, counts, options=options)
    assert words in refusal.value.message
    assert not Request.objects.exists()


def test_team_play_is_accepted_for_the_counts_it_seats(ask, alice):
    made = ask(alice, "drakon", (4, 6), options={"team_play": True})
    assert made.options["team_play"] is True and made.is_waiting


@pytest.mark.parametrize(
    ("low", "high", "window", "words"),
    [
        (3 * DAY, DAY, None, "must not be above the longest"),
        (timedelta(hours=5), DAY, None, "from the list"),
        (DAY, DAY, 5000, "at most 4000 points"),
    ],
)
def test_a_clock_range_or_window_out_of_bounds_is_refused(ask, alice, low, high, window, words):
    with pytest.raises(ServiceError) as refusal:
        ask(alice, clock_min=low, clock_max=high, window=window)
    assert words in refusal.value.message
    assert not Request.objects.exists()


def test_one_waiting_request_per_game_and_a_cap_on_open_ones(ask, alice, settings):
    settings.SMOKI = {**settings.SMOKI, "QUICK_MATCH_MAX_OPEN": 2}
    ask(alice, "nogi")
    with pytest.raises(Conflict, match="already have a quick-match request waiting"):
        ask(alice, "nogi", (3,))
    ask(alice, "")
    with pytest.raises(Conflict, match="2 quick-match requests waiting"):
        ask(alice, "drakon")
    assert _waiting() == 2


# -- The pass ---------------------------------------------------------------------------


def test_two_waiting_players_get_a_rated_match_started_with_the_longest_common_clock(
    ask, alice, bob
):
    ask(alice, "nogi", (2, 3), clock_min=DAY, clock_max=3 * DAY)
    ask(bob, "nogi", (2,), clock_min=2 * DAY, clock_max=7 * DAY)
    assert services.match_waiting() == {"tables": 1, "skipped": 0, "failed": 0, "with_bots": 0}
    match = Match.objects.get()
    assert match.status == MatchStatus.ACTIVE and match.rated
    assert match.time_per_move == 3 * DAY
    assert sorted(s.user.username for s in match.seats.all()) == ["alice", "bob"]
    assert set(Request.objects.values_list("status", "match_id")) == {
        (RequestStatus.SEATED, match.pk)
    }
    # A second pass finds nothing to do.
    assert services.match_waiting()["tables"] == 0


def test_a_new_request_hands_a_pass_to_a_worker_after_its_commit(
    ask, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    handed = []
    monkeypatch.setattr(services.outbox, "hand_over", lambda *task: handed.append(task))
    with django_capture_on_commit_callbacks(execute=True):
        ask(alice)
    assert handed == [("matchmaking.tasks.match_waiting", True)]
    # The suite runs tasks at once: the pass after bob's request seats them.
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        ask(bob)
    assert Match.objects.count() == 1 and _waiting() == 0


def test_a_burst_of_requests_costs_one_pass_and_the_beat_runs_regardless(ask, players):
    for player in players[:2]:
        ask(player)
    assert tasks.match_waiting(after_request=True)["tables"] == 1
    for player in players[2:4]:
        ask(player)
    assert tasks.match_waiting(after_request=True) is None  # one ran just now
    assert tasks.match_waiting()["tables"] == 1


def test_the_beat_runs_a_pass_every_minute(settings):
    (entry,) = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == services.PASS_TASK
    ]
    assert entry["schedule"] == 60.0


def test_a_pass_reads_what_it_plans_from_in_three_queries(ask, players, django_assert_num_queries):
    Block.objects.create(blocker=players[0], blocked=players[1])
    for i, player in enumerate(players):
        _rate(player, "nogi", 1000 + 10 * i)
        ask(player, ["nogi", "", "drakon"][i % 3], (2, 3))
    with django_assert_num_queries(3):  # the requests, the ratings, the blocks
        tables = services.plan()
    assert tables


def test_the_beat_task_runs_a_pass(ask, alice, bob):
    ask(alice)
    ask(bob)
    assert tasks.match_waiting()["tables"] == 1


def test_requests_whose_clocks_do_not_overlap_wait(ask, alice, bob):
    ask(alice, clock_min=timedelta(hours=12), clock_max=DAY)
    ask(bob, clock_min=3 * DAY, clock_max=7 * DAY)
    assert services.match_waiting()["tables"] == 0
    assert _waiting() == 2


def test_rated_and_unrated_requests_are_not_seated_together(ask, alice, bob):
    ask(alice, rated=True)
    ask(bob, rated=False)
    assert services.match_waiting()["tables"] == 0


def test_requests_for_different_options_are_not_seated_together(ask, alice, bob, carol):
    ask(alice, "nogi", options={"first_player": "host"})
    ask(bob, "nogi", options={"first_player": "random"})
    assert services.match_waiting()["tables"] == 0
    ask(carol, "nogi", options={"first_player": "host"})
    services.match_waiting()
    match = Match.objects.get()
    assert match.options["first_player"] == "host"
    assert {s.user.username for s in match.seats.all()} == {"alice", "carol"}


def test_a_table_of_five_forms_from_the_players_who_accept_it(ask, players):
    for player in players[:5]:
        ask(player, "nogi", (2, 3, 4, 5))
    services.match_waiting()
    match = Match.objects.get()
    assert match.n_seats == 5 and match.seats.count() == 5


def test_any_game_requests_meet_at_the_game_named_by_another(ask, alice, bob, carol):
    ask(alice, "", (2, 3))
    ask(bob, "seven_dragons", (3,))
    ask(carol, "", (3, 4))
    services.match_waiting()
    match = Match.objects.get()
    assert match.game_key == "seven_dragons" and match.n_seats == 3


def test_a_player_who_blocked_another_is_never_seated_with_them(ask, alice, bob, carol):
    Block.objects.create(blocker=bob, blocked=alice)
    ask(alice)
    ask(bob)
    assert services.match_waiting()["tables"] == 0
    ask(carol)
    services.match_waiting()
    (match,) = Match.objects.all()
    seated = {s.user.username for s in match.seats.all()}
    assert seated in ({"alice", "carol"}, {"bob", "carol"})


def test_a_block_made_after_the_plan_stops_the_table(ask, alice, bob):
    ask(alice)
    ask(bob)
    (table,) = services.plan()
    Block.objects.create(blocker=alice, blocked=bob)
    assert services.seat(table) is False
    assert not Match.objects.exists() and _waiting() == 2


def test_a_deactivated_players_request_is_not_seated(ask, alice, bob):
    ask(alice)
    ask(bob)
    bob.is_active = False
    bob.save()
    assert services.match_waiting()["tables"] == 0


def test_a_deactivated_players_requests_are_withdrawn_and_a_deleted_ones_go(ask, alice, bob):
    ask(alice)
    ask(alice, "")
    ask(bob)
    alice.is_active = False
    alice.save()
    assert set(Request.objects.filter(user=alice).values_list("status", flat=True)) == {
        RequestStatus.WITHDRAWN
    }
    bob.delete()
    assert not Request.objects.filter(user_id=bob.pk).exists()


def test_closer_ratings_are_seated_together(ask, players):
    for player, rating in zip(players[:4], [1000, 1500, 1050, 1480], strict=True):
        _rate(player, "nogi", rating)
        ask(player)
    services.match_waiting()
    tables = {frozenset(s.user.username for s in m.seats.all()) for m in Match.objects.all()}
    assert tables == {frozenset({"p0", "p2"}), frozenset({"p1", "p3"})}


def test_the_rating_window_widens_with_waiting_time(ask, alice, bob):
    _rate(alice, "nogi", 1000)
    _rate(bob, "nogi", 1230)
    ask(alice, window=200)
    ask(bob, window=200)
    assert services.match_waiting()["tables"] == 0
    # After a day: 200 + 6 × 50 = 500 points either side.
    later = timezone.now() + timedelta(hours=24)
    assert services.match_waiting(now=later)["tables"] == 1


def test_a_request_still_waiting_after_its_hours_plays_bots(ask, alice, bob):
    mine = ask(alice, "nogi", (3, 4), bots_after=6, clock_max=3 * DAY)
    ask(bob, "drako")  # another game: no table for alice
    assert services.match_waiting()["with_bots"] == 0
    later = timezone.now() + timedelta(hours=6, seconds=1)
    assert services.match_waiting(now=later)["with_bots"] == 1
    mine.refresh_from_db()
    match = mine.match
    assert mine.status == RequestStatus.SEATED and match.status == MatchStatus.ACTIVE
    assert match.game_key == "nogi" and match.n_seats == 3 and not match.rated
    assert match.time_per_move == 3 * DAY
    assert [s.user_id for s in match.seats.order_by("index")] == [alice.pk, None, None]
    (row,) = Notification.objects.filter(kind="quick_match", user=alice)
    assert row.about["event"] == "bots" and row.about["hours"] == 6
    assert services.match_waiting(now=later)["with_bots"] == 0


def test_a_request_for_any_game_plays_bots_at_a_game_that_seats_it(ask, alice):
    ask(alice, "", (5, 6), bots_after=12)
    later = timezone.now() + timedelta(hours=13)
    assert services.match_waiting(now=later)["with_bots"] == 1
    match = Match.objects.get()
    assert match.n_seats == 5 and match.seats.filter(is_bot=True).count() == 4


def test_bots_after_hours_not_on_the_list_are_refused(ask, alice):
    with pytest.raises(ServiceError, match="from the list"):
        ask(alice, bots_after=5)
    assert not Request.objects.exists()


# -- Withdrawing ------------------------------------------------------------------------


def test_a_player_withdraws_their_request_and_it_is_not_seated(ask, alice, bob):
    mine = ask(alice)
    ask(bob)
    services.withdraw(alice, mine.pk)
    assert services.match_waiting()["tables"] == 0
    with pytest.raises(Conflict, match="withdrawn already"):
        services.withdraw(alice, mine.pk)


def test_nobody_withdraws_another_players_request(ask, alice, bob):
    theirs = ask(bob)
    for pk in (theirs.pk, 10**6, 2**70, 0):
        with pytest.raises(NotFound):
            services.withdraw(alice, pk)
    assert _waiting() == 1


def test_withdrawing_while_a_table_forms(ask, alice, bob):
    """Planned, then withdrawn before its transaction: the table is skipped and
    the other request waits. Seated first: the withdrawal is refused."""
    mine = ask(alice)
    ask(bob)
    (table,) = services.plan()
    services.withdraw(alice, mine.pk)
    assert services.seat(table) is False
    assert not Match.objects.exists()
    assert list(
        Request.objects.filter(status="waiting").values_list("user__username", flat=True)
    ) == ["bob"]

    again = ask(alice)
    (table,) = services.plan()
    assert services.seat(table) is True
    with pytest.raises(Conflict, match="Too late to withdraw"):
        services.withdraw(alice, again.pk)


# -- The news ---------------------------------------------------------------------------


def test_each_player_is_told_once_in_their_language_with_a_link_to_the_match(ask, alice, bob):
    alice.profile.language = "cs"
    alice.profile.save()
    ask(alice)
    ask(bob)
    services.match_waiting()
    match = Match.objects.get()
    rows = Notification.objects.filter(kind="quick_match").order_by("user__username")
    assert [(r.user.username, r.about["others"]) for r in rows] == [
        ("alice", ["bob"]),
        ("bob", ["alice"]),
    ]
    mail.outbox.clear()
    assert delivery.deliver(rows[0].pk) == "sent"
    (message,) = mail.outbox
    assert "Nogi" in message.subject and "Rychlá hra" in message.subject
    assert f"/m/{match.pk}/" in message.body
