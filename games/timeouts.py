"""The clock's sweep: reminders and the timeout policy.

The beat runs ``sweep`` every minute. It reads the matches that are due from
the ``wake_at`` index and wakes each in its own short transaction, so a slow
match never holds the others and two sweepers never do the same work twice.
A missed deadline is played by the bot (``apply_timeout``) through the move
path, or ends a two-player match that is lost on time (``lose_on_time``,
also used when a moderator deactivates a player).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import bots, clock, match_rows, notifications
from games.engine import registry
from games.engine.search import Budget
from games.errors import TimeRanOut
from games.models import (
    STRIKES_BEFORE_BOT,
    ActorKind,
    Match,
    NotificationKind,
    Seat,
    SeatStatus,
)
from games.selectors import due_match_ids
from games.services import finish_match, queue_bots_after_commit, submit_action

#: The timed-out move is the heuristic's, made at once inside the sweep.
NO_SEARCH = Budget(iterations=0, seconds=0)


def wake_match(match_id: int, now=None) -> str:
    """Send due reminders and apply the timeout policy for one match.

    Runs in its own transaction and skips a match whose row another sweeper
    or a player's move holds, so nothing is done twice; the conditions are
    checked again under the lock, so a move that committed first wins.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # The move's own read (match_rows: one statement, only the match row
        # locked), skipping a row someone holds and a match no longer due.
        match, seats = match_rows.read(match_id, lock=True, skip_locked=True, due_by=now)
        if match is None:
            return "skipped"
        match_rows.remember_seats(match, seats)
        game = registry.get(match.game_key)
        # Asked once per version: the move below asks the same (``seats_to_move``).
        seat = clock.waiting_seat(match, seats, match.seats_to_move(game))
        if seat is None:
            match.wake_at = None
            match.save(update_fields=["wake_at"])
            return "nobody to move"
        if clock.overdue(match, now):
            # A late sweep sends only what is still true: "you ran out of
            # time", not the reminders that fell due while it was not running.
            apply_timeout(match, game, seats, seat, now)
            return "timed out"
        # Only the latest reminder due: it says what is true now, and it
        # updates the unread one before it (one unread row per kind).
        due = [hours for hours, when in clock.reminder_times(match, seat) if when <= now]
        if due:
            notifications.queue(
                seat.user, match, NotificationKind.REMINDER, tag=f"{due[-1]}h", seat=seat
            )
        clock.refresh(match, seat, now)
        match.save(update_fields=["wake_at", "deadline"])
        return "reminded"


def lose_on_time(match: Match, seats: list[Seat], seat: Seat, details: dict) -> None:
    """End a two-player match with ``seat`` ranked last (loss on time)."""
    seat.status = SeatStatus.TIMED_OUT
    seat.save(update_fields=["status"])
    ranks = [2 if s.index == seat.index else 1 for s in seats]
    scores = [None] * len(seats)
    finish_match(
        match, seats, ranks, scores, {"ranks": ranks, "scores": scores, "details": details}
    )
    match.save()


def apply_timeout(match: Match, game, seats: list[Seat], seat: Seat, now) -> None:
    """The seat missed its deadline: apply the match's timeout policy.

    The caller holds the match's lock in its transaction. The notification
    rows of the timeout and of the move it makes are written together
    (``notifications.batched``), and the bots are handed the match after
    them, in the order the move path hands them over."""
    with notifications.batched(match):
        moved = _apply_timeout(match, game, seats, seat)
    if moved:
        queue_bots_after_commit(match, game, seats)


def _apply_timeout(match: Match, game, seats: list[Seat], seat: Seat) -> bool:
    """Returns whether a move was made (False: the match was lost on time)."""
    if seat.user_id:
        # Under the match's lock, at a version no timeout has been applied
        # at (applying one moves the game on or ends it): the row is new.
        notifications.queue(
            seat.user, match, NotificationKind.TIMED_OUT, seat=seat, surely_new=True
        )
    if clock.loses_on_time(match):
        lose_on_time(match, seats, seat, {"reason": "time", "timed_out": seat.index})
        return False
    seat.strikes += 1
    if seat.strikes >= STRIKES_BEFORE_BOT:
        seat.status = SeatStatus.BOT
    seat.save(update_fields=["strikes", "status"])
    # The sweep never searches: the timed-out move is the heuristic's (a zero
    # budget), at once; a seat the bots took over then plays at its level on
    # the bots' queue.
    action = bots.choose_action(match, game, seat, NO_SEARCH)
    submit_action(
        match,
        None,
        action,
        match.version,
        seat_index=seat.index,
        actor_kind=ActorKind.TIMEOUT,
        queue_bots=False,
        locked_seats=seats,
    )
    return True


def submit_player_action(match: Match | int, user, action, expected_version: int):
    """A player's move, after applying an expired clock.

    A move made after the deadline must not beat the clock just because the
    sweep has not run yet (the worker was down, the beat late): the timeout
    is applied first, in its own transaction, and the move is then refused
    (``TimeRanOut``) with the position after the timeout. The deadline is
    checked under the move's own lock (``submit_action``), so a move on time
    reads the match once.
    """
    try:
        return submit_action(match, user, action, expected_version)
    except TimeRanOut:
        match_id = match if isinstance(match, int) else match.pk
        if wake_match(match_id) == "timed out":
            raise
    # Another sweeper held the match: try again, refused if still overdue.
    return submit_action(match, user, action, expected_version)


def sweep(now=None, limit: int = 1000, share=None, batch: int | None = None) -> dict[str, int]:
    """One pass of the beat's minute sweep. Returns counts by outcome.

    With ``share`` (the beat's task passes one that queues ``wake_matches``),
    the due matches after the first ``batch`` are handed to other workers in
    batches, so a backlog (the workers were down, a thousand deadlines fell
    due together) drains on every worker at once instead of on this one. A
    batch the broker does not take is woken here. Two sweepers can never do
    a match twice: each match is taken with ``SKIP LOCKED`` and its deadline
    checked again under the lock.
    """
    now = now or timezone.now()
    due = due_match_ids(now, limit)
    if share is None:
        return wake_matches(due, now)
    batch = batch or settings.SMOKI["SWEEP_BATCH"]
    mine = due[:batch]
    for start in range(batch, len(due), batch):
        if not share(due[start : start + batch]):
            mine += due[start : start + batch]
    return wake_matches(mine, now)


def wake_matches(match_ids: list[int], now=None) -> dict[str, int]:
    """Wake each match in turn (``wake_match``). Returns counts by outcome."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {}
    for match_id in match_ids:
        outcome = wake_match(match_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
