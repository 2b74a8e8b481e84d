"""Safe moves: resigning, and taking back a move by the opponents' consent.

Correspondence players ask for undo on every site: a slip of the finger
should not decide a week-long match. A player may ask to take back their
last move while nobody has moved since and the move revealed nothing new: no
die was rolled and no card or tile drawn (the game's random generator is
where it was), nobody learned a secret (no private event) and the action
carried no hidden choice. Every other human player must agree; one refusal
ends the request. The move is then taken back by replaying the log without
it, and an entry in the log says so (``games.engine.replay.effective_moves``
honours it). What a page may offer is read by ``games.selectors`` with the
same rules (``undoable_seat``, ``pending_undo``, ``undo_judges``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Conflict, Forbidden
from games.dispatch import notifications
from games.engine import registry
from games.engine.replay import MODERATION, effective_moves, is_moderation, is_opening, replay
from games.models import (
    ActorKind,
    Match,
    MatchStatus,
    Move,
    Notification,
    NotificationKind,
    Seat,
    SeatStatus,
    pending_undo,
    undo_judges,
)
from games.play import clock, services


def log_player_entry(match: Match, seat: Seat, user, op: str, **details) -> Move:
    """Append a player's own out-of-game entry (resigning, an agreed undo) to the log."""
    match.version += 1
    entry = {"type": MODERATION, "op": op, "seat": seat.index, **details}
    return Move.objects.create(
        match=match,
        seq=match.version,
        seat=seat.index,
        action=entry,
        events=[entry],
        actor_kind=ActorKind.PLAYER,
        actor=user,
    )


def _my_seat(seats, user) -> Seat:
    seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
    if seat is None:
        raise Forbidden(_("You have no seat in this match."))
    return seat


def resign(*, user, match: Match) -> None:
    """Give up a seat in play. In a two-player match the match ends at once
    and the other player wins, whatever the timeout policy (nobody should
    play on for weeks against a bot); in a larger match a bot plays the seat
    on and the player is ranked last (``services.finish_match``)."""
    with transaction.atomic():
        match = services.lock_match(match)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(_("Only a match in play can be resigned."))
        seats = services.seats_of(match)
        seat = _my_seat(seats, user)
        if seat.status != SeatStatus.PLAYING:
            raise Conflict(_("You no longer play this seat."))
        seat.save(update_fields=services.leave_to_bots(match, seat, SeatStatus.RESIGNED))
        loses = match.resigning_ends_it
        early = loses and services.ends_early(match, seats)
        # The log says what follows: the match is lost, aborted (it ends before
        # each seat has moved), or a bot plays the seat on.
        then = "aborted" if early else "loss" if loses else "bot"
        log_player_entry(match, seat, user, "resign", then=then)
        match.undo_request = None
        game = registry.get(match.game_key)
        if early:
            services.abort_early(match, seats, seat, "resigned")
            match.save()
            return
        if loses:
            ranks = [2 if s.index == seat.index else 1 for s in seats]
            scores = [None] * len(seats)
            details = {"reason": "resigned", "resigned": seat.index}
            services.finish_match(
                match, seats, ranks, scores, {"ranks": ranks, "scores": scores, "details": details}
            )
            match.save()
            return
        services.settle_after_change(match, game, seats)
        match.save()
        services.queue_bots_after_commit(match, game, seats)


def _state_before(match: Match, game):
    entries = list(match.moves.order_by("seq").values_list("seat", "action"))
    kept = effective_moves(entries)[:-1]
    return replay(game, match.n_seats, match.options, match.seed, kept)


def ask_undo(*, user, match: Match) -> None:
    with transaction.atomic():
        match = services.lock_match(match)
        seats = services.seats_of(match)
        seat = _my_seat(seats, user)
        last = match.moves.order_by("-seq").first()
        if seat.status != SeatStatus.PLAYING or undoable_seat(match, last) != seat.index:
            raise Conflict(_("Only your own last move can be taken back, before anyone moves."))
        game = registry.get(match.game_key)
        if _state_before(match, game).get("rng") != match.state.get("rng"):
            raise Conflict(_("That move revealed something new, so it cannot be taken back."))
        match.undo_request = {"seat": seat.index, "seq": last.seq, "agreed": []}
        judges = undo_judges(seats, seat.index)
        if not judges:
            _take_back(match, game, seats, seat, user)
            return
        match.save(update_fields=["undo_request", "updated_at"])
        # Each player who must consent hears of it (the bell, and email by their
        # "your turn" preference), once per request: asking again after a
        # refusal at the same move does not notify again.
        for judge in (s for s in seats if s.index in judges):
            notifications.queue(
                judge.user,
                match,
                NotificationKind.UNDO_REQUEST,
                tag=f"{notifications.UNDO_TAG}{seat.index}",
                seat=judge,
            )


def answer_undo(*, user, match: Match, agree: bool) -> None:
    with transaction.atomic():
        match = services.lock_match(match)
        request = pending_undo(match)
        if request is None:
            raise Conflict(_("There is no request to take back a move."))
        seats = services.seats_of(match)
        seat = _my_seat(seats, user)
        judges = undo_judges(seats, request["seat"])
        if seat.index not in judges:
            raise Forbidden(_("Only the other players answer this request."))
        # Answered: the bell's entry for it is read.
        Notification.objects.filter(
            user=user, match=match, kind=NotificationKind.UNDO_REQUEST, read_at__isnull=True
        ).update(read_at=timezone.now())
        if not agree:
            match.undo_request = None
            match.save(update_fields=["undo_request", "updated_at"])
            return
        agreed = sorted({*request["agreed"], seat.index})
        match.undo_request = {**request, "agreed": agreed}
        if set(agreed) >= set(judges):
            asker = next(s for s in seats if s.index == request["seat"])
            _take_back(match, registry.get(match.game_key), seats, asker, asker.user)
            return
        match.save(update_fields=["undo_request", "updated_at"])


def _take_back(match: Match, game, seats, seat, user) -> None:
    match.state = _state_before(match, game)
    log_player_entry(match, seat, user, "agreed_undo", count=1)
    match.undo_request = None
    waiting = game.current_seats(match.state)
    clock.start_turn(match, clock.waiting_seat(match, seats, waiting), timezone.now())
    match.save()


def undoable_seat(match: Match, last: Move | None) -> int | None:
    """The seat that may ask to take back ``last``, judged from the log alone
    (``games.play.safety`` also checks, when asked, that no randomness was used)."""
    if match.status != MatchStatus.ACTIVE or last is None:
        return None
    if last.actor_kind != ActorKind.PLAYER or last.seat is None:
        return None
    if is_opening(last.action) or is_moderation(last.action):
        return None
    if any(event.get("private_to") is not None for event in last.events):
        return None
    if registry.get(match.game_key).public_action(last.action) != last.action:
        return None
    return last.seat
