"""The move path: every change of a match's position goes through here.

``submit_action`` is the road every move travels, for players, bots, the clock
and moderators: one short transaction, the match row locked, the seat and the
version checked, the pure rules applied, the new state saved with its version
bumped and the move appended to the log. Follow-up work (bots,
notifications) is queued with ``transaction.on_commit`` so it only ever sees
committed moves; tasks are queued by name, so this module never imports the
task module (which imports it).

A player's move enters by ``submit_player_action`` (the match page and the
email's link), which applies a missed deadline first (``time_out``,
``apply_timeout``: the clock's writes on one match, which the sweep uses too).
The lobby (``games.lobby``), the clock's sweep (``games.play.timeouts``), chat,
moderation and the accounts app's own writes live in their own modules and
call in here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    StaleVersion,
    TimeRanOut,
)
from games import i18n, signals
from games.dispatch import notifications, outbox
from games.engine import registry, search
from games.engine.base import IllegalAction
from games.engine.replay import MODERATION
from games.live import changes
from games.models import (
    EARLY_END,
    STRIKES_BEFORE_BOT,
    ActorKind,
    Match,
    MatchStatus,
    Move,
    NotificationKind,
    Seat,
    SeatStatus,
)
from games.play import bots, clock, match_rows, positions

PLAY_BOT_TURNS = "games.tasks.play_bot_turns"


def lock_match(match: Match) -> Match:
    """Lock one match row for a write (``FOR NO KEY UPDATE``: inserting its
    moves, seats and chat messages elsewhere is not blocked)."""
    return Match.objects.select_for_update(no_key=True).get(pk=match.pk)


def lock_matches(match_ids) -> list[Match]:
    """Lock several match rows in one statement, in ascending primary key.

    Every write that holds more than one match takes them in this order (see
    the locking policy in docs/architecture.md), so two such writes sharing
    matches wait for each other instead of deadlocking.
    """
    return list(
        Match.objects.select_for_update(no_key=True).filter(pk__in=list(match_ids)).order_by("pk")
    )


def seats_of(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user__profile").order_by("index"))


def lock_match_with_seats(match_id: int, player=None) -> tuple[Match | None, list[Seat]]:
    """Lock one match row and read it with its seats, players and profiles in
    one statement (``match_rows.read``: only the match row is locked). A match
    without seats (never the case once it has started) is read alone.
    Returns (None, []) for an unknown id.

    With ``player``, the same statement also reads the player's most urgent
    other match waiting for them (``match.next_waiting_pk``, for the answer's
    "next match waiting" button; a move here does not change it)."""
    match, seats = match_rows.read(
        match_id, lock=True, waiting_for=player.pk if player is not None else None
    )
    if match is None and 0 < match_id <= match_rows.MAX_ID:
        match = Match.objects.select_for_update(no_key=True).filter(pk=match_id).first()
    return match, seats


# Columns a move may change; only those that did are written back.
_MOVE_FIELDS = (
    "status",
    "deadline",
    "wake_at",
    "waiting_on_id",
    "turn_started_at",
    "turn_paused",
    "bots_due_at",
    "result",
    "finished_at",
    "undo_request",
)


def _save_changed(match: Match, before: dict) -> None:
    """Write the new state and version, and of the other columns only those
    that changed (a move's UPDATE then carries little beside the state), in
    the statement ``match_rows.update`` keeps for that set of columns."""
    fields = ["state", "version", "updated_at"]
    fields += [
        name.removesuffix("_id") if name.endswith("_id") else name
        for name in _MOVE_FIELDS
        if getattr(match, name) != before[name]
    ]
    match_rows.update(match, fields)


def submit_player_action(
    match: Match | int, user, action, expected_version: int, *, choose=None
) -> Move:
    """A player's move: the entry of the match page, its htmx panel and the
    "your turn" email's link.

    A move made after the deadline must not beat the clock just because the
    sweep has not run yet (the worker was down, the beat late). The deadline
    is checked under the move's own lock (``submit_action`` raises
    ``TimeRanOut``), so a move on time reads the match once; a late one has
    the timeout applied first, in its own transaction (``time_out``), and is
    then refused with the position after the timeout.

    ``choose(game, state, seat_index)``, if given, names the action from the
    position read under the move's lock (the API's action ids): the match
    is read once, and the action is judged on the position it is played on.
    """
    try:
        return submit_action(match, user, action, expected_version, choose=choose)
    except TimeRanOut:
        match_id = match if isinstance(match, int) else match.pk
        if time_out(match_id):
            raise
    # Another sweeper held the match: try again, refused if still overdue.
    return submit_action(match, user, action, expected_version, choose=choose)


def submit_action(
    match: Match | int,
    user,
    action: Any,
    expected_version: int,
    *,
    seat_index: int | None = None,
    actor_kind: str = ActorKind.PLAYER,
    queue_bots: bool = True,
    locked_seats: list[Seat] | None = None,
    choose=None,
) -> Move:
    """Apply one action for a seat, exactly once, or refuse and change nothing.

    Players are identified by ``user``; bots, the clock and moderators pass
    ``seat_index`` and their ``actor_kind`` (``user`` is then the moderator or
    None). The bot loop passes ``queue_bots=False`` because it carries on by
    itself. A caller that already holds the match's lock in its own
    transaction (the sweep) passes the locked ``match`` and its
    ``locked_seats``, which are then not read again. Raises ``ServiceError``
    subclasses with a message for the player.
    """
    match_id = match if isinstance(match, int) else match.pk
    # A caller holding the lock runs the move inside its own transaction and
    # lets any refusal end it: a savepoint would only cost two round trips.
    with transaction.atomic(savepoint=locked_seats is None):
        if locked_seats is not None:
            seats = locked_seats
        else:
            player = user if actor_kind == ActorKind.PLAYER and _signed_in(user) else None
            match, seats = lock_match_with_seats(match_id, player)
        if match is None:
            raise NotFound(_("There is no such match."))
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(
                _("This match is over.") if match.is_over else _("This match has not started.")
            )
        seat = _acting_seat(seats, user, seat_index, actor_kind)
        if actor_kind == ActorKind.PLAYER and clock.overdue(match, timezone.now()):
            # No sweep has applied the missed deadline yet: a move now would
            # beat the clock (``submit_player_action`` applies it first).
            raise TimeRanOut()
        if expected_version != match.version:
            raise StaleVersion(
                _("The game moved on while you were deciding. Here is the current position.")
            )
        game = registry.get(match.game_key)
        if seat.index not in match.seats_to_move(game):
            raise Forbidden(_("It is not your turn."))
        if choose is not None:
            action = choose(game, match.state, seat.index)
        try:
            new_state, events = game.apply(match.state, seat.index, action)
        except IllegalAction as error:
            raise ServiceError(i18n.refusal_text(error)) from None
        before = {name: getattr(match, name) for name in _MOVE_FIELDS}
        stamp_before = match.stamp
        match.state = new_state
        match.version += 1
        signals.match_moved.send(sender=Match, match=match, seats=seats, seat=seat, game=game)
        # The next players' "your turn" rows in one upsert rather than a locked
        # read and a write each (in a timeout, with the timeout's own rows).
        with notifications.batched(match):
            settle_after_change(match, game, seats, mover=seat)
        _save_changed(match, before)
        # The UPDATE bypasses ``save``: the open pages hear of it after the commit.
        changes.changed(match.pk, match.version)
        move = match_rows.insert(
            Move(
                match=match,
                seq=match.version,
                seat=seat.index,
                action=action,
                events=events,
                actor_kind=actor_kind,
                actor=user if user is not None and user.is_authenticated else None,
            )
        )
        if queue_bots:
            queue_bots_after_commit(match, game, seats)
        # Every tenth position kept for the replay and the match page's highlights.
        transaction.on_commit(partial(positions.keep, match, match.version, new_state))
    # The answer to the move is drawn from the rows just read and written; the
    # match's stamp before the move tells whether the page that posted it shows
    # the match as it was then (``selectors.page_keeps``).
    match_rows.remember_seats(match, seats)
    move.stamp_before = stamp_before
    return move


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def _acting_seat(seats: list[Seat], user, seat_index: int | None, actor_kind: str) -> Seat:
    if actor_kind == ActorKind.PLAYER:
        if user is None or not user.is_authenticated:
            raise Forbidden(_("Please log in to play."))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise Forbidden(_("You have no seat in this match."))
        if seat.status != SeatStatus.PLAYING:
            raise Forbidden(_("Your seat is no longer yours to play."))
        return seat
    seat = next((s for s in seats if s.index == seat_index), None)
    if seat is None:
        raise ServiceError(_("There is no such seat."))
    if actor_kind == ActorKind.BOT and not seat.played_by_bot:
        raise Forbidden(_("That seat is not played by a bot."))
    return seat


def settle_after_change(match: Match, game, seats: list[Seat], mover: Seat | None = None) -> None:
    """After a change of state: charge the mover's clock, then start the next
    turn's clock and tell the players to move, or close the match."""
    now = timezone.now()
    if mover is not None and clock.charge_bank(match, mover, now):
        mover.save(update_fields=["bank_left"])
    outcome = game.result(match.state)
    if outcome is not None:
        finish_match(match, seats, outcome.ranks, outcome.scores, outcome.to_json())
        return
    waiting = match.seats_to_move(game)
    clock.start_turn(match, clock.waiting_seat(match, seats, waiting), now)
    for seat in seats:
        if seat.index in waiting and not seat.played_by_bot:
            notifications.queue(
                seat.user, match, NotificationKind.YOUR_TURN, seat=seat, surely_new=True
            )


def finish_match(match: Match, seats: list[Seat], ranks, scores, result: dict) -> None:
    """Close the match: the one place every match ends (the game's own end, a
    resignation, a loss on time, a moderator's ranks).

    Seats that lost their place to the bot (too many timeouts, a resignation)
    are ranked last, below everyone who played on; the game's own ranks are
    kept as ``game_ranks``. The game's ``final_details`` of the last position
    join the result's details, so the banner can name the side that won."""
    if match.state is not None:
        extra = registry.get(match.game_key).final_details(match.state)
        if extra:
            result = {**result, "details": {**extra, **(result.get("details") or {})}}
    dropped = {
        seat.index
        for seat in seats
        if seat.status in (SeatStatus.BOT, SeatStatus.TIMED_OUT, SeatStatus.RESIGNED)
    }
    if dropped:
        game_ranks = list(ranks)
        kept = [(ranks[s.index], s.index) for s in seats if s.index not in dropped]
        new_ranks = list(ranks)
        for seat in seats:
            if seat.index in dropped:
                new_ranks[seat.index] = len(kept) + 1
            else:
                new_ranks[seat.index] = 1 + sum(1 for rank, _i in kept if rank < ranks[seat.index])
        ranks = new_ranks
        result = {**result, "ranks": ranks, "dropped": sorted(dropped), "game_ranks": game_ranks}
    match.status = MatchStatus.FINISHED
    match.deadline = None
    match.wake_at = None
    match.waiting_on = None
    # No bot is due on a finished match, whoever's move ended it.
    match.bots_due_at = None
    match.finished_at = timezone.now()
    match.result = result
    for seat in seats:
        seat.rank = ranks[seat.index]
        seat.score = scores[seat.index]
        seat.save(update_fields=["rank", "score"])
    # The one place a finished match tells the apps built on matches (the
    # ratings, tournaments, ladders: ``games.signals``).
    signals.match_ended.send(sender=Match, match=match, seats=seats)
    for seat in seats:
        if seat.user_id and seat.status not in (SeatStatus.BOT, SeatStatus.RESIGNED):
            notifications.queue(seat.user, match, NotificationKind.MATCH_FINISHED)


def leave_to_bots(match: Match, seat: Seat, status: str = SeatStatus.BOT) -> list[str]:
    """The seat's player leaves it to the bots (out of time too often, resigned,
    replaced by a moderator): from now on a bot of the match's takeover level
    plays it. Returns the fields to save."""
    seat.status = status
    seat.bot_level = match.takeover_level
    return ["status", "bot_level"]


def queue_bots_after_commit(match: Match, game, seats: list[Seat]) -> None:
    """A bot must move: record it on the row (``bots_due_at``, for the outbox
    relay, in case the hand-over is lost) and hand the match to a worker
    after the commit."""
    if match.status == MatchStatus.ACTIVE and bots.bot_seats_to_act(match, game, seats):
        match.bots_due_at = timezone.now()
        Match.objects.filter(pk=match.pk).update(bots_due_at=match.bots_due_at)
        outbox.hand_over_after_commit(PLAY_BOT_TURNS, match.pk)


def strong_budget() -> search.Budget:
    """The strong bot's budget a move, from the settings."""
    return search.Budget(
        iterations=settings.SMOKI["BOT_STRONG_ITERATIONS"],
        seconds=settings.SMOKI["BOT_STRONG_SECONDS"],
    )


def play_bot_turns(match_id: int, limit: int) -> int:
    """Let bots play while it is their turn, each move through ``submit_action``.

    Returns how many moves were played. Safe to run twice at once: the
    version check makes a duplicate attempt fail harmlessly.
    """
    played = 0
    while played < limit:
        match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
        if match is None:
            break
        game = registry.get(match.game_key)
        pending = bots.bot_seats_to_act(match, game)
        if not pending:
            # Done: nothing for the relay, unless a move since made bots due again.
            Match.objects.filter(pk=match_id, version=match.version).update(bots_due_at=None)
            break
        seat = pending[0]
        # Nothing is written before submit_action: a worker killed during the
        # search loses nothing, and the task (acks late) or the relay
        # (bots_due_at) asks again from the stored position.
        action = bots.choose_action(match, game, seat, strong_budget())
        try:
            submit_action(
                match,
                None,
                action,
                match.version,
                seat_index=seat.index,
                actor_kind=ActorKind.BOT,
                queue_bots=False,
            )
        except StaleVersion:
            continue
        played += 1
    return played


# The missed deadline: the sweep (``games.play.timeouts``), a player's late move
# and a moderator's forced timeout all apply it here.

#: The timed-out move is the heuristic's, made at once inside the sweep.
NO_SEARCH = search.Budget(iterations=0, seconds=0)


def time_out(match_id: int, now=None) -> bool:
    """Apply a missed deadline to one match, in its own transaction, if it is
    still missed under the lock. Returns whether it was applied (False: another
    sweeper holds the row, or the deadline has been met or moved since).

    The match is read as the sweep reads it (``match_rows.read``, skipping a
    held row and a match no longer due)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = match_rows.read(match_id, lock=True, skip_locked=True, due_by=now)
        if match is None or not clock.overdue(match, now):
            return False
        match_rows.remember_seats(match, seats)
        game = registry.get(match.game_key)
        seat = clock.waiting_seat(match, seats, match.seats_to_move(game))
        if seat is None:
            return False
        apply_timeout(match, game, seats, seat, now)
        return True


def seats_yet_to_move(match: Match, seats: list[Seat]) -> list[int]:
    """The seats that have not yet moved themselves: no move of their player
    (a bot seated from the start counts its own moves), whatever the clock
    or a bot taking the seat over played for them. One query."""
    played = set(
        Move.objects.filter(
            match=match, seq__gt=0, actor_kind__in=[ActorKind.PLAYER, ActorKind.BOT]
        )
        .exclude(action__type=MODERATION)
        .values_list("seat", "actor_kind")
        .distinct()
    )
    return [
        seat.index
        for seat in seats
        if (seat.index, ActorKind.PLAYER) not in played
        and not (seat.user_id is None and (seat.index, ActorKind.BOT) in played)
    ]


def ends_early(match: Match, seats: list[Seat]) -> bool:
    """Would a resignation or a loss on time now end the match before each
    seat has moved? Such a match is aborted rather than finished (``abort_early``)."""
    return match.n_seats == 2 and bool(seats_yet_to_move(match, seats))


def abort_early(match: Match, seats: list[Seat], seat: Seat, how: str) -> None:
    """End a match that ``seat`` ended (``how``: "resigned", "time") before
    each seat had moved: aborted, so nobody's rating changes, as lichess and
    Board Game Arena abort a game left before both sides moved (a second
    account resigning at once must not feed a rating). The result says who
    ended it, for the end banner, the log, and the ladders and tournaments,
    which score it as that seat's forfeit (``Match.ended_early_by``)."""
    match.status = MatchStatus.ABORTED
    match.finished_at = timezone.now()
    match.deadline = match.wake_at = match.waiting_on = match.bots_due_at = None
    match.undo_request = None
    match.result = {
        "ranks": [],
        "scores": [],
        "details": {"reason": EARLY_END, "ended": how, "seat": seat.index},
    }
    signals.match_ended.send(sender=Match, match=match, seats=seats)
    for other in seats:
        if other.user_id and other.index != seat.index and not other.is_bot:
            notifications.queue(other.user, match, NotificationKind.MATCH_FINISHED)


def lose_on_time(match: Match, seats: list[Seat], seat: Seat, details: dict) -> None:
    """End a two-player match with ``seat`` ranked last (loss on time), or
    abort it if it ends before each seat has moved (``abort_early``)."""
    seat.status = SeatStatus.TIMED_OUT
    seat.save(update_fields=["status"])
    if ends_early(match, seats):
        how = "deactivated" if details.get("reason") == "deactivated" else "time"
        match.version += 1
        entry = {"type": MODERATION, "op": "early_abort", "seat": seat.index, "ended": how}
        Move.objects.create(
            match=match,
            seq=match.version,
            seat=seat.index,
            action=entry,
            events=[entry],
            actor_kind=ActorKind.TIMEOUT,
        )
        abort_early(match, seats, seat, how)
        match.save()
        return
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
    changed = ["strikes"]
    if seat.strikes >= STRIKES_BEFORE_BOT:
        changed += leave_to_bots(match, seat)
    # The statement kept once per process (as the move's own writes), not
    # an UPDATE built by the ORM for each timed-out seat of a sweep.
    match_rows.update(seat, changed)
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
