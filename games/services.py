"""Every write to a match goes through here: players, bots, the clock, moderators.

``submit_action`` is the road every move travels: one short transaction, the
match row locked, the seat and the version checked, the pure rules applied,
the new state saved with its version bumped and the move appended to the log.
Follow-up work (bots, notifications) is queued with ``transaction.on_commit``
so it only ever sees committed moves.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import bots, clock, i18n, notifications
from games.engine import registry
from games.engine.base import IllegalAction, resolve_options
from games.engine.replay import OPENING
from games.engine.rng import seed_hash
from games.models import (
    STRIKES_BEFORE_BOT,
    ActorKind,
    Invitation,
    Match,
    MatchStatus,
    Move,
    Notification,
    NotificationKind,
    Seat,
    SeatStatus,
    TimeoutPolicy,
    Visibility,
)


class ServiceError(Exception):
    """A refused request. ``status`` is the HTTP status a view answers with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class StaleVersion(Conflict):
    """The player acted on a position that is no longer current."""


# -- Creating, joining and starting matches ---------------------------------


def create_match(
    *,
    user,
    game_key: str,
    n_seats: int,
    options: dict[str, Any] | None = None,
    visibility: str = Visibility.PUBLIC,
    time_per_move: timedelta = timedelta(days=3),
    time_bank: timedelta = timedelta(0),
    time_bank_increment: timedelta = timedelta(0),
    timeout_policy: str = TimeoutPolicy.BOT_STRIKES,
) -> Match:
    try:
        game = registry.get(game_key)
    except KeyError:
        raise ServiceError(_("There is no such game.")) from None
    if not game.min_players <= n_seats <= game.max_players:
        raise ServiceError(
            _("%(title)s is for %(min)d to %(max)d players.")
            % {"title": game.title, "min": game.min_players, "max": game.max_players}
        )
    try:
        options = resolve_options(game, options)
    except IllegalAction as error:
        raise ServiceError(i18n.refusal_text(error)) from None
    refusal = game.validate_setup(n_seats, options)
    if refusal:
        raise ServiceError(i18n.translate(refusal))
    if timeout_policy not in TimeoutPolicy.values:
        raise ServiceError(_("Unknown timeout policy."))
    if timeout_policy == TimeoutPolicy.LOSS and n_seats != 2:
        raise ServiceError(_("Loss on time is only for two-player matches."))
    if min(time_per_move, time_bank, time_bank_increment) < timedelta(0):
        raise ServiceError(_("Times cannot be negative."))
    seed = secrets.token_hex(16)
    with transaction.atomic():
        match = Match.objects.create(
            game_key=game.key,
            rules_version=game.rules_version,
            options=options,
            n_seats=n_seats,
            seed=seed,
            seed_hash=seed_hash(seed),
            visibility=visibility,
            time_per_move=time_per_move,
            time_bank=time_bank,
            time_bank_increment=time_bank_increment,
            timeout_policy=timeout_policy,
            invite_token=secrets.token_urlsafe(12),
            created_by=user,
        )
        Seat.objects.create(match=match, index=0, user=user)
    return match


def lock_match(match: Match) -> Match:
    return Match.objects.select_for_update(no_key=True).get(pk=match.pk)


def _require_open(match: Match) -> None:
    if match.status != MatchStatus.OPEN:
        raise Conflict(_("This match has already started or ended."))


def join_match(*, user, match: Match, token: str | None = None) -> Seat:
    """Take the next free seat. Private matches need an invitation or the link's token."""
    with transaction.atomic():
        match = lock_match(match)
        _require_open(match)
        if match.seats.filter(user=user).exists():
            raise Conflict(_("You already have a seat in this match."))
        if match.visibility == Visibility.PRIVATE and not (
            (token and secrets.compare_digest(token, match.invite_token))
            or match.invitations.filter(invited_user=user).exists()
        ):
            raise Forbidden(_("This match is private: you need an invitation."))
        taken = match.seats.count()
        if taken >= match.n_seats:
            raise Conflict(_("This match is full."))
        try:
            seat = Seat.objects.create(match=match, index=taken, user=user)
        except IntegrityError:
            raise Conflict(_("That seat was just taken; try again.")) from None
        if taken + 1 == match.n_seats:
            _start(match)
        else:
            match.save(update_fields=["updated_at"])  # open pages see the new player
    return seat


def leave_match(*, user, match: Match) -> None:
    """Give up a seat before the start. The last human to leave aborts the match."""
    with transaction.atomic():
        match = lock_match(match)
        _require_open(match)
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise Conflict(_("You have no seat in this match."))
        seat.delete()
        remaining = list(match.seats.order_by("index"))
        if not any(s.user_id for s in remaining):
            match.status = MatchStatus.ABORTED
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "finished_at", "updated_at"])
            return
        for new_index, other in enumerate(remaining):
            if other.index != new_index:
                Seat.objects.filter(pk=other.pk).update(index=new_index)
        match.save(update_fields=["updated_at"])


def invite_user(*, user, match: Match, username: str) -> Invitation:
    """Invite a player by username to a match that is still gathering players."""
    User = get_user_model()
    if not match.seats.filter(user=user).exists():
        raise Forbidden(_("Only players in this match can invite others."))
    _require_open(match)
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise ServiceError(_("No player is called “%(name)s”.") % {"name": username})
    if match.seats.filter(user=invitee).exists():
        raise Conflict(_("%(name)s already has a seat.") % {"name": invitee.username})
    with transaction.atomic():
        invitation, created = Invitation.objects.get_or_create(
            match=match, invited_user=invitee, defaults={"invited_by": user}
        )
        if created:
            notifications.queue(invitee, match, NotificationKind.INVITATION, version=0)
    return invitation


def fill_with_bots(*, user, match: Match, level: str = "heuristic") -> None:
    """The creator fills every empty seat with a bot; the match then starts."""
    if level not in bots.LEVELS:
        raise ServiceError(_("Unknown bot level."))
    with transaction.atomic():
        match = lock_match(match)
        _require_open(match)
        if match.created_by_id != user.pk:
            raise Forbidden(_("Only the player who created the match can add bots."))
        taken = match.seats.count()
        for index in range(taken, match.n_seats):
            Seat.objects.create(match=match, index=index, is_bot=True, bot_level=level)
        _start(match)


def _start(match: Match) -> None:
    """Deal the game from the match's seed. Called inside the locking transaction."""
    game = registry.get(match.game_key)
    match.state = game.setup(match.n_seats, match.options, match.seed)
    match.status = MatchStatus.ACTIVE
    match.started_at = timezone.now()
    match.version = 0
    Move.objects.create(
        match=match,
        seq=0,
        seat=None,
        action={"type": OPENING},
        events=game.opening_events(match.state),
        actor_kind=ActorKind.GAME,
    )
    Seat.objects.filter(match=match).update(bank_left=match.time_bank)
    seats = seats_of(match)
    for seat in seats:
        if not seat.played_by_bot:
            notifications.queue(seat.user, match, NotificationKind.MATCH_STARTED)
    _settle_after_change(match, game, seats)
    match.save()
    queue_bots_after_commit(match, game, seats)


# -- Playing -----------------------------------------------------------------


def submit_action(
    match: Match,
    user,
    action: Any,
    expected_version: int,
    *,
    seat_index: int | None = None,
    actor_kind: str = ActorKind.PLAYER,
    queue_bots: bool = True,
) -> Move:
    """Apply one action for a seat, exactly once, or refuse and change nothing.

    Players are identified by ``user``; bots, the clock and moderators pass
    ``seat_index`` and their ``actor_kind`` (``user`` is then the moderator or
    None). The bot loop passes ``queue_bots=False`` because it carries on by
    itself. Raises ``ServiceError`` subclasses with a message for the player.
    """
    with transaction.atomic():
        match = lock_match(match)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(
                _("This match is over.") if match.is_over else _("This match has not started.")
            )
        seats = seats_of(match)
        seat = _acting_seat(seats, user, seat_index, actor_kind)
        if expected_version != match.version:
            raise StaleVersion(
                _("The game moved on while you were deciding. Here is the current position.")
            )
        game = registry.get(match.game_key)
        if seat.index not in game.current_seats(match.state):
            raise Forbidden(_("It is not your turn."))
        try:
            new_state, events = game.apply(match.state, seat.index, action)
        except IllegalAction as error:
            raise ServiceError(i18n.refusal_text(error)) from None
        match.state = new_state
        match.version += 1
        _settle_after_change(match, game, seats, mover=seat)
        match.save()
        move = Move.objects.create(
            match=match,
            seq=match.version,
            seat=seat.index,
            action=action,
            events=events,
            actor_kind=actor_kind,
            actor=user if user is not None and user.is_authenticated else None,
        )
        if queue_bots:
            queue_bots_after_commit(match, game, seats)
    return move


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


def seats_of(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user__profile").order_by("index"))


def _settle_after_change(match: Match, game, seats: list[Seat], mover: Seat | None = None) -> None:
    """After a change of state: charge the mover's clock, then start the next
    turn's clock and tell the players to move, or close the match."""
    now = timezone.now()
    if mover is not None and clock.charge_bank(match, mover, now):
        mover.save(update_fields=["bank_left"])
    outcome = game.result(match.state)
    if outcome is not None:
        finish_match(match, seats, outcome.ranks, outcome.scores, outcome.to_json())
        return
    waiting = game.current_seats(match.state)
    clock.start_turn(match, clock.waiting_seat(match, seats, waiting), now)
    for seat in seats:
        if seat.index in waiting and not seat.played_by_bot:
            notifications.queue(
                seat.user, match, NotificationKind.YOUR_TURN, seat=seat, surely_new=True
            )


def finish_match(match: Match, seats: list[Seat], ranks, scores, result: dict) -> None:
    """Close the match. Seats that lost their place to the bot after too many
    timeouts are ranked last, below everyone who played on."""
    dropped = {
        seat.index for seat in seats if seat.status in (SeatStatus.BOT, SeatStatus.TIMED_OUT)
    }
    if dropped:
        kept = [(ranks[s.index], s.index) for s in seats if s.index not in dropped]
        new_ranks = list(ranks)
        for seat in seats:
            if seat.index in dropped:
                new_ranks[seat.index] = len(kept) + 1
            else:
                new_ranks[seat.index] = 1 + sum(1 for rank, _i in kept if rank < ranks[seat.index])
        ranks = new_ranks
        result = {**result, "ranks": ranks, "dropped": sorted(dropped)}
    match.status = MatchStatus.FINISHED
    match.deadline = None
    match.wake_at = None
    match.waiting_on = None
    match.finished_at = timezone.now()
    match.result = result
    for seat in seats:
        seat.rank = ranks[seat.index]
        seat.score = scores[seat.index]
        seat.save(update_fields=["rank", "score"])
        if seat.user_id and seat.status != SeatStatus.BOT:
            notifications.queue(seat.user, match, NotificationKind.MATCH_FINISHED)


def queue_bots_after_commit(match: Match, game, seats: list[Seat]) -> None:
    if match.status == MatchStatus.ACTIVE and bots.bot_seats_to_act(match, game, seats):
        match_id = match.pk
        transaction.on_commit(lambda: _queue_bot_turns(match_id))


def _queue_bot_turns(match_id: int) -> None:
    from games.tasks import play_bot_turns

    play_bot_turns.delay(match_id)


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
            break
        seat = pending[0]
        action = bots.choose_action(match, game, seat)
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


def record_visit(match: Match, user) -> None:
    """The player opened the match page: no "your turn" email for a few minutes.
    Background polls do not count, so a forgotten tab does not silence email."""
    if user is not None and user.is_authenticated:
        Seat.objects.filter(match=match, user=user).update(last_seen_at=timezone.now())


def unsubscribe(user_id: int, field: str) -> None:
    """Stop one kind of email (or all, ``field == "all"``) for a user."""
    from accounts.models import Delivery, Profile

    fields = sorted(set(notifications.PREFERENCE_FIELD.values())) if field == "all" else [field]
    Profile.objects.filter(user_id=user_id).update(**{name: Delivery.NEVER for name in fields})


def vacation_days_used(user, year: int) -> int:
    """Whole days of vacation declared in ``year`` (a started day counts)."""
    from accounts.models import VacationPeriod

    total = timedelta(0)
    start_of_year = timezone.make_aware(datetime(year, 1, 1))
    end_of_year = timezone.make_aware(datetime(year + 1, 1, 1))
    for period in VacationPeriod.objects.filter(
        user=user, ends_at__gt=start_of_year, starts_at__lt=end_of_year
    ):
        total += min(period.ends_at, end_of_year) - max(period.starts_at, start_of_year)
    return -(-int(total.total_seconds()) // 86400)


def start_vacation(user, days: int) -> None:
    """Stop this player's clocks in every match for ``days`` days."""
    from accounts.models import VACATION_DAYS_PER_YEAR, VacationPeriod

    now = timezone.now()
    profile = user.profile
    if profile.vacation_until and profile.vacation_until > now:
        raise Conflict(_("You are already on vacation."))
    left = VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
    if not 1 <= days <= left:
        raise ServiceError(
            _("You can take 1 to %(left)d more vacation days this year.") % {"left": left}
        )
    until = now + timedelta(days=days)
    with transaction.atomic():
        profile.vacation_until = until
        profile.save(update_fields=["vacation_until"])
        VacationPeriod.objects.create(user=user, starts_at=now, ends_at=until)
        _shift_waiting_clocks(user, until - now, now)


def end_vacation(user) -> None:
    """Come back early: the clocks run again from now."""
    from accounts.models import VacationPeriod

    now = timezone.now()
    profile = user.profile
    until = profile.vacation_until
    if until is None or until <= now:
        raise Conflict(_("You are not on vacation."))
    with transaction.atomic():
        _shift_waiting_clocks(user, -(until - now), now)
        profile.vacation_until = now
        profile.save(update_fields=["vacation_until"])
        VacationPeriod.objects.filter(user=user, ends_at=until).update(ends_at=now)


def _shift_waiting_clocks(user, shift: timedelta, now) -> None:
    """Pause (or resume) the clock of every turn this player is to move in."""
    match_ids = Match.objects.filter(
        status=MatchStatus.ACTIVE, seats__user=user, seats__status=SeatStatus.PLAYING
    ).values_list("pk", flat=True)
    for match in Match.objects.select_for_update(no_key=True).filter(pk__in=list(match_ids)):
        game = registry.get(match.game_key)
        seats = seats_of(match)
        seat = clock.waiting_seat(match, seats, game.current_seats(match.state))
        if seat is None or seat.user_id != user.pk:
            continue
        match.turn_paused = max(timedelta(0), match.turn_paused + shift)
        clock.refresh(match, seat, now)
        match.save(update_fields=["turn_paused", "deadline", "wake_at", "updated_at"])


def mark_notifications_read(user) -> None:
    Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())


# -- The clock's sweep ----------------------------------------------------------


def due_match_ids(now, limit: int = 1000) -> list[int]:
    """Active matches the sweep must look at now (uses the wake_at partial index)."""
    return list(
        Match.objects.filter(status=MatchStatus.ACTIVE, wake_at__isnull=False, wake_at__lte=now)
        .order_by("wake_at")
        .values_list("pk", flat=True)[:limit]
    )


def wake_match(match_id: int, now=None) -> str:
    """Send due reminders and apply the timeout policy for one match.

    Runs in its own transaction and skips a match whose row another sweeper
    or a player's move holds, so nothing is done twice; the conditions are
    checked again under the lock, so a move that committed first wins.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(skip_locked=True, no_key=True)
            .filter(pk=match_id, status=MatchStatus.ACTIVE, wake_at__lte=now)
            .first()
        )
        if match is None:
            return "skipped"
        game = registry.get(match.game_key)
        seats = seats_of(match)
        seat = clock.waiting_seat(match, seats, game.current_seats(match.state))
        if seat is None:
            match.wake_at = None
            match.save(update_fields=["wake_at"])
            return "nobody to move"
        for hours, when in clock.reminder_times(match, seat):
            if when <= now:
                notifications.queue(
                    seat.user, match, NotificationKind.REMINDER, tag=f"{hours}h", seat=seat
                )
        if match.deadline is not None and match.deadline <= now:
            apply_timeout(match, game, seats, seat, now)
            return "timed out"
        clock.refresh(match, seat, now)
        match.save(update_fields=["wake_at", "deadline"])
        return "reminded"


def loses_on_time(match: Match) -> bool:
    return match.timeout_policy == TimeoutPolicy.LOSS and match.n_seats == 2


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
    """The seat missed its deadline: apply the match's timeout policy."""
    if seat.user_id:
        notifications.queue(seat.user, match, NotificationKind.TIMED_OUT, seat=seat)
    if loses_on_time(match):
        lose_on_time(match, seats, seat, {"reason": "time", "timed_out": seat.index})
        return
    seat.strikes += 1
    if seat.strikes >= STRIKES_BEFORE_BOT:
        seat.status = SeatStatus.BOT
    seat.save(update_fields=["strikes", "status"])
    action = bots.choose_action(match, game, seat)
    submit_action(
        match, None, action, match.version, seat_index=seat.index, actor_kind=ActorKind.TIMEOUT
    )


def sweep(now=None, limit: int = 1000) -> dict[str, int]:
    """One pass of the beat's minute sweep. Returns counts by outcome."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {}
    for match_id in due_match_ids(now, limit):
        outcome = wake_match(match_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
