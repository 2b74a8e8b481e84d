"""Tournament reads for the pages: the list and one tournament's page.

The page is a fixed number of queries whatever the number of rounds and
entrants (tests/tournaments/test_query_counts.py): the tournament, its
entrants with their users, the current ratings (before the start), and every
placement of every round with its match's status.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Case, Count, F, IntegerField, Q, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _

from accounts.models import Block
from accounts.refs import PlayerRef, ref_for_user
from games.engine import registry
from games.models import MatchStatus, TakeoverLevel
from games.panel.build import clock_rules
from players import selectors as players_selectors
from players.models import Rating, display_of
from tournaments import chat, feed
from tournaments.models import (
    Entrant,
    EntrantStatus,
    Format,
    Placement,
    Tournament,
    TournamentMessage,
    TournamentStatus,
)
from tournaments.standings import TableResult, crosstable, ordered_standings

LIST_LENGTH = 50


def game_title(key: str) -> str:
    try:
        return registry.get(key).title
    except KeyError:
        return key


def tournament_lists() -> dict[str, list[Tournament]]:
    """Open for entry (soonest first), running, and recently over; not the
    seasons' divisions (``Tournament.listed``), which their season lists."""
    base = Tournament.objects.filter(listed=True).annotate(
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
    title: str = ""  # a knockout's last rounds are named: the final, the semi-finals...


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
    clock_rules: list[str] = field(default_factory=list)  # no vacation, weekend pause
    my_entry: Entrant | None = None
    can_join: bool = False
    can_leave: bool = False
    can_withdraw: bool = False
    winners: list[PlayerRef] = field(default_factory=list)  # once it is over: first place
    winner_points: str = ""
    chat: list[TournamentMessage] = field(default_factory=list)
    can_chat: bool = False
    # The organiser's webhooks with their last deliveries; None for anyone
    # else (``feed.page_hooks``).
    webhooks: list[dict] | None = None
    can_add_webhook: bool = False
    webhook_kinds: list[tuple[str, str]] = field(default_factory=list)


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
    refs = {e.pk: replace(ref_for_user(e.user), rating=e.rating) for e in entrants}
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
    if tournament.format == Format.KNOCKOUT:
        for row in rounds:
            row.title = knockout_round_title(row.number, tournament.rounds)
    results = _results(placements)
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = ordered_standings(
        tournament, [(e.pk, e.rating) for e in entrants if e.pk in refs], results
    )
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
        clock_rules=clock_rules(tournament),
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
    page.chat = chat_lines(tournament.pk, viewer)
    page.can_chat = bool(me) and (
        (page.my_entry is not None and page.my_entry.status != EntrantStatus.REMOVED)
        or chat.is_chat_moderator(viewer)
    )
    is_open = tournament.status == TournamentStatus.OPEN
    page.can_join = bool(me) and is_open and page.my_entry is None
    page.can_leave = is_open and page.my_entry is not None
    page.can_withdraw = (
        tournament.status == TournamentStatus.RUNNING
        and page.my_entry is not None
        and page.my_entry.status == EntrantStatus.ACTIVE
    )
    page.webhooks = feed.page_hooks(tournament, viewer)
    page.can_add_webhook = feed.may_add(page.webhooks)
    page.webhook_kinds = feed.webhook_kinds()
    return page


CHAT_SHOWN = 50


def chat_lines(tournament_id: int, viewer, limit: int = CHAT_SHOWN) -> list[TournamentMessage]:
    """The chat's latest lines, oldest first (one query): hidden ones left
    out, and for a signed-in viewer the lines of anyone they blocked."""
    rows = TournamentMessage.objects.filter(tournament_id=tournament_id, hidden_at__isnull=True)
    if viewer is not None and viewer.is_authenticated:
        rows = rows.exclude(
            user_id__in=Block.objects.filter(blocker_id=viewer.pk).values("blocked_id")
        )
    latest = rows.select_related("user__profile").order_by("-created_at", "-pk")[:limit]
    return list(latest)[::-1]


def knockout_round_title(number: int, rounds: int) -> str:
    """The bracket's names for its last three rounds (others are numbered)."""
    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return ""


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


TROPHIES_SHOWN = 50


TOURNAMENTS_SHOWN = 20


def player_section(user) -> dict:
    """The tournaments section of a player's page (``players.sections``):
    the trophies (as ``trophies_of``) above the tournaments entered (as
    ``tournaments_of``), both from one query: the player's tournaments, each
    numbered in either list by a window of its own and kept where it is
    shown."""
    order = _entered_order()
    won = Case(
        When(status=TournamentStatus.FINISHED, entrants__final_place=1, then=Value(1)),
        default=Value(0),
        output_field=IntegerField(),
    )
    rows = list(
        Tournament.objects.filter(entrants__user_id=user.pk)
        .annotate(
            order=order,
            won=won,
            nth=Window(RowNumber(), order_by=[order.asc(), F("starts_at").desc(), F("pk").desc()]),
            nth_won=Window(
                RowNumber(), partition_by=[won], order_by=[F("finished_at").desc(), F("pk").desc()]
            ),
        )
        .filter(Q(nth__lte=TOURNAMENTS_SHOWN) | Q(won=1, nth_won__lte=TROPHIES_SHOWN))
        .order_by("nth")
    )
    for tournament in rows:
        tournament.game_title = players_selectors.game_title(tournament.game_key)
    trophies = sorted((t for t in rows if t.won), key=lambda t: t.nth_won)
    return {
        "trophies": [t for t in trophies if t.nth_won <= TROPHIES_SHOWN],
        "tournaments": [t for t in rows if t.nth <= TOURNAMENTS_SHOWN],
    }


def _entered_order():
    """Running first, then open, then the rest."""
    return Case(When(status="running", then=0), When(status="open", then=1), default=2)


def trophies_of(user_id: int, limit: int = TROPHIES_SHOWN) -> list:
    """The finished tournaments the player won (first place in the final
    standings), latest first (one query): read from the places stored at
    the end, not replayed."""
    rows = list(
        Tournament.objects.filter(
            status=TournamentStatus.FINISHED,
            entrants__user_id=user_id,
            entrants__final_place=1,
        )
        .only("pk", "name", "game_key", "finished_at")
        .order_by("-finished_at", "-pk")[:limit]
    )
    for tournament in rows:
        tournament.game_title = players_selectors.game_title(tournament.game_key)
    return rows


def tournaments_of(user_id: int, limit: int = TOURNAMENTS_SHOWN) -> list:
    """The player's tournaments, open and running first, then the latest
    (one query); each with its game's title."""
    order = _entered_order()
    rows = list(
        Tournament.objects.filter(entrants__user_id=user_id)
        .annotate(order=order)
        .order_by("order", "-starts_at")[:limit]
    )
    for tournament in rows:
        tournament.game_title = players_selectors.game_title(tournament.game_key)
    return rows
