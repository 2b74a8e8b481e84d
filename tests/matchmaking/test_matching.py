"""The pass's algorithm (``matchmaking.matching``), pure: the properties the
docs promise, proved on generated requests (Hypothesis), and the choices it
makes in small cases."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matchmaking import matching
from matchmaking.matching import GameSeats, Waiting

HOUR = 3600
NOW = 1_000_000.0
GAMES = {
    "duo": GameSeats(matching.mask_of([2]), "{}"),
    "many": GameSeats(matching.mask_of(range(2, 8)), '{"x":1}'),
}


def _widen(r: Waiting) -> int | None:
    return matching.widened(r.window, NOW - r.created)


def _rating(r: Waiting, game: str) -> int:
    return r.ratings.get(game, 0)


def _pool_of(r: Waiting, game: str) -> tuple[str, bool] | None:
    """The pool ``r`` takes part in at ``game``, or None."""
    if r.game == game:
        return (r.options, r.rated)
    if r.game == "" and r.counts & GAMES[game].counts:
        return (GAMES[game].default_options, r.rated)
    return None


def _counts_at(r: Waiting, game: str) -> int:
    return r.counts if r.game == game else r.counts & GAMES[game].counts


def _fit(a: Waiting, b: Waiting, game: str, blocks) -> bool:
    if a.user == b.user or (min(a.user, b.user), max(a.user, b.user)) in blocks:
        return False
    if max(a.clock_min, b.clock_min) > min(a.clock_max, b.clock_max):
        return False
    d = abs(_rating(a, game) - _rating(b, game))
    wa, wb = _widen(a), _widen(b)
    return (wa is None or d <= wa) and (wb is None or d <= wb)


CLOCKS = [12 * HOUR, 24 * HOUR, 48 * HOUR, 72 * HOUR, 168 * HOUR]


@st.composite
def requests(draw, max_size: int = 24):
    n = draw(st.integers(0, max_size))
    made = []
    for i in range(n):
        game = draw(st.sampled_from(["duo", "many", ""]))
        if game == "duo":
            counts = [2]
        else:
            counts = draw(st.lists(st.integers(2, 7), min_size=1, max_size=4, unique=True))
        low, high = sorted(draw(st.lists(st.sampled_from(CLOCKS), min_size=2, max_size=2)))
        rating = draw(st.integers(900, 1300))
        made.append(
            Waiting(
                id=i + 1,
                user=draw(st.integers(1, 12)),
                game=game,
                options="" if game == "" else GAMES[game].default_options,
                counts=matching.mask_of(counts),
                clock_min=low,
                clock_max=high,
                rated=draw(st.booleans()),
                window=draw(st.sampled_from([None, 50, 100, 200])),
                created=NOW - draw(st.integers(0, 48)) * HOUR,
                ratings={g: rating for g in GAMES},
            )
        )
    # One waiting request per player and game, as the database holds them.
    seen, unique = set(), []
    for r in made:
        if (r.user, r.game) not in seen:
            seen.add((r.user, r.game))
            unique.append(r)
    blocks = draw(
        st.sets(st.tuples(st.integers(1, 12), st.integers(1, 12)).filter(lambda p: p[0] != p[1]))
    )
    return unique, matching.blocked_pairs(blocks)


@settings(max_examples=200, deadline=None)
@given(requests())
def test_every_table_is_valid_for_everyone_at_it_and_nobody_is_seated_twice(case):
    waiting, blocks = case
    by_id = {r.id: r for r in waiting}
    tables = matching.plan(waiting, GAMES, blocks, NOW)
    seated = [pk for t in tables for pk in t.requests]
    assert len(seated) == len(set(seated)), "a request seated twice"
    users = [u for t in tables for u in t.users]
    assert len(users) == len(set(users)), "a player seated twice"
    for table in tables:
        members = [by_id[pk] for pk in table.requests]
        n = len(members)
        assert 2 <= n <= 7
        for r in members:
            assert _pool_of(r, table.game) == (table.options, table.rated)
            assert _counts_at(r, table.game) >> n & 1, "a size someone did not accept"
        for a, b in itertools.combinations(members, 2):
            assert _fit(a, b, table.game, blocks)
        assert table.clock == min(r.clock_max for r in members)
        assert table.clock >= max(r.clock_min for r in members)


@settings(max_examples=200, deadline=None)
@given(requests(), st.randoms(use_true_random=False))
def test_the_tables_do_not_depend_on_the_order_requests_come_in(case, rng):
    waiting, blocks = case
    shuffled = list(waiting)
    rng.shuffle(shuffled)
    assert matching.plan(shuffled, GAMES, blocks, NOW) == matching.plan(waiting, GAMES, blocks, NOW)


@settings(max_examples=200, deadline=None)
@given(requests())
def test_no_two_requests_that_could_sit_together_as_a_pair_are_left_waiting(case):
    waiting, blocks = case
    tables = matching.plan(waiting, GAMES, blocks, NOW)
    gone_users = {u for t in tables for u in t.users}
    left = [r for r in waiting if r.user not in gone_users]
    for a, b in itertools.combinations(left, 2):
        for game in GAMES:
            pool = _pool_of(a, game)
            if pool is None or pool != _pool_of(b, game):
                continue
            if _counts_at(a, game) >> 2 & 1 and _counts_at(b, game) >> 2 & 1:
                assert not _fit(a, b, game, blocks), (a, b, game)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 7), st.integers(0, 40))
def test_a_pool_where_everyone_fits_everyone_seats_all_but_fewer_than_n(n, m):
    waiting = [
        Waiting(i, i, "many", '{"x":1}', matching.mask_of([n]), HOUR, HOUR, True, None, NOW - i)
        for i in range(1, m + 1)
    ]
    tables = matching.plan(waiting, GAMES, set(), NOW)
    assert all(len(t.requests) == n for t in tables)
    assert len(tables) == m // n


# -- The choices it makes -----------------------------------------------------------------


def _one(pk, rating, *, counts=(2,), window=None, waited=0, user=None, game="many", lo=HOUR):
    return Waiting(
        id=pk,
        user=user or pk,
        game=game,
        options='{"x":1}' if game == "many" else "",
        counts=matching.mask_of(counts),
        clock_min=lo,
        clock_max=lo if lo > HOUR else 7 * 24 * HOUR,
        rated=True,
        window=window,
        created=NOW - waited * HOUR - pk,
        ratings={g: rating for g in GAMES},
    )


def _groups(tables) -> set[frozenset[int]]:
    return {frozenset(t.requests) for t in tables}


def test_the_oldest_request_is_seated_with_the_closest_rating():
    waiting = [_one(1, 1000, waited=10), _one(2, 1300), _one(3, 1040), _one(4, 990)]
    assert _groups(matching.plan(waiting, GAMES, set(), NOW)) == {
        frozenset({1, 4}),
        frozenset({2, 3}),
    }


def test_the_largest_table_everyone_accepts_forms():
    waiting = [_one(i, 1000, counts=range(2, 8)) for i in range(1, 10)]
    sizes = sorted(len(t.requests) for t in matching.plan(waiting, GAMES, set(), NOW))
    assert sizes == [2, 7]


def test_a_size_only_some_accept_is_grown_from_those():
    waiting = [
        _one(1, 1000, counts=(3, 4), waited=5),
        _one(2, 1000, counts=(2,)),
        _one(3, 1010, counts=(3,)),
        _one(4, 1020, counts=(4, 3)),
    ]
    assert _groups(matching.plan(waiting, GAMES, set(), NOW)) == {frozenset({1, 3, 4})}


def test_the_window_widens_by_the_documented_rule():
    assert matching.widened(None, 10**6) is None
    assert matching.widened(100, 0) == 100
    assert matching.widened(100, 4 * HOUR - 1) == 100
    assert matching.widened(100, 4 * HOUR) == 150
    assert matching.widened(100, 24 * HOUR) == 400
    assert matching.widened(100, 1000 * HOUR) == 100 + matching.WIDEN_MAX


def test_a_request_for_any_game_meets_one_for_a_game_it_can_play():
    waiting = [_one(1, 1000, game="", counts=(2, 3)), _one(2, 1000, game="duo")]
    waiting[1].options = "{}"
    (table,) = matching.plan(waiting, GAMES, set(), NOW)
    assert table.game == "duo" and set(table.requests) == {1, 2}


def test_the_pass_is_fast_enough_for_a_big_pool():
    """A smoke check of the cost (the benchmark is tests/load/quick_match_bench.py)."""
    rng = random.Random(7)
    waiting = [
        _one(i, rng.randint(800, 1600), counts=rng.sample(range(2, 8), 2), window=200)
        for i in range(1, 2001)
    ]
    tables = matching.plan(waiting, GAMES, set(), NOW)
    assert sum(len(t.requests) for t in tables) > 1500
