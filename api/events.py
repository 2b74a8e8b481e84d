"""What goes into each player's event stream, written with the change.

Receivers of the games' signals (``games.signals``) and of the saves of a
chat line and a seat turn each change into rows of ``streams.events``, in
the change's own transaction, one INSERT per change; the rows carry only
what the moment alone knows (whose turn it is after a move, the deadline
then, who accepted). Everything a seat may or may not see (the log lines of
a move) is read when a stream sends the row, for that seat
(``api.stream``), so no row holds anything of the game's state.
"""

from __future__ import annotations

import threading

from django.db.models.signals import post_save

from games import signals
from games.models import ChatMessage, Match, Notification, NotificationKind, Seat
from streams import events

#: The kinds a token with ``match:read`` (or ``bot:play``) hears.
MATCH_KINDS = (
    "match_started",
    "your_turn",
    "move",
    "chat",
    "undo_request",
    "reminder",
    "timed_out",
    "match_finished",
)
#: The kinds a token with ``challenge:read`` hears.
CHALLENGE_KINDS = ("challenge_received", "challenge_accepted", "challenge_declined")

#: Notification kinds told on the stream, and the event each becomes.
FROM_NOTIFICATION = {
    NotificationKind.YOUR_TURN: "your_turn",
    NotificationKind.REMINDER: "reminder",
    NotificationKind.TIMED_OUT: "timed_out",
    NotificationKind.MATCH_STARTED: "match_started",
    NotificationKind.MATCH_FINISHED: "match_finished",
    NotificationKind.UNDO_REQUEST: "undo_request",
    NotificationKind.INVITATION: "challenge_received",
}


def kinds_for(scopes) -> tuple[str, ...]:
    """The kinds a token with ``scopes`` may hear."""
    kinds: tuple[str, ...] = ()
    if "match:read" in scopes or "bot:play" in scopes:
        kinds += MATCH_KINDS
    if "challenge:read" in scopes:
        kinds += CHALLENGE_KINDS
    return kinds


def _deadline(match) -> str | None:
    return match.deadline.isoformat() if match is not None and match.deadline else None


#: The turns the last move of this thread told already (user, match,
#: version): its "your turn" rows, written with its move rows in one INSERT,
#: are not written again when the move's notifications follow.
_told = threading.local()


def on_notification(sender, rows, **kwargs) -> None:
    """A "your turn", a reminder, a match's start or end, an undo request,
    an invitation: the notification's own moment, on the stream too."""
    told = getattr(_told, "turns", set())
    new = []
    for user_id, match, kind, version in rows:
        name = FROM_NOTIFICATION.get(kind)
        if name is None or match is None:
            continue
        if name == "your_turn" and (user_id, match.pk, version) in told:
            continue
        data = {"deadline": _deadline(match)} if name in ("your_turn", "reminder") else {}
        new.append(events.New(user_id, name, match.pk, version, data))
    events.record(new)


def on_move(sender, match, seats, seat, game, **kwargs) -> None:
    """Every seated player hears of every move (their own too), with whose
    turn it is now (nobody's once the game is over), and those to move next
    that it is their turn, in one INSERT; the lines are read for each seat
    when sent, and the new turn's deadline then too (the clock sets it
    after this)."""
    over = game.result(match.state) is not None
    to_move = [] if over else match.seats_to_move(game)
    moved, turns = [], []
    for each in seats:
        if not each.user_id:
            continue
        mine = each.index in to_move and not each.played_by_bot
        moved.append(
            events.New(
                each.user_id,
                "move",
                match.pk,
                match.version,
                {"to_move": to_move, "my_turn": mine},
            )
        )
        if mine:
            turns.append(events.New(each.user_id, "your_turn", match.pk, match.version))
    _told.turns = {(e.user_id, match.pk, match.version) for e in turns}
    events.record(moved + turns)


def on_chat(sender, instance: ChatMessage, created: bool, **kwargs) -> None:
    """A chat line: every other seated player hears of it."""
    if not created:
        return
    others = (
        Seat.objects.filter(match_id=instance.match_id)
        .exclude(user=None)
        .exclude(user_id=instance.user_id)
        .values_list("user_id", flat=True)
    )
    events.record(
        [
            events.New(user_id, "chat", instance.match_id, 0, {"message": instance.pk})
            for user_id in others
        ]
    )


def on_seat(sender, instance: Seat, created: bool, **kwargs) -> None:
    """A player took a seat: whoever invited them (else the match's creator)
    hears that the challenge was accepted."""
    if not created or not instance.user_id:
        return
    match = instance.match
    if instance.user_id == match.created_by_id:
        return  # the creator's own seat
    inviters = list(
        match.invitations.filter(invited_user_id=instance.user_id).values_list(
            "invited_by_id", flat=True
        )
    )
    told = set(inviters) or {match.created_by_id}
    told.discard(instance.user_id)
    told.discard(None)
    by = {"by": instance.user.username}
    events.record(
        [events.New(user_id, "challenge_accepted", match.pk, 0, by) for user_id in sorted(told)]
    )


def on_declined(sender, match: Match, user, inviter_ids, **kwargs) -> None:
    by = {"by": user.username}
    events.record(
        [events.New(pk, "challenge_declined", match.pk, 0, by) for pk in sorted(set(inviter_ids))]
    )


def connect() -> None:
    """Listen (called once, from the api app's ``ready``)."""
    signals.notification_written.connect(
        on_notification, sender=Notification, dispatch_uid="api.events"
    )
    signals.match_moved.connect(on_move, sender=Match, dispatch_uid="api.events")
    signals.invitation_declined.connect(on_declined, sender=Match, dispatch_uid="api.events")
    post_save.connect(on_chat, sender=ChatMessage, dispatch_uid="api.events.chat")
    post_save.connect(on_seat, sender=Seat, dispatch_uid="api.events.seat")
