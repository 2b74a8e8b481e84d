"""Points by rank, tie-breaks and standings: pure functions over results.

Points at a table of n: the first place earns n-1, each place below one
less, the last nothing (two players: a win 1, a loss 0); players sharing a
rank share the places they cover equally (a two-player draw: ½ each). A bye
earns the points of a first place at a full table; an aborted match earns
nobody anything but counts as played.

Tie-breaks, in order (``docs/tournaments.md``):

1. Buchholz: the sum of the final points of everyone met at a table.
2. Sonneborn-Berger: over each table, the share of the table's points won
   (own points / (n-1)) times the final points of its other players.
3. First places, then the rating at the start, then the earlier entry.

With two seats these are the usual chess Buchholz and Sonneborn-Berger.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments import pairing

KNOCKOUT = "knockout"  # models.Format.KNOCKOUT, kept here so this module stays pure
FINISHED = "finished"


def points_for_ranks(ranks: list[int]) -> list[float]:
    """Each seat's points at a table from its rank (1 = first; ties share)."""
    n = len(ranks)
    order = sorted(range(n), key=lambda i: ranks[i])
    points = [0.0] * n
    position = 0
    while position < n:
        group = [i for i in order[position:] if ranks[i] == ranks[order[position]]]
        share = sum(n - 1 - (position + k) for k in range(len(group))) / len(group)
        for i in group:
            points[i] = share
        position += len(group)
    return points


@dataclass
class TableResult:
    """One entrant list at one table of one round, with the points each won.

    ``points`` is None while the table is in play; ``bye`` tables have one
    entrant; ``aborted`` tables score nothing for anyone."""

    round: int
    entrants: list[int]
    points: list[float] | None
    bye: bool = False
    aborted: bool = False


@dataclass
class Row:
    entrant: int
    points: float = 0.0
    buchholz: float = 0.0
    berger: float = 0.0
    firsts: int = 0
    rating: int = 0
    order: int = 0
    played: int = 0
    place: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(entrants: list[tuple[int, int]], results: list[TableResult]) -> list[Row]:
    """Rows in final order. ``entrants``: (id, rating at the start), in entry order."""
    rows = {e: Row(entrant=e, rating=r, order=i) for i, (e, r) in enumerate(entrants)}
    done = [t for t in results if t.points is not None]
    for table in done:
        for i, e in enumerate(table.entrants):
            if e not in rows:
                continue
            rows[e].points += table.points[i]
            rows[e].played += 1
            if not table.bye and not table.aborted and len(table.entrants) > 1:
                top = max(table.points)
                if table.points[i] == top and table.points.count(top) == 1:
                    rows[e].firsts += 1
    for table in done:
        if table.bye or len(table.entrants) < 2:
            continue
        n = len(table.entrants)
        for i, e in enumerate(table.entrants):
            if e not in rows:
                continue
            others = [o for o in table.entrants if o != e and o in rows]
            mates = sum(rows[o].points for o in others)
            rows[e].buchholz += mates
            rows[e].berger += table.points[i] / (n - 1) * mates
            rows[e].opponents.extend(others)
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.points, -r.buchholz, -r.berger, -r.firsts, -r.rating, r.order),
    )
    for place, row in enumerate(ordered, start=1):
        row.place = place
    return ordered


def crosstable(entrants: list[int], results: list[TableResult]) -> dict[int, dict[int, float]]:
    """Points each entrant won at tables shared with each other entrant
    (round robin pages): ``cross[a][b]`` is a's points where a met b."""
    cross: dict[int, dict[int, float]] = defaultdict(dict)
    for table in results:
        if table.points is None or table.bye:
            continue
        for i, a in enumerate(table.entrants):
            for b in table.entrants:
                if a != b:
                    cross[a][b] = cross[a].get(b, 0.0) + table.points[i]
    return {a: dict(cross.get(a, {})) for a in entrants}


def knockout_slots(tournament, results: list[TableResult], done: int) -> list[list[int | None]]:
    """A knockout's slots round by round, replayed from its bracket
    (``tournament.schedule``, fixed at the start) and the results of its
    first ``done`` rounds."""
    bracket = tournament.schedule
    return pairing.knockout_history(bracket, results, pairing.knockout_seeds(bracket), done)


def ordered_standings(tournament, entrants: list[tuple[int, int]], results: list[TableResult]):
    """The standings' rows in final order (``tournament`` needs only its
    format, status, rounds and schedule). A knockout is ordered by how far
    each entrant got (the winner, the final's loser, the semi-finals' losers
    sharing third...), the usual order breaking ties only for the page's
    order among those who went out in the same round."""
    rows = standings(entrants, results)
    if tournament.format != KNOCKOUT or not tournament.schedule:
        return rows
    history = knockout_slots(tournament, results, tournament.rounds)
    places = pairing.knockout_places(history, tournament.rounds)
    if tournament.status != FINISHED:
        places = {e: max(p, 2) for e, p in places.items()}  # no winner before the end
    last = len(rows) + 1
    ordered = sorted(rows, key=lambda r: (places.get(r.entrant, last), r.place))
    for row in ordered:
        row.place = places.get(row.entrant, last)
    return ordered
