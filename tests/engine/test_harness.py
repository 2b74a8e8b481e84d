"""The random-game harness itself catches the faults it promises to catch."""

import pytest

from games.engine.base import Game, IllegalAction, Result
from games.engine.rng import Rng
from games.engine.testing import play_random_game


class CountingGame(Game):
    """A tiny game: two seats alternately add 1 or 2; whoever reaches 10 wins."""

    key = "counting"
    title = "Counting"
    rules_version = 1
    min_players = 2
    max_players = 2
    options = []

    def __init__(self, mutate=False, accept_garbage=False, never_ends=False, wrong_replay=False):
        self.mutate = mutate
        self.accept_garbage = accept_garbage
        self.never_ends = never_ends
        self.wrong_replay = wrong_replay
        self.calls = 0

    def setup(self, n, options, seed):
        return {"total": 0, "turn": 0, "rng": Rng.from_seed(seed).dump(), "winner": None}

    def current_seats(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.current_seats(state):
            return []
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def apply(self, state, seat, action):
        if not self.accept_garbage and action not in self.legal_actions(state, seat):
            raise IllegalAction("no")
        new = state if self.mutate else dict(state)
        self.calls += 1
        step = action.get("n", 1) if isinstance(action, dict) else 1
        new["total"] = state["total"] + (0 if self.never_ends else step)
        if self.wrong_replay:
            new["calls"] = self.calls
        new["turn"] = 1 - seat
        if new["total"] >= 10:
            new["winner"] = seat
        return new, [{"type": "added", "seat": seat}]

    def view(self, state, seat):
        return {"total": state["total"]}

    def result(self, state):
        if state["winner"] is None:
            return None
        ranks = [1 if s == state["winner"] else 2 for s in range(2)]
        return Result(ranks=ranks, scores=[None, None])


def test_a_correct_game_passes():
    run = play_random_game(CountingGame(), 2, {}, "ok")
    assert run.final["total"] >= 10
    assert 5 <= len(run.moves) <= 10


@pytest.mark.parametrize(
    ("game", "complaint"),
    [
        (CountingGame(mutate=True), "mutated its input"),
        (CountingGame(accept_garbage=True), "accepted a malformed action"),
        (CountingGame(never_ends=True), "did not end"),
        (CountingGame(wrong_replay=True), "replaying the move log"),
    ],
)
def test_the_harness_catches_faults(game, complaint):
    with pytest.raises(AssertionError, match=complaint):
        play_random_game(game, 2, {}, "faulty", max_moves=200)
