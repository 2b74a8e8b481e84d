"""What quick match tells a player: a table formed for their request. A row
of quick match's own kind of news (``QUICK_MATCH_NEWS``, registered with the
notification machinery when the app starts), once per request, worded when
the email or the bell is drawn, in the reader's language, and leading to the
new match."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.dispatch import kinds, notifications
from games.engine import registry

#: The kind of the rows (``Notification.kind``).
QUICK_MATCH_NEWS = "quick_match"

SEATED = "seated"
WITH_BOTS = "bots"


def register() -> None:
    """Tell the notification machinery what quick match's news is (``ready``)."""
    kinds.register_news(
        QUICK_MATCH_NEWS,
        label=lambda: gettext_lazy("Quick match found a table"),
        preference="email_match_events",
        words=quick_match_words,
        page=_page,
    )


def _page(about: dict) -> str:
    if about.get("match"):
        return reverse("match_detail", args=[about["match"]])
    return reverse("quick_match")


def seated(user, *, request_id: int, match_id: int, game_key: str, others: list[str]):
    """A table formed for ``user``'s request (inside the pass's transaction)."""
    return notifications.queue_news(
        user,
        QUICK_MATCH_NEWS,
        tag=f"q{request_id}",
        about={"event": SEATED, "match": match_id, "game": game_key, "others": others},
    )


def seated_with_bots(user, *, request_id: int, match_id: int, game_key: str, hours: int):
    """Nobody fitting came in ``hours``: the request's table was filled with bots."""
    return notifications.queue_news(
        user,
        QUICK_MATCH_NEWS,
        tag=f"q{request_id}",
        about={"event": WITH_BOTS, "match": match_id, "game": game_key, "hours": hours},
    )


def quick_match_words(row) -> dict:
    """Subject and sentence of quick match's news, in the active language."""
    about = row.about or {}
    try:
        game = str(registry.get(about.get("game", "")).title)
    except KeyError:
        game = about.get("game", "")
    what = {"game": game, "others": ", ".join(about.get("others") or [])}
    if about.get("event") == WITH_BOTS:
        subject = _("Quick match: your %(game)s match against bots has started") % what
        hours = about.get("hours", 0)
        line = ngettext(
            "Nobody who fits your request came within %(n)d hour, so bots fill your "
            "%(game)s table, as you asked; the match has started.",
            "Nobody who fits your request came within %(n)d hours, so bots fill your "
            "%(game)s table, as you asked; the match has started.",
            hours,
        ) % {**what, "n": hours}
        return {"subject": str(subject), "lines": [str(line)]}
    subject = _("Quick match: your %(game)s match has started") % what
    line = _(
        "Quick match found you a table of %(game)s with %(others)s; the match has started."
    ) % (what)
    return {"subject": str(subject), "lines": [str(line)]}
