"""Vacations: a player stops their clocks in every match where it is their
turn, for a number of days a year, and may come back early.

The profile row is locked first, then the matches in ascending primary key
(the locking policy in docs/architecture.md).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import VACATION_DAYS_PER_YEAR, Profile, VacationPeriod
from accounts.selectors import vacation_days_used
from core.errors import Conflict, ServiceError
from games.engine import registry
from games.models import Match, MatchStatus, SeatStatus
from games.play import clock
from games.play.services import lock_matches, seats_of


def start_vacation(user, days: int) -> None:
    """Stop this player's clocks in every match for ``days`` days."""
    now = timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user)
        if profile.vacation_until and profile.vacation_until > now:
            raise Conflict(_("You are already on vacation."))
        left = VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
        if not 1 <= days <= left:
            raise ServiceError(
                _("You can take 1 to %(left)d more vacation days this year.") % {"left": left}
            )
        until = now + timedelta(days=days)
        profile.vacation_until = until
        profile.save(update_fields=["vacation_until"])
        VacationPeriod.objects.create(user=user, starts_at=now, ends_at=until)
        _shift_waiting_clocks(user, until - now, now)


def end_vacation(user) -> None:
    """Come back early: the clocks run again from now."""
    now = timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user)
        until = profile.vacation_until
        if until is None or until <= now:
            raise Conflict(_("You are not on vacation."))
        profile.vacation_until = now
        profile.save(update_fields=["vacation_until"])
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
        status=MatchStatus.ACTIVE, seats__user=user, seats__status=SeatStatus.PLAYING
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
