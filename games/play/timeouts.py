"""The clock's sweep: reminders, and the timeout policy applied to the due.

The beat runs ``sweep`` every minute. It reads the matches that are due from
the ``wake_at`` index and wakes each in its own short transaction, so a slow
match never holds the others and two sweepers never do the same work twice.
A player who turned on automatic vacation and has some in their pool gets
a vacation instead of the timeout (``vacation.start_automatic``, in a task
after the wake's commit). A missed deadline is applied by ``services.apply_timeout`` (the bot's move
through the move path, or the loss on time of a two-player match), the write
a player's late move applies too (``services.submit_player_action``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.dispatch import notifications, outbox
from games.engine import registry
from games.models import (
    Match,
    MatchStatus,
    NotificationKind,
)
from games.play import clock, match_rows, vacation
from games.play.services import apply_timeout


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
        return _wake(match, seats, now)


def _wake(match, seats, now) -> str:
    """Wake one match its caller holds locked, read as due by ``now``."""
    match_rows.remember_seats(match, seats)
    game = registry.get(match.game_key)
    # Asked once per version: the move below asks the same (``seats_to_move``).
    seat = clock.waiting_seat(match, seats, match.seats_to_move(game))
    if seat is None:
        match.wake_at = None
        match.save(update_fields=["wake_at"])
        return "nobody to move"
    if clock.overdue(match, now) and vacation.takes_automatic(match, seat, now):
        # The vacation locks the profile, then the matches (the locking
        # policy), so it runs after this commit in a task of its own; the
        # match stays due meanwhile, and the next sweep applies the timeout
        # if the vacation did not happen after all.
        outbox.hand_over_after_commit("games.tasks.take_automatic_vacation", seat.user_id)
        return "automatic vacation"
    if clock.overdue(match, now):
        # A late sweep sends only what is still true: "you ran out of
        # time", not the reminders that fell due while it was not running.
        apply_timeout(match, game, seats, seat, now)
        return "timed out"
    # Only the latest reminder due: it says what is true now, and it
    # updates the unread one before it (one unread row per kind).
    due = [tag for tag, when in clock.reminder_times(match, seat) if when <= now]
    if due:
        notifications.queue(seat.user, match, NotificationKind.REMINDER, tag=due[-1], seat=seat)
    clock.refresh(match, seat, now)
    match.save(update_fields=["wake_at", "deadline"])
    return "reminded"


def wake_together(match_ids: list[int], now) -> list[str]:
    """Wake a batch of matches in one transaction: the batch read with its
    seats in one locked statement (``match_rows.read_due``, skipping held
    and no longer due matches, as ``wake_match`` does), every match woken
    as ``wake_match`` wakes it, the notification rows of them all written in
    one statement and their deliveries handed over as one task after the one
    commit. A match's wake costs three statements of its own (the strike,
    the match's update, the move) instead of eight round trips and two
    hand-overs. Returns one outcome per id ("skipped" for those not read).

    If anything in the batch fails (a deadlock with another batch over the
    players' rating rows, a bug in one match), nothing of it is kept and
    each match is woken again in its own transaction, so one match cannot
    hold back the others any more than before."""
    try:
        with transaction.atomic(), notifications.batched_matches():
            woken = [
                _wake(match, seats, now) for match, seats in match_rows.read_due(match_ids, now)
            ]
    except Exception:  # noqa: BLE001 - any failure: each match on its own, as before
        return [wake_match(match_id, now) for match_id in match_ids]
    return woken + ["skipped"] * (len(match_ids) - len(woken))


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
    """Wake the matches, ``SWEEP_TOGETHER`` at a time in one transaction
    (``wake_together``). Returns counts by outcome."""
    now = now or timezone.now()
    together = settings.SMOKI["SWEEP_TOGETHER"]
    outcomes: dict[str, int] = {}
    for start in range(0, len(match_ids), together):
        for outcome in wake_together(match_ids[start : start + together], now):
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def due_matches(now):
    """Active matches the sweep must look at now (uses the wake_at partial index),
    the longest due first. Matches due at the same instant (a burst of games
    started together) go oldest first, so the sweep's batches are the same
    on every database."""
    return Match.objects.filter(
        status=MatchStatus.ACTIVE, wake_at__isnull=False, wake_at__lte=now
    ).order_by("wake_at", "pk")


def due_match_ids(now, limit: int = 1000) -> list[int]:
    """The ids of ``due_matches``, at most ``limit`` of them."""
    return list(due_matches(now).values_list("pk", flat=True)[:limit])
