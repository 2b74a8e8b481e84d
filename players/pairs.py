"""Pairs of players worth a moderator's look (the desk's "Suspicious pairs"):
two accounts that meet again and again in rated matches, one of them always
losing, or whose matches end at once. A second account feeding a rating
looks like that; ``ratings.repeated_pair`` already stops counting such
results past ``PAIR_LIMIT``, and the desk lets a moderator see who tried.

Read over the last ``PAIR_WINDOW`` of rated matches, in two queries (their
seats, then the players' names); docs/moderation.md says what is listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import EARLY_END, MatchStatus, Seat
from players.ratings import PAIR_LIMIT, PAIR_WINDOW
from players.selectors import game_title

#: A match ended by a resignation or a loss on time within this many entries
#: of its log (moves and the resignation itself) is a quick end.
QUICK_ENTRIES = 6
#: One side lost every result of at least this many: listed.
ALWAYS_LOSING = 3
#: At least this many quick ends of the pair: listed.
QUICK_ENDS = 2

_ENDED_BY_A_PLAYER = ("resigned", "time", "deactivated")


@dataclass
class Pair:
    game_key: str
    title: str
    first: object  # the user with the lower id
    second: object
    results: int = 0  # finished rated matches together
    first_wins: int = 0  # results where ``first`` placed above ``second``
    second_wins: int = 0
    quick: int = 0  # of those and of the aborted ones, ended at once
    aborted_early: int = 0  # aborted: resigned or lost on time before each seat moved
    matches: list[int] = field(default_factory=list)

    @property
    def one_side_always_loses(self) -> bool:
        return self.results >= ALWAYS_LOSING and 0 in (self.first_wins, self.second_wins)

    @property
    def listed(self) -> bool:
        return self.results >= PAIR_LIMIT or self.one_side_always_loses or self.quick >= QUICK_ENDS


def _quick(status: str, version: int, result: dict | None) -> bool:
    details = (result or {}).get("details") or {}
    if status == MatchStatus.ABORTED:
        return details.get("reason") == EARLY_END
    return details.get("reason") in _ENDED_BY_A_PLAYER and version <= QUICK_ENTRIES


def suspicious_pairs(now=None) -> list[Pair]:
    """The pairs to look at, the most results and quick ends first."""
    now = now or timezone.now()
    rows = Seat.objects.filter(
        user__isnull=False,
        is_bot=False,
        match__rated=True,
        match__status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED],
        match__finished_at__gt=now - PAIR_WINDOW,
    ).values_list(
        "match_id",
        "match__game_key",
        "match__status",
        "match__version",
        "match__result",
        "user_id",
        "rank",
    )
    matches: dict[int, tuple[str, str, bool, dict[int, int | None]]] = {}
    for match_id, key, status, version, result, user_id, rank in rows:
        if status == MatchStatus.ABORTED and not _quick(status, version, result):
            continue  # a moderator's abort: not the players' doing
        entry = matches.setdefault(match_id, (key, status, _quick(status, version, result), {}))
        entry[3][user_id] = rank
    pairs: dict[tuple[str, int, int], Pair] = {}
    for match_id, (key, status, quick, ranks) in sorted(matches.items()):
        for a, b in combinations(sorted(ranks), 2):
            pair = pairs.setdefault((key, a, b), Pair(key, game_title(key), a, b))
            pair.matches.append(match_id)
            pair.quick += quick
            if status == MatchStatus.ABORTED:
                pair.aborted_early += 1
                continue
            pair.results += 1
            if ranks[a] is not None and ranks[b] is not None and ranks[a] != ranks[b]:
                if ranks[a] < ranks[b]:
                    pair.first_wins += 1
                else:
                    pair.second_wins += 1
    listed = [pair for pair in pairs.values() if pair.listed]
    users = get_user_model().objects.in_bulk({p.first for p in listed} | {p.second for p in listed})
    for pair in listed:
        pair.first, pair.second = users[pair.first], users[pair.second]
    listed.sort(key=lambda p: (-(p.results + p.quick), p.game_key, p.first.pk, p.second.pk))
    return listed
