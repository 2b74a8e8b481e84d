"""The player page's tournaments section reads the tournaments entered and
those won (the trophies) in one query, the same lists as read apart."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import selectors
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def _entered(user, n: int, *, status: str, place: int | None = None, days: int = 0):
    now = timezone.now()
    return Tournament.objects.create(
        name=f"Cup {n}",
        game_key="nogi",
        table_size=2,
        format="swiss",
        rounds=1,
        starts_at=now - timedelta(days=days),
        min_entrants=2,
        max_entrants=8,
        status=status,
        finished_at=now - timedelta(days=days) if status == "finished" else None,
    ), place


def test_one_query_gives_the_tournaments_entered_and_the_trophies(make_user):
    target, other = make_user("target"), make_user("other")
    made = []
    for n in range(60):
        status = ("finished", "running", "open", "cancelled")[n % 4]
        place = 1 if status == "finished" and n % 8 == 0 else (2 if status == "finished" else None)
        made.append(_entered(target, n, status=status, place=place, days=n))
    for tournament, place in made:
        Entrant.objects.create(tournament=tournament, user=target, final_place=place)
    # Someone else's win in a tournament the player lost is not their trophy.
    lost, _place = made[4]
    Entrant.objects.create(tournament=lost, user=other, final_place=1)
    with CaptureQueriesContext(connection) as queries:
        section = selectors.player_section(target)
    assert len(queries.captured_queries) == 1
    trophies = selectors.trophies_of(target.pk)
    entered = selectors.tournaments_of(target.pk)
    assert [t.pk for t in section["trophies"]] == [t.pk for t in trophies]
    assert len(trophies) == 8 and lost.pk not in [t.pk for t in trophies]
    assert sorted(t.pk for t in section["tournaments"]) == sorted(t.pk for t in entered)
    assert [(t.order, t.starts_at) for t in section["tournaments"]] == [
        (t.order, t.starts_at) for t in entered
    ]
    assert len(section["tournaments"]) == selectors.TOURNAMENTS_SHOWN
    assert all(t.game_title for t in section["trophies"] + section["tournaments"])
    # Past the number shown, the trophies stop there too.
    assert [t.pk for t in selectors.trophies_of(target.pk, limit=3)] == [
        t.pk for t in section["trophies"][:3]
    ]
