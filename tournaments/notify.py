"""What a tournament tells its entrants: it started, a round started, it
ended, it was cancelled. Each is a row of the tournaments' own kind of news
(``TOURNAMENT_NEWS``, registered with the notification machinery when the
app starts), one per entrant, emailed in the player's language.

A round's start is one email per player: the start (round 1) or the round's
news of a player whose match emails them at that moment (the match started,
or their turn) is in the bell only, and that email says it instead
(``start_headline``, registered as the match's start headline). The end
names the winner, the player's place and the final table."""

from __future__ import annotations

from collections.abc import Collection

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.dispatch import kinds, notifications

#: The kind of the rows (``Notification.kind``).
TOURNAMENT_NEWS = "tournament"

STARTED = "started"
ROUND = "round"
FINISHED = "finished"
CANCELLED = "cancelled"


def register() -> None:
    """Tell the notification machinery what a tournament's news is (``ready``)."""
    kinds.register_start_headline(start_headline)
    kinds.register_news(
        TOURNAMENT_NEWS,
        label=lambda: gettext_lazy("News of a tournament"),
        preference="email_tournaments",
        words=tournament_words,
        page=lambda about: reverse("tournament_detail", args=[about.get("tournament", 0)]),
    )


def tournament_event(
    tournament,
    event: str,
    round_number: int = 0,
    byes: Collection[int] = (),
    told: Collection[int] = (),
    final: dict | None = None,
) -> None:
    """Queue one notification per entrant still in the tournament (inside the
    caller's transaction; delivered after the commit). ``byes``: the entrant
    ids sitting the round out; ``told``: the user ids whose match's email of
    this moment says it (their row goes to the bell only); ``final``: the end's
    winners, table and each entrant's place (``final_table``)."""
    from tournaments.models import EntrantStatus

    entrants = tournament.entrants.filter(status=EntrantStatus.ACTIVE).select_related(
        "user__profile"
    )
    for entrant in entrants:
        extra = {}
        if final is not None:
            extra = {
                "winners": final["winners"],
                "table": final["table"],
                "place": final["places"].get(entrant.pk, 0),
                "of": len(final["places"]),
            }
        queue_tournament(
            entrant.user,
            tournament_id=tournament.pk,
            name=tournament.name,
            event=event,
            round_number=round_number,
            bye=entrant.pk in byes,
            told_elsewhere=notifications.TOLD_IN_MATCH_EMAIL if entrant.user_id in told else "",
            **extra,
        )


def queue_tournament(
    user,
    *,
    tournament_id: int,
    name: str,
    event: str,
    round_number: int = 0,
    bye: bool = False,
    told_elsewhere: str = "",
    **extra,
):
    """A tournament's news for one entrant, once per (user, tournament,
    event, round); ``bye``: the entrant sits this round out (the start's
    news then says so, not "your first match")."""
    about = {"tournament": tournament_id, "name": name, "event": event, "round": round_number}
    if bye:
        about["bye"] = True
    about.update(extra)
    return notifications.queue_news(
        user,
        TOURNAMENT_NEWS,
        tag=f"t{tournament_id}-{event[:1]}{round_number}",
        version=round_number,
        about=about,
        told_elsewhere=told_elsewhere,
    )


def start_headline(match) -> list[str]:
    """What a tournament's match says of its start, in its first email: the
    tournament started (round 1), or the round did (one query; nothing for
    a match of no tournament)."""
    from tournaments.models import Placement

    placement = (
        Placement.objects.filter(match_id=match.pk)
        .select_related("round__tournament")
        .only("round__number", "round__tournament__name", "round__tournament_id")
        .first()
    )
    if placement is None:
        return []
    what = {"name": placement.round.tournament.name, "round": placement.round.number}
    if placement.round.number == 1:
        line = _("The tournament %(name)s has started: this is your match of round 1.") % what
    else:
        line = (
            _("Round %(round)s of the tournament %(name)s has started: this is your match.") % what
        )
    page = kinds.absolute(reverse("tournament_detail", args=[placement.round.tournament_id]))
    return [str(line), str(_("The tournament's page: %(url)s") % {"url": page})]


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
    elif event == FINISHED and about.get("winners"):
        return _finished_words(about, what)
    elif event == FINISHED:
        subject = _("The tournament %(name)s is over") % what
        line = _("The tournament %(name)s is over: see the final standings.") % what
    else:
        subject = _("The tournament %(name)s was cancelled") % what
        line = _("The tournament %(name)s was cancelled.") % what
    return {"subject": str(subject), "lines": [str(line)]}


def _finished_words(about: dict, what: dict) -> dict:
    """The end: who won, the reader's place, and the final table (stored in
    the row when the tournament ended)."""
    winners = ", ".join(about["winners"])
    n = len(about["winners"])
    subject = ngettext(
        "The tournament %(name)s is over: the winner is %(winners)s",
        "The tournament %(name)s is over: the winners are %(winners)s",
        n,
    ) % {**what, "winners": winners}
    lines = [str(subject) + "."]
    if about.get("place"):
        lines.append(
            str(
                _("Your place: %(place)s of %(of)s.")
                % {"place": about["place"], "of": about.get("of", about["place"])}
            )
        )
    lines.append(str(_("Final standings (points):")))
    lines.extend(f"{place}. {name} ({points})" for place, name, points in about.get("table", []))
    return {"subject": str(subject), "lines": lines}
