"""Seven Dragons bots: ``"random"`` and ``"heuristic"``, reading only the seat's view.

The heuristic values a grid by the seat's own goal colour's largest group
(seven wins) against the largest group of any other colour (the leader it
must not help), plays the card or action that improves that most, takes
bonus cards, zaps or moves cards that break the leader's group or join its
own, and takes the fullest hand on Trade Hands. It never sees other hands,
other goals or the deck: only ``view`` and ``legal_actions``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import (
    GAME,
    _resolve,
    bonus,
    components,
    frontier,
    largest_cover,
    parse_cell,
    placements,
    silver_colour,
    touching_colours,
)
from games.engine.base import Action, State
from games.engine.bots import choose_best, score_legal
from games.engine.rng import Rng


def _a_move_per_player(state: State) -> int:
    return len(state["hands"])


#: The strong level's search (games.engine.bots.SEARCH_DEFAULTS). The game is mostly luck
#: and a rollout to the end tells candidates apart poorly: each rollout looks as
#: many moves ahead as there are players (with two, the reply and the seat's next
#: move; with more, every rival's reply) and ``evaluate`` judges the sample,
#: whose hidden goals ``sample_secrets`` deals by their public trails. The
#: heuristic's best 8 are compared: it does not know the rivals' goals, so its
#: order is a poorer guide here. 192 rollouts a move keep a search well inside
#: one second of one core (docs/bots.md).
SEARCH = {"max_iterations": 192, "max_candidates": 8, "rollout_moves": _a_move_per_player}


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    return choose_best(GAME, state, seat, rng, level, _scorer)


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    return score_legal(GAME, state, seat, legal, _scorer)


#: ``evaluate``'s weights on ``evaluation_features``, by player count (more than
#: three: three's). Fitted to heuristic games by tests/load/seven_dragons_weights.py
#: (docs/bots.md): what the hands can lay next says more than the groups on the
#: table, and a win in the hand of the player to move is nearly certain.
EVALUATE_WEIGHTS = {2: (-0.092, 0.445, 5.11), 3: (-0.048, 0.175, 1.356)}


def evaluate(state: State, seat: int) -> float:
    """The seat's chances in an unfinished sample of the strong level's search
    (``SEARCH["rollout_moves"]``): a logistic of ``evaluation_features``. Reads a
    sample the search dealt from the seat's view, never the match's real hidden
    state."""
    weights = EVALUATE_WEIGHTS[min(len(state["hands"]), 3)]
    z = sum([w * x for w, x in zip(weights, evaluation_features(state, seat), strict=True)])
    return 1.0 / (1.0 + math.exp(-z))


def evaluation_features(state: State, seat: int) -> tuple[int, int, int]:
    """What ``evaluate`` weighs, the goals and hands as the sample deals them: the
    lead of the seat's goal colour's largest group over the best rival goal's;
    the lead of the largest group of its goal one dragon card of its hand could
    make over the best a rival could make so (``_Groups.reach``); and 1 when the
    seat is to move and its hand holds a win, -1 when the rival to move holds one."""
    n = len(state["hands"])
    groups = _groups_of(_board_key(state["board"]), silver_colour(state["pile"]))
    goals, hands = state["goals"], state["hands"]
    rivals = [other for other in range(n) if other != seat]
    lead = groups.largest[goals[seat]] - max([groups.largest[goals[o]] for o in rivals])
    reach = {player: groups.reach(hands[player], goals[player]) for player in range(n)}
    active = state["active"]
    win = 0
    if reach[active] >= C.WIN_SIZE:
        win = 1 if active == seat else -1
    return lead, reach[seat] - max([reach[o] for o in rivals]), win


def _grid(board: dict, silver: str) -> dict:
    return {
        parse_cell(key): tuple(_resolve(c, silver) for c in C.quadrants(card, rot))
        for key, (card, rot) in board.items()
    }


def _nodes(board: dict, silver: str) -> dict[str, set[tuple[int, int]]]:
    """Each colour's quadrant nodes on the board, wild quadrants in every colour's set."""
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
    return {colour: own.union(wild) for colour, own in nodes.items()}


def _largest_groups(board: dict, silver: str) -> dict[str, int]:
    """Each colour's largest connected group in cards (wild counts), as the rules'
    ``group_sizes`` counts it, for every colour in one pass over the board.

    Kept for the last few thousand boards: the strong bot's samples of one
    position share its board, so the same boards are scored again and again."""
    return dict(_largest_groups_of(_board_key(board), silver))


def _board_key(board: dict) -> frozenset:
    """A board (cell -> [card, rotation]) as a hashable value."""
    return frozenset((key, card, rot) for key, (card, rot) in board.items())


@lru_cache(maxsize=4096)
def _largest_groups_of(cards: frozenset, silver: str) -> tuple[tuple[str, int], ...]:
    board = {key: (card, rot) for key, card, rot in cards}
    return tuple((colour, largest_cover(own)) for colour, own in _nodes(board, silver).items())


@lru_cache(maxsize=128)
def _groups_of(cards: frozenset, silver: str) -> _Groups:
    """The ``_Groups`` of a board, kept (read only once built) for the same reason.
    Fewer are kept: each holds every colour's groups and its answers per
    placement (tens of kilobytes), and a search meets a few tens of boards
    again (the candidates' and the replies')."""
    return _Groups({key: (card, rot) for key, card, rot in cards}, silver)


def _shows(card: str, colour: str) -> bool:
    """Whether a dragon card has a panel of ``colour`` (the rainbow has every one)."""
    printed = C.quadrants(card)
    return colour in printed or C.RAINBOW in printed


class _Groups:
    """A board's groups by colour, kept so that the largest groups after laying one
    more card are found from the card's neighbours alone.

    The heuristic scores every legal placement (tens a move) by the groups it
    leaves, and the strong level's rollouts play the heuristic: recounting the
    whole board for each placement was nine tenths of a rollout. A new card
    only joins the groups it touches, so the largest group of a colour after
    it is the largest before, or a group through the new card.
    """

    def __init__(self, board: dict, silver: str):
        self.silver = silver
        #: colour -> node -> index of its group; colour -> the cells of each group.
        self.group_of: dict[str, dict[tuple[int, int], int]] = {}
        self.cells: dict[str, list[frozenset[tuple[int, int]]]] = {}
        self.largest: dict[str, int] = {}
        for colour, nodes in _nodes(board, silver).items():
            index: dict[tuple[int, int], int] = {}
            cells = []
            for i, group in enumerate(components(nodes)):
                for node in group:
                    index[node] = i
                cells.append(frozenset((qx >> 1, qy >> 1) for qx, qy in group))
            self.group_of[colour] = index
            self.cells[colour] = cells
            self.largest[colour] = max((len(c) for c in cells), default=0)
        #: with_card's answers, by (cell, card, rotation): a kept board meets the
        #: same placements again in the next sample.
        self.after: dict[tuple, dict[str, int]] = {}
        #: for ``reach``: the resolved grid, its frontier (built when first asked)
        #: and each card's best groups anywhere on it.
        self.grid = _grid(board, silver)
        self.spots: list | None = None
        self.reaches: dict[str, dict[str, int]] = {}

    def reach(self, hand: list[str], colour: str) -> int:
        """The largest group of ``colour`` one dragon card of ``hand`` could make
        (the group as it is when no card of the hand can be laid)."""
        best = self.largest[colour]
        for card in hand:
            # A card without the colour (or the rainbow) cannot grow its groups.
            if C.is_dragon(card) and _shows(card, colour):
                best = max(best, self._card_reach(card)[colour])
        return best

    def _card_reach(self, card: str) -> dict[str, int]:
        found = self.reaches.get(card)
        if found is None:
            if self.spots is None:
                grid = self.grid
                self.spots = [(cell, touching_colours(grid, cell)) for cell in frontier(grid)]
            found = dict(self.largest)
            for cell, rot in placements(self.grid, card, self.spots):
                for colour, size in self.with_card(cell, card, rot).items():
                    if size > found[colour]:
                        found[colour] = size
            self.reaches[card] = found
        return found

    def with_card(self, cell: tuple[int, int], card: str, rot: int) -> dict[str, int]:
        """Each colour's largest group once ``card`` is laid at the empty ``cell``
        (the caller must not change the dict: it is kept)."""
        found = self.after.get((cell, card, rot))
        if found is None:
            found = self.after[cell, card, rot] = self._with_card(cell, card, rot)
        return found

    def _with_card(self, cell: tuple[int, int], card: str, rot: int) -> dict[str, int]:
        x, y = cell
        left, top = 2 * x, 2 * y
        largest = dict(self.largest)
        for colour, pieces in _laid_pieces(card, rot, self.silver):
            index = self.group_of[colour]
            # Each piece of the card's panels of the colour joins the old groups
            # it touches, and pieces touching one group merge through it.
            merged: list[set[int]] = []
            for around in pieces:
                touched = set()
                for dx, dy in around:
                    group = index.get((left + dx, top + dy))
                    if group is not None:
                        touched.add(group)
                joined = set(touched)
                for other in [m for m in merged if m & touched]:
                    joined |= other
                    merged.remove(other)
                merged.append(joined)
            cells = self.cells[colour]
            for groups in merged:
                covered = {cell}
                for i in groups:
                    covered |= cells[i]
                largest[colour] = max(largest[colour], len(covered))
        return largest


@lru_cache(maxsize=1024)
def _laid_pieces(card: str, rot: int, silver: str) -> tuple[tuple[str, tuple], ...]:
    """For each colour a card laid so shows (a wild panel in every colour), its
    pieces: the panels of the colour joined inside the card, each as the
    quadrant nodes next to it outside the card, as offsets from the card's
    first node (``_with_card`` asks for every placement it scores, and the
    pieces are the same wherever the card lies)."""
    laid = [_resolve(printed, silver) for printed in C.quadrants(card, rot)]
    found = []
    for colour in C.COLOURS:
        own = {
            (q & 1, q >> 1) for q, value in enumerate(laid) if value == colour or value == C.WILD
        }
        pieces = []
        for piece in components(own):
            around = {
                (nx, ny)
                for qx, qy in piece
                for nx, ny in ((qx + 1, qy), (qx - 1, qy), (qx, qy + 1), (qx, qy - 1))
                if not (0 <= nx <= 1 and 0 <= ny <= 1)
            }
            pieces.append(tuple(sorted(around)))
        if pieces:
            found.append((colour, tuple(pieces)))
    return tuple(found)


def _worth(board: dict, silver: str, goal: str) -> float:
    """How good a grid is for a seat owning ``goal``: its group, minus the best other group."""
    return _value(_largest_groups(board, silver), goal)


def _value(largest: dict[str, int], goal: str) -> float:
    """``_worth`` from each colour's largest group."""
    mine = largest.get(goal, 0)
    other = max([size for colour, size in largest.items() if colour != goal])
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
    pending = view["pending"] or {}
    hand_counts = view["hand_counts"]
    me = view["viewer"]
    # Built on the first placement scored: most decisions score tens of them.
    kept: dict[str, Any] = {}
    # The board's worth with one card taken off (or none), by the silver dragon's
    # colour: several action cards and modes ask for the same one.
    worths: dict[tuple[str | None, str], float] = {}

    def worth_without(cell: str | None, colour: str) -> float:
        found = worths.get((cell, colour))
        if found is None:
            rest = board if cell is None else {k: v for k, v in board.items() if k != cell}
            found = worths[cell, colour] = _worth(rest, colour, goal)
        return found

    base = worth_without(None, silver)

    def placed(card: str, cell: str, rot: int) -> float:
        if not kept:
            kept["groups"] = _groups_of(_board_key(board), silver)
            kept["grid"] = kept["groups"].grid
        where = parse_cell(cell)
        worth = _value(kept["groups"].with_card(where, card, rot), goal)
        return worth + 1.5 * bonus(kept["grid"], where, C.quadrants(card, rot))

    def with_card(card: str, cell: str, rot: int, without: str | None = None) -> float:
        new = {k: v for k, v in board.items() if k != without}
        new[cell] = [card, rot]
        return _worth(new, silver, goal)

    def score(action: Action) -> float:
        kind = action["type"]
        if kind == "place":
            # The gain, and a little for each extra card the placement earns.
            return placed(action["card"], action["cell"], action["rot"]) - base
        if kind == "action":
            card_kind = C.ACTIONS[action["card"]]
            colour = C.ACTION_COLOURS[card_kind]
            if action["mode"] == "top_no_effect":
                return worth_without(None, colour) - base - 6
            after = colour if action["mode"] == "top" or not view["pile"] else silver
            if card_kind == C.ZAP:
                # The zap comes first, then the silver dragon's new colour.
                return (
                    2 + max([worth_without(cell, after) for cell in board if cell != "0,0"]) - base
                )
            effect = {C.MOVE: 3, C.TRADE_HANDS: 0, C.ROTATE: -2, C.TRADE_GOALS: -2}
            if card_kind == C.TRADE_HANDS:
                effect[C.TRADE_HANDS] = 2 * (max(hand_counts) - (hand_counts[me] - 1))
            return worth_without(None, after) - base + effect[card_kind] - 1
        if kind in ("zap", "lift"):
            return worth_without(action["cell"], silver) - base
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
