"""The accounts app's reads."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from django.utils.translation import gettext as _

from accounts.models import Block, Profile

PREFERENCES_TIMEOUT = 24 * 3600


def _preferences_key(user_id) -> str:
    return f"prefs:{user_id}"


def preferences(user) -> dict:
    """What every page needs of a signed-in player's profile: language, time
    zone, colours, whether to confirm moves, the name in the top bar and
    whether their presence is kept (``accounts.presence``).

    Kept in the shared cache (Redis in production) under the user's id and
    dropped whenever the profile or the user is saved
    (``forget_preferences``), so a request reads the profile from the
    database only the first time: a poll or a move pays no query for it.
    They share the sessions' alias: while Redis is out of reach they are read
    from the database (``config/cache.py``), never from a stale copy.
    """
    cache = caches[settings.SESSION_CACHE_ALIAS]
    key = _preferences_key(user.pk)
    found = cache.get(key)
    if found is None:
        profile = Profile.objects.filter(user_id=user.pk).select_related("user").first()
        found = {
            "language": profile.language if profile else settings.LANGUAGE_CODE,
            "timezone": profile.timezone if profile else "UTC",
            "theme": profile.theme if profile else "auto",
            "confirm_moves": profile.confirm_moves if profile else "auto",
            "name": profile.name if profile else user.get_username(),
            "show_presence": profile.show_presence if profile else True,
            # A bot account's pages are read-only (accounts.bots).
            "bot": profile.is_bot_account if profile else False,
        }
        cache.set(key, found, PREFERENCES_TIMEOUT)
    return found


def forget_preferences(user_id) -> None:
    caches[settings.SESSION_CACHE_ALIAS].delete_many(
        [_preferences_key(user_id), stamp_key(user_id)]
    )


def stamp_key(user_id) -> str:
    """The key of ``user_stamp(user_id)`` in the sessions' cache, for a
    caller that reads it together with other keys."""
    return f"user-stamp:{user_id}"


def user_stamp(user_id) -> int | None:
    """A mark that changes whenever the player's user or profile row is
    saved (``forget_preferences`` drops it): a copy of either kept in the
    cache elsewhere (the API's token lookup, ``api.tokens``) is good only
    while the stamp it was made with is still the current one. None when
    the cache cannot keep one (Redis out of reach): nothing is then reused.
    A random number, which the cache keeps as it is (nothing to unpickle on
    every API request)."""
    cache = caches[settings.SESSION_CACHE_ALIAS]
    key = stamp_key(user_id)
    found = cache.get(key)
    if found is None:
        import secrets

        cache.add(key, secrets.randbits(62), PREFERENCES_TIMEOUT)
        found = cache.get(key)
    return found


def user_stamp_with(user_id, key) -> tuple[object, int | None]:
    """The cache's value under ``key`` (or None) and ``user_stamp(user_id)``,
    in one round trip when the stamp is there (``get_many``): the API's
    token lookup reads its kept copy and its owner's stamp together."""
    found = caches[settings.SESSION_CACHE_ALIAS].get_many([key, stamp_key(user_id)])
    return found.get(key), user_stamp_among(found, user_id)


def user_stamp_among(found: dict, user_id) -> int | None:
    """``user_stamp(user_id)`` from ``found`` (values already read from the
    sessions' cache by key), or read or made afresh when it is not there."""
    stamp = found.get(stamp_key(user_id))
    return stamp if stamp is not None else user_stamp(user_id)


def lookalike_groups() -> list[tuple[str, list[Profile]]]:
    """Players whose usernames or display names pass for each other's (a
    reading in common, ``accounts.names.name_keys``, recomputed here), for
    moderators to settle: each group's shared reading and its profiles,
    oldest account first. Names taken before the readings folded what they
    fold now can collide; new ones cannot."""
    from accounts.names import name_keys

    profiles = list(Profile.objects.select_related("user").order_by("user__date_joined", "pk"))
    by_reading: dict[str, list[int]] = {}
    for position, profile in enumerate(profiles):
        for name in {profile.user.username, profile.display_name}:
            for reading in set(name_keys(name)) if name else ():
                holders = by_reading.setdefault(reading, [])
                if position not in holders:
                    holders.append(position)
    # Profiles sharing a reading are one group, and so, through them, are
    # profiles sharing another reading with any of them.
    group_of = list(range(len(profiles)))

    def root(position: int) -> int:
        while group_of[position] != position:
            group_of[position] = group_of[group_of[position]]
            position = group_of[position]
        return position

    shared = {reading: holders for reading, holders in by_reading.items() if len(holders) > 1}
    for holders in shared.values():
        for other in holders[1:]:
            group_of[root(other)] = root(holders[0])
    groups: dict[int, tuple[str, list[int]]] = {}
    for reading in sorted(shared):
        top = root(shared[reading][0])
        groups.setdefault(top, (reading, []))
    for position in range(len(profiles)):
        if root(position) in groups:
            groups[root(position)][1].append(position)
    return sorted(
        (
            (reading, [profiles[position] for position in members])
            for reading, members in groups.values()
        ),
        key=lambda group: group[0],
    )


def not_accepting() -> str:
    """The one sentence a player hears when someone they want to play with
    (an invitation, a rematch, a ladder challenge) will not have it: blocked
    by that player, or not among those they take invitations from. Neutral,
    so a blocked player cannot tell a block from that rule, and true either
    way."""
    return _("This player is not accepting invitations from you right now.")


def blocked_pairs(user_ids) -> set[frozenset]:
    """Every pair among ``user_ids`` where one blocked the other (one query)."""
    ids = {uid for uid in user_ids if uid is not None}
    if len(ids) < 2:
        return set()
    return {
        frozenset(pair)
        for pair in Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
            "blocker_id", "blocked_id"
        )
    }


def is_blocked_by_any(user_id: int, others) -> bool:
    """Whether any of ``others`` blocked ``user_id``: one query, or none when
    there is nobody else."""
    others = [uid for uid in others if uid is not None and uid != user_id]
    if not others:
        return False
    return Block.objects.filter(blocked_id=user_id, blocker_id__in=others).exists()
