"""Season writes: opening the next quarter's sign-up, signing up and
leaving, starting a season (its divisions and their tournaments) and
finishing it (promotion and relegation).

Locking: the season row first (``select_for_update``), then the division
tournaments through ``tournaments.services.start``, which locks each. Every
step re-reads the season under its lock and does nothing when it is already
done, so the beat's sweep may run twice at once.
"""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import bots
from accounts.selectors import blocked_pairs
from core import limits
from core.errors import Conflict
from games.dispatch import outbox
from games.engine import registry
from games.moderation import audit
from players.models import Rating, display_of
from seasons.models import (
    TOO_FEW_PLAYERS,
    AuditKind,
    Division,
    Movement,
    Season,
    SeasonEntry,
    SeasonStatus,
)
from tournaments import services as tournaments
from tournaments.models import Entrant, Format, Tournament, TournamentStatus

logger = logging.getLogger(__name__)

START_DIVISION_TASK = "seasons.tasks.start_division"
#: How long the sweep leaves a started season's divisions to their own tasks.
START_GRACE = timedelta(minutes=10)
#: Sign-ups and departures per player and hour.
ENTRY_LIMIT = limits.Limit("season-entry", 30, 3600)
#: The places that go up and down from each division (fewer in a small one).
PROMOTED = 2
RELEGATED = 2
#: A division smaller than this moves one player up and one down, not two.
SMALL_DIVISION = 5


def _setting(name: str):
    return settings.SMOKI[name]


# -- The calendar -----------------------------------------------------------------


def quarter_start(year: int, quarter: int) -> datetime:
    """The first moment of a quarter (UTC): a season starts then."""
    return datetime(year, 3 * (quarter - 1) + 1, 1, tzinfo=UTC)


def next_quarter(now: datetime) -> tuple[int, int]:
    """The quarter after the one ``now`` is in."""
    quarter = (now.month - 1) // 3 + 1
    return (now.year + 1, 1) if quarter == 4 else (now.year, quarter + 1)


def season_games() -> list[str]:
    """The games with a season: the setting's list, or every game that two
    players can play (a division plays two-player round robin tables)."""
    keys = _setting("SEASON_GAMES")
    if keys:
        return [k for k in keys if k in {g.key for g in registry.all()}]
    return [g.key for g in registry.all() if g.min_players <= 2 <= g.max_players]


def open_signups(now=None) -> int:
    """Create next quarter's season for every season game once its sign-up
    time has come (``SEASON_SIGNUP_DAYS`` before the start); the current
    season, if any, is still running then. Returns how many were made."""
    now = now or timezone.now()
    year, quarter = next_quarter(now)
    starts = quarter_start(year, quarter)
    opens = starts - timedelta(days=_setting("SEASON_SIGNUP_DAYS"))
    if now < opens:
        return 0
    made = 0
    for key in season_games():
        _season, created = Season.objects.get_or_create(
            game_key=key,
            year=year,
            quarter=quarter,
            defaults={
                "signup_opens_at": opens,
                "starts_at": starts,
                "vacation_allowed": _setting("SEASON_VACATION_ALLOWED"),
                "weekend_pause": _setting("SEASON_WEEKEND_PAUSE"),
                "time_per_move": timedelta(days=_setting("SEASON_DAYS_PER_MOVE")),
            },
        )
        made += created
    return made


# -- Signing up -------------------------------------------------------------------


def lock(season_id: int) -> Season | None:
    return Season.objects.select_for_update().filter(pk=season_id).first()


def sign_up(*, user, season: Season, now=None) -> SeasonEntry:
    """Sign up for a season whose sign-up is open (until it starts)."""
    now = now or timezone.now()
    bots.require_human(user, _("Seasons are for people: a bot account plays when invited."))
    limits.check(ENTRY_LIMIT, user.pk, message=_("Too many sign-ups lately; wait an hour."))
    with transaction.atomic():
        season = lock(season.pk)
        if season is None or season.status != SeasonStatus.SIGNUP or now >= season.starts_at:
            raise Conflict(_("Sign-up for this season is closed."))
        if now < season.signup_opens_at:
            raise Conflict(_("Sign-up for this season has not opened yet."))
        if season.entries.filter(user=user).exists():
            raise Conflict(_("You are already signed up."))
        return SeasonEntry.objects.create(season=season, user=user)


def leave(*, user, season: Season) -> None:
    """Leave before the start: the sign-up disappears. Once the season runs,
    a player withdraws from their division's tournament instead."""
    limits.check(ENTRY_LIMIT, user.pk, message=_("Too many sign-ups lately; wait an hour."))
    with transaction.atomic():
        season = lock(season.pk)
        if season is None or season.status != SeasonStatus.SIGNUP:
            raise Conflict(_("The season has started: withdraw from your division instead."))
        deleted, _rows = season.entries.filter(user=user).delete()
        if not deleted:
            raise Conflict(_("You are not signed up."))


# -- The start: divisions ------------------------------------------------------------


def due_to_start(now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        Season.objects.filter(status=SeasonStatus.SIGNUP, starts_at__lte=now)
        .order_by("starts_at")
        .values_list("pk", flat=True)
    )


def start(season_id: int, now=None) -> str:
    """Start a season whose time has come: its players put into divisions
    by tier, each division's round robin tournament made, and its start
    (the first round's matches) handed to a task. Fewer than two players
    cancel it."""
    now = now or timezone.now()
    with transaction.atomic():
        season = lock(season_id)
        if season is None or season.status != SeasonStatus.SIGNUP:
            return "not open"
        if season.starts_at > now:
            return "not yet"
        entries = list(season.entries.select_related("user__profile"))
        # Gone: a deactivated player, and a bot account (an entry made in the
        # moment its owner turned it into a bot): the divisions are people's.
        gone = [e.pk for e in entries if not _seated(e.user)]
        SeasonEntry.objects.filter(pk__in=gone).delete()
        entries = [e for e in entries if _seated(e.user)]
        if len(entries) < 2:
            season.status = SeasonStatus.CANCELLED
            season.finished_at = now
            season.cancel_reason = TOO_FEW_PLAYERS
            season.save(update_fields=["status", "finished_at", "cancel_reason"])
            return "cancelled"
        _rate(season, entries)
        divisions = place(
            ordered_for_placement(season, entries),
            season.division_size,
            blocked_pairs([e.user_id for e in entries]),
        )
        tournament_ids = _create_divisions(season, divisions, now)
        season.status = SeasonStatus.RUNNING
        season.started_at = now
        season.save(update_fields=["status", "started_at"])
        # Each division's first round (its matches, their emails) is a task
        # of its own after the commit, spread over the workers: a season of a
        # thousand players starts its 500 matches in parallel, and one
        # division's failure holds up no other. The sweep starts any whose
        # task was lost (``waiting_divisions``).
        for pk in tournament_ids:
            outbox.hand_over_after_commit(START_DIVISION_TASK, pk)
    return "started"


def _seated(user) -> bool:
    """Whether a season's entrant is placed in a division at its start."""
    return user.is_active and not bots.is_bot_account(user)


def start_division(tournament_id: int, now=None) -> str:
    """Start one division's round robin: its schedule and round 1's
    matches (``tournaments.services.start``, which does nothing if done)."""
    return tournaments.start(tournament_id, now=now)


def waiting_divisions(now=None, *, limit: int = 100, grace=START_GRACE) -> list[int]:
    """Division tournaments of a season started over ``grace`` ago and not
    started themselves yet: the sweep's safety net should a start's task be
    lost (within the grace the tasks handed over at the start run)."""
    now = now or timezone.now()
    return list(
        Division.objects.filter(
            season__status=SeasonStatus.RUNNING,
            season__started_at__lte=now - grace,
            tournament__status=TournamentStatus.OPEN,
        )
        .order_by("season_id", "tier")
        .values_list("tournament_id", flat=True)[:limit]
    )


def _rate(season: Season, entries: list[SeasonEntry]) -> None:
    """Each entry's rating for the game now (a newcomer's is the default)."""
    shown = dict(
        Rating.objects.filter(
            game_key=season.game_key, user_id__in=[e.user_id for e in entries]
        ).values_list("user_id", "display")
    )
    newcomer = display_of(25.0, 25.0 / 3.0)
    for entry in entries:
        entry.rating = shown.get(entry.user_id, newcomer)


def previous_season(season: Season) -> Season | None:
    """The same game's latest season before this one that was played."""
    return (
        Season.objects.filter(
            game_key=season.game_key,
            starts_at__lt=season.starts_at,
            status__in=[SeasonStatus.RUNNING, SeasonStatus.FINISHED],
        )
        .order_by("-starts_at")
        .first()
    )


def ordered_for_placement(season: Season, entries: list[SeasonEntry]) -> list[SeasonEntry]:
    """Everyone in the order the divisions are filled, top first: the
    previous season's players by the tier they earned (their tier, one up
    if promoted, one down if relegated), within it by their place there;
    then the newcomers by rating."""
    before = previous_season(season)
    earned: dict[int, tuple[int, int]] = {}
    if before is not None:
        step = {Movement.UP: -1, Movement.DOWN: 1}
        for user_id, tier, movement, final_place in SeasonEntry.objects.filter(
            season=before, division__isnull=False
        ).values_list("user_id", "division__tier", "movement", "final_place"):
            earned[user_id] = (max(1, tier + step.get(movement, 0)), final_place or 99)
    returning = sorted(
        (e for e in entries if e.user_id in earned),
        key=lambda e: (*earned[e.user_id], -e.rating, e.joined_at, e.pk),
    )
    newcomers = sorted(
        (e for e in entries if e.user_id not in earned),
        key=lambda e: (-e.rating, e.joined_at, e.pk),
    )
    return returning + newcomers


def place(ordered: list, size: int, blocked: set[frozenset]) -> list[list]:
    """Cut the ordered list into divisions of about ``size`` (as many as
    needed, sizes differing by at most one, the larger on top), then move
    a player who blocked, or was blocked by, someone in their division to
    the next division down (or up, from the last one), swapping with the
    nearest player there who makes no new such pair. When no swap does, the
    pair stays together (docs/seasons.md)."""
    count = max(1, math.ceil(len(ordered) / size))
    base, extra = divmod(len(ordered), count)
    divisions, at = [], 0
    for i in range(count):
        n = base + (1 if i < extra else 0)
        divisions.append(list(ordered[at : at + n]))
        at += n
    if blocked:
        _keep_apart(divisions, blocked)
    return divisions


def _clashes(user_id: int, division: list, blocked: set[frozenset], skip=None) -> bool:
    return any(
        frozenset((user_id, other.user_id)) in blocked
        for other in division
        if other is not skip and other.user_id != user_id
    )


def _keep_apart(divisions: list[list], blocked: set[frozenset]) -> None:
    for index, division in enumerate(divisions):
        for entry in list(reversed(division)):  # the lower placed of a pair moves
            if entry not in division or not _clashes(entry.user_id, division, blocked):
                continue
            neighbours = [index + 1, index - 1] if index + 1 < len(divisions) else [index - 1]
            for other_index in neighbours:
                if other_index < 0:
                    continue
                other = divisions[other_index]
                ordered = other if other_index > index else list(reversed(other))
                swap = next(
                    (
                        candidate
                        for candidate in ordered
                        if not _clashes(candidate.user_id, division, blocked, skip=entry)
                        and not _clashes(entry.user_id, other, blocked, skip=candidate)
                    ),
                    None,
                )
                if swap is not None:
                    division[division.index(entry)] = swap
                    other[other.index(swap)] = entry
                    break


def _create_divisions(season: Season, divisions: list[list], now) -> list[int]:
    """A round robin tournament per division with its entrants, and the
    division rows; the entries get their division and rating (a few bulk
    queries whatever the number of players). Returns the tournaments' ids."""
    title = registry.get(season.game_key).title
    made = Tournament.objects.bulk_create(
        Tournament(
            # A name in no language (the tournament's, stored once).
            name=f"{title} Q{season.quarter} {season.year} · {tier}",
            game_key=season.game_key,
            table_size=2,
            format=Format.ROUND_ROBIN,
            rated=True,
            time_per_move=season.time_per_move,
            vacation_allowed=season.vacation_allowed,
            weekend_pause=season.weekend_pause,
            starts_at=now,
            min_entrants=2,
            max_entrants=len(members),
            status=TournamentStatus.OPEN,
            listed=False,  # the season's page lists its divisions
        )
        for tier, members in enumerate(divisions, start=1)
    )
    rows = Division.objects.bulk_create(
        Division(season=season, tier=tier, number=1, tournament=tournament)
        for tier, tournament in enumerate(made, start=1)
    )
    entrants, changed = [], []
    for division, members in zip(rows, divisions, strict=True):
        for entry in members:
            entry.division = division
            changed.append(entry)
            entrants.append(Entrant(tournament_id=division.tournament_id, user_id=entry.user_id))
    Entrant.objects.bulk_create(entrants)
    SeasonEntry.objects.bulk_update(changed, ["division", "rating"], batch_size=500)
    return [t.pk for t in made]


# -- The end: promotion and relegation ------------------------------------------------


def done_running() -> list[int]:
    """Running seasons none of whose division tournaments is still open or
    running."""
    busy = Division.objects.filter(
        tournament__status__in=[TournamentStatus.OPEN, TournamentStatus.RUNNING]
    ).values("season_id")
    return list(
        Season.objects.filter(status=SeasonStatus.RUNNING)
        .exclude(pk__in=busy)
        .values_list("pk", flat=True)
    )


def finish(season_id: int, now=None) -> str:
    """Record each player's final place in their division (the tournament's
    standings, stored when it finished) and who goes up or down."""
    now = now or timezone.now()
    with transaction.atomic():
        season = lock(season_id)
        if season is None or season.status != SeasonStatus.RUNNING:
            return "not running"
        divisions = list(season.divisions.select_related("tournament"))
        if any(not d.tournament.is_over for d in divisions):
            return "waiting"
        places = {
            (tournament_id, user_id): place
            for tournament_id, user_id, place in Entrant.objects.filter(
                tournament__division__season=season
            ).values_list("tournament_id", "user_id", "final_place")
        }
        by_division = {d.pk: d for d in divisions}
        members: dict[int, list[SeasonEntry]] = {}
        for entry in season.entries.filter(division__isnull=False):
            members.setdefault(entry.division_id, []).append(entry)
        lowest = max((d.tier for d in divisions), default=1)
        changed = []
        for division_id, entries in members.items():
            division = by_division[division_id]
            for entry in entries:
                entry.final_place = places.get((division.tournament_id, entry.user_id))
            changed += movements(division, entries, lowest)
        SeasonEntry.objects.bulk_update(changed, ["final_place", "movement"], batch_size=500)
        season.status = SeasonStatus.FINISHED
        season.finished_at = now
        season.save(update_fields=["status", "finished_at"])
    return "finished"


def movements(division: Division, entries: list[SeasonEntry], lowest: int) -> list:
    """Top two up (not from tier 1), bottom two down (not from the lowest
    tier); one each in a division under five players. A division whose
    tournament was cancelled moves nobody."""
    if division.tournament.status != TournamentStatus.FINISHED:
        for entry in entries:
            entry.movement = Movement.STAY
        return entries
    ranked = sorted(entries, key=lambda e: (e.final_place or 999, e.pk))
    moving = 1 if len(ranked) < SMALL_DIVISION else PROMOTED
    falling = 1 if len(ranked) < SMALL_DIVISION else RELEGATED
    up = set(ranked[:moving]) if division.tier > 1 else set()
    down = set(ranked[-falling:]) if division.tier < lowest else set()
    for entry in ranked:
        entry.movement = (
            Movement.UP if entry in up else Movement.DOWN if entry in down else Movement.STAY
        )
    return ranked


# -- Moderators ---------------------------------------------------------------------


def cancel(moderator, season: Season, reason: str):
    """Cancel a season in sign-up or running (audited). Its divisions'
    tournaments not yet over are cancelled as a moderator's cancel of a
    tournament does (their players told; matches in play go on as ordinary
    matches), nobody moves up or down, and the next season places its
    players from the last one that was played (``previous_season``). The
    tournaments' moderators decide it: a season's matches are theirs."""
    audit.require(moderator, "tournaments.moderate_tournament")
    reason = audit.reason_of(reason)
    with transaction.atomic():
        season = lock(season.pk)
        if season is None or season.status not in (SeasonStatus.SIGNUP, SeasonStatus.RUNNING):
            raise Conflict(_("This season has already ended."))
        for tournament_id in season.divisions.values_list("tournament_id", flat=True):
            tournaments.cancel_with_season(tournament_id, reason)
        season.status = SeasonStatus.CANCELLED
        season.finished_at = timezone.now()
        season.cancel_reason = reason[:300]
        season.save(update_fields=["status", "finished_at", "cancel_reason"])
        return audit.record(
            moderator, AuditKind.CANCEL_SEASON, reason, details={"season": season.pk}
        )


# -- The beat ----------------------------------------------------------------------


def sweep(now=None) -> dict:
    """The beat's pass: open next quarter's sign-up, start the seasons due
    (and any division whose own start was lost), finish those whose
    divisions are all over. Each season is a step of its
    own: one that fails is logged, the others go on."""
    opened = open_signups(now)
    started = [_isolated(start, pk, now) for pk in due_to_start(now)]
    divisions = [_isolated(start_division, pk, now) for pk in waiting_divisions(now)]
    finished = [_isolated(finish, pk, now) for pk in done_running()]
    return {
        "opened": opened,
        "started": started.count("started"),
        "divisions": divisions.count("started"),
        "finished": finished.count("finished"),
        "failed": (started + divisions + finished).count("failed"),
    }


def _isolated(step, pk: int, *args) -> str:
    try:
        with transaction.atomic():
            return step(pk, *args)
    except Exception:
        logger.exception("Season step %s(%s) failed", step.__name__, pk)
        return "failed"
