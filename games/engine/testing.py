"""A reusable harness that plays random legal games of any registered game.

It is the property test every game must pass (see ``tests/engine`` and each
``tests/catalog/<key>``): thousands of random games with no crash, states
that stay plain JSON, ``apply`` that never mutates its input, garbage and
out-of-turn actions refused with ``IllegalAction``, every game ending, and a
replay of the move log that rebuilds the exact final state.

The harness calls the game's ``check_invariants(state)`` hook after every
step.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from games.engine.base import Action, Game, IllegalAction, State, resolve_options
from games.engine.replay import replay
from games.engine.rng import Rng

GARBAGE_ACTIONS: list[Any] = [
    None,
    "roll",
    42,
    [],
    {},
    {"type": None},
    {"type": "no-such-action"},
    {"type": ["list"]},
]


@dataclass
class GameRun:
    n_players: int
    options: dict[str, Any]
    seed: str
    moves: list[tuple[int, Action]] = field(default_factory=list)
    final: State | None = None


@dataclass
class HarnessStats:
    games: int = 0
    moves: int = 0
    longest: int = 0
    by_players: dict[int, int] = field(default_factory=dict)


def assert_plain_json(value: Any, what: str) -> None:
    text = json.dumps(value, sort_keys=True, allow_nan=False)
    assert json.loads(text) == value, f"{what} does not survive a JSON round trip"


def shared_containers(copy_: Any, original: Any) -> set[int]:
    """The ids of the lists and dictionaries a copy of plain JSON shares with its
    original (a game's own ``copy_state`` must share none)."""

    def containers(value: Any, found: set[int]) -> set[int]:
        if isinstance(value, dict | list):
            found.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                containers(item, found)
        return found

    return containers(copy_, set()) & containers(original, set())


def _mutated_variants(action: Action) -> list[Any]:
    """Legal-looking actions with a forged or extra field."""
    variants: list[Any] = [dict(action, forged_field=1)]
    for key, value in action.items():
        if key == "type":
            continue
        variants.append(dict(action, **{key: "forged"}))
        variants.append(dict(action, **{key: 10_000}))
        variants.append({k: v for k, v in action.items() if k != key})
        if isinstance(value, list):
            variants.append(dict(action, **{key: value + value}))
    return variants


def play_random_game(
    game: Game,
    n_players: int,
    options: dict[str, Any],
    seed: str,
    *,
    max_moves: int = 5_000,
    thorough: bool = True,
    chooser=None,
) -> GameRun:
    """Play one game choosing uniformly among legal actions and check every step.

    ``thorough`` adds the expensive checks (non-mutation, garbage and
    out-of-turn refusal) at every step. ``chooser(state, seat, legal, rng)``
    may replace the uniform choice, e.g. to play a bot.
    """
    chooser_rng = Rng.from_seed("chooser:" + seed)
    run = GameRun(n_players, options, seed)
    state = game.setup(n_players, options, seed)
    assert_plain_json(state, "setup state")
    for _step in range(max_moves + 1):
        game.check_invariants(state)
        seats = game.current_seats(state)
        outcome = game.result(state)
        if not seats:
            assert outcome is not None, "nobody can act but the game has no result (dead end)"
            assert len(outcome.ranks) == n_players
            run.final = state
            break
        assert outcome is None, "the game has a result but seats are still asked to act"
        assert len(set(seats)) == len(seats) and all(0 <= s < n_players for s in seats)
        seat = seats[chooser_rng.below(len(seats))]
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action (dead end)"
        for action in legal:
            assert isinstance(action, dict) and isinstance(action.get("type"), str)
        if thorough:
            assert_plain_json(legal, "legal actions")
            for viewer in [None, *range(n_players)]:
                assert_plain_json(game.view(state, viewer), f"view for {viewer}")
            _check_refusals(game, state, seat, seats, legal, n_players)
        if chooser is None:
            action = legal[chooser_rng.below(len(legal))]
        else:
            action = chooser(state, seat, legal, chooser_rng)
        before = copy.deepcopy(state) if thorough else None
        new_state, events = game.apply(state, seat, action)
        if thorough:
            assert state == before, "apply mutated its input state"
            assert_plain_json(new_state, "state after apply")
            assert_plain_json(events, "events")
        run.moves.append((seat, action))
        state = new_state
    else:
        raise AssertionError(f"game did not end within {max_moves} moves (seed {seed!r})")
    rebuilt = replay(game, n_players, options, seed, run.moves)
    assert rebuilt == run.final, "replaying the move log did not rebuild the final state"
    return run


def _check_refusals(
    game: Game, state: State, seat: int, seats: list[int], legal: list[Action], n_players: int
) -> None:
    snapshot = copy.deepcopy(state)
    for garbage in GARBAGE_ACTIONS + _mutated_variants(legal[0]):
        if garbage in legal:
            continue
        try:
            game.apply(state, seat, garbage)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"apply accepted a malformed action {garbage!r}")
    for other in range(n_players):
        if other in seats:
            continue
        try:
            game.apply(state, other, legal[0])
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {other} acted out of turn with {legal[0]!r}")
    assert state == snapshot, "a refused action changed the state"


def run_many(
    game: Game,
    n_games: int,
    *,
    players: list[int] | None = None,
    options_list: list[dict[str, Any]] | None = None,
    seed_prefix: str = "harness",
    thorough_every: int = 10,
    max_moves: int = 5_000,
) -> HarnessStats:
    """Play ``n_games`` random games across player counts and option sets."""
    players = players or list(range(game.min_players, game.max_players + 1))
    options_list = options_list or [{}]
    stats = HarnessStats()
    for i in range(n_games):
        n = players[i % len(players)]
        options = options_list[(i // len(players)) % len(options_list)]

        run = play_random_game(
            game,
            n,
            resolve_options(game, options),
            f"{seed_prefix}-{i}",
            max_moves=max_moves,
            thorough=(i % thorough_every == 0),
        )
        stats.games += 1
        stats.moves += len(run.moves)
        stats.longest = max(stats.longest, len(run.moves))
        stats.by_players[n] = stats.by_players.get(n, 0) + 1
    return stats
