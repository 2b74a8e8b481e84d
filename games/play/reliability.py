"""A player's reliability record and their number of matches at once.

The record (docs/correspondence.md, "The reliability record") is read from
the player's seats, never kept apart, so it cannot drift from the matches:

- **completed**: of the matches that ended (finished or aborted) in the
  last ``WINDOW``, those where the seat was still the player's at the end.
  Playing to the end and resigning are completing a match (a resignation
  ends it cleanly, or hands the seat to a bot in the open); losing on time
  or leaving the seat to a bot after missed deadlines (or a moderator's
  takeover) is not.
- **timeouts**: matches lost on time or left to the bot after missed
  deadlines, among those that ended in the window and those in play.
- **strikes**: missed deadlines the clock moved for, in the same matches.

A player with no ended match in the window has no share yet (``percent``
is None) and meets any minimum: a newcomer is not kept out of every match
that asks for one.

The cap on matches at once (``limit_for``) grows with finished matches:
``BASE_LIMIT`` plus one for every ``MATCHES_PER_EXTRA`` finished, up to
``MAX_LIMIT``. Moderators are exempt; bots have no account to count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import roles
from core.errors import Conflict, Forbidden
from games.models import MatchStatus, Seat, SeatStatus

#: The record looks back this far.
WINDOW = timedelta(days=90)
#: Seat statuses of a match the player did not complete.
LEFT = (SeatStatus.TIMED_OUT, SeatStatus.BOT)
#: The cap on matches at once: BASE_LIMIT + finished // MATCHES_PER_EXTRA, at most MAX_LIMIT.
BASE_LIMIT = 10
MATCHES_PER_EXTRA = 5
MAX_LIMIT = 100


class TooManyMatches(Conflict):
    """The player already plays as many matches at once as they may."""


class BelowMinimum(Forbidden):
    """The player's record is below the minimum a match or tournament asks."""


@dataclass(frozen=True)
class Record:
    """One player's record over the last ``WINDOW``."""

    ended: int  # matches that ended in the window
    completed: int  # of those, with the seat still theirs at the end
    timeouts: int  # lost on time or left to the bot (ended in the window or in play)
    strikes: int  # missed deadlines in the same matches

    @property
    def percent(self) -> int | None:
        """The completed share, rounded down (so 99.6 % is not shown as a
        perfect record); None with no ended match yet."""
        if not self.ended:
            return None
        return self.completed * 100 // self.ended

    def meets(self, minimum: int | None) -> bool:
        """Whether the record satisfies a minimum percentage (none asked, or
        no share yet, always does)."""
        return not minimum or self.percent is None or self.percent >= minimum

    @property
    def summary(self) -> str:
        """The record in one sentence, as the player page shows it."""
        if self.percent is None:
            head = _("No finished matches in the last 90 days.")
        else:
            head = ngettext(
                "Completed %(percent)s%% of %(n)s finished match in the last 90 days.",
                "Completed %(percent)s%% of %(n)s finished matches in the last 90 days.",
                self.ended,
            ) % {"percent": self.percent, "n": self.ended}
        tail = ngettext("%(n)s timeout", "%(n)s timeouts", self.timeouts) % {"n": self.timeouts}
        strikes = ngettext("%(n)s missed deadline", "%(n)s missed deadlines", self.strikes) % {
            "n": self.strikes
        }
        return f"{head} {tail} · {strikes}."


def _recent(now) -> Q:
    """The seats the record counts: their match ended in the window, or is in play."""
    return Q(match__status=MatchStatus.ACTIVE) | Q(
        match__status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED],
        match__finished_at__gte=now - WINDOW,
    )


def record_of(user_id: int, now=None) -> Record:
    """The player's record: one aggregate statement over their seats (the
    seat's user index, each seat joined to its match)."""
    now = now or timezone.now()
    ended = Q(match__status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED])
    row = Seat.objects.filter(_recent(now), user_id=user_id).aggregate(
        ended=Count("pk", filter=ended),
        completed=Count("pk", filter=ended & ~Q(status__in=LEFT)),
        timeouts=Count("pk", filter=Q(status__in=LEFT)),
        strikes=Sum("strikes"),
    )
    return Record(row["ended"], row["completed"], row["timeouts"], row["strikes"] or 0)


def limit_for(finished: int) -> int:
    """How many matches at once a player with ``finished`` finished matches may play."""
    return min(MAX_LIMIT, BASE_LIMIT + finished // MATCHES_PER_EXTRA)


def load_of(user_id: int) -> tuple[int, int]:
    """(matches at once, finished matches) of a player, in one statement:
    the matches open or in play where the seat is still theirs, and every
    match they finished."""
    row = Seat.objects.filter(user_id=user_id).aggregate(
        current=Count(
            "pk",
            filter=Q(match__status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE])
            & ~Q(status__in=[*LEFT, SeatStatus.RESIGNED]),
        ),
        finished=Count("pk", filter=Q(match__status=MatchStatus.FINISHED)),
    )
    return row["current"], row["finished"]


def require_room(user, more: int = 1) -> None:
    """Refuse (``TooManyMatches``, its message for the player) a new match,
    a join or a tournament entry that would take the player past their cap.
    Moderators are exempt."""
    if roles.is_moderator(user):
        return
    current, finished = load_of(user.pk)
    limit = limit_for(finished)
    if current + more > limit:
        raise TooManyMatches(
            _(
                "You already play %(current)s matches at once, your limit for now. "
                "The limit grows with your finished matches (10, and one more for "
                "every 5 finished, up to 100)."
            )
            % {"current": current}
        )


def require_minimum(user, minimum: int | None) -> None:
    """Refuse (``BelowMinimum``) a player whose record is below ``minimum`` percent."""
    if not minimum:
        return
    record = record_of(user.pk)
    if not record.meets(minimum):
        raise BelowMinimum(
            _(
                "This asks for at least %(minimum)s%% of matches completed in the last "
                "90 days; your record is %(percent)s%%."
            )
            % {"minimum": minimum, "percent": record.percent}
        )
