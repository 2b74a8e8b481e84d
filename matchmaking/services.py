"""Quick match's writes: a request, its withdrawal, and the pass that forms
tables (docs/quick-match.md).

Locking: a pass plans its tables from what it read, without a lock; then
each table is a short transaction of its own that locks the table's request
rows in one statement (primary-key order, ``FOR UPDATE OF`` the requests
only, ``NOWAIT``) and goes on only if every one of them is still waiting and
its player active. A row another transaction holds makes the statement fail
at once, before it holds anything further (rows are locked in key order):
the table is skipped, never waited for, and its requests wait for the next
pass. So two passes at once never seat a request twice, and of two passes
forming the same table one forms it. (``SKIP LOCKED`` would let each of two
passes lock part of a table and both give up.) A withdrawal locks its one
request (``FOR UPDATE``): while a pass holds it, the withdrawal waits, then
finds it seated and is refused; a withdrawal first makes the pass skip the
table. The new match is made by ``games.lobby.services.start_table`` inside
the table's transaction, after the requests' lock.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import bots
from accounts.models import Block
from core import limits
from core.errors import Conflict, NotFound, ServiceError
from games.dispatch import outbox
from games.engine import registry
from games.lobby import services as lobby
from games.models import TIME_PER_MOVE_CHOICES, TimeoutPolicy, Visibility
from games.play import reliability
from matchmaking import matching, notify, selectors
from matchmaking.models import WAITING, Request, RequestStatus

logger = logging.getLogger(__name__)

PASS_TASK = "matchmaking.tasks.match_waiting"
#: The rating window's largest first width (points either side).
MAX_WINDOW = 4000
#: The hours a request may wait before bots fill its table, when asked.
BOTS_AFTER = (6, 12, 24, 48)
#: The bots that fill a table: the level "Play a bot now" starts with.
BOT_LEVEL = "heuristic"


def _limit() -> limits.Limit:
    return limits.Limit("quick-match", settings.SMOKI["QUICK_MATCH_PER_DAY"], 86400)


def clocks() -> list[timedelta]:
    """The times per move a request may name (the new-match form's)."""
    return [duration for duration, _label in TIME_PER_MOVE_CHOICES]


def checked(
    *, game_key: str, counts, clock_min: timedelta, clock_max: timedelta, window, options
) -> tuple[int, dict]:
    """The request's counts mask and resolved options, or a ``ServiceError``
    saying what is wrong (nothing is written before)."""
    counts = sorted(set(counts or []))
    if not counts:
        raise ServiceError(_("Choose how many players you accept."))
    if any(n not in matching.SIZES for n in counts):
        raise ServiceError(_("A table seats 2 to 7 players."))
    if clock_min not in clocks() or clock_max not in clocks():
        raise ServiceError(_("Choose a time per move from the list."))
    if clock_min > clock_max:
        raise ServiceError(_("The shortest time per move must not be above the longest."))
    if window is not None and not 0 <= window <= MAX_WINDOW:
        raise ServiceError(
            _("A rating window is at most %(points)d points either side.") % {"points": MAX_WINDOW}
        )
    if not game_key:
        if options:
            raise ServiceError(_("Options are for one game: choose a game first."))
        seats = selectors.game_seats()
        if not any(s.counts & matching.mask_of(counts) for s in seats.values()):
            raise ServiceError(_("No game seats that number of players."))
        return matching.mask_of(counts), {}
    if game_key not in {g.key for g in registry.all()}:
        raise ServiceError(_("There is no such game."))
    resolved = {}
    for n in counts:
        # The game's own refusal: its player counts, options that need
        # others (Drakon's team play: 4 or 6), in the player's language.
        _game, resolved = lobby.checked_setup(
            game_key=game_key,
            n_seats=n,
            options=options or {},
            timeout_policy=TimeoutPolicy.BOT_STRIKES,
            times=(clock_min, clock_max),
        )
    return matching.mask_of(counts), resolved


def request(
    user,
    *,
    game_key: str = "",
    counts,
    clock_min: timedelta,
    clock_max: timedelta,
    rated: bool = True,
    window: int | None = None,
    options: dict | None = None,
    bots_after: int | None = None,
) -> Request:
    """Ask for a table: it waits until a pass forms one (one is handed to a
    worker right after the commit). One waiting request per player and game,
    at most ``QUICK_MATCH_MAX_OPEN`` at once; not from a player already at
    their cap on matches at once (``games.play.reliability``: the table, when
    a pass forms it, is not refused again)."""
    mask, resolved = checked(
        game_key=game_key,
        counts=counts,
        clock_min=clock_min,
        clock_max=clock_max,
        window=window,
        options=options,
    )
    if bots_after is not None and bots_after not in BOTS_AFTER:
        raise ServiceError(_("Choose when bots may fill the table from the list."))
    bots.require_human(user, _("Quick match is for people: a bot account plays when invited."))
    reliability.require_room(user)
    mine = Request.objects.filter(WAITING, user=user)
    if mine.filter(game_key=game_key).exists():
        raise Conflict(_("You already have a quick-match request waiting for this game."))
    if mine.count() >= selectors.open_cap():
        raise Conflict(
            _("You have %(n)d quick-match requests waiting: withdraw one first.")
            % {"n": selectors.open_cap()}
        )
    limits.check(_limit(), user.pk, message=_("You have asked for many tables today; wait a day."))
    try:
        with transaction.atomic():
            made = Request.objects.create(
                user=user,
                game_key=game_key,
                options=resolved,
                counts=mask,
                clock_min=clock_min,
                clock_max=clock_max,
                rated=rated,
                window=window,
                bots_after=bots_after,
            )
            outbox.hand_over_after_commit(PASS_TASK, True)
    except IntegrityError:  # the same request, sent twice at once
        raise Conflict(_("You already have a quick-match request waiting for this game.")) from None
    return made


def withdraw(user, request_id: int) -> Request:
    """Take a waiting request back. One a pass is seating right now is waited
    for, then refused: its match has started."""
    if not 0 < request_id < 2**63:
        raise NotFound(_("You have no such quick-match request."))
    with transaction.atomic():
        found = Request.objects.select_for_update().filter(pk=request_id, user=user).first()
        if found is None:
            raise NotFound(_("You have no such quick-match request."))
        if found.status == RequestStatus.SEATED:
            raise Conflict(
                _("Too late to withdraw: a table has formed for this request and its match began.")
            )
        if found.status != RequestStatus.WAITING:
            raise Conflict(_("This quick-match request was withdrawn already."))
        found.status = RequestStatus.WITHDRAWN
        found.closed_at = timezone.now()
        found.save(update_fields=["status", "closed_at"])
    return found


def withdraw_all(user) -> int:
    """Every waiting request of a player who leaves the site."""
    return Request.objects.filter(WAITING, user=user).update(
        status=RequestStatus.WITHDRAWN, closed_at=timezone.now()
    )


# -- The pass ---------------------------------------------------------------------------


def plan(now=None) -> list[matching.Table]:
    """The tables a pass would form now, from what is read (three queries)."""
    now = now or timezone.now()
    games = selectors.game_seats()
    waiting = selectors.waiting(games)
    blocks = selectors.blocks_among({w.user for w in waiting})
    return matching.plan(waiting, games, blocks, now.timestamp())


#: Seconds between two passes run after new requests (the beat's always runs).
AFTER_REQUEST_GAP = 10


def match_waiting_after_request() -> dict | None:
    """The pass a new request hands over, unless another started within
    ``AFTER_REQUEST_GAP`` seconds (a burst of requests costs one pass; the
    beat's pass a minute later sees any request that one missed)."""
    if not cache.add("quick-match-after-request", 1, timeout=AFTER_REQUEST_GAP):
        return None
    return match_waiting()


def match_waiting(now=None) -> dict:
    """One pass: plan the tables, then seat each in its own transaction. A
    table whose requests changed meanwhile (withdrawn, seated by another
    pass, a player gone or a block made) is skipped; its requests wait for
    the next pass. One table failing does not stop the others. Then each
    request still waiting past its ``bots_after`` hours is seated with bots."""
    now = now or timezone.now()
    tables = plan(now)
    formed = skipped = failed = 0
    for table in tables:
        try:
            if seat(table, now):
                formed += 1
            else:
                skipped += 1
        except Exception:
            failed += 1
            logger.exception("quick match: table %r could not be formed", table.requests)
    with_bots = 0
    for pk in selectors.due_for_bots(now):
        try:
            with_bots += seat_with_bots(pk, now)
        except Exception:
            failed += 1
            logger.exception("quick match: request %s could not be seated with bots", pk)
    return {"tables": formed, "skipped": skipped, "failed": failed, "with_bots": with_bots}


def seat(table: matching.Table, now=None) -> bool:
    """Form one planned table, if every request of it is still waiting."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            with transaction.atomic():
                rows = list(
                    Request.objects.select_for_update(nowait=True, of=("self",))
                    .filter(WAITING, pk__in=table.requests, user__is_active=True)
                    .exclude(user__profile__is_bot_account=True)  # never a bot account
                    .select_related("user__profile")
                    .order_by("pk")
                )
        except OperationalError:  # another pass, or a withdrawal, holds one of them
            return False
        if len(rows) != len(table.requests):
            return False
        by_id = {row.pk: row for row in rows}
        ordered = [by_id[pk] for pk in table.requests]
        user_ids = [row.user_id for row in ordered]
        if Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).exists():
            return False
        seating = [row.user for row in ordered]
        secrets.SystemRandom().shuffle(seating)  # who sits first is chance
        match = lobby.start_table(
            users=seating,
            game_key=table.game,
            options=json.loads(table.options),
            time_per_move=timedelta(seconds=table.clock),
            rated=table.rated,
        )
        Request.objects.filter(pk__in=table.requests).update(
            status=RequestStatus.SEATED, match=match, closed_at=now
        )
        names = {row.user_id: _name(row.user) for row in ordered}
        for row in ordered:
            notify.seated(
                row.user,
                request_id=row.pk,
                match_id=match.pk,
                game_key=table.game,
                others=[names[u] for u in user_ids if u != row.user_id],
            )
    return True


def seat_with_bots(request_id: int, now=None) -> bool:
    """A table of the request's game (for any game, the first game by key
    that seats its fewest players) at its fewest accepted players, the other
    seats bots: unrated, private, with the longest clock it accepts."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            with transaction.atomic():
                found = (
                    Request.objects.select_for_update(nowait=True, of=("self",))
                    .filter(WAITING, pk=request_id, user__is_active=True)
                    .select_related("user")
                    .first()
                )
        except OperationalError:  # a pass is seating it, or a withdrawal holds it
            return False
        if found is None:
            return False
        key, n = _bots_table(found)
        if not key:
            return False
        match = lobby.create_match(
            user=found.user,
            game_key=key,
            n_seats=n,
            options=found.options if found.game_key else {},
            visibility=Visibility.PRIVATE,
            time_per_move=found.clock_max,
            rated=False,
            capped=False,  # a table of bots, as "Play a bot now": never refused here
        )
        lobby.fill_with_bots(user=found.user, match=match, level=BOT_LEVEL)
        Request.objects.filter(pk=found.pk).update(
            status=RequestStatus.SEATED, match=match, closed_at=now
        )
        notify.seated_with_bots(
            found.user,
            request_id=found.pk,
            match_id=match.pk,
            game_key=key,
            hours=found.bots_after or 0,
        )
    return True


def _bots_table(found: Request) -> tuple[str, int]:
    counts = matching.counts_of(found.counts)
    if found.game_key:
        return found.game_key, counts[0]
    seats = selectors.game_seats()
    for n in counts:
        for key in sorted(seats):
            if seats[key].counts >> n & 1:
                return key, n
    return "", 0


def _name(user) -> str:
    profile = getattr(user, "profile", None)
    return profile.name if profile else user.username
