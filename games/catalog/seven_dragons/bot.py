"""Seven Dragons bots: ``"random"`` and ``"heuristic"``, reading only the seat's view.

The heuristic values a grid by the seat's own goal colour's largest group
(seven wins) against the largest group of any other colour (the leader it
must not help), plays the card or action that improves that most, takes
bonus cards, zaps or moves cards that break the leader's group or join its
own, and takes the fullest hand on Trade Hands. It never sees other hands,
other goals or the deck: only ``view`` and ``legal_actions``.
"""

from __future__ import annotations

from typing import Any

from games.bots import choose_best, score_legal
from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import (
    GAME,
    _resolve,
    bonus,
    parse_cell,
    silver_colour,
)
from games.engine.base import Action, State
from games.engine.rng import Rng

#: The strong level's search (games.bots.SEARCH_DEFAULTS): Seven Dragons' rollouts,
#: about 5 a second of one core, so at most 4 a move keeps a search inside one
#: second (docs/bots.md).
SEARCH = {"max_iterations": 4}


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    return choose_best(GAME, state, seat, rng, level, _scorer)


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    return score_legal(GAME, state, seat, legal, _scorer)


def _grid(board: dict, silver: str) -> dict:
    return {
        parse_cell(key): tuple(_resolve(c, silver) for c in C.quadrants(card, rot))
        for key, (card, rot) in board.items()
    }


def _largest_groups(board: dict, silver: str) -> dict[str, int]:
    """Each colour's largest connected group in cards (wild counts), as the rules'
    ``group_sizes`` counts it, for every colour in one pass over the board.

    The heuristic values every legal action by the groups it leaves, so this
    is the rollouts' hot path: reading the board once, not once a colour,
    makes the strong level's rollouts several times faster.
    """
    nodes: dict[str, set[tuple[int, int]]] = {colour: set() for colour in C.COLOURS}
    wild: list[tuple[int, int]] = []
    for key, (card, rot) in board.items():
        x, y = parse_cell(key)
        for q, printed in enumerate(C.quadrants(card, rot)):
            colour = _resolve(printed, silver)
            node = (2 * x + (q & 1), 2 * y + (q >> 1))
            if colour == C.WILD:
                wild.append(node)
            elif colour in nodes:
                nodes[colour].add(node)
    return {colour: _largest_group(own.union(wild)) for colour, own in nodes.items()}


def _largest_group(nodes: set[tuple[int, int]]) -> int:
    """The most cards any 4-connected group of quadrant ``nodes`` covers."""
    best = 0
    seen: set[tuple[int, int]] = set()
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        cells = set()
        stack = [start]
        while stack:
            qx, qy = stack.pop()
            cells.add((qx >> 1, qy >> 1))
            for nxt in ((qx + 1, qy), (qx - 1, qy), (qx, qy + 1), (qx, qy - 1)):
                if nxt in nodes and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        best = max(best, len(cells))
    return best


def _worth(board: dict, silver: str, goal: str) -> float:
    """How good a grid is for a seat owning ``goal``: its group, minus the best other group."""
    largest = _largest_groups(board, silver)
    mine = largest.get(goal, 0)
    other = max(size for colour, size in largest.items() if colour != goal)
    score = 10.0 * mine - 4.0 * other
    if mine >= C.WIN_SIZE:
        score += 1000
    if other >= C.WIN_SIZE - 1:
        score -= 40
    return score


def _scorer(view: dict[str, Any]):
    goal = view["my_goal"]
    board = view["board"]
    silver = silver_colour(view["pile"])
    base = _worth(board, silver, goal)
    pending = view["pending"] or {}
    hand_counts = view["hand_counts"]
    me = view["viewer"]

    def with_card(card: str, cell: str, rot: int, without: str | None = None) -> float:
        new = {k: v for k, v in board.items() if k != without}
        new[cell] = [card, rot]
        return _worth(new, silver, goal)

    def score(action: Action) -> float:
        kind = action["type"]
        if kind == "place":
            gain = with_card(action["card"], action["cell"], action["rot"]) - base
            return gain + _bonus_hint(board, silver, action)
        if kind == "action":
            card_kind = C.ACTIONS[action["card"]]
            colour = C.ACTION_COLOURS[card_kind]
            if action["mode"] == "top_no_effect":
                return _worth(board, colour, goal) - base - 6
            after = colour if action["mode"] == "top" or not view["pile"] else silver
            if card_kind == C.ZAP:
                # The zap comes first, then the silver dragon's new colour.
                return (
                    2
                    + max(
                        _worth({k: v for k, v in board.items() if k != cell}, after, goal)
                        for cell in board
                        if cell != "0,0"
                    )
                    - base
                )
            effect = {C.MOVE: 3, C.TRADE_HANDS: 0, C.ROTATE: -2, C.TRADE_GOALS: -2}
            if card_kind == C.TRADE_HANDS:
                effect[C.TRADE_HANDS] = 2 * (max(hand_counts) - (hand_counts[me] - 1))
            return _worth(board, after, goal) - base + effect[card_kind] - 1
        if kind == "zap":
            new = {k: v for k, v in board.items() if k != action["cell"]}
            return _worth(new, silver, goal) - base
        if kind == "lift":
            new = {k: v for k, v in board.items() if k != action["cell"]}
            return _worth(new, silver, goal) - base
        if kind == "drop":
            card = board[pending["from"]][0]
            return with_card(card, action["cell"], action["rot"], without=pending["from"]) - base
        if kind == "trade_hands":
            return hand_counts[action["with"]]
        if kind == "trade_goals":
            # The other goals are unknown: a goal set aside is nobody's, so taking it
            # costs no rival anything it would notice.
            return 1 if action["with"] >= view["n_players"] else 0
        return 0  # rotate, pass

    return score


def _bonus_hint(board: dict, silver: str, action: Action) -> float:
    """A little for each extra card the placement earns (more cards, more choices)."""
    grid = _grid(board, silver)
    return 1.5 * bonus(grid, parse_cell(action["cell"]), C.quadrants(action["card"], action["rot"]))
