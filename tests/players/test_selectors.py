"""The leaderboard's rows and places, and the places a player page shows,
agree with each other and with the rules: established players (past the
provisional mark) who played within 180 days, best first, ties by who
registered first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from players import selectors
from players.models import PROVISIONAL_MATCHES, Rating
from players.selectors import ACTIVE_DAYS, LEADERBOARD_PAGE

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(db):
    """130 Nogi ratings: established and active ones with ties, plus
    provisional and long-idle players who must not count."""
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"b{i:03d}") for i in range(130)])
    now = timezone.now()
    rows = []
    for i, user in enumerate(users):
        idle = i % 13 == 5
        provisional = i % 11 == 3
        rows.append(
            Rating(
                user=user,
                game_key="nogi",
                display=1500 - (i // 3) * 7,  # three players share each number
                rated_matches=PROVISIONAL_MATCHES - 1 if provisional else PROVISIONAL_MATCHES + i,
                wins=i % 4,
                last_played_at=now - timedelta(days=ACTIVE_DAYS + 1 if idle else i % 90),
            )
        )
    Rating.objects.bulk_create(rows)
    # Another game's ratings do not mix in.
    Rating.objects.bulk_create(
        [
            Rating(user=u, game_key="drako", display=3000, rated_matches=9, last_played_at=now)
            for u in users[:60]
        ]
    )
    return users


def expected_order(users) -> list[int]:
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    rows = Rating.objects.filter(
        game_key="nogi", rated_matches__gte=PROVISIONAL_MATCHES, last_played_at__gte=since
    )
    return [r.user_id for r in sorted(rows, key=lambda r: (-r.display, r.user_id))]


def test_the_leaderboard_lists_established_active_players_best_first(board):
    order = expected_order(board)
    assert 80 < len(order) < 130
    shown = []
    pages = selectors.leaderboard("nogi", 1, None).pages
    for page in range(1, pages + 1):
        result = selectors.leaderboard("nogi", page, None)
        assert result.total == len(order)
        shown += [(row.place, row.ref.username) for row in result.rows]
    usernames = dict(get_user_model().objects.values_list("pk", "username"))
    assert shown == [(i + 1, usernames[uid]) for i, uid in enumerate(order)]
    assert pages == -(-len(order) // LEADERBOARD_PAGE)


def test_the_viewers_place_is_their_row_on_any_page_and_on_their_own_page(board):
    order = expected_order(board)
    for uid in (order[0], order[LEADERBOARD_PAGE - 1], order[LEADERBOARD_PAGE + 4], order[-1]):
        viewer = get_user_model().objects.get(pk=uid)
        place = order.index(uid) + 1
        for page in (1, 2, 3):
            mine = selectors.leaderboard("nogi", page, viewer).my_row
            assert mine is not None and mine.is_me
            assert (mine.place, mine.ref.username) == (place, viewer.username)
        data = selectors.player_page(viewer.username, None)
        assert {s.key: s.place for s in data.standings}["nogi"] == place


def test_a_provisional_or_idle_viewer_has_no_place_but_sees_their_rating(board):
    provisional = board[3]
    idle = board[5]
    for viewer in (provisional, idle):
        result = selectors.leaderboard("nogi", 1, viewer)
        assert result.my_row is None
        assert result.my_rating.user_id == viewer.pk
        assert all(row.ref.username != viewer.username for row in result.rows)
        standing = {s.key: s for s in selectors.player_page(viewer.username, None).standings}
        assert standing["nogi"].place is None


# -- Provisional players (issue 39, item 5) ----------------------------------------------


def provisional_order() -> list[int]:
    """Players of Nogi with 1 to 4 rated matches who played within 180 days,
    best first, ties by who registered first."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    rows = Rating.objects.filter(
        game_key="nogi",
        rated_matches__gte=1,
        rated_matches__lt=PROVISIONAL_MATCHES,
        last_played_at__gte=since,
    )
    return [r.user_id for r in sorted(rows, key=lambda r: (-r.display, r.user_id))]


def test_provisional_players_are_listed_marked_below_the_ranked_ones(board):
    # One more who has started a rated match but finished none: no rating to show.
    starter = get_user_model().objects.create(username="starter")
    Rating.objects.create(user=starter, game_key="nogi", last_played_at=None)
    wanted = provisional_order()
    assert len(wanted) > 3
    pages = selectors.leaderboard("nogi", 1, None).pages
    assert pages > 1
    for page in range(1, pages):
        assert selectors.leaderboard("nogi", page, None).provisional == []
    last = selectors.leaderboard("nogi", pages, None)
    usernames = dict(get_user_model().objects.values_list("pk", "username"))
    assert [row.ref.username for row in last.provisional] == [usernames[u] for u in wanted]
    assert all(row.provisional and row.place is None for row in last.provisional)
    assert not any(row.provisional for row in last.rows)
    assert "starter" not in {row.ref.username for row in last.provisional}


def test_on_a_new_site_the_leaderboard_shows_its_provisional_players(make_user):
    now = timezone.now()
    ann, ben, cid = make_user("ann"), make_user("ben"), make_user("cid")
    Rating.objects.create(
        user=ann, game_key="nogi", display=1069, rated_matches=1, wins=1, last_played_at=now
    )
    Rating.objects.create(
        user=ben, game_key="nogi", display=963, rated_matches=1, last_played_at=now
    )
    Rating.objects.create(user=cid, game_key="nogi")  # a match started, none finished
    result = selectors.leaderboard("nogi", 1, ben)
    assert result.rows == [] and result.total == 0
    assert [(r.ref.username, r.display) for r in result.provisional] == [
        ("ann", 1069),
        ("ben", 963),
    ]
    assert [r.is_me for r in result.provisional] == [False, True]


def test_the_leaders_of_each_game_are_its_best_ranked_players_then_provisional_ones(board):
    usernames = dict(get_user_model().objects.values_list("pk", "username"))
    leaders = selectors.leaders(["nogi", "drako", "drakon"], 3)
    assert [(r.place, r.ref.username) for r in leaders["nogi"]] == [
        (i + 1, usernames[uid]) for i, uid in enumerate(expected_order(board)[:3])
    ]
    assert [r.ref.username for r in leaders["drako"]] == [u.username for u in board[:3]]
    assert leaders["drakon"] == []
    assert not any(r.provisional for rows in leaders.values() for r in rows)

    # A game with one ranked player shows its best provisional players after them.
    now = timezone.now()
    for i, user in enumerate(board[100:104]):
        Rating.objects.create(
            user=user,
            game_key="drakon",
            display=2000 if i == 0 else 1000 + i,
            rated_matches=PROVISIONAL_MATCHES if i == 0 else i,
            last_played_at=now,
        )
    drakon = selectors.leaders(["drakon"], 3)["drakon"]
    assert [(r.ref.username, r.place, r.provisional) for r in drakon] == [
        (board[100].username, 1, False),
        (board[103].username, None, True),
        (board[102].username, None, True),
    ]


def test_a_name_with_a_nul_is_no_player_and_asks_the_database_nothing(
    alice, django_assert_num_queries
):
    """``/players/%00/`` and ``/api/v1/players/%00`` were a 500 on PostgreSQL,
    which refuses a NUL in a query's text: no name holds one."""
    with django_assert_num_queries(0):
        assert selectors.player_page("al\x00ice", alice) is None
