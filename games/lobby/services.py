"""The lobby's writes: creating, joining, leaving and starting matches,
filling seats with bots, "Play a bot now" and rematches (invitations are
``games.lobby.invitations``).

Writes before the first move. ``join_match`` and ``fill_with_bots`` start the
match when its last seat is taken: the opening deal or roll is logged as move
0, ``games.signals.match_started`` is sent and the first turn is handed over
to the move path in ``games.play.services``."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors import is_blocked_by_any
from core.errors import Conflict, Forbidden, ServiceError
from games import i18n, signals
from games.dispatch import notifications
from games.engine import bots, registry
from games.engine.base import IllegalAction, resolve_options
from games.engine.replay import OPENING
from games.engine.rng import seed_hash
from games.lobby.invitations import (
    count_invitation,
    invite_user,
    require_may_invite,
    require_open,
    withdraw_invitations,
)
from games.models import (
    ActorKind,
    Invitation,
    Match,
    MatchStatus,
    Move,
    NotificationKind,
    Seat,
    TakeoverLevel,
    TimeoutPolicy,
    Visibility,
)
from games.play import bot_accounts, friendship, reliability, standing
from games.play.services import lock_match, queue_bots_after_commit, seats_of, settle_after_change

#: The refusal of a private rated match, in the form and the service alike.
PRIVATE_RATED = gettext_lazy(
    "A private match cannot be rated: only matches anyone could join count for "
    "ratings. Make it public, or untick Rated."
)
#: The same for a match only the creator's friends may join.
FRIENDS_RATED = gettext_lazy(
    "A match for friends only cannot be rated: only matches anyone could join "
    "count for ratings. Make it public, or untick Rated."
)


def unrated_refusal(visibility: str) -> str | None:
    """Why a match of ``visibility`` may not be rated (None for a public one):
    its players chose each other, so a second account could feed a rating."""
    if visibility == Visibility.PRIVATE:
        return str(PRIVATE_RATED)
    if visibility == Visibility.FRIENDS:
        return str(FRIENDS_RATED)
    return None


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
    takeover_level: str = TakeoverLevel.HEURISTIC,
    rated: bool | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    ladder_challenge: bool = False,
    vacation_allowed: bool = True,
    weekend_pause: bool = False,
    min_reliability: int | None = None,
    capped: bool = True,
) -> Match:
    """Open a match with its creator in the first seat. ``rated`` defaults to
    rated for public matches (a bot filling a seat makes it unrated later);
    an optional rating range limits who may join. ``takeover_level``: the bot
    that plays a seat its player leaves to the bots.

    A private match is never rated (its players chose each other, so a
    second account could feed a rating): asking for one is refused, but for
    a ladder challenge's match (``ladder_challenge``, docs/ratings.md).

    ``min_reliability``: the share of finished matches a joiner must have
    completed (``games.play.reliability``). ``capped``: the creator is held
    to their number of matches at once (not for a tournament's table or a
    match against the bots, docs/correspondence.md)."""
    if takeover_level not in TakeoverLevel.values:
        raise ServiceError(_("Unknown bot level."))
    if rated and unrated_refusal(visibility) and not ladder_challenge:
        raise ServiceError(unrated_refusal(visibility))
    if visibility not in Visibility.values:
        raise ServiceError(_("Unknown visibility."))
    game, options = checked_setup(
        game_key=game_key,
        n_seats=n_seats,
        options=options,
        timeout_policy=timeout_policy,
        times=(time_per_move, time_bank, time_bank_increment),
    )
    if rated is None:
        rated = visibility == Visibility.PUBLIC or ladder_challenge
    _check_rating_range(min_rating, max_rating)
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ServiceError(_("A minimum reliability is a percentage from 0 to 100."))
    if capped:
        reliability.require_room(user)
    seed = secrets.token_hex(16)
    with transaction.atomic():
        match = Match.objects.create(
            rated=rated,
            min_rating=min_rating,
            max_rating=max_rating,
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
            takeover_level=takeover_level,
            vacation_allowed=vacation_allowed,
            weekend_pause=weekend_pause,
            min_reliability=min_reliability or None,
            invite_token=secrets.token_urlsafe(12),
            created_by=user,
        )
        Seat.objects.create(match=match, index=0, user=user)
    return match


def challenge(*, user, username: str, **create) -> Match:
    """A new match (``create_match``'s settings) with ``username`` invited at
    once: the "Challenge" of a player's page. The invitation is
    ``invitations.invite_user``'s, with its blocks, the invitee's own rule and
    the limits; when it is refused, so is the match, and nothing is created."""
    with transaction.atomic():
        match = create_match(user=user, **create)
        invite_user(user=user, match=match, username=username)
    return match


def checked_setup(*, game_key: str, n_seats: int, options, timeout_policy: str, times) -> tuple:
    """The game and its resolved options, or a ``ServiceError`` saying what is
    wrong: shared by new matches and new tournaments (``tournaments.services``)."""
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
    if min(times) < timedelta(0):
        raise ServiceError(_("Times cannot be negative."))
    return game, options


def start_table(*, users: list, game_key: str, **create) -> Match:
    """A match with ``users`` in its seats, in order, started at once: a
    tournament's table. Nobody joins, so blocks and rating ranges do not
    apply (the pairing chose the players); ``create`` is ``create_match``'s."""
    with transaction.atomic():
        match = create_match(
            user=users[0], game_key=game_key, n_seats=len(users), capped=False, **create
        )
        for index, user in enumerate(users[1:], start=1):
            Seat.objects.create(match=match, index=index, user=user)
        _start(match)
    return match


RATING_BOUNDS = (0, 4000)


def _check_rating_range(low: int | None, high: int | None) -> None:
    for value in (low, high):
        if value is not None and not RATING_BOUNDS[0] <= value <= RATING_BOUNDS[1]:
            raise ServiceError(
                _("A rating range lies between %(low)d and %(high)d.")
                % {"low": RATING_BOUNDS[0], "high": RATING_BOUNDS[1]}
            )
    if low is not None and high is not None and low > high:
        raise ServiceError(_("The lowest rating must not be above the highest."))


def _check_may_join(match: Match, user) -> None:
    """Refuse a joiner whom a seated player blocked (in words that do not say
    so), who already plays as many matches at once as they may, whose
    reliability record is below the match's minimum, or whose rating for the
    game is outside the match's range."""
    seated = list(match.seats.exclude(user=None).values_list("user_id", flat=True))
    if is_blocked_by_any(user.pk, seated):
        raise Forbidden(_("This match is not open to you."))
    reliability.require_room(user)
    reliability.require_minimum(user, match.min_reliability)
    if match.min_rating is None and match.max_rating is None:
        return
    rating = standing.rating_of(user.pk, match.game_key)
    if (match.min_rating is not None and rating < match.min_rating) or (
        match.max_rating is not None and rating > match.max_rating
    ):
        raise Forbidden(
            _("This match is for players rated %(low)s to %(high)s; your rating is %(rating)d.")
            % {
                "low": match.min_rating if match.min_rating is not None else "…",
                "high": match.max_rating if match.max_rating is not None else "…",
                "rating": rating,
            }
        )


def _free_indices(match: Match) -> list[int]:
    used = set(match.seats.values_list("index", flat=True))
    return [index for index in range(match.n_seats) if index not in used]


def rotated(index: int, n_seats: int) -> int:
    """A seat's place in a rematch: every seat moves one on (the last to the
    first), so in two-player games the sides swap (Drako's dragon, who starts)
    and in larger ones everyone sits elsewhere."""
    return (index + 1) % n_seats


def _seat_for(match: Match, user, free: list[int]) -> int:
    """The first free seat, or in a rematch the seat after the one this player had."""
    if match.rematch_of_id:
        before = (
            Seat.objects.filter(match_id=match.rematch_of_id, user=user)
            .values_list("index", flat=True)
            .first()
        )
        if before is not None and rotated(before, match.n_seats) in free:
            return rotated(before, match.n_seats)
    return free[0]


def join_match(*, user, match: Match, token: str | None = None) -> Seat:
    """Take the next free seat. Private matches need an invitation or the
    link's token; a match for friends only, that or the creator's friendship
    (``games.play.friendship``). A block by a seated player refuses all the
    same (``_check_may_join``)."""
    with transaction.atomic():
        match = lock_match(match)
        require_open(match)
        if match.seats.filter(user=user).exists():
            raise Conflict(_("You already have a seat in this match."))
        if match.visibility == Visibility.PRIVATE and not (
            (token and secrets.compare_digest(token.encode(), match.invite_token.encode()))
            or match.invitations.filter(invited_user=user).exists()
        ):
            raise Forbidden(_("This match is private: you need an invitation."))
        if match.visibility == Visibility.FRIENDS and not (
            (token and secrets.compare_digest(token.encode(), match.invite_token.encode()))
            or match.invitations.filter(invited_user=user).exists()
            or friendship.are_friends(match.created_by_id, user.pk)
        ):
            raise Forbidden(_("Only the friends of this match's creator may join it."))
        _check_may_join(match, user)
        bot_accounts.require_may_take_seat(match, user)
        free = _free_indices(match)
        if not free:
            raise Conflict(_("This match is full."))
        try:
            seat = Seat.objects.create(match=match, index=_seat_for(match, user, free), user=user)
        except IntegrityError:
            raise Conflict(_("That seat was just taken; try again.")) from None
        if len(free) == 1:
            _start(match)
        else:
            match.save(update_fields=["updated_at"])  # open pages see the new player
    return seat


def leave_match(*, user, match: Match) -> None:
    """Give up a seat before the start. The last human to leave aborts the match."""
    with transaction.atomic():
        match = lock_match(match)
        require_open(match)
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
            if match.rematch_of_id:
                break  # a rematch keeps every player's (rotated) seat from the match before
            if other.index != new_index:
                Seat.objects.filter(pk=other.pk).update(index=new_index)
        match.save(update_fields=["updated_at"])


def abort_unstarted(match: Match) -> None:
    """End a match nobody will play before it started (the caller holds its
    lock): aborted as when its last player leaves, its invitations withdrawn."""
    if match.status != MatchStatus.OPEN:
        return
    match.status = MatchStatus.ABORTED
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "finished_at", "updated_at"])
    withdraw_invitations(match)


def fill_with_bots(*, user, match: Match, level: str = "heuristic") -> None:
    """The creator fills every empty seat with a bot; the match then starts.

    Only while the creator still has a seat: one who left has no say in a
    match that goes on without them (the page shows them no such button).
    """
    if level not in bots.LEVELS:
        raise ServiceError(_("Unknown bot level."))
    with transaction.atomic():
        match = lock_match(match)
        require_open(match)
        if match.created_by_id != user.pk:
            raise Forbidden(_("Only the player who created the match can add bots."))
        if not match.seats.filter(user=user).exists():
            raise Forbidden(_("You left this match, so you can no longer start it."))
        for index in _free_indices(match):
            Seat.objects.create(match=match, index=index, is_bot=True, bot_level=level)
        # Ratings compare people: a match with a bot in a seat is unrated.
        match.rated = False
        _start(match)


#: The clock of a match against a bot: a newcomer learning the game is in no hurry.
PLAY_BOT_TIME_PER_MOVE = timedelta(days=7)


def play_bot(*, user, game_key: str, level: str) -> Match:
    """A private two-player match (or the game's fewest players) against bots of
    ``level``, with the game's default options and a relaxed clock; started at once."""
    if level not in bots.LEVELS:
        raise ServiceError(_("Unknown bot level."))
    try:
        game = registry.get(game_key)
    except KeyError:
        raise ServiceError(_("There is no such game.")) from None
    with transaction.atomic():
        match = create_match(
            user=user,
            game_key=game_key,
            n_seats=max(2, game.min_players),
            visibility=Visibility.PRIVATE,
            time_per_move=PLAY_BOT_TIME_PER_MOVE,
            rated=False,
            capped=False,
        )
        fill_with_bots(user=user, match=match, level=level)
    return match


def rematch(*, user, match: Match) -> Match:
    """The same game again: same players, options and clock, invitation only.

    The seats rotate (``rotated``): the player asking takes the seat after
    their old one, bots likewise, and the other players are invited back,
    each to the seat after theirs. A second request returns the rematch
    already made.

    Each invitation is one as ``invitations.invite_user`` sends: refused,
    and the rematch with it, when a player does not take invitations from
    the one asking (a block), in the same neutral words; and counted against
    the invitation limits, so asking, leaving the rematch (which aborts it)
    and asking again cannot send a stream of emails.
    """
    with transaction.atomic():
        original = lock_match(match)
        if original.status != MatchStatus.FINISHED:
            raise Conflict(_("A rematch can only follow a finished match."))
        seats = seats_of(original)
        mine = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
        if mine is None:
            raise Forbidden(_("Only the players of this match can ask for a rematch."))
        existing = original.rematches.exclude(status=MatchStatus.ABORTED).order_by("-pk").first()
        if existing is not None:
            return existing
        invited = [s.user for s in seats if not s.is_bot and s.user_id not in (None, user.pk)]
        for invitee in invited:
            require_may_invite(user, invitee)
        for invitee in invited:
            count_invitation(user, invitee)
        new = create_match(
            user=user,
            game_key=original.game_key,
            n_seats=original.n_seats,
            options=original.options,
            visibility=Visibility.PRIVATE,
            time_per_move=original.time_per_move,
            time_bank=original.time_bank,
            time_bank_increment=original.time_bank_increment,
            timeout_policy=original.timeout_policy,
            takeover_level=original.takeover_level,
            vacation_allowed=original.vacation_allowed,
            weekend_pause=original.weekend_pause,
        )
        # A rematch is private (its players chose each other), so unrated.
        new.rematch_of = original
        new.save(update_fields=["rematch_of"])
        n = original.n_seats
        Seat.objects.filter(match=new).update(index=rotated(mine.index, n))
        for seat in seats:
            if seat.is_bot:
                Seat.objects.create(
                    match=new, index=rotated(seat.index, n), is_bot=True, bot_level=seat.bot_level
                )
            elif seat.user_id != user.pk:
                Invitation.objects.create(match=new, invited_user=seat.user, invited_by=user)
                notifications.queue(seat.user, new, NotificationKind.INVITATION, version=0)
        if not _free_indices(new):
            _start(new)
    return new


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
    if match.rated and any(seat.user_id is None for seat in seats):
        match.rated = False
    signals.match_started.send(sender=Match, match=match, seats=seats)
    to_move = set(match.seats_to_move(game))
    for seat in seats:
        if not seat.played_by_bot:
            # Whoever moves first reads that the match started in their
            # your-turn email, when it goes at once: one email, not two.
            told = seat.index in to_move and notifications.emails_now(
                seat.user, NotificationKind.YOUR_TURN, seat
            )
            notifications.queue(
                seat.user,
                match,
                NotificationKind.MATCH_STARTED,
                told_elsewhere=notifications.TOLD_IN_YOUR_TURN if told else "",
            )
    settle_after_change(match, game, seats)
    match.save()
    queue_bots_after_commit(match, game, seats)
