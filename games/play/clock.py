"""The correspondence clock: deadlines, time banks, vacations and reminder times.

Deadlines live on the match row, never in delayed Celery tasks. The rule:

    deadline = turn_started_at + turn_paused + time_per_move + the seat's bank

``turn_paused`` grows while the player to move is on vacation (in a match
that allows vacations, ``Match.vacation_allowed``). In a match that allows
the weekend pause (``Match.weekend_pause``), the time per move and the bank
are counted only outside the player's weekend days (``games.play.weekends``):
the deadline is then the instant at which that much running time has passed
since ``turn_started_at + turn_paused``. When a move takes longer than the
time per move, the excess is taken from the seat's bank, and the bank then
gains the match's increment. ``wake_at`` is when the sweep must next look at
the match: the next reminder due, or the deadline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Match, Seat, TimeoutPolicy
from games.play import weekends

ZERO = timedelta(0)


def waiting_seat(match: Match, seats: list[Seat], waiting: list[int]) -> Seat | None:
    """The seat whose clock runs: the first seat the rules wait on."""
    for seat in seats:
        if seat.index in waiting:
            return seat
    return None


def on_vacation_until(match: Match, seat: Seat | None, now: datetime) -> datetime | None:
    """When the seat's player comes back, if they are away now and the match
    lets a vacation stop its clock."""
    if seat is None or seat.user_id is None or seat.played_by_bot or not match.vacation_allowed:
        return None
    until = seat.user.profile.vacation_until
    return until if until and until > now else None


def start_turn(match: Match, seat: Seat | None, now: datetime) -> None:
    """A new turn begins (the version changed and the game goes on)."""
    match.turn_started_at = now
    match.waiting_on_id = seat.user_id if seat is not None and not seat.played_by_bot else None
    until = on_vacation_until(match, seat, now)
    match.turn_paused = (until - now) if until else ZERO
    refresh(match, seat, now)


def charge_bank(match: Match, seat: Seat, now: datetime) -> bool:
    """The seat just moved: spend its bank on any excess, then add the increment.
    Returns whether the bank changed (matches without a bank have nothing to do)."""
    if match.turn_started_at is None or (
        match.time_bank == ZERO and match.time_bank_increment == ZERO
    ):
        return False
    used = _ran(match, seat, match.turn_started_at + match.turn_paused, now)
    excess = max(ZERO, used - match.time_per_move)
    before = seat.bank_left
    seat.bank_left = max(ZERO, seat.bank_left - excess) + match.time_bank_increment
    return seat.bank_left != before


def refresh(match: Match, seat: Seat | None, now: datetime) -> None:
    """Recompute the deadline and the next wake-up from the turn's clock."""
    if seat is None or match.turn_started_at is None:
        match.deadline = None
        match.wake_at = None
        match.waiting_on_id = None
        return
    match.deadline = _after_running(
        match, seat, match.turn_started_at + match.turn_paused, match.time_per_move + seat.bank_left
    )
    match.wake_at = min([*pending_reminder_times(match, seat, after=now), match.deadline])


def weekend_of(match: Match, seat: Seat | None) -> tuple | None:
    """(time zone, weekend days) when the seat's clock pauses on its player's
    weekend in this match, else None."""
    if not match.weekend_pause or seat is None or seat.user_id is None or seat.played_by_bot:
        return None
    days = seat.user.profile.weekend_day_numbers()
    if not days:
        return None
    return weekends.zone(seat.user.profile.timezone), days


def weekend_until(match: Match, seat: Seat | None, now: datetime) -> datetime | None:
    """When the seat's clock runs again, if its player's weekend pauses it now."""
    weekend = weekend_of(match, seat)
    return weekends.weekend_ends(now, *weekend) if weekend else None


def _after_running(match: Match, seat: Seat, start: datetime, duration: timedelta) -> datetime:
    weekend = weekend_of(match, seat)
    if weekend is None:
        return start + duration
    return weekends.add_running_time(start, duration, *weekend)


def _ran(match: Match, seat: Seat, start: datetime, end: datetime) -> timedelta:
    weekend = weekend_of(match, seat)
    if weekend is None:
        return end - start
    return weekends.running_time(start, end, *weekend)


def reminder_times(match: Match, seat: Seat) -> list[tuple[str, datetime]]:
    """(tag, when) for each reminder of this turn, earliest first.

    Two kinds, both the player's choice: so many hours before the deadline
    (tag "24h"), and once a share of the turn's time is used (tag "80%":
    the turn's time is from its start to its deadline, vacation pauses
    left out, so a reminder scales with a match's time per move). Two at
    the same moment are one. A reminder whose moment had already passed
    when the turn began is left out: the "your turn" notice covers it.
    """
    if seat.user_id is None or seat.played_by_bot or match.deadline is None:
        return []
    begun = match.turn_started_at + match.turn_paused
    profile = seat.user.profile
    times: dict[datetime, str] = {}
    for share in profile.reminder_share_list():
        when = begun + (match.deadline - begun) * share / 100
        if when > begun:
            times.setdefault(when, f"{share}%")
    for hours in profile.reminder_offsets():
        when = match.deadline - timedelta(hours=hours)
        if when > begun:
            times.setdefault(when, f"{hours}h")
    return sorted(((tag, when) for when, tag in times.items()), key=lambda item: item[1])


def pending_reminder_times(match: Match, seat: Seat, after: datetime) -> list[datetime]:
    return [when for _tag, when in reminder_times(match, seat) if when > after]


def overdue(match: Match, now: datetime) -> bool:
    """The turn's deadline has passed and nobody has applied it yet."""
    return match.deadline is not None and match.deadline <= now


def time_left(match: Match, seat: Seat, now: datetime) -> timedelta | None:
    """What the seat has left: until the deadline if it is to move, else its bank."""
    if match.deadline is None:
        return None
    return max(ZERO, match.deadline - now)


def loses_on_time(match: Match) -> bool:
    return match.timeout_policy == TimeoutPolicy.LOSS and match.n_seats == 2
