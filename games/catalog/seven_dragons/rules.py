"""Pure rules of Seven Dragons (Andrew Looney; Czech edition Sedm draků).

The authoritative spec is ``shared/rules/seven_dragons.md``; A-x and C-x in
the docstrings refer to it. The state, action and event schemas and Smoki's
own rulings are in ``docs/rules/seven_dragons.md``. This module must not
import Django.

A turn is a draw (done by the rules when the turn begins) and one play: a
dragon card placed on the grid, an action card played in one of three modes,
or a forced pass. An action played for its effect opens a *pending decision*
of the same seat (which card to zap, which card to lift and where to drop it,
which way the goals turn, whose goal or hand to take); ``legal_actions``
offers its answers.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from games.catalog.seven_dragons import components as C
from games.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    Result,
    State,
    resolve_options,
)
from games.engine.i18n import _
from games.engine.rng import Rng, choose_by_log_weight
from games.engine.state import clone

# Modes of an action card (A.7).
TOP = "top"
TOP_NO_EFFECT = "top_no_effect"
BOTTOM = "bottom"
MODES = (TOP, TOP_NO_EFFECT, BOTTOM)

# Pending decision kinds: one per action, and the second step of a move.
P_MOVE_TO = "move_to"

CLOCKWISE = "clockwise"
COUNTER = "counterclockwise"

# End reasons.
SEVEN = "seven"
EXHAUSTED = "exhausted"

ORIGIN = "0,0"
#: (dx, dy, [(quadrant of the new card, quadrant of the neighbour)]) — spec A.11 ``touching``.
SIDES = (
    (1, 0, ((1, 0), (3, 2))),
    (-1, 0, ((0, 1), (2, 3))),
    (0, 1, ((2, 0), (3, 1))),
    (0, -1, ((0, 2), (1, 3))),
)


# Cells and quadrants ------------------------------------------------------------------------


def cell_key(x: int, y: int) -> str:
    return f"{x},{y}"


@lru_cache(maxsize=4096)
def parse_cell(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


def silver_colour(pile: list[str]) -> str:
    """What the silver dragon counts as: wild on an empty pile, else the top card's colour."""
    return C.ACTION_COLOURS[C.ACTIONS[pile[-1]]] if pile else C.WILD


def _resolve(colour: str, silver: str) -> str:
    if colour == C.RAINBOW:
        return C.WILD
    if colour == C.SILVER:
        return silver
    return colour


_RAINBOW_LAID = (C.WILD,) * 4


def resolved_board(
    board: dict[str, list], pile: list[str], without: str | None = None
) -> dict[tuple[int, int], tuple[str, ...]]:
    """Every card's four resolved colours by cell (``without`` lifted off, for a Move)."""
    silver = (silver_colour(pile),) * 4
    grid = {}
    for key, (card, rot) in board.items():
        if key == without:
            continue
        if card == C.SILVER_CARD:
            grid[parse_cell(key)] = silver
        elif card == C.RAINBOW_CARD:
            grid[parse_cell(key)] = _RAINBOW_LAID
        else:
            grid[parse_cell(key)] = C.quadrants(card, rot)
    return grid


def _matches(a: str, b: str) -> bool:
    return a == C.WILD or b == C.WILD or a == b


def frontier(grid: dict[tuple[int, int], tuple[str, ...]]) -> list[tuple[int, int]]:
    """Empty cells orthogonally next to a card, in a stable order."""
    spots = {
        (x + dx, y + dy)
        for (x, y) in grid
        for dx, dy, _pairs in SIDES
        if (x + dx, y + dy) not in grid
    }
    return sorted(spots, key=lambda p: (p[1], p[0]))


def placement_ok(grid: dict, cell: tuple[int, int], quads: tuple[str, ...]) -> bool:
    """A.4: ``cell`` empty, next to a card, and some touching pair of quadrants matches."""
    if cell in grid:
        return False
    x, y = cell
    own = [C.WILD if q == C.RAINBOW else q for q in quads]
    for dx, dy, pairs in SIDES:
        other = grid.get((x + dx, y + dy))
        if other is None:
            continue
        for mine, theirs in pairs:
            if _matches(own[mine], other[theirs]):
                return True
    return False


def bonus(grid: dict, cell: tuple[int, int], quads: tuple[str, ...]) -> int:
    """A.6: one card per colour connected beyond the first (rainbow and wild never count)."""
    x, y = cell
    colours = set()
    for dx, dy, pairs in SIDES:
        other = grid.get((x + dx, y + dy))
        if other is None:
            continue
        for mine, theirs in pairs:
            colour = quads[mine]
            if colour != C.RAINBOW and other[theirs] != C.WILD and colour == other[theirs]:
                colours.add(colour)
    return max(0, len(colours) - 1)


def orientations(card: str) -> tuple[int, ...]:
    """The distinct orientations of a card (0 only when turning it changes nothing)."""
    quads = C.quadrants(card, 0)
    return (0,) if C.rotate180(quads) == quads else (0, 180)


def touching_colours(grid: dict, cell: tuple[int, int]) -> tuple[set[str], ...]:
    """For each quadrant of a card laid at ``cell``: the resolved colours it would touch."""
    x, y = cell
    needs: tuple[set[str], ...] = (set(), set(), set(), set())
    for dx, dy, pairs in SIDES:
        other = grid.get((x + dx, y + dy))
        if other is not None:
            for mine, theirs in pairs:
                needs[mine].add(other[theirs])
    return needs


def placements(
    grid: dict, card: str, spots: list | None = None
) -> list[tuple[tuple[int, int], int]]:
    """Every legal (cell, rotation) for ``card`` on ``grid`` (A.4).

    ``spots`` may give the frontier with each cell's ``touching_colours``, when
    several cards are tried on one grid.
    """
    if spots is None:
        spots = [(cell, touching_colours(grid, cell)) for cell in frontier(grid)]
    found = []
    laid = [(rot, C.quadrants(card, rot)) for rot in orientations(card)]
    rainbow, wild = C.RAINBOW, C.WILD
    for cell, (touched0, touched1, touched2, touched3) in spots:
        for rot, (own0, own1, own2, own3) in laid:
            # Some quadrant touches a match: a rainbow panel, a wild one, the same colour.
            if (
                (touched0 and (own0 == rainbow or wild in touched0 or own0 in touched0))
                or (touched1 and (own1 == rainbow or wild in touched1 or own1 in touched1))
                or (touched2 and (own2 == rainbow or wild in touched2 or own2 in touched2))
                or (touched3 and (own3 == rainbow or wild in touched3 or own3 in touched3))
            ):
                found.append((cell, rot))
    return found


def group_sizes(grid: dict, colour: str) -> list[int]:
    """A.9: the size in cards of every connected group of ``colour`` (wild counts), largest first."""
    nodes = set()
    for (x, y), quads in grid.items():
        for q, value in enumerate(quads):
            if value == colour or value == C.WILD:
                nodes.add((2 * x + (q & 1), 2 * y + (q >> 1)))
    sizes = [len({(qx >> 1, qy >> 1) for qx, qy in group}) for group in components(nodes)]
    return sorted(sizes, reverse=True)


def largest_groups(grid: dict) -> dict[str, int]:
    """Each colour's largest group in cards (wild counts), as ``group_sizes`` counts it,
    for every colour in one pass over the grid (views, trails and bots ask often).

    Kept for the last few thousand grids: the strong bot's samples of one
    position share its board, and every placement's trail asks for the board
    before and after it, so most grids come again."""
    return dict(_largest_groups_of(frozenset(grid.items())))


@lru_cache(maxsize=4096)
def _largest_groups_of(cells: frozenset) -> tuple[tuple[str, int], ...]:
    """``largest_groups`` of the grid whose (cell, resolved quadrants) are ``cells``."""
    nodes: dict[str, set[tuple[int, int]]] = {colour: set() for colour in C.COLOURS}
    wild: list[tuple[int, int]] = []
    for (x, y), quads in cells:
        for q, value in enumerate(quads):
            node = (2 * x + (q & 1), 2 * y + (q >> 1))
            if value == C.WILD:
                wild.append(node)
            elif value in nodes:
                nodes[value].add(node)
    return tuple((colour, largest_cover(own.union(wild))) for colour, own in nodes.items())


def components(nodes: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """The 4-connected groups of quadrant ``nodes``, each as its set of nodes (in no
    particular order: every caller counts or indexes them)."""
    groups = []
    left = set(nodes)
    while left:
        start = left.pop()
        group = {start}
        stack = [start]
        while stack:
            qx, qy = stack.pop()
            for nxt in ((qx + 1, qy), (qx - 1, qy), (qx, qy + 1), (qx, qy - 1)):
                if nxt in left:
                    left.remove(nxt)
                    group.add(nxt)
                    stack.append(nxt)
        groups.append(group)
    return groups


def largest_cover(nodes: set[tuple[int, int]]) -> int:
    """The most cards any 4-connected group of quadrant ``nodes`` covers."""
    return max((len({(qx >> 1, qy >> 1) for qx, qy in g}) for g in components(nodes)), default=0)


# The game -----------------------------------------------------------------------------------


class SevenDragonsGame(Game):
    """The ``seven_dragons`` game object: see ``games.engine.base.Game`` for the contract."""

    key = "seven_dragons"
    title = _("Seven Dragons")
    #: 2: the state keeps each goal's public ``trails`` (``record_trail``), which
    #: the strong bot reads; the rules of play are those of version 1.
    rules_version = 2
    #: Matches set up under these versions keep playing and replaying as then.
    old_rules_versions: tuple[int, ...] = (1,)
    min_players = 2
    max_players = 5
    options = [
        Option(
            key="first",
            label=_("Who starts"),
            choices=[("seat1", _("Seat 1")), ("random", _("Drawn at random"))],
            default="seat1",
            help=_("The rulebook lets the oldest player start; here seat 1 or a random seat."),
        ),
        Option(
            key="bonus_on_move",
            label=_("Bonus cards for a moved card"),
            choices=[(True, _("On")), (False, _("Off"))],
            default=True,
            help=_(
                "Whether a card re-placed by Move a Card earns extra cards for connecting "
                "to several colours, like a card played from the hand."
            ),
        ),
    ]

    def demo_setup(self) -> tuple[int, dict[str, Any]]:
        return 3, {}

    # Setup ----------------------------------------------------------------------------------

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        return self.setup_for(self.rules_version, n_players, options, seed)

    def setup_for(
        self, rules_version: int, n_players: int, options: dict[str, Any], seed: str
    ) -> State:
        """A.2: silver in the middle, goals dealt, 3 cards each, the first player draws.

        From rules version 2 on the state also keeps the goals' ``trails``."""
        if (
            not isinstance(n_players, int)
            or isinstance(n_players, bool)
            or not self.min_players <= n_players <= self.max_players
        ):
            raise IllegalAction(_("Seven Dragons is a game for 2 to 5 players."))
        options = resolve_options(self, options)
        rng = Rng.from_seed(seed)
        first = 0 if options["first"] == "seat1" else rng.below(n_players)
        goals = rng.shuffled(list(C.COLOURS))
        deck = rng.shuffled(list(C.DECK))
        hands = [[deck.pop() for _ in range(C.HAND_SIZE)] for _seat in range(n_players)]
        state = new_state(
            options=options,
            hands=hands,
            goals=goals,
            deck=deck,
            board={},
            pile=[],
            active=first,
            trails=rules_version >= 2,
        )
        state["rng"] = rng.dump()
        _begin_turn(state, first, [])
        return state

    def opening_events(self, state: State) -> list[Event]:
        """The deal, each seat's goal (private), the goals set aside and the first draw."""
        n = len(state["hands"])
        first = state["active"]
        events: list[Event] = []
        for seat in range(n):
            hand = state["hands"][seat]
            dealt = hand[: C.HAND_SIZE]
            events.append({"type": "dealt", "seat": seat, "count": len(dealt)})
            events.append({"type": "your_cards", "seat": seat, "cards": dealt, "private_to": seat})
            events.append(
                {
                    "type": "your_goal",
                    "seat": seat,
                    "colour": state["goals"][seat],
                    "private_to": seat,
                }
            )
        if n < C.GOAL_SEATS:
            events.append({"type": "goals_aside", "count": C.GOAL_SEATS - n})
        drawn = state["hands"][first][C.HAND_SIZE :]
        events.append({"type": "drew", "seat": first})
        for card in drawn:
            events.append({"type": "drew_card", "seat": first, "card": card, "private_to": first})
        return events

    # Queries --------------------------------------------------------------------------------

    def current_seats(self, state: State) -> list[int]:
        return [] if state["over"] else [state["active"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or seat != state["active"] or isinstance(seat, bool):
            return []
        pending = state["pending"]
        if pending:
            return _pending_actions(state, pending)
        return _turn_actions(state, seat)

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        n = len(state["hands"])
        winners = set(state["winners"])
        grid = resolved_board(state["board"], state["pile"])
        largest = largest_groups(grid)
        scores = [largest[state["goals"][seat]] for seat in range(n)]
        ranks = [1 if seat in winners else 2 for seat in range(n)]
        return Result(
            ranks=ranks,
            scores=scores,
            details={"end_reason": state["end_reason"], "goals": list(state["goals"])},
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Public: grid, pile, counts, largest groups. Own hand and goal only to its seat."""
        n = len(state["hands"])
        mine = (
            seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n else None
        )
        grid = resolved_board(state["board"], state["pile"])
        view: dict[str, Any] = {
            "game": self.key,
            "viewer": mine,
            "n_players": n,
            "options": dict(state["options"]),
            "board": {key: list(value) for key, value in state["board"].items()},
            "silver": silver_colour(state["pile"]),
            "pile": list(state["pile"]),
            "deck_count": len(state["deck"]),
            "hand_counts": [len(hand) for hand in state["hands"]],
            "imaginary": C.GOAL_SEATS - n,
            "largest": largest_groups(grid),
            "active": None if state["over"] else state["active"],
            "pending": clone(state["pending"]),
            "turn": state["turn"],
            "over": state["over"],
            "winners": list(state["winners"]),
            "end_reason": state["end_reason"],
            "my_hand": sorted(state["hands"][mine]) if mine is not None else None,
            "my_goal": state["goals"][mine] if mine is not None else None,
            # Public: the colours each goal's holders grew (``record_trail``).
            "trails": [list(t) for t in state["trails"]] if "trails" in state else None,
            "revealed": None,
        }
        if state["over"]:
            view["revealed"] = {
                "goals": list(state["goals"]),
                "hands": [sorted(hand) for hand in state["hands"]],
            }
        return view

    def perturb_secrets(self, state: State, seat: int | None, rng: Any) -> State:
        """Reshuffle other hands with the deck, permute the goals ``seat`` does not hold, new PRNG.

        Counts stay. Once the game is over hands and goals are revealed and
        only the deck's order stays secret.
        """
        new = clone(state)
        n = len(state["hands"])
        if state["over"]:
            new["deck"] = rng.shuffled(new["deck"])
        else:
            others = [s for s in range(n) if s != seat]
            pool = rng.shuffled([c for s in others for c in new["hands"][s]] + new["deck"])
            for s in others:
                count = len(new["hands"][s])
                new["hands"][s], pool = pool[:count], pool[count:]
            new["deck"] = pool
            hidden = [g for g in range(C.GOAL_SEATS) if g != seat]
            colours = [new["goals"][g] for g in hidden]
            for _attempt in range(20):
                shuffled = rng.shuffled(colours)
                if shuffled != colours:
                    break
            for g, colour in zip(hidden, shuffled, strict=True):
                new["goals"][g] = colour
        new["rng"] = f"{rng.next64():016x}"
        return new

    def sample_secrets(self, state: State, seat: int, rng: Any) -> State:
        """Deal the other hands and the deck anew from the sorted unseen cards, deal
        the goals ``seat`` does not hold anew, new PRNG.

        The goals are drawn among every order of them that leaves no player a
        colour already seven strong, each order as likely as the goals' public
        trails make it (``record_trail``, ``TRAIL_WEIGHT``): a player who keeps
        growing blue likely holds blue. Without trails (rules version 1) every
        such order is alike."""
        new = clone(state)
        n = len(state["hands"])
        if state["over"]:
            new["deck"] = rng.shuffled(sorted(new["deck"]))
        else:
            others = [s for s in range(n) if s != seat]
            pool = rng.shuffled(sorted([c for s in others for c in new["hands"][s]] + new["deck"]))
            for s in others:
                count = len(new["hands"][s])
                new["hands"][s], pool = pool[:count], pool[count:]
            new["deck"] = pool
            hidden = [g for g in range(C.GOAL_SEATS) if g != seat]
            colours = sorted(new["goals"][g] for g in hidden)
            # A seat whose colour has seven connected panels would have won:
            # no other seat holds such a colour (while nothing is pending).
            largest = (
                {}
                if state["pending"]
                else largest_groups(resolved_board(state["board"], state["pile"]))
            )
            allowed = [
                dealt
                for dealt in itertools.permutations(colours)
                if all(
                    largest.get(colour, 0) < C.WIN_SIZE
                    for g, colour in zip(hidden, dealt, strict=True)
                    if g < n
                )
            ] or list(itertools.permutations(colours))
            chosen = choose_by_log_weight(
                allowed, [_log_likelihood(state.get("trails"), hidden, d) for d in allowed], rng
            )
            dealt = dict(zip(hidden, chosen, strict=True))
            for g in hidden:
                new["goals"][g] = dealt[g]
        new["rng"] = f"{rng.next64():016x}"
        return new

    # Acting ---------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def is_legal(self, state: State, seat: int, action: Any) -> bool:
        return _is_legal(state, seat, action)

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        message, params = _why_illegal(state, seat, action)
        return IllegalAction(message, **params)

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def resolve(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        _act(state, seat, action, events)
        return events

    def check_invariants(self, state: State) -> None:
        check_position(state)


GAME = SevenDragonsGame()


# State construction -------------------------------------------------------------------------


def new_state(
    *,
    options: dict[str, Any],
    hands: list[list[str]],
    goals: list[str],
    deck: list[str],
    board: dict[str, list],
    pile: list[str],
    active: int,
    trails: bool = True,
) -> State:
    """The one place that lists every state key (documented in docs/rules/seven_dragons.md).

    ``trails``: False for a match of rules version 1, whose states never had them."""
    state = {
        "options": dict(options),
        "rng": "",
        "board": {ORIGIN: [C.SILVER_CARD, 0], **{k: list(v) for k, v in board.items()}},
        "deck": list(deck),
        "hands": [list(hand) for hand in hands],
        "goals": list(goals),
        "pile": list(pile),
        "active": active,
        "pending": None,
        "passes": 0,
        "turn": 0,
        "over": False,
        "winners": [],
        "end_reason": None,
    }
    if trails:
        state["trails"] = [[0] * len(C.COLOURS) for _goal in range(C.GOAL_SEATS)]
    return state


#: The state's keys (``new_state``), each copied by its shape in ``copy_state``.
_SCHEMA_KEYS = frozenset(
    {
        "options", "rng", "board", "deck", "hands", "goals", "pile", "active", "pending",
        "passes", "turn", "over", "winners", "end_reason",
    }
)  # fmt: skip
#: The keys of a state of rules version 2 on (the trails).
_SCHEMA_KEYS_TRAILS = _SCHEMA_KEYS | {"trails"}


def copy_state(state: State) -> State:
    """A deep copy of a Seven Dragons state, shaped by its schema: the same result
    as the generic ``clone``, faster (every move of every rollout of the strong
    bot copies the state). A state with other keys gets the generic copy."""
    keys = state.keys()
    if keys != _SCHEMA_KEYS_TRAILS and keys != _SCHEMA_KEYS:
        return clone(state)
    new = dict(state)  # the scalars
    new["options"] = dict(state["options"])  # each option's value is one of its choices
    new["board"] = {key: list(placed) for key, placed in state["board"].items()}
    new["deck"] = list(state["deck"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["goals"] = list(state["goals"])
    new["pile"] = list(state["pile"])
    new["pending"] = clone(state["pending"])
    new["winners"] = list(state["winners"])
    if "trails" in state:
        new["trails"] = [list(trail) for trail in state["trails"]]
    return new


def record_trail(state: State, seat: int, grid: dict, key: str, card: str, rot: int) -> None:
    """``seat`` lays ``card`` at ``key`` on ``grid`` (the resolved board without it):
    count each colour whose largest group it grows on the trail of the goal the
    seat holds now.

    Public knowledge, kept for the strong bot: every player sees who laid which
    card and how the goals moved, and a goal's trail is the colours its holders
    chose to grow. The trails move with the goals (``_rotate_goals``,
    ``_trade_goals``), so what a player built while holding a goal keeps telling
    of that goal. ``sample_secrets`` reads them to guess the hidden goals."""
    if "trails" not in state:
        return
    silver = silver_colour(state["pile"])
    before = largest_groups(grid)
    after = largest_groups(
        {**grid, parse_cell(key): tuple(_resolve(q, silver) for q in C.quadrants(card, rot))}
    )
    trail = state["trails"][seat]
    for index, colour in enumerate(C.COLOURS):
        if after[colour] > before[colour]:
            trail[index] += 1


def check_position(state: State) -> None:
    """Invariants that hold at every moment (the harness calls this after every step)."""
    cards = list(state["deck"]) + list(state["pile"])
    cards += [c for hand in state["hands"] for c in hand]
    cards += [card for card, _rot in state["board"].values()]
    if state["pending"]:
        cards.append(state["pending"]["card"])
    assert sorted(cards) == sorted([*C.DECK, C.SILVER_CARD]), "cards not conserved"
    assert state["board"].get(ORIGIN, [None])[0] == C.SILVER_CARD, "the silver dragon moved"
    assert all(C.is_action(c) for c in state["pile"]), "a dragon card in the action pile"
    assert sorted(state["goals"]) == sorted(C.COLOURS), "goals not conserved"
    if "trails" in state:
        assert len(state["trails"]) == C.GOAL_SEATS, "a trail per goal"
        assert all(len(t) == len(C.COLOURS) and min(t) >= 0 for t in state["trails"])
    for key, (card, rot) in state["board"].items():
        assert rot in (0, 180) and (card == C.SILVER_CARD or C.is_dragon(card)), key
    n = len(state["hands"])
    if state["over"]:
        assert state["pending"] is None and state["end_reason"] in (SEVEN, EXHAUSTED)
        return
    assert not state["winners"], "winners before the end"
    grid = resolved_board(state["board"], state["pile"])
    largest = largest_groups(grid)
    if not state["pending"]:
        for seat in range(n):
            assert largest[state["goals"][seat]] < C.WIN_SIZE, "a completed goal went unnoticed"
    assert 0 <= state["active"] < n


#: How strongly a goal's trail points to its colour when the strong bot guesses the
#: hidden goals: each time a holder of the goal grew colour c's largest group makes
#: c e to this power times likelier (0 would ignore the trails). Against players
#: who build their own colour, 3 puts about 0.8 of the chance on the right goal by
#: the middle of a game (the 1/4 of a blind guess at the start).
TRAIL_WEIGHT = 3.0


def _log_likelihood(trails: list[list[int]] | None, hidden: list[int], dealt: tuple) -> float:
    """How likely the trails make this deal of the hidden goals, as a logarithm
    (0 without trails: every deal alike)."""
    if trails is None:
        return 0.0
    return TRAIL_WEIGHT * sum(
        trails[g][C.COLOURS.index(colour)] for g, colour in zip(hidden, dealt, strict=True)
    )


# Legal actions ------------------------------------------------------------------------------


def _first_copies(hand: list[str]) -> list[str]:
    """One card per identical kind (two red dragons or three Zaps play the same way)."""
    seen: dict[str, str] = {}
    for card in sorted(hand):
        kind = C.ACTIONS.get(card) or C.quadrants(card, 0)
        seen.setdefault(str(kind), card)
    return sorted(seen.values())


def _turn_actions(state: State, seat: int) -> list[Action]:
    grid = resolved_board(state["board"], state["pile"])
    spots = [(cell, touching_colours(grid, cell)) for cell in frontier(grid)]
    actions: list[Action] = []
    effect_possible: dict[str, bool] = {}
    for card in _first_copies(state["hands"][seat]):
        if C.is_dragon(card):
            for (x, y), rot in placements(grid, card, spots):
                actions.append({"type": "place", "card": card, "cell": cell_key(x, y), "rot": rot})
            continue
        kind = C.ACTIONS[card]
        if kind not in effect_possible:
            effect_possible[kind] = _effect_possible(state, kind)
        modes = MODES if effect_possible[kind] else (TOP_NO_EFFECT,)
        actions += [{"type": "action", "card": card, "mode": mode} for mode in modes]
    return actions or [{"type": "pass"}]


def _is_legal(state: State, seat: int, action: Any) -> bool:
    """``action in legal_actions(...)``, with a quick path for the commonest play."""
    if (
        isinstance(action, dict)
        and action.get("type") == "place"
        and not state["pending"]
        and set(action) == {"type", "card", "cell", "rot"}
    ):
        card, key, rot = action["card"], action["cell"], action["rot"]
        if card not in state["hands"][seat] or not C.is_dragon(card):
            return False
        if card not in _first_copies(state["hands"][seat]):
            return False
        if type(rot) is not int or rot not in orientations(card) or not isinstance(key, str):
            return False
        try:
            cell = parse_cell(key)
        except ValueError:
            return False
        if cell_key(*cell) != key:
            return False
        grid = resolved_board(state["board"], state["pile"])
        return placement_ok(grid, cell, C.quadrants(card, rot))
    return action in GAME.legal_actions(state, seat)


def _effect_possible(state: State, kind: str) -> bool:
    """C-5: Zap needs a dragon on the table; Move needs one with somewhere to go."""
    if kind == C.ZAP:
        return len(state["board"]) > 1
    if kind == C.MOVE:
        grid = resolved_board(state["board"], state["pile"])
        return any(_move_targets(state, key, True, grid) for key in _liftable(state))
    return True


def _liftable(state: State) -> list[str]:
    return sorted((k for k in state["board"] if k != ORIGIN), key=_cell_order)


def _cell_order(key: str) -> tuple[int, int]:
    x, y = parse_cell(key)
    return (y, x)


def _move_targets(
    state: State, source: str, first_only: bool = False, grid: dict | None = None
) -> list[tuple[str, int]]:
    """C-12: where the card at ``source`` may go, judged on the grid without it."""
    card, rot_now = state["board"][source]
    if grid is None:
        grid = resolved_board(state["board"], state["pile"])
    lifted = parse_cell(source)
    grid = {cell: quads for cell, quads in grid.items() if cell != lifted}
    found = []
    for (x, y), rot in placements(grid, card):
        key = cell_key(x, y)
        if key == source and rot == rot_now:
            continue
        found.append((key, rot))
        if first_only:
            break
    return found


def _pending_actions(state: State, pending: dict[str, Any]) -> list[Action]:
    kind = pending["kind"]
    seat = state["active"]
    n = len(state["hands"])
    if kind == C.ZAP:
        return [{"type": "zap", "cell": key} for key in _liftable(state)]
    if kind == C.MOVE:
        grid = resolved_board(state["board"], state["pile"])
        return [
            {"type": "lift", "cell": key}
            for key in _liftable(state)
            if _move_targets(state, key, True, grid)
        ]
    if kind == P_MOVE_TO:
        return [
            {"type": "drop", "cell": key, "rot": rot}
            for key, rot in _move_targets(state, pending["from"])
        ]
    if kind == C.ROTATE:
        return [{"type": "rotate", "direction": d} for d in (CLOCKWISE, COUNTER)]
    if kind == C.TRADE_GOALS:
        return [{"type": "trade_goals", "with": g} for g in range(C.GOAL_SEATS) if g != seat]
    if kind == C.TRADE_HANDS:
        return [{"type": "trade_hands", "with": s} for s in range(n) if s != seat]
    raise AssertionError(f"unknown pending decision {kind!r}")


def _why_illegal(state: State, seat: int, action: Any) -> tuple[str, dict[str, Any]]:
    """A refusal a player understands (the action is known not to be legal)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return _("That is not a move in Seven Dragons."), {}
    kind = action["type"]
    pending = state["pending"]
    if pending:
        if pending["kind"] == C.ZAP:
            return _("Choose a dragon card on the table to zap (not the silver dragon)."), {}
        if pending["kind"] == C.MOVE:
            return _("Choose a dragon card on the table that can be moved."), {}
        if pending["kind"] == P_MOVE_TO:
            if (
                action.get("cell") == pending["from"]
                and action.get("rot") == (state["board"][pending["from"]][1])
            ):
                return _(
                    "Putting the card back as it lay is no move: turn it or choose another cell."
                ), {}
            return _(
                "The moved card must go where it touches another card with a matching colour."
            ), {}
        if pending["kind"] == C.ROTATE:
            return _("Choose which way the goals turn."), {}
        if pending["kind"] == C.TRADE_GOALS:
            return _("Choose another player or a goal set aside to trade goals with."), {}
        return _("Choose another player to trade hands with."), {}
    if kind == "pass":
        return _("You can play a card, so you cannot pass."), {}
    card = action.get("card")
    if not isinstance(card, str) or card not in state["hands"][seat]:
        return _("That card is not in your hand."), {}
    if kind == "place" and C.is_dragon(card):
        return _("A dragon card goes next to a card on the table, touching a matching colour."), {}
    if kind == "action" and C.is_action(card):
        if action.get("mode") == TOP_NO_EFFECT or action.get("mode") not in MODES:
            return _(
                "Play the action on top of the pile, at the bottom with its effect, or on top without it."
            ), {}
        return _(
            "That action has nothing to act on now: put it on top of the pile without its effect."
        ), {}
    return _("That move is not possible now."), {}


# Applying an action (mutates the private copy it is given) ---------------------------------


def _act(state: State, seat: int, action: Action, events: list[Event]) -> None:
    kind = action["type"]
    if kind == "pass":
        events.append({"type": "passed", "seat": seat})
        state["passes"] = state["passes"] + 1 if not state["deck"] else 0
        _end_of_play(state, seat, events, passed=True)
        return
    state["passes"] = 0
    if kind == "place":
        _place(state, seat, action, events)
        _end_of_play(state, seat, events)
    elif kind == "action":
        card = action["card"]
        state["hands"][seat].remove(card)
        effect = C.ACTIONS[card]
        events.append(
            {"type": "action", "seat": seat, "card": card, "action": effect, "mode": action["mode"]}
        )
        if action["mode"] == TOP_NO_EFFECT:
            _finish_action(state, seat, card, TOP, events)
        else:
            state["pending"] = {"kind": effect, "card": card, "mode": action["mode"]}
    else:
        _resolve_pending(state, seat, action, events)


def _resolve_pending(state: State, seat: int, action: Action, events: list[Event]) -> None:
    pending = state["pending"]
    kind = action["type"]
    if kind == "lift":
        card = state["board"][action["cell"]][0]
        state["pending"] = {**pending, "kind": P_MOVE_TO, "from": action["cell"]}
        events.append({"type": "lifted", "seat": seat, "card": card, "cell": action["cell"]})
        return
    if kind == "zap":
        card, _rot = state["board"].pop(action["cell"])
        state["hands"][seat].append(card)
        events.append({"type": "zapped", "seat": seat, "card": card, "cell": action["cell"]})
    elif kind == "drop":
        _drop(state, seat, pending["from"], action, events)
    elif kind == "rotate":
        _rotate_goals(state, seat, action["direction"], events)
    elif kind == "trade_goals":
        _trade_goals(state, seat, action["with"], events)
    elif kind == "trade_hands":
        _trade_hands(state, seat, action["with"], events)
    state["pending"] = None
    _finish_action(state, seat, pending["card"], pending["mode"], events)


def _finish_action(state: State, seat: int, card: str, mode: str, events: list[Event]) -> None:
    """A.7: the card goes into the pile (C-2: on an empty pile it is the top too)."""
    if mode == BOTTOM:
        state["pile"].insert(0, card)
    else:
        state["pile"].append(card)
    events.append(
        {
            "type": "pile",
            "card": card,
            "at": "bottom" if mode == BOTTOM else "top",
            "silver": silver_colour(state["pile"]),
        }
    )
    _end_of_play(state, seat, events)


def _place(state: State, seat: int, action: Action, events: list[Event]) -> None:
    card, key, rot = action["card"], action["cell"], action["rot"]
    grid = resolved_board(state["board"], state["pile"])
    extra = bonus(grid, parse_cell(key), C.quadrants(card, rot))
    record_trail(state, seat, grid, key, card, rot)
    state["hands"][seat].remove(card)
    state["board"][key] = [card, rot]
    events.append(
        {"type": "placed", "seat": seat, "card": card, "cell": key, "rot": rot, "bonus": extra}
    )
    _draw(state, seat, extra, events, bonus_draw=True)


def _drop(state: State, seat: int, source: str, action: Action, events: list[Event]) -> None:
    card, _rot = state["board"].pop(source)
    key, rot = action["cell"], action["rot"]
    grid = resolved_board(state["board"], state["pile"])
    extra = bonus(grid, parse_cell(key), C.quadrants(card, rot))
    record_trail(state, seat, grid, key, card, rot)
    if not state["options"]["bonus_on_move"]:
        extra = 0
    state["board"][key] = [card, rot]
    events.append(
        {
            "type": "moved",
            "seat": seat,
            "card": card,
            "from": source,
            "cell": key,
            "rot": rot,
            "bonus": extra,
        }
    )
    _draw(state, seat, extra, events, bonus_draw=True)


def _rotate_goals(state: State, seat: int, direction: str, events: list[Event]) -> None:
    goals = state["goals"]
    step = 1 if direction == CLOCKWISE else -1
    state["goals"] = [goals[(g - step) % C.GOAL_SEATS] for g in range(C.GOAL_SEATS)]
    if "trails" in state:
        trails = state["trails"]
        state["trails"] = [trails[(g - step) % C.GOAL_SEATS] for g in range(C.GOAL_SEATS)]
    events.append({"type": "rotated", "seat": seat, "direction": direction})
    for s in range(len(state["hands"])):
        events.append({"type": "goal_now", "seat": s, "colour": state["goals"][s], "private_to": s})


def _trade_goals(state: State, seat: int, other: int, events: list[Event]) -> None:
    goals = state["goals"]
    goals[seat], goals[other] = goals[other], goals[seat]
    if "trails" in state:
        trails = state["trails"]
        trails[seat], trails[other] = trails[other], trails[seat]
    n = len(state["hands"])
    events.append({"type": "traded_goals", "seat": seat, "with": other, "imaginary": other >= n})
    for s in (seat, other):
        if s < n:
            events.append({"type": "goal_now", "seat": s, "colour": goals[s], "private_to": s})


def _trade_hands(state: State, seat: int, other: int, events: list[Event]) -> None:
    hands = state["hands"]
    hands[seat], hands[other] = hands[other], hands[seat]
    events.append({"type": "traded_hands", "seat": seat, "with": other})
    for s in (seat, other):
        events.append({"type": "hand_now", "seat": s, "cards": sorted(hands[s]), "private_to": s})


def _draw(state: State, seat: int, count: int, events: list[Event], *, bonus_draw: bool) -> None:
    """Draw up to ``count`` cards (C-18: a short deck gives what it has, never reshuffled)."""
    drawn = [state["deck"].pop() for _ in range(min(count, len(state["deck"])))]
    if not drawn:
        return
    state["hands"][seat] += drawn
    public = "bonus_drawn" if bonus_draw else "drew"
    events.append({"type": public, "seat": seat, "count": len(drawn)})
    for card in drawn:
        events.append({"type": "drew_card", "seat": seat, "card": card, "private_to": seat})


def _begin_turn(state: State, seat: int, events: list[Event]) -> None:
    """A.3: the turn starts with a draw from the deck (skipped once it is empty)."""
    state["active"] = seat
    state["turn"] += 1
    if state["deck"]:
        card = state["deck"].pop()
        state["hands"][seat].append(card)
        events.append({"type": "drew", "seat": seat})
        events.append({"type": "drew_card", "seat": seat, "card": card, "private_to": seat})


def _end_of_play(state: State, seat: int, events: list[Event], passed: bool = False) -> None:
    """After a whole play: a win (A.9), an end by exhaustion (A.10), or the next turn."""
    if not passed and _check_seven(state, seat, events):
        return
    n = len(state["hands"])
    holders = [s for s in range(n) if state["hands"][s]]
    if not state["deck"] and (not holders or state["passes"] >= len(holders)):
        _finish_exhausted(state, events)
        return
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if state["deck"] or state["hands"][nxt]:
            break
        events.append({"type": "skipped", "seat": nxt})
    _begin_turn(state, nxt, events)


def _check_seven(state: State, active: int, events: list[Event]) -> bool:
    """A.9 and C-8: the active player first, then the others in turn order."""
    n = len(state["hands"])
    # Every colour's largest group in one kept pass (the placement's trail has
    # just asked for the same grid).
    largest = largest_groups(resolved_board(state["board"], state["pile"]))
    for step in range(n):
        seat = (active + step) % n
        colour = state["goals"][seat]
        if largest[colour] >= C.WIN_SIZE:
            state["over"] = True
            state["winners"] = [seat]
            state["end_reason"] = SEVEN
            events.append({"type": "won", "seat": seat, "colour": colour, "size": largest[colour]})
            _reveal(state, events)
            return True
    return False


def _finish_exhausted(state: State, events: list[Event]) -> None:
    """A.10, C-9: the largest group of a real player's goal colour wins; ties win jointly."""
    n = len(state["hands"])
    largest = largest_groups(resolved_board(state["board"], state["pile"]))
    sizes = [largest[state["goals"][s]] for s in range(n)]
    best = max(sizes)
    state["over"] = True
    state["pending"] = None
    state["end_reason"] = EXHAUSTED
    state["winners"] = [s for s in range(n) if sizes[s] == best]
    events.append({"type": "exhausted", "winners": list(state["winners"]), "size": best})
    _reveal(state, events)


def _reveal(state: State, events: list[Event]) -> None:
    events.append(
        {"type": "goals_revealed", "goals": list(state["goals"]), "players": len(state["hands"])}
    )
