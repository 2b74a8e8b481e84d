"""Pure rules of Nogi za pas! (Reiner Knizia): knights flee the dragon to the castle.

The authoritative spec is ``shared/rules/nogi.md``; section numbers in the
docstrings below (A.2, C.12, ...) refer to it. The state, action and event
schemas are documented in ``docs/rules/nogi.md``.

Turns start by themselves, as on Board Game Arena: when a player's turn
begins the engine runs the dragon-attack check and rolls every available die,
so the only decision a player ever makes is which rolled die to use on which
knight(s). This module must not import Django.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.catalog.nogi import components as C
from games.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    Result,
    State,
    rank_by_score,
    resolve_options,
)
from games.engine.i18n import _
from games.engine.rng import Rng, choose_by_log_weight
from games.engine.state import clone as _clone

# Die statuses (spec glossary).
POOL = "pool"
ASIDE = "aside"
BOXED = "boxed"

# End reasons (spec A.8).
END_CASTLE_FULL = "castle_full"  # (a) four knights reached the castle
END_FEW_KNIGHTS = "few_knights_left"  # (b) at most two knights left on the board

USE_DIE = "use_die"


# Small pure helpers -------------------------------------------------------------------------


def face(kind: str, n: int | None = None) -> dict[str, Any]:
    """A die face as stored in the state: ``{"kind": ..., "n": ...}``."""
    if kind not in C.FACE_KINDS:
        raise ValueError(f"unknown face kind {kind!r}")
    if (kind in C.NUMBERED_KINDS) != (n is not None):
        raise ValueError(f"face {kind} {'needs' if kind in C.NUMBERED_KINDS else 'takes no'} n")
    return {"kind": kind, "n": n}


def _face_json(value: Any) -> dict[str, Any]:
    """Accept a ``Face``, a ``(kind, n)`` tuple, a kind string or a face dict."""
    if isinstance(value, C.Face):
        return face(value.kind, value.n)
    if isinstance(value, str):
        return face(value)
    if isinstance(value, tuple):
        return face(*value)
    return face(value["kind"], value.get("n"))


def knights_on_board(state: State) -> list[str]:
    """Colours on the track, in canonical colour order."""
    board = state["board"]
    return [colour for colour in C.COLOURS if colour in board]


def knights_at(board: Mapping[str, int], field: int) -> list[str]:
    return [colour for colour in C.COLOURS if board.get(colour) == field]


#: A legal action in short: the die and the knights it moves, in order.
Move = tuple[str, tuple[str, ...]]


def legal_moves(state: State, seat: int) -> list[Move]:
    """``legal_actions`` in short, in the same order: every way to use one rolled
    die now (A.2 step 3), no-effect choices included. The heuristic bot scores
    every one at every move of every rollout of the strong bot, and turns only
    the one it plays into an action (``move_action``)."""
    if state["over"] or seat != state["active"] or isinstance(seat, bool):
        return []
    board = state["board"]
    on_board = tuple([colour for colour in C.COLOURS if colour in board])
    roll = state["roll"]
    moves: list[Move] = []
    for die in C.DICE:  # in the dice's order, whatever the roll's (a JSON store sorts keys)
        rolled = roll.get(die)
        if rolled is not None:
            moves.extend(_die_moves(die, rolled["kind"], on_board))
    return moves


@lru_cache(maxsize=4096)
def _die_moves(die: str, kind: str, on_board: tuple[str, ...]) -> tuple[Move, ...]:
    """The moves of one rolled die with the knights ``on_board`` (kept: a move is
    a tuple, read only)."""
    if kind == C.ONE_PLUS_ONE:
        return tuple(
            (die, (first, second)) for first in on_board for second in on_board if first != second
        )
    if is_any_knight(die, kind):
        return tuple((die, (knight,)) for knight in on_board)
    return ((die, (die,)),)


def move_action(move: Move) -> Action:
    """The action of a ``legal_moves`` move: a 1+1 die moves two knights, any other one."""
    die, knights = move
    if len(knights) == 2:
        return {"type": USE_DIE, "die": die, "knights": list(knights)}
    return {"type": USE_DIE, "die": die, "knight": knights[0]}


def action_move(action: Action) -> Move:
    """A legal action in short (``legal_moves``' form)."""
    knights = action["knights"] if "knights" in action else (action["knight"],)
    return action["die"], tuple(knights)


def is_any_knight(die: str, kind: str) -> bool:
    """Whether the face lets the player choose the knight (A.3: white die, white faces)."""
    return C.DIE_SPECS[die].any_knight or kind in C.ANY_KNIGHT_KINDS


def minus_target(board: Mapping[str, int], knight: str) -> int:
    """A.3.1: the largest field strictly behind the knight holding another knight, else stay."""
    here = board[knight]
    behind = [field for colour, field in board.items() if colour != knight and field < here]
    return max(behind) if behind else here


def plus_target(board: Mapping[str, int], knight: str) -> int:
    """A.3.1: the smallest field strictly ahead of the knight holding another knight, else stay."""
    here = board[knight]
    ahead = [field for colour, field in board.items() if colour != knight and field > here]
    return min(ahead) if ahead else here


def destination(board: Mapping[str, int], knight: str, die_face: Mapping[str, Any]) -> int:
    """Where one step of ``die_face`` takes ``knight``; a result above 36 means the castle.

    ONE_PLUS_ONE is one field per knight, so a single step of it is +1.
    """
    kind = die_face["kind"]
    if kind in C.NUMBERED_KINDS:
        return board[knight] + die_face["n"]
    if kind == C.ONE_PLUS_ONE:
        return board[knight] + 1
    if kind == C.MINUS:
        return minus_target(board, knight)
    if kind == C.PLUS:
        return plus_target(board, knight)
    raise ValueError(f"unknown face kind {kind!r}")


def castle_knights(state: State) -> list[str]:
    """Every knight that reached the castle, in arrival order (placed or not)."""
    placed = [colour for space in state["castle"] for colour in space]
    return placed + list(state["castle_unplaced"])


def knight_points(state: State) -> dict[str, int]:
    """Castle points each colour scores now (0 for knights not on a scoring space)."""
    points = dict.fromkeys(C.COLOURS, 0)
    for index, space in enumerate(state["castle"]):
        for colour in space:
            points[colour] = C.CASTLE_POINTS[index]
    return points


def shield_colours(state: State, seat: int) -> list[list[str]]:
    return [list(C.SHIELDS[index]) for index in state["shields"][seat]]


def seat_score(state: State, seat: int) -> dict[str, Any]:
    """A.9: castle points of every colour occurrence on the seat's shields, plus bunnies.

    Summing over occurrences makes the colour shared by a 2-player seat's two
    shields count twice, as the variant requires.
    """
    points = knight_points(state)
    shields = shield_colours(state, seat)
    knights = sum(points[colour] for shield in shields for colour in shield)
    bunny_values = list(state["collected"][seat])
    bunnies = sum(bunny_values)
    return {
        "shields": shields,
        "knight_points": knights,
        "bunny_values": bunny_values,
        "bunny_points": bunnies,
        "score": knights + bunnies,
    }


# The game -----------------------------------------------------------------------------------


class NogiGame(Game):
    """The ``nogi`` game object: see ``games.engine.base.Game`` for the contract."""

    key = "nogi"
    title = _("Nogi za pas!")
    #: 2: the state keeps each seat's public ``trails`` (``record_trails``), which
    #: the strong bot reads to guess the shields it cannot see.
    rules_version = 2
    #: Matches of version 1 replay without trails.
    old_rules_versions: tuple[int, ...] = (1,)
    #: ``resolve`` copies what it takes from an action and keeps nothing by identity.
    resolves_in_place = True
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    options = [
        Option(
            key="first_player",
            label=_("First player"),
            choices=[("random", _("Random")), ("host", _("Seat 1 starts"))],
            default="random",
            help=_("Who takes the first turn. Play then goes clockwise (seat + 1)."),
        )
    ]

    # Setup ----------------------------------------------------------------------------------

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        return self.setup_for(self.rules_version, n_players, options, seed)

    def setup_for(
        self, rules_version: int, n_players: int, options: dict[str, Any], seed: str
    ) -> State:
        """A.1: shuffle bunnies and dragon tokens, deal shields, pick the start seat, roll.

        From rules version 2 on the state also keeps the seats' ``trails``."""
        if not isinstance(n_players, int) or not (
            self.min_players <= n_players <= self.max_players
        ):
            raise IllegalAction(
                _("Nogi za pas! needs %(min)s to %(max)s players."),
                min=self.min_players,
                max=self.max_players,
            )
        options = resolve_options(self, options)
        rng = Rng.from_seed(seed)
        bunny_values = rng.shuffled(list(C.BUNNY_VALUES))
        dragon_stack = rng.shuffled(list(C.DRAGON_TOKENS))
        shield_order = rng.shuffled(list(range(len(C.SHIELDS))))
        per_player = C.SHIELDS_PER_PLAYER_TWO_PLAYERS if n_players == 2 else C.SHIELDS_PER_PLAYER
        shields = [
            shield_order[seat * per_player : (seat + 1) * per_player] for seat in range(n_players)
        ]
        first_seat = rng.below(n_players) if options["first_player"] == "random" else 0
        state = _new_state(
            n_players=n_players,
            options=options,
            first_seat=first_seat,
            board=dict.fromkeys(C.COLOURS, C.KNIGHT_START),
            dragon=C.DRAGON_START,
            dragon_stack=dragon_stack,
            dragon_revealed=[],
            bunnies={
                str(field): value for field, value in zip(C.BUNNY_FIELDS, bunny_values, strict=True)
            },
            collected=[[] for _ in range(n_players)],
            shields=shields,
            dice=dict.fromkeys(C.DICE, POOL),
            trails=rules_version >= 2,
        )
        state["rng"] = rng.dump()
        _begin_turn(state, [])
        return state

    # Queries --------------------------------------------------------------------------------

    def current_seats(self, state: State) -> list[int]:
        return [] if state["over"] else [state["active"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every way to use one rolled die now (A.2 step 3), no-effect choices included."""
        return [move_action(move) for move in legal_moves(state, seat)]

    def result(self, state: State) -> Result | None:
        """A.9: rank by score, then by bunny points; remaining ties share the rank."""
        if not state["over"]:
            return None
        per_seat = [seat_score(state, seat) for seat in range(state["n_players"])]
        ranks = rank_by_score([(row["score"], row["bunny_points"]) for row in per_seat])
        details = {
            "seats": per_seat,
            "castle": [list(space) for space in state["castle"]],
            "castle_unplaced": list(state["castle_unplaced"]),
            "knight_points": knight_points(state),
            "end_reason": state["end_reason"],
        }
        return Result(ranks=ranks, scores=[row["score"] for row in per_seat], details=details)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None = spectator): public board plus the seat's own secrets.

        Hidden from everyone during play: other seats' shields and bunny values,
        bunny values still on the board, the dragon stack's order and values,
        and the PRNG. Once the game is over everything but the PRNG is shown.
        """
        n_players = state["n_players"]
        viewer = (
            seat
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n_players
            else None
        )
        view: dict[str, Any] = {
            "game": self.key,
            "n_players": n_players,
            "options": dict(state["options"]),
            "viewer": viewer,
            "first_seat": state["first_seat"],
            "active": state["active"],
            "turn": state["turn"],
            "board": dict(state["board"]),
            "dragon": state["dragon"],
            "castle": [list(space) for space in state["castle"]],
            "castle_unplaced": list(state["castle_unplaced"]),
            "castle_points": list(C.CASTLE_POINTS),
            "defeated": list(state["defeated"]),
            "dice": dict(state["dice"]),
            "roll": {die: dict(rolled) for die, rolled in state["roll"].items()},
            "bunny_fields": sorted([int(field) for field in state["bunnies"]]),
            "dragon_tokens_left": len(state["dragon_stack"]),
            "dragon_revealed": list(state["dragon_revealed"]),
            "bunnies_collected": [len(values) for values in state["collected"]],
            "over": state["over"],
            "end_reason": state["end_reason"],
            "me": None,
        }
        if "trails" in state:
            # Public: what each seat's moves did for each colour (``record_trails``).
            view["trails"] = [list(trail) for trail in state["trails"]]
        if viewer is not None:
            values = list(state["collected"][viewer])
            view["me"] = {
                "seat": viewer,
                "shield_ids": [index + 1 for index in state["shields"][viewer]],
                "shields": shield_colours(state, viewer),
                "bunny_values": values,
                "bunny_points": sum(values),
            }
        if state["over"]:
            view["result"] = self.result(state).to_json()
            view["revealed"] = {
                "shields": [shield_colours(state, s) for s in range(n_players)],
                "bunny_values": [list(values) for values in state["collected"]],
                "bunnies_left": {field: value for field, value in state["bunnies"].items()},
                "dragon_stack": list(state["dragon_stack"]),
            }
        return view

    # Acting ---------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def resolve(self, state: State, seat: int, action: Action) -> list[Event]:
        """Use one rolled die (A.2 steps 3-5), then start the next seat's turn (step 6)."""
        events: list[Event] = []
        _use_die(state, seat, action, events)
        if not state["over"]:
            state["active"] = (seat + 1) % state["n_players"]
            state["turn"] += 1
            _begin_turn(state, events)
        return events

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        """A reason a player understands for an action known not to be legal."""
        if not isinstance(action, dict) or action.get("type") != USE_DIE:
            return IllegalAction(_("The only move is to use one of your rolled dice."))
        die = action.get("die")
        if not isinstance(die, str) or die not in state["roll"]:
            return IllegalAction(_("Choose one of the dice you rolled this turn."))
        return IllegalAction(
            _("The %(die)s die cannot be used that way: check which knight(s) it moves."),
            die=_(die),
        )

    def opening_events(self, state: State) -> list[Event]:
        """The events of the first turn start, rebuilt from a fresh ``setup`` state.

        ``setup`` returns only a state, so the first player's roll has no move
        to be logged with; the web layer may log these instead. The first turn
        never starts with a dragon attack (all 8 dice are in the pool).
        """
        seat = state["first_seat"]
        return [
            {"type": "turn_started", "seat": seat, "turn": 1},
            {"type": "dice_rolled", "seat": seat, "faces": _clone(state["roll"])},
        ]

    def begin_turn(self, state: State) -> tuple[State, list[Event]]:
        """Start the active seat's turn on a copy: dragon check (A.5), then the roll.

        ``apply`` does this by itself; the method exists so tests can build a
        position "at the start of a turn" with ``build_state(roll=None)`` and
        watch the attack and the roll happen.
        """
        new = _clone(state)
        events: list[Event] = []
        _begin_turn(new, events)
        return new, events

    # Invariants -----------------------------------------------------------------------------

    def perturb_secrets(self, state: State, seat: int | None, rng: Rng) -> State:
        """Reshuffle what ``seat`` cannot see: other seats' shields (with the
        undealt ones), the values of bunnies it did not collect (on the board or
        in other hands), the dragon stack's order, and the PRNG."""
        new = _clone(state)
        others = [s for s in range(new["n_players"]) if s != seat]
        dealt = {index for shields in new["shields"] for index in shields}
        pool = [i for s in others for i in new["shields"][s]]
        pool += [i for i in range(len(C.SHIELDS)) if i not in dealt]
        pool = rng.shuffled(pool)
        for s in others:
            count = len(new["shields"][s])
            new["shields"][s], pool = pool[:count], pool[count:]
        fields = sorted(new["bunnies"])
        values = [new["bunnies"][f] for f in fields] + [
            v for s in others for v in new["collected"][s]
        ]
        values = rng.shuffled(values)
        for f in fields:
            new["bunnies"][f] = values.pop()
        for s in others:
            new["collected"][s] = [values.pop() for _value in new["collected"][s]]
        new["dragon_stack"] = rng.shuffled(new["dragon_stack"])
        new["rng"] = Rng(rng.next64()).dump()
        return new

    def sample_secrets(self, state: State, seat: int, rng: Rng) -> State:
        """Deal anew, from canonical (sorted) pools, what ``seat`` cannot see: the
        other seats' shields with the undealt ones, the bunny values it did not
        collect, the dragon stack's order; a new PRNG state.

        The shields are drawn among every deal of them to the other seats, each
        as likely as their public trails make it (``record_trails``,
        ``TRAIL_WEIGHT``): a player whose moves keep doing well by pink likely
        holds pink. Without trails (rules version 1) the shields are shuffled
        blind."""
        new = copy_state(state)
        others = [s for s in range(new["n_players"]) if s != seat]
        mine = set(new["shields"][seat]) if 0 <= seat < new["n_players"] else set()
        unseen = [i for i in range(len(C.SHIELDS)) if i not in mine]
        if "trails" in state and not state["over"]:
            deals, logs = _shield_deals(
                tuple(unseen),
                tuple(len(new["shields"][s]) for s in others),
                tuple(tuple(state["trails"][s]) for s in others),
            )
            for s, shields in zip(others, choose_by_log_weight(deals, logs, rng), strict=True):
                new["shields"][s] = list(shields)
        else:
            pool = rng.shuffled(unseen)
            for s in others:
                count = len(new["shields"][s])
                new["shields"][s], pool = pool[:count], pool[count:]
        fields = sorted(new["bunnies"])
        unseen = list(C.BUNNY_VALUES)
        if 0 <= seat < new["n_players"]:
            for value in new["collected"][seat]:
                unseen.remove(value)
        values = rng.shuffled(sorted(unseen))
        for f in fields:
            new["bunnies"][f] = values.pop()
        for s in others:
            new["collected"][s] = [values.pop() for _value in new["collected"][s]]
        new["dragon_stack"] = rng.shuffled(sorted(new["dragon_stack"]))
        new["rng"] = Rng(rng.next64()).dump()
        return new

    def check_invariants(self, state: State) -> None:
        """Assert the invariants of spec A.6 and the conservation of every component."""
        check_position(state)
        if not state["over"]:
            pool = [die for die in C.DICE if state["dice"][die] == POOL]
            assert sorted(state["roll"]) == sorted(pool), "the roll is not the pool"
            assert pool, "the active seat has no die to use"


def check_position(state: State) -> None:
    """The invariants that hold at every moment, also before a turn's roll (for tests)."""
    board = state["board"]
    arrived = castle_knights(state)
    defeated = list(state["defeated"])
    everyone = list(board) + arrived + defeated
    assert sorted(everyone) == sorted(C.COLOURS), f"knights not conserved: {everyone}"
    dragon = state["dragon"]
    assert C.DRAGON_START <= dragon <= C.LAST_FIELD, f"dragon off the track: {dragon}"
    for colour, field in board.items():
        assert C.FIRST_FIELD <= field <= C.LAST_FIELD, f"{colour} off the track: {field}"
        assert field >= dragon, f"{colour} on {field} is behind the dragon on {dragon}"
    at_dragon = len(knights_at(board, dragon))
    assert at_dragon != 1, f"a lone knight survives on the dragon's field {dragon}"
    for die in C.DICE:
        boxed = state["dice"][die] == BOXED
        should_box = die != C.WHITE and die not in board
        assert boxed == should_box, f"die {die} is {state['dice'][die]}"
    on_board_values = list(state["bunnies"].values())
    collected = [value for values in state["collected"] for value in values]
    assert sorted(on_board_values + collected) == sorted(C.BUNNY_VALUES), "bunnies lost"
    assert all(int(field) in C.BUNNY_FIELDS for field in state["bunnies"])
    tokens = list(state["dragon_stack"]) + list(state["dragon_revealed"])
    assert sorted(tokens) == sorted(C.DRAGON_TOKENS), "dragon tokens not conserved"
    castle = state["castle"]
    assert len(castle) <= len(C.CASTLE_POINTS), "more than 4 castle places"
    assert all(space for space in castle), "an empty castle space was recorded"
    shared = [space for space in castle if len(space) > 1]
    if shared:
        assert state["end_reason"] == END_FEW_KNIGHTS and shared == [castle[-1]]
    per_seat = 2 if state["n_players"] == 2 else 1
    assert all(len(indexes) == per_seat for indexes in state["shields"]), "wrong shield count"
    assert len(state["collected"]) == len(state["shields"]) == state["n_players"]
    dealt = [index for indexes in state["shields"] for index in indexes]
    assert len(dealt) == len(set(dealt)), "a shield was dealt twice"
    if "trails" in state:
        trails = state["trails"]
        assert len(trails) == state["n_players"], "a trail per seat"
        assert all(
            len(trail) == len(C.COLOURS) and all(type(value) is int for value in trail)
            for trail in trails
        ), "a trail is a whole number per colour"
    if state["over"]:
        assert state["active"] is None and state["roll"] == {}
        assert state["end_reason"] in (END_CASTLE_FULL, END_FEW_KNIGHTS)
    else:
        assert 0 <= state["active"] < state["n_players"]
        assert len(arrived) < 4 and len(board) >= 3, "the game should have ended"


# State construction -------------------------------------------------------------------------


def _new_state(
    *,
    n_players: int,
    options: dict[str, Any],
    first_seat: int,
    board: dict[str, int],
    dragon: int,
    dragon_stack: list[int],
    dragon_revealed: list[int],
    bunnies: dict[str, int],
    collected: list[list[int]],
    shields: list[list[int]],
    dice: dict[str, str],
    castle: list[list[str]] | None = None,
    castle_unplaced: list[str] | None = None,
    defeated: list[str] | None = None,
    active: int | None = None,
    turn: int = 1,
    trails: bool = True,
) -> State:
    """The one place that lists every state key (documented in docs/rules/nogi.md).

    ``trails``: False for a match of rules version 1, whose states never had them."""
    state = {
        "n_players": n_players,
        "options": dict(options),
        "first_seat": first_seat,
        "rng": "",
        "active": first_seat if active is None else active,
        "turn": turn,
        "board": board,
        "castle": castle or [],
        "castle_unplaced": castle_unplaced or [],
        "defeated": defeated or [],
        "dragon": dragon,
        "dragon_stack": dragon_stack,
        "dragon_revealed": dragon_revealed,
        "bunnies": bunnies,
        "collected": collected,
        "shields": shields,
        "dice": dice,
        "roll": {},
        "over": False,
        "end_reason": None,
    }
    if trails:
        state["trails"] = [[0] * len(C.COLOURS) for _seat in range(n_players)]
    return state


# The bot's part of the view -----------------------------------------------------------------

#: The keys of a seat's view that ``sight_view`` holds (and of its ``"me"``).
SIGHT_KEYS = ("board", "roll", "dragon", "bunny_fields", "castle")
SIGHT_ME_KEYS = ("shield_ids",)


def sight_view(state: State, seat: int) -> dict[str, Any]:
    """The part of ``GAME.view(state, seat)`` the heuristic bot reads (``SIGHT_KEYS``
    and the seat's ``SIGHT_ME_KEYS``), equal to the view's, built for every
    decision of every rollout of the strong bot without the rest. The board,
    the roll and the castle are the state's own, to be read only.
    ``tests/catalog/nogi/test_nogi_bot.py`` compares it with the view."""
    return {
        "board": state["board"],
        "roll": state["roll"],
        "dragon": state["dragon"],
        "bunny_fields": sorted([int(field) for field in state["bunnies"]]),
        "castle": state["castle"],
        "me": {"shield_ids": [index + 1 for index in state["shields"][seat]]},
    }


# Copying ------------------------------------------------------------------------------------


def _nested(value: Any) -> Any:
    """A copy of a dict of dicts of scalars (the roll), None staying None."""
    return None if value is None else {key: dict(item) for key, item in value.items()}


#: The state's keys (docs/rules/nogi.md), each copied by its shape in ``copy_state``.
_SCHEMA_KEYS = frozenset(
    {
        "n_players", "options", "first_seat", "rng", "active", "turn", "board", "castle",
        "castle_unplaced", "defeated", "dragon", "dragon_stack", "dragon_revealed",
        "bunnies", "collected", "shields", "dice", "roll", "over", "end_reason",
    }
)  # fmt: skip


#: The keys of a state of rules version 2 on.
_SCHEMA_KEYS_TRAILS = _SCHEMA_KEYS | {"trails"}


def copy_state(state: State) -> State:
    """A deep copy of a Nogi state, shaped by its schema: the same result as the
    generic ``clone``, several times faster (every move of every rollout of the
    strong bot copies the state). A state with other keys gets the generic copy."""
    keys = state.keys()
    if keys == _SCHEMA_KEYS_TRAILS:
        new = _copy_schema(state)
        new["trails"] = [list(trail) for trail in state["trails"]]
        return new
    if keys != _SCHEMA_KEYS:
        return _clone(state)
    return _copy_schema(state)


def _copy_schema(state: State) -> State:
    """``copy_state`` of the keys every rules version has."""
    new = dict(state)  # the scalars
    new["options"] = dict(state["options"])  # each option's value is one of its choices
    new["board"] = dict(state["board"])
    new["castle"] = [list(space) for space in state["castle"]]
    new["castle_unplaced"] = list(state["castle_unplaced"])
    new["defeated"] = list(state["defeated"])
    new["dragon_stack"] = list(state["dragon_stack"])
    new["dragon_revealed"] = list(state["dragon_revealed"])
    new["bunnies"] = dict(state["bunnies"])
    new["collected"] = [list(values) for values in state["collected"]]
    new["shields"] = [list(shields) for shields in state["shields"]]
    new["dice"] = dict(state["dice"])
    new["roll"] = _nested(state["roll"])
    return new


# Turn machinery (mutates the state it is given: call only on a private copy) ---------------


def _begin_turn(state: State, events: list[Event]) -> None:
    """A.2 steps 1-2: dragon attack if at most one die is available (C.12), then roll."""
    seat = state["active"]
    events.append({"type": "turn_started", "seat": seat, "turn": state["turn"]})
    dice = state["dice"]
    pool = [die for die in C.DICE if dice[die] == POOL]
    if len(pool) <= 1:
        _dragon_attack(state, seat, events)
        if state["over"]:
            return
        pool = [die for die in C.DICE if dice[die] == POOL]
    _roll(state, seat, pool, events)


def _roll(state: State, seat: int, pool: list[str], events: list[Event]) -> None:
    """Roll every die in the pool (``pool``, in canonical die order) with the state's PRNG."""
    rng = Rng.load(state["rng"])
    roll = {
        die: dict(_FACES_JSON[die][draw])
        for die, draw in zip(pool, rng.below_each(_SIDES, len(pool)), strict=True)
    }
    state["rng"] = rng.dump()
    state["roll"] = roll
    events.append({"type": "dice_rolled", "seat": seat, "faces": _nested(roll)})


#: Every die's faces as the state holds them (copied into each roll).
_FACES_JSON = {die: tuple(face.to_json() for face in C.DIE_SPECS[die].faces) for die in C.DICE}
#: The dice's sides: six each (A.1), so a roll draws every die from one range.
_SIDES = 6
assert all(len(faces) == _SIDES for faces in _FACES_JSON.values())


def _dragon_attack(state: State, seat: int, events: list[Event]) -> None:
    """A.5: gather every unboxed die, reveal a token, move the dragon, maybe defeat a knight."""
    gathered = []
    for die in C.DICE:
        if state["dice"][die] == ASIDE:
            state["dice"][die] = POOL
        if state["dice"][die] == POOL:
            gathered.append(die)
    start = state["dragon"]
    token = None
    if state["dragon_stack"]:
        token = state["dragon_stack"].pop(0)
        state["dragon_revealed"].append(token)
        state["dragon"] = _dragon_destination(state["board"], start, token)
    events.append(
        {
            "type": "dragon_attack",
            "seat": seat,
            "gathered": gathered,
            "token": token,
            "from": start,
            "to": state["dragon"],
            "tokens_left": len(state["dragon_stack"]),
        }
    )
    _lone_knight_check(state, events, cause="dragon")
    _check_end(state, events)


def _dragon_destination(board: Mapping[str, int], start: int, token: int) -> int:
    """A.5 step 4 and C.5: stay on a group, else stop on the first field holding a knight."""
    occupied = set(board.values())
    if start in occupied:
        return start
    field = start
    for _step in range(token):
        if field >= C.LAST_FIELD:
            break
        field += 1
        if field in occupied:
            break
    return field


def _use_die(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A.2 steps 3-5 for a legal ``use_die`` action."""
    die = action["die"]
    die_face = state["roll"][die]
    movers = list(action["knights"]) if "knights" in action else [action["knight"]]
    used: Event = {
        "type": "die_used",
        "seat": seat,
        "die": die,
        "face": dict(die_face),
        "knights": movers,
        "die_status": None,
    }
    events.append(used)
    before = [race_value(state, knight) for knight in movers] if "trails" in state else None
    landings, arrivals = _move_knights(state, movers, die_face, events)
    state["dice"][die] = POOL if die_face["kind"] in C.KEEP_KINDS else ASIDE
    state["roll"] = {}
    _rescue_bunnies(state, seat, landings, events)
    _arrive_at_castle(state, arrivals, events)
    _lone_knight_check(state, events, cause="left_alone")
    if before is not None:
        record_trails(state, seat, movers, before)
    _check_end(state, events)
    used["die_status"] = state["dice"][die]


def _move_knights(
    state: State, movers: list[str], die_face: Mapping[str, Any], events: list[Event]
) -> tuple[list[str], list[str]]:
    """Carry out each step in the order given; return (knights that landed, castle arrivals).

    Arrivals leave the board at once; their castle space is assigned later
    (A.2 step 5) in this same order (A.7).
    """
    board = state["board"]
    landings: list[str] = []
    arrivals: list[str] = []
    for knight in movers:
        start = board[knight]
        target = destination(board, knight, die_face)
        if target == start:
            reason = "last" if die_face["kind"] == C.MINUS else "first"
            events.append({"type": "no_effect", "knight": knight, "field": start, "reason": reason})
        elif target > C.LAST_FIELD:
            del board[knight]
            arrivals.append(knight)
            events.append(
                {
                    "type": "knight_moved",
                    "knight": knight,
                    "from": start,
                    "to": None,
                    "castle": True,
                }
            )
        else:
            board[knight] = target
            landings.append(knight)
            events.append(
                {
                    "type": "knight_moved",
                    "knight": knight,
                    "from": start,
                    "to": target,
                    "castle": False,
                }
            )
    return landings, arrivals


def _rescue_bunnies(state: State, seat: int, landings: list[str], events: list[Event]) -> None:
    """A.4: a knight ending its move on a bunny field gives the token to the mover's seat."""
    for knight in landings:
        field = state["board"].get(knight)
        key = str(field)
        if field is None or key not in state["bunnies"]:
            continue
        value = state["bunnies"].pop(key)
        state["collected"][seat].append(value)
        events.append({"type": "bunny_rescued", "seat": seat, "knight": knight, "field": field})
        events.append(
            {
                "type": "bunny_value",
                "seat": seat,
                "field": field,
                "value": value,
                "private_to": seat,
            }
        )


def _arrive_at_castle(state: State, arrivals: list[str], events: list[Event]) -> None:
    """A.7: next free space in arrival order (0 points past the 4th, C.19); box the die."""
    for knight in arrivals:
        if len(state["castle"]) < len(C.CASTLE_POINTS):
            space = len(state["castle"])
            state["castle"].append([knight])
            points = C.CASTLE_POINTS[space]
        else:
            space = None
            state["castle_unplaced"].append(knight)
            points = 0
        state["dice"][knight] = BOXED
        events.append(
            {"type": "castle_arrival", "knight": knight, "space": space, "points": points}
        )


def _lone_knight_check(state: State, events: list[Event], *, cause: str) -> None:
    """A.6: a knight alone on the dragon's field is defeated; its die is boxed (C.6)."""
    dragon = state["dragon"]
    if dragon == C.DRAGON_START:
        return
    there = knights_at(state["board"], dragon)
    if len(there) != 1:
        return
    knight = there[0]
    del state["board"][knight]
    state["defeated"].append(knight)
    state["dice"][knight] = BOXED
    events.append({"type": "knight_defeated", "knight": knight, "field": dragon, "cause": cause})


def _check_end(state: State, events: list[Event]) -> None:
    """A.8: (a) four knights in the castle; (b) at most two left on the board."""
    if len(castle_knights(state)) >= len(C.CASTLE_POINTS):
        _finish(state, END_CASTLE_FULL, events)
    elif len(state["board"]) <= 2:
        _place_last_knights(state, events)
        _finish(state, END_FEW_KNIGHTS, events)


def _place_last_knights(state: State, events: list[Event]) -> None:
    """A.8 (b) and C.18: the last one or two knights share the first free castle space."""
    remaining = knights_on_board(state)
    if not remaining:
        return
    space = len(state["castle"])
    state["castle"].append(remaining)
    for knight in remaining:
        del state["board"][knight]
        state["dice"][knight] = BOXED
    events.append(
        {
            "type": "castle_placed",
            "knights": remaining,
            "space": space,
            "points": C.CASTLE_POINTS[space],
        }
    )


def _finish(state: State, reason: str, events: list[Event]) -> None:
    state["over"] = True
    state["end_reason"] = reason
    state["active"] = None
    state["roll"] = {}
    outcome = GAME.result(state)
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
        }
    )


# Trails: what each seat's moves did for each colour (public) ------------------------------

#: What a place after the castle's fourth is worth in a trail (``race_value``).
TRAIL_BACKMARKER = 0.5

#: How strongly the trails point to the shields when the strong bot guesses them:
#: each hundredth of a castle point a seat's moves gave colour c makes a deal in
#: which that seat's shields show c (once per shield) e to this power times
#: likelier. Along heuristic games of two players, 0.03 (3 a point) puts about
#: 0.55 of the chance on the opponent's real pair of shields after four moves
#: of the game and 0.7-0.75 from the twelfth on, against 0.1 for a blind deal
#: (docs/bots.md, "What each game samples").
TRAIL_WEIGHT = 0.03


def race_value(state: State, knight: str) -> float:
    """The castle points ``knight`` can count on by its place in the race, as every
    player sees it: its castle space's points in the castle, 0 defeated or past
    the fourth place; on the track, the mean of the places it shares with the
    knights of its field after those ahead of it (the castle's spaces taken,
    then the knights on fields ahead), a place after the fourth counting
    ``TRAIL_BACKMARKER``."""
    board = state["board"]
    field = board.get(knight)
    if field is None:
        for index, space in enumerate(state["castle"]):
            if knight in space:
                return float(C.CASTLE_POINTS[index]) if index < len(C.CASTLE_POINTS) else 0.0
        return 0.0
    ahead = len(state["castle"])
    level = 0
    for other in board.values():
        if other > field:
            ahead += 1
        elif other == field:
            level += 1
    return _SHARED_PLACES[ahead, level]


def _shared_places(first: int, level: int) -> float:
    """The mean points of castle places ``first`` .. ``first + level - 1`` (0-based)."""
    places = C.CASTLE_POINTS
    return (
        sum(
            places[place] if place < len(places) else TRAIL_BACKMARKER
            for place in range(first, first + level)
        )
        / level
    )


#: ``_shared_places`` of every place a knight can be in and every field's count
#: (``race_value`` runs twice a move in every rollout of the strong bot).
_SHARED_PLACES = {
    (first, level): _shared_places(first, level)
    for first in range(len(C.COLOURS) + len(C.CASTLE_POINTS))
    for level in range(1, len(C.COLOURS) + 1)
}


def record_trails(state: State, seat: int, movers: list[str], before: list[float]) -> None:
    """Add to ``seat``'s trail, in hundredths of a castle point, what its move did
    for each knight it moved (``race_value`` after the move, less before: a
    knight sent into the first castle space or left to the dragon loses, one
    brought up to a scoring place gains). A player moves its own colours to
    good places and the others' to bad ones, so the trails, which every player
    could keep from the moves, point to the shields nobody shows."""
    trail = state["trails"][seat]
    for knight, value in zip(movers, before, strict=True):
        trail[INDEX_OF_COLOUR[knight]] += round(100 * (race_value(state, knight) - value))


#: Each colour's place in ``C.COLOURS`` (a trail's order).
INDEX_OF_COLOUR = {colour: index for index, colour in enumerate(C.COLOURS)}


@lru_cache(maxsize=64)
def _shield_deals(
    unseen: tuple[int, ...], counts: tuple[int, ...], trails: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[float, ...]]:
    """Every deal of the ``unseen`` shields to the other seats (``counts`` each, a
    seat's in ascending order) and its log weight from those seats' ``trails``:
    ``TRAIL_WEIGHT`` times the trail of every colour on the seat's shields, once
    per shield. Kept (read only: tuples): a search deals from the same position
    again and again."""
    deals: list[tuple[tuple[int, ...], ...]] = []

    def deal(left: tuple[int, ...], seat: int, dealt: tuple[tuple[int, ...], ...]) -> None:
        if seat == len(counts):
            deals.append(dealt)
            return
        for shields in itertools.combinations(left, counts[seat]):
            rest = tuple(i for i in left if i not in shields)
            deal(rest, seat + 1, (*dealt, shields))

    deal(unseen, 0, ())
    logs = tuple(
        TRAIL_WEIGHT
        * sum(
            trails[seat][INDEX_OF_COLOUR[colour]]
            for seat, shields in enumerate(dealt)
            for shield in shields
            for colour in C.SHIELDS[shield]
        )
        for dealt in deals
    )
    return tuple(deals), logs


GAME = NogiGame()
