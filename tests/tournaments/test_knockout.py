"""Knockout tournaments, starting when full, and the winner's trophy, through
the services and the pages."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, ServiceError
from tests.tournaments.conftest import (
    entered,
    finish,
    new_tournament,
    play_round,
    running_matches,
    start_now,
)
from tournaments import services
from tournaments.models import Entrant, Placement, Tournament
from tournaments.standings import ordered_standings


def _by_user(tournament) -> dict[str, Entrant]:
    return {e.user.username: e for e in tournament.entrants.select_related("user")}


def _rate(people, ratings) -> None:
    """Seeding ratings: people[i] gets ratings[i] (higher is a better seed)."""
    from players.models import Rating

    for user, display in zip(people, ratings, strict=False):
        Rating.objects.update_or_create(user=user, game_key="nogi", defaults={"display": display})


def test_a_knockout_of_six_seeds_by_rating_gives_the_top_seeds_byes_and_has_one_winner(people):
    _rate(people[:6], [1500, 1400, 1300, 1200, 1100, 1000])  # u00 is seed 1 ... u05 seed 6
    tournament = entered(new_tournament(people[0], format="knockout"), people[1:6])
    assert start_now(tournament) == "started"
    tournament.refresh_from_db()
    assert tournament.rounds == 3  # ceil(log2 6)
    entrant = _by_user(tournament)
    round_one = Placement.objects.filter(round__tournament=tournament, round__number=1)
    byes = {p.entrant.user.username for p in round_one.filter(is_bye=True)}
    assert byes == {"u00", "u01"}  # 8 slots, 6 entrants: seeds 1 and 2 sit out
    tables = sorted(
        sorted(p.entrant.user.username for p in round_one.filter(match=m))
        for m in {p.match for p in round_one.filter(is_bye=False)}
    )
    assert tables == [["u02", "u05"], ["u03", "u04"]]  # 3 v 6, 4 v 5

    # Round 1: the lower seeds win (upsets); round 2 then pairs 1 v the 4-5
    # winner and 2 v the 3-6 winner.
    for match in running_matches(tournament):
        first = match.seats.order_by("index").first().user.username
        finish(match, [2, 1] if first in ("u02", "u03") else [1, 2])
    assert services.advance(tournament.pk) == "next round"
    semis = {frozenset(s.user.username for s in m.seats.all()) for m in running_matches(tournament)}
    assert semis == {frozenset({"u00", "u04"}), frozenset({"u01", "u05"})}
    # Semi-finals: u04 and u01 win.
    for match in running_matches(tournament):
        names = [s.user.username for s in match.seats.order_by("index")]
        finish(match, [1, 2] if names[0] in ("u04", "u01") else [2, 1])
    assert services.advance(tournament.pk) == "next round"
    (final,) = running_matches(tournament)
    assert {s.user.username for s in final.seats.all()} == {"u01", "u04"}
    # A drawn final goes to the better seed: u01 (seed 2) over u04 (seed 5).
    finish(final, [1, 1])
    assert services.advance(tournament.pk) == "finished"
    tournament.refresh_from_db()
    places = {e.user.username: e.final_place for e in tournament.entrants.select_related("user")}
    assert places == {"u01": 1, "u04": 2, "u00": 3, "u05": 3, "u02": 5, "u03": 5}
    assert entrant["u01"].pk in services.final_table(tournament)["places"]
    assert services.final_table(tournament)["winners"] == [people[1].profile.name]


def test_a_knockout_needs_tables_of_two(people):
    with pytest.raises(ServiceError):
        new_tournament(people[0], format="knockout", table_size=3)
    assert not Tournament.objects.exists()


def test_a_knockout_withdrawal_gives_the_opponent_a_bye_next_round(people):
    rng = random.Random(3)
    tournament = entered(new_tournament(people[0], format="knockout"), people[1:8])
    start_now(tournament)
    assert play_round(tournament, rng) == "next round"
    # A winner of round 1 withdraws before the semi-final is played out.
    (match, *_rest) = running_matches(tournament)
    quitter = match.seats.order_by("index").first().user
    services.withdraw(user=quitter, tournament=tournament)
    match.refresh_from_db()
    assert match.is_over
    assert play_round(tournament, rng) == "next round"
    assert play_round(tournament, rng) == "finished"
    tournament.refresh_from_db()
    assert tournament.entrants.filter(final_place=1).count() == 1
    assert not tournament.entrants.filter(user=quitter, final_place=1).exists()


def test_the_bracket_names_its_last_rounds_and_the_banner_names_the_winner(client, people):
    rng = random.Random(1)
    tournament = entered(new_tournament(people[0], format="knockout"), people[1:4])
    start_now(tournament)
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert 'id="bracket"' in page and "Semi-finals" in page
    play_round(tournament, rng)
    play_round(tournament, rng)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    winner = tournament.entrants.get(final_place=1).user
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "Final" in page and 'id="winner-banner"' in page
    assert winner.profile.name in page.split('id="winner-banner"')[1].split("</section>")[0]


# -- Start when full ---------------------------------------------------------------


def test_start_when_full_starts_as_the_last_place_is_taken(people):
    tournament = new_tournament(
        people[0], start_when_full=True, starts_at=None, min_entrants=2, max_entrants=4
    )
    assert tournament.start_when_full
    assert tournament.starts_at > timezone.now() + timedelta(days=80)  # the deadline
    entered(tournament, people[1:3])
    tournament.refresh_from_db()
    assert tournament.status == "open"
    assert services.sweep()["started"] == 0  # not full, not due
    services.join(user=people[3], tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.current_round == 1
    assert len(running_matches(tournament)) == 2
    with pytest.raises(Conflict):
        services.join(user=people[4], tournament=tournament)


def test_a_start_when_full_tournament_can_still_be_cancelled_and_ends_at_its_deadline(
    people, moderator
):
    tournament = new_tournament(people[0], start_when_full=True, starts_at=None, max_entrants=8)
    services.cancel(moderator, tournament, "Spam name")
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    # Another never fills: at its deadline the sweep starts it with whoever came.
    other = entered(
        new_tournament(people[1], start_when_full=True, starts_at=None, max_entrants=8), people[2:4]
    )
    assert services.sweep()["started"] == 0
    assert services.sweep(now=other.starts_at + timedelta(seconds=1))["started"] == 1
    other.refresh_from_db()
    assert other.status == "running"


def test_the_sweep_starts_a_full_tournament_whose_join_did_not(people):
    tournament = new_tournament(people[0], start_when_full=True, starts_at=None, max_entrants=2)
    Entrant.objects.create(tournament=tournament, user=people[1])  # full, not started
    assert services.due_to_start() == [tournament.pk]
    assert services.sweep()["started"] == 1
    tournament.refresh_from_db()
    assert tournament.status == "running"


# -- Trophies ---------------------------------------------------------------------


def test_the_winners_player_page_shows_the_trophy_and_nobody_elses_does(client, people):
    rng = random.Random(7)
    tournament = entered(new_tournament(people[0], name="Dragon cup"), people[1:4])
    start_now(tournament)
    outcome = ""
    while outcome != "finished":
        outcome = play_round(tournament, rng)
    tournament.refresh_from_db()
    rows = ordered_standings(
        tournament,
        [(e.pk, e.rating) for e in tournament.entrants.all()],
        services.results_of(tournament),
    )
    winners = {r.entrant for r in rows if r.place == 1}
    assert set(tournament.entrants.filter(final_place=1).values_list("pk", flat=True)) == winners
    for entrant in tournament.entrants.select_related("user"):
        page = client.get(reverse("player_page", args=[entrant.user.username])).content.decode()
        assert "Dragon cup" in page  # entered: listed either way
        assert ('id="trophies"' in page) == (entrant.pk in winners)


def test_a_cancelled_or_running_tournament_is_no_trophy(client, people, moderator):
    tournament = entered(new_tournament(people[0], name="Dragon cup"), people[1:4])
    start_now(tournament)
    Entrant.objects.filter(tournament=tournament).update(final_place=1)  # forged
    services.cancel(moderator, tournament, "Stopped early")
    page = client.get(reverse("player_page", args=["u00"])).content.decode()
    assert 'id="trophies"' not in page
