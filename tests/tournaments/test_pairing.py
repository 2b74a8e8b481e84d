"""Pairing and standings properties, over many random tournaments (Hypothesis).

Pure functions: no database. A "tournament" here is a list of ids with
ratings, whose results are drawn at random round after round."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.standings import TableResult, crosstable, points_for_ranks, standings


@given(n=st.integers(2, 14))
def test_a_two_player_round_robin_meets_everyone_exactly_once(n):
    rounds = pairing.round_robin_rounds(list(range(n)))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(t) for tables in rounds for t in tables)
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for tables in rounds:
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated))  # nobody twice in a round
        assert len(seated) >= n - 1  # at most one sits out
    # First seats are shared out: each sits first about half their games.
    firsts = Counter(t[0] for tables in rounds for t in tables)
    assert all(abs(firsts[p] - (n - 1) / 2) <= 2 for p in range(n))


@given(n=st.integers(3, 12), size=st.integers(3, 5))
@settings(max_examples=40, deadline=None)
def test_a_round_robin_of_larger_tables_lets_every_pair_meet(n, size):
    smallest = 3 if size > 3 else 2
    rounds = pairing.round_robin_rounds(list(range(n)), size, smallest)
    met = {frozenset(p) for tables in rounds for t in tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(range(n), 2)}
    for tables in rounds:
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated))
        assert all(smallest <= len(t) <= size for t in tables)


def _play(tables, rng):
    results = []
    for table in tables:
        order = list(range(len(table)))
        rng.shuffle(order)
        ranks = [0] * len(table)
        for place, seat in enumerate(order, start=1):
            ranks[seat] = place
        results.append(points_for_ranks(ranks))
    return results


@given(n=st.integers(2, 40), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_swiss_never_repeats_a_pair_where_avoidable_and_rotates_byes(n, rounds, seed):
    rng = random.Random(seed)
    ratings = {p: rng.randint(800, 2000) for p in range(n)}
    points = Counter()
    history = pairing.History()
    repeats_needed = n <= 2 * rounds  # a small field may have to meet again
    for _ in range(rounds):
        players = [pairing.Standing(p, points[p], ratings[p]) for p in range(n)]
        tables, bye = pairing.swiss_pairs(players, history)
        seated = [p for t in tables for p in t]
        assert sorted(seated + ([bye] if bye is not None else [])) == list(range(n))
        assert (bye is not None) == (n % 2 == 1)
        if not repeats_needed:
            assert all(not history.met[frozenset(t)] for t in tables)
        if bye is not None:
            if rounds <= n:
                assert history.byes[bye] == 0  # nobody has a second bye
            history.byes[bye] += 1
            points[bye] += 1
        for table, won in zip(tables, _play(tables, rng), strict=True):
            history.record_table(table)
            for p, w in zip(table, won, strict=True):
                points[p] += w


@given(n=st.integers(4, 40), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_swiss_keeps_score_groups_together(n, seed):
    """After one round (no repeats to dodge), each score group is paired
    within itself but for at most one entrant floating to the next group."""
    rng = random.Random(seed)
    n -= n % 2
    history = pairing.History()
    players = [pairing.Standing(p, 0.0, rng.randint(800, 2000)) for p in range(n)]
    tables, _bye = pairing.swiss_pairs(players, history)
    points = Counter()
    for table, won in zip(tables, _play(tables, rng), strict=True):
        history.record_table(table)
        for p, w in zip(table, won, strict=True):
            points[p] += w
    players = [pairing.Standing(p, points[p], s.rating) for p, s in enumerate(players)]
    tables, _bye = pairing.swiss_pairs(players, history)
    mixed = sum(1 for a, b in tables if points[a] != points[b])
    groups = Counter(points[p] for p in range(n))
    assert mixed <= sum(1 for size in groups.values() if size % 2)


@given(n=st.integers(3, 30), size=st.integers(3, 5), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_swiss_tables_of_n_seat_everyone_once(n, size, seed):
    rng = random.Random(seed)
    history = pairing.History()
    players = [pairing.Standing(p, rng.choice([0.0, 1.0, 2.0]), 1000 + p) for p in range(n)]
    tables, byes = pairing.swiss_tables(players, history, size, 3)
    seated = [p for t in tables for p in t]
    assert sorted(seated + byes) == list(range(n))
    assert all(3 <= len(t) <= size for t in tables)


def test_points_by_rank_share_ties():
    assert points_for_ranks([1, 2]) == [1.0, 0.0]
    assert points_for_ranks([1, 1]) == [0.5, 0.5]
    assert points_for_ranks([2, 1, 3, 4]) == [2.0, 3.0, 1.0, 0.0]
    assert points_for_ranks([1, 1, 3]) == [1.5, 1.5, 0.0]


def test_buchholz_and_sonneborn_berger_by_hand():
    """A beats B, B beats C, A draws C; D has a bye and loses to A."""
    results = [
        TableResult(1, [1, 2], [1.0, 0.0]),
        TableResult(1, [4], [1.0], bye=True),
        TableResult(2, [2, 3], [1.0, 0.0]),
        TableResult(2, [1, 4], [1.0, 0.0]),
        TableResult(3, [1, 3], [0.5, 0.5]),
    ]
    rows = {r.entrant: r for r in standings([(1, 0), (2, 0), (3, 0), (4, 0)], results)}
    assert rows[1].points == 2.5 and rows[2].points == 1.0 and rows[3].points == 0.5
    assert rows[1].buchholz == 1.0 + 1.0 + 0.5  # B, D, C
    assert rows[1].berger == 1.0 * 1.0 + 1.0 * 1.0 + 0.5 * 0.5
    assert rows[2].buchholz == 2.5 + 0.5
    assert rows[2].berger == 0.5  # beat C (0.5)
    assert [r.entrant for r in standings([(1, 0), (2, 0), (3, 0), (4, 0)], results)][0] == 1
    cross = crosstable([1, 2, 3, 4], results)
    assert cross[1] == {2: 1.0, 4: 1.0, 3: 0.5} and cross[4] == {1: 0.0}


def test_equal_points_are_ordered_by_buchholz_then_sonneborn_berger():
    results = [TableResult(1, [1, 3], [1.0, 0.0]), TableResult(1, [2, 4], [1.0, 0.0])]
    results.append(TableResult(2, [3, 4], [1.0, 0.0]))
    order = [r.entrant for r in standings([(1, 900), (2, 1500), (3, 0), (4, 0)], results)]
    # 1, 2 and 3 have 1 point each; Buchholz puts 1 and 3 (opponents with
    # 1 point) before 2 (opponent with 0), and Sonneborn-Berger 1 (beat 3,
    # who has 1) before 3 (beat 4, who has 0).
    assert order == [1, 3, 2, 4]


@given(
    n=st.integers(3, 16),
    size=st.integers(3, 7),
    smallest=st.sampled_from(["two", "three", "full", "team"]),
)
@settings(max_examples=60, deadline=None)
def test_a_round_robin_of_tables_of_n_shares_out_the_first_seats(n, size, smallest):
    """Who sits first rotates: each entrant sits first within 1.5 of their
    fair share (over their tables, one in the table's size), and no two
    entrants' first seats differ by more than two."""
    allowed = None
    if smallest == "team":
        size, low, allowed = 6, 4, [4, 6]
    else:
        low = {"two": 2, "three": min(3, size), "full": size}[smallest]
    if n < low:
        return
    rounds = pairing.round_robin_rounds(list(range(n)), size, low, allowed)
    firsts = Counter(t[0] for tables in rounds for t in tables)
    for p in range(n):
        share = sum(1 / len(t) for tables in rounds for t in tables if p in t)
        assert abs(firsts[p] - share) <= 1.5, (p, firsts[p], share)
    assert max(firsts[p] for p in range(n)) - min(firsts[p] for p in range(n)) <= 2
    if allowed:
        assert all(len(t) in allowed for tables in rounds for t in tables)


@given(
    n=st.integers(3, 40),
    size=st.integers(3, 6),
    seed=st.integers(0, 10**6),
    earlier=st.integers(0, 4),
)
@settings(max_examples=60, deadline=None)
def test_swiss_tables_of_n_keep_score_groups_together(n, size, seed, earlier):
    """Tables are filled from the top of the standings: each starts with the
    highest placed entrant still free, and takes the rest from the next
    places only (the window of 2N), so scores stay together. With no earlier
    meetings to avoid, the tables are exactly consecutive runs of the
    standings: nobody sits with a lower score group while a higher one is
    unseated."""
    rng = random.Random(seed)
    history = pairing.History()
    ids = list(range(n))
    for _round in range(earlier):
        rng.shuffle(ids)
        for start in range(0, n - size + 1, size):
            history.record_table(ids[start : start + size])
    players = [pairing.Standing(p, rng.choice([0.0, 1.0, 2.0, 3.0]), 1000 + p) for p in range(n)]
    tables, byes = pairing.swiss_tables(players, history, size, 3)
    order = [s.id for s in pairing.standings_order(players) if s.id not in byes]
    points = {s.id: s.points for s in players}
    index = {p: i for i, p in enumerate(order)}
    seated_before = 0
    taken: set[int] = set()
    for table in tables:
        top = min(table, key=index.get)
        assert top == next(p for p in order if p not in taken)
        assert all(index[p] < seated_before + 3 * size for p in table)
        taken.update(table)
        seated_before += len(table)
    if earlier == 0:
        runs = [sorted(t, key=index.get) for t in tables]
        assert [p for run in runs for p in run] == order
        for upper, lower in zip(tables, tables[1:], strict=False):
            assert min(points[p] for p in upper) >= max(points[p] for p in lower)


# -- Blocked pairs kept apart ----------------------------------------------------------


def _avoidable(ids, apart) -> bool:
    """Whether everyone in ``ids`` (an even number) can be paired with no pair in ``apart``."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(p for p in combinations(ids, 2) if frozenset(p) not in apart)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)


def test_the_bye_goes_to_the_one_entrant_whose_bye_keeps_every_blocked_pair_apart():
    """Seven entrants; 6 is kept apart from all six others and has had two
    byes, so the bye's first tries (the one in line, then those kept apart
    from someone with fewer byes) all leave 6 to be paired with someone it
    blocked. Only 6's bye keeps every pair apart, and 6 gets it."""
    history = pairing.History()
    history.byes[6] = 2
    history.apart = {frozenset((6, other)) for other in range(6)} | {
        frozenset((0, 1)),
        frozenset((2, 3)),
        frozenset((4, 5)),
    }
    players = [pairing.Standing(p, 0, 1000 + 10 * p) for p in range(7)]
    tables, bye = pairing.swiss_pairs(players, history)
    assert bye == 6
    assert sorted(p for table in tables for p in table) == [0, 1, 2, 3, 4, 5]
    assert not [table for table in tables if frozenset(table) in history.apart]


@given(
    n=st.integers(2, 24),
    seed=st.integers(0, 10**6),
    blocks=st.integers(1, 12),
    earlier=st.integers(0, 3),
)
@settings(max_examples=80, deadline=None)
# Entrant 2 kept apart from all four others, and with more byes than those
# the bye tries first: only its bye keeps every pair apart.
@example(n=5, seed=193, blocks=6, earlier=3)
def test_swiss_pairs_keep_blocked_pairs_apart_where_a_pairing_allows(n, seed, blocks, earlier):
    rng = random.Random(seed)
    ids = list(range(n))
    history = pairing.History()
    for _round in range(earlier):  # earlier rounds' meetings and byes
        shuffled = rng.sample(ids, n)
        for i in range(0, n - 1, 2):
            history.record_table(shuffled[i : i + 2])
        if n % 2:
            history.byes[shuffled[-1]] += 1
    history.apart = {frozenset(rng.sample(ids, 2)) for _ in range(blocks)} if n > 1 else set()
    players = [pairing.Standing(p, rng.choice([0, 0.5, 1, 2]), rng.randint(900, 1400)) for p in ids]
    tables, bye = pairing.swiss_pairs(players, history)
    seated = [p for t in tables for p in t]
    assert sorted(seated + ([bye] if bye is not None else [])) == ids
    together = [t for t in tables if frozenset(t) in history.apart]
    if n % 2 == 0:
        possible = _avoidable(ids, history.apart)
    else:  # some bye leaves a pairing that keeps them apart
        possible = any(_avoidable([p for p in ids if p != b], history.apart) for b in ids)
    if possible:
        assert not together, (tables, history.apart)


def test_the_bye_moves_on_when_it_keeps_a_blocked_pair_apart():
    """Three entrants, the first two kept apart: the lowest placed would have
    the bye and leave them to meet; the next in line for it has it instead."""
    players = [
        pairing.Standing(1, 2, 1500),
        pairing.Standing(2, 1, 1400),
        pairing.Standing(3, 0, 1300),
    ]
    history = pairing.History(apart={frozenset({1, 2})})
    tables, bye = pairing.swiss_pairs(players, history)
    assert bye in (1, 2) and all(frozenset(t) != frozenset({1, 2}) for t in tables)
    # Without the block the lowest placed has it, as ever.
    assert pairing.swiss_pairs(players, pairing.History()) == ([[1, 2]], 3)


@given(n=st.integers(3, 30), size=st.integers(3, 5), seed=st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_swiss_tables_of_n_keep_a_blocked_pair_apart(n, size, seed):
    """One blocked pair among entrants seated at two or more tables: never at one table."""
    rng = random.Random(seed)
    ids = list(range(n))
    players = [pairing.Standing(p, rng.choice([0, 1, 2]), rng.randint(900, 1400)) for p in ids]
    history = pairing.History(apart={frozenset(rng.sample(ids, 2))})
    tables, byes = pairing.swiss_tables(players, history, size, 2)
    assert sorted([p for t in tables for p in t] + byes) == ids
    if len(tables) >= 2:
        assert all(
            not any(frozenset(pair) in history.apart for pair in combinations(t, 2)) for t in tables
        )
