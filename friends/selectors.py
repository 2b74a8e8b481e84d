"""The friends app's reads: who follows whom, who are friends (they follow
each other), and what the friends page and a player's page show of it.
Every read is a bounded number of queries whatever the number of follows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Q

from accounts.models import Block
from accounts.presence import Presence, presence_of
from accounts.refs import PlayerRef, ref_for_user
from friends.models import Follow

#: The most followers the friends page lists (the newest first).
FOLLOWERS_SHOWN = 500
#: The most players one follows (``friends.services.MAX_FOLLOWS``) are all shown.
FOLLOWING_SHOWN = 1000


def _unblocked(queryset, mine: str, theirs: str):
    """``queryset`` of follows without those between two players of whom one
    blocks the other (a block removes the follows; this keeps a block made
    behind the services' back overriding them too)."""
    return queryset.exclude(
        Exists(
            Block.objects.filter(
                Q(blocker_id=OuterRef(mine), blocked_id=OuterRef(theirs))
                | Q(blocker_id=OuterRef(theirs), blocked_id=OuterRef(mine))
            )
        )
    )


def friend_ids(user_id: int | None) -> set[int]:
    """The ids of ``user_id``'s friends: active players who follow them and
    whom they follow, no block between them. One query; none for a visitor."""
    if user_id is None:
        return set()
    mutual = Follow.objects.filter(
        follower_id=user_id,
        followed__is_active=True,
        followed__follows_made__followed_id=user_id,
    )
    return set(
        _unblocked(mutual, "follower_id", "followed_id").values_list("followed_id", flat=True)
    )


def are_friends(a_id: int | None, b_id: int | None) -> bool:
    """Whether two players follow each other, no block between them (one query)."""
    if a_id is None or b_id is None or a_id == b_id:
        return False
    return _unblocked(
        Follow.objects.filter(
            follower_id=a_id, followed_id=b_id, followed__follows_made__followed_id=a_id
        ),
        "follower_id",
        "followed_id",
    ).exists()


def is_following(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


@dataclass(frozen=True)
class Person:
    """One player on the friends page."""

    ref: PlayerRef
    username: str
    presence: Presence | None
    since: datetime  # when the follow was made


@dataclass(frozen=True)
class FriendsPage:
    friends: list[Person]  # follow each other
    following: list[Person]  # followed by me, not following me back
    followers: list[Person]  # following me, not followed back
    followers_total: int  # everyone following me (friends too)


def friends_page(user) -> FriendsPage:
    """What ``user``'s friends page lists, each with their presence: four
    queries and one read of the cache whatever the numbers."""
    following = list(
        _unblocked(
            Follow.objects.filter(follower=user, followed__is_active=True),
            "follower_id",
            "followed_id",
        )
        .select_related("followed__profile")
        .order_by("-created")[:FOLLOWING_SHOWN]
    )
    followers_qs = _unblocked(
        Follow.objects.filter(followed=user, follower__is_active=True),
        "follower_id",
        "followed_id",
    )
    followers = list(
        followers_qs.select_related("follower__profile").order_by("-created")[:FOLLOWERS_SHOWN]
    )
    followers_total = followers_qs.count()
    back = set(
        Follow.objects.filter(
            followed=user, follower_id__in=[f.followed_id for f in following]
        ).values_list("follower_id", flat=True)
    )
    presence = presence_of([f.followed for f in following] + [f.follower for f in followers])

    def person(other, made) -> Person:
        return Person(ref_for_user(other), other.username, presence.get(other.pk), made)

    return FriendsPage(
        friends=sorted(
            (person(f.followed, f.created) for f in following if f.followed_id in back),
            key=lambda p: (
                p.presence is None,
                not (p.presence and p.presence.online),
                p.ref.name.lower(),
            ),
        ),
        following=[person(f.followed, f.created) for f in following if f.followed_id not in back],
        followers=[person(f.follower, f.created) for f in followers if f.follower_id not in back],
        followers_total=followers_total,
    )


def _blocked_between(player, viewer) -> bool:
    """Whether either blocks the other: as the player page read it with the
    player (``blocked_by_viewer``, ``blocks_viewer``), else one query."""
    by_viewer = getattr(player, "blocked_by_viewer", None)
    by_player = getattr(player, "blocks_viewer", None)
    if by_viewer is not None and by_player is not None:
        return bool(by_viewer or by_player)
    return Block.objects.filter(
        Q(blocker_id=viewer.pk, blocked_id=player.pk)
        | Q(blocker_id=player.pk, blocked_id=viewer.pk)
    ).exists()


def player_section(player, viewer) -> dict:
    """The follow section of ``player``'s page for ``viewer``: how many
    follow them, and for another signed-in player whether they follow them,
    are followed back, and may follow at all (no block either way). One
    query (the blocks come with the player when the page read them)."""
    other = viewer is not None and viewer.is_authenticated and viewer.pk != player.pk
    viewer_id = viewer.pk if other else None
    counts = Follow.objects.filter(
        Q(followed=player) | Q(follower=player, followed_id=viewer_id)
    ).aggregate(
        followers=Count("pk", filter=Q(followed=player, follower__is_active=True)),
        following=Count("pk", filter=Q(follower_id=viewer_id, followed=player)),
        follows_me=Count("pk", filter=Q(follower=player, followed_id=viewer_id)),
    )
    section = {"player": player, "followers": counts["followers"], "can_act": False}
    if not other:
        return section
    blocked = _blocked_between(player, viewer)
    following = bool(counts["following"]) and not blocked
    follows_me = bool(counts["follows_me"]) and not blocked
    section.update(
        can_act=not blocked,
        following=following,
        follows_me=follows_me,
        friends=following and follows_me,
    )
    return section
