"""Knockout brackets (single elimination with seeding), over random fields
and random results (Hypothesis). Pure functions: no database."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.standings import TableResult


def _play(n: int, rng: random.Random, draws: float = 0.0, withdraw: float = 0.0):
    """A whole knockout of ``n`` entrants (ids 100.., seeded in id order)
    with random results; returns (rounds played as (tables, byes), the slot
    history, the seed numbers)."""
    seeded = [100 + i for i in range(n)]
    seed = {e: i + 1 for i, e in enumerate(seeded)}
    rounds = pairing.knockout_rounds(n)
    slots = pairing.knockout_bracket(seeded)
    active = set(seeded)
    played, results = [], []
    for number in range(1, rounds + 1):
        tables, byes = pairing.knockout_pairs(slots, active)
        played.append((tables, byes))
        for a, b in tables:
            roll = rng.random()
            points = [0.5, 0.5] if roll < draws else ([1.0, 0.0] if roll < 0.5 else [0.0, 1.0])
            results.append(TableResult(round=number, entrants=[a, b], points=points))
        for e in byes:
            results.append(TableResult(round=number, entrants=[e], points=[1.0], bye=True))
        bracket = pairing.knockout_bracket(seeded)
        slots = pairing.knockout_history(bracket, results, seed, done=number)[-1]
        for e in list(active):
            if withdraw and rng.random() < withdraw:
                active.discard(e)
    history = pairing.knockout_history(pairing.knockout_bracket(seeded), results, seed, rounds)
    return played, history, seed, rounds


@given(n=st.integers(2, 70), seed=st.integers(0, 10**6))
@settings(max_examples=80, deadline=None)
def test_every_entrant_plays_or_has_a_bye_each_round_until_out_and_one_wins(n, seed):
    played, history, seeds, rounds = _play(n, random.Random(seed), draws=0.2)
    assert rounds == math.ceil(math.log2(n))
    assert len(played) == rounds
    for (tables, byes), slots in zip(played, history, strict=False):
        seated = [e for t in tables for e in t] + byes
        # Each entrant still in the bracket is at exactly one table or has a bye.
        assert sorted(seated) == sorted(e for e in slots if e is not None)
        assert all(len(t) == 2 for t in tables)
    # One winner: the last slot list is a single entrant.
    assert len(history) == rounds + 1
    assert len(history[-1]) == 1 and history[-1][0] is not None
    places = pairing.knockout_places(history, rounds)
    assert list(places.values()).count(1) == 1
    assert set(places) == set(seeds)


@given(n=st.integers(2, 70), seed=st.integers(0, 10**6))
@settings(max_examples=80, deadline=None)
def test_top_seeds_meet_only_late_and_take_the_byes(n, seed):
    played, _history, seeds, rounds = _play(n, random.Random(seed))
    size = 1 << rounds
    # Round 1: the byes go to the top seeds, one for each empty slot.
    _tables, byes = played[0]
    assert sorted(seeds[e] for e in byes) == list(range(1, size - n + 1))
    # In round r the top 2**(rounds-r) seeds sit at different tables: seeds
    # 1 and 2 meet only in the final, 1 to 4 not before the semi-finals.
    for number, (tables, _byes) in enumerate(played, start=1):
        top = 1 << (rounds - number)
        for a, b in tables:
            assert not (seeds[a] <= top and seeds[b] <= top)


def test_round_one_is_one_against_the_last_and_a_draw_goes_to_the_better_seed():
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeded = [10, 20, 30, 40, 50]  # 5 entrants: 8 slots, byes to seeds 1 to 3
    slots = pairing.knockout_bracket(seeded)
    tables, byes = pairing.knockout_pairs(slots, set(seeded))
    assert tables == [[40, 50]] and byes == [10, 20, 30]
    seed = {e: i + 1 for i, e in enumerate(seeded)}
    drawn = [TableResult(round=1, entrants=[50, 40], points=[0.5, 0.5])]
    assert pairing.knockout_next([40, 50], drawn, seed) == [40]
    aborted = [TableResult(round=1, entrants=[40, 50], points=[0.0, 0.0], aborted=True)]
    assert pairing.knockout_next([40, 50], aborted, seed) == [40]
    won = [TableResult(round=1, entrants=[40, 50], points=[0.0, 1.0])]
    assert pairing.knockout_next([40, 50], won, seed) == [50]


@given(n=st.integers(3, 40), seed=st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_withdrawals_give_byes_and_never_seat_anyone_twice(n, seed):
    played, history, _seeds, _rounds = _play(n, random.Random(seed), withdraw=0.15)
    for tables, byes in played:
        seated = [e for t in tables for e in t] + byes
        assert len(seated) == len(set(seated))
    # The bracket still ends in one slot: the winner, or nobody if all left.
    assert len(history[-1]) == 1
