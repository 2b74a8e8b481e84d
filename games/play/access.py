"""Who may see a match: computed, never trusted.

A public match is anyone's to look at; a private one its players',
invitees', those holding its invitation link and moderators'; a match one
may not see answers 404, as if it did not exist. The poll's answer ("has
anything changed?") is a match's stamp, read in one statement."""

from __future__ import annotations

import functools
import json
import secrets
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.utils import timezone

from accounts import roles
from games.models import (
    Invitation,
    Match,
    MatchStatus,
    Seat,
    Visibility,
)
from games.play import friendship, match_rows

MAX_ID = match_rows.MAX_ID


def seat_of(match: Match, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def can_view(match: Match, user, token: str | None = None) -> bool:
    """Who may look at a match, on every page (match, panel, log, verify, JSON).

    Public matches: anyone. Private ones: their players and moderators; and,
    while the match is still gathering players, whoever holds its invite
    link or a personal invitation, so they can look before joining. Once it
    starts an invitation grants nothing more (it can no longer be used to
    join), and an invited spectator would see a private match's play. A
    match for friends only is private but for the creator's friends, who
    may look at it while it gathers players (and join it).
    """
    if match.visibility == Visibility.PUBLIC:
        return True
    gathering = match.status == MatchStatus.OPEN
    if gathering and token and secrets.compare_digest(token.encode(), match.invite_token.encode()):
        return True
    if user is None or not user.is_authenticated:
        return False
    if roles.is_moderator(user) or seat_of(match, user) is not None:
        return True
    if gathering and _creators_friend(match.visibility, match.created_by_id, user):
        return True
    return gathering and match.invitations.filter(invited_user=user).exists()


def _creators_friend(visibility: str, creator_id: int | None, user) -> bool:
    """Whether ``user`` may see a match for friends only as its creator's friend."""
    return visibility == Visibility.FRIENDS and friendship.are_friends(creator_id, user.pk)


def stamp_for(pk: int, user, token: str | None = None, user_id=None) -> str | None:
    """The match's stamp if this person may look at it, else None: the poll's
    cheap check, one query by primary key reading neither the state nor the
    seats nor the profile.

    Access is decided as ``can_view`` decides it. A public match (or the
    invitation link's token) needs nothing more, not even the user (``user``
    is loaded lazily and is not touched). ``user_id``, the id the session
    names, lets the same query ask whether that user holds a seat or an
    invitation; it counts only for a private match and only once the
    authenticated ``user`` is loaded and is that user. Moderators are asked
    about only when they hold neither.
    """
    if not 0 < pk <= MAX_ID:
        return None
    try:
        user_id = int(user_id) if user_id is not None else None
    except (TypeError, ValueError):
        user_id = None
    row = _stamp_row(pk, user_id)
    if row is None:
        return None
    gathering = row["status"] == MatchStatus.OPEN
    public = row["visibility"] == Visibility.PUBLIC or bool(
        gathering and token and secrets.compare_digest(token.encode(), row["invite_token"].encode())
    )
    if not public and not _may_see_private(pk, user, user_id, row, gathering):
        return None
    return Match.stamp_of(*(row[name] for name in Match.STAMP_FIELDS))


# The poll's statement, as SQL: the ORM builds it once per process and database
# vendor, with marker values where the match's and the user's ids go. Building
# it through the ORM on every poll cost more than running it.
_PK_MARK, _USER_MARK = 7_700_000_001, 7_700_000_002


@functools.cache
def _stamp_statement(
    vendor: str, with_access: bool
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(SQL, the name of each parameter: "pk" or "user", the name of each column)."""
    queryset = Match.objects.filter(pk=_PK_MARK)
    extra: tuple[str, ...] = ()
    if with_access:
        queryset = _with_access(queryset, _USER_MARK)
        extra = ("seated", "invited")
    queryset = queryset.order_by().values(*Match.STAMP_FIELDS, "visibility", "invite_token", *extra)
    query = queryset[:1].query
    sql, params = query.sql_with_params()
    marks = {_PK_MARK: "pk", _USER_MARK: "user"}
    columns = (*query.values_select, *query.annotation_select)
    # Constants the ORM passes as parameters (``SELECT 1`` in EXISTS) stay as they are.
    return sql, tuple(marks.get(param, param) for param in params), columns


def _stamp_row(pk: int, user_id: int | None) -> dict | None:
    """The stamp's columns, visibility and token (and, given ``user_id``, whether
    that user is seated or invited) of match ``pk``, converted as the ORM would."""
    sql, params, columns = _stamp_statement(connection.vendor, user_id is not None)
    with connection.cursor() as cursor:
        ids = {"pk": pk, "user": user_id}
        cursor.execute(sql, [ids.get(param, param) for param in params])
        values = cursor.fetchone()
    if values is None:
        return None
    row = dict(zip(columns, values, strict=True))
    for name in ("deadline", "updated_at"):
        row[name] = _moment(row[name])
    if isinstance(row["undo_request"], str):  # JSON arrives as text on every backend
        row["undo_request"] = json.loads(row["undo_request"])
    for name in ("seated", "invited"):
        if name in row:
            row[name] = bool(row[name])
    return row


def _moment(value):
    """A column's datetime, aware: SQLite hands back UTC text, PostgreSQL a datetime."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def _with_access(queryset, user_id):
    """Whether the user holds a seat in, or an invitation to, each match."""
    return queryset.annotate(
        seated=Exists(Seat.objects.filter(match=OuterRef("pk"), user_id=user_id)),
        invited=Exists(Invitation.objects.filter(match=OuterRef("pk"), invited_user_id=user_id)),
    )


def _may_see_private(pk: int, user, user_id, row: dict, gathering: bool) -> bool:
    """As ``can_view``: players, moderators, and invited users (or the
    creator's friends, for a match for friends only) while the match gathers
    players."""
    if user is None or not user.is_authenticated:
        return False
    if user_id is None or str(user.pk) != str(user_id):
        row = _with_access(Match.objects.filter(pk=pk), user.pk).values(
            "seated", "invited"
        ).first() or {"seated": False, "invited": False}
    if row["seated"] or (gathering and row["invited"]) or roles.is_moderator(user):
        return True
    if gathering and row["visibility"] == Visibility.FRIENDS:
        creator = Match.objects.filter(pk=pk).values_list("created_by_id", flat=True).first()
        return _creators_friend(row["visibility"], creator, user)
    return False


def _load_match(pk: int, user) -> Match | None:
    """The match with its seats, players and profiles in one statement
    (``match_rows.read``). For a signed-in user the same statement brings what
    the panel and the page's top bar show of their other matches: the most
    urgent match waiting for them and the unread-notification count, each a
    subquery on an index, whatever the number of matches they have."""
    viewer = user.pk if user is not None and user.is_authenticated else None
    match, seats = match_rows.read(pk, waiting_for=viewer, unread_for=viewer)
    if match is None:
        return Match.objects.filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    match_rows.remember_seats(match, seats)
    return match


def get_match_for(pk: int, user, token: str | None = None) -> Match:
    """The match if this person may look at it; 404 otherwise (private matches
    are not even admitted to exist)."""
    match = _load_match(pk, user)
    if match is None or not can_view(match, user, token):
        raise Http404("No such match.")
    return match


def may_be_a_player(match: Match, seats: list[Seat], user) -> bool:
    """Whether a visitor who is not logged in may have a seat here: a free
    seat in a match still gathering players, or a seat a person plays in a
    match in play (a "your turn" link opened before logging in)."""
    if user.is_authenticated:
        return False
    if match.status == MatchStatus.OPEN:
        return len(seats) < match.n_seats
    return match.status == MatchStatus.ACTIVE and any(
        seat.user_id is not None and not seat.played_by_bot for seat in seats
    )
