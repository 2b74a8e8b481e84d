"""The lobby's and Watch's lists: the games' tiles, open public matches
(friends' first, with the matches only the creator's friends may join),
matches in play to watch (friends' games apart), and a player's own
matches, finished matches and invitations; each with its players' ratings
read in one query."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import is_bot_account
from accounts.refs import PlayerRef, ref_for_seat, ref_for_user
from games.engine import registry
from games.lobby import invitations
from games.models import (
    Invitation,
    Match,
    MatchStatus,
    Seat,
    Visibility,
)
from games.panel import presenters
from games.panel.build import clock_rules, time_per_move_label
from games.panel.thumbnails import Thumbnail, thumbnail
from games.play import friendship, standing


@dataclass
class MatchRow:
    match: Match
    title: str
    players: list[PlayerRef]
    my_turn: bool
    free_seats: int
    time_per_move: str
    rating_range: str = ""  # "1100–1300", "≥ 1100": who may join an open match
    clock_rules: list[str] | None = None  # no vacation, weekend pause (before joining)
    thumb: Thumbnail | None = None  # the board's picture while in play (games/panel/thumbnails.py)
    with_friends: bool = False  # a friend of the viewer holds a seat (games.play.friendship)

    @property
    def friends_only(self) -> bool:
        """Only the creator's friends may join (``Visibility.FRIENDS``)."""
        return self.match.visibility == Visibility.FRIENDS


def _row(
    match: Match, user=None, ratings: dict | None = None, friends: frozenset = frozenset()
) -> MatchRow:
    game = registry.get(match.game_key)
    seats = list(match.seats.all())
    my_turn = (
        user is not None and match.status == MatchStatus.ACTIVE and match.waiting_on_id == user.pk
    )
    return MatchRow(
        match=match,
        title=game.title,
        players=[
            ref_for_seat(s, rating=ratings.get((s.user_id, match.game_key)) if ratings else None)
            for s in seats
        ],
        my_turn=my_turn,
        free_seats=match.n_seats - len(seats),
        time_per_move=time_per_move_label(match.time_per_move),
        rating_range=rating_range_label(match),
        clock_rules=clock_rules(match),
        thumb=thumbnail(match),
        with_friends=any(s.user_id in friends for s in seats),
    )


def rating_range_label(match: Match) -> str:
    low, high = match.min_rating, match.max_rating
    if low is not None and high is not None:
        return f"{low}–{high}"
    if low is not None:
        return f"≥ {low}"
    return f"≤ {high}" if high is not None else ""


def _with_seats(queryset):
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))
    )


@dataclass(frozen=True)
class GameTile:
    """One game as the lobby shows it: its picture, who may play, what it is about."""

    key: str
    title: str
    icon: str  # a game-icons name (games/icons.py)
    players: str
    summary: str
    # Its best players: ranked ones with their places, then provisional ones.
    leaders: tuple[standing.Leader, ...] = ()


# How many of each game's best players its tile names.
TILE_LEADERS = 3


def game_tiles() -> list[GameTile]:
    """Every registered game for the lobby, in the active language: its icon and
    one-sentence summary come from its presenter (``ICON``, ``SUMMARY``), its
    best players from the ratings (one query for every game)."""
    tiles = []
    entries = registry.registrations()
    leaders = standing.leaders([entry.key for entry in entries], TILE_LEADERS)
    for entry in entries:
        game = entry.rules
        presenter = presenters.get(entry.key)
        if game.min_players == game.max_players:
            players = ngettext("%(n)d player", "%(n)d players", game.min_players) % {
                "n": game.min_players
            }
        else:
            players = _("%(min)d–%(max)d players") % {
                "min": game.min_players,
                "max": game.max_players,
            }
        tiles.append(
            GameTile(
                key=entry.key,
                title=game.title,
                icon=presenter.ICON,
                players=players,
                summary=str(presenter.SUMMARY),
                leaders=tuple(leaders.get(entry.key, ())),
            )
        )
    return tiles


def open_public_matches(user=None, limit: int = 50) -> list[MatchRow]:
    """The open matches ``user`` may join: public ones, and those for friends
    only that a friend of theirs created; the matches where a friend holds a
    seat first, then the newest. None where someone blocked them. A bot
    account is not offered a rated match a person sits in unless it was
    invited to it (``games.play.bot_accounts``: a rated pool of people)."""
    friends = frozenset(friendship.friend_ids(user))
    shown = Q(visibility=Visibility.PUBLIC)
    if friends:
        shown |= Q(visibility=Visibility.FRIENDS, created_by_id__in=friends)
    queryset = Match.objects.filter(shown, status=MatchStatus.OPEN)
    if user is not None and user.is_authenticated:
        queryset = queryset.exclude(seats__user=user)
        # Matches where someone blocked this player are not offered to them.
        queryset = queryset.exclude(
            Exists(
                Seat.objects.filter(
                    match=OuterRef("pk"),
                    user__blocks_made__blocked=user,
                )
            )
        )
        if is_bot_account(user):
            queryset = queryset.exclude(
                Q(rated=True)
                & Exists(
                    Seat.objects.filter(
                        match=OuterRef("pk"),
                        user__isnull=False,
                        user__profile__is_bot_account=False,
                    )
                )
                & ~Exists(Invitation.objects.filter(match=OuterRef("pk"), invited_user=user))
            )
    order = ["-created_at"]
    if friends:
        queryset = queryset.annotate(
            friend_seated=Exists(Seat.objects.filter(match=OuterRef("pk"), user_id__in=friends))
        )
        order = ["-friend_seated", *order]
    matches = list(_with_seats(queryset.order_by(*order)[:limit]))
    ratings = shown_ratings(matches)
    return [_row(m, ratings=ratings, friends=friends) for m in matches]


def shown_ratings(matches: list[Match]) -> dict[tuple[int, str], int]:
    """The rating of every seated player of ``matches`` for that match's game,
    in one query: {(user id, game key): rating}. A player with no rating row
    yet shows a newcomer's number."""
    wanted = {(s.user_id, m.game_key) for m in matches for s in m.seats.all() if s.user_id}
    if not wanted:
        return {}
    return standing.ratings_of(wanted)


def live_public_matches(limit: int = 50) -> list[MatchRow]:
    """Public matches in play, to watch: the most recently active first."""
    queryset = (
        Match.objects.filter(status=MatchStatus.ACTIVE, visibility=Visibility.PUBLIC)
        .defer("state", "options")
        .order_by("-updated_at")[:limit]
    )
    return [_row(m) for m in _with_seats(queryset)]


def friends_live_matches(user, limit: int = 50) -> list[MatchRow]:
    """Watch's "Friends' games": public matches in play where a friend of
    ``user`` holds a seat, the most recently active first (a private match
    stays its players' own, friends or not). No query for a visitor or a
    player without friends but the one that finds them."""
    friends = frozenset(friendship.friend_ids(user))
    if not friends:
        return []
    queryset = (
        Match.objects.filter(
            Exists(Seat.objects.filter(match=OuterRef("pk"), user_id__in=friends)),
            status=MatchStatus.ACTIVE,
            visibility=Visibility.PUBLIC,
        )
        .defer("state", "options")
        .order_by("-updated_at")[:limit]
    )
    return [_row(m, friends=friends) for m in _with_seats(queryset)]


def my_matches(user) -> list[MatchRow]:
    """My open and active matches: those waiting for me first, least time left first."""
    queryset = _with_seats(
        Match.objects.filter(seats__user=user, status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE])
        .defer("state", "options")
        .order_by("deadline", "-created_at")
    )
    rows = [_row(m, user) for m in queryset]
    far_future = timezone.now() + timezone.timedelta(days=10_000)
    rows.sort(key=lambda r: (not r.my_turn, r.match.deadline or far_future))
    return rows


def my_finished_matches(user, limit: int = 20) -> list[MatchRow]:
    queryset = _with_seats(
        Match.objects.filter(
            seats__user=user, status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED]
        ).order_by("-finished_at")[:limit]
    )
    return [_row(m, user) for m in queryset]


def my_invitations(user) -> list[Match]:
    matches = list(
        Match.objects.filter(invitations__invited_user=user, status=MatchStatus.OPEN)
        .exclude(seats__user=user)
        .select_related("created_by__profile")
    )
    terms = invitations.terms_for(user, [match.pk for match in matches])
    for match in matches:
        match.title = registry.get(match.game_key).title
        match.terms = terms.get(match.pk)
        # Who invited: by username, a link, with the BOT mark of a bot account.
        match.inviter = ref_for_user(match.created_by, match.created_by.username)
    return matches
