"""What the site must send, written in the same transaction as the change
that causes it: notification rows of every kind (``notifications``, what
each kind is in ``kinds``), and the hand-over of work to the broker with the
relay that makes the broker optional (``outbox``). Sending them (emails, the
digest) is ``games.correspondence``'s."""
