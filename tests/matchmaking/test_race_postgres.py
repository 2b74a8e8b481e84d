"""Quick-match passes racing on PostgreSQL: no request is seated twice, no
table formed twice, and a withdrawal racing the pass either wins (no match)
or is refused (the match stands).

Each thread has its own connection. The passes plan first and wait for each
other before seating (a barrier after ``services.plan``), so both try to
form the very same tables: the second finds the requests locked (``SKIP
LOCKED``) or seated and skips them.
"""

from __future__ import annotations

import threading

import pytest

from core.errors import Conflict
from games.models import Match, Seat
from matchmaking import services
from matchmaking.models import Request, RequestStatus
from tests.postgres_race import ONLY_ON_POSTGRES, race

pytestmark = ONLY_ON_POSTGRES


@pytest.fixture(autouse=True)
def _no_pass_after_a_request(monkeypatch):
    """Requests are committed here, and the suite's tasks run at once: the
    pass a new request hands over would seat them before the race."""
    monkeypatch.setattr(services.outbox, "hand_over_after_commit", lambda *args: None)


def _planned_together(monkeypatch, n: int) -> None:
    """Every pass waits after planning until ``n`` passes have planned."""
    real_plan = services.plan
    barrier = threading.Barrier(n)

    def plan(now=None):
        tables = real_plan(now)
        barrier.wait(timeout=60)
        return tables

    monkeypatch.setattr(services, "plan", plan)


def _nobody_twice() -> None:
    seated = list(
        Request.objects.filter(status=RequestStatus.SEATED).values_list("match_id", flat=True)
    )
    matches = set(seated)
    assert Match.objects.count() == len(matches)
    users = list(Seat.objects.values_list("user_id", flat=True))
    assert len(users) == len(set(users)), "a player seated at two tables"
    assert Seat.objects.count() == len(seated)


@pytest.mark.parametrize("tables", [1, 3])
def test_two_passes_at_once_form_each_table_once(monkeypatch, ask, players, tables):
    for player in players[: 2 * tables]:
        ask(player, "nogi", (2,))
    _planned_together(monkeypatch, 2)
    results = race([services.match_waiting] * 2, "free", lambda: None)
    assert not any(isinstance(r, BaseException) for r in results), results
    assert sum(r["tables"] for r in results) == tables, results
    assert sum(r["skipped"] for r in results) == tables
    assert not Request.objects.filter(status=RequestStatus.WAITING).exists()
    _nobody_twice()


def test_three_passes_at_once_over_tables_of_four(monkeypatch, ask, players):
    for player in players:
        ask(player, "nogi", (4,))
    _planned_together(monkeypatch, 3)
    results = race([services.match_waiting] * 3, "free", lambda: None)
    assert not any(isinstance(r, BaseException) for r in results), results
    assert sum(r["tables"] for r in results) == 2
    _nobody_twice()


@pytest.mark.parametrize("attempt", range(3))
def test_a_withdrawal_racing_the_pass_wins_or_is_refused(ask, alice, bob, attempt):
    mine = ask(alice)
    ask(bob)
    assert Request.objects.filter(status=RequestStatus.WAITING).count() == 2

    def withdraw():
        try:
            services.withdraw(alice, mine.pk)
            return "withdrawn"
        except Conflict as refusal:
            return refusal.message

    results = race([services.match_waiting, withdraw], "free", lambda: None)
    assert not any(isinstance(r, BaseException) for r in results), results
    mine.refresh_from_db()
    if results[1] == "withdrawn":
        assert mine.status == RequestStatus.WITHDRAWN and not Match.objects.exists()
        assert results[0]["tables"] == 0
    else:
        assert "Too late to withdraw" in results[1]
        assert mine.status == RequestStatus.SEATED and Match.objects.count() == 1
    _nobody_twice()
