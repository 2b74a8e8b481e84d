"""Random games and the strong bot's rollouts per second for every game, beside baselines.

    uv run python tests/load/games_per_second.py            # or: make bench-games
    uv run python tests/load/games_per_second.py --games 40 --rounds 5
    uv run python tests/load/games_per_second.py --reference 49850a4 --only drako

The machine is shared and noisy, so an absolute rate says little on its own.
Each round therefore times a fixed pure-Python baseline (JSON round trips of
a small game-like state, about the work an engine does per decision) right
before each game's batch, and the script prints every game's rate both in
games per second and as a ratio to the baseline of the same round. The
ratio is the figure to compare between runs; the best round is reported
because noise only ever slows a round down.

A game is played with its whole option matrix in turn and every player count
it allows, by choosing a random legal action for whoever must act (the first
of ``current_seats``) until ``result`` says it is over. No harness checks run:
this is the engine's speed, not the test suite's.

Then the strong bot's rollouts per second of one core's CPU time, each game
timed against the same workload run by the reference commit's code (the old
code path, ``--reference``, by default ``REFERENCE``: the commit before the
rollouts were made faster). The workload is the strong search of
``tests/load/bot_strength.py --speed-only`` at a fixed budget per game
(``ROLLOUT_ITERATIONS`` rollouts a search, at every fifth position of one
heuristic 2-player game): as the faster code chooses exactly what the old one
chose, both play the very same rollouts, so the ratio is the speed-up. The
reference's rules are extracted with ``git archive`` into a temporary folder
and each side runs in a fresh interpreter, the two alternating round by
round; the best round of each is kept (noise only ever slows a round down).
A game whose rules version is newer than the reference's is set up under the
reference's (``ROLLOUT_RULES_VERSION``), so both codes play the same games;
a row of its own times this code's rollouts under the current version
against those, in the same rounds (Nogi's version 2 records trails at every
move).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
BASELINE_OPS = 20_000
MAX_DECISIONS = 100_000
#: The code the rollouts are timed against: the commit before they were made faster.
#: (``96372a8``: the commit ``ae6a735`` named in docs/performance.md's older
#: tables was folded into ``47d6134`` with the work that followed it, and is
#: no longer in the history; ``96372a8``, the commit under ``47d6134``, holds
#: the same rules.)
REFERENCE = "96372a8"
#: Rollouts a search in the rollout workload, by game: the site's budget where
#: it is cheap enough to time (Seven Dragons' 192 short rollouts, Drakon's 24,
#: Drako's 12 as at the reference commit), 64 for Nogi (256 on the site).
#: Fixed here, so a game's own cap raised later leaves the workload alike.
ROLLOUT_ITERATIONS = {"nogi": 64, "seven_dragons": 192, "drako": 12}
ROLLOUT_DEFAULT = 24
#: Searched positions a game in the rollout workload.
ROLLOUT_POSITIONS = 6
#: The reference's rules version of a game that has a newer one now: the
#: workload sets the game up under it, so both codes play the same games.
ROLLOUT_RULES_VERSION = {"nogi": 1}


def baseline(ops: int = BASELINE_OPS) -> float:
    """Seconds for ``ops`` JSON round trips of a small nested state."""
    state = {
        "seats": [{"hand": list(range(8)), "score": i} for i in range(4)],
        "board": {str(i): [i, i + 1] for i in range(30)},
        "log": [],
    }
    started = time.perf_counter()
    for i in range(ops):
        state = json.loads(json.dumps(state))
        state["seats"][i % 4]["score"] += 1
    return time.perf_counter() - started


def play(game, count: int, prefix: str) -> tuple[int, int]:
    """Play ``count`` random games; return (games, decisions)."""
    from games.engine.rng import Rng

    setups = [
        (players, options)
        for players in range(game.min_players, game.max_players + 1)
        for options in game.option_matrix(players)
    ]
    decisions = 0
    for i in range(count):
        players, options = setups[i % len(setups)]
        seed = f"{prefix}-{i}"
        state = game.setup(players, options, seed)
        rng = Rng.from_seed("bench:" + seed)
        for _ in range(MAX_DECISIONS):
            if game.result(state) is not None:
                break
            seat = game.current_seats(state)[0]
            legal = game.legal_actions(state, seat)
            state, _events = game.apply(state, seat, legal[rng.below(len(legal))])
            decisions += 1
        else:
            raise RuntimeError(f"{game.key}: game {seed} did not end")
    return count, decisions


def rollout_workload(
    key: str, positions: int = ROLLOUT_POSITIONS, rules_version: int | None = None
) -> tuple[int, float, str]:
    """(rollouts, CPU seconds, digest of the choices) of the strong search at every
    fifth position of one heuristic 2-player game: the same workload for any
    version of the code whose bots choose alike (``games.engine.bots``' public
    functions only). The digest covers every search's choice and rollouts per
    candidate and the game's moves, so two versions' digests match only when
    they searched and played alike. ``rules_version``: set the game up under
    that version (None: the current one)."""
    import hashlib

    from games.engine import bots, registry
    from games.engine.base import resolve_options
    from games.engine.rng import Rng
    from games.engine.search import Budget

    registry.discover()
    game = registry.get(key)
    bots.bot_module(key)  # imported before the clock starts
    budget = Budget(iterations=ROLLOUT_ITERATIONS.get(key, ROLLOUT_DEFAULT), seconds=None)
    options = resolve_options(game, {})
    state = (
        game.setup(2, options, f"speed-{key}")
        if rules_version is None
        else game.setup_for(rules_version, 2, options, f"speed-{key}")
    )
    rng = Rng.from_seed(f"speed:{key}")
    rollouts, seconds, move, searched = 0, 0.0, 0, 0
    digest = hashlib.sha256()
    while game.current_seats(state) and searched < positions:
        seat = game.current_seats(state)[0]
        if move % 5 == 0 and len(game.legal_actions(state, seat)) > 1:
            cpu = time.process_time()
            found = bots.choose_with_report(key, state, seat, rng, "strong", budget)
            seconds += time.process_time() - cpu
            rollouts += found.iterations
            searched += 1
            digest.update(json.dumps([found.action, found.visits], sort_keys=True).encode())
        action = bots.choose(key, state, seat, rng, "heuristic")
        digest.update(json.dumps(action, sort_keys=True).encode())
        state, _events = game.apply(state, seat, action)
        move += 1
    return rollouts, seconds, digest.hexdigest()[:12]


def _timed_rollouts(
    tree: Path, key: str, rules_version: int | None = None
) -> tuple[int, float, str]:
    """``rollout_workload`` run by the code in ``tree``, in a fresh interpreter."""
    version = [] if rules_version is None else ["--rules-version", str(rules_version)]
    done = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--rollout-worker",
            key,
            str(tree),
            *version,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    rollouts, seconds, digest = json.loads(done.stdout.strip().splitlines()[-1])
    return rollouts, seconds, digest


def rollout_speeds(keys: list[str], reference: str, rounds: int) -> None:
    """Print each game's rollouts per CPU second, the reference's and the ratio."""
    print()
    print(
        f"rollouts: the strong search, {ROLLOUT_ITERATIONS} rollouts (else "
        f"{ROLLOUT_DEFAULT}) at each of {ROLLOUT_POSITIONS} positions of a heuristic "
        "2-player game; "
        f"reference: {reference}'s code, alternated with this code round by round"
    )
    print(
        f"{'game':<16} {'rollouts/s':>11} {'reference':>10} {'÷ reference':>12} {'same play':>10}"
    )
    from games.engine import registry
    from tests.load.revisions import tree_at  # main() put the repository on the path

    with tempfile.TemporaryDirectory(prefix="smoki-bench-") as folder:
        old_tree = tree_at(reference, Path(folder), "games")
        for key in keys:
            version = ROLLOUT_RULES_VERSION.get(key)
            best_new = best_old = best_current = 0.0
            digests = set()
            for _round in range(rounds):
                rollouts, seconds, old_digest = _timed_rollouts(old_tree, key, version)
                best_old = max(best_old, rollouts / seconds)
                rollouts, seconds, new_digest = _timed_rollouts(BASE_DIR, key, version)
                best_new = max(best_new, rollouts / seconds)
                digests |= {old_digest, new_digest}
                if version is not None:
                    rollouts, seconds, _digest = _timed_rollouts(BASE_DIR, key)
                    best_current = max(best_current, rollouts / seconds)
            same = "yes" if len(digests) == 1 else "NO"
            label = key if version is None else f"{key} (rules {version})"
            print(
                f"{label:<16} {best_new:>11.1f} {best_old:>10.1f} {best_new / best_old:>11.2f}×"
                f" {same:>10}",
                flush=True,
            )
            if version is not None:
                current = registry.get(key).rules_version
                print(
                    f"{f'{key} (rules {current})':<16} {best_current:>11.1f} {best_old:>10.1f}"
                    f" {best_current / best_old:>11.2f}× {'(newer)':>10}",
                    flush=True,
                )
    print("÷ reference: rollouts per CPU second divided by the reference code's, same workload")
    print("same play: both codes made the same searches' choices and the same moves")
    print(
        "(newer): this code under the game's current rules version, against the reference's "
        "rollouts under its own (not the same games)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per round and game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="game keys (default: every registered game)")
    parser.add_argument(
        "--reference", default=REFERENCE, help="git revision whose rollouts are the baseline"
    )
    parser.add_argument("--no-games", action="store_true", help="only the rollouts")
    parser.add_argument("--no-rollouts", action="store_true", help="only the random games")
    parser.add_argument(
        "--rollout-worker", nargs=2, metavar=("KEY", "TREE"), help=argparse.SUPPRESS
    )
    parser.add_argument("--rules-version", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.rollout_worker:
        key, tree = args.rollout_worker
        sys.path.insert(0, tree)
        print(json.dumps(rollout_workload(key, rules_version=args.rules_version)))
        return 0
    sys.path.insert(0, str(BASE_DIR))
    from games.engine import registry

    registry.discover()
    keys = args.only or [r.key for r in registry.registrations()]
    if not args.no_games:
        random_games(keys, args.games, args.rounds)
    if not args.no_rollouts:
        rollout_speeds(keys, args.reference, args.rounds)
    return 0


def random_games(keys: list[str], games_per_round: int, rounds: int) -> None:
    """Print each game's random games per second and the ratio to the JSON baseline."""
    from games.engine import registry

    load = os.getloadavg()[0]
    print(f"load average (1 min) before: {load:.2f}")
    print(f"baseline: {BASELINE_OPS:,} JSON round trips of a small state, timed before each batch")
    print(f"{'game':<16} {'games/s':>9} {'decisions/s':>12} {'per game':>9} {'÷ baseline':>11}")
    for key in keys:
        game = registry.get(key)
        best = None
        for round_ in range(rounds):
            base = BASELINE_OPS / baseline()
            started = time.perf_counter()
            games, decisions = play(game, games_per_round, f"bench-{round_}")
            elapsed = time.perf_counter() - started
            rate = games / elapsed
            ratio = (decisions / elapsed) / base
            if best is None or ratio > best[3]:
                best = (rate, decisions / elapsed, decisions / games, ratio)
        rate, per_s, per_game, ratio = best
        print(f"{key:<16} {rate:>9.1f} {per_s:>12,.0f} {per_game:>9.1f} {ratio:>10.3f}×")
    print("÷ baseline: decisions per second divided by baseline round trips per second")


if __name__ == "__main__":
    raise SystemExit(main())
