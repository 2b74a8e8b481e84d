"""Positions of Hatchlings for tests, from the state schema in README.md."""

from __future__ import annotations

from tests.hatchlings.rules import EGGS, GAME


def position(hands, nest=(), active=0, buried=(False, False), seed="hatchlings"):
    """A legal position: the clutch holds every egg not in a hand or the nest."""
    state = GAME.setup(2, {}, seed)
    rest = list(EGGS)
    for egg in [e for hand in hands for e in hand] + [e for _s, e in nest]:
        rest.remove(egg)
    scores = [sum(e for s, e in nest if s == seat) for seat in range(2)]
    state.update(
        hands=[list(h) for h in hands],
        clutch=rest,
        nest=[list(n) for n in nest],
        scores=scores,
        buried=list(buried),
        active=active,
    )
    GAME.check_invariants(state)
    return state
