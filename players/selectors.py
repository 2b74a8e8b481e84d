"""Reads for the player pages and the leaderboards, each in a bounded number
of queries whatever the number of matches or players."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone

from accounts import roles
from accounts.models import Block
from accounts.presence import Presence, presence_of
from accounts.refs import PlayerRef, ref_for_seat, ref_for_user
from games.engine import registry
from games.models import Match, MatchStatus, Seat, Visibility
from games.panel.thumbnails import Thumbnail, thumbnail
from games.play.reliability import Record, record_of
from players.charts import Chart, rating_chart
from players.models import PROVISIONAL_MATCHES, Rating, RatingChange
from players.statistics import GameStatistics, Meeting, for_player, head_to_head

MATCHES_PER_PAGE = 20
LEADERBOARD_PAGE = 50
ACTIVE_DAYS = 180
# The leaders each game's lobby tile shows, and the /leaderboards/ page.
LEADERS_ON_TILE = 3
LEADERS_ON_INDEX = 5


def game_title(key: str) -> str:
    try:
        return registry.get(key).title
    except KeyError:
        return key


def page_number(raw, default: int = 1) -> int:
    """A page number from the query string: anything else is the first page."""
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 6:
        return max(1, int(raw))
    return default


# -- The player page -------------------------------------------------------------------


@dataclass
class GameStanding:
    key: str
    title: str
    display: int
    provisional: bool
    place: int | None
    rated_matches: int
    wins: int
    history: list[RatingChange] = field(default_factory=list)
    chart: Chart | None = None


@dataclass
class MatchLine:
    match: Match
    title: str
    players: list[PlayerRef]
    rank: int | None
    delta: int | None
    display_after: int | None
    thumb: Thumbnail | None = None  # the board's picture while in play (games/panel/thumbnails.py)


@dataclass
class PlayerPage:
    user: object
    ref: PlayerRef
    standings: list[GameStanding]
    in_play: list[MatchLine]
    finished: list[MatchLine]
    page: int
    has_next: bool
    blocked_by_me: bool
    # They block the viewer: never said as such (``challenge_refused``).
    blocks_me: bool = False
    # "online now" or "last seen …", for others, unless the player hides it.
    presence: Presence | None = None
    # Per game, from the finished matches (``players.statistics``).
    statistics: list[GameStatistics] = field(default_factory=list)
    # "You and <name>": the signed-in viewer's matches with this player.
    meetings: list[Meeting] = field(default_factory=list)
    # The reliability record (``games.play.reliability``): matches completed,
    # timeouts and missed deadlines in the last 90 days, under the bio.
    reliability: Record | None = None

    @property
    def challenge_refused(self) -> bool:
        """Whether the page offers no "Challenge" because one of the two
        blocks the other: it then says the one neutral sentence
        (``accounts.selectors.not_accepting``), whichever of them blocked."""
        return self.blocked_by_me or self.blocks_me


def leaderboard_rows(bots: bool = False):
    """Ratings past the provisional mark, played within the last 180 days:
    the humans' by default, the bot accounts' with ``bots`` (two boards kept
    apart, ``docs/ratings.md``)."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return Rating.objects.filter(
        bot=bots, rated_matches__gte=PROVISIONAL_MATCHES, last_played_at__gte=since
    )


def provisional_rows(bots: bool = False):
    """Ratings short of the provisional mark with at least one rated match,
    played within the last 180 days: listed below the ranked players, marked."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return Rating.objects.filter(
        bot=bots,
        rated_matches__gte=1,
        rated_matches__lt=PROVISIONAL_MATCHES,
        last_played_at__gte=since,
    )


def best_first(rows):
    """The leaderboard's order: the highest rating first, ties by the older account."""
    return rows.order_by("-display", "user_id")


def players_above(rows):
    """How many of ``rows`` stand above the rating of the outer query: those
    rated higher, and those rated the same who come first (by user id, as
    the leaderboard orders them). Two correlated counts, each a range of
    ``rating_leaderboard`` (an index-only scan), for one statement."""

    def count(condition):
        counted = rows.filter(condition).order_by().values("game_key")
        return Coalesce(Subquery(counted.annotate(n=Count("*")).values("n")), 0)

    return count(Q(display__gt=OuterRef("display"))) + count(
        Q(display=OuterRef("display"), user_id__lt=OuterRef("user_id"))
    )


def with_place(ratings):
    """``ratings`` with ``above`` (None for a rating off the leaderboard:
    provisional, or not played within 180 days), read in the same statement."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    rows = Rating.objects.filter(
        game_key=OuterRef("game_key"),
        bot=OuterRef("bot"),
        rated_matches__gte=PROVISIONAL_MATCHES,
        last_played_at__gte=since,
    )
    return ratings.annotate(
        above=Case(
            When(
                Q(rated_matches__gte=PROVISIONAL_MATCHES, last_played_at__gte=since),
                then=players_above(rows),
            ),
            default=None,
            output_field=IntegerField(),
        )
    )


def visible_to(viewer, through: str = ""):
    """Matches ``viewer`` may see: public ones, their own, all for moderators.

    ``through`` names the match from another model's rows (``"match"`` for
    the rating changes): the condition is then on the rows whose match the
    viewer may see."""
    if viewer is not None and viewer.is_authenticated and roles.is_moderator(viewer):
        return Q()
    prefix = f"{through}__" if through else ""
    condition = Q(**{f"{prefix}visibility": Visibility.PUBLIC})
    if viewer is not None and viewer.is_authenticated:
        match = OuterRef(f"{through}_id" if through else "pk")
        condition |= Q(Exists(Seat.objects.filter(match=match, user_id=viewer.pk)))
    return condition


def player_page(username: str, viewer, page: int = 1) -> PlayerPage | None:
    """Everything a player's page shows ``viewer``, or None for no such
    (active) player. Nine queries at most, so that the page, with the other
    apps' sections and its top bar, stays within fourteen: the user (with
    whether the viewer blocked them), their ratings with their leaderboard
    places, the rating history, the matches in play with one page of
    finished matches (one query, ``_matches_of``), every seat of those
    matches (which give the player's rank, as the history gives their
    rating change), and the statistics (two queries, and one more for "You
    and <name>" when a signed-in visitor looks at someone else's page), and
    the reliability record (one aggregate over the player's seats).
    Whether either of the viewer and the player blocks the other (the
    "Challenge" button) comes with the user, in the first; their presence
    from the cache, with no query."""
    if "\x00" in username:  # no name holds one, and PostgreSQL refuses it in a query
        return None
    User = get_user_model()
    users = User.objects.select_related("profile").filter(username=username, is_active=True)
    signed_in = viewer is not None and viewer.is_authenticated
    if signed_in:
        users = users.annotate(
            blocked_by_viewer=Exists(
                Block.objects.filter(blocker=viewer.pk, blocked=OuterRef("pk"))
            ),
            blocks_viewer=Exists(Block.objects.filter(blocker=OuterRef("pk"), blocked=viewer.pk)),
        )
    user = users.first()
    if user is None:
        return None
    ratings = list(with_place(Rating.objects.filter(user=user)).order_by("game_key"))
    places = {r.game_key: r.above + 1 for r in ratings if r.above is not None}
    # A private match's change (its number, date and rating) only for those
    # who may see the match: its players and moderators.
    history: dict[str, list[RatingChange]] = {}
    changes = RatingChange.objects.filter(visible_to(viewer, "match"), user=user)
    for change in changes.order_by("rated_at", "pk"):
        history.setdefault(change.game_key, []).append(change)
    standings = [
        GameStanding(
            key=r.game_key,
            title=game_title(r.game_key),
            display=r.display,
            provisional=r.provisional,
            place=places.get(r.game_key),
            rated_matches=r.rated_matches,
            wins=r.wins,
            history=history.get(r.game_key, []),
            chart=_chart(history.get(r.game_key, [])),
        )
        for r in ratings
        if r.rated_matches
    ]
    in_play, finished = _matches_of(user, viewer, page)
    has_next = len(finished) > MATCHES_PER_PAGE
    finished = finished[:MATCHES_PER_PAGE]
    seats: dict[int, list[Seat]] = {}
    ids = [m.pk for m in in_play + finished]
    if ids:
        for seat in (
            Seat.objects.filter(match_id__in=ids)
            .select_related("user__profile")
            .order_by("match_id", "index")
        ):
            seats.setdefault(seat.match_id, []).append(seat)
    # The player's rating change in each finished match, from the history above.
    changed = {c.match_id: c for rows in history.values() for c in rows}
    blocked = signed_in and viewer.pk != user.pk and user.blocked_by_viewer
    blocks_me = signed_in and viewer.pk != user.pk and user.blocks_viewer
    return PlayerPage(
        user=user,
        ref=ref_for_user(user),
        standings=standings,
        in_play=[_line(m, seats.get(m.pk, [])) for m in in_play],
        finished=[
            _line(m, seats.get(m.pk, []), finished=(user.pk, changed.get(m.pk))) for m in finished
        ],
        page=page,
        has_next=has_next,
        blocked_by_me=blocked,
        blocks_me=blocks_me,
        presence=None if signed_in and viewer.pk == user.pk else presence_of([user]).get(user.pk),
        statistics=for_player(user),
        meetings=head_to_head(viewer, user) if signed_in else [],
        reliability=record_of(user.pk),
    )


IN_PLAY_SHOWN = 50


def _matches_of(user, viewer, page: int) -> tuple[list[Match], list[Match]]:
    """The player's matches in play (open or active, newest first, at most
    ``IN_PLAY_SHOWN``) and one page of their finished ones (latest first,
    one more than a page, to tell whether another follows): in one query,
    each list numbered by its own window and cut there. The player's rank
    and rating change in a finished one are read from its seats and the
    rating history the page has anyway (``_line``), not by subqueries run
    for each of the player's matches before the window keeps a page of them."""
    finished = Q(status=MatchStatus.FINISHED)
    group = Case(When(finished, then=Value(1)), default=Value(0), output_field=IntegerField())
    newest = Case(When(finished, then=F("finished_at")), default=F("created_at"))
    offset = (page - 1) * MATCHES_PER_PAGE
    rows = list(
        Match.objects.filter(
            visible_to(viewer),
            seats__user=user,
            status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE, MatchStatus.FINISHED],
        )
        .defer("state", "options")
        .annotate(
            group=group,
            nth=Window(RowNumber(), partition_by=[group], order_by=[newest.desc(), F("pk").desc()]),
        )
        .filter(
            Q(group=0, nth__lte=IN_PLAY_SHOWN)
            | Q(group=1, nth__gt=offset, nth__lte=offset + MATCHES_PER_PAGE + 1)
        )
        .order_by("group", "nth")[: IN_PLAY_SHOWN + MATCHES_PER_PAGE + 1]
    )
    return [m for m in rows if m.group == 0], [m for m in rows if m.group == 1]


def _chart(changes: list[RatingChange]) -> Chart | None:
    if not changes:
        return None
    return rating_chart([changes[0].display_before] + [c.display_after for c in changes])


def _line(
    match: Match, seats: list[Seat], finished: tuple[int, RatingChange | None] | None = None
) -> MatchLine:
    """A match's line on the player's page; ``finished``: for a finished
    match, the player's id and their rating change in it (or None)."""
    rank = before = after = None
    if finished is not None:
        user_id, change = finished
        rank = next((s.rank for s in seats if s.user_id == user_id), None)
        if change is not None:
            before, after = change.display_before, change.display_after
    return MatchLine(
        match=match,
        title=game_title(match.game_key),
        players=[ref_for_seat(s, s.player_name) for s in seats],
        rank=rank,
        delta=after - before if after is not None and before is not None else None,
        display_after=after,
        thumb=None if finished is not None else thumbnail(match),
    )


# -- Leaderboards ------------------------------------------------------------------------


@dataclass
class LeaderRow:
    place: int | None  # None for a provisional player, who has no place yet
    ref: PlayerRef
    display: int
    rated_matches: int
    wins: int
    is_me: bool
    provisional: bool = False


def _row(rating: Rating, place: int | None, me_id: int | None = None) -> LeaderRow:
    return LeaderRow(
        place=place,
        ref=ref_for_user(rating.user),
        display=rating.display,
        rated_matches=rating.rated_matches,
        wins=rating.wins,
        is_me=rating.user_id == me_id,
        provisional=rating.provisional,
    )


@dataclass
class Leaderboard:
    key: str
    title: str
    rows: list[LeaderRow]
    page: int
    pages: int
    total: int
    my_row: LeaderRow | None
    my_rating: Rating | None
    # Below the ranked players, on the last page: the best provisional ones.
    provisional: list[LeaderRow] = field(default_factory=list)
    # The bot accounts' board (``accounts.bots``), not the humans'.
    bots: bool = False


def leaderboard(game_key: str, page: int, viewer, bots: bool = False) -> Leaderboard:
    """One page of a game's leaderboard, and the viewer's own place: three
    queries at most (the count, the page, the viewer's rating with their
    place and name), each an index range scan over ``rating_leaderboard``,
    and on the last page a fourth, the best provisional players (a range of
    ``rating_provisional``); the page with its top bar stays within five.
    ``bots``: the bot accounts' board instead of the humans'."""
    rows = leaderboard_rows(bots).filter(game_key=game_key)
    total = rows.count()
    pages = max(1, -(-total // LEADERBOARD_PAGE))
    page = min(page, pages)
    offset = (page - 1) * LEADERBOARD_PAGE
    me_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    # The page's players are picked from the index alone (an index-only scan
    # of ``rating_leaderboard``, however deep the page), then joined to
    # their names: skipping past the rows above does not read them whole.
    page_users = rows.order_by("-display", "user_id").values("user_id")[
        offset : offset + LEADERBOARD_PAGE
    ]
    chosen = best_first(rows.filter(user_id__in=page_users).select_related("user__profile"))
    shown = [_row(r, offset + i + 1, me_id) for i, r in enumerate(chosen)]
    provisional = []
    if page == pages:
        below = best_first(provisional_rows(bots).filter(game_key=game_key))
        provisional = [
            _row(r, None, me_id) for r in below.select_related("user__profile")[:LEADERBOARD_PAGE]
        ]
    my_row = next((row for row in shown if row.is_me), None)
    my_rating = None
    if me_id is not None:
        # The viewer's place is counted in the same statement.
        my_rating = (
            with_place(Rating.objects.filter(user_id=me_id, game_key=game_key, bot=bots))
            .select_related("user__profile")
            .first()
        )
        if my_row is None and my_rating is not None and my_rating.above is not None:
            my_row = _row(my_rating, my_rating.above + 1, me_id)
    return Leaderboard(
        key=game_key,
        title=game_title(game_key),
        rows=shown,
        page=page,
        pages=pages,
        total=total,
        my_row=my_row,
        my_rating=my_rating,
        provisional=provisional,
        bots=bots,
    )


def leaders(game_keys, n: int) -> dict[str, list[LeaderRow]]:
    """The top ``n`` of each game in ``game_keys``: its best ranked players
    (with their places), then, while fewer than ``n`` are ranked, its best
    provisional players, marked. One statement, whatever the number of
    players or games: the ratings whose ids are among each game's top ``n``
    ranked and top ``n`` provisional ones, each a LIMIT over a range of its
    index (``rating_leaderboard``, ``rating_provisional``), joined to the
    players' names."""
    keys = list(dict.fromkeys(game_keys))
    found: dict[str, list[LeaderRow]] = {key: [] for key in keys}
    if not keys or n < 1:
        return found
    tops = []
    for key in keys:
        for rows in (leaderboard_rows(), provisional_rows()):
            tops.append(best_first(rows.filter(game_key=key)).values("pk")[:n])
    chosen = Rating.objects.filter(pk__in=_union_of(tops)).select_related("user__profile")
    for rating in sorted(chosen, key=lambda r: (r.provisional, -r.display, r.user_id)):
        rows = found[rating.game_key]
        if len(rows) < n:
            place = None if rating.provisional else len(rows) + 1
            rows.append(_row(rating, place))
    return found


def _union_of(querysets) -> RawSQL:
    """One subquery of the ids every sliced ``querysets`` selects (each a
    ``values("pk")[:n]``). Django refuses a LIMIT inside a UNION on SQLite,
    so each part (one column) is wrapped in a derived table, as both databases
    accept."""
    parts, params = [], []
    for i, queryset in enumerate(querysets):
        sql, part_params = queryset.query.get_compiler(using=queryset.db).as_sql()
        parts.append(f'SELECT * FROM ({sql}) AS "top{i}"')
        params.extend(part_params)
    return RawSQL(" UNION ALL ".join(parts), params)


def blocked_users(user) -> list:
    return [
        b.blocked
        for b in Block.objects.filter(blocker=user)
        .select_related("blocked__profile")
        .order_by("created_at")
    ]
