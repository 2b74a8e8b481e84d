"""The statistics' table arrives with the results of the matches that
finished before it (``players/migrations/0005_outcome.py``): a row per human
seat of each finished match, streaks counted in the order they finished;
aborted matches and bots get none."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.migrations import migrate_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_migrations_afterwards"),
]

BEFORE = [("players", "0004_rating_provisional_index"), ("games", "0018_kinds_registered_by_apps")]
AFTER = [("players", "0005_outcome")]


def _match(
    Match, Seat, seats, ranks, *, at, status="finished", key="nogi", options=None, details=None
):
    match = Match.objects.create(
        game_key=key,
        rules_version=1,
        n_seats=len(seats),
        options=options if options is not None else {"first_player": "host"},
        seed="ab" * 16,
        seed_hash="cd" * 32,
        invite_token=f"t{Match.objects.count()}",
        created_by=seats[0],
        status=status,
        finished_at=at,
        result={"ranks": ranks, "details": details or {}},
    )
    for index, (user, rank) in enumerate(zip(seats, ranks, strict=True)):
        Seat.objects.create(match=match, index=index, user=user, is_bot=user is None, rank=rank)
    return match


def test_the_finished_matches_results_are_written_when_the_table_arrives():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Match, Seat = old.get_model("games", "Match"), old.get_model("games", "Seat")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")
    now = timezone.now()
    won = [_match(Match, Seat, [ann, ben], [1, 2], at=now - timedelta(days=d)) for d in (5, 4)]
    lost = _match(Match, Seat, [ben, ann], [1, 2], at=now - timedelta(days=3))
    last = _match(Match, Seat, [ann, None], [1, 2], at=now - timedelta(days=2))
    _match(Match, Seat, [ann, ben], [1, 2], at=now, status="aborted")
    drako = _match(
        Match, Seat, [ann, ben], [2, 1], at=now, key="drako", options={}, details={"dragon_seat": 1}
    )

    new = migrate_to(AFTER)
    Outcome = new.get_model("players", "Outcome")
    rows = {(row.match_id, row.user_id): row for row in Outcome.objects.all()}
    assert len(rows) == 2 * 4 + 1  # two players each, one beside a bot; none for the aborted
    mine = [rows[(m.pk, ann.pk)] for m in (*won, lost, last)]
    assert [(r.rank, r.won, r.streak) for r in mine] == [
        (1, True, 1),
        (1, True, 2),
        (2, False, 0),
        (1, True, 1),
    ]
    assert [r.first for r in mine] == [True, True, False, True]  # seat 1 starts
    assert (rows[(drako.pk, ann.pk)].side, rows[(drako.pk, ben.pk)].side) == ("dwarves", "dragon")
    assert rows[(lost.pk, ben.pk)].streak == 1 and rows[(lost.pk, ben.pk)].players == 2
