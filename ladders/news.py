"""What a ladder tells its players of a challenge's end: declined, not
answered in time, won, cancelled. Each is a row of the ladders' own kind of
news (``LADDER_NEWS``, registered with the notification machinery when the
app starts), worded when the email or the bell is drawn, in the reader's
language."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.dispatch import kinds, notifications
from games.engine import registry

#: The kind of the rows (``Notification.kind``).
LADDER_NEWS = "ladder"

# The events (``about["event"]``) and the letter each adds to the row's tag,
# which makes it exist once.
DECLINED = ("declined", "d")
EXPIRED = ("expired", "e")
EXPIRED_AGAINST = ("expired_against", "x")
WON = ("won", "w")
CANCELLED = ("cancelled", "c")
# Why a challenge was cancelled (``about["reason"]``).
BY_MODERATOR = "moderator"
PLAYER_LEFT = "player_left"
MATCH_NOT_PLAYED = "match"


def register() -> None:
    """Tell the notification machinery what a ladder's news is (``ready``)."""
    kinds.register_news(
        LADDER_NEWS,
        label=lambda: gettext_lazy("News of a ladder"),
        # A competition's news, with a tournament's: the grid's row of the
        # tournaments and ladders a player plays in. A challenge's match has
        # its own notices (started, finished) in the row of match events.
        preference="email_tournaments",
        words=ladder_words,
        page=lambda about: reverse("ladder_detail", args=[about.get("ladder", "")]),
    )


def queue(user, *, challenge_id: int, game_key: str, opponent: str, news: tuple, **about):
    """One piece of a challenge's news for ``user`` (inside the caller's
    transaction), once per (user, challenge, event)."""
    event, letter = news
    return notifications.queue_news(
        user,
        LADDER_NEWS,
        tag=f"l{challenge_id}-{letter}",
        about={
            "ladder": game_key,
            "challenge": challenge_id,
            "event": event,
            "opponent": opponent,
            **about,
        },
    )


def ladder_words(row) -> dict:
    """Subject and sentences of a ladder's news, in the active language: the
    game's title and the reason are translated here, not when the row is
    written."""
    about = row.about or {}
    try:
        game = str(registry.get(about.get("ladder", "")).title)
    except KeyError:
        game = about.get("ladder", "")
    what = {"game": game, "who": about.get("opponent", ""), "place": about.get("place", 0)}
    event = about.get("event")
    if event == DECLINED[0]:
        subject = _("%(who)s declined your challenge on the %(game)s ladder") % what
        line = (
            _(
                "%(who)s declined your challenge, so you take their place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == EXPIRED[0]:
        subject = _("Your challenge on the %(game)s ladder was not answered") % what
        line = (
            _(
                "%(who)s did not answer your challenge in time, so you take their place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == EXPIRED_AGAINST[0]:
        subject = _("You did not answer a challenge on the %(game)s ladder") % what
        line = (
            _(
                "You did not answer the challenge of %(who)s in time, so they take your place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == WON[0]:
        subject = _("You climbed the %(game)s ladder") % what
        line = _("You won your challenge against %(who)s: you are now in place %(place)s.") % what
    else:
        subject = _("A challenge on the %(game)s ladder was cancelled") % what
        line = _(
            "The challenge between you and %(who)s was cancelled (%(reason)s); nobody moved."
        ) % {**what, "reason": _cancel_reason(about.get("reason", ""))}
    return {"subject": str(subject), "lines": [str(line)]}


def _cancel_reason(reason: str) -> str:
    if reason == BY_MODERATOR:
        return str(_("by a moderator"))
    if reason == PLAYER_LEFT:
        return str(_("a player left the ladder"))
    return str(_("its match was not played"))
