"""games.play.match_rows: the hand-written read of a match with its seats builds
exactly the instances the ORM builds, and the move's writes store what the
ORM would have stored, on whichever database runs the suite
(SQLite in ``make test``, PostgreSQL in the strict pass)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from games.correspondence import inbox
from games.lobby import services as lobby
from games.models import Match, Move, Seat
from games.play import match_rows, services
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    """Every stored value of an instance, as the ORM would set it."""
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def _orm_rows(pk: int):
    match = Match.objects.get(pk=pk)
    seats = list(Seat.objects.filter(match_id=pk).select_related("user__profile").order_by("index"))
    return match, seats


@pytest.fixture
def busy_match(alice, bob, make_user):
    """A started match with a bot seat, a vacation, a bank of time, a deadline
    and JSON state: every kind of column the read has to convert."""
    match = lobby.create_match(
        user=alice,
        game_key="nogi",
        n_seats=3,
        time_bank=timedelta(hours=5),
        options={"first_player": "random"},
    )
    lobby.join_match(user=bob, match=match)
    lobby.fill_with_bots(user=alice, match=match)
    alice.profile.vacation_until = timezone.now() + timedelta(days=3)
    alice.profile.timezone = "Europe/Prague"
    alice.profile.save()
    match.refresh_from_db()
    return match


def test_read_builds_what_the_orm_builds(busy_match):
    match, seats = match_rows.read(busy_match.pk)
    orm_match, orm_seats = _orm_rows(busy_match.pk)

    assert _fields(match) == _fields(orm_match)
    assert isinstance(match.state, dict) and match.deadline.tzinfo is not None
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm_seats]
    assert [s.is_bot for s in seats] == [False, False, True]
    for seat, orm_seat in zip(seats, orm_seats, strict=True):
        if orm_seat.user_id is None:
            continue
        assert _fields(seat.user) == _fields(orm_seat.user)
        assert _fields(seat.user.profile) == _fields(orm_seat.user.profile)
    assert not match._state.adding and match._state.db == "default"


def test_the_built_rows_answer_without_another_query(busy_match):
    match, seats = match_rows.read(busy_match.pk)
    with CaptureQueriesContext(connection) as queries:
        assert seats[0].match is match
        names = [(s.user.username if s.user else None) for s in seats]
        languages = [s.user.profile.language for s in seats if s.user]
    assert names == ["alice", "bob", None]
    assert len(languages) == 2
    assert queries.captured_queries == []


def test_the_next_match_waiting_and_the_unread_count(alice, bob, make_user, nogi):
    first = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=first)
    second = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=second)
    first.refresh_from_db()
    second.refresh_from_db()
    waiting = first.waiting_on

    match, _seats = match_rows.read(first.pk, waiting_for=waiting.pk, unread_for=waiting.pk)

    expected = (
        Match.objects.filter(status="active", waiting_on=waiting)
        .exclude(pk=first.pk)
        .order_by("deadline")
        .values_list("pk", flat=True)
        .first()
    )
    assert match.next_waiting_pk == expected
    assert match.unread_count == inbox.unread_count(waiting) > 0
    stranger = make_user("stranger")
    match, _seats = match_rows.read(first.pk, waiting_for=stranger.pk, unread_for=stranger.pk)
    assert match.next_waiting_pk is None and match.unread_count == 0
    match, _seats = match_rows.read(first.pk)
    assert not hasattr(match, "next_waiting_pk") and not hasattr(match, "unread_count")


@pytest.mark.parametrize("pk", [0, -1, 2**63, 10**30, 987654])
def test_no_such_match(pk):
    assert match_rows.read(pk) == (None, [])


def test_a_match_without_seats_is_read_by_the_callers_alone(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    Seat.objects.filter(match=match).delete()
    assert match_rows.read(match.pk) == (None, [])
    with transaction.atomic():
        locked, seats = services.lock_match_with_seats(match.pk)
    assert locked.pk == match.pk and seats == []


def test_the_lock_is_on_the_match_row_only_where_the_database_locks_rows(busy_match):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        match_rows.read(busy_match.pk, lock=True)
    (sql,) = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    if connection.features.has_select_for_update:
        assert sql.endswith("FOR NO KEY UPDATE OF m")
    else:  # SQLite locks the whole database for a write instead
        assert "FOR " not in sql.split("ORDER BY")[-1]


def test_the_sweeps_read_skips_a_held_row_where_the_database_locks_rows(busy_match):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        match_rows.read(busy_match.pk, lock=True, skip_locked=True, due_by=timezone.now())
    (sql,) = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    if connection.features.has_select_for_update_skip_locked:
        assert sql.endswith("FOR NO KEY UPDATE OF m SKIP LOCKED")
    else:
        assert "SKIP" not in sql


def test_due_by_reads_only_an_active_match_whose_wake_up_has_come(busy_match):
    now = timezone.now()
    Match.objects.filter(pk=busy_match.pk).update(wake_at=now)
    match, seats = match_rows.read(busy_match.pk, due_by=now)
    assert match.pk == busy_match.pk and [s.index for s in seats] == [0, 1, 2]
    assert _fields(match) == _fields(Match.objects.get(pk=busy_match.pk))
    assert match_rows.read(busy_match.pk, due_by=now - timedelta(seconds=1)) == (None, [])
    Match.objects.filter(pk=busy_match.pk).update(wake_at=None)
    assert match_rows.read(busy_match.pk, due_by=now) == (None, [])
    Match.objects.filter(pk=busy_match.pk).update(wake_at=now, status="finished")
    assert match_rows.read(busy_match.pk, due_by=now) == (None, [])


def test_a_new_column_is_read_without_touching_the_module():
    """The statement's columns are the models' concrete fields, in order."""
    sql = match_rows._statement(connection.vendor, False, False, False)
    quote = connection.ops.quote_name
    for model, alias in ((Seat, "s"), (Match, "m"), (get_user_model(), "u"), (Profile, "p")):
        for field in model._meta.concrete_fields:
            assert f"{quote(alias)}.{quote(field.column)}" in sql


def test_a_move_writes_what_the_orm_would_have_written(started_match, nogi):
    before = Match.objects.get(pk=started_match.pk)
    move = play_one(started_match, nogi)

    stored = Match.objects.get(pk=started_match.pk)
    assert _fields(stored) == _fields(move.match)
    assert stored.version == before.version + 1 and stored.state != before.state
    assert stored.updated_at > before.updated_at  # auto_now, as save() sets it
    row = Move.objects.get(match=started_match, seq=stored.version)
    assert _fields(row) == _fields(move)
    assert row.created_at is not None and isinstance(row.events, list) and row.events
    assert row.actor_id == user_to_move(before, nogi).pk
    assert not move._state.adding and move.pk == row.pk


def test_update_of_a_missing_row_fails_loudly(started_match):
    match = Match.objects.get(pk=started_match.pk)
    match.pk = 10**12  # no such row
    with pytest.raises(DatabaseError, match="was not updated"):
        match_rows.update(match, ["version"])


def test_insert_keeps_the_log_unique_and_changes_nothing_when_refused(started_match, nogi):
    move = play_one(started_match, nogi)
    logged = Move.objects.filter(match=started_match).count()
    twin = Move(match=move.match, seq=move.seq, seat=move.seat, action={}, events=[])
    with pytest.raises(IntegrityError), transaction.atomic():
        match_rows.insert(twin)
    assert twin.pk is None and twin._state.adding
    assert Move.objects.filter(match=started_match).count() == logged


def test_the_statements_write_only_the_named_columns(started_match):
    sql, _fields_written = match_rows._update_statement(
        connection.vendor, Match, ("state", "version")
    )
    quote = connection.ops.quote_name
    assert sql.startswith(f"UPDATE {quote('games_match')} SET {quote('state')} = %s, ")
    assert quote("status") not in sql


def test_recent_moves_are_the_orms_last_rows_oldest_first(started_match, nogi):
    for _i in range(5):
        play_one(started_match, nogi)
    other = lobby.create_match(user=started_match.seats.first().user, game_key="nogi", n_seats=2)
    total = Move.objects.filter(match=started_match).count()
    assert total >= 5 and not Move.objects.filter(match=other).exists()
    for limit in (1, 3, total, total + 10):
        orm = list(Move.objects.filter(match=started_match).order_by("-seq")[:limit])[::-1]
        with CaptureQueriesContext(connection) as queries:
            rows = match_rows.recent_moves(started_match.pk, limit)
            [_fields(move) for move in rows]  # every field loaded: no deferred reads
        assert len(queries) == 1 and " LIMIT " in queries[0]["sql"]
        assert [_fields(move) for move in rows] == [_fields(move) for move in orm]
        assert [move.seq for move in rows] == sorted(move.seq for move in rows)
        assert all(isinstance(move.events, list) for move in rows)
    assert match_rows.recent_moves(other.pk, 30) == []
