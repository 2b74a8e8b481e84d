"""A simple Nogi za pas! bot: plays for timed-out seats and for bot seats.

It only looks at what its seat may see (``GAME.view``) and at the legal
actions, never at hidden parts of the raw state, so it cannot cheat: it does
not know the opponents' shields, the bunny values or the dragon tokens.

Levels:

- ``"random"``: a uniform choice among the legal actions.
- ``"heuristic"``: predicts where each action leaves the knights (using the
  view only) and picks the action whose result is worth most for its own
  shield colours and least for the colours opponents probably hold. Ties are
  broken with the given ``Rng``, so a choice is deterministic given the rng.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.catalog.nogi import components as C
from games.catalog.nogi.rules import GAME, destination, knights_at
from games.engine.base import Action, State
from games.engine.bots import choose_best, score_legal
from games.engine.rng import Rng

LEVELS = ("random", "heuristic")

#: Average bunny value (7 points over 5 tokens): what rescuing an unseen bunny is worth.
BUNNY_WORTH = sum(C.BUNNY_VALUES) / len(C.BUNNY_VALUES)

#: A knight this close ahead of the dragon, alone on its field, is in danger at the next attack.
DANGER_DISTANCE = 8
#: Fraction of a knight's expected points we give up when it is in danger.
LONE_DANGER = 0.5
GROUP_DANGER = 0.15
#: Value left to a knight that is expected to miss the 4 castle places (end (b) may save it).
BACKMARKER_VALUE = 0.5


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    """Pick one legal action for ``seat``; raise ValueError if the seat cannot act."""
    return choose_best(GAME, state, seat, rng, level, _scorer)


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    return score_legal(GAME, state, seat, legal, _scorer)


def _scorer(view: Mapping[str, Any]):
    weights = colour_weights(view)
    return lambda action: score_action(view, action, weights)


def colour_weights(view: Mapping[str, Any]) -> dict[str, float]:
    """How much each colour's points matter to us: our own count minus an opponent's expectation.

    Our colours count once per shield occurrence (twice for the shared colour
    in a 2-player game). A colour on k of the shields we do not hold is held
    by an average opponent with probability k / (unseen shields), times the
    shields each opponent holds.
    """
    mine = {colour: 0 for colour in C.COLOURS}
    for shield in view["me"]["shields"]:
        for colour in shield:
            mine[colour] += 1
    held = len(view["me"]["shields"])
    unseen = len(C.SHIELDS) - held
    weights = {}
    for colour in C.COLOURS:
        shields_with_colour = sum(colour in shield for shield in C.SHIELDS)
        opponent = (shields_with_colour - mine[colour]) / unseen * held if unseen else 0.0
        weights[colour] = mine[colour] - opponent
    return weights


def predict(view: Mapping[str, Any], action: Action) -> dict[str, Any]:
    """Where the action leaves knights, the castle and bunnies, computed from the view alone."""
    board = dict(view["board"])
    castle = [list(space) for space in view["castle"]]
    die_face = view["roll"][action["die"]]
    movers = action["knights"] if "knights" in action else [action["knight"]]
    bunny_fields = set(view["bunny_fields"])
    bunnies = 0
    landed = []
    for knight in movers:
        target = destination(board, knight, die_face)
        if target > C.LAST_FIELD:
            del board[knight]
            castle.append([knight])
        elif target != board[knight]:
            board[knight] = target
            landed.append(knight)
    for knight in landed:
        if board.get(knight) in bunny_fields:
            bunny_fields.discard(board[knight])
            bunnies += 1
    defeated = list(view["defeated"])
    dragon = view["dragon"]
    alone = knights_at(board, dragon) if dragon > C.DRAGON_START else []
    if len(alone) == 1:
        del board[alone[0]]
        defeated.append(alone[0])
    return {"board": board, "castle": castle, "defeated": defeated, "bunnies": bunnies}


def knight_values(
    board: Mapping[str, int], castle: list[list[str]], dragon: int
) -> dict[str, float]:
    """A rough expectation of each knight's final castle points.

    Knights in the castle are worth their space. A knight on the board is
    expected to take the castle place matching its rank in the race: the
    front-runner is heading for X (0 points), the next ones for 5, 3, 2.
    Knights alone just ahead of the dragon lose part of that value.
    """
    values = dict.fromkeys(C.COLOURS, 0.0)
    for index, space in enumerate(castle):
        for colour in space:
            values[colour] = C.CASTLE_POINTS[index] if index < len(C.CASTLE_POINTS) else 0.0
    # Knights on one field share their expectation: work it out once per field,
    # front field first, counting the knights ahead as we go (the strong
    # level's rollouts call this for every legal action of every move).
    level_at: dict[int, int] = {}
    for field in board.values():
        level_at[field] = level_at.get(field, 0) + 1
    expected_at: dict[int, float] = {}
    ahead = len(castle)
    for field in sorted(level_at, reverse=True):
        level = level_at[field]
        expected = _shared_places(ahead, level)
        if field - dragon <= DANGER_DISTANCE:
            expected *= 1 - (LONE_DANGER if level == 1 else GROUP_DANGER)
        expected_at[field] = expected
        ahead += level
    for colour, field in board.items():
        values[colour] = expected_at[field]
    return values


@lru_cache(maxsize=256)
def _shared_places(first: int, level: int) -> float:
    """The mean castle value of places ``first`` .. ``first + level - 1`` (0-based)."""
    return (
        sum(
            C.CASTLE_POINTS[place] if place < len(C.CASTLE_POINTS) else BACKMARKER_VALUE
            for place in range(first, first + level)
        )
        / level
    )


def score_action(view: Mapping[str, Any], action: Action, weights: Mapping[str, float]) -> float:
    """Weighted value of the predicted position, plus the bunnies the action rescues."""
    outcome = predict(view, action)
    values = knight_values(outcome["board"], outcome["castle"], view["dragon"])
    return sum(weights[colour] * values[colour] for colour in C.COLOURS) + (
        outcome["bunnies"] * BUNNY_WORTH
    )
