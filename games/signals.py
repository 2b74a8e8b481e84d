"""Signals the apps built on matches listen to, so the games layer never
imports them.

Each is sent inside the transaction that makes the change, so a receiver
runs inside it and must stay cheap: record what it needs, and hand any
longer work (starting the next round) to a task after the commit
(``transaction.on_commit`` or the outbox), with a periodic sweep as the
safety net should the hand-over be lost.

- ``match_started``: the last seat of a match was taken and its opening
  logged (``games.lobby.services``). Arguments: ``match`` and ``seats``.
- ``match_ended``: by ``games.play.services.finish_match`` (the game's end,
  a resignation, a loss on time, a moderator's ranks) and by
  ``games.moderation.actions.abort_match`` (a moderator cancels a match in
  play). Arguments: ``match`` (its ``status`` is FINISHED or ABORTED) and
  ``seats`` (with their final ``rank`` and ``score`` when finished). The
  ratings (``players``), tournaments and ladders listen to it.
- ``result_corrected``: a moderator gave a finished match other ranks
  (``games.moderation.actions.correct_result``). Arguments: ``match`` and
  ``seats`` with their new ranks.
- ``match_moved``: a move was applied (``games.play.services.submit_action``:
  players, bots, the clock, moderators), before the turn it leads to is
  settled (its "your turn" rows, its end), so what a receiver writes comes
  first. Arguments: ``match`` (the new state and version), ``seats``,
  ``seat`` (the mover's) and ``game``.
- ``notification_written``: notification rows were written or brought up to
  date (``games.dispatch.notifications``). Argument: ``rows``, a list of
  ``(user_id, match, kind, version)``; ``match`` is None for news.
- ``invitation_declined``: an invitee said no (``games.lobby.invitations``).
  Arguments: ``match``, ``user`` and ``inviter_ids``.
The API's event stream listens to these (``api.events``).
"""

from django.dispatch import Signal

match_started = Signal()
match_ended = Signal()
result_corrected = Signal()
match_moved = Signal()
notification_written = Signal()
invitation_declined = Signal()
