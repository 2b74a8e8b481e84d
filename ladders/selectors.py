"""The ladders' reads, each in a fixed number of queries whatever the number
of players and challenges: the list of ladders (one), a ladder's page
(three), a player's places (one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from accounts.models import Block
from accounts.refs import PlayerRef, ref_for_user
from ladders import rungs
from ladders.models import Challenge, ChallengeStatus, Entry
from players.models import NEWCOMER_RATING, Rating

RECENT_RESULTS = 10


@dataclass
class LadderSummary:
    key: str
    title: str
    players: int
    mine: bool


def ladder_list(viewer) -> list[LadderSummary]:
    """Every game's ladder with its number of players (one query; a ladder
    nobody joined yet has none and no row)."""
    signed_in = viewer is not None and viewer.is_authenticated
    counts = {
        row["ladder__game_key"]: row
        for row in Entry.objects.values("ladder__game_key").annotate(
            n=Count("id"), mine=Count("id", filter=Q(user_id=viewer.pk if signed_in else None))
        )
    }
    return [
        LadderSummary(
            key=game.key,
            title=str(game.title),
            players=counts.get(game.key, {}).get("n", 0),
            mine=bool(counts.get(game.key, {}).get("mine", 0)),
        )
        for game in rungs.ladder_games()
    ]


@dataclass
class Row:
    place: int
    ref: PlayerRef
    rating: int
    is_me: bool
    can_challenge: bool
    busy: bool  # has a challenge to answer
    blocked: bool = False  # the viewer blocks this player: no challenge offered


@dataclass
class ChallengeLine:
    pk: int
    challenger: PlayerRef
    challenged: PlayerRef
    accept_by: datetime
    match_id: int
    accepted: bool
    mine_to_answer: bool
    outcome: str = ""
    moved: bool = False
    resolved_at: datetime | None = None


@dataclass
class LadderPage:
    key: str
    title: str
    reach: int
    accept_days: int
    rows: list[Row] = field(default_factory=list)
    open_challenges: list[ChallengeLine] = field(default_factory=list)
    recent: list[ChallengeLine] = field(default_factory=list)
    my_place: int | None = None
    my_open_sent: bool = False


def _rating(game_key: str):
    return Coalesce(
        Subquery(
            Rating.objects.filter(user=OuterRef("user"), game_key=game_key).values("display")[:1],
            output_field=IntegerField(),
        ),
        NEWCOMER_RATING,
    )


def _line(challenge: Challenge, viewer_id) -> ChallengeLine:
    return ChallengeLine(
        pk=challenge.pk,
        challenger=ref_for_user(challenge.challenger),
        challenged=ref_for_user(challenge.challenged),
        accept_by=challenge.accept_by,
        match_id=challenge.match_id,
        accepted=bool(challenge.accepted_at) or challenge.match.status != "open",
        mine_to_answer=(
            challenge.challenged_id == viewer_id
            and challenge.is_open
            and not challenge.accepted_at
            and challenge.match.status == "open"
        ),
        outcome=challenge.get_outcome_display() if not challenge.is_open else "",
        moved=challenge.moved,
        resolved_at=challenge.resolved_at,
    )


def ladder_page(game_key: str, viewer) -> LadderPage | None:
    """The ranked list with ratings, the open challenges with their deadlines
    and matches, the latest results, and what ``viewer`` may do on each row.
    Three queries; None for a game with no ladder."""
    game = rungs.ladder_game(game_key)
    if game is None:
        return None
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    # Whom the viewer blocks, read with the entries: the challenge would be
    # refused, so it is not offered.
    blocked = (
        Exists(Block.objects.filter(blocker_id=viewer_id, blocked=OuterRef("user")))
        if viewer_id
        else Value(False)
    )
    entries = list(
        Entry.objects.filter(ladder__game_key=game_key)
        .select_related("user__profile")
        .annotate(rating=_rating(game_key), blocked=blocked)
        .order_by("rung")
    )
    people = ("challenger__profile", "challenged__profile", "match")
    open_ones = list(
        Challenge.objects.filter(ladder__game_key=game_key, status=ChallengeStatus.OPEN)
        .select_related(*people)
        .order_by("accept_by")
    )
    recent = list(
        Challenge.objects.filter(ladder__game_key=game_key, status=ChallengeStatus.DONE)
        .select_related(*people)
        .order_by("-resolved_at", "-pk")[:RECENT_RESULTS]
    )
    page = LadderPage(
        key=game.key,
        title=str(game.title),
        reach=rungs.reach(),
        accept_days=rungs.accept_within().days,
        open_challenges=[_line(c, viewer_id) for c in open_ones],
        recent=[_line(c, viewer_id) for c in recent],
    )
    answering = {c.challenged_id for c in open_ones}
    page.my_open_sent = any(c.challenger_id == viewer_id for c in open_ones)
    places = {entry.user_id: place for place, entry in enumerate(entries, start=1)}
    page.my_place = places.get(viewer_id)
    for place, entry in enumerate(entries, start=1):
        within_reach = (
            page.my_place is not None
            and 0 < page.my_place - place <= page.reach
            and not page.my_open_sent
            and entry.user_id not in answering
        )
        page.rows.append(
            Row(
                place=place,
                ref=ref_for_user(entry.user),
                rating=entry.rating,
                is_me=entry.user_id == viewer_id,
                can_challenge=within_reach and not entry.blocked,
                busy=entry.user_id in answering,
                blocked=within_reach and bool(entry.blocked),
            )
        )
    return page


@dataclass
class LadderPlace:
    key: str
    title: str
    place: int
    players: int


def ladder_places(user) -> list[LadderPlace]:
    """The player's place on each ladder they are on (one query)."""
    same_ladder = Entry.objects.filter(ladder=OuterRef("ladder"))
    entries = (
        Entry.objects.filter(user=user)
        .select_related("ladder")
        .annotate(
            above=Subquery(
                same_ladder.filter(rung__lt=OuterRef("rung"))
                .values("ladder")
                .annotate(n=Count("id"))
                .values("n")[:1],
                output_field=IntegerField(),
            ),
            total=Subquery(
                same_ladder.values("ladder").annotate(n=Count("id")).values("n")[:1],
                output_field=IntegerField(),
            ),
        )
        .order_by("ladder__game_key")
    )
    places = []
    for entry in entries:
        game = rungs.ladder_game(entry.ladder.game_key)
        places.append(
            LadderPlace(
                key=entry.ladder.game_key,
                title=str(game.title) if game else entry.ladder.game_key,
                place=(entry.above or 0) + 1,
                players=entry.total or 1,
            )
        )
    return places


def player_section(user) -> dict:
    """The ladders section of a player's page (``players.sections``)."""
    return {"places": ladder_places(user)}
