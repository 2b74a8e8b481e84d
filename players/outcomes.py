"""The statistics' one table, ``Outcome``: a row per human seat of every
finished match, written when the match finishes and rewritten when a
moderator corrects its result (``players.receivers``), so the player page
reads its statistics with a few aggregate queries over one index instead of
walking every match (``players.statistics``).

Aborted matches get no row. Private and unrated ones do: they were played.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery

from games.engine import registry
from games.engine.base import IllegalAction
from games.models import Match, MatchStatus, Seat
from players.models import Outcome

logger = logging.getLogger(__name__)

#: The sides of the asymmetric games, named by the seat the result's details
#: give one of them (``Game.final_details``); other games have no sides.
DRAGON, DWARVES = "dragon", "dwarves"


def first_seat(match: Match) -> int | None:
    """The seat that moved first: the game's opening set up again from the
    match's seed (pure and cheap, no query). None when the opening waits on
    more than one seat, or the game or its rules version is no longer known,
    so that a statistic never stops a match from ending."""
    try:
        game = registry.get(match.game_key)
    except KeyError:
        return None
    try:
        state = game.setup_for(match.rules_version, match.n_seats, match.options, match.seed)
        seats = game.current_seats(state)
    except IllegalAction:
        return None
    except Exception:
        # Runs inside the transaction that ends the match: a failure here
        # would undo the end itself. Logged, and the seat left unknown.
        logger.exception("the opening of match %s could not be set up again", match.pk)
        return None
    return seats[0] if len(seats) == 1 else None


def side_of(match: Match, seat_index: int) -> str:
    """The side a seat played: Drako's dragon or dwarves (the dragon's seat is
    in the result's details), "" in the games where everyone plays alike."""
    if match.game_key != "drako":
        return ""
    dragon = ((match.result or {}).get("details") or {}).get("dragon_seat")
    if dragon not in (0, 1):
        return ""
    return DRAGON if seat_index == dragon else DWARVES


def _human(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.is_bot


def _last_streaks(user_ids: list[int], game_key: str) -> dict[int, int]:
    """Each player's winning streak in ``game_key`` before this match: the
    streak of their latest result, all in one query (a LIMIT 1 over
    ``outcome_recent`` per player)."""
    latest = Outcome.objects.filter(user=OuterRef("pk"), game_key=game_key).order_by(
        "-finished_at", "-match_id"
    )
    rows = (
        get_user_model()
        .objects.filter(pk__in=user_ids)
        .annotate(streak=Subquery(latest.values("streak")[:1]))
        .values_list("pk", "streak")
    )
    return {pk: streak or 0 for pk, streak in rows}


def _row(match, seat, first: int | None, streak: int, model=Outcome) -> Outcome:
    return model(
        match_id=match.pk,
        user_id=seat.user_id,
        game_key=match.game_key,
        finished_at=match.finished_at,
        seat=seat.index,
        players=match.n_seats,
        first=None if first is None else seat.index == first,
        side=side_of(match, seat.index),
        rank=seat.rank,
        won=seat.rank == 1,
        rated=match.rated,
        streak=streak,
    )


def record(match: Match, seats: list[Seat]) -> None:
    """Write the human seats' results of a match that has just finished (two
    queries: the players' latest streaks, one insert). Called inside the
    transaction that finishes it."""
    if match.status != MatchStatus.FINISHED:
        return
    humans = [s for s in seats if _human(s) and s.rank is not None]
    if not humans:
        return
    streaks = _last_streaks([s.user_id for s in humans], match.game_key)
    first = first_seat(match)
    rows = []
    for seat in humans:
        streak = streaks.get(seat.user_id, 0) + 1 if seat.rank == 1 else 0
        rows.append(_row(match, seat, first, streak))
    Outcome.objects.bulk_create(rows, ignore_conflicts=True)


def correct(match: Match, seats: list[Seat]) -> None:
    """A moderator gave a finished match other ranks: its rows take them, and
    the streaks of its players in that game are counted again."""
    ranks = {s.user_id: s.rank for s in seats if _human(s) and s.rank is not None}
    rows = list(Outcome.objects.filter(match=match))
    for row in rows:
        if row.user_id in ranks:
            row.rank = ranks[row.user_id]
            row.won = row.rank == 1
    Outcome.objects.bulk_update(rows, ["rank", "won"])
    restreak(list(ranks), match.game_key)


def restreak(user_ids: list[int], game_key: str) -> None:
    """Count again the winning streaks of these players in one game, in the
    order their matches finished (after a corrected result: rare, so it may
    read every result of theirs in the game)."""
    changed = []
    for user_id in user_ids:
        streak = 0
        for row in Outcome.objects.filter(user_id=user_id, game_key=game_key).order_by(
            "finished_at", "match_id"
        ):
            streak = streak + 1 if row.won else 0
            if row.streak != streak:
                row.streak = streak
                changed.append(row)
    Outcome.objects.bulk_update(changed, ["streak"])


def rebuild(batch: int = 500, models=None) -> int:
    """Every finished match's rows written again from the matches, in the
    order they finished: by the migration that made the table (with its
    historical ``models``: match, seat and outcome), and by ``manage.py
    rebuild_statistics`` to repair them. Returns the rows written."""
    match_model, seat_model, outcome_model = models or (Match, Seat, Outcome)
    outcome_model.objects.all().delete()
    streaks: dict[tuple[int, str], int] = {}
    written = 0
    matches = match_model.objects.filter(status=MatchStatus.FINISHED, finished_at__isnull=False)
    ids = list(matches.order_by("finished_at", "pk").values_list("pk", flat=True))
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        seats: dict[int, list] = {}
        for seat in seat_model.objects.filter(match_id__in=chunk).order_by("index"):
            seats.setdefault(seat.match_id, []).append(seat)
        rows = []
        found = matches.filter(pk__in=chunk).defer("state").in_bulk()
        for match_id in chunk:
            match = found[match_id]
            first = first_seat(match)
            for seat in seats.get(match_id, []):
                if not _human(seat) or seat.rank is None:
                    continue
                key = (seat.user_id, match.game_key)
                streaks[key] = streaks.get(key, 0) + 1 if seat.rank == 1 else 0
                rows.append(_row(match, seat, first, streaks[key], outcome_model))
        outcome_model.objects.bulk_create(rows, ignore_conflicts=True)
        written += len(rows)
    return written
