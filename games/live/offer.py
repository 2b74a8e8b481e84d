""" "Let's play live now": a seated player tells the match's other seated
humans, by their email and bell (a kind of news, ``LIVE_OFFER_NEWS``, which
follows their "your turn" email preference: it is as urgent), with a link to
the match. Once per match in ``core.limits.LIVE_OFFER``'s window, whoever
offers, so nobody can use it to flood the others."""

from __future__ import annotations

import time

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import limits
from core.errors import Conflict, Forbidden, ServiceError
from games.dispatch import kinds, notifications
from games.engine import registry
from games.models import Match, MatchStatus, Seat

#: The kind of the rows (``Notification.kind``).
LIVE_OFFER_NEWS = "live_offer"


def register() -> None:
    """Tell the notification machinery what a live offer is (``ready``)."""
    kinds.register_news(
        LIVE_OFFER_NEWS,
        label=lambda: gettext_lazy("A player offers to play live now"),
        preference="email_your_turn",
        words=offer_words,
        page=_page,
    )


def _page(about: dict) -> str:
    return reverse("match_detail", args=[about.get("match", 0)])


def humans_of(seats: list[Seat]) -> list[Seat]:
    """The seats a person plays now (not a bot, not resigned or taken over)."""
    return [seat for seat in seats if seat.user_id and not seat.played_by_bot]


def can_offer(match: Match, user) -> bool:
    """Whether the match page shows ``user`` the offer's button: a seated
    human of a match in play with another seated human (the limit is told
    when pressed)."""
    if match.status != MatchStatus.ACTIVE or not user.is_authenticated:
        return False
    ids = {seat.user_id for seat in humans_of(list(match.seats.all()))}
    return user.pk in ids and len(ids) > 1


def offer_live(*, user, match: Match) -> int:
    """Tell the other seated humans that ``user`` offers to play live now.
    Returns how many were told. Refuses (and changes nothing) a match not in
    play, someone who does not play a seat, a match with nobody else to tell,
    and a second offer within the limit's window."""
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(_("Live play can be offered only while the match is in play."))
    humans = humans_of(list(match.seats.select_related("user__profile").order_by("index")))
    mine = next((seat for seat in humans if seat.user_id == user.pk), None)
    if mine is None:
        raise Forbidden(_("Only a player of this match can offer to play live."))
    others = [seat for seat in humans if seat.user_id != user.pk]
    if not others:
        raise ServiceError(_("Nobody else plays this match: there is nobody to play live with."))
    limits.check(
        limits.LIVE_OFFER,
        match.pk,
        message=_("Live play was offered in this match a few minutes ago. Please wait a little."),
    )
    window = int(time.time() // limits.LIVE_OFFER.seconds)
    about = {"match": match.pk, "game": match.game_key, "who": mine.player_name}
    with transaction.atomic():
        for seat in others:
            notifications.queue_news(
                seat.user, LIVE_OFFER_NEWS, tag=f"m{match.pk}w{window}", about=about
            )
    return len(others)


def offer_words(row) -> dict:
    """Subject and sentences of a live offer, in the reader's language."""
    about = row.about or {}
    try:
        game = str(registry.get(about.get("game", "")).title)
    except KeyError:
        game = about.get("game", "")
    what = {"game": game, "id": about.get("match", ""), "who": about.get("who", "")}
    subject = _("%(who)s offers to play %(game)s #%(id)s live now") % what
    lines = [
        _(
            "%(who)s has %(game)s #%(id)s open and offers to play it live now: while "
            "every player has the match page open, each move shows on the others' "
            "pages within a second."
        )
        % what
    ]
    return {"subject": str(subject), "lines": [str(line) for line in lines]}
