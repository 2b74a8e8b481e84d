"""Tournaments through the services: creating and entering, the clock's
start and rounds, results and standings, withdrawals and faults."""

from __future__ import annotations

import random
from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone

from core.errors import Conflict, ServiceError
from games.models import Match, MatchStatus, ModerationAction, Notification, Seat, SeatStatus
from games.moderation import actions as moderation
from tests.conftest import each_seat_moves
from tests.tournaments.conftest import (
    entered,
    finish,
    new_tournament,
    play_round,
    running_matches,
    start_now,
)
from tournaments import services
from tournaments.models import Entrant, EntrantStatus, Placement, Round, Tournament
from tournaments.standings import points_for_ranks


def _met_pairs(tournament) -> list[frozenset]:
    tables: dict = {}
    for round_id, table, entrant, bye in Placement.objects.filter(
        round__tournament=tournament
    ).values_list("round_id", "table", "entrant_id", "is_bye"):
        if not bye:
            tables.setdefault((round_id, table), []).append(entrant)
    return [frozenset(pair) for seated in tables.values() for pair in combinations(seated, 2)]


def _points(tournament) -> dict[int, float]:
    totals: dict[int, float] = {}
    for entrant, points in Placement.objects.filter(round__tournament=tournament).values_list(
        "entrant_id", "points"
    ):
        totals[entrant] = totals.get(entrant, 0) + (points or 0)
    return totals


def test_round_robin_of_five_everyone_meets_everyone_once(people):
    rng = random.Random(5)
    tournament = entered(new_tournament(people[0], format="round_robin"), people[1:5])
    assert start_now(tournament) == "started"
    tournament.refresh_from_db()
    assert tournament.rounds == 5  # five players: five rounds, one bye each
    outcomes = [play_round(tournament, rng, draws=True) for _ in range(5)]
    assert outcomes == ["next round"] * 4 + ["finished"]
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    pairs = _met_pairs(tournament)
    assert len(pairs) == len(set(pairs)) == 10  # C(5, 2), none twice
    byes = Placement.objects.filter(round__tournament=tournament, is_bye=True)
    assert sorted(byes.values_list("entrant_id", flat=True)) == sorted(
        tournament.entrants.values_list("pk", flat=True)
    )
    # Each round's two matches were all started together, by the clock.
    assert (
        Match.objects.filter(tournament_placements__round__tournament=tournament).distinct().count()
        == 10
    )
    # 10 matches give 10 points; 5 byes give 5.
    assert sum(_points(tournament).values()) == pytest.approx(15)


def test_swiss_of_nine_pairs_by_score_without_repeats_and_rotates_the_bye(people):
    rng = random.Random(9)
    tournament = entered(new_tournament(people[0], rounds=4), people[1:9])
    start_now(tournament)
    for _ in range(3):
        assert play_round(tournament, rng) == "next round"
    assert play_round(tournament, rng) == "finished"
    pairs = _met_pairs(tournament)
    assert len(pairs) == len(set(pairs)) == 16
    byes = list(
        Placement.objects.filter(round__tournament=tournament, is_bye=True).values_list(
            "entrant_id", flat=True
        )
    )
    assert len(byes) == 4 and len(set(byes)) == 4  # one bye a round, never twice
    assert all(
        p == 1.0 for p in Placement.objects.filter(is_bye=True).values_list("points", flat=True)
    )
    totals = _points(tournament)
    assert sum(totals.values()) == pytest.approx(4 * 4 + 4)


def test_swiss_for_four_player_tables(people):
    rng = random.Random(4)
    tournament = entered(
        new_tournament(people[0], rounds=2, table_size=4, game_key="nogi"), people[1:10]
    )
    start_now(tournament)
    sizes = sorted(m.n_seats for m in running_matches(tournament))
    assert sizes == [3, 3, 4]  # ten players: tables of 4, 3 and 3
    assert play_round(tournament, rng) == "next round"
    assert play_round(tournament, rng) == "finished"
    # A table of n shares n(n-1)/2 points: 6 + 3 + 3 a round.
    assert sum(_points(tournament).values()) == pytest.approx(24)


def test_too_few_entrants_cancel_the_tournament_and_everyone_is_told(people):
    tournament = entered(new_tournament(people[0], min_entrants=4), people[1:3])
    assert start_now(tournament) == "cancelled"
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and not Round.objects.exists()
    told = Notification.objects.filter(kind="tournament", about__event="cancelled")
    assert sorted(told.values_list("user__username", flat=True)) == ["u00", "u01", "u02"]


def test_the_start_waits_for_its_time_and_is_done_once(people):
    tournament = entered(new_tournament(people[0]), people[1:4])
    assert services.start(tournament.pk, now=timezone.now()) == "not yet"
    assert start_now(tournament) == "started"
    assert start_now(tournament) == "not open"
    assert services.advance(tournament.pk) == "waiting"
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert len(running_matches(tournament)) == 2
    assert Notification.objects.filter(kind="tournament", about__event="started").count() == 4
    # Round 1 is told by the start's news, not apart.
    assert Notification.objects.filter(kind="tournament", about__event="round").count() == 0


def test_the_sweep_starts_due_tournaments_and_advances_finished_rounds(people):
    tournament = entered(
        new_tournament(people[0], starts_at=timezone.now() - timedelta(minutes=1)), people[1:4]
    )
    assert services.sweep()["started"] == 1
    for match in running_matches(tournament):
        finish(match, [1, 2])
    assert services.sweep()["advanced"] == 1
    tournament.refresh_from_db()
    assert tournament.current_round == 2


def test_a_match_end_hands_the_tournament_to_a_task(
    people, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app

    # Put back what the suite runs with (eager, in the test settings): later
    # tests that count delivered emails rely on it.
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        tournament = entered(new_tournament(people[0]), people[1:4])
        start_now(tournament)
        first, second = running_matches(tournament)
        with django_capture_on_commit_callbacks(execute=True):
            finish(first, [1, 2])
        assert Tournament.objects.get(pk=tournament.pk).current_round == 1
        with django_capture_on_commit_callbacks(execute=True):
            finish(second, [2, 1])
        assert Tournament.objects.get(pk=tournament.pk).current_round == 2
    finally:
        app.conf.task_always_eager = eager


def test_withdrawing_mid_round_forfeits_the_match_and_later_rounds(people):
    rng = random.Random(1)
    tournament = entered(new_tournament(people[0]), people[1:4])
    start_now(tournament)
    leaver = people[2]
    match = next(m for m in running_matches(tournament) if m.seats.filter(user=leaver).exists())
    services.withdraw(user=leaver, tournament=tournament)
    match.refresh_from_db()
    # Resigned before each seat moved: aborted and unrated, but the leaver's
    # forfeit in the tournament.
    leaver_seat = Seat.objects.get(match=match, user=leaver).index
    assert match.status == MatchStatus.ABORTED and match.ended_early_by == leaver_seat
    assert play_round(tournament, rng) == "next round"
    forfeit = Placement.objects.get(match=match, entrant__user=leaver)
    assert (forfeit.points, forfeit.rank, forfeit.aborted) == (0.0, 2, False)
    entry = Entrant.objects.get(tournament=tournament, user=leaver)
    assert entry.status == EntrantStatus.WITHDRAWN
    assert not Placement.objects.filter(entrant=entry, round__number=2).exists()
    # Three left: one plays a bye.
    assert Placement.objects.filter(round__number=2, is_bye=True).count() == 1
    with pytest.raises(Conflict):
        services.withdraw(user=leaver, tournament=tournament)


def test_a_match_aborted_by_a_moderator_scores_nothing_and_the_round_goes_on(people, moderator):
    rng = random.Random(2)
    tournament = entered(new_tournament(people[0]), people[1:4])
    start_now(tournament)
    aborted, other = running_matches(tournament)
    moderation.abort_match(moderator, aborted, "the players agreed on a draw by mail")
    finish(other, [1, 2])
    assert services.advance(tournament.pk) == "next round"
    rows = Placement.objects.filter(match=aborted)
    assert all(p.aborted and p.points == 0 for p in rows)
    # The aborted pair counts as met: they are not paired again next round.
    pair = set(rows.values_list("entrant_id", flat=True))
    assert pair not in [set(p) for p in _met_pairs(tournament)[2:]]
    assert play_round(tournament, rng) == "next round"


def test_a_deactivated_player_loses_the_match_in_play_and_is_not_paired_again(people, moderator):
    tournament = entered(new_tournament(people[0], timeout_policy="loss"), people[1:4])
    start_now(tournament)
    gone = people[3]
    match = next(m for m in running_matches(tournament) if m.seats.filter(user=gone).exists())
    each_seat_moves(match)  # else the match is aborted, the same forfeit
    moderation.deactivate_user(moderator, gone, "spam accounts in chat")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    for other in running_matches(tournament):
        finish(other, [1, 2])
    assert services.advance(tournament.pk) == "next round"
    entry = Entrant.objects.get(user=gone)
    assert entry.status == EntrantStatus.WITHDRAWN
    assert not Placement.objects.filter(entrant=entry, round__number=2).exists()


def test_a_moderator_cancels_removes_and_decides(people, moderator):
    tournament = entered(new_tournament(people[0]), people[1:6])
    start_now(tournament)
    first = running_matches(tournament)[0]
    services.decide_match(moderator, first, [2, 1], "the players agreed the result by mail")
    assert services.advance(tournament.pk) == "waiting"  # the other matches still play
    assert Placement.objects.get(match=first, seat=1).points == 1.0
    assert Placement.objects.get(match=first, seat=0).points == 0.0
    victim = Entrant.objects.filter(tournament=tournament).last()
    services.remove_entrant(moderator, victim, "abusive chat messages to opponents")
    victim.refresh_from_db()
    assert victim.status == EntrantStatus.REMOVED
    services.cancel(moderator, tournament, "the server is moving this week")
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert services.advance(tournament.pk) == "not running"
    kinds = set(ModerationAction.objects.values_list("kind", flat=True))
    assert {"adjudicate", "remove_entrant", "cancel_tournament"} <= kinds
    with pytest.raises(Conflict):
        services.cancel(moderator, tournament, "cancel it once more")


def test_a_player_without_the_permission_cannot_moderate(people):
    tournament = new_tournament(people[0])
    with pytest.raises(ServiceError):
        services.cancel(people[1], tournament, "I want it cancelled now")


def test_bad_creations_are_refused(people):
    with pytest.raises(ServiceError):
        new_tournament(people[0], game_key="chess")
    with pytest.raises(ServiceError):
        new_tournament(people[0], rounds=0)
    with pytest.raises(ServiceError):
        new_tournament(people[0], min_entrants=8, max_entrants=4)
    with pytest.raises(ServiceError):
        new_tournament(people[0], starts_at=timezone.now() - timedelta(days=1))
    with pytest.raises(ServiceError):
        new_tournament(people[0], name="   ")
    assert not Tournament.objects.exists()


def test_a_player_runs_and_enters_a_bounded_number(people, settings):
    settings.SMOKI = {**settings.SMOKI, "TOURNAMENTS_RUNNING_MAX": 2, "TOURNAMENTS_ENTERED_MAX": 3}
    new_tournament(people[0])
    new_tournament(people[0])
    with pytest.raises(Conflict):
        new_tournament(people[0])
    others = [new_tournament(people[i]) for i in (1, 2, 3)]
    services.join(user=people[0], tournament=others[0])
    with pytest.raises(Conflict):
        services.join(user=people[0], tournament=others[1])


def test_join_and_leave_before_the_start_only(people):
    tournament = new_tournament(people[0], max_entrants=2)
    services.join(user=people[1], tournament=tournament)
    with pytest.raises(Conflict):
        services.join(user=people[1], tournament=tournament)
    with pytest.raises(Conflict):
        services.join(user=people[2], tournament=tournament)  # full
    services.leave(user=people[1], tournament=tournament)
    with pytest.raises(Conflict):
        services.leave(user=people[1], tournament=tournament)
    services.join(user=people[2], tournament=tournament)
    start_now(tournament)
    with pytest.raises(Conflict):
        services.leave(user=people[2], tournament=tournament)
    with pytest.raises(Conflict):
        services.join(user=people[3], tournament=tournament)


def test_a_deleted_entrant_before_the_start_simply_goes(people):
    tournament = entered(new_tournament(people[0]), people[1:4])
    people[3].delete()
    assert start_now(tournament) == "started"
    assert not Entrant.objects.filter(user_id=people[3].pk).exists()
    assert Placement.objects.filter(round__tournament=tournament).count() == 3


def test_the_tournament_table_is_a_normal_match(people):
    tournament = entered(new_tournament(people[0], rated=False), people[1:2])
    start_now(tournament)
    (match,) = running_matches(tournament)
    assert match.status == MatchStatus.ACTIVE and not match.rated
    seats = list(Seat.objects.filter(match=match))
    assert {s.user_id for s in seats} == {people[0].pk, people[1].pk}
    assert all(s.status == SeatStatus.PLAYING for s in seats)


def _bots_play_the_round(tournament) -> list[Match]:
    """Every match of the current round played to its end by random bots
    through ``games.play.services.play_bot_turns``."""
    from games.play import services as game_services

    matches = running_matches(tournament)
    Seat.objects.filter(match__in=matches).update(is_bot=True, bot_level="random")
    for match in matches:
        for _turns in range(50):
            if not Match.objects.filter(pk=match.pk, status=MatchStatus.ACTIVE).exists():
                break
            game_services.play_bot_turns(match.pk, 200)
    assert not Match.objects.filter(
        pk__in=[m.pk for m in matches], status=MatchStatus.ACTIVE
    ).exists()
    return matches


def test_a_swiss_of_nine_played_out_by_bots(people):
    """Every match of every round played to its end by random bots through
    ``games.play.services.play_bot_turns`` (the test game Hatchlings, short)."""
    tournament = entered(
        new_tournament(people[0], rounds=3, game_key="hatchlings", rated=False), people[1:9]
    )
    start_now(tournament)
    for _ in range(3):
        assert len(_bots_play_the_round(tournament)) == 4
        outcome = services.advance(tournament.pk)
    assert outcome == "finished"
    assert len(_met_pairs(tournament)) == len(set(_met_pairs(tournament))) == 12
    rows = services.standings(
        [(e.pk, e.rating) for e in tournament.entrants.all()], services.results_of(tournament)
    )
    assert sum(r.points for r in rows) == pytest.approx(12 + 3)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_the_tasks_run_the_services_and_the_beat_runs_the_sweep(people, settings):
    from tournaments import tasks

    assert any(
        entry["task"] == "tournaments.tasks.sweep_tournaments"
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    )
    tournament = entered(
        new_tournament(people[0], starts_at=timezone.now() - timedelta(minutes=1)), people[1:2]
    )
    assert tasks.sweep_tournaments.apply().get() == {"started": 1, "advanced": 0, "failed": 0}
    (match,) = running_matches(tournament)
    finish(match, [1, 1])
    assert tasks.advance_tournament.apply(args=[tournament.pk]).get() == "next round"
    assert tasks.advance_tournament.apply(args=[tournament.pk]).get() == "waiting"
    assert set(Placement.objects.filter(match=match).values_list("points", flat=True)) == {
        0.5
    }  # a draw: half a point each


def test_a_round_robin_of_five_played_out_by_bots(people):
    """Five entrants, five rounds of two matches and a bye, every match
    played to its end by random bots (Hatchlings): everyone meets everyone
    once, the points are the bots' real results, and the end is announced."""
    tournament = entered(
        new_tournament(people[0], format="round_robin", game_key="hatchlings", rated=False),
        people[1:5],
    )
    start_now(tournament)
    outcomes = []
    finished = Notification.objects.filter(kind="tournament", about__event="finished")
    for _ in range(5):
        assert not finished.exists()  # told only at the end
        assert len(_bots_play_the_round(tournament)) == 2
        outcomes.append(services.advance(tournament.pk))
    assert outcomes == ["next round"] * 4 + ["finished"]
    pairs = _met_pairs(tournament)
    assert len(pairs) == len(set(pairs)) == 10
    # Each match's placements carry the points of its seats' final ranks.
    for placement in Placement.objects.filter(round__tournament=tournament, is_bye=False):
        ranks = list(placement.match.seats.order_by("index").values_list("rank", flat=True))
        assert placement.rank == ranks[placement.seat]
        assert placement.points == points_for_ranks(ranks)[placement.seat]
    assert sum(_points(tournament).values()) == pytest.approx(10 + 5)
    assert sorted(finished.values_list("user__username", flat=True)) == [
        f"u{i:02d}" for i in range(5)
    ]


def test_an_unknown_takeover_bot_is_refused_by_the_service(people):
    with pytest.raises(ServiceError, match="Unknown bot level"):
        new_tournament(people[0], takeover_level="grandmaster")
    assert not Tournament.objects.exists()


def test_a_tournament_that_forbids_vacation_gives_its_matches_its_clock_rules(people):
    tournament = entered(
        new_tournament(people[0], vacation_allowed=False, weekend_pause=True), people[1:2]
    )
    start_now(tournament)
    (match,) = running_matches(tournament)
    assert not match.vacation_allowed and match.weekend_pause
