"""Moderators' actions. Each needs a reason, goes through the same service
layer as players' moves (the match row locked, the version bumped, an entry
appended to the move log, the players notified) and is recorded in the
append-only ``ModerationAction`` audit.
"""

from __future__ import annotations

import copy
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from core.errors import Conflict, Forbidden, ServiceError
from games import signals
from games.correspondence import delivery
from games.dispatch import notifications
from games.engine import registry
from games.engine.base import IllegalAction
from games.engine.replay import MODERATION, effective_moves, replay
from games.engine.rng import Rng
from games.live import changes
from games.models import (
    ActorKind,
    ChatMessage,
    Match,
    MatchStatus,
    ModerationAction,
    Move,
    Notification,
    NotificationKind,
    ReplayComment,
    Report,
    SeatStatus,
)
from games.moderation import audit
from games.play import bots, clock, services

Kind = ModerationAction.Kind


def _log_entry(match: Match, moderator, op: str, **details) -> Move:
    """Bump the version and append the moderator's entry to the move log, so
    open pages refresh and a replay of the log sees what happened."""
    match.version += 1
    entry = {"type": MODERATION, "op": op, **details}
    return Move.objects.create(
        match=match,
        seq=match.version,
        seat=None,
        action=entry,
        events=[entry],
        actor_kind=ActorKind.MODERATOR,
        actor=moderator,
    )


def _notify_players(match: Match, seats) -> None:
    for seat in seats:
        if seat.user_id and not seat.is_bot:
            notifications.queue(seat.user, match, NotificationKind.MODERATION, surely_new=True)


def _locked_active(match: Match) -> Match:
    match = services.lock_match(match)
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(_("Only a match in play can be changed this way."))
    return match


# -- Match actions -----------------------------------------------------------------


def abort_match(moderator, match: Match, reason: str) -> ModerationAction:
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = services.lock_match(match)
        if match.is_over:
            raise Conflict(_("This match has already ended."))
        before = match.version
        seats = services.seats_of(match)
        _log_entry(match, moderator, "abort")
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
        match.deadline = match.wake_at = match.waiting_on = match.bots_due_at = None
        match.save()
        signals.match_ended.send(sender=Match, match=match, seats=seats)
        _notify_players(match, seats)
        return audit.record(moderator, Kind.ABORT, reason, match=match, before=before)


def extend_deadline(moderator, match: Match, hours: int, reason: str) -> ModerationAction:
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    if not 1 <= hours <= 24 * 30:
        raise ServiceError(_("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        match = _locked_active(match)
        before = match.version
        seats = services.seats_of(match)
        game = registry.get(match.game_key)
        seat = clock.waiting_seat(match, seats, game.current_seats(match.state))
        _log_entry(match, moderator, "extend", hours=hours)
        match.turn_paused += timedelta(hours=hours)
        clock.refresh(match, seat, timezone.now())
        match.save()
        _notify_players(match, seats)
        return audit.record(
            moderator, Kind.EXTEND, reason, match=match, before=before, details={"hours": hours}
        )


def force_timeout(moderator, match: Match, reason: str) -> ModerationAction:
    """Apply the match's timeout policy to the seat to move, now."""
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = _locked_active(match)
        before = match.version
        game = registry.get(match.game_key)
        seats = services.seats_of(match)
        seat = clock.waiting_seat(match, seats, game.current_seats(match.state))
        if seat is None:
            raise Conflict(_("Nobody is to move."))
        services.apply_timeout(match, game, seats, seat, timezone.now())
        match.refresh_from_db()
        return audit.record(
            moderator,
            Kind.FORCE_TIMEOUT,
            reason,
            match=match,
            user=seat.user,
            before=before,
            details={"seat": seat.index},
        )


def replace_with_bot(moderator, match: Match, seat_index: int, reason: str) -> ModerationAction:
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = _locked_active(match)
        before = match.version
        seats = services.seats_of(match)
        seat = _seat(seats, seat_index)
        if seat.played_by_bot:
            raise Conflict(_("A bot already plays that seat."))
        seat.save(update_fields=services.leave_to_bots(match, seat))
        _log_entry(match, moderator, "replace_with_bot", seat=seat.index)
        match.save()
        _notify_players(match, seats)
        game = registry.get(match.game_key)
        services.queue_bots_after_commit(match, game, seats)
        return audit.record(
            moderator,
            Kind.REPLACE_WITH_BOT,
            reason,
            match=match,
            user=seat.user,
            before=before,
            details={"seat": seat.index},
        )


def reinstate(moderator, match: Match, seat_index: int, reason: str) -> ModerationAction:
    """Give a seat the bot took over (strikes, or a moderator) back to its player."""
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = _locked_active(match)
        before = match.version
        seats = services.seats_of(match)
        seat = _seat(seats, seat_index)
        if seat.user_id is None or seat.status == SeatStatus.PLAYING:
            raise Conflict(_("That seat has no player to give it back to."))
        if not seat.user.is_active:
            raise Conflict(_("That player's account is deactivated."))
        seat.status = SeatStatus.PLAYING
        seat.strikes = 0
        seat.save(update_fields=["status", "strikes"])
        _log_entry(match, moderator, "reinstate", seat=seat.index)
        game = registry.get(match.game_key)
        waiting = game.current_seats(match.state)
        clock.start_turn(match, clock.waiting_seat(match, seats, waiting), timezone.now())
        match.save()
        _notify_players(match, seats)
        return audit.record(
            moderator,
            Kind.REINSTATE,
            reason,
            match=match,
            user=seat.user,
            before=before,
            details={"seat": seat.index},
        )


def adjudicate(moderator, match: Match, ranks: list[int], reason: str) -> ModerationAction:
    """End an unfinished match with the ranks a moderator decides (1 = winner)."""
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = _locked_active(match)
        if len(ranks) != match.n_seats or not all(1 <= r <= match.n_seats for r in ranks):
            raise ServiceError(
                _("Give one rank from 1 to %(n)d for every seat.") % {"n": match.n_seats}
            )
        if 1 not in ranks:
            raise ServiceError(_("Someone must be ranked first."))
        before = match.version
        seats = services.seats_of(match)
        _log_entry(match, moderator, "adjudicate", ranks=ranks)
        details = {"adjudicated": True}
        # Teams, as the game's public view shows them (Drakon's team play), so
        # an adjudicated team match is rated team against team.
        teams = registry.get(match.game_key).view(match.state, None).get("teams")
        if teams:
            details["teams"] = teams
        services.finish_match(
            match,
            seats,
            ranks,
            [None] * match.n_seats,
            {"ranks": ranks, "scores": [None] * match.n_seats, "details": details},
        )
        match.save()
        _notify_players(match, seats)
        return audit.record(
            moderator, Kind.ADJUDICATE, reason, match=match, before=before, details={"ranks": ranks}
        )


def correct_result(moderator, match: Match, ranks: list[int], reason: str) -> ModerationAction:
    """Give a finished match other ranks (a wrong adjudication, cheating found
    later). The match stays finished; every rating it affected is rebuilt
    from this match on (``games.signals.result_corrected``), in this transaction."""
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = services.lock_match(match)
        if match.status != MatchStatus.FINISHED:
            raise Conflict(_("Only a finished match's result can be corrected."))
        _check_ranks(match, ranks)
        before = match.version
        seats = services.seats_of(match)
        old = [seat.rank for seat in seats]
        _log_entry(match, moderator, "correct", ranks=ranks)
        for seat in seats:
            seat.rank = ranks[seat.index]
            seat.save(update_fields=["rank"])
        match.result = {**(match.result or {}), "ranks": ranks, "corrected": True}
        match.save()
        signals.result_corrected.send(sender=Match, match=match, seats=seats)
        _notify_players(match, seats)
        return audit.record(
            moderator,
            Kind.CORRECT_RESULT,
            reason,
            match=match,
            before=before,
            details={"ranks": ranks, "was": old},
        )


def _check_ranks(match: Match, ranks: list[int]) -> None:
    if len(ranks) != match.n_seats or not all(1 <= r <= match.n_seats for r in ranks):
        raise ServiceError(
            _("Give one rank from 1 to %(n)d for every seat.") % {"n": match.n_seats}
        )
    if 1 not in ranks:
        raise ServiceError(_("Someone must be ranked first."))


def undo_moves(moderator, match: Match, count: int, reason: str) -> ModerationAction:
    """Take back the last ``count`` game actions by replaying the log without
    them from the seed, in a match still in play.

    A finished match is never reopened: its seed is public once it ends, so
    anyone could replay the hidden state and foresee every later draw. Undo
    is refused with that reason; a moderator who must change such a result
    records it in the audit and adjudicates a new match instead.

    Nor are moves taken back that revealed something to anyone (``_revealed``):
    the position is rebuilt from the same seed, so a die rolled, a card or
    tile drawn would come again exactly as the players already saw it, and a
    card played from a hand would go back to a hand the others now know.
    """
    audit.require(moderator, "games.moderate_match")
    audit.refuse_own_match(moderator, match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        match = services.lock_match(match)
        if match.seed_revealed:
            raise Conflict(
                _(
                    "This match is over and its seed is public: reopening it would let "
                    "anyone foresee every later draw, so its moves cannot be taken back."
                )
            )
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(_("Only a match in play can be changed this way."))
        entries = list(match.moves.order_by("seq").values_list("seat", "action"))
        in_effect = effective_moves(entries)
        if not 1 <= count <= len(in_effect):
            raise ServiceError(_("You can undo 1 to %(n)d moves.") % {"n": len(in_effect)})
        game = registry.get(match.game_key)
        before = match.version
        restored = replay(
            game, match.n_seats, match.options, match.seed, in_effect[:-count], match.rules_version
        )
        if _revealed(game, match, restored, in_effect[-count:]):
            raise Conflict(
                _(
                    "Those moves revealed a roll, a draw or a secret: taken back, the same "
                    "would come again as the players already saw it, so they cannot be undone."
                )
            )
        match.state = restored
        seats = services.seats_of(match)
        _log_entry(match, moderator, "undo", count=count)
        waiting = game.current_seats(match.state)
        clock.start_turn(match, clock.waiting_seat(match, seats, waiting), timezone.now())
        match.save()
        _notify_players(match, seats)
        services.queue_bots_after_commit(match, game, seats)
        return audit.record(
            moderator, Kind.UNDO, reason, match=match, before=before, details={"count": count}
        )


PERTURBATIONS = 3


def _revealed(game, match: Match, state, undone) -> bool:
    """Whether the moves ``undone``, played from ``state``, showed anyone (any
    seat, or a spectator) something they could not see before, so that taken
    back it would stay known: the random generator moved (a roll, a shuffle),
    a secret was told to someone (a private event), or, for some viewer, the
    same action on the position with everything that viewer cannot see
    changed (``perturb_secrets``) is refused or tells of other things. That
    covers a card or tile taken from a deck shuffled at the start (the mover
    did not know it) and a card played from the mover's own hand, which the
    others saw (a Drako defence: taken back, it would return to a hand the
    attacker now knows)."""
    if state.get("rng") != match.state.get("rng"):
        return True
    rng = Rng.from_seed(f"{match.seed}:moderator-undo:{match.version}")
    viewers = [None, *range(match.n_seats)]
    for seat, action in undone:
        after, events = game.apply(copy.deepcopy(state), seat, action)
        if any(event.get("private_to") is not None for event in events):
            return True
        for viewer in viewers:
            for _attempt in range(PERTURBATIONS):
                other = game.perturb_secrets(copy.deepcopy(state), viewer, rng)
                try:
                    _state, other_events = game.apply(other, seat, action)
                except IllegalAction:
                    return True
                if other_events != events:
                    return True
        state = after
    return False


def _seat(seats, index: int):
    for seat in seats:
        if seat.index == index:
            return seat
    raise ServiceError(_("There is no such seat."))


# -- Chat, reports and users ------------------------------------------------------------


def hide_message(moderator, message: ChatMessage, reason: str) -> ModerationAction:
    audit.require(moderator, "games.moderate_chat")
    audit.refuse_own_match(moderator, message.match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        if message.hidden_at is not None:
            raise Conflict(_("That message is already hidden."))
        # The match row first, then the row that belongs to it (the locking policy).
        Match.objects.filter(pk=message.match_id).update(updated_at=timezone.now())
        changes.changed(message.match_id, message.match.version)
        ChatMessage.objects.filter(pk=message.pk).update(
            hidden_at=timezone.now(), hidden_by=moderator
        )
        # A mention's notice quoted the line: it no longer does.
        notifications.forget_mentioned_line(message.match_id, message.pk)
        return audit.record(
            moderator,
            Kind.HIDE_MESSAGE,
            reason,
            match=message.match,
            user=message.user,
            details={"message": message.pk, "text": message.text},
        )


def hide_replay_comment(moderator, comment: ReplayComment, reason: str) -> ModerationAction:
    """Hide a comment on a replay (games/history/comments.py), as a chat
    message is hidden: with the chat moderators' permission, audited."""
    audit.require(moderator, "games.moderate_chat")
    audit.refuse_own_match(moderator, comment.match)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        if ReplayComment.objects.filter(pk=comment.pk, hidden_at__isnull=False).exists():
            raise Conflict(_("That comment is already hidden."))
        ReplayComment.objects.filter(pk=comment.pk).update(
            hidden_at=timezone.now(), hidden_by=moderator
        )
        return audit.record(
            moderator,
            Kind.HIDE_COMMENT,
            reason,
            match=comment.match,
            user=comment.user,
            details={"comment": comment.pk, "step": comment.step, "text": comment.text},
        )


def resolve_report(moderator, report: Report, resolution: str) -> ModerationAction:
    audit.require(moderator, "games.resolve_report")
    audit.refuse_own_match(moderator, report.match)
    if moderator.pk in (report.reporter_id, report.reported_user_id):
        raise Forbidden(_("This report is about you, so another moderator resolves it."))
    resolution = audit.reason_of(resolution)
    with transaction.atomic():
        if report.resolved_at is not None:
            raise Conflict(_("That report is already resolved."))
        Report.objects.filter(pk=report.pk).update(
            resolved_at=timezone.now(), resolved_by=moderator, resolution=resolution
        )
        return audit.record(
            moderator,
            Kind.RESOLVE_REPORT,
            resolution,
            match=report.match,
            user=report.reported_user,
            details={"report": report.pk},
        )


def deactivate_user(moderator, user, reason: str) -> ModerationAction:
    """The user can no longer log in; their matches in play go to the timeout
    policy at once (a bot takes the seat, or a two-player match is lost)."""
    audit.require(moderator, "games.deactivate_user")
    reason = audit.reason_of(reason)
    if user.pk == moderator.pk:
        raise ServiceError(_("You cannot deactivate yourself."))
    if user.is_superuser:
        raise Forbidden(_("Superusers cannot be deactivated here."))
    if (user.is_staff or roles.is_moderator(user)) and not moderator.is_superuser:
        raise Forbidden(_("Only a superuser can deactivate a moderator or a staff member."))
    with transaction.atomic():
        user.is_active = False
        user.save(update_fields=["is_active"])
        from importlib import import_module

        from django.conf import settings
        from django.contrib.sessions.models import Session

        # Through the session engine, so a copy in the cache goes too.
        store = import_module(settings.SESSION_ENGINE).SessionStore
        for session in Session.objects.filter(expire_date__gt=timezone.now()):
            if session.get_decoded().get("_auth_user_id") == str(user.pk):
                store(session.session_key).delete()
        affected = []
        match_ids = Match.objects.filter(
            status=MatchStatus.ACTIVE, seats__user=user, seats__status=SeatStatus.PLAYING
        ).values_list("pk", flat=True)
        # All the matches locked at once, in primary-key order (the locking policy).
        for match in services.lock_matches(match_ids):
            if match.status == MatchStatus.ACTIVE:  # checked again under the lock
                _take_seat_away(match, user)
                affected.append(match.pk)
        return audit.record(
            moderator, Kind.DEACTIVATE_USER, reason, user=user, details={"matches": affected}
        )


def _take_seat_away(match: Match, user) -> None:
    """Called with the match locked."""
    seats = services.seats_of(match)
    seat = next(s for s in seats if s.user_id == user.pk)
    game = registry.get(match.game_key)
    if clock.loses_on_time(match):
        services.lose_on_time(
            match, seats, seat, {"reason": "deactivated", "deactivated": seat.index}
        )
        return
    seat.save(update_fields=services.leave_to_bots(match, seat))
    match.save(update_fields=["updated_at"])
    if bots.bot_seats_to_act(match, game, seats):
        services.queue_bots_after_commit(match, game, seats)


def resend_emails(moderator, rows: list[Notification], reason: str) -> list[ModerationAction]:
    """Several at once from the desk: all of them, or none if one changed meanwhile."""
    if not rows:
        raise ServiceError(_("None of the selected emails has failed."))
    with transaction.atomic():
        return [resend_email(moderator, row, reason) for row in rows]


def resend_email(moderator, row: Notification, reason: str) -> ModerationAction:
    """Send a failed email again: whether it left the first time was unknown,
    or every try failed; a moderator who checked decides it should go."""
    audit.require(moderator, "games.resend_email")
    reason = audit.reason_of(reason)
    with transaction.atomic():
        if not delivery.resend(row):
            raise Conflict(_("Only a failed email can be sent again."))
        return audit.record(
            moderator,
            Kind.RESEND_EMAIL,
            reason,
            match=row.match,
            user=row.user,
            details={"notification": row.pk, "kind": row.kind, "last_error": row.last_error},
        )
