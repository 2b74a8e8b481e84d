"""Seasons through the services: sign-up opened by the calendar, the
start's divisions, promotion and relegation, and a season's faults."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accounts.models import Block
from core.errors import Conflict
from seasons import services
from seasons.models import Division, Movement, Season, SeasonEntry, SeasonStatus
from tests.seasons.conftest import SIGNUP_TIME, START_TIME, begin, later, play_out, signed_up
from tournaments.models import EntrantStatus, Format, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def test_sign_up_opens_three_weeks_before_the_quarter(settings):
    settings.SMOKI = {**settings.SMOKI, "SEASON_GAMES": ["nogi", "drako"]}
    assert services.open_signups(datetime(2026, 12, 9, tzinfo=UTC)) == 0  # 23 days before
    assert services.open_signups(datetime(2026, 12, 11, tzinfo=UTC)) == 2
    assert services.open_signups(datetime(2026, 12, 12, tzinfo=UTC)) == 0  # made once
    season = Season.objects.get(game_key="drako")
    assert (season.year, season.quarter) == (2027, 1)
    assert season.starts_at == datetime(2027, 1, 1, tzinfo=UTC)
    assert season.signup_opens_at == datetime(2026, 12, 11, tzinfo=UTC)


def test_every_two_player_game_has_a_season_by_default(settings):
    settings.SMOKI = {**settings.SMOKI, "SEASON_GAMES": []}
    assert "nogi" in services.season_games() and "drako" in services.season_games()


def test_sign_up_and_leave_before_the_start(season, alice):
    services.sign_up(user=alice, season=season, now=SIGNUP_TIME)
    with pytest.raises(Conflict):
        services.sign_up(user=alice, season=season, now=SIGNUP_TIME)
    services.leave(user=alice, season=season)
    assert not season.entries.exists()
    with pytest.raises(Conflict):
        services.leave(user=alice, season=season)


def test_sign_up_is_refused_once_the_season_started(season, many):
    signed_up(season, many[:4])
    with pytest.raises(Conflict):
        services.sign_up(user=many[5], season=season, now=START_TIME)
    assert begin(season) == "started"
    with pytest.raises(Conflict):
        services.leave(user=many[0], season=season)
    assert season.entries.count() == 4


def test_a_season_does_not_start_before_its_time(season, many):
    signed_up(season, many[:4])
    assert services.start(season.pk, now=SIGNUP_TIME) == "not yet"
    assert services.sweep(SIGNUP_TIME)["started"] == 0


def test_the_start_makes_divisions_of_about_eight_by_rating(season, many):
    from players.models import Rating, display_of

    for i, user in enumerate(many):
        Rating.objects.create(
            user=user, game_key="nogi", mu=20 + i, sigma=2, display=display_of(20 + i, 2)
        )
    signed_up(season, many)
    result = services.sweep(START_TIME)  # the season; its divisions go to their tasks
    assert result["started"] == 1 and result["divisions"] == 0
    # Tasks lost: a later pass starts the divisions itself.
    result = services.sweep(START_TIME + services.START_GRACE)
    assert result["started"] == 0 and result["divisions"] == 3
    season.refresh_from_db()
    assert season.status == SeasonStatus.RUNNING
    divisions = list(season.divisions.select_related("tournament"))
    assert [d.tier for d in divisions] == [1, 2, 3]
    assert [d.tournament.entrants.count() for d in divisions] == [7, 7, 6]
    for division in divisions:
        tournament = division.tournament
        assert tournament.format == Format.ROUND_ROBIN
        assert tournament.status == TournamentStatus.RUNNING
        assert tournament.round_set.count() == 1
    # The strongest in tier 1, the weakest in tier 3.
    top = set(divisions[0].tournament.entrants.values_list("user__username", flat=True))
    assert top == {f"p{i:02d}" for i in range(13, 20)}
    bottom = set(divisions[2].tournament.entrants.values_list("user__username", flat=True))
    assert bottom == {f"p{i:02d}" for i in range(6)}
    assert SeasonEntry.objects.filter(season=season, division__isnull=True).count() == 0


def test_the_season_gives_its_clock_rules_to_its_divisions_matches(season, many):
    Season.objects.filter(pk=season.pk).update(vacation_allowed=False, weekend_pause=True)
    signed_up(season, many[:4])
    begin(season)
    tournament = Division.objects.get(season=season).tournament
    assert not tournament.vacation_allowed and tournament.weekend_pause
    match = tournament.round_set.get().placements.first().match
    assert not match.vacation_allowed and match.weekend_pause


def test_too_few_players_cancel_the_season(season, alice):
    signed_up(season, [alice])
    assert begin(season) == "cancelled"
    season.refresh_from_db()
    assert season.status == SeasonStatus.CANCELLED
    assert not Tournament.objects.exists()


def test_promotion_and_relegation_place_the_next_season(season, many, settings):
    signed_up(season, many[:16])
    begin(season)
    play_out(season)
    assert services.sweep(later(START_TIME, 60))["finished"] == 1
    season.refresh_from_db()
    assert season.status == SeasonStatus.FINISHED
    top, second = season.divisions.order_by("tier")
    ups = SeasonEntry.objects.filter(season=season, movement=Movement.UP)
    downs = SeasonEntry.objects.filter(season=season, movement=Movement.DOWN)
    assert {e.division_id for e in ups} == {second.pk}
    assert {e.division_id for e in downs} == {top.pk}
    assert sorted(e.final_place for e in ups) == [1, 2]
    assert sorted(e.final_place for e in downs) == [7, 8]
    # The next season: the promoted play in tier 1, the relegated in tier 2.
    services.open_signups(datetime(2027, 3, 20, tzinfo=UTC))
    following = Season.objects.get(year=2027, quarter=2)
    signed_up(following, many[:16])
    begin(following, datetime(2027, 4, 1, 0, 1, tzinfo=UTC))
    new_top = following.divisions.get(tier=1)
    tier_one = set(new_top.tournament.entrants.values_list("user_id", flat=True))
    assert {e.user_id for e in ups} <= tier_one
    assert not {e.user_id for e in downs} & tier_one


def test_newcomers_come_after_the_returning_players(season, many):
    signed_up(season, many[:8])
    begin(season)
    play_out(season)
    services.finish(season.pk)
    services.open_signups(datetime(2027, 3, 20, tzinfo=UTC))
    following = Season.objects.get(year=2027, quarter=2)
    signed_up(following, many[8:12] + many[:8])
    order = services.ordered_for_placement(following, list(following.entries.all()))
    assert len(order) == 12
    assert {e.user_id for e in order[:8]} == {u.pk for u in many[:8]}


def test_a_blocked_pair_is_put_in_different_divisions(season, many):
    signed_up(season, many[:16])
    # p00 and p01 would be in the same division (equal ratings: sign-up order).
    Block.objects.create(blocker=many[0], blocked=many[1])
    begin(season)
    first = SeasonEntry.objects.get(season=season, user=many[0]).division_id
    second = SeasonEntry.objects.get(season=season, user=many[1]).division_id
    assert first != second
    assert [d.tournament.entrants.count() for d in season.divisions.all()] == [8, 8]


def test_an_unavoidable_blocked_pair_plays_in_one_division(season, many):
    signed_up(season, many[:3])
    Block.objects.create(blocker=many[0], blocked=many[1])
    assert begin(season) == "started"
    assert season.divisions.count() == 1


def test_place_swaps_with_the_next_division_without_a_new_clash():
    class E:
        def __init__(self, uid):
            self.user_id = uid

    people = [E(i) for i in range(8)]
    divisions = services.place(people, 4, {frozenset((0, 1)), frozenset((1, 4))})
    by = {e.user_id: i for i, d in enumerate(divisions) for e in d}
    assert by[0] != by[1] and by[1] != by[4]
    assert [len(d) for d in divisions] == [4, 4]


def test_a_player_deleted_before_playing_leaves_the_season(season, many):
    signed_up(season, many[:5])
    many[4].delete()
    assert begin(season) == "started"
    assert season.entries.count() == 4


def test_a_player_deactivated_mid_season_is_withdrawn(season, many, client):
    from django.contrib.auth.models import Group
    from django.urls import reverse

    from games.moderation import actions

    signed_up(season, many[:4])
    begin(season)
    moderator = many[10]
    moderator.is_staff = True
    moderator.save(update_fields=["is_staff"])
    moderator.groups.add(Group.objects.get(name="moderator"))
    actions.deactivate_user(moderator, many[3], "cheating")
    play_out(season)
    tournament = Division.objects.get(season=season).tournament
    entrant = tournament.entrants.get(user=many[3])
    assert entrant.status == EntrantStatus.WITHDRAWN
    assert client.get(reverse("season_detail", args=[season.pk])).status_code == 200
    assert services.finish(season.pk) == "finished"


def test_a_block_mid_season_changes_nothing(season, many, client):
    from django.urls import reverse

    signed_up(season, many[:4])
    begin(season)
    Block.objects.create(blocker=many[0], blocked=many[1])
    play_out(season)
    tournament = Division.objects.get(season=season).tournament
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.entrants.filter(status=EntrantStatus.ACTIVE).count() == 4
    assert client.get(reverse("season_detail", args=[season.pk])).status_code == 200


def test_the_sweep_starts_a_season_once(season, many):
    signed_up(season, many[:4])
    assert services.sweep(START_TIME)["started"] == 1
    assert services.sweep(START_TIME)["started"] == 0
    assert Tournament.objects.count() == 1


def test_the_start_hands_each_division_to_a_task_of_its_own(season, many, monkeypatch):
    handed = []
    monkeypatch.setattr(
        services.outbox, "hand_over_after_commit", lambda name, *args: handed.append((name, args))
    )
    signed_up(season, many[:16])
    assert services.start(season.pk, now=START_TIME) == "started"
    ids = list(season.divisions.values_list("tournament_id", flat=True))
    assert handed == [(services.START_DIVISION_TASK, (pk,)) for pk in ids]
    assert Tournament.objects.filter(status=TournamentStatus.OPEN).count() == 2
    assert services.start_division(ids[0], START_TIME) == "started"
    assert services.start_division(ids[0], START_TIME) == "not open"  # once
    assert services.waiting_divisions(START_TIME) == []  # left to their tasks a while
    assert services.waiting_divisions(later(START_TIME, 1)) == ids[1:]


def test_the_tasks_run_the_services_and_the_beat_runs_the_sweep(season, many, settings):
    from seasons import tasks

    assert any(
        entry["task"] == "seasons.tasks.sweep_seasons"
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    )
    signed_up(season, many[:4])
    from django.utils import timezone

    Season.objects.filter(pk=season.pk).update(starts_at=timezone.now())
    outcome = tasks.sweep_seasons.apply().get()
    assert outcome["started"] == 1 and outcome["failed"] == 0
    tournament = Division.objects.get(season=season).tournament
    assert tasks.start_division.apply(args=[tournament.pk]).get() == "started"
    assert tasks.start_division.apply(args=[tournament.pk]).get() == "not open"  # done once


def test_a_player_deleted_mid_season_before_their_first_match(season, many, client):
    """In a division of three, round 1's bye has not played: their account
    can be deleted; the entries go with it, the division plays on (their
    scheduled opponents get a bye) and the season finishes."""
    from django.urls import reverse

    from tournaments.models import Placement

    signed_up(season, many[:3])
    begin(season)
    tournament = Division.objects.get(season=season).tournament
    bye = Placement.objects.get(round__tournament=tournament, is_bye=True).entrant.user
    bye.delete()
    assert not SeasonEntry.objects.filter(season=season, user_id=bye.pk).exists()
    assert client.get(reverse("season_detail", args=[season.pk])).status_code == 200
    play_out(season)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert services.finish(season.pk) == "finished"
    assert SeasonEntry.objects.filter(season=season).count() == 2
