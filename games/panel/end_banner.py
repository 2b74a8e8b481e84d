"""The end-of-match banner: who won and why, each seat's score broken down
by the game's scoring, and what the match did to the viewer's rating."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.refs import PlayerRef, ref_for_seat
from games.models import (
    EARLY_END,
    Match,
    MatchStatus,
    Seat,
    SeatStatus,
)
from games.play import standing
from games.play.standing import RatingWords


@dataclass
class FinalRow:
    rank: int | None
    name: str
    is_me: bool
    dropped: str  # what took the seat out of the match ("Resigned", "Timed out", …) or ""
    cells: list[str]
    ref: PlayerRef | None = None
    rating_change: RatingWords | None = None
    rating_text: str = ""  # "1,538 (+26)"


@dataclass
class FinalBanner:
    headline: str
    reason: str
    columns: list[str]
    rows: list[FinalRow]
    my_rating: str = ""
    my_rating_why: str = ""  # why a provisional rating moved so much
    rating_note: str = ""  # why a rated match changed no rating


def final_banner(
    match: Match, seats: list[Seat], names: list[str], presenter, viewer
) -> FinalBanner:
    """Who won and why, and every seat's score broken down by the game's scoring."""
    result = match.result or {}
    # A match aborted because it ended before each seat had moved has no
    # scores for the game's own summary: the banner says why it was aborted.
    early = match.ended_early_by is not None
    summary = {} if early else presenter.final_summary(result, names)
    dropped = set(result.get("dropped", []))
    n = len(names)
    columns = [str(column) for column in summary.get("columns", [])]
    given = list(summary.get("cells", []))
    cells = given + [[] for _i in range(n - len(given))]
    width = len(columns)
    changes = standing.changes_in(match)
    details = result.get("details") or {}

    def shown(seat: Seat) -> str:
        # A resignation that ended the match (two players) left nobody to a
        # bot: the seat is its player's, not "Bob (bot)".
        if (
            details.get("reason") == "resigned"
            and details.get("resigned") == seat.index
            and seat.status == SeatStatus.RESIGNED
        ):
            return seat.player_name
        return names[seat.index]

    rows = [
        FinalRow(
            rank=seat.rank,
            name=shown(seat),
            is_me=seat.index == viewer,
            dropped=_dropped_words(seat) if seat.index in dropped else "",
            cells=(list(cells[seat.index]) + [""] * width)[:width],
            ref=ref_for_seat(seat, shown(seat)),
            rating_change=changes.get(seat.user_id),
            rating_text=changes[seat.user_id].short if seat.user_id in changes else "",
        )
        for seat in seats
    ]
    rows.sort(key=lambda row: (row.rank is None, row.rank or 0))
    winners = [row.name for row in rows if row.rank == 1]
    if match.status != MatchStatus.FINISHED:
        headline = str(_("The match was aborted."))
    elif len(winners) == 1:
        headline = str(_("%(name)s won.") % {"name": winners[0]})
    elif winners:
        headline = str(_("%(names)s share the win.") % {"names": ", ".join(winners)})
    else:
        headline = str(_("The match is over."))
    players = [seat.player_name for seat in sorted(seats, key=lambda s: s.index)]
    reason = " ".join(
        sentence
        for sentence in [*ended_by(result, players), str(summary.get("reason", ""))]
        if sentence
    )
    mine = next((row.rating_change for row in rows if row.is_me), None)
    return FinalBanner(
        headline,
        reason,
        columns,
        rows,
        my_rating=mine.sentence if mine else "",
        my_rating_why=mine.why if mine else "",
        rating_note=standing.uncounted_note(match, changes)
        or standing.abandoned_note(match, seats, changes, _viewer_user(seats, viewer)),
    )


def _dropped_words(seat: Seat) -> str:
    """What took a seat out of the match, as its row says it: "Resigned",
    "Timed out" or "Replaced by a bot" (the seat's status)."""
    try:
        return str(SeatStatus(seat.status).label) if seat.status != SeatStatus.PLAYING else ""
    except ValueError:
        return ""


def ended_by(result: dict, players: list[str]) -> list[str]:
    """How a match ended when the game itself did not end it (a resignation, a
    loss on time, a closed account, a moderator's ranks), and which seats the
    game ranked first but that rank last because a bot had taken them over.
    ``players`` are the players' own names (``Seat.player_name``). The game's
    own reason (``final_summary``) follows these sentences."""
    details = result.get("details") or {}

    def name(seat) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    sentences = []
    reason = details.get("reason")
    if reason == EARLY_END:
        who = {"who": name(details.get("seat"))}
        sentences.append(
            {
                "resigned": _("%(who)s resigned before each player had moved."),
                "deactivated": _(
                    "A moderator closed %(who)s's account before each player had moved."
                ),
            }.get(details.get("ended"), _("%(who)s ran out of time before each player had moved."))
            % who
        )
        sentences.append(_("A match that ends so early is aborted, and no rating changes."))
    elif details.get("adjudicated"):
        sentences.append(_("A moderator decided the result."))
    elif reason == "resigned":
        sentences.append(_("%(who)s resigned.") % {"who": name(details.get("resigned"))})
    elif reason == "time":
        sentences.append(_("%(who)s ran out of time.") % {"who": name(details.get("timed_out"))})
    elif reason == "deactivated":
        sentences.append(
            _("A moderator closed %(who)s's account.") % {"who": name(details.get("deactivated"))}
        )
    game_ranks = result.get("game_ranks") or []
    ranks = result.get("ranks") or []
    for seat in result.get("dropped") or []:
        if seat < len(game_ranks) and game_ranks[seat] == 1 and ranks[seat] != 1:
            sentences.append(
                _(
                    "%(who)s came first in the game, but a bot had taken over the seat, "
                    "so it ranks last."
                )
                % {"who": name(seat)}
            )
    return [str(sentence) for sentence in sentences]


def _viewer_user(seats: list[Seat], viewer) -> int | None:
    """The user id of the viewer's seat (``viewer`` is a seat index, or None)."""
    return next((s.user_id for s in seats if s.index == viewer), None)
