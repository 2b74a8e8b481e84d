"""Pairings: who sits at which table in a round, and in which seat.

Pure functions over plain numbers (entrant ids, points, ratings), so they can
be tested with Hypothesis and timed without a database. ``docs/tournaments.md``
explains the rules in words; the docstrings here say how.

- ``round_robin_rounds``: two-player tables by the circle (Berger) method,
  tables of N by a greedy schedule that seats together those who met least.
- ``swiss_pairs``: two-player tables by a maximum-weight matching (networkx)
  that never pairs a blocked pair (``History.apart``) nor repeats a pair
  where avoidable, keeps scores together, then ratings; the bye goes to the
  lowest-placed entrant who has not had one (or, where that keeps a blocked
  pair apart, one of a blocked pair).
- ``swiss_tables``: tables of N filled in score order, each newcomer to a
  table the one who met its players least and is kept apart from none of
  them where a free entrant allows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import networkx as nx

Pair = frozenset


@dataclass
class History:
    """What earlier rounds decided and pairing must respect."""

    met: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at one table
    byes: Counter = field(default_factory=Counter)  # id -> byes had
    firsts: Counter = field(default_factory=Counter)  # id -> times seated first
    # Pairs kept apart where the pairing allows: one blocked the other.
    apart: set = field(default_factory=set)  # frozenset({a, b})

    def record_table(self, table: list[int]) -> None:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                self.met[Pair((a, b))] += 1
        if table:
            self.firsts[table[0]] += 1

    def meetings(self, a: int, table: Iterable[int]) -> int:
        return sum(self.met[Pair((a, b))] for b in table)

    def conflicts(self, a: int, table: Iterable[int]) -> int:
        """How many of ``table`` ``a`` must be kept apart from."""
        return sum(1 for b in table if Pair((a, b)) in self.apart) if self.apart else 0


def table_sizes(
    n: int, size: int, smallest: int, allowed: Collection[int] | None = None
) -> tuple[list[int], int]:
    """Split ``n`` players into tables of at most ``size`` and at least
    ``smallest`` seats whose sizes are all in ``allowed`` (every size between
    by default; Drakon's team play allows only 4 and 6). As many players as
    possible are seated, at as few tables as possible, as even as possible;
    those left over sit out with a bye. Returns (sizes, largest first, and
    the number of byes).

    A small dynamic programme over the number seated: for each total, the
    fewest tables, then the smallest sum of squared sizes (the most even).
    """
    counts = sorted(
        {k for k in (allowed if allowed is not None else range(smallest, size + 1))}
        & set(range(smallest, size + 1))
    )
    if not counts or n < counts[0]:
        return [], n
    best: list[tuple[int, int] | None] = [None] * (n + 1)
    last = [0] * (n + 1)
    best[0] = (0, 0)
    for total in range(1, n + 1):
        for k in counts:
            before = best[total - k] if total >= k else None
            if before is None:
                continue
            cost = (before[0] + 1, before[1] + k * k)
            if best[total] is None or cost < best[total]:
                best[total], last[total] = cost, k
    seated = max(total for total in range(n + 1) if best[total] is not None)
    sizes = []
    total = seated
    while total:
        sizes.append(last[total])
        total -= last[total]
    return sorted(sizes, reverse=True), n - seated


def seat_order(table: list[int], history: History, rank: dict[int, int]) -> list[int]:
    """Who sits first: the one who sat first fewest times so far, then the
    higher placed (lower ``rank``), so first seats rotate through a tournament."""
    return sorted(table, key=lambda p: (history.firsts[p], rank.get(p, 0)))


# -- Round robin --------------------------------------------------------------


def round_robin_rounds(
    players: list[int], size: int = 2, smallest: int = 2, allowed: Collection[int] | None = None
) -> list[list[list[int]]]:
    """Every round of a round robin, as tables of player ids in seat order.

    Two seats: the circle method (one player fixed, the others turn one
    place a round; with an odd number a phantom gives the bye), n-1 rounds
    (n for odd n), everyone meets everyone exactly once; at each table the
    one who sat first fewer times so far sits first (``seat_order``). Larger tables: ``_greedy_rounds``.
    """
    if size == 2:
        return _circle(players)
    return _greedy_rounds(players, size, smallest, allowed)


def _circle(players: list[int]) -> list[list[list[int]]]:
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    history = History()
    rank = {p: i for i, p in enumerate(players)}
    rounds = []
    for _r in range(n - 1):
        tables = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                continue
            table = seat_order([a, b], history, rank)
            history.record_table(table)
            tables.append(table)
        rounds.append(tables)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _greedy_rounds(
    players: list[int], size: int, smallest: int, allowed: Collection[int] | None = None
) -> list[list[list[int]]]:
    """Tables of N: round after round until every pair has met at least once.

    Each round the tables are filled one seat at a time: a table starts with
    the player with most opponents not yet met (fewest byes first when some
    must sit out) and takes, each time, the player who met those already
    seated least often, preferring one with unmet opponents left. The seats
    are then ordered by ``seat_order``. Deterministic, so the schedule can
    be recomputed from the entrant list alone.
    """
    history = History()
    rank = {p: i for i, p in enumerate(players)}
    everyone = set(players)
    rounds: list[list[list[int]]] = []

    def unmet(p: int) -> int:
        return sum(1 for q in everyone if q != p and not history.met[Pair((p, q))])

    limit = 4 * len(players) + 4
    while any(unmet(p) for p in players) and len(rounds) < limit:
        sizes, n_byes = table_sizes(len(players), size, smallest, allowed)
        order = sorted(players, key=lambda p: (history.byes[p], -unmet(p), rank[p]))
        sitting_out = sorted(order, key=lambda p: (unmet(p) > 0, history.byes[p], -rank[p]))[
            :n_byes
        ]
        for p in sitting_out:
            history.byes[p] += 1
        free = [p for p in order if p not in sitting_out]
        tables = []
        for table_size in sizes:
            table = [max(free, key=lambda p: (unmet(p), -rank[p]))]
            free.remove(table[0])
            while len(table) < table_size:
                best = min(
                    free,
                    key=lambda p: (history.meetings(p, table), -unmet(p), rank[p]),
                )
                table.append(best)
                free.remove(best)
            tables.append(seat_order(table, history, rank))
        for table in tables:
            history.record_table(table)
        rounds.append(tables)
    return rounds


# -- Swiss --------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """An entrant as the Swiss system sees them before a round."""

    id: int
    points: float
    rating: int


def standings_order(players: list[Standing]) -> list[Standing]:
    return sorted(players, key=lambda s: (-s.points, -s.rating, s.id))


def pick_bye(order: list[Standing], history: History) -> Standing:
    """The lowest placed entrant with the fewest byes so far."""
    return min(reversed(order), key=lambda s: history.byes[s.id])


#: Each try links each entrant to this many neighbours in the standings; a
#: wider try follows only when no full pairing exists in the narrower one.
WINDOWS = (6, 16, None)


def swiss_pairs(players: list[Standing], history: History) -> tuple[list[list[int]], int | None]:
    """Two-player tables of a Swiss round, in seat order, and the bye (or None).

    A maximum-weight matching (networkx, Edmonds' blossom algorithm): each
    possible pair is an edge whose weight prefers, in this order, a pair
    that has not met, a small score difference, then neighbours in the
    standings (so within a score group the strongest meet the next
    strongest). Only pairs close in the standings (``WINDOWS``) are linked
    at first, which keeps a 128-player round well under a second; repeat
    pairs enter only in the last, complete try, where they cost most. A pair
    kept apart (``History.apart``: a block) enters only when nothing else
    pairs everyone, at a cost above any other; with an odd number, the bye
    then goes to one of those kept apart from someone (fewest byes first,
    then the one kept apart from most) when that keeps every such pair apart.
    """
    order = standings_order(players)
    if len(order) % 2 == 0:
        tables, _forced = _swiss_matching(order, history)
        return tables, None
    natural = pick_bye(order, history)
    candidates = [natural]
    if history.apart:
        # Then those kept apart from someone: the fewest byes first, and among
        # them the one kept apart from most (a player many blocked), lowest placed.
        blocked = Counter(p for pair in history.apart for p in pair)
        place = {s.id: i for i, s in enumerate(order)}
        candidates += sorted(
            (s for s in order if blocked[s.id] and s.id != natural.id),
            key=lambda s: (history.byes[s.id], -blocked[s.id], -place[s.id]),
        )[: BYE_TRIES - 1]
    first = None
    for bye in candidates:
        tables, forced = _swiss_matching([s for s in order if s.id != bye.id], history)
        if first is None:
            first = (tables, bye.id)
        if not forced:
            return tables, bye.id
    return first


#: How many entrants are tried for the bye, at most, to keep a pair apart:
#: the one in line for it, then those kept apart from someone.
BYE_TRIES = 4
#: What pairing a kept-apart pair costs: more than any other pairing weighs.
APART_COST = 10**12


def _swiss_matching(order: list[Standing], history: History) -> tuple[list[list[int]], bool]:
    """``swiss_pairs`` for an even number: the tables, and whether a pair
    kept apart had to be paired."""
    place = {s.id: i for i, s in enumerate(order)}
    n = len(order)
    tries = [(window, False) for window in WINDOWS]
    if history.apart:
        tries.append((None, True))
    for window, with_apart in tries:
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        for i in range(n):
            stop = n if window is None else min(n, i + window + 1)
            for j in range(i + 1, stop):
                a, b = order[i], order[j]
                apart = Pair((a.id, b.id)) in history.apart
                if apart and not with_apart:
                    continue
                repeats = history.met[Pair((a.id, b.id))]
                if repeats and window is not None:
                    continue
                half_points = round(2 * abs(a.points - b.points))
                weight = 10**9 - repeats * 10**8 - half_points**2 * 10**4 - (j - i) ** 2
                graph.add_edge(i, j, weight=weight - (APART_COST if apart else 0))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) * 2 == n:
            break
    rank = {s.id: place[s.id] for s in order}
    tables = [
        seat_order([order[i].id, order[j].id], history, rank)
        for i, j in sorted(matching, key=lambda edge: min(edge))
    ]
    tables.sort(key=lambda t: min(rank[p] for p in t))
    forced = any(Pair(table) in history.apart for table in tables)
    return tables, forced


def swiss_tables(
    players: list[Standing],
    history: History,
    size: int,
    smallest: int,
    allowed: Collection[int] | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Tables of N for a Swiss round, and those with a bye.

    The byes go to the lowest placed with fewest byes; the rest, in standings
    order, fill the tables top down: each table starts with the highest
    placed free entrant and takes, from the next ``size * 2`` in the
    standings, the one who met its players least (so scores stay together
    and repeats are avoided where a near neighbour allows). A newcomer kept
    apart from someone already seated (``History.apart``: a block) is taken
    only when no free entrant, however far down, is kept apart from fewer."""
    order = standings_order(players)
    sizes, n_byes = table_sizes(len(order), size, smallest, allowed)
    byes = []
    for _ in range(n_byes):
        chosen = pick_bye([s for s in order if s.id not in byes], history)
        byes.append(chosen.id)
    free = [s.id for s in order if s.id not in byes]
    rank = {s.id: i for i, s in enumerate(order)}
    tables = []
    for table_size in sizes:
        table = [free.pop(0)]
        while len(table) < table_size:
            window = free[: size * 2]
            best = min(window, key=lambda p: (history.meetings(p, table), rank[p]))
            if history.conflicts(best, table):
                best = min(
                    free,
                    key=lambda p: (
                        history.conflicts(p, table),
                        p not in window,
                        history.meetings(p, table),
                        rank[p],
                    ),
                )
            table.append(best)
            free.remove(best)
        tables.append(table)
    if history.apart:
        _separate(tables, history, rank)
    return [seat_order(table, history, rank) for table in tables], byes


def _separate(tables: list[list[int]], history: History, rank: dict[int, int]) -> None:
    """Where a table seats a pair kept apart (the last tables take whoever is
    left), swap one of the two with someone of another table, the nearest in
    the standings, when that leaves neither table seating such a pair."""
    for table in tables:
        for a, b in [(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]:
            if Pair((a, b)) not in history.apart or a not in table or b not in table:
                continue
            swaps = [
                (abs(rank[c] - rank[moving]), rank[c], moving, other, c)
                for moving in (b, a)
                for other in tables
                if other is not table
                for c in other
                if not history.conflicts(c, [p for p in table if p != moving])
                and not history.conflicts(moving, [p for p in other if p != c])
            ]
            if swaps:
                _distance, _rank, moving, other, c = min(swaps)
                table[table.index(moving)] = c
                other[other.index(c)] = moving
