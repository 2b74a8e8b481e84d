"""Who is here now: "online now" and "last seen", kept in the shared cache.

A signed-in player's requests touch one cache key, ``seen:<user id>``, holding
the time (whole seconds since the epoch) of their latest request, at most
once a minute: each web process remembers when it last touched a player's key
and skips them for a minute, and a minute's guard key (``cache.add``, shared
by every process) lets one process of all write it. No database row is
written for it, ever (``accounts.middleware.PresenceMiddleware``).

Pages read it coarsely (``presence_text``): "online now" within five
minutes, else minutes, hours or days ago; never seconds. The presence of
every player a page shows is read with one ``get_many``
(``presence_of``). A player who hides it (``Profile.show_presence``) is
neither touched nor shown: their key is dropped when they hide it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext, ngettext

#: At most one write of a player's key a minute.
TOUCH_EVERY = 60
#: "online now" within five minutes of the latest request.
ONLINE_SECONDS = 5 * 60
#: How long a last-seen time is kept: beyond it nothing is shown.
KEEP_SECONDS = 90 * 24 * 3600
#: The players a process remembers having touched (then it starts afresh).
MEMO_SIZE = 20_000

_touched: dict[int, float] = {}
_lock = threading.Lock()


def seen_key(user_id: int) -> str:
    return f"seen:{user_id}"


def _guard_key(user_id: int) -> str:
    return f"seen-guard:{user_id}"


def touch(user_id: int, now: float | None = None, shown=lambda: True) -> bool:
    """Record that ``user_id`` is here now, unless this was done less than a
    minute ago (by this process, or by any: the guard key), or ``shown()``
    says they hide their presence (asked only when a write is due). Whether
    the key was written."""
    now = time.time() if now is None else now
    with _lock:
        last = _touched.get(user_id)
        if last is not None and now - last < TOUCH_EVERY:
            return False
        if len(_touched) >= MEMO_SIZE:
            _touched.clear()
        _touched[user_id] = now
    if not shown() or not cache.add(_guard_key(user_id), 1, TOUCH_EVERY):
        return False
    cache.set(seen_key(user_id), int(now), KEEP_SECONDS)
    return True


def forget(user_id: int) -> None:
    """Drop what is kept of ``user_id``'s presence (they hid it)."""
    cache.delete_many([seen_key(user_id), _guard_key(user_id)])
    with _lock:
        _touched.pop(user_id, None)


def forget_memo() -> None:
    """This process's memory of whom it touched (for tests)."""
    with _lock:
        _touched.clear()


@dataclass(frozen=True)
class Presence:
    online: bool
    text: str

    def __str__(self) -> str:
        return self.text


def presence_text(seen: float, now: float) -> Presence:
    """How long ago ``seen`` was, coarsely: online now, minutes, hours, days."""
    ago = max(0, int(now - seen))
    if ago < ONLINE_SECONDS:
        return Presence(True, gettext("online now"))
    minutes = ago // 60
    if minutes < 60:
        text = ngettext("last seen %(n)s minute ago", "last seen %(n)s minutes ago", minutes) % {
            "n": minutes
        }
        return Presence(False, text)
    hours = minutes // 60
    if hours < 24:
        text = ngettext("last seen %(n)s hour ago", "last seen %(n)s hours ago", hours) % {
            "n": hours
        }
        return Presence(False, text)
    days = hours // 24
    text = ngettext("last seen %(n)s day ago", "last seen %(n)s days ago", days) % {"n": days}
    return Presence(False, text)


def shows_presence(user) -> bool:
    """Whether ``user`` lets others see their presence (their profile, as
    read with them: no query when it was selected with the user)."""
    profile = getattr(user, "profile", None)
    return profile is None or profile.show_presence


def presence_of(users, now: float | None = None) -> dict[int, Presence]:
    """The presence of each of ``users`` who shows it and was seen within the
    time kept, by user id: one ``get_many`` whatever their number, none
    without anyone to show."""
    wanted = {user.pk for user in users if user is not None and shows_presence(user)}
    if not wanted:
        return {}
    found = cache.get_many([seen_key(pk) for pk in sorted(wanted)])
    now = time.time() if now is None else now
    shown = {}
    for pk in wanted:
        seen = found.get(seen_key(pk))
        if isinstance(seen, int | float):
            shown[pk] = presence_text(seen, now)
    return shown
