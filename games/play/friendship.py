"""Who a player's friends are, as the matches need it: friends' open matches
first in the lobby, "Friends' games" on Watch, matches only the creator's
friends may see while they gather players and join, and invitations taken
from friends only.

Friendship is the friends app's (two players who follow each other, no
block between them). It lends its reads to this module when it starts
(``lend``), as the players app lends its ratings (``games.play.standing``),
so the matches never import the app above them. Without it nobody has
friends.
"""

from __future__ import annotations

from typing import Protocol


class Circle(Protocol):
    def friend_ids(self, user_id: int) -> set[int]:
        """The ids of a player's friends, in one query."""

    def are_friends(self, a_id: int, b_id: int) -> bool:
        """Whether two players are friends, in one query."""


_circle: Circle | None = None


def lend(circle: Circle) -> None:
    """The friends app lends its reads (from its ``ready``)."""
    global _circle
    _circle = circle


def friend_ids(user) -> set[int]:
    """The ids of ``user``'s friends; none for a visitor, no query then."""
    if _circle is None or user is None or not user.is_authenticated:
        return set()
    return _circle.friend_ids(user.pk)


def are_friends(a_id: int | None, b_id: int | None) -> bool:
    if _circle is None or a_id is None or b_id is None or a_id == b_id:
        return False
    return _circle.are_friends(a_id, b_id)
