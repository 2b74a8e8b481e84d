"""Every write to a match goes through here: players, bots, the clock, moderators.

``submit_action`` is the road every move travels: one short transaction, the
match row locked, the seat and the version checked, the pure rules applied,
the new state saved with its version bumped and the move appended to the log.
Follow-up work (bots, notifications) is queued with ``transaction.on_commit``
so it only ever sees committed moves.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import bots
from games.engine import registry
from games.engine.base import IllegalAction, resolve_options
from games.engine.rng import seed_hash
from games.models import (
    ActorKind,
    Invitation,
    Match,
    MatchStatus,
    Move,
    Seat,
    SeatStatus,
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
        raise ServiceError(error.message) from None
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
            invite_token=secrets.token_urlsafe(12),
            created_by=user,
        )
        Seat.objects.create(match=match, index=0, user=user)
    return match


def _lock(match: Match) -> Match:
    return Match.objects.select_for_update(no_key=True).get(pk=match.pk)


def _require_open(match: Match) -> None:
    if match.status != MatchStatus.OPEN:
        raise Conflict(_("This match has already started or ended."))


def join_match(*, user, match: Match, token: str | None = None) -> Seat:
    """Take the next free seat. Private matches need an invitation or the link's token."""
    with transaction.atomic():
        match = _lock(match)
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
    return seat


def leave_match(*, user, match: Match) -> None:
    """Give up a seat before the start. The last human to leave aborts the match."""
    with transaction.atomic():
        match = _lock(match)
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
    invitation, _created = Invitation.objects.get_or_create(
        match=match, invited_user=invitee, defaults={"invited_by": user}
    )
    return invitation


def fill_with_bots(*, user, match: Match, level: str = "heuristic") -> None:
    """The creator fills every empty seat with a bot; the match then starts."""
    if level not in bots.LEVELS:
        raise ServiceError(_("Unknown bot level."))
    with transaction.atomic():
        match = _lock(match)
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
    _settle_after_change(match, game)
    match.save()
    _after_commit(match, game)


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
        match = _lock(match)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(
                _("This match is over.") if match.is_over else _("This match has not started.")
            )
        seat = _acting_seat(match, user, seat_index, actor_kind)
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
            raise ServiceError(error.message) from None
        match.state = new_state
        match.version += 1
        _settle_after_change(match, game)
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
            _after_commit(match, game)
    return move


def _acting_seat(match: Match, user, seat_index: int | None, actor_kind: str) -> Seat:
    if actor_kind == ActorKind.PLAYER:
        if user is None or not user.is_authenticated:
            raise Forbidden(_("Please log in to play."))
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise Forbidden(_("You have no seat in this match."))
        if seat.status != SeatStatus.PLAYING:
            raise Forbidden(_("Your seat is no longer yours to play."))
        return seat
    seat = match.seats.filter(index=seat_index).first()
    if seat is None:
        raise ServiceError(_("There is no such seat."))
    if actor_kind == ActorKind.BOT and not seat.played_by_bot:
        raise Forbidden(_("That seat is not played by a bot."))
    return seat


def _settle_after_change(match: Match, game) -> None:
    """Set the clock, or close the match and record ranks if the game has ended."""
    outcome = game.result(match.state)
    if outcome is None:
        match.deadline = timezone.now() + match.time_per_move
        return
    match.status = MatchStatus.FINISHED
    match.deadline = None
    match.finished_at = timezone.now()
    match.result = outcome.to_json()
    for seat in match.seats.all():
        seat.rank = outcome.ranks[seat.index]
        seat.score = outcome.scores[seat.index]
        seat.save(update_fields=["rank", "score"])


def _after_commit(match: Match, game) -> None:
    if match.status == MatchStatus.ACTIVE and bots.bot_seats_to_act(match, game):
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
