"""What a tournament tells its entrants: it started, a round started, it
ended, it was cancelled. Each is a row of the tournaments' own kind of news
(``TOURNAMENT_NEWS``, registered with the notification machinery when the
app starts), one per entrant, emailed in the player's language."""

from __future__ import annotations

from collections.abc import Collection

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.dispatch import kinds, notifications

#: The kind of the rows (``Notification.kind``).
TOURNAMENT_NEWS = "tournament"

STARTED = "started"
ROUND = "round"
FINISHED = "finished"
CANCELLED = "cancelled"


def register() -> None:
    """Tell the notification machinery what a tournament's news is (``ready``)."""
    kinds.register_news(
        TOURNAMENT_NEWS,
        label=lambda: gettext_lazy("News of a tournament"),
        preference="email_match_events",
        words=tournament_words,
        page=lambda about: reverse("tournament_detail", args=[about.get("tournament", 0)]),
    )


def tournament_event(
    tournament, event: str, round_number: int = 0, byes: Collection[int] = ()
) -> None:
    """Queue one notification per entrant still in the tournament (inside the
    caller's transaction; delivered after the commit). ``byes``: the entrant
    ids sitting the round out."""
    from tournaments.models import EntrantStatus

    entrants = tournament.entrants.filter(status=EntrantStatus.ACTIVE).select_related(
        "user__profile"
    )
    for entrant in entrants:
        queue_tournament(
            entrant.user,
            tournament_id=tournament.pk,
            name=tournament.name,
            event=event,
            round_number=round_number,
            bye=entrant.pk in byes,
        )


def queue_tournament(
    user, *, tournament_id: int, name: str, event: str, round_number: int = 0, bye: bool = False
):
    """A tournament's news for one entrant, once per (user, tournament,
    event, round); ``bye``: the entrant sits this round out (the start's
    news then says so, not "your first match")."""
    about = {"tournament": tournament_id, "name": name, "event": event, "round": round_number}
    if bye:
        about["bye"] = True
    return notifications.queue_news(
        user,
        TOURNAMENT_NEWS,
        tag=f"t{tournament_id}-{event[:1]}{round_number}",
        version=round_number,
        about=about,
    )


def tournament_words(row) -> dict:
    """Subject and sentences of a tournament's news, in the active language."""
    about = row.about or {}
    what = {"name": about.get("name", ""), "round": about.get("round", 0)}
    event = about.get("event")
    if event == STARTED:
        subject = _("The tournament %(name)s has started") % what
        if about.get("bye"):
            line = (
                _("The tournament %(name)s has started; you sit out round 1 with a bye (a win).")
                % what
            )
        else:
            line = _("The tournament %(name)s has started; your first match is waiting.") % what
    elif event == ROUND:
        subject = _("Round %(round)s of %(name)s has started") % what
        line = _("Round %(round)s of the tournament %(name)s has started.") % what
    elif event == FINISHED:
        subject = _("The tournament %(name)s is over") % what
        line = _("The tournament %(name)s is over: see the final standings.") % what
    else:
        subject = _("The tournament %(name)s was cancelled") % what
        line = _("The tournament %(name)s was cancelled.") % what
    return {"subject": str(subject), "lines": [str(line)]}
