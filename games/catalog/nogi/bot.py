"""A simple Nogi za pas! bot: plays for timed-out seats and for bot seats.

It only looks at what its seat may see (``GAME.view``, or the part of it the
scorer reads, ``rules.sight_view``, built faster) and at the legal actions,
never at hidden parts of the raw state, so it cannot cheat: it does not know
the opponents' shields, the bunny values or the dragon tokens.

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
from games.catalog.nogi.rules import (
    GAME,
    Move,
    action_move,
    destination,
    knights_at,
    legal_moves,
    minus_target,
    move_action,
    plus_target,
    sight_view,
)
from games.engine.base import Action, State
from games.engine.bots import choose_best, pick_best, score_legal
from games.engine.rng import Rng

LEVELS = ("random", "heuristic")

#: Average bunny value (7 points over 5 tokens): what rescuing an unseen bunny is worth.
BUNNY_WORTH = sum(C.BUNNY_VALUES) / len(C.BUNNY_VALUES)

#: A knight this close ahead of the dragon, alone on its field, is in danger at the next attack.
DANGER_DISTANCE = 8
#: Fraction of a knight's expected points we give up when it is in danger.
LONE_DANGER = 0.5
GROUP_DANGER = 0.15
#: Each colour's place in ``C.COLOURS``.
INDEX_OF = {colour: index for index, colour in enumerate(C.COLOURS)}
#: Value left to a knight that is expected to miss the 4 castle places (end (b) may save it).
BACKMARKER_VALUE = 0.5
#: What a knight in danger keeps of its expectation, alone and in a group.
_LONE_FACTOR = 1 - LONE_DANGER
_GROUP_FACTOR = 1 - GROUP_DANGER


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    """Pick one legal action for ``seat``; raise ValueError if the seat cannot act.

    The heuristic is ``choose_best``'s choice, made on the legal actions in
    short (``legal_moves``: the die and the knights, no dictionary each), as
    the strong level's rollouts make it at every move."""
    if level != "heuristic":
        return choose_best(GAME, state, seat, rng, level, _action_scorer, sight_view)
    moves = legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal action now")
    score = _scorer(sight_view(state, seat))
    return move_action(pick_best(moves, [score(move) for move in moves], rng))


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    return score_legal(GAME, state, seat, legal, _action_scorer, sight_view)


def _action_scorer(view: Mapping[str, Any]):
    """``_scorer`` for actions (``choose_best`` and ``score_legal`` hand it those)."""
    score = _scorer(view)
    return lambda action: score(action_move(action))


def _scorer(view: Mapping[str, Any]):
    """``score_action`` for every move from ``view`` (an action in short, as
    ``legal_moves`` lists them), the same numbers faster.

    The strong level's rollouts score every legal action of every move, so
    what the position gives every action (the weights, the castle's values,
    how many knights stand on each field and ahead of it, each knight's
    value before any move) is worked out once per decision, and actions that
    move the same knights by the same step (a 1+1 die offers every ordered
    pair of knights, several dice often show one number) are scored once.
    An action moving one knight, or two knights one field each (nearly all of
    them), changes the expectation only of the fields between where a moved
    knight stood and where it lands (the places ahead of any other field are
    the same), so only those are worked out again (``moved_one``,
    ``moved_two``), once per fields left and reached. Every number comes from the same arithmetic in
    the same order as ``score_action``'s, which
    ``tests/catalog/nogi/test_nogi_bot.py`` compares with it on every legal
    action along bot games.
    """
    board0 = view["board"]
    roll = view["roll"]
    dragon = view["dragon"]
    castle = view["castle"]
    if castle:
        in_castle = dict.fromkeys(C.COLOURS, 0.0)
        for index, space in enumerate(castle):
            for colour in space:
                in_castle[colour] = C.CASTLE_POINTS[index] if index < len(C.CASTLE_POINTS) else 0.0
    else:
        in_castle = _NONE_IN_CASTLE  # read only
    level0: dict[int, int] = {}
    for field in board0.values():
        level0[field] = level0.get(field, 0) + 1
    # The decision: everything ``_outcome`` reads.
    decision = (
        board0,
        level0,
        in_castle,
        len(castle),
        dragon,
        dragon > C.DRAGON_START,
        frozenset(view["bunny_fields"]),
        _weight_list(tuple(view["me"]["shield_ids"])),
    )
    _b, _l, _c, spaces, _d, lone_check, bunny_fields, weight_list = decision
    # The position before any move: each occupied field (front first), the
    # places taken ahead of it (castle spaces and knights) and its expectation,
    # as ``_expectations`` works them out; the colours on it; each colour's value.
    occupied = sorted(level0, reverse=True)
    ahead_of: dict[int, int] = {}
    expected0: dict[int, float] = {}
    ahead = spaces
    for field in occupied:
        level = level0[field]
        ahead_of[field] = ahead
        expected0[field] = (
            _IN_DANGER[ahead][level] if field - dragon <= DANGER_DISTANCE else _SAFE[ahead][level]
        )
        ahead += level
    # Each colour's weighted value (its weight times its expectation: the terms
    # ``score_action`` adds up, in colour order) and the colours on each field.
    colours_at: dict[int, list[int]] = {}
    products0 = []
    for index, colour in enumerate(C.COLOURS):
        field = board0.get(colour)
        if field is None:
            products0.append(weight_list[index] * in_castle[colour])
        else:
            products0.append(weight_list[index] * expected0[field])
            colours_at.setdefault(field, []).append(index)

    def table(field: int) -> list[list[float]]:
        return _IN_DANGER if field - dragon <= DANGER_DISTANCE else _SAFE

    def moved_one(here: int, target: int) -> tuple[list, float] | None:
        """What one knight moving from ``here`` to ``target`` changes: the weighted
        value of each colour on a field whose expectation changes, and the
        knight's value where it lands (its expectation, or its castle space's
        points). None when ``_outcome`` must answer: a knight into the castle
        leaving one alone with the dragon. Only the fields from ``here`` to
        ``target`` change: the knight is one more place ahead of those it passes
        forward, one fewer of those it passes back; into the castle, it takes a
        space ahead of every field from ``here`` on and leaves the knights
        behind as many places ahead."""
        if target > C.LAST_FIELD:
            if lone_check and level0.get(dragon, 0) - (here == dragon) == 1:
                return None
            changes = []
            for field in occupied:
                if field < here:
                    break
                level = level0[field] - (field == here)
                if not level:
                    continue
                expected = table(field)[ahead_of[field] + 1][level]
                for index in colours_at[field]:
                    changes.append((index, weight_list[index] * expected))
            return changes, (C.CASTLE_POINTS[spaces] if spaces < len(C.CASTLE_POINTS) else 0.0)
        low, high = (here, target) if here <= target else (target, here)
        # A knight left alone with the dragon is defeated (off the board, worth
        # nothing): every field behind the dragon has one place fewer ahead.
        lost = lone_check and level0.get(dragon, 0) - (here == dragon) + (target == dragon) == 1
        changes = []
        landed = 0.0 if lost and target == dragon else None  # None: not worked out yet
        for field in occupied:
            if field > high and not (lost and field <= dragon):
                continue
            if landed is None and field < target:  # the field behind an empty target
                ahead = ahead_of[field] - (here > target) - (lost and dragon > target)
                landed = table(target)[ahead][1]
            if field < low and not lost:
                break
            if lost and field == dragon:
                for index in colours_at[field]:
                    changes.append((index, weight_list[index] * 0.0))
                continue
            level = level0[field] - (field == here) + (field == target)
            if not level:
                continue
            ahead = ahead_of[field] + (target > field) - (here > field) - (lost and dragon > field)
            expected = table(field)[ahead][level]
            for index in colours_at[field]:
                changes.append((index, weight_list[index] * expected))
            if field == target:
                landed = expected
        if landed is None:  # an empty target behind every knight
            ahead = spaces + sum([level0[field] for field in occupied if field > target])
            landed = table(target)[ahead - (here > target) - (lost and dragon > target)][1]
        return changes, landed

    def moved_two(here1: int, here2: int) -> tuple[list, dict[int, float]] | None:
        """``moved_one`` for two knights moving one field each (``here1`` <=
        ``here2``): the expectation of every field they land on. Only the four
        fields they leave and reach change: each moved knight is one more place
        ahead of the field it left."""
        level_at: dict[int, int] = {}
        for here in (here1, here2):
            level_at[here] = level_at.get(here, level0[here]) - 1
            level_at[here + 1] = level_at.get(here + 1, level0.get(here + 1, 0)) + 1
        if here2 + 1 > C.LAST_FIELD:
            return None
        if lone_check and level_at.get(dragon, level0.get(dragon)) == 1:
            return None
        changes = []
        expected_at: dict[int, float] = {}
        for field, level in level_at.items():
            if not level:
                continue
            # A field empty before the move is one ahead of a moved knight's.
            ahead = ahead_of[field] if field in ahead_of else ahead_of[field - 1]
            expected = table(field)[ahead + (field == here1) + (field == here2)][level]
            expected_at[field] = expected
            if field in colours_at:
                for index in colours_at[field]:
                    changes.append((index, weight_list[index] * expected))
        return changes, expected_at

    # Per die: the scores known for its step (``_face_step``: dice showing one
    # step move knights alike), the fields it adds, whether ``moved_one`` can
    # answer for one knight, and its kind.
    steps: dict[str, tuple[dict[tuple[str, ...], float], int | None, bool, str]] = {}
    known_by_step: dict[tuple, dict[tuple[str, ...], float]] = {}
    # What a move changes, by the fields knights leave and reach.
    by_move: dict[tuple[int, int], tuple[list, float] | None] = {}
    by_pair: dict[tuple[int, int], tuple[list, dict[int, float]] | None] = {}

    def score(move: Move) -> float:
        die, movers = move
        step = steps.get(die)
        if step is None:
            face = roll[die]
            key, delta = _FACE_STEPS.get((face["kind"], face.get("n"))) or _face_step(
                face["kind"], face.get("n")
            )
            kind = key[0]
            step = steps[die] = (
                known_by_step.setdefault(key, {}),
                delta,
                delta is not None or kind in _SLIDES,
                kind,
            )
        known, delta, slides, kind = step
        found = known.get(movers)
        if found is not None:
            return found
        if len(movers) == 1 and slides:
            knight = movers[0]
            here = board0[knight]
            if delta is not None:
                target = here + delta
            elif kind == C.MINUS:
                target = minus_target(board0, knight)
            else:
                target = plus_target(board0, knight)
            move = (here, target)
            change = by_move.get(move, _UNSEEN)
            if change is _UNSEEN:
                change = by_move[move] = moved_one(here, target)
            if change is not None:
                products = products0.copy()
                for index, product in change[0]:
                    products[index] = product
                index = INDEX_OF[knight]
                products[index] = weight_list[index] * change[1]
                found = known[movers] = sum(products) + (
                    (1 if target != here and target in bunny_fields else 0) * BUNNY_WORTH
                )
                return found
        elif len(movers) == 2 and delta == 1 and movers[0] != movers[1]:
            first, second = movers
            here1 = board0[first]
            here2 = board0[second]
            target1 = here1 + 1
            target2 = here2 + 1
            move = (here1, here2) if here1 <= here2 else (here2, here1)
            change = by_pair.get(move, _UNSEEN)
            if change is _UNSEEN:
                change = by_pair[move] = moved_two(*move)
            if change is not None:
                products = products0.copy()
                for index, product in change[0]:
                    products[index] = product
                index = INDEX_OF[first]
                products[index] = weight_list[index] * change[1][target1]
                index = INDEX_OF[second]
                products[index] = weight_list[index] * change[1][target2]
                bunnies = (1 if target1 in bunny_fields else 0) + (
                    1 if target2 in bunny_fields and target2 != target1 else 0
                )
                found = sum(products) + (bunnies * BUNNY_WORTH)
            else:
                found = _outcome(decision, movers, delta, roll[die])
            # The same two knights in the other order land alike (only arrivals
            # at the castle take their spaces in order): the same score.
            known[movers] = found
            if max(target1, target2) <= C.LAST_FIELD:
                known[second, first] = found
            return found
        # Into the castle, a knight left alone with the dragon, anything else.
        found = known[movers] = _outcome(decision, movers, delta, roll[die])
        return found

    return score


def _expectations(level_at: dict[int, int], spaces: int, dragon: int) -> dict[int, float]:
    """``_board_values``' expectation per field, from the knights per field (a field
    left empty gets 0.0: no knight reads it)."""
    expected_at: dict[int, float] = {}
    ahead = spaces
    for field in sorted(level_at, reverse=True):
        level = level_at[field]
        if not level:
            expected_at[field] = 0.0
            continue
        expected_at[field] = (
            _IN_DANGER[ahead][level] if field - dragon <= DANGER_DISTANCE else _SAFE[ahead][level]
        )
        ahead += level
    return expected_at


def _outcome(decision: tuple, movers: tuple, delta: int | None, die_face) -> float:
    """Any action's score: its knights moved on a copy of the board, as ``predict`` does."""
    board0, level0, in_castle, spaces, dragon, lone_check, bunny_fields, weight_list = decision
    board = dict(board0)
    level_at = dict(level0)
    values = dict(in_castle)
    landed = []
    for knight in movers:
        here = board[knight]
        target = here + delta if delta is not None else destination(board, knight, die_face)
        if target > C.LAST_FIELD:
            del board[knight]
            level_at[here] -= 1
            values[knight] = C.CASTLE_POINTS[spaces] if spaces < len(C.CASTLE_POINTS) else 0.0
            spaces += 1
        elif target != here:
            board[knight] = target
            level_at[here] -= 1
            level_at[target] = level_at.get(target, 0) + 1
            landed.append(knight)
    bunnies = 0
    if landed:
        seen = set()
        for knight in landed:
            field = board.get(knight)
            if field in bunny_fields and field not in seen:
                seen.add(field)
                bunnies += 1
    if lone_check and level_at.get(dragon) == 1:
        for colour, field in board.items():
            if field == dragon:
                del board[colour]
                level_at[dragon] = 0
                break
    expected_at = _expectations(level_at, spaces, dragon)
    for colour, field in board.items():
        values[colour] = expected_at[field]
    return sum(
        [weight * values[colour] for weight, colour in zip(weight_list, C.COLOURS, strict=True)]
    ) + (bunnies * BUNNY_WORTH)


def _face_step(kind: str, n: int | None) -> tuple[tuple, int | None]:
    """A face's step, what ``predict`` reads of it (("n", fields) for a numbered
    face, else (kind,): two faces with one step move knights alike), and the
    fields it adds to a knight's (None: it looks for the nearest knight,
    ``destination``)."""
    if kind in C.NUMBERED_KINDS:
        return ("n", n), n
    return (kind,), 1 if kind == C.ONE_PLUS_ONE else None


#: ``_face_step`` of every face of the game's dice.
_FACE_STEPS = {
    (face.kind, face.n): _face_step(face.kind, face.n)
    for spec in C.DIE_SPECS.values()
    for face in spec.faces
}
#: The kinds whose knight goes to the next knight behind or ahead.
_SLIDES = frozenset({C.MINUS, C.PLUS})
#: Not worked out yet (``None`` is an answer: ``_outcome`` must score the move).
_UNSEEN = object()
#: Every colour's value when the castle is empty.
_NONE_IN_CASTLE = dict.fromkeys(C.COLOURS, 0.0)


@lru_cache(maxsize=1024)
def _weight_list(shield_ids: tuple[int, ...]) -> tuple[float, ...]:
    """``colour_weights`` in ``C.COLOURS`` order of the seat holding the shields
    numbered ``shield_ids`` (the view's, from 1), kept."""
    weights = dict(_colour_weights(tuple(C.SHIELDS[number - 1] for number in shield_ids)))
    return tuple(weights[colour] for colour in C.COLOURS)


def colour_weights(view: Mapping[str, Any]) -> dict[str, float]:
    """How much each colour's points matter to us: our own count minus an opponent's expectation.

    Our colours count once per shield occurrence (twice for the shared colour
    in a 2-player game). A colour on k of the shields we do not hold is held
    by an average opponent with probability k / (unseen shields), times the
    shields each opponent holds.
    """
    return dict(_colour_weights(tuple(tuple(shield) for shield in view["me"]["shields"])))


#: How many of the game's shields show each colour.
_SHIELDS_WITH = {colour: sum(colour in shield for shield in C.SHIELDS) for colour in C.COLOURS}


@lru_cache(maxsize=1024)
def _colour_weights(shields: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, float], ...]:
    """``colour_weights`` of the seat holding ``shields``, kept (a seat holds few sets)."""
    mine = {colour: 0 for colour in C.COLOURS}
    for shield in shields:
        for colour in shield:
            mine[colour] += 1
    held = len(shields)
    unseen = len(C.SHIELDS) - held
    weights = []
    for colour in C.COLOURS:
        shields_with_colour = _SHIELDS_WITH[colour]
        opponent = (shields_with_colour - mine[colour]) / unseen * held if unseen else 0.0
        weights.append((colour, mine[colour] - opponent))
    return tuple(weights)


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
    _board_values(board, len(castle), dragon, values)
    return values


def _board_values(
    board: Mapping[str, int], castle_spaces: int, dragon: int, values: dict[str, float]
) -> None:
    """``knight_values``' part for the knights on the board, written into ``values``."""
    # Knights on one field share their expectation: work it out once per field,
    # front field first, counting the knights ahead as we go (the strong
    # level's rollouts call this for every legal action of every move).
    level_at: dict[int, int] = {}
    for field in board.values():
        level_at[field] = level_at.get(field, 0) + 1
    expected_at: dict[int, float] = {}
    ahead = castle_spaces
    for field in sorted(level_at, reverse=True):
        level = level_at[field]
        expected = _shared_places(ahead, level)
        if field - dragon <= DANGER_DISTANCE:
            expected *= 1 - (LONE_DANGER if level == 1 else GROUP_DANGER)
        expected_at[field] = expected
        ahead += level
    for colour, field in board.items():
        values[colour] = expected_at[field]


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


#: ``_shared_places(ahead, level)`` by knights ahead (the castle's taken spaces
#: counted) and knights on the field: ``_expectations`` reads it for every field
#: of every action it scores. Enough places for any position: at most 4 castle
#: spaces and a fifth for the last knights, 7 knights, 2 of them moving in.
_AHEAD_MAX = 2 * len(C.COLOURS) + len(C.CASTLE_POINTS) + 1
_SAFE = [
    [_shared_places(ahead, level) if level else 0.0 for level in range(len(C.COLOURS) + 1)]
    for ahead in range(_AHEAD_MAX)
]
#: The same for a field within ``DANGER_DISTANCE`` of the dragon (the same product
#: as ``expected *= factor``, so the same number).
_IN_DANGER = [
    [
        expected * (_LONE_FACTOR if level == 1 else _GROUP_FACTOR)
        for level, expected in enumerate(row)
    ]
    for row in _SAFE
]


def score_action(view: Mapping[str, Any], action: Action, weights: Mapping[str, float]) -> float:
    """Weighted value of the predicted position, plus the bunnies the action rescues."""
    outcome = predict(view, action)
    values = knight_values(outcome["board"], outcome["castle"], view["dragon"])
    return sum(weights[colour] * values[colour] for colour in C.COLOURS) + (
        outcome["bunnies"] * BUNNY_WORTH
    )
