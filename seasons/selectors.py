"""Season reads for the pages: the list, one season's page and the
section of a player's page.

A season's page is a fixed number of queries whatever the number of
divisions and players (tests/seasons/test_query_counts.py): the season, the
viewer's entry, the divisions with their tournaments, every division's
entrants with their users, and every placement of every division; each
division's table is the tournament's own standings
(``tournaments.standings.ordered_standings``) computed from those rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from accounts.refs import PlayerRef, ref_for_user
from games.panel.build import clock_rules
from players import selectors as players_selectors
from seasons.models import (
    TOO_FEW_PLAYERS,
    Division,
    Movement,
    Season,
    SeasonEntry,
    SeasonStatus,
)
from tournaments.models import Entrant, EntrantStatus, Placement
from tournaments.selectors import points_text
from tournaments.standings import TableResult, ordered_standings

LIST_LENGTH = 50


def season_lists() -> dict[str, list[Season]]:
    """Open for sign-up (soonest first), running, and recently over."""
    base = Season.objects.annotate(n_entries=Count("entries"))
    lists = {
        "signup": list(base.filter(status=SeasonStatus.SIGNUP).order_by("starts_at", "game_key")),
        "running": list(
            base.filter(status=SeasonStatus.RUNNING).order_by("-starts_at", "game_key")
        ),
        "over": list(
            base.filter(status__in=[SeasonStatus.FINISHED, SeasonStatus.CANCELLED]).order_by(
                "-starts_at", "game_key"
            )[:LIST_LENGTH]
        ),
    }
    for rows in lists.values():
        for season in rows:
            season.game_title = players_selectors.game_title(season.game_key)
    return lists


@dataclass
class DivisionRow:
    place: int
    ref: PlayerRef
    points: str
    played: int
    status: str
    movement: str
    is_me: bool


@dataclass
class DivisionTable:
    division: Division
    rows: list[DivisionRow]


@dataclass
class SeasonPage:
    season: Season
    game_title: str
    clock_rules: list[str]
    n_entries: int
    divisions: list[DivisionTable] = field(default_factory=list)
    my_entry: SeasonEntry | None = None
    can_sign_up: bool = False
    can_leave: bool = False
    # Why a cancelled season was: for want of players (in the reader's
    # language), or the moderator's reason as written.
    cancel_note: str = ""


def season_page(season_id: int, viewer) -> SeasonPage | None:
    season = Season.objects.annotate(n_entries=Count("entries")).filter(pk=season_id).first()
    if season is None:
        return None
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    page = SeasonPage(
        season=season,
        game_title=players_selectors.game_title(season.game_key),
        clock_rules=clock_rules(season),
        n_entries=season.n_entries,
    )
    if me is not None:
        page.my_entry = SeasonEntry.objects.filter(season=season, user_id=me).first()
    open_now = season.status == SeasonStatus.SIGNUP and timezone.now() < season.starts_at
    page.can_sign_up = me is not None and open_now and page.my_entry is None
    page.can_leave = open_now and page.my_entry is not None
    if season.status != SeasonStatus.SIGNUP:
        page.divisions = division_tables(season, me)
    if season.status == SeasonStatus.CANCELLED:
        page.cancel_note = (
            gettext("Too few players signed up.")
            if season.cancel_reason in ("", TOO_FEW_PLAYERS)
            else season.cancel_reason
        )
    return page


def division_tables(season: Season, me: int | None) -> list[DivisionTable]:
    """Every division's table, top tier first (four queries in all)."""
    divisions = list(season.divisions.select_related("tournament"))
    tournament_ids = [d.tournament_id for d in divisions]
    entrants: dict[int, list[Entrant]] = {}
    for entrant in (
        Entrant.objects.filter(tournament_id__in=tournament_ids)
        .select_related("user__profile")
        .order_by("joined_at", "pk")
    ):
        entrants.setdefault(entrant.tournament_id, []).append(entrant)
    results: dict[int, list[TableResult]] = {}
    grouped: dict[tuple[int, int, int], list] = {}
    for tournament_id, number, table, entrant_id, points, bye, aborted in (
        Placement.objects.filter(round__tournament_id__in=tournament_ids)
        .order_by("round__number", "table", "seat")
        .values_list(
            "round__tournament_id",
            "round__number",
            "table",
            "entrant_id",
            "points",
            "is_bye",
            "aborted",
        )
    ):
        grouped.setdefault((tournament_id, number, table), []).append(
            (entrant_id, points, bye, aborted)
        )
    for (tournament_id, number, _table), rows in grouped.items():
        points = [r[1] for r in rows]
        results.setdefault(tournament_id, []).append(
            TableResult(
                round=number,
                entrants=[r[0] for r in rows],
                points=None if any(p is None for p in points) else points,
                bye=rows[0][2],
                aborted=rows[0][3],
            )
        )
    movement = _movements(season) if season.status == SeasonStatus.FINISHED else {}
    return [
        DivisionTable(
            division=d,
            rows=_division_rows(
                d,
                entrants.get(d.tournament_id, []),
                results.get(d.tournament_id, []),
                movement,
                me,
            ),
        )
        for d in divisions
    ]


def _movements(season: Season) -> dict[int, str]:
    """Who goes up or down, by user id, once the season is over (one query)."""
    labels = {Movement.UP: str(Movement.UP.label), Movement.DOWN: str(Movement.DOWN.label)}
    return {
        user_id: labels.get(movement, "")
        for user_id, movement in season.entries.values_list("user_id", "movement")
    }


def _division_rows(division, entrants, results, movement, me) -> list[DivisionRow]:
    by_pk = {e.pk: e for e in entrants}
    rows = ordered_standings(division.tournament, [(e.pk, e.rating) for e in entrants], results)
    shown = []
    for row in rows:
        entrant = by_pk[row.entrant]
        shown.append(
            DivisionRow(
                place=row.place,
                ref=replace(ref_for_user(entrant.user), rating=entrant.rating),
                points=points_text(row.points),
                played=row.played,
                status=""
                if entrant.status == EntrantStatus.ACTIVE
                else entrant.get_status_display(),
                movement=movement.get(entrant.user_id, ""),
                is_me=entrant.user_id == me,
            )
        )
    return shown


HISTORY_SHOWN = 20


def player_section(user) -> dict:
    """The seasons section of a player's page (``players.sections``): their
    current division and the seasons played, latest first (one query)."""
    entries = list(
        SeasonEntry.objects.filter(user_id=user.pk)
        .select_related("season", "division")
        .order_by("-season__starts_at", "season__game_key")[:HISTORY_SHOWN]
    )
    for entry in entries:
        entry.game_title = players_selectors.game_title(entry.season.game_key)
    current = [e for e in entries if e.season.status == SeasonStatus.RUNNING and e.division]
    signed_up = [e for e in entries if e.season.status == SeasonStatus.SIGNUP]
    history = [e for e in entries if e.season.status == SeasonStatus.FINISHED and e.division]
    return {"current": current, "signed_up": signed_up, "history": history}
