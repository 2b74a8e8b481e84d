"""The ladders' writes: joining and leaving, challenges and their ends.

Locking order (docs/architecture.md, "Locking policy"): a challenge's match
first (``games.play.services.lock_match``), then the ladder row (``FOR UPDATE``:
every change of rungs in one ladder queues behind it), then the challenge
row. A challenge is created under the ladder lock with a new match (an
insert, nothing waited for). Conditions are checked again under the locks,
so a request that waited acts on what the other one committed.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import bots
from accounts.selectors import is_blocked_by_any, not_accepting
from core import limits
from core.errors import Conflict, Forbidden, NotFound, ServiceError
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import (
    Match,
    MatchStatus,
    ModerationAction,
    TimeoutPolicy,
    Visibility,
)
from games.moderation import audit
from games.play.services import lock_match, lock_matches
from ladders import news, rungs
from ladders.models import (
    AuditKind,
    Challenge,
    ChallengeStatus,
    Entry,
    Ladder,
    Outcome,
)

CHALLENGES = limits.Limit("ladder-challenge", settings.SMOKI["LADDER_CHALLENGES_PER_DAY"], 86400)


# -- The ladder row ---------------------------------------------------------------------


def _game_or_refuse(game_key: str):
    game = rungs.ladder_game(game_key)
    if game is None:
        raise NotFound(_("There is no ladder for this game."))
    return game


def _locked_ladder(game_key: str) -> Ladder:
    """The game's ladder, made on first use, locked for this transaction."""
    _game_or_refuse(game_key)
    try:
        with transaction.atomic():
            Ladder.objects.get_or_create(game_key=game_key)
    except IntegrityError:  # made by a concurrent request just now
        pass
    return Ladder.objects.select_for_update().get(game_key=game_key)


def _entries(ladder: Ladder) -> list[Entry]:
    return list(Entry.objects.filter(ladder=ladder).order_by("rung"))


# -- Joining and leaving ----------------------------------------------------------------


def join(user, game_key: str) -> Entry:
    """Put ``user`` on the game's ladder, at the bottom (a person: a ladder is
    a pool of humans, ``accounts.bots``)."""
    bots.require_human(user, _("Ladders are for people: a bot account plays when invited."))
    with transaction.atomic():
        ladder = _locked_ladder(game_key)
        if Entry.objects.filter(ladder=ladder, user=user).exists():
            raise Conflict(_("You are on this ladder already."))
        bottom = Entry.objects.filter(ladder=ladder).aggregate(bottom=Max("rung"))["bottom"]
        return Entry.objects.create(ladder=ladder, user=user, rung=(bottom or 0) + 1)


def leave(user, game_key: str) -> None:
    """Take ``user`` off the ladder; everyone below moves up one place. A
    challenge not yet accepted is withdrawn (no change of places); a
    challenge being played keeps the player until its match ends."""
    with transaction.atomic():
        ladder = Ladder.objects.filter(game_key=game_key).first()
        entry = ladder and Entry.objects.filter(ladder=ladder, user=user).first()
        if not entry:
            _game_or_refuse(game_key)
            raise Conflict(_("You are not on this ladder."))
        open_ones = _open_challenges_of(user, ladder)
        if any(c.match.status != MatchStatus.OPEN for c in open_ones):
            raise Conflict(
                _("Your ladder match is being played: finish it (or resign) before you leave.")
            )
        _withdraw_pending(open_ones, note="left the ladder", why=news.PLAYER_LEFT, actor=user)
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
        Entry.objects.filter(ladder=ladder, user=user).delete()


def _open_challenges_of(user, ladder: Ladder | None = None) -> list[Challenge]:
    query = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user), status="open")
    if ladder is not None:
        query = query.filter(ladder=ladder)
    return list(query.select_related("match").order_by("match_id"))


def _withdraw_pending(challenges: list[Challenge], note: str, why: str, actor=None) -> None:
    """Cancel challenges not yet accepted, their matches first locked in
    primary-key order (the locking policy); a match that started meanwhile
    is left to be played. The challenger is told why (``why``), unless they
    are the ``actor`` who caused it."""
    for match in lock_matches(c.match_id for c in challenges):
        if match.status != MatchStatus.OPEN:
            continue
        challenge = Challenge.objects.select_for_update().get(match=match)
        if challenge.is_open:
            _close(challenge, Outcome.CANCELLED, note=note)
            lobby.abort_unstarted(match)
            _tell_cancelled(challenge, why, quiet=actor)


def drop_player(user) -> int:
    """A deactivated or deleted player leaves every ladder: their challenges
    not yet accepted are cancelled, those being played end with their match
    (which the deactivation loses on time) but move nobody into or out of
    their vanished place. Returns the number of ladders left."""
    with transaction.atomic():
        _withdraw_pending(
            [c for c in _open_challenges_of(user) if c.match.status == MatchStatus.OPEN],
            note="player left the site",
            why=news.PLAYER_LEFT,
            actor=user,
        )
        ladder_ids = sorted(Entry.objects.filter(user=user).values_list("ladder_id", flat=True))
        list(Ladder.objects.select_for_update().filter(pk__in=ladder_ids).order_by("pk"))
        deleted, _rows = Entry.objects.filter(user=user).delete()
    return deleted


# -- Challenges -------------------------------------------------------------------------


def challenge(user, game_key: str, opponent: str) -> Challenge:
    """Challenge ``opponent`` (a username), at most ``rungs.reach()`` places
    above. Opens a private two-seat match of the game (default options,
    correspondence clock, loss on time, rated) and invites them to it."""
    User = get_user_model()
    opponent = (opponent or "").strip()
    with transaction.atomic():
        ladder = _locked_ladder(game_key)
        entries = _entries(ladder)
        mine = next((e for e in entries if e.user_id == user.pk), None)
        if mine is None:
            raise Conflict(_("Join the ladder before you challenge anyone."))
        target_user = (
            User.objects.filter(username=opponent, is_active=True).first() if opponent else None
        )
        theirs = target_user and next((e for e in entries if e.user_id == target_user.pk), None)
        if not theirs:
            raise ServiceError(_("No player of that name is on this ladder."))
        if theirs.pk == mine.pk:
            raise ServiceError(_("You cannot challenge yourself."))
        distance = rungs.places_between(entries, mine, theirs)
        if distance <= 0:
            raise ServiceError(_("You can only challenge players above you."))
        if distance > rungs.reach():
            raise ServiceError(
                ngettext(
                    "You can challenge players at most %(n)d place above you.",
                    "You can challenge players at most %(n)d places above you.",
                    rungs.reach(),
                )
                % {"n": rungs.reach()}
            )
        _refuse_if_busy(ladder, user, target_user)
        if is_blocked_by_any(target_user.pk, [user.pk]):
            raise Forbidden(_("You block this player."))
        if is_blocked_by_any(user.pk, [target_user.pk]):
            # The words of every invitation refused: the blocked player is not told.
            raise Forbidden(not_accepting())
        limits.check(
            CHALLENGES, user.pk, message=_("You have challenged many players today; wait a day.")
        )
        match = lobby.create_match(
            user=user,
            game_key=game_key,
            n_seats=2,
            visibility=Visibility.PRIVATE,
            time_per_move=timedelta(days=settings.SMOKI["LADDER_DAYS_PER_MOVE"]),
            timeout_policy=TimeoutPolicy.LOSS,
            rated=True,
            ladder_challenge=True,
        )
        invitations.send_invitation(match, inviter=user, invitee=target_user)
        return Challenge.objects.create(
            ladder=ladder,
            challenger=user,
            challenged=target_user,
            match=match,
            accept_by=timezone.now() + rungs.accept_within(),
        )


def _refuse_if_busy(ladder: Ladder, challenger, challenged) -> None:
    """One open challenge each way at a time (the unique constraints back it)."""
    busy = Challenge.objects.filter(ladder=ladder, status=ChallengeStatus.OPEN)
    if busy.filter(challenger=challenger).exists():
        raise Conflict(_("You already have an open challenge on this ladder."))
    if busy.filter(challenged=challenged).exists():
        raise Conflict(_("This player already has a challenge to answer; try again later."))


def _challenge_for(user, challenge_id) -> Challenge:
    """The challenge addressed to ``user``, or a refusal that reveals nothing
    of other people's challenges."""
    found = Challenge.objects.filter(pk=challenge_id, challenged=user).first()
    if found is None:
        raise NotFound(_("You have no such challenge."))
    return found


def accept(user, challenge_id: int) -> Challenge:
    """Accept a challenge: take the seat in its match, which starts."""
    found = _challenge_for(user, challenge_id)
    with transaction.atomic():
        match = lock_match(found.match)
        found = Challenge.objects.select_for_update().get(pk=found.pk)
        _require_unanswered(found, match)
        lobby.join_match(user=user, match=match)
        found.accepted_at = timezone.now()
        found.save(update_fields=["accepted_at"])
    return found


def _require_unanswered(found: Challenge, match: Match) -> None:
    if not found.is_open:
        raise Conflict(_("This challenge is over."))
    if match.status != MatchStatus.OPEN or found.accepted_at:
        raise Conflict(_("This challenge was accepted already."))
    if timezone.now() >= found.accept_by:
        raise Conflict(_("The time to accept this challenge has passed."))


def decline(user, challenge_id: int) -> Challenge:
    """Decline a challenge: it counts as lost, the challenger takes your place."""
    found = _challenge_for(user, challenge_id)
    with transaction.atomic():
        match = lock_match(found.match)
        ladder = Ladder.objects.select_for_update().get(pk=found.ladder_id)
        found = Challenge.objects.select_for_update().get(pk=found.pk)
        _require_unanswered(found, match)
        _close(found, Outcome.DECLINED, winner_id=found.challenger_id, ladder=ladder)
        lobby.abort_unstarted(match)
        _tell_moved(found, found.challenger, news.DECLINED)
    return found


def _close(
    found: Challenge, outcome: str, *, winner_id=None, ladder=None, note: str = ""
) -> Challenge:
    """Record the end; the challenger moves up when they are the winner and
    both players are still on the ladder (the caller holds the ladder lock)."""
    moved = False
    if winner_id == found.challenger_id:
        pair = {
            e.user_id: e
            for e in Entry.objects.filter(
                ladder_id=found.ladder_id, user_id__in=[found.challenger_id, found.challenged_id]
            )
        }
        if len(pair) == 2:
            moved = rungs.move_up(
                found.ladder_id, pair[found.challenger_id], pair[found.challenged_id]
            )
    found.status = ChallengeStatus.DONE
    found.outcome = outcome
    found.moved = moved
    found.resolved_at = timezone.now()
    found.note = note[:200]
    found.save(update_fields=["status", "outcome", "moved", "resolved_at", "note"])
    return found


def _place(ladder_id: int, user_id: int) -> int | None:
    """The player's place now (1 at the top), or None if off the ladder."""
    rung = (
        Entry.objects.filter(ladder_id=ladder_id, user_id=user_id)
        .values_list("rung", flat=True)
        .first()
    )
    if rung is None:
        return None
    return Entry.objects.filter(ladder_id=ladder_id, rung__lte=rung).count()


def _news(found: Challenge, user, event: tuple[str, str], **about) -> None:
    """Queue one piece of a challenge's news for ``user`` (``ladders.news``)."""
    opponent = found.challenged if user.pk == found.challenger_id else found.challenger
    news.queue(
        user,
        challenge_id=found.pk,
        game_key=found.ladder.game_key,
        opponent=opponent.profile.name,
        news=event,
        **about,
    )


def _tell_moved(found: Challenge, user, event: tuple[str, str]) -> None:
    """The challenger took the place (a decline, an expiry, a win), or the
    challenged player lost it (an expiry): told with their place now. Only
    when the challenge moved anyone."""
    if not found.moved:
        return
    place = _place(found.ladder_id, user.pk)
    if place is not None:
        _news(found, user, event, place=place)


def _tell_cancelled(found: Challenge, why: str, *, quiet=None, both: bool = False) -> None:
    """A cancelled challenge: the challenger is told why, unless they caused
    it themselves (``quiet``: leaving the ladder or the site); with ``both``
    (a moderator's cancellation) the challenged player too."""
    told = [found.challenger] + ([found.challenged] if both else [])
    for user in told:
        if quiet is None or user.pk != quiet.pk:
            _news(found, user, news.CANCELLED, reason=why)


# -- Ends: the match's, the deadline's, a moderator's -----------------------------------


def match_ended(match: Match, seats) -> None:
    """A challenge's match finished or was cancelled (``games.signals.match_ended``,
    inside that transaction, the match locked): record the result. Cheap for
    other matches: only private two-seat matches can be a challenge's."""
    if match.visibility != Visibility.PRIVATE or match.n_seats != 2:
        return
    found = Challenge.objects.filter(match=match, status=ChallengeStatus.OPEN).first()
    if found is None:
        return
    ladder = Ladder.objects.select_for_update().get(pk=found.ladder_id)
    found = Challenge.objects.select_for_update().get(pk=found.pk)
    if found.is_open:
        _settle_from_match(found, match, seats, ladder)


def _settle_from_match(found: Challenge, match: Match, seats, ladder: Ladder) -> None:
    forfeit = match.ended_early_by
    if match.status != MatchStatus.FINISHED and forfeit is None:
        _close(found, Outcome.CANCELLED, note="match cancelled")
        _tell_cancelled(found, news.MATCH_NOT_PLAYED)
        return
    # By the people seated (a seat a bot took over from its player keeps the player).
    rank = {seat.user_id: seat.rank for seat in seats if seat.user_id}
    if forfeit is not None:
        # Ended before each seat moved: aborted and unrated, but on the ladder
        # the seat that resigned or ran out of time lost, as a decline would.
        rank = {seat.user_id: 2 if seat.index == forfeit else 1 for seat in seats if seat.user_id}
    if set(rank) != {found.challenger_id, found.challenged_id}:
        # Someone else took the seat (the challenger shared the link) or a bot did.
        _close(found, Outcome.CANCELLED, note="not played by the two players")
        _tell_cancelled(found, news.MATCH_NOT_PLAYED)
        return
    mine, theirs = rank[found.challenger_id], rank[found.challenged_id]
    if mine == theirs:
        _close(found, Outcome.DRAWN)
    elif mine < theirs:
        _close(found, Outcome.WON, winner_id=found.challenger_id, ladder=ladder)
        _tell_moved(found, found.challenger, news.WON)
    else:
        _close(found, Outcome.LOST, winner_id=found.challenged_id, ladder=ladder)


def due_challenges(now=None) -> list[int]:
    """Open challenges not accepted by their deadline (the partial index)."""
    now = now or timezone.now()
    return list(
        Challenge.objects.filter(
            status=ChallengeStatus.OPEN, accepted_at=None, accept_by__lte=now
        ).values_list("pk", flat=True)
    )


def expire(challenge_id: int) -> str:
    """Close one overdue challenge: unanswered, the challenger takes the place.
    Idempotent and safe with several workers: under the match's and the
    ladder's locks the challenge is read again and a closed one is left alone.
    A match that started (accepted from the match page) marks it accepted."""
    found = Challenge.objects.filter(pk=challenge_id).select_related("match").first()
    if found is None:
        return "gone"
    with transaction.atomic():
        match = lock_match(found.match)
        ladder = Ladder.objects.select_for_update().get(pk=found.ladder_id)
        found = Challenge.objects.select_for_update().get(pk=found.pk)
        if not found.is_open or found.accepted_at or found.accept_by > timezone.now():
            return "skipped"
        if match.status == MatchStatus.OPEN:
            _close(found, Outcome.EXPIRED, winner_id=found.challenger_id, ladder=ladder)
            lobby.abort_unstarted(match)
            _tell_moved(found, found.challenger, news.EXPIRED)
            _tell_moved(found, found.challenged, news.EXPIRED_AGAINST)
            return "expired"
        if match.status == MatchStatus.ACTIVE:
            found.accepted_at = match.started_at or timezone.now()
            found.save(update_fields=["accepted_at"])
            return "accepted"
        _settle_from_match(found, match, list(match.seats.order_by("index")), ladder)
        return "settled"


def expire_due(now=None) -> dict:
    """The beat's pass: every overdue challenge, one transaction each."""
    counts: dict[str, int] = {}
    for challenge_id in due_challenges(now):
        outcome = expire(challenge_id)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


# -- Moderators -------------------------------------------------------------------------


def remove_entry(moderator, entry_id: int, reason: str) -> ModerationAction:
    """A moderator takes a player off a ladder (their unaccepted challenges
    are cancelled; one being played ends with its match, moving nobody into
    the vacated place), recorded in the moderators' audit."""
    audit.require(moderator, "ladders.moderate_ladder")
    reason = audit.reason_of(reason)
    entry = Entry.objects.filter(pk=entry_id).select_related("ladder", "user").first()
    if entry is None:
        raise NotFound(_("That player is no longer on the ladder."))
    with transaction.atomic():
        pending = [
            c
            for c in _open_challenges_of(entry.user, entry.ladder)
            if c.match.status == MatchStatus.OPEN
        ]
        _withdraw_pending(pending, note="removed by a moderator", why=news.BY_MODERATOR)
        ladder = Ladder.objects.select_for_update().get(pk=entry.ladder_id)
        deleted, _rows = Entry.objects.filter(pk=entry.pk).delete()
        if not deleted:
            raise NotFound(_("That player is no longer on the ladder."))
        return audit.record(
            moderator,
            AuditKind.REMOVE_PLAYER,
            reason,
            user=entry.user,
            details={"ladder": ladder.game_key, "rung": entry.rung},
        )


def cancel_challenge(moderator, challenge_id: int, reason: str) -> ModerationAction:
    """A moderator cancels an open challenge: nobody moves. Its match is
    aborted if not started; a match in play goes on, unconnected to the
    ladder (a moderator aborts it on the match's own desk if need be)."""
    audit.require(moderator, "ladders.moderate_ladder")
    reason = audit.reason_of(reason)
    found = Challenge.objects.filter(pk=challenge_id).select_related("match").first()
    if found is None:
        raise NotFound(_("There is no such challenge."))
    with transaction.atomic():
        match = lock_match(found.match)
        Ladder.objects.select_for_update().get(pk=found.ladder_id)
        found = Challenge.objects.select_for_update().get(pk=found.pk)
        if not found.is_open:
            raise Conflict(_("This challenge is over."))
        _close(found, Outcome.CANCELLED, note="cancelled by a moderator")
        lobby.abort_unstarted(match)
        _tell_cancelled(found, news.BY_MODERATOR, both=True)
        return audit.record(
            moderator,
            AuditKind.CANCEL_CHALLENGE,
            reason,
            match=match,
            user=found.challenger,
            details={"ladder": found.ladder.game_key, "challenge": found.pk},
        )
