"""A seeded pseudo-random generator whose whole state is plain JSON.

Every shuffle, die roll and random draw in a game comes from an ``Rng`` kept
inside the game state, so a match is fully determined by its seed, its
options and its actions: replaying the move log rebuilds the exact state and
anyone can check every roll once the seed is revealed.

The generator is SplitMix64 (Steele, Lea and Flood, 2014): tiny, well studied,
and easy to re-implement in any language for independent verification. Its
64-bit state is stored as a hexadecimal string so that every JSON store
(SQLite, PostgreSQL jsonb) keeps it exactly.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any

MASK64 = (1 << 64) - 1


def seed_hash(seed: str) -> str:
    """The public commitment to a seed: its SHA-256 in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


#: ``below``'s rejection limit by range (the same few ranges are drawn from all game long).
_LIMITS: dict[int, int] = {}
_LIMITS_KEPT = 4096


class Rng:
    def __init__(self, state: int):
        self.state = state & MASK64

    @classmethod
    def from_seed(cls, seed: str) -> Rng:
        return cls(int.from_bytes(hashlib.sha256(("smoki-rng:" + seed).encode()).digest()[:8]))

    @classmethod
    def load(cls, data: str) -> Rng:
        return cls(int(data, 16))

    def dump(self) -> str:
        return f"{self.state:016x}"

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        limit = _LIMITS.get(n) if type(n) is int else None
        if limit is None:
            if n <= 0:
                raise ValueError("n must be positive")
            limit = (1 << 64) - ((1 << 64) % n)
            if type(n) is int and len(_LIMITS) < _LIMITS_KEPT:
                _LIMITS[n] = limit
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def below_each(self, n: int, count: int) -> list[int]:
        """``count`` draws of ``below(n)`` in a row, the same numbers in one call:
        a game rolling several dice at once does it at every turn of every
        rollout of the strong bot, where the calls cost more than the draws."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        state = self.state
        draws: list[int] = []
        while len(draws) < count:
            # ``next64``, inlined.
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                draws.append(z % n)
        self.state = state
        return draws

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        return low + self.below(high - low + 1)

    def choice(self, items: list[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: list[Any]) -> list[Any]:
        copy = list(items)
        self.shuffle(copy)
        return copy


def choose_by_log_weight(items: Sequence[Any], logs: Sequence[float], rng: Rng) -> Any:
    """One of ``items``, each as likely as e to its log weight, drawn with ``rng``
    (the strong bot's guesses at hidden cards weighted by what the table saw)."""
    top = max(logs)
    scaled = [math.exp(log - top) for log in logs]
    point = rng.below(1 << 30) / (1 << 30) * sum(scaled)
    for item, weight in zip(items, scaled, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def with_rng(state: dict[str, Any], key: str = "rng") -> Rng:
    """The generator stored in ``state[key]``; call ``store_rng`` after drawing."""
    return Rng.load(state[key])


def store_rng(state: dict[str, Any], rng: Rng, key: str = "rng") -> None:
    state[key] = rng.dump()
