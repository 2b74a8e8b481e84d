"""Signals other apps listen to, so the games layer never imports them.

``match_ended`` is sent inside the transaction that ends a match: by
``services.finish_match`` (the game's end, a resignation, a loss on time, a
moderator's ranks) and by ``moderation.abort_match`` (a moderator cancels a
match in play). Competitions built on matches (tournaments, ladders) listen
to it. A receiver runs inside that transaction, so it must stay cheap: record
what it needs, and hand any longer work (starting the next round) to a task
after the commit (``transaction.on_commit`` or the outbox), with a periodic
sweep as the safety net should the hand-over be lost.

Arguments: ``match`` (its ``status`` is FINISHED or ABORTED) and ``seats``
(with their final ``rank`` and ``score`` when finished).
"""

from django.dispatch import Signal

match_ended = Signal()
