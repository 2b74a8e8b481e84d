"""Check a finished match against its revealed seed.

The seed's SHA-256 was public from the start. Once the match ends the seed
is revealed, and anyone can replay the public move log from it: every roll,
shuffle and draw must come out exactly as logged, and the final state must
be the one the site recorded.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from games.engine import registry
from games.engine.base import IllegalAction
from games.engine.replay import is_moderation, is_opening, replay
from games.engine.rng import seed_hash
from games.models import Match


def state_digest(state) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


@dataclass
class VerificationReport:
    seed_matches_hash: bool
    rules_version_matches: bool
    moves_checked: int = 0
    mismatched_moves: list[int] = field(default_factory=list)
    final_state_matches: bool = False
    error: str | None = None

    @property
    def ok(self) -> bool:
        return (
            self.seed_matches_hash
            and self.rules_version_matches
            and not self.mismatched_moves
            and self.final_state_matches
            and self.error is None
        )


def verify_log(
    game, n_seats, options, seed, moves, final_state, rules_version=None
) -> VerificationReport:
    """Replay ``moves`` (objects with seq, seat, action, events) from ``seed``.

    The game is set up under the match's ``rules_version`` (default: the
    current one). A moderator's undo is followed by rebuilding the state from
    the actions still in effect; other moderators' entries change nothing.
    """
    report = VerificationReport(seed_matches_hash=True, rules_version_matches=True)
    version = game.rules_version if rules_version is None else rules_version
    state = game.setup_for(version, n_seats, options, seed)
    entries = []
    for move in moves:
        if is_opening(move.action):
            if move.events != game.opening_events(state):
                report.mismatched_moves.append(move.seq)
            continue
        entries.append((move.seat, move.action))
        if is_moderation(move.action):
            if move.action.get("op") == "undo":
                state = replay(game, n_seats, options, seed, entries, version)
            continue
        try:
            state, events = game.apply(state, move.seat, move.action)
        except IllegalAction as error:
            report.error = f"move {move.seq} was refused on replay: {error.message}"
            return report
        report.moves_checked += 1
        if events != move.events:
            report.mismatched_moves.append(move.seq)
    report.final_state_matches = state_digest(state) == state_digest(final_state)
    return report


def verify_match(match: Match) -> VerificationReport:
    game = registry.get(match.game_key)
    report = verify_log(
        game,
        match.n_seats,
        match.options,
        match.seed,
        match.moves.order_by("seq"),
        match.state,
        match.rules_version,
    )
    report.seed_matches_hash = seed_hash(match.seed) == match.seed_hash
    report.rules_version_matches = game.knows_rules_version(match.rules_version)
    return report
