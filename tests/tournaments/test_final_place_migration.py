"""The migration that adds ``Entrant.final_place`` stores the places of the
tournaments already finished, so their winners' pages show the trophy
(``tournaments/migrations/0004_knockout_start_when_full_final_place.py``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.migrations import migrate_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_migrations_afterwards"),
]

BEFORE = [("tournaments", "0003_tournament_takeover_level")]
AFTER = [("tournaments", "0004_knockout_start_when_full_final_place")]


def test_finished_tournaments_get_their_places_and_others_none():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Tournament = old.get_model("tournaments", "Tournament")
    Entrant = old.get_model("tournaments", "Entrant")
    Round = old.get_model("tournaments", "Round")
    Placement = old.get_model("tournaments", "Placement")
    a, b, c = (User.objects.create(username=n) for n in "abc")
    when = datetime(2026, 5, 1, tzinfo=UTC)

    def tournament(status):
        return Tournament.objects.create(
            name=status,
            game_key="nogi",
            table_size=2,
            format="swiss",
            rounds=2,
            starts_at=when,
            min_entrants=2,
            max_entrants=8,
            status=status,
        )

    done, running = tournament("finished"), tournament("running")
    for t in (done, running):
        ea, eb, ec = (Entrant.objects.create(tournament=t, user=u, rating=1000) for u in (a, b, c))
        one = Round.objects.create(tournament=t, number=1)
        # Round 1: b beats a, c has a bye; round 2: b beats c, a has a bye.
        Placement.objects.create(round=one, entrant=eb, table=1, seat=0, points=1.0)
        Placement.objects.create(round=one, entrant=ea, table=1, seat=1, points=0.0)
        Placement.objects.create(round=one, entrant=ec, table=2, is_bye=True, points=1.0)
        two = Round.objects.create(tournament=t, number=2)
        Placement.objects.create(round=two, entrant=eb, table=1, seat=0, points=1.0)
        Placement.objects.create(round=two, entrant=ec, table=1, seat=1, points=0.0)
        Placement.objects.create(round=two, entrant=ea, table=2, is_bye=True, points=1.0)

    new = migrate_to(AFTER)
    Entrant = new.get_model("tournaments", "Entrant")
    places = dict(
        Entrant.objects.filter(tournament_id=done.pk).values_list("user__username", "final_place")
    )
    assert places["b"] == 1
    assert sorted(places.values()) == [1, 2, 3]
    assert set(
        Entrant.objects.filter(tournament_id=running.pk).values_list("final_place", flat=True)
    ) == {None}
