"""Tournament reads for the pages: the list and one tournament's page.

The page is a fixed number of queries whatever the number of rounds and
entrants (tests/tournaments/test_query_counts.py): the tournament, its
entrants with their users, the current ratings (before the start), and every
placement of every round with its match's status.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Case, Count, Q, When

from accounts.refs import PlayerRef, ref_for_user
from games.engine import registry
from games.models import MatchStatus, TakeoverLevel
from players import selectors as players_selectors
from players.models import Rating, display_of
from tournaments.models import (
    Entrant,
    EntrantStatus,
    Format,
    Placement,
    Tournament,
    TournamentStatus,
)
from tournaments.standings import TableResult, crosstable, standings

LIST_LENGTH = 50


def game_title(key: str) -> str:
    try:
        return registry.get(key).title
    except KeyError:
        return key


def tournament_lists() -> dict[str, list[Tournament]]:
    """Open for entry (soonest first), running, and recently over."""
    base = Tournament.objects.annotate(
        n_entrants=Count("entrants", filter=Q(entrants__status=EntrantStatus.ACTIVE))
    )
    lists = {
        "open": list(base.filter(status=TournamentStatus.OPEN).order_by("starts_at")[:LIST_LENGTH]),
        "running": list(
            base.filter(status=TournamentStatus.RUNNING).order_by("-started_at")[:LIST_LENGTH]
        ),
        "over": list(
            base.filter(
                status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED]
            ).order_by("-finished_at")[:LIST_LENGTH]
        ),
    }
    for rows in lists.values():
        for tournament in rows:
            tournament.game_title = game_title(tournament.game_key)
    return lists


@dataclass
class TableRow:
    number: int
    match_id: int | None
    in_play: bool
    aborted: bool
    bye: bool
    players: list[tuple[PlayerRef, float | None]]


@dataclass
class RoundRow:
    number: int
    tables: list[TableRow]


@dataclass
class StandingRow:
    place: int
    ref: PlayerRef
    points: float
    buchholz: float
    berger: float
    played: int
    status: str
    is_me: bool


@dataclass
class TournamentPage:
    tournament: Tournament
    game_title: str
    entrants: list[tuple[PlayerRef, int, str]]
    rounds: list[RoundRow]
    standings: list[StandingRow]
    cross_heads: list[PlayerRef] = field(default_factory=list)
    cross_rows: list[tuple[PlayerRef, list[str]]] = field(default_factory=list)
    takeover_label: str = ""
    my_entry: Entrant | None = None
    can_join: bool = False
    can_leave: bool = False
    can_withdraw: bool = False
    winners: list[PlayerRef] = field(default_factory=list)  # once it is over: first place
    winner_points: str = ""


def points_text(points: float | None) -> str:
    """½ points as chess writes them: 1½, ½, 2."""
    if points is None:
        return "…"
    whole = int(points)
    rest = points - whole
    if abs(rest - 0.5) < 1e-9:
        return f"{whole}½" if whole else "½"
    if abs(rest) < 1e-9:
        return str(whole)
    return f"{points:.2f}"


def tournament_page(tournament_id: int, viewer) -> TournamentPage | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    entrants = list(tournament.entrants.select_related("user__profile").order_by("joined_at", "pk"))
    if tournament.status == TournamentStatus.OPEN:
        current = dict(
            Rating.objects.filter(
                game_key=tournament.game_key, user_id__in=[e.user_id for e in entrants]
            ).values_list("user_id", "display")
        )
        newcomer = display_of(25.0, 25.0 / 3.0)
        for entrant in entrants:
            entrant.rating = current.get(entrant.user_id, newcomer)
    refs = {
        e.pk: PlayerRef(name=ref_for_user(e.user).name, username=e.user.username, rating=e.rating)
        for e in entrants
    }
    placements = list(
        Placement.objects.filter(round__tournament=tournament)
        .select_related("round", "match")
        .only(
            "round__number",
            "table",
            "seat",
            "entrant_id",
            "points",
            "is_bye",
            "aborted",
            "match_id",
            "match__status",
        )
        .order_by("round__number", "table", "seat")
    )
    rounds = _rounds(placements, refs)
    results = _results(placements)
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = standings([(e.pk, e.rating) for e in entrants if e.pk in refs], results)
    status_of = {
        e.pk: "" if e.status == EntrantStatus.ACTIVE else e.get_status_display() for e in entrants
    }
    user_of = {e.pk: e.user_id for e in entrants}
    standing_rows = [
        StandingRow(
            place=r.place,
            ref=refs[r.entrant],
            points=r.points,
            buchholz=r.buchholz,
            berger=r.berger,
            played=r.played,
            status=status_of[r.entrant],
            is_me=user_of[r.entrant] == me,
        )
        for r in rows
    ]
    page = TournamentPage(
        tournament=tournament,
        game_title=game_title(tournament.game_key),
        entrants=[(refs[e.pk], e.rating, status_of[e.pk]) for e in entrants],
        rounds=rounds,
        standings=standing_rows,
        takeover_label=str(TakeoverLevel(tournament.takeover_level).label),
    )
    if tournament.format == Format.ROUND_ROBIN and results:
        order = [r.entrant for r in rows]
        cross = crosstable(order, results)
        page.cross_heads = [refs[e] for e in order]
        page.cross_rows = [
            (
                refs[a],
                [
                    None if a == b else points_text(cross[a].get(b)) if b in cross[a] else ""
                    for b in order
                ],
            )
            for a in order
        ]
    if tournament.status == TournamentStatus.FINISHED and standing_rows:
        page.winners = [row.ref for row in standing_rows if row.place == 1]
        page.winner_points = points_text(standing_rows[0].points)
    page.my_entry = next((e for e in entrants if e.user_id == me), None)
    is_open = tournament.status == TournamentStatus.OPEN
    page.can_join = bool(me) and is_open and page.my_entry is None
    page.can_leave = is_open and page.my_entry is not None
    page.can_withdraw = (
        tournament.status == TournamentStatus.RUNNING
        and page.my_entry is not None
        and page.my_entry.status == EntrantStatus.ACTIVE
    )
    return page


def _rounds(placements: list[Placement], refs: dict[int, PlayerRef]) -> list[RoundRow]:
    rounds: dict[int, dict[int, TableRow]] = {}
    for p in placements:
        tables = rounds.setdefault(p.round.number, {})
        row = tables.get(p.table)
        if row is None:
            in_play = p.match is not None and p.match.status in (
                MatchStatus.OPEN,
                MatchStatus.ACTIVE,
            )
            row = tables[p.table] = TableRow(
                number=p.table,
                match_id=p.match_id,
                in_play=in_play,
                aborted=p.aborted,
                bye=p.is_bye,
                players=[],
            )
        if p.entrant_id in refs:
            row.players.append((refs[p.entrant_id], points_text(p.points)))
    return [
        RoundRow(number=n, tables=list(tables.values())) for n, tables in sorted(rounds.items())
    ]


def _results(placements: list[Placement]) -> list[TableResult]:
    grouped: dict[tuple[int, int], list[Placement]] = {}
    for p in placements:
        grouped.setdefault((p.round.number, p.table), []).append(p)
    results = []
    for (number, _table), rows in grouped.items():
        points = [r.points for r in rows]
        results.append(
            TableResult(
                round=number,
                entrants=[r.entrant_id for r in rows],
                points=None if any(x is None for x in points) else points,
                bye=rows[0].is_bye,
                aborted=rows[0].aborted,
            )
        )
    return results


def player_section(user) -> dict:
    """The tournaments section of a player's page (``players.sections``)."""
    return {"tournaments": tournaments_of(user.pk)}


def tournaments_of(user_id: int, limit: int = 20) -> list:
    """The player's tournaments, open and running first, then the latest
    (one query); each with its game's title."""
    order = Case(When(status="running", then=0), When(status="open", then=1), default=2)
    rows = list(
        Tournament.objects.filter(entrants__user_id=user_id)
        .annotate(order=order)
        .order_by("order", "-starts_at")[:limit]
    )
    for tournament in rows:
        tournament.game_title = players_selectors.game_title(tournament.game_key)
    return rows
