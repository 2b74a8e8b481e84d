"""The statistics on a player's page, read from ``Outcome`` (a row per human
seat of every finished match, ``players.outcomes``): per game, matches played
and won overall, by seat (moved first or not), by side (Drako's dragon or
dwarves) and by player count; the last ten results; the longest and the
current winning streak; the average finishing place in matches of three or
more; and, for a signed-in visitor, "You and <name>": the matches the two
played together.

Three queries at most, whatever the number of matches: one aggregate grouped
by game, player count, seat and side; one for the last ten results of each
game (a window over ``outcome_recent``); and the head-to-head, one aggregate
over the matches both played. Aborted matches never count; private and
unrated ones do (they were played). Only results are read, never a
position, so no statistic can tell a seat's secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Sum, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine import registry
from players.models import Outcome
from players.outcomes import DRAGON, DWARVES

#: The recent form: this many latest results of each game.
FORM_LENGTH = 10

SIDE_LABELS = {DRAGON: _("As the dragon"), DWARVES: _("As the dwarves")}


def _title(key: str) -> str:
    try:
        return registry.get(key).title
    except KeyError:
        return key


@dataclass
class Tally:
    """Matches played and won, and the share won in whole percent."""

    played: int = 0
    wins: int = 0

    def add(self, played: int, wins: int) -> None:
        self.played += played
        self.wins += wins

    @property
    def share(self) -> int | None:
        return round(100 * self.wins / self.played) if self.played else None


@dataclass
class FormEntry:
    """One of the latest results: the place, and whether it was a win."""

    rank: int
    won: bool


@dataclass
class GameStatistics:
    key: str
    title: str
    overall: Tally = field(default_factory=Tally)
    moved_first: Tally = field(default_factory=Tally)
    moved_later: Tally = field(default_factory=Tally)
    sides: list[tuple[str, Tally]] = field(default_factory=list)
    by_players: list[tuple[int, Tally]] = field(default_factory=list)
    longest_streak: int = 0
    current_streak: int = 0
    # Newest first.
    form: list[FormEntry] = field(default_factory=list)
    # Matches of three or more seats: how many, and the sum of the places.
    multiplayer: int = 0
    place_sum: int = 0

    @property
    def average_place(self) -> float | None:
        """The average finishing place in matches of three or more, one decimal."""
        return round(self.place_sum / self.multiplayer, 1) if self.multiplayer else None

    @property
    def form_wins(self) -> int:
        return sum(1 for entry in self.form if entry.won)

    @property
    def rows(self) -> list[tuple[str, Tally]]:
        """The table's lines, named in the active language: all matches, by
        seat (where the opening named the first seat), by side, by player
        count (where more than one count was played)."""
        rows = [(gettext("All matches"), self.overall)]
        if self.moved_first.played:
            rows.append((gettext("Moving first"), self.moved_first))
        if self.moved_later.played:
            rows.append((gettext("Not moving first"), self.moved_later))
        rows.extend(self.sides)
        if len(self.by_players) > 1:
            rows.extend(
                (ngettext("%(n)d players", "%(n)d players", n) % {"n": n}, tally)
                for n, tally in self.by_players
            )
        return rows


def for_player(user) -> list[GameStatistics]:
    """The statistics of every game ``user`` finished a match of, by title:
    two queries (none beyond the first for a player with no result)."""
    games: dict[str, GameStatistics] = {}
    sides: dict[str, dict[str, Tally]] = {}
    counts: dict[str, dict[int, Tally]] = {}
    groups = (
        Outcome.objects.filter(user=user)
        .values("game_key", "players", "first", "side")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=Q(won=True)),
            places=Sum("rank"),
            streak=Max("streak"),
        )
        .order_by()
    )
    for group in groups:
        key = group["game_key"]
        stats = games.setdefault(key, GameStatistics(key=key, title=_title(key)))
        played, wins = group["played"], group["wins"]
        stats.overall.add(played, wins)
        if group["first"] is True:
            stats.moved_first.add(played, wins)
        elif group["first"] is False:
            stats.moved_later.add(played, wins)
        if group["side"]:
            sides.setdefault(key, {}).setdefault(group["side"], Tally()).add(played, wins)
        counts.setdefault(key, {}).setdefault(group["players"], Tally()).add(played, wins)
        if group["players"] > 2:
            stats.multiplayer += played
            stats.place_sum += group["places"]
        stats.longest_streak = max(stats.longest_streak, group["streak"] or 0)
    if not games:
        return []
    for key, stats in games.items():
        stats.sides = [
            (str(SIDE_LABELS.get(side, side)), tally)
            for side, tally in sorted(sides.get(key, {}).items())
        ]
        stats.by_players = sorted(counts.get(key, {}).items())
    _add_form(user, games)
    return sorted(games.values(), key=lambda s: s.title)


def _add_form(user, games: dict[str, GameStatistics]) -> None:
    """The latest ``FORM_LENGTH`` results of each game, newest first, and the
    current streak (the newest result's): one query, a window numbering each
    game's results from the newest."""
    latest = (
        Outcome.objects.filter(user=user)
        .annotate(
            n=Window(
                RowNumber(),
                partition_by=F("game_key"),
                order_by=[F("finished_at").desc(), F("match_id").desc()],
            )
        )
        .filter(n__lte=FORM_LENGTH)
        .order_by("game_key", "n")
        .values_list("game_key", "rank", "won", "streak", "n")
    )
    for key, rank, won, streak, n in latest:
        stats = games.get(key)
        if stats is None:
            continue
        if n == 1:
            stats.current_streak = streak
        stats.form.append(FormEntry(rank=rank, won=won))


@dataclass
class Meeting:
    """One game's matches two players finished together, from the viewer's
    side: who finished above whom."""

    key: str
    title: str
    played: int
    mine: int  # the viewer finished above the other
    theirs: int  # the other finished above the viewer
    even: int  # the same place


def head_to_head(viewer, other) -> list[Meeting]:
    """The finished matches ``viewer`` and ``other`` both played, per game:
    one query (the viewer's results whose match the other also has a result
    in, each with the other's place, counted per game)."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == other.pk:
        return []
    theirs = Outcome.objects.filter(match=OuterRef("match_id"), user=other)
    rows = (
        Outcome.objects.filter(
            user=viewer, match_id__in=Outcome.objects.filter(user=other).values("match_id")
        )
        .alias(their_rank=Subquery(theirs.values("rank")[:1]))
        .values("game_key")
        .annotate(
            played=Count("pk"),
            mine=Count("pk", filter=Q(rank__lt=F("their_rank"))),
            theirs=Count("pk", filter=Q(rank__gt=F("their_rank"))),
        )
        .order_by()
    )
    meetings = [
        Meeting(
            key=row["game_key"],
            title=_title(row["game_key"]),
            played=row["played"],
            mine=row["mine"],
            theirs=row["theirs"],
            even=row["played"] - row["mine"] - row["theirs"],
        )
        for row in rows
    ]
    return sorted(meetings, key=lambda m: m.title)
