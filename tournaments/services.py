"""Tournament writes: creating, entering, starting, advancing, withdrawing,
and the moderators' actions.

Locking policy: the tournament row first (``select_for_update``), then any
match (through the lobby, ``games.play.safety`` or ``games.moderation.actions``). Every
step re-reads the state under that lock and does nothing if it is already
done, so the beat's sweep, the task handed over when a match ends and a
second worker can all call ``start`` and ``advance`` at once: one of them
does the work, the others find it done. The unique constraints on (tournament,
round number) and (round, entrant) stand behind the lock.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import is_bot_account
from accounts.selectors import blocked_pairs, is_blocked_by_any
from core import limits
from core.errors import Conflict, Forbidden, ServiceError
from games.dispatch import outbox
from games.lobby import services as lobby
from games.models import (
    DeliveryStatus,
    Match,
    MatchStatus,
    ModerationAction,
    Notification,
    NotificationKind,
    SeatStatus,
    TakeoverLevel,
    Visibility,
)
from games.moderation import actions as moderation
from games.moderation import audit
from games.play import bot_accounts, reliability, safety
from players.models import Rating, display_of
from tournaments import feed, notify, pairing
from tournaments.models import (
    AuditKind,
    Entrant,
    EntrantStatus,
    Format,
    Placement,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.standings import (
    TableResult,
    knockout_slots,
    ordered_standings,
    points_for_ranks,
    standings,
)

logger = logging.getLogger(__name__)

ADVANCE_TASK = "tournaments.tasks.advance_tournament"
#: New tournaments per player and hour, counted in the shared cache.
CREATE_LIMIT = limits.Limit("tournament-create", 5, 3600)
#: Entries and departures per player and hour.
ENTRY_LIMIT = limits.Limit("tournament-entry", 30, 3600)


def _setting(name: str) -> int:
    return settings.SMOKI[name]


# -- Creating and entering ----------------------------------------------------


def create_tournament(
    *,
    user,
    name: str,
    game_key: str,
    table_size: int,
    format: str,
    starts_at,
    min_entrants: int,
    max_entrants: int,
    rounds: int = 0,
    options=None,
    rated: bool = True,
    time_per_move: timedelta = timedelta(days=3),
    time_bank: timedelta = timedelta(0),
    time_bank_increment: timedelta = timedelta(0),
    timeout_policy: str = "bot_strikes",
    takeover_level: str = TakeoverLevel.HEURISTIC,
    vacation_allowed: bool = True,
    weekend_pause: bool = False,
    start_when_full: bool = False,
    min_reliability: int | None = None,
    bots_allowed: bool = False,
    now=None,
) -> Tournament:
    """A new tournament open for entry, its creator the first entrant.

    With ``start_when_full`` there is no start time: it starts as the last
    place is taken (``join``); ``starts_at`` is then the deadline, the
    longest a start may be ahead, at which the sweep starts it with whoever
    entered, or cancels it with too few. ``min_reliability``: the share of
    finished matches an entrant must have completed (``join`` refuses one
    below it); the creator, its first entrant, is held to their cap on
    matches at once as any entrant is. ``bots_allowed``: bot accounts may
    enter (``accounts.bots``); a bot account never creates one (its pages
    are read-only)."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the tournament a name."))
    game, options = lobby.checked_setup(
        game_key=game_key,
        n_seats=table_size,
        options=options,
        timeout_policy=timeout_policy,
        times=(time_per_move, time_bank, time_bank_increment),
    )
    if format not in Format.values:
        raise ServiceError(_("Unknown tournament format."))
    if takeover_level not in TakeoverLevel.values:
        raise ServiceError(_("Unknown bot level."))
    largest = _setting("TOURNAMENT_MAX_ENTRANTS")
    fewest = min(seat_counts(game, table_size, options))
    if not fewest <= min_entrants <= max_entrants <= largest:
        raise ServiceError(
            _("Entrants: at least %(low)d, at most %(high)d, the fewest not above the most.")
            % {"low": fewest, "high": largest}
        )
    if format == Format.SWISS and not 1 <= rounds <= _setting("TOURNAMENT_MAX_ROUNDS"):
        raise ServiceError(
            _("A Swiss tournament has 1 to %(n)d rounds.")
            % {"n": _setting("TOURNAMENT_MAX_ROUNDS")}
        )
    if format == Format.KNOCKOUT and table_size != 2:
        raise ServiceError(_("A knockout is played at tables of two players."))
    if format == Format.ROUND_ROBIN and max_entrants > _setting("ROUND_ROBIN_MAX_ENTRANTS"):
        raise ServiceError(
            _("A round robin takes at most %(n)d entrants.")
            % {"n": _setting("ROUND_ROBIN_MAX_ENTRANTS")}
        )
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ServiceError(_("A minimum reliability is a percentage from 0 to 100."))
    if start_when_full:
        starts_at = now + timedelta(days=_setting("TOURNAMENT_MAX_DAYS_AHEAD"))
    if starts_at is None or starts_at < now - timedelta(minutes=5):
        raise ServiceError(_("The start must not be in the past."))
    if starts_at > now + timedelta(days=_setting("TOURNAMENT_MAX_DAYS_AHEAD")):
        raise ServiceError(_("The start is too far ahead."))
    running = Tournament.objects.filter(
        created_by=user, status__in=[TournamentStatus.OPEN, TournamentStatus.RUNNING]
    ).count()
    if running >= _setting("TOURNAMENTS_RUNNING_MAX"):
        raise Conflict(
            _("You already run %(n)d tournaments; wait until one ends.") % {"n": running}
        )
    _check_entries(user)
    reliability.require_room(user)
    limits.check(CREATE_LIMIT, user.pk, message=_("You created many tournaments; wait an hour."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name[:80],
            game_key=game.key,
            table_size=table_size,
            options=options,
            format=format,
            rounds=rounds if format == Format.SWISS else 0,
            rated=rated,
            time_per_move=time_per_move,
            time_bank=time_bank,
            time_bank_increment=time_bank_increment,
            timeout_policy=timeout_policy,
            takeover_level=takeover_level,
            vacation_allowed=vacation_allowed,
            weekend_pause=weekend_pause,
            starts_at=starts_at,
            start_when_full=bool(start_when_full),
            min_reliability=min_reliability or None,
            bots_allowed=bool(bots_allowed),
            min_entrants=min_entrants,
            max_entrants=max_entrants,
            created_by=user,
        )
        Entrant.objects.create(tournament=tournament, user=user)
    return tournament


def _check_entries(user) -> None:
    entered = Entrant.objects.filter(
        user=user,
        status=EntrantStatus.ACTIVE,
        tournament__status__in=[TournamentStatus.OPEN, TournamentStatus.RUNNING],
    ).count()
    if entered >= _setting("TOURNAMENTS_ENTERED_MAX"):
        raise Conflict(
            _("You are already in %(n)d tournaments; finish one first.") % {"n": entered}
        )


def lock(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def join(*, user, tournament: Tournament) -> Entrant:
    """Enter a tournament open for entry.

    Not one whose creator blocked the player, nor a round robin where an
    entrant did (everyone meets everyone there, so the pairing could not keep
    them apart); said without saying why, as a match's join is. A Swiss
    tournament keeps a blocked pair apart in its pairings instead
    (``pairing.History.apart``). Nor a player at their cap on matches at
    once, or whose reliability record is below the tournament's minimum
    (``games.play.reliability``), each refused in words that say so."""
    _check_entries(user)
    if is_bot_account(user) and not tournament.bots_allowed:
        raise Forbidden(_("This tournament's organiser does not allow bot accounts."))
    reliability.require_room(user)
    reliability.require_minimum(user, tournament.min_reliability)
    limits.check(ENTRY_LIMIT, user.pk, message=_("Too many entries lately; wait an hour."))
    with transaction.atomic():
        tournament = lock(tournament.pk)
        if tournament is None or tournament.status != TournamentStatus.OPEN:
            raise Conflict(_("This tournament is not open for entry."))
        if tournament.entrants.filter(user=user).exists():
            raise Conflict(_("You are already entered."))
        if tournament.entrants.count() >= tournament.max_entrants:
            raise Conflict(_("This tournament is full."))
        blockers = [tournament.created_by_id]
        if tournament.format == Format.ROUND_ROBIN:
            blockers += list(tournament.entrants.values_list("user_id", flat=True))
        if is_blocked_by_any(user.pk, blockers):
            raise Forbidden(_("This tournament is not open to you."))
        # A bot account's day of matches against bots must have room for
        # every round the tournament may ask of it (games.play.bot_accounts).
        bot_accounts.require_room_for_tournament(user, tournament)
        entrant = Entrant.objects.create(tournament=tournament, user=user)
        if tournament.start_when_full and tournament.entrants.count() >= tournament.max_entrants:
            # The last place taken: it starts now, in this transaction and
            # under the same lock, so two joining at once cannot both fill it.
            # A failure is logged and rolled back to here: the entry stands and
            # the sweep's next pass starts the full tournament.
            _isolated(start, tournament.pk)
        return entrant


def rounds_promised(user_id: int) -> int:
    """The matches ``user_id`` may still be asked to play in the tournaments
    it is in (open or running, not withdrawn): one a round still to come
    (``bot_accounts.tournament_matches_ahead_of``), in one query. The
    daily limit of a bot account's matches against bots counts them."""
    return sum(
        bot_accounts.tournament_matches_ahead_of(tournament)
        for tournament in Tournament.objects.filter(
            entrants__user_id=user_id,
            entrants__status=EntrantStatus.ACTIVE,
            status__in=[TournamentStatus.OPEN, TournamentStatus.RUNNING],
        ).only("status", "format", "rounds", "current_round", "max_entrants")
    )


def leave(*, user, tournament: Tournament) -> None:
    """Leave before the start: the entry disappears."""
    limits.check(ENTRY_LIMIT, user.pk, message=_("Too many entries lately; wait an hour."))
    with transaction.atomic():
        tournament = lock(tournament.pk)
        if tournament is None or tournament.status != TournamentStatus.OPEN:
            raise Conflict(_("The tournament has started: withdraw instead."))
        deleted, _rows = tournament.entrants.filter(user=user).delete()
        if not deleted:
            raise Conflict(_("You are not entered."))


def withdraw(*, user, tournament: Tournament) -> None:
    """Leave a running tournament: the match in play is resigned (so it is
    lost, or played on by a bot in a larger match and ranked last), and no
    later round pairs the player. Points already won stay."""
    with transaction.atomic():
        tournament = lock(tournament.pk)
        if tournament is None or tournament.status != TournamentStatus.RUNNING:
            raise Conflict(_("Only a running tournament can be withdrawn from."))
        entrant = tournament.entrants.filter(user=user, status=EntrantStatus.ACTIVE).first()
        if entrant is None:
            raise Conflict(_("You are not playing in this tournament."))
        _drop(entrant, EntrantStatus.WITHDRAWN)
        for match in _running_matches(tournament, entrant):
            safety.resign(user=user, match=match)


def _drop(entrant: Entrant, status: str) -> None:
    entrant.status = status
    entrant.left_at = timezone.now()
    entrant.save(update_fields=["status", "left_at"])


def _running_matches(tournament: Tournament, entrant: Entrant) -> list[Match]:
    return list(
        Match.objects.filter(
            tournament_placements__entrant=entrant,
            tournament_placements__round__tournament=tournament,
            status=MatchStatus.ACTIVE,
            seats__user_id=entrant.user_id,
            seats__status=SeatStatus.PLAYING,
        ).distinct()
    )


# -- The clock ----------------------------------------------------------------


def due_to_start(now=None) -> list[int]:
    """Open tournaments whose start time (or, starting when full, deadline)
    has come, and any full one that starts when full: the safety net should
    a join's start have failed."""
    now = now or timezone.now()
    full = Q(start_when_full=True, n_entrants__gte=F("max_entrants"))
    return list(
        Tournament.objects.filter(status=TournamentStatus.OPEN)
        .annotate(n_entrants=Count("entrants"))
        .filter(Q(starts_at__lte=now) | full)
        .order_by("starts_at")
        .values_list("pk", flat=True)[:100]
    )


def waiting_to_advance() -> list[int]:
    """Running tournaments none of whose current round's matches is in play:
    the sweep's safety net, should a hand-over after a match's end be lost."""
    busy = Placement.objects.filter(
        round__tournament_id=OuterRef("pk"),
        round__number=OuterRef("current_round"),
        match__status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE],
    )
    return list(
        Tournament.objects.filter(status=TournamentStatus.RUNNING)
        .exclude(Exists(busy))
        .values_list("pk", flat=True)[:100]
    )


def start(tournament_id: int, now=None) -> str:
    """Start a tournament whose time has come: too few entrants cancel it
    (everyone told); otherwise ratings are fixed for seeding and round 1 begins."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock(tournament_id)
        if tournament is None or tournament.status != TournamentStatus.OPEN:
            return "not open"
        if tournament.starts_at > now and not _is_full(tournament):
            return "not yet"
        entrants = _playable(tournament)
        if len(entrants) < tournament.min_entrants:
            _cancel(tournament, _("Too few players entered."))
            return "cancelled"
        _seed(tournament, entrants)
        tournament.status = TournamentStatus.RUNNING
        tournament.started_at = now
        if tournament.format == Format.ROUND_ROBIN:
            ids = [e.pk for e in _seeding_order(entrants)]
            counts = _seat_counts(tournament)
            tournament.schedule = pairing.round_robin_rounds(
                ids, tournament.table_size, min(counts), counts
            )
            tournament.rounds = len(tournament.schedule)
        elif tournament.format == Format.KNOCKOUT:
            # The bracket (round 1's slots), fixed at the start as a round
            # robin's schedule is; later rounds are its winners.
            tournament.schedule = pairing.knockout_bracket([e.pk for e in _seeding_order(entrants)])
            tournament.rounds = pairing.knockout_rounds(len(entrants))
        tournament.save()
        _create_round(tournament, 1)
    return "started"


def _is_full(tournament: Tournament) -> bool:
    """A start-when-full tournament whose last place is taken."""
    return tournament.start_when_full and tournament.entrants.count() >= tournament.max_entrants


def seat_counts(game, table_size: int, options) -> list[int]:
    """The table sizes a round may use: from the game's fewest players (two
    for two-player tables) up to ``table_size``, each one the game accepts
    with these options (``Game.validate_setup``: Drakon's team play takes
    only 4 or 6). ``table_size`` itself is always among them, as
    ``checked_setup`` accepted it at creation."""
    fewest = 2 if table_size == 2 else max(2, game.min_players)
    return [
        k
        for k in range(fewest, table_size + 1)
        if k == table_size or game.validate_setup(k, options) is None
    ]


def _seat_counts(tournament: Tournament) -> list[int]:
    from games.engine import registry

    return seat_counts(registry.get(tournament.game_key), tournament.table_size, tournament.options)


def _smallest_table(tournament: Tournament) -> int:
    return min(_seat_counts(tournament))


def _playable(tournament: Tournament) -> list[Entrant]:
    """Active entrants whose account is still active; others are withdrawn
    (a deactivated account cannot play its matches)."""
    entrants = list(tournament.entrants.filter(status=EntrantStatus.ACTIVE).select_related("user"))
    for entrant in entrants:
        if not entrant.user.is_active:
            _drop(entrant, EntrantStatus.WITHDRAWN)
    return [e for e in entrants if e.user.is_active]


def _seed(tournament: Tournament, entrants: list[Entrant]) -> None:
    shown = {
        user_id: display
        for user_id, display in Rating.objects.filter(
            game_key=tournament.game_key, user_id__in=[e.user_id for e in entrants]
        ).values_list("user_id", "display")
    }
    newcomer = display_of(25.0, 25.0 / 3.0)
    for entrant in entrants:
        entrant.rating = shown.get(entrant.user_id, newcomer)
    Entrant.objects.bulk_update(entrants, ["rating"])


def _seeding_order(entrants: list[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.rating, e.joined_at, e.pk))


def advance(tournament_id: int) -> str:
    """Record the results of the current round's finished matches; when none
    is left in play, start the next round or finish the tournament."""
    with transaction.atomic():
        tournament = lock(tournament_id)
        if tournament is None or tournament.status != TournamentStatus.RUNNING:
            return "not running"
        current = tournament.round_set.filter(number=tournament.current_round).first()
        if current is None:
            return "no round"
        if not _record_results(current):
            return "waiting"
        if current.finished_at is None:
            current.finished_at = timezone.now()
            current.save(update_fields=["finished_at"])
        if tournament.current_round >= tournament.rounds or len(
            _playable(tournament)
        ) < _smallest_table(tournament):
            _finish(tournament)
            return "finished"
        _create_round(tournament, tournament.current_round + 1)
        return "next round"


def _record_results(current: Round) -> bool:
    """Points for each placement whose match ended; True when all have."""
    placements = list(current.placements.select_related("match").filter(points__isnull=True))
    matches = {p.match_id: p.match for p in placements if p.match_id}
    if any(not m.is_over for m in matches.values()):
        _record_finished(placements, matches)
        return False
    _record_finished(placements, matches)
    return True


def _record_finished(placements: list[Placement], matches: dict[int, Match]) -> None:
    from games.models import Seat

    over = [pk for pk, m in matches.items() if m.is_over]
    ranks = {
        (match_id, index): rank
        for match_id, index, rank in Seat.objects.filter(match_id__in=over).values_list(
            "match_id", "index", "rank"
        )
    }
    changed = []
    for placement in placements:
        match = matches.get(placement.match_id)
        if match is None or not match.is_over:
            continue
        forfeit = match.ended_early_by
        if match.status == MatchStatus.ABORTED and forfeit is None:
            placement.points, placement.rank, placement.aborted = 0.0, None, True
        elif forfeit is not None:
            # Ended before each seat moved (a resignation or a loss on time):
            # aborted and unrated, but a forfeit here, as a withdrawal's is: the
            # seat that ended it is last, the others share the win.
            table = [match.n_seats if i == forfeit else 1 for i in range(match.n_seats)]
            placement.points = points_for_ranks(table)[placement.seat]
            placement.rank = table[placement.seat]
        else:
            table = [ranks.get((match.pk, i)) or match.n_seats for i in range(match.n_seats)]
            placement.points = points_for_ranks(table)[placement.seat]
            placement.rank = table[placement.seat]
        changed.append(placement)
    if changed:
        Placement.objects.bulk_update(changed, ["points", "rank", "aborted"])


def _history(tournament: Tournament) -> pairing.History:
    history = pairing.History()
    tables: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for round_id, table, seat, entrant_id, is_bye in Placement.objects.filter(
        round__tournament=tournament
    ).values_list("round_id", "table", "seat", "entrant_id", "is_bye"):
        if is_bye:
            history.byes[entrant_id] += 1
        else:
            tables.setdefault((round_id, table), []).append((seat, entrant_id))
    for seated in tables.values():
        history.record_table([e for _s, e in sorted(seated)])
    return history


def results_of(tournament: Tournament) -> list[TableResult]:
    """Every table of every round, for the standings (one query)."""
    grouped: dict[tuple[int, int], list] = {}
    for number, table, _seat, entrant_id, points, is_bye, aborted in (
        Placement.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table", "seat")
        .values_list("round__number", "table", "seat", "entrant_id", "points", "is_bye", "aborted")
    ):
        grouped.setdefault((number, table if not is_bye else -entrant_id), []).append(
            (entrant_id, points, is_bye, aborted)
        )
    results = []
    for (number, _table), rows in grouped.items():
        points = [r[1] for r in rows]
        results.append(
            TableResult(
                round=number,
                entrants=[r[0] for r in rows],
                points=None if any(p is None for p in points) else points,
                bye=rows[0][2],
                aborted=rows[0][3],
            )
        )
    return results


def _pair(tournament: Tournament, number: int, entrants: list[Entrant]):
    """(tables of entrant ids in seat order, entrant ids with a bye)."""
    active = {e.pk for e in entrants}
    if tournament.format == Format.ROUND_ROBIN:
        tables = []
        counts = _seat_counts(tournament)
        for table in tournament.schedule[number - 1]:
            kept = [e for e in table if e in active]
            if len(kept) in counts:
                tables.append(kept)
        # Everyone not seated this round has a bye: the odd one out of the
        # schedule, or one whose tablemates withdrew (a win by forfeit),
        # also when too few are left, or a number the game cannot seat.
        seated = {e for table in tables for e in table}
        byes = [e.pk for e in _seeding_order(entrants) if e.pk not in seated]
        return tables, byes
    if tournament.format == Format.KNOCKOUT:
        slots = knockout_slots(tournament, results_of(tournament), number - 1)[-1]
        return pairing.knockout_pairs(slots, active)
    history = _history(tournament)
    # Pairs where one blocked the other sit apart where the pairing allows.
    entrant_of = {e.user_id: e.pk for e in entrants}
    history.apart = {
        pairing.Pair(entrant_of[uid] for uid in pair) for pair in blocked_pairs(entrant_of)
    }
    rows = standings([(e.pk, e.rating) for e in entrants], results_of(tournament))
    points = {r.entrant: r.points for r in rows}
    players = [pairing.Standing(e.pk, points.get(e.pk, 0.0), e.rating) for e in entrants]
    if tournament.table_size == 2:
        tables, bye = pairing.swiss_pairs(players, history)
        return tables, [bye] if bye is not None else []
    counts = _seat_counts(tournament)
    return pairing.swiss_tables(players, history, tournament.table_size, min(counts), counts)


def _create_round(tournament: Tournament, number: int) -> Round:
    """Pair round ``number`` and start all its matches together (called
    with the tournament locked)."""
    entrants = _playable(tournament)
    by_id = {e.pk: e for e in entrants}
    tables, byes = _pair(tournament, number, entrants)
    current = Round.objects.create(tournament=tournament, number=number)
    win = float(tournament.table_size - 1)
    placements = []
    matches = []
    for table_no, table in enumerate(tables, start=1):
        match = lobby.start_table(
            users=[by_id[e].user for e in table],
            game_key=tournament.game_key,
            options=tournament.options,
            visibility=Visibility.PUBLIC,
            time_per_move=tournament.time_per_move,
            time_bank=tournament.time_bank,
            time_bank_increment=tournament.time_bank_increment,
            timeout_policy=tournament.timeout_policy if len(table) == 2 else "bot_strikes",
            takeover_level=tournament.takeover_level,
            vacation_allowed=tournament.vacation_allowed,
            weekend_pause=tournament.weekend_pause,
            rated=tournament.rated,
        )
        matches.append(match.pk)
        placements.extend(
            Placement(round=current, entrant_id=e, table=table_no, seat=i, match=match)
            for i, e in enumerate(table)
        )
    for offset, entrant_id in enumerate(byes, start=len(tables) + 1):
        placements.append(
            Placement(
                round=current, entrant_id=entrant_id, table=offset, is_bye=True, points=win, rank=1
            )
        )
    Placement.objects.bulk_create(placements)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    # One email per player: whose match emails them now (it started, or it
    # is their turn) reads the tournament's news in that email
    # (``notify.start_headline``); the row stays in the bell.
    told = set(
        Notification.objects.filter(
            match_id__in=matches,
            kind__in=[NotificationKind.MATCH_STARTED, NotificationKind.YOUR_TURN],
            status=DeliveryStatus.PENDING,
        ).values_list("user_id", flat=True)
    )
    if number == 1:  # the start's news says round 1 started, and tells a bye so
        notify.tournament_event(tournament, notify.STARTED, byes=set(byes), told=told)
    else:
        notify.tournament_event(tournament, notify.ROUND, round_number=number, told=told)
    feed.round_started(tournament, number)
    if not tables:  # everyone had a bye (all but one withdrew): go on at once
        outbox.hand_over_after_commit(ADVANCE_TASK, tournament.pk)
    return current


def _finish(tournament: Tournament) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    final = final_table(tournament)
    _store_places(tournament, final["places"])
    notify.tournament_event(tournament, notify.FINISHED, final=final)
    feed.finished(tournament, final)


def _store_places(tournament: Tournament, places: dict[int, int]) -> None:
    """Each entrant's final place, kept for their player page (the
    tournaments they won) without replaying the standings there."""
    entrants = list(tournament.entrants.only("pk", "final_place"))
    for entrant in entrants:
        entrant.final_place = places.get(entrant.pk)
    Entrant.objects.bulk_update(entrants, ["final_place"])


FINAL_TABLE_ROWS = 10  # the end's email lists the top of the table (the page has it all)


def final_table(tournament: Tournament) -> dict:
    """The end's news: the winners' names, the top of the final table as
    (place, name, points) and every entrant's place (two queries)."""
    from tournaments.selectors import points_text

    entrants = {e.pk: e for e in tournament.entrants.select_related("user__profile")}
    rows = ordered_standings(
        tournament, [(e.pk, e.rating) for e in entrants.values()], results_of(tournament)
    )
    name = {pk: e.user.profile.name for pk, e in entrants.items()}
    return {
        "winners": [name[r.entrant] for r in rows if r.place == 1],
        "table": [[r.place, name[r.entrant], points_text(r.points)] for r in rows][
            :FINAL_TABLE_ROWS
        ],
        "places": {r.entrant: r.place for r in rows},
    }


def cancel_with_season(tournament_id: int, reason: str) -> bool:
    """Cancel a season's division (``seasons.services.cancel``, inside its
    transaction and audit) as a moderator's cancel does; False when it was
    already over."""
    tournament = lock(tournament_id)
    if tournament is None or tournament.is_over:
        return False
    _cancel(tournament, reason)
    return True


def _cancel(tournament: Tournament, reason: str) -> None:
    tournament.status = TournamentStatus.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.cancel_reason = reason[:300]
    tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
    notify.tournament_event(tournament, notify.CANCELLED)
    feed.cancelled(tournament)


def on_match_ended(sender, match, seats, **kwargs) -> None:
    """``games.signals.match_ended``: inside the match's transaction, one
    indexed query; the tournament is handed to a task after the commit."""
    tournament_id = (
        Placement.objects.filter(match_id=match.pk)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        outbox.hand_over_after_commit(ADVANCE_TASK, tournament_id)


def sweep(now=None) -> dict:
    """The beat's pass: start the tournaments due, advance any whose round is
    over. Each tournament is a step of its own: one that fails (its
    transaction, a savepoint inside an outer one, rolled back) is logged and
    the others go on, so no tournament can hold up those after it."""
    started = [_isolated(start, pk, now) for pk in due_to_start(now)]
    advanced = [_isolated(advance, pk) for pk in waiting_to_advance()]
    outcomes = started + advanced
    return {
        "started": len(started) - started.count("failed"),
        "advanced": advanced.count("next round"),
        "failed": outcomes.count("failed"),
    }


def _isolated(step, tournament_id: int, *args) -> str:
    try:
        with transaction.atomic():
            return step(tournament_id, *args)
    except Exception:
        logger.exception("Tournament %s: %s failed", tournament_id, step.__name__)
        return "failed"


# -- Moderators -----------------------------------------------------------------


def _record(moderator, kind: str, reason: str, tournament: Tournament, user=None):
    return audit.record(moderator, kind, reason, user=user, details={"tournament": tournament.pk})


def cancel(moderator, tournament: Tournament, reason: str) -> ModerationAction:
    """Cancel a tournament not yet over. Its matches in play go on as
    ordinary matches (their players keep their games); no more rounds."""
    audit.require(moderator, "tournaments.moderate_tournament")
    reason = audit.reason_of(reason)
    with transaction.atomic():
        tournament = lock(tournament.pk)
        if tournament is None or tournament.is_over:
            raise Conflict(_("This tournament has already ended."))
        _cancel(tournament, reason)
        return _record(moderator, AuditKind.CANCEL_TOURNAMENT, reason, tournament)


def remove_entrant(moderator, entrant: Entrant, reason: str) -> ModerationAction:
    """Take an entrant out: before the start the entry goes; after it, as a
    withdrawal (their match in play ends by the timeout policy at once)."""
    audit.require(moderator, "tournaments.moderate_tournament")
    reason = audit.reason_of(reason)
    with transaction.atomic():
        tournament = lock(entrant.tournament_id)
        entrant = Entrant.objects.filter(pk=entrant.pk).select_related("user").first()
        if tournament is None or entrant is None or tournament.is_over:
            raise Conflict(_("This entrant can no longer be removed."))
        user = entrant.user
        if tournament.status == TournamentStatus.OPEN:
            entrant.delete()
        elif entrant.status == EntrantStatus.ACTIVE:
            _drop(entrant, EntrantStatus.REMOVED)
            for match in _running_matches(tournament, entrant):
                safety.resign(user=user, match=match)
        else:
            raise Conflict(_("This entrant no longer plays."))
        return _record(moderator, AuditKind.REMOVE_ENTRANT, reason, tournament, user=user)


def decide_match(moderator, match: Match, ranks: list[int], reason: str) -> ModerationAction:
    """A tournament match's result by a moderator: ``games.moderation.actions.adjudicate``
    (recorded in the audit log); the match's end advances the tournament."""
    if not Placement.objects.filter(match=match).exists():
        raise ServiceError(_("This match is not part of a tournament."))
    return moderation.adjudicate(moderator, match, ranks, reason)
