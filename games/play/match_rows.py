"""A match's rows in hand-written statements: the read of the match with its
seats, their players and their profiles, and the move's two writes.

Every move, every changed panel and every match the clock's sweep wakes
starts with this read, so it is written once per process as SQL rather than
built by the ORM on each request:
building and compiling the equivalent queryset (``select_related`` over four
tables, a subquery, ``select_for_update(of=...)``) took 1.5 ms of CPU per move
against 0.3 ms for PostgreSQL to answer it; the statement below, with the
rows turned into model instances by ``Model.from_db``, takes 0.4–0.6 ms in
all (docs/performance.md). The columns come from the models' ``_meta``, so a
new field is read without touching this module, and each value passes
through the same converters the ORM applies (JSON, durations, SQLite's
dates), so the instances are the ones the ORM would have built
(tests/services/test_match_rows.py compares them field by field).

The panel's move log reads the match's last rows the same way
(``recent_moves``): a bounded read on every move, page and changed poll,
which the ORM took longer to build than PostgreSQL took to answer.

A move then writes the match's changed columns and appends its row to the
log: ``update`` and ``insert`` do what ``save(update_fields=...)`` and
``create`` do (each field's ``pre_save`` and ``get_db_prep_save``, so
``auto_now`` stamps and JSON are as the ORM writes them) without building an
UPDATE or an INSERT through the ORM on each move, which took 0.5 and 0.4 ms
of CPU (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection

from accounts.models import Profile
from core.forms import MAX_ID  # the largest primary key a BigAutoField holds
from games.models import Match, MatchStatus, Move, Seat

# Unread entries behind the bell: one per match and kind, however many moves.
UNREAD_COUNT_SQL = (
    "SELECT COUNT(*) FROM (SELECT DISTINCT match_id, kind FROM games_notification"
    " WHERE user_id = %s AND read_at IS NULL) AS unread"
)


@dataclass(frozen=True)
class _Table:
    """How one model's columns are selected and turned back into an instance."""

    model: type
    alias: str
    start: int  # where its columns begin and end in the statement's rows
    end: int
    attnames: tuple[str, ...]
    columns: tuple[str, ...]  # "alias"."column", in attnames' order
    converters: tuple[tuple[int, tuple, object], ...]  # (position, converters, expression)

    @classmethod
    def of(cls, model, alias: str, start: int) -> _Table:
        quote = connection.ops.quote_name
        fields = model._meta.concrete_fields
        converters = []
        for position, field in enumerate(fields):
            expression = field.get_col(alias)
            found = connection.ops.get_db_converters(expression) + field.get_db_converters(
                connection
            )
            if found:
                converters.append((position, tuple(found), expression))
        return cls(
            model=model,
            alias=alias,
            start=start,
            end=start + len(fields),
            attnames=tuple(field.attname for field in fields),
            columns=tuple(f"{quote(alias)}.{quote(field.column)}" for field in fields),
            converters=tuple(converters),
        )

    def values(self, row: tuple) -> list:
        return list(row[self.start : self.end])

    def build(self, values: list):
        """The instance these values describe, or None for a LEFT JOIN's empty side."""
        if values[0] is None:  # the primary key comes first in concrete_fields
            return None
        for position, converters, expression in self.converters:
            for convert in converters:
                values[position] = convert(values[position], expression, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


@cache
def _tables(vendor: str) -> tuple[_Table, ...]:
    """Seat, match, user, profile: the order of the statement's columns."""
    del vendor  # part of the cache key only: quoting and converters differ per backend
    tables = []
    start = 0
    for model, alias in ((Seat, "s"), (Match, "m"), (get_user_model(), "u"), (Profile, "p")):
        tables.append(_Table.of(model, alias, start))
        start = tables[-1].end
    return tuple(tables)


@cache
def _statement(
    vendor: str,
    lock: bool,
    waiting: bool,
    unread: bool,
    skip_locked: bool = False,
    due: bool = False,
    many: int = 0,
) -> str:
    quote = connection.ops.quote_name
    seat, match, user, profile = _tables(vendor)
    columns = [column for table in (seat, match, user, profile) for column in table.columns]
    if waiting:
        # The viewer's most urgent other match waiting for them (an index on
        # waiting_on, deadline), as the lobby orders them.
        columns.append(
            f"(SELECT w.{quote('id')} FROM {quote(Match._meta.db_table)} w"
            f" WHERE w.{quote('status')} = %s AND w.{quote('waiting_on_id')} = %s"
            f" AND w.{quote('id')} <> %s ORDER BY w.{quote('deadline')} ASC LIMIT 1)"
        )
    if unread:
        columns.append(f"({UNREAD_COUNT_SQL})")
    sql = (
        f"SELECT {', '.join(columns)}"
        f" FROM {quote(Seat._meta.db_table)} s"
        f" INNER JOIN {quote(Match._meta.db_table)} m ON m.{quote('id')} = s.{quote('match_id')}"
        f" LEFT OUTER JOIN {quote(user.model._meta.db_table)} u"
        f" ON u.{quote(user.model._meta.pk.column)} = s.{quote('user_id')}"
        f" LEFT OUTER JOIN {quote(Profile._meta.db_table)} p ON p.{quote('user_id')} = u.{quote(user.model._meta.pk.column)}"
        + (
            f" WHERE s.{quote('match_id')} IN ({', '.join(['%s'] * many)})"
            if many
            else f" WHERE s.{quote('match_id')} = %s"
        )
    )
    if due:
        sql += f" AND m.{quote('status')} = %s AND m.{quote('wake_at')} <= %s"
    sql += (
        f" ORDER BY s.{quote('match_id')} ASC, s.{quote('index')} ASC"
        if many
        else f" ORDER BY s.{quote('index')} ASC"
    )
    if lock and connection.features.has_select_for_update:
        # Only the match row: seats and players are read, not locked. NO KEY
        # lets the move log's inserts (which reference the match) go on.
        sql += (
            " FOR NO KEY UPDATE OF m"
            if connection.features.has_select_for_no_key_update
            else " FOR UPDATE OF m"
        )
        if skip_locked and connection.features.has_select_for_update_skip_locked:
            sql += " SKIP LOCKED"
    return sql


def read(
    match_id: int,
    *,
    lock: bool = False,
    skip_locked: bool = False,
    due_by=None,
    waiting_for=None,
    unread_for=None,
) -> tuple[Match | None, list[Seat]]:
    """The match ``match_id`` with its seats (by index), each seat's player and
    profile; (None, []) if there is no such match with seats.

    ``lock``: lock the match row until the transaction ends; with
    ``skip_locked``, a row another transaction holds is not waited for but
    read as missing (the sweep's way: another sweeper or a move has it).
    ``due_by``: a time; only an active match whose ``wake_at`` has come by
    then is read (the sweep's condition, checked under the lock). ``waiting_for``:
    a user id; ``match.next_waiting_pk`` is then their most urgent other match
    waiting for them (or None). ``unread_for``: a user id; ``match.unread_count``
    is then their count of unread notifications. A match without seats (never
    the case once it has started) is not found here: callers read it alone.
    """
    if not 0 < match_id <= MAX_ID:  # no such row; a database cannot even compare it
        return None, []
    waiting, unread = waiting_for is not None, unread_for is not None
    params: list = []
    if waiting:
        params += [MatchStatus.ACTIVE.value, waiting_for, match_id]
    if unread:
        params.append(unread_for)
    params.append(match_id)
    due = due_by is not None
    if due:
        params += [MatchStatus.ACTIVE.value, _wake_at_value(due_by)]
    statement = _statement(connection.vendor, lock, waiting, unread, skip_locked, due)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        rows = cursor.fetchall()
    if not rows:
        return None, []
    match, seats = _build(rows)
    extra = rows[0][_tables(connection.vendor)[3].end :]
    if waiting:
        match.next_waiting_pk, extra = extra[0], extra[1:]
    if unread:
        match.unread_count = extra[0]
    return match, seats


def _build(rows: list[tuple]) -> tuple[Match, list[Seat]]:
    """One match and its seats (with players and profiles) from its rows."""
    seat_table, match_table, user_table, profile_table = _tables(connection.vendor)
    # Every row repeats the match's columns: its state is decoded once, from the first.
    match = match_table.build(match_table.values(rows[0]))
    seats = []
    for row in rows:
        seat = seat_table.build(seat_table.values(row))
        seat.match = match
        user = user_table.build(user_table.values(row))
        if user is not None:
            seat.user = user
            profile = profile_table.build(profile_table.values(row))
            if profile is not None:
                user.profile = profile
        seats.append(seat)
    return match, seats


def read_due(match_ids: list[int], due_by) -> list[tuple[Match, list[Seat]]]:
    """The sweep's read of a batch: each of ``match_ids`` that is active and
    due by ``due_by``, with its seats, players and profiles as ``read`` gives
    them, its row locked (``FOR NO KEY UPDATE OF m SKIP LOCKED``: a match
    another sweeper or a move holds is left out), in one statement instead of
    one per match. In ascending id: the locking policy's order for several
    matches held together."""
    match_ids = sorted({pk for pk in match_ids if 0 < pk <= MAX_ID})
    if not match_ids:
        return []
    statement = _statement(
        connection.vendor, True, False, False, skip_locked=True, due=True, many=len(match_ids)
    )
    params = [*match_ids, MatchStatus.ACTIVE.value, _wake_at_value(due_by)]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        rows = cursor.fetchall()
    match_id_at = _tables(connection.vendor)[0].attnames.index("match_id")
    found: dict[int, list[tuple]] = {}
    for row in rows:
        found.setdefault(row[match_id_at], []).append(row)
    return [_build(found[pk]) for pk in sorted(found)]


@cache
def _recent_moves_statement(vendor: str) -> tuple[_Table, str]:
    del vendor  # part of the cache key only, as for the read
    quote = connection.ops.quote_name
    table = _Table.of(Move, "mv", 0)
    sql = (
        f"SELECT {', '.join(table.columns)} FROM {quote(Move._meta.db_table)} mv"
        f" WHERE mv.{quote('match_id')} = %s ORDER BY mv.{quote('seq')} DESC LIMIT %s"
    )
    return table, sql


def recent_moves(match_id: int, limit: int) -> list[Move]:
    """The last ``limit`` rows of the match's log, oldest first: what
    ``Move.objects.filter(match_id=...).order_by("-seq")[:limit]`` reads,
    reversed (an index on match and seq answers it)."""
    table, sql = _recent_moves_statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id, limit])
        rows = cursor.fetchall()
    return [table.build(list(row)) for row in reversed(rows)]


def _wake_at_value(moment):
    """``moment`` as the database compares it with ``wake_at`` (as a filter would)."""
    return Match._meta.get_field("wake_at").get_db_prep_value(moment, connection)


def remember_seats(match: Match, seats: list[Seat]) -> None:
    """Let ``match.seats.all()`` answer from ``seats`` (as a prefetch would), so
    whatever draws the match reads no more."""
    match._prefetched_objects_cache = {}
    queryset = match.seats.get_queryset()  # lazy: nothing is read here
    queryset._result_cache = list(seats)
    queryset._prefetch_done = True
    match._prefetched_objects_cache["seats"] = queryset


@cache
def _update_statement(vendor: str, model, names: tuple[str, ...]) -> tuple[str, tuple]:
    del vendor  # part of the cache key only, as for the read
    quote = connection.ops.quote_name
    fields = tuple(model._meta.get_field(name) for name in names)
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments}"
        f" WHERE {quote(model._meta.pk.column)} = %s"
    )
    return sql, fields


def update(instance, names: list[str]) -> None:
    """Write the fields ``names`` of a row read before, as
    ``instance.save(update_fields=names)`` does, without its signals: the
    live pages' announcement of a saved match (``games.live.changes``) is
    made by the move path itself for this UPDATE."""
    sql, fields = _update_statement(connection.vendor, type(instance), tuple(names))
    values = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{type(instance).__name__} {instance.pk} was not updated.")


@cache
def _insert_statement(vendor: str, model) -> tuple[str, tuple]:
    del vendor  # part of the cache key only, as for the read
    quote = connection.ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    columns = ", ".join(quote(field.column) for field in fields)
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
        f" RETURNING {quote(model._meta.pk.column)}"
    )
    return sql, fields


def insert(instance):
    """Add ``instance`` (a new row with a database-made primary key) as
    ``instance.save()`` does, and return it with its primary key."""
    sql, fields = _insert_statement(connection.vendor, type(instance))
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance
