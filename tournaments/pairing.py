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
- ``knockout_*``: single elimination at two-player tables, the bracket
  seeded 1 v N with byes to the top seeds, each round the winners of the
  last, a draw going to the better seed.
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
    then the one kept apart from most) when that keeps every such pair apart,
    and else whoever a matching of the allowed pairs finds (``_bye_keeping_apart``).
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
    bye = _bye_keeping_apart(order, history) if history.apart else None
    if bye is not None and bye not in candidates:
        tables, forced = _swiss_matching([s for s in order if s.id != bye.id], history)
        if not forced:
            return tables, bye.id
    return first


def _bye_keeping_apart(order: list[Standing], history: History) -> Standing | None:
    """An entrant whose bye lets every other be paired with no kept-apart
    pair, or None when no bye does: the one a largest matching of the
    allowed pairs leaves out. Exact, in one matching: if some bye works, the
    allowed pairs match all but one entrant, and whoever a largest matching
    leaves out is such a bye. Among them it prefers the fewest byes: each
    pair weighs its two entrants' byes, so the one left out has the fewest
    the matching could leave out."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(order)))
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            b = order[j]
            if Pair((a.id, b.id)) not in history.apart:
                graph.add_edge(i, j, weight=1 + history.byes[a.id] + history.byes[b.id])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(order) - 1:
        return None
    matched = {i for edge in matching for i in edge}
    (left_out,) = set(range(len(order))) - matched
    return order[left_out]


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


# -- Knockout -------------------------------------------------------------------


def knockout_rounds(n: int) -> int:
    """Rounds of a single elimination of ``n`` entrants: ceil(log2 n)."""
    return max(0, (n - 1).bit_length()) if n > 1 else 0


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1 = best) in bracket order for ``size`` slots, a power
    of two: 1 v size, then the pairs fold in so that seeds 1 and 2 can meet
    only in the final, seeds 1 to 4 only from the semi-finals on, and so on
    (for 8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def knockout_bracket(seeded: list[int]) -> list[int | None]:
    """Round 1's slots: the entrants (best seed first) in bracket order, with
    None where the bracket has more slots than entrants; those empty slots
    face the top seeds, who thus have the byes."""
    size = 1 << knockout_rounds(len(seeded))
    return [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]


def knockout_seeds(bracket: list[int | None]) -> dict[int, int]:
    """Each entrant's seed number (1 = best), read back from round 1's slots."""
    return {
        e: seed
        for e, seed in zip(bracket, bracket_order(len(bracket)), strict=True)
        if e is not None
    }


def knockout_pairs(
    slots: list[int | None], active: Collection[int]
) -> tuple[list[list[int]], list[int]]:
    """(tables, byes) of a round from its slots: neighbouring slots meet
    (the better seed, earlier in ``slots``' pair, sits first); one whose
    neighbour is empty or no longer plays (withdrew) has a bye."""
    tables, byes = [], []
    for i in range(0, len(slots), 2):
        pair = [e for e in slots[i : i + 2] if e is not None and e in active]
        if len(pair) == 2:
            tables.append(pair)
        elif pair:
            byes.append(pair[0])
    return tables, byes


def knockout_next(
    slots: list[int | None], results: Iterable, seed: dict[int, int]
) -> list[int | None]:
    """The next round's slots: the winner of each pair of ``slots``, from
    that round's ``results`` (``standings.TableResult``-like: ``entrants``,
    ``points``, ``bye``). A pair's winner is who won more points at its
    table; a draw or an aborted match goes to the better seed (lower
    ``seed``); a bye advances its holder; a pair with neither is empty."""
    winner_of: dict[int, int] = {}
    for table in results:
        if table.bye:
            winner_of[table.entrants[0]] = table.entrants[0]
            continue
        if table.points is None or len(table.entrants) != 2:
            continue
        a, b = table.entrants
        pa, pb = table.points
        if pa != pb:
            best = a if pa > pb else b
        else:
            best = min((a, b), key=lambda e: seed.get(e, len(seed)))
        winner_of[a] = winner_of[b] = best
    following = []
    for i in range(0, len(slots), 2):
        pair = [e for e in slots[i : i + 2] if e is not None]
        following.append(next((winner_of[e] for e in pair if e in winner_of), None))
    return following


def knockout_history(
    bracket: list[int | None], results: Iterable, seed: dict[int, int], done: int | None = None
) -> list[list[int | None]]:
    """The slots of every round replayed from the bracket: round 1's, then
    the next one for each of the first ``done`` rounds (by default every
    round with a result) whose results are all in; a round with no table
    (everyone in it withdrew) empties its slots. The last list has a single
    slot once the final is decided."""
    by_round: dict[int, list] = {}
    for table in results:
        by_round.setdefault(table.round, []).append(table)
    if done is None:
        done = max(by_round, default=0)
    history = [list(bracket)]
    for number in range(1, done + 1):
        tables = by_round.get(number, [])
        if len(history[-1]) < 2 or any(t.points is None for t in tables):
            break
        history.append(knockout_next(history[-1], tables, seed))
    return history


def knockout_places(history: list[list[int | None]], rounds: int) -> dict[int, int]:
    """Each entrant's place: 1 for the winner (alone in the last slot),
    2 for the final's loser, 3 shared by the semi-finals' losers, 5 by the
    quarter-finals', and so on: one who last stood in round ``k``'s slots
    of ``rounds`` shares place 2**(rounds-k) + 1."""
    places: dict[int, int] = {}
    for level, slots in enumerate(history, start=1):
        for entrant in slots:
            if entrant is not None:
                places[entrant] = 1 if level > rounds else (1 << (rounds - level)) + 1
    return places
