"""Quick match's reads: what a pass works on (the waiting requests with
their players' ratings, and the blocks among them, in three queries), and
what the lobby and the quick-match page show (in two)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Block
from games.engine import registry
from games.engine.base import resolve_options
from games.models import TIME_PER_MOVE_CHOICES
from matchmaking import matching
from matchmaking.models import WAITING, Request, RequestStatus
from players.models import NEWCOMER_RATING, Rating


def options_text(options: dict) -> str:
    """The canonical text of a set of options: equal options, equal text."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def game_seats() -> dict[str, matching.GameSeats]:
    """Every game's player counts with its default options (what a request
    for any game may be seated at), and those options."""
    seats = {}
    for game in registry.all():
        defaults = resolve_options(game, {})
        counts = [
            n
            for n in range(max(2, game.min_players), min(7, game.max_players) + 1)
            if game.validate_setup(n, defaults) is None
        ]
        seats[game.key] = matching.GameSeats(matching.mask_of(counts), options_text(defaults))
    return seats


def _waiting_rows():
    """The waiting requests a pass may seat: an active person's. A bot
    account's (one made in the moment its owner turned it into a bot) is
    never seated with people: quick match is theirs (``accounts.bots``)."""
    return Request.objects.filter(WAITING, user__is_active=True).exclude(
        user__profile__is_bot_account=True
    )


def waiting(games) -> list[matching.Waiting]:
    """Every waiting request of an active player, as the pass sees it, with
    the player's rating for each game it may be seated at (a newcomer's
    when unrated): two queries."""
    rows = list(
        _waiting_rows().values_list(
            "id",
            "user_id",
            "game_key",
            "options",
            "counts",
            "clock_min",
            "clock_max",
            "rated",
            "window",
            "created_at",
        )
    )
    users = _waiting_rows().values("user_id")
    found: dict[int, dict[str, int]] = {}
    for user_id, game_key, display in Rating.objects.filter(user_id__in=users).values_list(
        "user_id", "game_key", "display"
    ):
        found.setdefault(user_id, {})[game_key] = display
    result = []
    for pk, user_id, key, options, counts, low, high, rated, window, created in rows:
        mine = found.get(user_id, {})
        wanted = [key] if key else list(games)
        result.append(
            matching.Waiting(
                id=pk,
                user=user_id,
                game=key,
                options=options_text(options) if key else "",
                counts=counts,
                clock_min=int(low.total_seconds()),
                clock_max=int(high.total_seconds()),
                rated=rated,
                window=window,
                created=created.timestamp(),
                ratings={k: mine.get(k, NEWCOMER_RATING) for k in wanted},
            )
        )
    return result


def blocks_among(waiting_users: set[int]) -> set[tuple[int, int]]:
    """Every pair of waiting players where one blocked the other: one query
    (the blocks made by waiting players, kept when the blocked one waits too)."""
    pairs = Block.objects.filter(blocker_id__in=_waiting_rows().values("user_id")).values_list(
        "blocker_id", "blocked_id"
    )
    return matching.blocked_pairs((a, b) for a, b in pairs if b in waiting_users)


def due_for_bots(now: datetime) -> list[int]:
    """The waiting requests of active players past their ``bots_after``
    hours, oldest first: one query (a handful of rows: those who asked)."""
    rows = (
        _waiting_rows()
        .filter(bots_after__isnull=False)
        .order_by("created_at", "pk")
        .values_list("pk", "created_at", "bots_after")
    )
    return [pk for pk, since, hours in rows if (now - since).total_seconds() >= hours * 3600]


# -- What players see -----------------------------------------------------------------


def clock_label(seconds: float) -> str:
    for duration, label in TIME_PER_MOVE_CHOICES:
        if duration.total_seconds() == seconds:
            return str(label)
    return str(int(seconds // 3600)) + " h"


def game_title(key: str) -> str:
    if not key:
        return _("Any game")
    try:
        return str(registry.get(key).title)
    except KeyError:
        return key


@dataclass(frozen=True)
class Shown:
    """A request as its player reads it."""

    pk: int
    game: str
    players: str
    clock: str
    rated: bool
    window: str
    since: datetime
    status: str
    match_id: int | None
    bots_after: int | None = None


def _players_label(mask: int) -> str:
    counts = matching.counts_of(mask)
    if len(counts) == 1:
        return ngettext("%(n)d player", "%(n)d players", counts[0]) % {"n": counts[0]}
    if counts == list(range(counts[0], counts[-1] + 1)):
        return _("%(low)d to %(high)d players") % {"low": counts[0], "high": counts[-1]}
    return _("%(counts)s players") % {"counts": ", ".join(str(n) for n in counts)}


def _window_label(window: int | None, since: datetime, now: datetime) -> str:
    if window is None:
        return _("any rating")
    now_window = matching.widened(window, (now - since).total_seconds())
    if now_window == window:
        return _("rating ± %(points)d") % {"points": window}
    return _("rating ± %(points)d, now ± %(wider)d") % {"points": window, "wider": now_window}


def shown(request: Request, now: datetime) -> Shown:
    return Shown(
        pk=request.pk,
        game=game_title(request.game_key),
        players=_players_label(request.counts),
        clock=(
            clock_label(request.clock_min.total_seconds())
            if request.clock_min == request.clock_max
            else f"{clock_label(request.clock_min.total_seconds())} – "
            f"{clock_label(request.clock_max.total_seconds())}"
        ),
        rated=request.rated,
        window=_window_label(request.window, request.created_at, now),
        since=request.created_at,
        status=request.status,
        match_id=request.match_id,
        bots_after=request.bots_after,
    )


def waiting_counts() -> list[tuple[str, str, int]]:
    """(key, title, how many wait) for every game and for any game: one query."""
    counts = dict(
        Request.objects.filter(WAITING, user__is_active=True)
        .values_list("game_key")
        .annotate(n=Count("id"))
        .values_list("game_key", "n")
    )
    rows = [(g.key, str(g.title), counts.get(g.key, 0)) for g in registry.all()]
    return [*rows, ("", _("Any game"), counts.get("", 0))]


def my_requests(user, recent: int = 0) -> list[Shown]:
    """The player's waiting requests, oldest first, then their ``recent``
    latest seated ones, newest first: one query."""
    if not user.is_authenticated:
        return []
    now = timezone.now()
    query = Request.objects.filter(user=user, status=RequestStatus.WAITING)
    if recent:
        query = Request.objects.filter(
            user=user, status__in=[RequestStatus.WAITING, RequestStatus.SEATED]
        )
    # "waiting" sorts after "seated": the waiting ones (a handful, capped) first.
    rows = list(query.order_by("-status", "-created_at")[: open_cap() + recent])
    mine = [shown(r, now) for r in reversed(rows) if r.is_waiting]
    seated = [shown(r, now) for r in rows if r.status == RequestStatus.SEATED]
    return mine + seated


def open_cap() -> int:
    """How many requests one player may have waiting at once."""
    return settings.SMOKI["QUICK_MATCH_MAX_OPEN"]


def lobby_section(user) -> dict:
    return {"counts": waiting_counts(), "requests": my_requests(user)}
