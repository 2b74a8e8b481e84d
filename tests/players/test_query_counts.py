"""The players' layer's database work is bounded (issue 23's targets):

- the rating update adds at most 4 queries to a match's finishing move (the
  fourth counts the pair's earlier results, ``ratings.repeated_pair``);
- a player's page reads at most 14 queries (3 of them its statistics), a
  leaderboard page at most 4 and its last page, which lists the provisional players too, at most 5; the
  lobby and /leaderboards/ read every game's best players in one query;
  whatever the number of matches or players, beyond the request's own
  session and authentication queries (the signed-in user's row and, for a
  moderator, their group). The bell's unread count in the top bar is part of
  the page and counted.

Run with ``-s`` to see the counts.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine import registry
from games.engine.rng import seed_hash
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Visibility
from games.play import services
from players.models import PROVISIONAL_MATCHES, Rating, RatingChange
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db

RATING_UPDATE_QUERIES = 4
# The page's own reads (the user, ratings, rating changes, the matches in
# play with one page of the finished ones, their seats), one for the
# tournaments entered with those won (the trophies), one each for the seasons
# played, the ladder places and the followers (friends.selectors.player_section),
# the statistics (two, and "You and <name>" for a signed-in visitor: three),
# the reliability record (one aggregate) and, signed in, the bell.
PLAYER_PAGE_QUERIES = 14
STATISTICS_QUERIES = 3
LEADERBOARD_QUERIES = 4
# The last page adds the provisional players below the ranked ones.
LAST_LEADERBOARD_PAGE_QUERIES = LEADERBOARD_QUERIES + 1


def counted(queries: CaptureQueriesContext) -> list[str]:
    """The statements of a request beyond its session and authentication
    (and the test's own SAVEPOINTs, which production does not send)."""
    kept = []
    for query in queries.captured_queries:
        sql = query["sql"]
        if "SAVEPOINT" in sql or '"django_session"' in sql or '"auth_group"' in sql:
            continue
        if sql.startswith('SELECT "auth_user"."id"') and 'WHERE "auth_user"."id" = ' in sql:
            continue  # the signed-in user, loaded from the session
        kept.append(sql)
    return kept


def _listing(sqls: list[str]) -> str:
    return "\n".join(f"  {sql[:200]}" for sql in sqls)


# -- The finishing move -----------------------------------------------------------------


def _twin_matches(ann, ben) -> tuple[Match, Match]:
    """Two Hatchlings matches dealt from the same seed, one rated, one not."""
    rated = lobby.create_match(user=ann, game_key="hatchlings", n_seats=2)
    unrated = lobby.create_match(user=ann, game_key="hatchlings", n_seats=2, rated=False)
    seed = "23" * 16
    Match.objects.filter(pk__in=[rated.pk, unrated.pk]).update(seed=seed, seed_hash=seed_hash(seed))
    for match in (rated, unrated):
        lobby.join_match(user=ben, match=match)
        match.refresh_from_db()
    assert rated.rated and not unrated.rated
    assert rated.state == unrated.state
    return rated, unrated


def _move(match: Match, users):
    game = registry.get(match.game_key)
    match.refresh_from_db()
    (seat,) = game.current_seats(match.state)
    action = game.legal_actions(match.state, seat)[0]
    return lambda: services.submit_action(match, users[seat], action, match.version)


def test_the_rating_update_adds_at_most_four_queries_to_the_finishing_move(alice, bob):
    rated, unrated = _twin_matches(alice, bob)
    game = registry.get("hatchlings")
    while True:
        moves = [_move(m, [alice, bob]) for m in (rated, unrated)]
        rated.refresh_from_db()
        state, seat = rated.state, game.current_seats(rated.state)[0]
        last = game.apply(state, seat, game.legal_actions(state, seat)[0])[0]["over"]
        if last:
            break
        for move in moves:
            move()
    counts = []
    for move in moves:
        with CaptureQueriesContext(connection) as queries:
            move()
        counts.append(counted(queries))
    for match in (rated, unrated):
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
    assert rated.result == unrated.result
    assert RatingChange.objects.filter(match=rated).count() == 2
    assert not RatingChange.objects.filter(match=unrated).exists()
    with_update, without = counts
    print(f"\nfinishing move: {len(without)} queries unrated, {len(with_update)} rated")
    assert 0 < len(with_update) - len(without) <= RATING_UPDATE_QUERIES, _listing(with_update)


# -- The player page --------------------------------------------------------------------


def _viewer(kind: str, target, stranger, moderator) -> Client:
    client = Client()
    if kind == "own":
        client.force_login(target)
    elif kind == "other":
        client.force_login(stranger)
    elif kind == "moderator":
        client.force_login(moderator)
    return client


def _measure(client: Client, url: str) -> list[str]:
    client.get(url)  # warm the per-user caches a real visitor has warm
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return counted(queries)


def _give_trophies(target, count: int) -> None:
    """``count`` finished tournaments ``target`` won (their places stored as
    the end stores them), and as many they entered and lost."""
    from tournaments.models import Entrant, Tournament

    now = timezone.now()
    for i in range(count):
        for place in (1, 2):
            tournament = Tournament.objects.create(
                name=f"Cup {i}-{place}",
                game_key="nogi",
                table_size=2,
                format="swiss",
                rounds=1,
                starts_at=now,
                min_entrants=2,
                max_entrants=8,
                status="finished",
                finished_at=now,
            )
            Entrant.objects.create(tournament=tournament, user=target, final_place=place)


def _give_seasons(target, count: int) -> None:
    """``count`` seasons of Nogi ``target`` played, in a division each."""
    from seasons.models import Division, Season, SeasonEntry
    from tournaments.models import Tournament

    now = timezone.now()
    for i in range(count):
        season = Season.objects.create(
            game_key="nogi",
            year=2020 + i,
            quarter=1,
            signup_opens_at=now,
            starts_at=now,
            status="finished" if i else "running",
        )
        tournament = Tournament.objects.create(
            name=f"Season {i}",
            game_key="nogi",
            table_size=2,
            format="round_robin",
            starts_at=now,
            min_entrants=2,
            max_entrants=8,
        )
        division = Division.objects.create(season=season, tier=i + 1, tournament=tournament)
        SeasonEntry.objects.create(
            season=season, user=target, division=division, final_place=2, movement="up"
        )


def _give_matches(target, opponents, count: int, start: int) -> None:
    """``count`` more finished matches of ``target``: rated and unrated, of
    several games and sizes, public and private, some lost."""
    keys = ["nogi", "hatchlings", "nogi", "drako"]
    for i in range(start, start + count):
        key = keys[i % len(keys)]
        size = 2 if key != "nogi" else 2 + i % 3
        others = [opponents[(i + j) % len(opponents)] for j in range(size - 1)]
        visibility = Visibility.PRIVATE if i % 5 == 4 else Visibility.PUBLIC
        # A private match is unrated (only a ladder challenge's is rated).
        rated = visibility == Visibility.PUBLIC
        match = start_match([target, *others], key, visibility=visibility, rated=rated)
        finish(match, [1 + (i + s) % size for s in range(size)])


@pytest.mark.parametrize("viewer", ["anonymous", "other", "own", "moderator"])
def test_the_player_page_reads_at_most_fourteen_queries_whatever_the_number_of_matches(
    make_user, moderator, viewer
):
    target = make_user("target")
    opponents = [make_user(f"opp{i}") for i in range(6)]
    stranger = make_user("stranger")
    url = reverse("player_page", args=[target.username])
    start_match([target, opponents[0]])  # in play
    lobby.create_match(user=target, game_key="nogi", n_seats=3)  # open
    _give_matches(target, opponents, 3, 0)
    client = _viewer(viewer, target, stranger, moderator)

    early = _measure(client, url)  # provisional everywhere: on no leaderboard, no trophy
    assert not Rating.objects.filter(user=target, rated_matches__gte=PROVISIONAL_MATCHES).exists()
    _give_matches(target, opponents, 8, 3)
    middle = _measure(client, url)
    assert Rating.objects.filter(user=target, rated_matches__gte=PROVISIONAL_MATCHES).exists()
    _give_matches(target, opponents, 29, 11)
    for i in range(4):
        start_match([opponents[i], target], "hatchlings")  # more in play
    _give_trophies(target, 7)
    _give_seasons(target, 5)
    late = _measure(client, url)
    second_page = _measure(client, url + "?page=2")

    print(f"\nplayer page as {viewer}: {len(early)}, {len(middle)}, {len(late)} queries")
    text = client.get(url).content.decode()
    assert text.count('class="trophy"') == 7
    assert text.count("Division ") == 5 and 'id="season-current"' in text
    assert len(late) <= PLAYER_PAGE_QUERIES, _listing(late)
    # The matches in play and the page of finished ones in one statement, as
    # the tournaments entered and won.
    assert sum(' FROM "games_match"' in sql for sql in late) == 1, _listing(late)
    assert sum('"tournaments_tournament"' in sql for sql in late) == 1, _listing(late)
    assert len(early) == len(middle) == len(late) == len(second_page), _listing(late)
    # The leaderboard places come with the ratings, in one statement.
    assert sum('FROM "players_rating"' in sql for sql in late) == 1, _listing(late)
    # The statistics: aggregates and the last ten of each game, never every result.
    statistics = [sql for sql in late if '"players_outcome"' in sql]
    expected = 3 if viewer in ("other", "moderator") else 2
    assert len(statistics) == expected <= STATISTICS_QUERIES, _listing(statistics)
    # The reliability record: one aggregate over the player's seats.
    assert sum("games_seat" in sql and "SUM(" in sql for sql in late) == 1, _listing(late)
    # Nothing reads a player's whole match list.
    for sql in late:
        if '"games_match"' in sql and sql.startswith('SELECT "games_match"'):
            assert " LIMIT " in sql, sql


# -- The leaderboard --------------------------------------------------------------------


def _established(users, game_key: str = "nogi") -> None:
    """Ratings past the provisional mark, played lately (the leaderboard reads
    only the rating rows)."""
    now = timezone.now()
    Rating.objects.bulk_create(
        [
            Rating(
                user=user,
                game_key=game_key,
                mu=20 + (i * 7) % 13,
                sigma=3 + (i % 4),
                display=900 + (i * 37) % 400,
                rated_matches=PROVISIONAL_MATCHES + i % 9,
                wins=i % 5,
                last_played_at=now - timedelta(days=i % 200),
            )
            for i, user in enumerate(users)
        ]
    )


@pytest.mark.parametrize("viewer", ["anonymous", "ranked", "off-page", "provisional"])
def test_a_leaderboard_page_reads_at_most_four_queries_whatever_the_number_of_players(
    make_user, viewer
):
    """Four on a page of ranked players, five on the last page (the
    provisional players below the ranked ones)."""
    User = get_user_model()
    few = [make_user(f"few{i}") for i in range(3)]
    _established(few)
    me = make_user("me")
    if viewer in ("ranked", "off-page"):
        Rating.objects.create(
            user=me,
            game_key="nogi",
            display=950 if viewer == "ranked" else 100,
            rated_matches=PROVISIONAL_MATCHES,
            last_played_at=timezone.now(),
        )
    elif viewer == "provisional":
        Rating.objects.create(user=me, game_key="nogi", rated_matches=1)
    client = Client()
    if viewer != "anonymous":
        client.force_login(me)
    url = reverse("leaderboard", args=["nogi"])
    small = _measure(client, url)  # one page: the last
    User.objects.bulk_create([User(username=f"many{i}") for i in range(150)])
    _established(User.objects.filter(username__startswith="many"))
    User.objects.bulk_create([User(username=f"new{i}") for i in range(80)])
    _provisional(User.objects.filter(username__startswith="new"))
    large = _measure(client, url)
    page_two = _measure(client, url + "?page=2")
    last = _measure(client, url + "?page=99")
    print(
        f"\nleaderboard as {viewer}: {len(small)}, {len(large)}, {len(page_two)},"
        f" {len(last)} (last page) queries"
    )
    assert len(large) <= LEADERBOARD_QUERIES, _listing(large)
    assert len(large) == len(page_two), _listing(large)
    assert len(small) == len(last) <= LAST_LEADERBOARD_PAGE_QUERIES, _listing(last)


def _provisional(users, game_key: str = "nogi") -> None:
    """Ratings short of the provisional mark, played lately."""
    now = timezone.now()
    Rating.objects.bulk_create(
        [
            Rating(
                user=user,
                game_key=game_key,
                display=900 + (i * 53) % 300,
                rated_matches=1 + i % (PROVISIONAL_MATCHES - 1),
                last_played_at=now - timedelta(days=i % 30),
            )
            for i, user in enumerate(users)
        ]
    )


@pytest.mark.parametrize("path", ["lobby", "leaderboards"])
def test_the_lobby_and_the_leaderboards_read_every_games_leaders_in_one_query(
    make_user, django_assert_max_num_queries, path
):
    """The lobby's tiles and /leaderboards/ name each game's best players,
    ranked then provisional, in one statement however many players there
    are; the page's count does not grow."""
    User = get_user_model()
    me = make_user("me")
    client = Client()
    client.force_login(me)
    url = reverse(path)
    client.get(url)
    with CaptureQueriesContext(connection) as empty:
        client.get(url)
    bound = len(empty.captured_queries)
    for key in ("nogi", "drako", "drakon"):
        User.objects.bulk_create([User(username=f"{key}-old{i}") for i in range(60)])
        _established(User.objects.filter(username__startswith=f"{key}-old"), key)
        User.objects.bulk_create([User(username=f"{key}-new{i}") for i in range(60)])
        _provisional(User.objects.filter(username__startswith=f"{key}-new"), key)
    client.get(url)
    with django_assert_max_num_queries(bound) as queries:
        response = client.get(url)
    assert response.status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if '"players_rating"' in q["sql"]]
    assert len(reads) == 1, _listing(reads)
    assert response.content.count(b'class="provisional"') == 0  # every game has 3 ranked
    print(f"\n{path}: {len(counted(queries))} queries")
