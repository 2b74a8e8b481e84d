"""How much of the strong bot's rollout workload a game's rules take, in one code tree.

    git archive 96372a8 | tar -x -C /tmp/ref96
    python tests/load/rules_share.py nogi --tree /tmp/ref96        # the reference's code
    python tests/load/rules_share.py nogi --rules-version 1        # this code, the same games

Runs ``make bench-games``' rollout workload (``games_per_second.rollout_workload``)
with the game's contract methods each timed: ``apply``, ``apply_legal``,
``legal_actions``, ``current_seats``, ``copy_state``, ``result`` and
``sample_secrets``, CPU time of the outermost call only (a rules method that
calls another is counted once). Prints, for the best of ``--rounds`` rounds
in this interpreter, the rollouts, the workload's CPU seconds, those spent in
the rules and the digest of the play (equal digests: both codes played the
same games). Run each tree in turn, alternated, on the same machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
RULES_METHODS = (
    "apply",
    "apply_legal",
    "legal_actions",
    "current_seats",
    "copy_state",
    "result",
    "sample_secrets",
)


def time_rules(game_class, spent: list[float]) -> None:
    """Wrap the class's contract methods so that ``spent[0]`` adds up their CPU time."""
    depth = [0]

    def wrap(method):
        def timed(self, *args, **kwargs):
            if depth[0]:
                return method(self, *args, **kwargs)
            depth[0] += 1
            started = time.process_time()
            try:
                return method(self, *args, **kwargs)
            finally:
                spent[0] += time.process_time() - started
                depth[0] -= 1

        return timed

    for name in RULES_METHODS:
        method = getattr(game_class, name, None)
        if method is not None:
            setattr(game_class, name, wrap(method))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("--tree", default=str(HERE.parents[2]), help="the code tree to time")
    parser.add_argument("--rules-version", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    sys.path.insert(0, args.tree)
    sys.path.insert(1, str(HERE.parent))
    import games_per_second

    from games.engine import registry

    registry.discover()
    spent = [0.0]
    time_rules(type(registry.get(args.key)), spent)
    best = None
    for _round in range(args.rounds):
        spent[0] = 0.0
        rollouts, seconds, digest = games_per_second.rollout_workload(
            args.key, rules_version=args.rules_version
        )
        if best is None or seconds < best["seconds"]:
            best = {"rollouts": rollouts, "seconds": round(seconds, 3)}
            best |= {"in_rules": round(spent[0], 3), "digest": digest}
    print(json.dumps(best))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
