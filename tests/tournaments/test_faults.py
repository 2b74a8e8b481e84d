"""Faults that must not stop a tournament: a step that fails in the sweep,
table sizes the game cannot seat (Drakon's team play takes 4 or 6), and the
documented outcomes of departures, deleted accounts and timeouts."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

import pytest
from django.db.models import ProtectedError
from django.utils import timezone

from core.errors import ServiceError
from games.lobby import services as lobby
from games.models import MatchStatus, Notification
from tests.conftest import each_seat_moves
from tests.tournaments.conftest import (
    entered,
    finish,
    new_tournament,
    play_round,
    running_matches,
    start_now,
)
from tournaments import pairing, services
from tournaments.models import Entrant, EntrantStatus, Placement, Round, Tournament

TEAM = {"team_play": True}


def _due(creator, others, **kw) -> Tournament:
    return entered(
        new_tournament(creator, starts_at=timezone.now() - timedelta(minutes=1), **kw), others
    )


# -- The sweep isolates each tournament ------------------------------------------


def test_a_tournament_whose_start_fails_does_not_stop_the_others(people, monkeypatch, caplog):
    broken = _due(people[0], people[1:4], game_key="hatchlings", rated=False)
    Tournament.objects.filter(pk=broken.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    sound = _due(people[4], people[5:8])
    real = lobby.start_table

    def start_table(*, users, game_key, **create):
        if game_key == "hatchlings":
            raise ServiceError("this table cannot be dealt")
        return real(users=users, game_key=game_key, **create)

    monkeypatch.setattr(lobby, "start_table", start_table)
    assert services.due_to_start()[0] == broken.pk  # the broken one comes first
    with caplog.at_level(logging.ERROR, logger="tournaments.services"):
        assert services.sweep() == {"started": 1, "advanced": 0, "failed": 1}
    assert f"Tournament {broken.pk}: start failed" in caplog.text
    sound.refresh_from_db()
    broken.refresh_from_db()
    assert sound.status == "running" and len(running_matches(sound)) == 2
    # The failed start left nothing behind: still open, no round, nobody told.
    assert broken.status == "open" and not Round.objects.filter(tournament=broken).exists()
    assert not Notification.objects.filter(about__tournament=broken.pk).exists()
    # Once the fault is gone the next sweep starts it.
    monkeypatch.setattr(lobby, "start_table", real)
    assert services.sweep()["started"] == 1
    broken.refresh_from_db()
    assert broken.status == "running"


def test_a_tournament_whose_next_round_fails_does_not_stop_the_others(people, monkeypatch):
    first = _due(people[0], people[1:2])
    second = _due(people[2], people[3:4])
    services.sweep()
    for tournament in (first, second):
        for match in running_matches(tournament):
            finish(match, [1, 2])
    real = services._create_round

    def create_round(tournament, number):
        if tournament.pk == first.pk:
            raise ServiceError("no tables today")
        return real(tournament, number)

    monkeypatch.setattr(services, "_create_round", create_round)
    assert services.sweep() == {"started": 0, "advanced": 1, "failed": 1}
    assert Tournament.objects.get(pk=second.pk).current_round == 2
    assert Tournament.objects.get(pk=first.pk).current_round == 1
    # Its results were rolled back with the failed step, and are taken again.
    assert not Placement.objects.filter(round__tournament=first, points__isnull=False).exists()


# -- Tables the game can seat ----------------------------------------------------


def test_team_play_tables_are_only_of_four_or_six():
    assert pairing.table_sizes(9, 6, 2, [4, 6]) == ([4, 4], 1)
    assert pairing.table_sizes(11, 6, 2, [4, 6]) == ([6, 4], 1)
    assert pairing.table_sizes(7, 6, 2, [4, 6]) == ([6], 1)
    assert pairing.table_sizes(7, 4, 4, [4]) == ([4], 3)
    assert pairing.table_sizes(3, 6, 4, [4, 6]) == ([], 3)
    # Without a restriction, as even as possible (9 -> 5 and 4).
    assert pairing.table_sizes(9, 6, 2) == ([5, 4], 0)


def test_the_seat_counts_follow_the_games_setup_rules():
    from games.engine import registry

    drakon = registry.get("drakon")
    assert services.seat_counts(drakon, 6, TEAM) == [4, 6]
    assert services.seat_counts(drakon, 4, TEAM) == [4]
    assert services.seat_counts(drakon, 6, {}) == [2, 3, 4, 5, 6]
    assert services.seat_counts(registry.get("nogi"), 2, {}) == [2]


def test_a_team_play_tournament_needs_a_table_of_entrants(people):
    with pytest.raises(ServiceError):
        new_tournament(people[0], game_key="drakon", table_size=6, options=TEAM, min_entrants=3)
    with pytest.raises(ServiceError):  # team play cannot seat five
        new_tournament(people[0], game_key="drakon", table_size=5, options=TEAM)
    assert not Tournament.objects.exists()


def test_a_team_play_swiss_with_an_awkward_number_of_entrants(people):
    """Nine entrants at tables of up to 6 would be 5 and 4: team play seats
    4 and 4, and one has a bye. A withdrawal then leaves 8, and the next
    round seats 4 and 4 again; after a second, 7: one table of 6."""
    tournament = _due(
        people[0], people[1:9], game_key="drakon", table_size=6, options=TEAM, min_entrants=4
    )
    assert services.sweep() == {"started": 1, "advanced": 0, "failed": 0}
    assert sorted(m.n_seats for m in running_matches(tournament)) == [4, 4]
    assert Placement.objects.filter(round__tournament=tournament, is_bye=True).count() == 1
    assert all(m.options["team_play"] for m in running_matches(tournament))
    rng = random.Random(6)
    services.withdraw(user=people[8], tournament=tournament)
    assert play_round(tournament, rng) == "next round"
    assert sorted(m.n_seats for m in running_matches(tournament)) == [4, 4]
    services.withdraw(user=people[7], tournament=tournament)
    assert play_round(tournament, rng) == "next round"
    assert [m.n_seats for m in running_matches(tournament)] == [6]
    byes = Placement.objects.filter(round__tournament=tournament, round__number=3, is_bye=True)
    assert byes.count() == 1
    assert play_round(tournament, rng) == "finished"


def test_a_team_play_round_robin_after_a_withdrawal_gives_the_short_table_byes(people):
    """Eight entrants at tables of 4: a withdrawal leaves a later table of
    three, which team play cannot seat; its three have a bye (a win by
    forfeit) and the other tables play."""
    tournament = _due(
        people[0],
        people[1:8],
        format="round_robin",
        game_key="drakon",
        table_size=4,
        options=TEAM,
        min_entrants=4,
    )
    services.sweep()
    tournament.refresh_from_db()
    assert all(len(t) == 4 for tables in tournament.schedule for t in tables)
    services.withdraw(user=people[7], tournament=tournament)
    gone = Entrant.objects.get(tournament=tournament, user=people[7])
    assert gone.status == EntrantStatus.WITHDRAWN
    assert play_round(tournament, random.Random(3)) == "next round"
    matches = running_matches(tournament)
    assert [m.n_seats for m in matches] == [4]
    assert Placement.objects.filter(round__number=2, is_bye=True).count() == 3
    assert not Placement.objects.filter(entrant=gone, round__number=2).exists()
    byes = Placement.objects.filter(round__number=2, is_bye=True)
    assert set(byes.values_list("points", flat=True)) == {3.0}  # a first place at a table of 4


# -- Departures, deleted accounts and the clock ----------------------------------


def _standings(tournament) -> list:
    return services.standings(
        [(e.pk, e.rating) for e in tournament.entrants.order_by("joined_at")],
        services.results_of(tournament),
    )


def _bye_user(tournament, number: int):
    return Placement.objects.get(
        round__tournament=tournament, round__number=number, is_bye=True
    ).entrant.user


def test_an_account_deleted_after_the_start_before_its_first_match(people):
    """Five entrants: round 1 has a bye. Its holder's account is deleted
    mid-round: the entry and the bye go with it, the round ends, and round 2
    pairs the other four. An account with a match played cannot go."""
    tournament = entered(new_tournament(people[0], rounds=2), people[1:5])
    start_now(tournament)
    gone = _bye_user(tournament, 1)
    gone_id = gone.pk
    gone.delete()
    assert not Entrant.objects.filter(user_id=gone_id).exists()
    assert not Placement.objects.filter(round__tournament=tournament, is_bye=True).exists()
    for match in running_matches(tournament):
        finish(match, [1, 2])
    assert services.advance(tournament.pk) == "next round"
    assert len(running_matches(tournament)) == 2
    assert not Placement.objects.filter(round__number=2, is_bye=True).exists()
    rows = _standings(tournament)
    assert len(rows) == 4 and sum(r.points for r in rows) == pytest.approx(2)
    played = running_matches(tournament)[0].seats.first().user
    with pytest.raises(ProtectedError):
        played.delete()


def test_the_creators_account_deleted_before_the_start(people):
    """The creator is an entrant like the others: their account may go
    before their first match, and the tournament goes on without them."""
    tournament = entered(new_tournament(people[0]), people[1:4])
    people[0].delete()
    tournament.refresh_from_db()
    assert tournament.created_by is None
    assert tournament.entrants.count() == 3
    assert start_now(tournament) == "started"
    assert Placement.objects.filter(round__tournament=tournament, is_bye=True).count() == 1
    assert len(running_matches(tournament)) == 1


def test_everyone_but_one_withdraws(people):
    """Six entrants; five withdraw during round 1 (each match in play is
    resigned). When the round ends the tournament finishes, although two of
    its three rounds were never played."""
    tournament = entered(new_tournament(people[0], rounds=3), people[1:6])
    start_now(tournament)
    (stayer_match, *_others) = running_matches(tournament)
    stayer = stayer_match.seats.get(index=0).user
    for user in people[:6]:
        if user != stayer:
            services.withdraw(user=user, tournament=tournament)
    assert running_matches(tournament) == []
    assert services.advance(tournament.pk) == "finished"
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.current_round == 1
    (left,) = tournament.entrants.filter(status=EntrantStatus.ACTIVE)
    assert left.user == stayer
    assert {r.entrant: r.points for r in _standings(tournament)}[left.pk] == 1.0
    assert tournament.entrants.filter(status=EntrantStatus.WITHDRAWN).count() == 5
    assert Notification.objects.filter(
        user=stayer, kind="tournament", about__event="finished"
    ).exists()


def test_a_round_robin_withdrawal_mid_round_gives_later_opponents_a_bye(people):
    """Four entrants, three rounds. One withdraws in round 1: that match is
    lost at once (the opponent wins it); in rounds 2 and 3 each scheduled
    opponent has a bye, a win by forfeit, and nobody else is affected."""
    tournament = entered(new_tournament(people[0], format="round_robin"), people[1:4])
    start_now(tournament)
    tournament.refresh_from_db()
    leaver = people[3]
    entry = Entrant.objects.get(tournament=tournament, user=leaver)
    scheduled = [
        next(e for table in tables if entry.pk in table for e in table if e != entry.pk)
        for tables in tournament.schedule
    ]
    first = next(m for m in running_matches(tournament) if m.seats.filter(user=leaver).exists())
    services.withdraw(user=leaver, tournament=tournament)
    first.refresh_from_db()
    # Resigned before each seat moved: aborted and unrated, scored as a forfeit.
    assert first.status == MatchStatus.ABORTED and first.ended_early_by is not None
    rng = random.Random(4)
    assert play_round(tournament, rng) == "next round"
    won = Placement.objects.get(match=first, entrant_id=scheduled[0])
    assert won.points == 1.0
    for number, opponent in enumerate(scheduled[1:], start=2):
        bye = Placement.objects.get(round__tournament=tournament, round__number=number, is_bye=True)
        assert bye.entrant_id == opponent and bye.points == 1.0
        assert len(running_matches(tournament)) == 1  # the other two still play
        assert play_round(tournament, rng) == ("next round" if number < 3 else "finished")
    assert not Placement.objects.filter(entrant=entry, round__number__gt=1).exists()


def test_a_timeout_in_a_tournament_match_counts_as_the_match_rules_say(people):
    """Loss on time, by the clock's own sweep: the seat to move runs out of
    time, the match ends, and the tournament scores it as that seat's loss
    (0 points, the other 1) in the standings."""
    from games.engine import registry
    from games.play import timeouts

    tournament = entered(new_tournament(people[0], timeout_policy="loss"), people[1:2])
    start_now(tournament)
    (match,) = running_matches(tournament)
    match = each_seat_moves(match)  # else the match is aborted (a forfeit all the same)
    (to_move,) = match.seats_to_move(registry.get(match.game_key))
    late = match.seats.get(index=to_move).user
    assert timeouts.wake_match(match.pk, now=match.deadline + timedelta(seconds=1)) == "timed out"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.seats.get(user=late).rank == 2
    assert services.advance(tournament.pk) == "next round"
    points = dict(Placement.objects.filter(match=match).values_list("entrant__user_id", "points"))
    assert points == {late.pk: 0.0, next(u for u in points if u != late.pk): 1.0}
    rows = _standings(tournament)
    assert rows[-1].entrant == Entrant.objects.get(tournament=tournament, user=late).pk
