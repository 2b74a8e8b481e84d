"""Forming tables from the waiting quick-match requests: one pass, pure
Python (no Django), so its properties are tested on generated inputs and its
cost is measured alone (docs/quick-match.md).

The algorithm, a greedy that seats the longest-waiting request first:

1. Games are taken one after another, the game most requests name first
   (then by key). A request for any game takes part in every game whose
   player counts it accepts, with that game's default options, until it is
   seated.
2. Inside a game, requests are split into pools that may share a table: the
   same options and the same choice of rated or unrated.
3. In a pool, each request in turn, oldest first, is the *seed*. Its
   candidates are the pool's other waiting requests in order of rating
   distance from it, nearest first (``LOOK_AT`` at most), while that
   distance is inside the seed's widened window. For each table size the
   seed accepts, from the largest down, a table is grown: a candidate joins
   when it accepts that size and fits everyone already at it (see
   ``fits``). The largest size that fills wins: its table is formed, its
   requests and their players leave the pass.
4. Two requests fit when: different players, neither blocked the other,
   their clock ranges overlap, each one's rating is inside the other's
   widened window. A table's clock is the longest time per move every
   player accepts.

What the tests prove of it (tests/matchmaking/test_matching.py): every
table is valid for every player at it; no request, and no player, is seated
twice; the result does not depend on the order the requests come in; two
requests that could form a table of two never both stay waiting (among
pools no larger than ``LOOK_AT`` + 1); when every request of a pool fits
every other and all accept the same size n, all but fewer than n are seated.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

#: The rating window widens by ``WIDEN_POINTS`` for every ``WIDEN_HOURS``
#: hours a request has waited, up to ``WIDEN_MAX`` points more.
WIDEN_POINTS = 50
WIDEN_HOURS = 4
WIDEN_MAX = 400
#: A seed looks at most at this many of its pool's nearest requests.
LOOK_AT = 500

SIZES = range(2, 8)


def mask_of(counts) -> int:
    """The bit mask of a set of player counts (bit n: n players)."""
    mask = 0
    for n in counts:
        mask |= 1 << n
    return mask


def counts_of(mask: int) -> list[int]:
    return [n for n in SIZES if mask >> n & 1]


def widened(window: int | None, waited_seconds: float) -> int | None:
    """A request's rating window after waiting ``waited_seconds``: ``None``
    (any rating) stays so; else ``WIDEN_POINTS`` more for every whole
    ``WIDEN_HOURS`` hours waited, at most ``WIDEN_MAX`` more."""
    if window is None:
        return None
    steps = int(max(0.0, waited_seconds) // (WIDEN_HOURS * 3600))
    return window + min(WIDEN_MAX, WIDEN_POINTS * steps)


@dataclass(slots=True)
class Waiting:
    """A waiting request as the pass sees it. ``game`` is "" for any game;
    ``options`` a canonical text of its options ("" for any game);
    ``counts`` a mask (``mask_of``); clocks in seconds; ``created`` in
    seconds since the epoch; ``ratings`` the player's rating for each game
    the request may be seated at."""

    id: int
    user: int
    game: str
    options: str
    counts: int
    clock_min: int
    clock_max: int
    rated: bool
    window: int | None
    created: float
    ratings: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSeats:
    """What a game seats with its default options: the counts' mask and the
    options' canonical text (for requests for any game)."""

    counts: int
    default_options: str


@dataclass(frozen=True)
class Table:
    game: str
    options: str
    rated: bool
    clock: int  # seconds a move
    requests: tuple[int, ...]  # the seed first
    users: tuple[int, ...]  # in the same order
    ratings: tuple[int, ...]


@dataclass(slots=True)
class _Entry:
    request: Waiting
    rating: int
    counts: int
    window: int | None  # widened, or None for any rating


def blocked_pairs(pairs) -> set[tuple[int, int]]:
    """The (low id, high id) of every pair where one blocked the other."""
    return {(a, b) if a < b else (b, a) for a, b in pairs}


def plan(
    requests: list[Waiting],
    games: dict[str, GameSeats],
    blocks: set[tuple[int, int]],
    now: float,
) -> list[Table]:
    """The tables one pass forms (see the module's description)."""
    seated_requests: set[int] = set()
    seated_users: set[int] = set()
    named = Counter(r.game for r in requests if r.game)
    tables: list[Table] = []
    for key in sorted(games, key=lambda k: (-named[k], k)):
        seats = games[key]
        pools: dict[tuple[str, bool], list[_Entry]] = {}
        for request in requests:
            if request.game == key:
                # Checked against its own options when it was made.
                counts, options = request.counts, request.options
            elif request.game == "":
                counts, options = request.counts & seats.counts, seats.default_options
            else:
                continue
            if not counts or request.id in seated_requests or request.user in seated_users:
                continue
            rating = request.ratings.get(key, 0)
            entry = _Entry(request, rating, counts, widened(request.window, now - request.created))
            pools.setdefault((options, request.rated), []).append(entry)
        for (options, rated), pool in sorted(pools.items()):
            for group in _tables_of(pool, blocks, seated_requests, seated_users):
                tables.append(_table(key, options, rated, group))
    return tables


def _table(key: str, options: str, rated: bool, group: list[_Entry]) -> Table:
    return Table(
        game=key,
        options=options,
        rated=rated,
        clock=min(e.request.clock_max for e in group),
        requests=tuple(e.request.id for e in group),
        users=tuple(e.request.user for e in group),
        ratings=tuple(e.rating for e in group),
    )


def fits(a: _Entry, b: _Entry, blocks: set[tuple[int, int]]) -> bool:
    """Whether two requests may sit at one table (sizes aside)."""
    ua, ub = a.request.user, b.request.user
    if ua == ub or ((ua, ub) if ua < ub else (ub, ua)) in blocks:
        return False
    if max(a.request.clock_min, b.request.clock_min) > min(
        a.request.clock_max, b.request.clock_max
    ):
        return False
    distance = abs(a.rating - b.rating)
    return (a.window is None or distance <= a.window) and (b.window is None or distance <= b.window)


def _tables_of(
    pool: list[_Entry],
    blocks: set[tuple[int, int]],
    seated_requests: set[int],
    seated_users: set[int],
) -> list[list[_Entry]]:
    by_rating = sorted(pool, key=lambda e: (e.rating, e.request.created, e.request.id))
    position = {id(e): i for i, e in enumerate(by_rating)}
    taken = [False] * len(by_rating)
    # How many of the pool, not yet seated, accept each size.
    accepting = Counter(n for e in by_rating for n in counts_of(e.counts))
    formed: list[list[_Entry]] = []

    def gone(e: _Entry) -> bool:
        return e.request.id in seated_requests or e.request.user in seated_users

    for seed in sorted(by_rating, key=lambda e: (e.request.created, e.request.id)):
        at = position[id(seed)]
        if taken[at] or gone(seed):
            continue
        sizes = [n for n in reversed(counts_of(seed.counts)) if accepting[n] >= n]
        if not sizes:
            continue
        group = _grow(seed, at, by_rating, taken, gone, sizes, blocks)
        if group is None:
            continue
        for e in group:
            taken[position[id(e)]] = True
            seated_requests.add(e.request.id)
            seated_users.add(e.request.user)
            for n in counts_of(e.counts):
                accepting[n] -= 1
        formed.append(group)
    return formed


def _nearest(seed: _Entry, at: int, by_rating: list[_Entry], taken: list[bool]):
    """The pool's free requests by rating distance from the seed, nearest
    first, inside the seed's window, at most ``LOOK_AT`` of them."""
    left, right = at - 1, at + 1
    window = seed.window
    looked = 0
    while looked < LOOK_AT:
        while left >= 0 and taken[left]:
            left -= 1
        while right < len(by_rating) and taken[right]:
            right += 1
        low = seed.rating - by_rating[left].rating if left >= 0 else None
        high = by_rating[right].rating - seed.rating if right < len(by_rating) else None
        if low is not None and (high is None or low <= high):
            pick, distance, left = by_rating[left], low, left - 1
        elif high is not None:
            pick, distance, right = by_rating[right], high, right + 1
        else:
            return
        if window is not None and distance > window:
            return
        looked += 1
        yield pick


def _grow(seed, at, by_rating, taken, gone, sizes, blocks) -> list[_Entry] | None:
    """The largest table the seed can form with its nearest candidates."""
    groups = {n: [seed] for n in sizes}
    largest = sizes[0]
    for candidate in _nearest(seed, at, by_rating, taken):
        if gone(candidate):
            continue
        if not fits(seed, candidate, blocks):
            continue
        for n, group in groups.items():
            if (
                len(group) < n
                and candidate.counts >> n & 1
                and all(fits(member, candidate, blocks) for member in group[1:])
            ):
                group.append(candidate)
        if len(groups[largest]) == largest:
            break
    for n in sizes:
        if len(groups[n]) == n:
            return groups[n]
    return None
