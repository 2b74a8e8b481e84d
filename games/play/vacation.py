"""Vacations: a player stops their clocks in every match that allows it, for
as long as their vacation pool holds, and may come back early.

The pool (``Profile.vacation_pool``) starts with a week, grows by three
hours a day up to 30 days (``accounts.models``), and pays for each vacation
when it starts; coming back early pays back what was not used. A player who
turned on automatic vacation gets a day of it (or what the pool holds, at
least an hour) from the sweep when a deadline is about to pass, instead of
the timeout, and is told by every channel (``games.play.vacation_notice``).

The profile row is locked first, then the matches in ascending primary key
(the locking policy in docs/architecture.md).
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import (
    VACATION_ACCRUAL_PER_DAY,
    VACATION_POOL_CAP,
    Profile,
    VacationPeriod,
)
from core.errors import Conflict, ServiceError
from games.engine import registry
from games.models import Match, MatchStatus, SeatStatus
from games.play import clock, vacation_notice
from games.play.services import lock_matches, seats_of

DAY = timedelta(days=1)
#: What automatic vacation takes at a time, and the least it takes.
AUTOMATIC_STEP = DAY
AUTOMATIC_LEAST = timedelta(hours=1)


def whole_hours(duration: timedelta) -> int:
    return int(duration.total_seconds() // 3600)


def start_vacation(user, days: int, now=None) -> None:
    """Stop this player's clocks for ``days`` days, paid from their pool."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user)
        if profile.vacation_until and profile.vacation_until > now:
            raise Conflict(_("You are already on vacation."))
        pool = profile.vacation_pool_now(now)
        most = int(pool // DAY)
        if most < 1:
            raise ServiceError(
                ngettext(
                    "Your vacation pool holds %(n)d hour, less than a day; "
                    "it grows by %(rate)d hours a day.",
                    "Your vacation pool holds %(n)d hours, less than a day; "
                    "it grows by %(rate)d hours a day.",
                    whole_hours(pool),
                )
                % {"n": whole_hours(pool), "rate": whole_hours(VACATION_ACCRUAL_PER_DAY)}
            )
        if not 1 <= days <= most:
            raise ServiceError(
                ngettext(
                    "You can take %(n)d day of vacation now.",
                    "You can take 1 to %(n)d days of vacation now.",
                    most,
                )
                % {"n": most}
            )
        _take(user, profile, now, timedelta(days=days), pool, automatic=False)


def start_automatic(user, now=None) -> bool:
    """The sweep found a deadline of this player's about to pass: take a day
    of vacation (or what the pool holds, at least an hour) if they asked for
    automatic vacation and are not away already. Returns whether it did; safe
    to run twice (the second finds them on vacation)."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user)
        if not profile.auto_vacation or (profile.vacation_until and profile.vacation_until > now):
            return False
        pool = profile.vacation_pool_now(now)
        if pool < AUTOMATIC_LEAST:
            return False
        length = min(AUTOMATIC_STEP, timedelta(hours=whole_hours(pool)))
        until = _take(user, profile, now, length, pool, automatic=True)
        vacation_notice.automatic_started(
            user, until=until, hours=whole_hours(length), left=whole_hours(pool - length)
        )
        return True


def takes_automatic(match: Match, seat, now) -> bool:
    """Whether the sweep should give this overdue seat's player an automatic
    vacation instead of the timeout (read without the profile's lock; the
    vacation itself checks again under it)."""
    if seat is None or seat.user_id is None or seat.played_by_bot or not match.vacation_allowed:
        return False
    profile = seat.user.profile
    if not profile.auto_vacation or (profile.vacation_until and profile.vacation_until > now):
        return False
    return profile.vacation_pool_now(now) >= AUTOMATIC_LEAST


def _take(user, profile, now, length: timedelta, pool: timedelta, *, automatic: bool):
    until = now + length
    profile.vacation_until = until
    profile.vacation_pool = pool - length
    profile.vacation_pool_at = now
    profile.save(update_fields=["vacation_until", "vacation_pool", "vacation_pool_at"])
    VacationPeriod.objects.create(user=user, starts_at=now, ends_at=until, automatic=automatic)
    _shift_waiting_clocks(user, until - now, now)
    return until


def end_vacation(user, now=None) -> None:
    """Come back early: the clocks run again from now, and the pool gets the
    unused time back (whole minutes, up to its cap)."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user)
        until = profile.vacation_until
        if until is None or until <= now:
            raise Conflict(_("You are not on vacation."))
        unused = timedelta(minutes=math.floor((until - now).total_seconds() / 60))
        profile.vacation_pool = min(VACATION_POOL_CAP, profile.vacation_pool_now(now) + unused)
        profile.vacation_pool_at = now
        profile.vacation_until = now
        profile.save(update_fields=["vacation_until", "vacation_pool", "vacation_pool_at"])
        VacationPeriod.objects.filter(user=user, ends_at=until).update(ends_at=now)
        _shift_waiting_clocks(user, -(until - now), now)


def _lock_profile(user) -> Profile:
    """The player's profile row, locked first (before any match: the locking
    policy in docs/architecture.md), so two vacation requests of one player
    run one after the other and each sees what the other did."""
    profile = Profile.objects.select_for_update().get(user=user)
    user.profile = profile  # the caller's user sees the saved vacation
    return profile


def _shift_waiting_clocks(user, shift: timedelta, now) -> None:
    """Pause (or resume) the clock of every turn this player is to move in.

    The matches are locked together in ascending primary key, never one by
    one in whatever order the database returns them.
    """
    match_ids = Match.objects.filter(
        status=MatchStatus.ACTIVE,
        vacation_allowed=True,  # else its creator or organiser forbade it
        seats__user=user,
        seats__status=SeatStatus.PLAYING,
    ).values_list("pk", flat=True)
    for match in lock_matches(match_ids):
        if match.status != MatchStatus.ACTIVE:  # it ended before we had the lock
            continue
        game = registry.get(match.game_key)
        seats = seats_of(match)
        seat = clock.waiting_seat(match, seats, game.current_seats(match.state))
        if seat is None or seat.user_id != user.pk:
            continue
        match.turn_paused = max(timedelta(0), match.turn_paused + shift)
        clock.refresh(match, seat, now)
        match.save(update_fields=["turn_paused", "deadline", "wake_at", "updated_at"])
