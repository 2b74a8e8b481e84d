""" "X now follows you": the friends app's own kind of news, registered with
the notification machinery when the app starts (``games.dispatch.kinds``),
worded when the email or the bell is drawn, in the reader's language."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.dispatch import kinds, notifications

#: The kind of the rows (``Notification.kind``).
FOLLOW_NEWS = "follow"


def register() -> None:
    """Tell the notification machinery what this news is (``ready``)."""
    kinds.register_news(
        FOLLOW_NEWS,
        label=lambda: gettext_lazy("A new follower"),
        preference="email_follows",
        words=follow_words,
        page=lambda about: reverse("friends"),
    )


def tell_followed(followed, *, follower) -> None:
    """Tell ``followed`` that ``follower`` follows them, inside the caller's
    transaction: once per follower ever (following again after unfollowing
    tells nothing new), and not at all when their profile says not to."""
    profile = getattr(followed, "profile", None)
    if profile is not None and not profile.tell_follows:
        return
    follower_profile = getattr(follower, "profile", None)
    notifications.queue_news(
        followed,
        FOLLOW_NEWS,
        tag=f"f{follower.pk}",
        about={
            "who": follower_profile.name if follower_profile else follower.username,
            "username": follower.username,
        },
    )


def follow_words(row) -> dict:
    """Subject and sentence of the news, in the active language."""
    who = (row.about or {}).get("who", "")
    return {
        "subject": str(_("%(who)s now follows you") % {"who": who}),
        "lines": [
            str(
                _(
                    "%(who)s now follows you on Smoki. Follow them back and you are "
                    "friends: each sees the other's open matches first."
                )
                % {"who": who}
            )
        ],
    }
