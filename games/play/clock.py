"""The correspondence clock: deadlines, time banks, vacations and reminder times.

Deadlines live on the match row, never in delayed Celery tasks. The rule:

    deadline = turn_started_at + turn_paused + time_per_move + the seat's bank

``turn_paused`` grows while the player to move is on vacation. When a move
takes longer than the time per move, the excess is taken from the seat's
bank, and the bank then gains the match's increment. ``wake_at`` is when the
sweep must next look at the match: the next reminder due, or the deadline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Match, Seat, TimeoutPolicy

ZERO = timedelta(0)


def waiting_seat(match: Match, seats: list[Seat], waiting: list[int]) -> Seat | None:
    """The seat whose clock runs: the first seat the rules wait on."""
    for seat in seats:
        if seat.index in waiting:
            return seat
    return None


def on_vacation_until(seat: Seat | None, now: datetime) -> datetime | None:
    if seat is None or seat.user_id is None or seat.played_by_bot:
        return None
    until = seat.user.profile.vacation_until
    return until if until and until > now else None


def start_turn(match: Match, seat: Seat | None, now: datetime) -> None:
    """A new turn begins (the version changed and the game goes on)."""
    match.turn_started_at = now
    match.waiting_on_id = seat.user_id if seat is not None and not seat.played_by_bot else None
    until = on_vacation_until(seat, now)
    match.turn_paused = (until - now) if until else ZERO
    refresh(match, seat, now)


def charge_bank(match: Match, seat: Seat, now: datetime) -> bool:
    """The seat just moved: spend its bank on any excess, then add the increment.
    Returns whether the bank changed (matches without a bank have nothing to do)."""
    if match.turn_started_at is None or (
        match.time_bank == ZERO and match.time_bank_increment == ZERO
    ):
        return False
    used = now - match.turn_started_at - match.turn_paused
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
    match.deadline = (
        match.turn_started_at + match.turn_paused + match.time_per_move + seat.bank_left
    )
    match.wake_at = min([*pending_reminder_times(match, seat, after=now), match.deadline])


def reminder_times(match: Match, seat: Seat) -> list[tuple[int, datetime]]:
    """(hours, when) for each reminder of this turn, earliest first.

    A reminder whose moment had already passed when the turn began is left
    out: the "your turn" notice covers it.
    """
    if seat.user_id is None or seat.played_by_bot or match.deadline is None:
        return []
    begun = match.turn_started_at + match.turn_paused
    times = []
    for hours in seat.user.profile.reminder_offsets():
        when = match.deadline - timedelta(hours=hours)
        if when > begun:
            times.append((hours, when))
    return sorted(times, key=lambda item: item[1])


def pending_reminder_times(match: Match, seat: Seat, after: datetime) -> list[datetime]:
    return [when for _hours, when in reminder_times(match, seat) if when > after]


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
