"""The matches' side of bot accounts (``accounts.bots``): who may seat one,
and how many matches against other bot accounts one may play a day.

A bot account takes a seat in any match a player invited it to, in an
unrated open match, and in a rated one where no person sits yet (bot
accounts among themselves); a rated open match with a person at it is a
pool of people, so it needs an invitation there. Matches between bot accounts are limited per bot and per
day (``SMOKI["BOT_MATCHES_PER_DAY"]``), so two programs cannot fill the
site with matches against each other; a match with a human at the table
never counts.

A tournament's schedule cannot refuse a pairing, so the limit is kept at
the door: a bot account enters a tournament only when its matches of the
last day, the rounds its other tournaments still promise, and the most
matches this one may ask of it (``tournament_matches_ahead_of``) stay
within the limit; and once entered, the rounds still to come are promised:
they count toward the limit of every other match it joins
(``committed``). A tournament's matches, once made, count as any match.
The tournaments' app tells this module how many rounds a bot account is
promised to (``register_commitments``: the apps above ``games`` are not
imported from here).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import is_bot_account
from core.errors import Forbidden
from games.models import Match, MatchStatus, Seat

DAY = timedelta(days=1)
#: The first key of the PostgreSQL advisory locks that serialise one bot
#: account's count of the day (the second is its user id).
DAY_COUNT_LOCK = 0x5B07_DA1


def hold_days_of(user_ids) -> None:
    """Count the day of these bot accounts one transaction at a time, until
    the caller's transaction ends.

    The checks run under the lock of the match being joined (or the
    tournament being entered), but the same bot joining two matches at once
    holds two different locks: each read a day with room for one more match
    and both went in, one past the limit. On PostgreSQL each account's count
    now waits for a transaction-level advisory lock, taken in the order of
    the ids so that two joins never wait for each other in a circle; no
    other code takes these locks. SQLite lets one writer in at a time.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for user_id in sorted(set(user_ids)):
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [DAY_COUNT_LOCK, user_id])


def daily_limit() -> int:
    return settings.SMOKI["BOT_MATCHES_PER_DAY"]


def bot_matches_today(user_id: int, now=None, exclude_match: int | None = None) -> int:
    """How many matches created in the last 24 hours (aborted ones aside)
    seat the bot account ``user_id`` with another bot account and no person:
    one count."""
    since = (now or timezone.now()) - DAY
    seats = Seat.objects.filter(match=OuterRef("pk"))
    other_bot = seats.filter(user__profile__is_bot_account=True).exclude(user_id=user_id)
    person = seats.filter(user__isnull=False, user__profile__is_bot_account=False)
    found = Match.objects.filter(seats__user_id=user_id, created_at__gte=since).exclude(
        status=MatchStatus.ABORTED
    )
    if exclude_match is not None:
        found = found.exclude(pk=exclude_match)
    return found.filter(Exists(other_bot), ~Exists(person)).distinct().count()


#: Functions of a user id that give the matches against bot accounts it is
#: promised to play later (the tournaments' app registers its own).
_COMMITMENTS: list[Callable[[int], int]] = []


def register_commitments(count: Callable[[int], int]) -> None:
    if count not in _COMMITMENTS:
        _COMMITMENTS.append(count)


def committed(user_id: int) -> int:
    """The matches the bot account ``user_id`` is promised to play later:
    the rounds still to come of the tournaments it is in (one query)."""
    return sum(count(user_id) for count in _COMMITMENTS)


def tournament_matches_ahead_of(tournament) -> int:
    """The most matches a tournament may still ask of one entrant: one a
    round. Before the start: a Swiss tournament's rounds, a knockout's for
    its most entrants, a round robin's one against each other entrant at
    most (``max_entrants - 1``); once running, the rounds not yet made."""
    if tournament.status == "running":
        return max(0, tournament.rounds - tournament.current_round)
    if tournament.format == "swiss":
        return tournament.rounds
    n = tournament.max_entrants
    if tournament.format == "knockout":
        return (n - 1).bit_length() if n > 1 else 0
    return max(0, n - 1)


def require_room_for_tournament(user, tournament) -> None:
    """Refuse a bot account a tournament whose rounds could take it past its
    day's limit of matches against bot accounts (nothing for a person)."""
    if not is_bot_account(user):
        return
    limit = daily_limit()
    more = tournament_matches_ahead_of(tournament)
    hold_days_of([user.pk])
    if bot_matches_today(user.pk) + committed(user.pk) + more > limit:
        raise Forbidden(
            ngettext(
                "%(name)s may play at most %(n)d match against bot accounts a day: "
                "with its matches of the last day and its tournaments' rounds to come, "
                "this tournament's %(more)d rounds could pass that.",
                "%(name)s may play at most %(n)d matches against bot accounts a day: "
                "with its matches of the last day and its tournaments' rounds to come, "
                "this tournament's %(more)d rounds could pass that.",
                limit,
            )
            % {"name": user.username, "n": limit, "more": more}
        )


def require_may_take_seat(match: Match, user) -> None:
    """Refuse a bot account a seat it may not take (nothing for a person):
    a rated match a person sits in that it was not invited to, or a match of
    bot accounts alone once it, or a bot seated there, has played its
    matches against bots for the day, counting the rounds its tournaments
    still promise. Called under the match's lock by
    ``games.lobby.services.join_match``."""
    if not is_bot_account(user):
        return
    seated = list(
        match.seats.exclude(user=None).values_list(
            "user_id", "user__username", "user__profile__is_bot_account"
        )
    )
    people = any(not bot for _id, _name, bot in seated)
    if match.rated and people and not match.invitations.filter(invited_user=user).exists():
        raise Forbidden(
            _("A bot account takes a seat in a rated match only when a player invites it.")
        )
    if not seated or not all(bot for _id, _name, bot in seated):
        return  # a person at the table: not a match between bots
    limit = daily_limit()
    hold_days_of([user.pk] + [user_id for user_id, _name, _bot in seated])
    for user_id, username in [(user.pk, user.username)] + [(i, n) for i, n, _b in seated]:
        played = bot_matches_today(user_id, exclude_match=match.pk)
        promised = committed(user_id)
        if played < limit <= played + promised:
            raise Forbidden(
                ngettext(
                    "%(name)s has its %(n)d match against bot accounts for today played "
                    "or promised to its tournaments; try again tomorrow.",
                    "%(name)s has its %(n)d matches against bot accounts for today played "
                    "or promised to its tournaments; try again tomorrow.",
                    limit,
                )
                % {"name": username, "n": limit}
            )
        if played >= limit:
            raise Forbidden(
                ngettext(
                    "%(name)s has played its %(n)d match against bot accounts for today; "
                    "try again tomorrow.",
                    "%(name)s has played its %(n)d matches against bot accounts for today; "
                    "try again tomorrow.",
                    limit,
                )
                % {"name": username, "n": limit}
            )
