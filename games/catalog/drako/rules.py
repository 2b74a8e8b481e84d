"""Pure rules of Drako: Dragon & Dwarves (Adam Kałuża).

The authoritative spec is ``shared/rules/drako.md``; R-x and C-x in the
docstrings refer to it. The state, action and event schemas and Smoki's own
rulings are in ``docs/rules/drako.md``. This module must not import Django.

A turn is a number of actions; an action may open a *pending decision* that
another seat (or the same one) answers before the turn goes on: the
defender's reaction to an attack, the dwarf player's placing of the dragon's
wounds, the second step of a two-dwarf move, the hand-limit discard, and the
dwarves' choice to use fury before handing the turn over. ``current_seats``
always names the seat that must answer now.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from games.catalog.drako import components as C
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
from games.engine.i18n import _, ngettext_lazy
from games.engine.rng import Rng

# Phases.
EXCHANGE = "exchange"
PLACE = "place"
PLAY = "play"
OVER = "over"

# End reasons.
DRAGON_KILLED = "dragon_killed"
DWARVES_KILLED = "dwarves_killed"
DWARVES_OUT_OF_CARDS = "dwarves_out_of_cards"

# Pending decision kinds.
P_EXCHANGE = "exchange"
P_PLACE = "place"
P_DISCARD = "discard"
P_MOVE2 = "move2"
P_DEFEND = "defend"
P_WOUND = "wound"
P_TURN_END = "turn_end"

ON_BOARD = frozenset(C.HEXES)


# Geometry (spec B1) -------------------------------------------------------------------------


def _neighbours(key: str) -> tuple[str, ...]:
    q, r = C.parse_hex(key)
    found = (C.hex_key(q + dq, r + dr) for dq, dr in C.DIRECTIONS)
    return tuple(h for h in found if h in ON_BOARD)


NEIGHBOURS: dict[str, tuple[str, ...]] = {key: _neighbours(key) for key in C.HEXES}


def _distance(a: str, b: str) -> int:
    aq, ar = C.parse_hex(a)
    bq, br = C.parse_hex(b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def _ray(start: str, direction: int) -> tuple[str, ...]:
    q, r = C.parse_hex(start)
    dq, dr = C.DIRECTIONS[direction]
    hexes = []
    while True:
        q, r = q + dq, r + dr
        key = C.hex_key(q, r)
        if key not in ON_BOARD:
            return tuple(hexes)
        hexes.append(key)


# The board is small and fixed: its distances and lines are worked out once,
# as the bots' rollouts ask for them many thousand times a second.
DISTANCES: dict[tuple[str, str], int] = {(a, b): _distance(a, b) for a in C.HEXES for b in C.HEXES}
RAYS: dict[tuple[str, int], tuple[str, ...]] = {
    (start, direction): _ray(start, direction) for start in C.HEXES for direction in range(6)
}


def distance(a: str, b: str) -> int:
    found = DISTANCES.get((a, b))
    return _distance(a, b) if found is None else found


def ray(start: str, direction: int) -> list[str]:
    """The hexes from ``start`` (excluded) in one direction to the board's edge."""
    found = RAYS.get((start, direction))
    return list(_ray(start, direction) if found is None else found)


def _between(a: str, b: str) -> tuple[str, ...] | None:
    for direction in range(6):
        line = RAYS.get((a, direction)) or _ray(a, direction)
        if b in line:
            return line[: line.index(b)]
    return None


BETWEEN: dict[tuple[str, str], tuple[str, ...] | None] = {
    (a, b): _between(a, b) for a in C.HEXES for b in C.HEXES
}


def between(a: str, b: str) -> list[str] | None:
    """The hexes strictly between ``a`` and ``b`` on their straight line, or None if not in line."""
    found = BETWEEN[a, b] if (a, b) in BETWEEN else _between(a, b)
    return None if found is None else list(found)


#: Each hex's place in the board's canonical order (``C.HEXES``).
HEX_ORDER: dict[str, int] = {key: index for index, key in enumerate(C.HEXES)}


def reachable(start: str, steps: int, blocked: set[str]) -> list[str]:
    """Hexes reachable in at most ``steps`` single steps, never through or onto ``blocked``.

    ``start`` itself is included (a move of 0 steps, R-6.1).
    """
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == steps:
            continue
        for nxt in NEIGHBOURS[here]:
            if nxt not in seen and nxt not in blocked:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return sorted(seen, key=HEX_ORDER.__getitem__)


# Small state helpers ------------------------------------------------------------------------


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clone(item) for item in value]
    return value


def _flat_dict(value: Any) -> Any:
    return dict(value) if value is not None else None


def _dict_of_dicts(value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {key: dict(item) for key, item in value.items()}


def _dict_of_lists(value: dict[str, list[int]]) -> dict[str, list[int]]:
    return {key: list(item) for key, item in value.items()}


#: How each state key is copied, by its shape in the schema (docs/rules/drako.md):
#: flat dicts of scalars, the dwarves' records, the sides' card lists. Keys not
#: listed (the pending decision, any key a later schema adds) get the generic
#: deep copy; scalars are shared.
_COPIERS = {
    "options": _flat_dict,
    "dragon": _flat_dict,
    "dwarves": _dict_of_dicts,
    "hands": _dict_of_lists,
    "piles": _dict_of_lists,
    "out": _dict_of_lists,
    "exchanged": _flat_dict,
    "turn": _flat_dict,
}


def copy_state(state: State) -> State:
    """A deep copy of a Drako state, shaped by its schema: the same result as the
    generic ``_clone``, about four times faster (every move of every rollout of
    the strong bot copies the state)."""
    new = {}
    for key, value in state.items():
        if type(value) in (str, int, bool, float) or value is None:
            new[key] = value
        else:
            copier = _COPIERS.get(key)
            new[key] = copier(value) if copier is not None else _clone(value)
    return new


def other_side(side: str) -> str:
    return C.DWARVES if side == C.DRAGON else C.DRAGON


def seat_of(state: State, side: str) -> int:
    return state["dragon_seat"] if side == C.DRAGON else 1 - state["dragon_seat"]


def side_of(state: State, seat: Any) -> str | None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
        return None
    return C.DRAGON if seat == state["dragon_seat"] else C.DWARVES


def living(state: State) -> list[str]:
    return [d for d in C.DWARF_IDS if state["dwarves"][d]["at"] is not None]


def occupied(state: State) -> dict[str, str]:
    """Hex -> figure ("dragon" or a dwarf id) for every figure on the board."""
    where = {state["dragon"]["at"]: C.DRAGON}
    for dwarf in C.DWARF_IDS:
        at = state["dwarves"][dwarf]["at"]
        if at is not None:
            where[at] = dwarf
    return where


def cards_left(state: State, side: str) -> int:
    return len(state["hands"][side]) + len(state["piles"][side])


def track_full(state: State, track: str) -> bool:
    return state["dragon"][track] >= C.DRAGON_BOXES[track]


def dragon_dead(state: State) -> bool:
    return all(track_full(state, track) for track in C.DRAGON_BOXES)


def dragon_can_walk(state: State) -> bool:
    return not state["dragon"]["netted"] and not track_full(state, C.MOVE_TRACK)


def dragon_can_fly(state: State) -> bool:
    return not state["dragon"]["netted"] and not track_full(state, C.FLY_TRACK)


def dragon_can_breathe(state: State) -> bool:
    return not track_full(state, C.FIRE_TRACK)


def adjacent_dwarves(state: State) -> list[str]:
    near = set(NEIGHBOURS[state["dragon"]["at"]])
    return [d for d in living(state) if state["dwarves"][d]["at"] in near]


def crossbow_clear(state: State) -> bool:
    """R-7.6: the crossbow dwarf is alive, in a straight line, no dwarf between (C11)."""
    at = state["dwarves"][C.XBOW]["at"]
    if at is None:
        return False
    line = between(at, state["dragon"]["at"])
    if line is None:
        return False
    dwarf_hexes = {state["dwarves"][d]["at"] for d in living(state)}
    return not any(h in dwarf_hexes for h in line)


def fire_targets(state: State, direction: int) -> list[str]:
    """Every living dwarf on the ray (fire passes through dwarves, C10), nearest first."""
    by_hex = {state["dwarves"][d]["at"]: d for d in living(state)}
    return [by_hex[h] for h in ray(state["dragon"]["at"], direction) if h in by_hex]


def fury_usable(state: State) -> bool:
    return state["fury_available"] and state["dwarves"][C.FURY]["at"] is not None


def _first_of_each_type(side: str, cards: list[int]) -> list[int]:
    """One card per type (identical cards offer identical actions), lowest id first."""
    seen: set[str] = set()
    chosen = []
    for card in sorted(cards):
        kind = C.CARD_TYPES[side][card]
        if kind not in seen:
            seen.add(kind)
            chosen.append(card)
    return chosen


def defence_cards(state: State, side: str) -> list[int]:
    return [card for card in state["hands"][side] if C.can_defend(side, card)]


# The game -----------------------------------------------------------------------------------


class DrakoGame(Game):
    """The ``drako`` game object: see ``games.engine.base.Game`` for the contract."""

    key = "drako"
    title = _("Drako: Dragon & Dwarves")
    rules_version = 1
    min_players = 2
    max_players = 2
    options = [
        Option(
            key="sides",
            label=_("Sides"),
            choices=[
                ("random", _("Drawn at random")),
                ("seat1_dragon", _("Seat 1 plays the dragon")),
                ("seat1_dwarves", _("Seat 1 plays the dwarves")),
            ],
            default="random",
            help=_("Who plays the dragon and who the three dwarves. The dragon starts."),
        ),
        Option(
            key="placement",
            label=_("Dwarf placement"),
            choices=[
                ("first_game", _("First game: fixed positions")),
                ("free", _("Free: placed after seeing the hand")),
            ],
            default="first_game",
            help=_(
                "Free placement: the dwarf player puts the three dwarves on any hexes "
                "not next to the dragon after looking at the starting hand."
            ),
        ),
        Option(
            key="exchange",
            label=_("Hand exchange (advanced rule)"),
            choices=[(False, _("Off")), (True, _("On"))],
            default=False,
            help=_(
                "Before play each player may once shuffle the starting hand back and draw "
                "4 new cards: the dragon first, then the dwarves."
            ),
        ),
    ]

    def demo_setup(self) -> tuple[int, dict[str, Any]]:
        return 2, {"sides": "seat1_dragon", "placement": "first_game", "exchange": False}

    # Setup ----------------------------------------------------------------------------------

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        """R-2: dragon in the centre, shuffled decks, 4 cards each, markers available."""
        if n_players != 2 or isinstance(n_players, bool):
            raise IllegalAction(_("Drako is a game for exactly 2 players."))
        options = resolve_options(self, options)
        rng = Rng.from_seed(seed)
        if options["sides"] == "random":
            dragon_seat = rng.below(2)
        else:
            dragon_seat = 0 if options["sides"] == "seat1_dragon" else 1
        piles = {side: rng.shuffled(list(range(C.DECK_SIZE))) for side in C.SIDES}
        hands = {side: [piles[side].pop() for _ in range(C.STARTING_HAND)] for side in C.SIDES}
        first_game = options["placement"] == "first_game"
        state = new_state(
            options=options,
            dragon_seat=dragon_seat,
            dwarves={d: (C.FIRST_GAME_DWARVES[d] if first_game else None) for d in C.DWARF_IDS},
            hands=hands,
            piles=piles,
        )
        state["rng"] = rng.dump()
        _next_setup_step(state, [])
        return state

    def opening_events(self, state: State) -> list[Event]:
        """The sides and the deal of a fresh ``setup`` state (each hand private to its seat)."""
        events: list[Event] = [
            {
                "type": "sides",
                "dragon_seat": state["dragon_seat"],
                "dwarves_seat": seat_of(state, C.DWARVES),
                "placement": state["options"]["placement"],
            }
        ]
        for side in C.SIDES:
            events.append({"type": "dealt", "side": side, "count": len(state["hands"][side])})
            events.append(
                {
                    "type": "your_cards",
                    "side": side,
                    "cards": sorted(state["hands"][side]),
                    "private_to": seat_of(state, side),
                }
            )
        return events

    # Queries --------------------------------------------------------------------------------

    def current_seats(self, state: State) -> list[int]:
        if state["phase"] == OVER:
            return []
        pending = state["pending"]
        side = pending["side"] if pending else state["turn"]["side"]
        return [seat_of(state, side)]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        side = side_of(state, seat)
        if side is None or state["phase"] == OVER or self.current_seats(state) != [seat]:
            return []
        pending = state["pending"]
        if pending:
            return _pending_actions(state, pending)
        return _turn_actions(state, side)

    def result(self, state: State) -> Result | None:
        if state["phase"] != OVER:
            return None
        winner_seat = seat_of(state, state["winner"])
        ranks = [1 if seat == winner_seat else 2 for seat in range(2)]
        return Result(
            ranks=ranks,
            scores=[None, None],
            details={"winner": state["winner"], "end_reason": state["end_reason"]},
        )

    def final_details(self, state: State) -> dict[str, Any]:
        """The dragon's seat: the banner names the side whose player won, also after
        a resignation or a loss on time."""
        return {"dragon_seat": state["dragon_seat"]}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Public: the board, tracks, markers, counts, played cards. Own hand only to its seat."""
        side = side_of(state, seat)
        pending = state["pending"]
        view: dict[str, Any] = {
            "game": self.key,
            "viewer": seat if side else None,
            "my_side": side,
            "dragon_seat": state["dragon_seat"],
            "dwarves_seat": seat_of(state, C.DWARVES),
            "options": dict(state["options"]),
            "phase": state["phase"],
            "dragon": dict(state["dragon"]),
            "dwarves": {d: dict(state["dwarves"][d]) for d in C.DWARF_IDS},
            "net_available": state["net_available"],
            "fury_available": state["fury_available"],
            "hand_counts": {s: len(state["hands"][s]) for s in C.SIDES},
            "pile_counts": {s: len(state["piles"][s]) for s in C.SIDES},
            "played": {s: list(state["out"][s]) for s in C.SIDES},
            "exchanged": dict(state["exchanged"]),
            "turn": dict(state["turn"]) if state["turn"] else None,
            "pending": _clone(pending) if pending else None,
            "to_move": self.current_seats(state),
            "winner": state["winner"],
            "end_reason": state["end_reason"],
            "over": state["phase"] == OVER,
            "me": None,
        }
        if side is not None:
            view["me"] = {"side": side, "hand": sorted(state["hands"][side])}
        if state["phase"] == OVER:
            view["result"] = self.result(state).to_json()
            view["revealed"] = {s: sorted(state["hands"][s]) for s in C.SIDES}
        return view

    def perturb_secrets(self, state: State, seat: int | None, rng: Any) -> State:
        """Reshuffle the hand and pile of every side ``seat`` does not play, and the PRNG.

        Counts stay; a side asked to defend keeps at least one defence card in
        hand (the pending decision is public, so is that fact). Once the game is
        over the hands are revealed and only the piles' order is reshuffled.
        """
        new = _clone(state)
        mine = side_of(state, seat)
        for side in C.SIDES:
            if side == mine:
                continue
            if state["phase"] == OVER:  # the hands are revealed; only the pile order is secret
                new["piles"][side] = rng.shuffled(new["piles"][side])
                continue
            pool = new["hands"][side] + new["piles"][side]
            n_hand = len(new["hands"][side])
            must_defend = bool(new["pending"]) and new["pending"]["kind"] == P_DEFEND
            must_defend = must_defend and new["pending"]["side"] == side
            for _attempt in range(200):
                shuffled = rng.shuffled(pool)
                hand = shuffled[:n_hand]
                if not must_defend or any(C.can_defend(side, c) for c in hand):
                    break
            new["hands"][side] = hand
            new["piles"][side] = shuffled[n_hand:]
        new["rng"] = f"{rng.next64():016x}"
        return new

    def sample_secrets(self, state: State, seat: int, rng: Any) -> State:
        """Deal the other side's hand and pile anew from its sorted cards (a side
        asked to defend holds a defence card), new PRNG."""
        new = copy_state(state)
        mine = side_of(state, seat)
        for side in C.SIDES:
            if side == mine:
                continue
            if state["phase"] == OVER:
                new["piles"][side] = rng.shuffled(sorted(new["piles"][side]))
                continue
            pool = sorted(new["hands"][side] + new["piles"][side])
            n_hand = len(new["hands"][side])
            must_defend = bool(new["pending"]) and new["pending"]["kind"] == P_DEFEND
            must_defend = must_defend and new["pending"]["side"] == side
            for _attempt in range(200):
                shuffled = rng.shuffled(pool)
                if not must_defend or any(C.can_defend(side, c) for c in shuffled[:n_hand]):
                    break
            new["hands"][side] = shuffled[:n_hand]
            new["piles"][side] = shuffled[n_hand:]
        new["rng"] = f"{rng.next64():016x}"
        return new

    # Acting ---------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == OVER

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        message, params = _why_illegal(state, side_of(state, seat), action)
        return IllegalAction(message, **params)

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def resolve(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        _act(state, side_of(state, seat), action, events)
        return events

    # Invariants -----------------------------------------------------------------------------

    def check_invariants(self, state: State) -> None:
        check_position(state)


GAME = DrakoGame()


# State construction -------------------------------------------------------------------------


def new_state(
    *,
    options: dict[str, Any],
    dragon_seat: int,
    dwarves: dict[str, str | None],
    hands: dict[str, list[int]],
    piles: dict[str, list[int]],
    dragon_at: str = C.DRAGON_START,
) -> State:
    """The one place that lists every state key (documented in docs/rules/drako.md)."""
    out = {}
    for side in C.SIDES:
        held = set(hands[side]) | set(piles[side])
        out[side] = [card for card in range(C.DECK_SIZE) if card not in held]
    return {
        "options": dict(options),
        "dragon_seat": dragon_seat,
        "rng": "",
        "phase": EXCHANGE,
        "dragon": {
            "at": dragon_at,
            "netted": False,
            **dict.fromkeys(C.DRAGON_BOXES, 0),
        },
        "dwarves": {d: {"at": dwarves.get(d), "wounds": 0} for d in C.DWARF_IDS},
        "net_available": True,
        "fury_available": True,
        "hands": {side: list(hands[side]) for side in C.SIDES},
        "piles": {side: list(piles[side]) for side in C.SIDES},
        "out": out,
        "exchanged": dict.fromkeys(C.SIDES, False),
        "turn": None,
        "pending": None,
        "winner": None,
        "end_reason": None,
    }


def check_position(state: State) -> None:
    """Invariants that hold at every moment (the harness calls this after every step)."""
    for side in C.SIDES:
        cards = state["hands"][side] + state["piles"][side] + state["out"][side]
        assert sorted(cards) == list(range(C.DECK_SIZE)), f"{side} cards not conserved"
        assert len(state["hands"][side]) <= C.HAND_LIMIT or (
            state["pending"]
            and state["pending"]["kind"] == P_DISCARD
            and state["pending"]["side"] == side
        ), f"{side} holds more than {C.HAND_LIMIT} cards"
    dragon = state["dragon"]
    assert dragon["at"] in ON_BOARD, "the dragon is off the board"
    for track, boxes in C.DRAGON_BOXES.items():
        assert 0 <= dragon[track] <= boxes, f"dragon {track} track overfilled"
    if any(dragon[track] for track in C.ABILITY_TRACKS):
        assert dragon[C.ARMOUR] == C.DRAGON_BOXES[C.ARMOUR], "ability hit before the armour"
    assert dragon["netted"] == (not state["net_available"]), "the net marker is in two places"
    spots = [dragon["at"]]
    for d in C.DWARF_IDS:
        dwarf = state["dwarves"][d]
        assert 0 <= dwarf["wounds"] <= C.DWARF_BOXES[d], f"{d} overfilled"
        dead = dwarf["wounds"] == C.DWARF_BOXES[d]
        if dead:
            assert dwarf["at"] is None, f"dead {d} still on the board"
        elif dwarf["at"] is not None:
            assert dwarf["at"] in ON_BOARD, f"{d} is off the board"
            spots.append(dwarf["at"])
        else:
            assert state["phase"] in (EXCHANGE, PLACE), f"living {d} off the board in play"
    assert len(spots) == len(set(spots)), "two figures share a hex"
    if state["phase"] == OVER:
        assert state["winner"] in C.SIDES and state["pending"] is None
    else:
        assert state["winner"] is None
        assert not dragon_dead(state), "the dragon is dead but the game goes on"
        assert living(state) or state["phase"] in (EXCHANGE, PLACE), "no dwarf left"
    if state["phase"] == PLAY and state["phase"] != OVER:
        assert cards_left(state, C.DWARVES) > 0 or state["pending"], "dwarves out of cards"


# Legal actions ------------------------------------------------------------------------------


def _pending_actions(state: State, pending: dict[str, Any]) -> list[Action]:
    kind = pending["kind"]
    side = pending["side"]
    if kind == P_EXCHANGE:
        return [{"type": "keep"}, {"type": "exchange"}]
    if kind == P_PLACE:
        taken = set(occupied(state))
        return [
            {"type": "place", "dwarf": pending["dwarf"], "at": h}
            for h in C.HEXES
            if h not in taken and distance(h, state["dragon"]["at"]) >= 2
        ]
    if kind == P_DISCARD:
        return [
            {"type": "discard", "card": c} for c in _first_of_each_type(side, state["hands"][side])
        ]
    if kind == P_MOVE2:
        return _move2_actions(state, pending) + [{"type": "stop"}]
    if kind == P_DEFEND:
        open_attacks = [i for i, a in enumerate(pending["attacks"]) if not a["blocked"]]
        actions: list[Action] = [
            {"type": "defend", "card": c, "attack": i}
            for c in _first_of_each_type(side, defence_cards(state, side))
            for i in open_attacks
        ]
        actions.append({"type": "no_defence"})
        return actions
    if kind == P_WOUND:
        return [{"type": "wound", "track": t} for t in C.ABILITY_TRACKS if not track_full(state, t)]
    if kind == P_TURN_END:
        return [{"type": "end_turn"}, {"type": "fury"}]
    raise AssertionError(f"unknown pending kind {kind!r}")


def _move2_actions(state: State, pending: dict[str, Any]) -> list[Action]:
    where = occupied(state)
    actions: list[Action] = []
    for dwarf in living(state):
        if dwarf in pending["moved"]:
            continue
        start = state["dwarves"][dwarf]["at"]
        blocked = set(where) - {start}
        for h in reachable(start, pending["n"], blocked):
            if h != start:
                actions.append({"type": "move", "dwarf": dwarf, "to": h})
    return actions


def _turn_actions(state: State, side: str) -> list[Action]:
    """The actions of the side whose turn it is, with no decision pending."""
    turn = state["turn"]
    actions: list[Action] = []
    if side == C.DRAGON and state["dragon"]["netted"] and turn["free_possible"]:
        actions.append({"type": "free"})
    if state["piles"][side]:
        actions.append({"type": "draw"})
    for card in _first_of_each_type(side, state["hands"][side]):
        for symbol in C.card_options(side, card):
            actions.extend(_play_actions(state, side, card, symbol))
    if side == C.DWARVES and fury_usable(state):
        actions.append({"type": "fury"})
    if not [a for a in actions if a["type"] != "fury"]:
        # C4: cards but nothing to do with them: discard one card of your choice.
        actions[:0] = [
            {"type": "discard", "card": c} for c in _first_of_each_type(side, state["hands"][side])
        ]
    return actions


def _play_actions(state: State, side: str, card: int, symbol: str) -> list[Action]:
    code = C.symbol_code(symbol)
    n = C.symbol_value(symbol)
    base = {"type": "play", "card": card, "symbol": symbol}
    where = occupied(state)
    if code == C.DEF:
        return []  # a defence is only ever a reaction
    if code == C.MOVE1:
        actions = []
        for dwarf in living(state):
            start = state["dwarves"][dwarf]["at"]
            for h in reachable(start, n, set(where) - {start}):
                actions.append({**base, "dwarf": dwarf, "to": h})
        return actions
    if code == C.MOVE2:
        return [base] if living(state) else []
    if code == C.ATK1:
        return [{**base, "dwarf": d} for d in adjacent_dwarves(state)]
    if code == C.ATK2:
        near = adjacent_dwarves(state)
        actions = [{**base, "dwarves": [d]} for d in near]
        actions += [{**base, "dwarves": [a, b]} for i, a in enumerate(near) for b in near[i + 1 :]]
        return actions
    if code == C.SHOOT:
        return [base] if crossbow_clear(state) else []
    if code == C.THROW_NET:
        ok = state["net_available"] and state["dwarves"][C.NET]["at"] is not None
        return [base] if ok else []
    if code == C.DMOVE:
        if not dragon_can_walk(state):
            return []
        start = state["dragon"]["at"]
        return [{**base, "to": h} for h in reachable(start, n, set(where) - {start})]
    if code == C.FLY:
        if not dragon_can_fly(state):
            return []
        start = state["dragon"]["at"]
        return [{**base, "to": h} for h in C.HEXES if h == start or h not in where]
    if code == C.BITE:
        return [{**base, "dwarf": d} for d in adjacent_dwarves(state)]
    if code == C.FIRE:
        return [{**base, "dir": k} for k in range(6)] if dragon_can_breathe(state) else []
    raise AssertionError(f"unknown symbol {symbol!r}")


def _why_illegal(state: State, side: str, action: Any) -> tuple[str, dict[str, Any]]:
    """A refusal a player understands (the action is known not to be legal)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return _("That is not a move in Drako."), {}
    kind = action["type"]
    pending = state["pending"]
    if pending and pending["kind"] == P_DEFEND:
        return _("An attack is waiting for your answer: defend or take the hit."), {}
    if pending and pending["kind"] == P_WOUND:
        return _("Choose where the next wound on the dragon goes."), {}
    if pending and pending["kind"] == P_DISCARD:
        return _("You hold more than 6 cards: choose a card to discard."), {}
    if pending and pending["kind"] == P_MOVE2:
        if kind == "move":
            return ngettext_lazy(
                "That dwarf cannot go there: each dwarf moves at most %(n)s step, once, "
                "and never through or onto another figure.",
                "That dwarf cannot go there: each dwarf moves at most %(n)s steps, once, "
                "and never through or onto another figure.",
            ), {"n": pending["n"]}
        return _("Move a second dwarf or stop."), {}
    if kind == "fury":
        if side != C.DWARVES:
            return _("Only the dwarves have fury, in their own turn."), {}
        return _("Fury can be used once per game, while the fury dwarf lives."), {}
    if kind == "free":
        return _("Freeing the dragon from the net takes both actions of a whole turn."), {}
    if kind == "draw":
        return _("Your draw pile is empty."), {}
    if kind != "play":
        return _("That move is not possible now."), {}
    card = action.get("card")
    hand = state["hands"][side]
    if not isinstance(card, int) or isinstance(card, bool) or card not in hand:
        return _("That card is not in your hand."), {}
    symbol = action.get("symbol")
    if symbol not in C.card_options(side, card):
        return _("That card has no such symbol."), {}
    code = C.symbol_code(symbol)
    if code == C.DEF:
        return _("A defence can only be played in reaction to an attack."), {}
    if code in (C.DMOVE, C.FLY) and state["dragon"]["netted"]:
        return _("The dragon is held by the net and cannot move."), {}
    if code == C.DMOVE and track_full(state, C.MOVE_TRACK):
        return _("The dragon's legs are wounded: it can no longer walk."), {}
    if code == C.FLY and track_full(state, C.FLY_TRACK):
        return _("The dragon's wings are wounded: it can no longer fly."), {}
    if code == C.FIRE and track_full(state, C.FIRE_TRACK):
        return _("The dragon's fire is wounded: it can no longer breathe fire."), {}
    if code in (C.ATK1, C.ATK2, C.BITE):
        return _("The attacker must stand next to its target."), {}
    if code == C.SHOOT:
        if state["dwarves"][C.XBOW]["at"] is None:
            return _("The crossbow dwarf is dead."), {}
        return _(
            "The crossbow dwarf needs a straight line to the dragon with no dwarf between."
        ), {}
    if code == C.THROW_NET:
        if state["dwarves"][C.NET]["at"] is None:
            return _("The net dwarf is dead."), {}
        return _("The net is already on the dragon."), {}
    if code in (C.MOVE1, C.DMOVE, C.FLY):
        return ngettext_lazy(
            "That figure cannot go there: it moves at most %(n)s step, one at a time, "
            "never through or onto another figure.",
            "That figure cannot go there: it moves at most %(n)s steps, one at a time, "
            "never through or onto another figure.",
        ), {"n": C.symbol_value(symbol) if code != C.FLY else 0}
    return _("That move is not possible now."), {}


# Applying an action (mutates the private copy it is given) ---------------------------------


def _act(state: State, side: str, action: Action, events: list[Event]) -> None:
    kind = action["type"]
    pending = state["pending"]
    if kind in ("keep", "exchange"):
        _answer_exchange(state, side, kind == "exchange", events)
    elif kind == "place":
        dwarf = action["dwarf"]
        state["dwarves"][dwarf]["at"] = action["at"]
        events.append({"type": "placed", "dwarf": dwarf, "at": action["at"]})
        state["pending"] = None
        _next_setup_step(state, events)
    elif kind == "discard" and pending:
        _discard(state, side, action["card"], events, forced=False)
        pending["count"] -= 1
        if pending["count"] <= 0:
            state["pending"] = None
    elif kind == "discard":
        state["turn"]["actions_left"] -= 1
        state["turn"]["free_possible"] = False
        _discard(state, side, action["card"], events, forced=True)
    elif kind == "draw":
        _spend_action(state)
        _draw(state, side, events)
    elif kind == "play":
        _spend_action(state)
        _play(state, side, action, events)
    elif kind == "free":
        state["turn"]["actions_left"] = 0
        state["turn"]["free_possible"] = False
        state["dragon"]["netted"] = False
        state["net_available"] = True
        events.append({"type": "freed", "auto": False})
    elif kind == "move":
        _move_figure(state, action["dwarf"], action["to"], events)
        pending["moved"].append(action["dwarf"])
        if len(pending["moved"]) >= 2 or not _move2_actions(state, pending):
            state["pending"] = None
    elif kind == "stop":
        events.append({"type": "move_stopped", "moved": len(pending["moved"])})
        state["pending"] = None
    elif kind == "defend":
        card = action["card"]
        state["hands"][side].remove(card)
        state["out"][side].append(card)
        attack = pending["attacks"][action["attack"]]
        attack["blocked"] = True
        events.append({"type": "defended", "side": side, "card": card, "target": attack["target"]})
        if all(a["blocked"] for a in pending["attacks"]) or not defence_cards(state, side):
            _resolve_attacks(state, events)
    elif kind == "no_defence":
        events.append({"type": "no_defence", "side": side})
        _resolve_attacks(state, events)
    elif kind == "wound":
        state["dragon"][action["track"]] += 1
        pending["markers"] -= 1
        events.append({"type": "wound_placed", "track": action["track"]})
        _place_dragon_markers(state, events)
    elif kind == "fury":
        _fury(state, events)
    elif kind == "end_turn":
        state["pending"] = None
        events.append({"type": "turn_ended", "side": side})
        _begin_turn(state, C.DRAGON, events)
    else:  # pragma: no cover - legal_actions lists only the kinds above
        raise AssertionError(kind)
    if state["phase"] == PLAY and not state["pending"]:
        _settle(state, events)


def _spend_action(state: State) -> None:
    state["turn"]["actions_left"] -= 1
    state["turn"]["free_possible"] = False


def _answer_exchange(state: State, side: str, exchange: bool, events: list[Event]) -> None:
    """R-2.5 / C16: shuffle the 4 cards back into the deck and draw 4 new ones."""
    state["exchanged"][side] = True
    state["pending"] = None
    if exchange:
        rng = Rng.load(state["rng"])
        pile = state["piles"][side] + state["hands"][side]
        rng.shuffle(pile)
        state["hands"][side] = [pile.pop() for _ in range(C.STARTING_HAND)]
        state["piles"][side] = pile
        state["rng"] = rng.dump()
        events.append({"type": "exchanged", "side": side})
        events.append(
            {
                "type": "your_cards",
                "side": side,
                "cards": sorted(state["hands"][side]),
                "private_to": seat_of(state, side),
            }
        )
    else:
        events.append({"type": "kept", "side": side})
    _next_setup_step(state, events)


def _next_setup_step(state: State, events: list[Event]) -> None:
    """Exchange (dragon, then dwarves), then free placement, then the dragon's first turn."""
    if state["options"]["exchange"]:
        for side in C.SIDES:
            if not state["exchanged"][side]:
                state["phase"] = EXCHANGE
                state["pending"] = {"kind": P_EXCHANGE, "side": side}
                return
    for dwarf in C.DWARF_IDS:
        if state["dwarves"][dwarf]["at"] is None and state["dwarves"][dwarf]["wounds"] == 0:
            state["phase"] = PLACE
            state["pending"] = {"kind": P_PLACE, "side": C.DWARVES, "dwarf": dwarf}
            return
    state["phase"] = PLAY
    state["pending"] = None
    _begin_turn(state, C.DRAGON, events, number=1)


def _begin_turn(state: State, side: str, events: list[Event], number: int | None = None) -> None:
    """R-3.1: 2 actions (the dragon's first turn 1). R-11.1: a dragon without cards passes."""
    if number is None:
        number = state["turn"]["number"] + 1
    actions = C.FIRST_TURN_ACTIONS if number == 1 else C.ACTIONS_PER_TURN
    state["turn"] = {
        "side": side,
        "number": number,
        "actions_left": actions,
        "free_possible": actions == C.ACTIONS_PER_TURN,
    }
    events.append({"type": "turn_started", "side": side, "number": number, "actions": actions})
    if side == C.DRAGON and cards_left(state, C.DRAGON) == 0:
        if state["dragon"]["netted"]:
            # C18: freeing costs actions, not cards, and actions cannot be declined.
            state["dragon"]["netted"] = False
            state["net_available"] = True
            events.append({"type": "freed", "auto": True})
        else:
            events.append({"type": "passed", "side": side})
        _begin_turn(state, C.DWARVES, events)


def _settle(state: State, events: list[Event]) -> None:
    """An action has fully resolved: check the endings (R-12), then go on or hand over."""
    if _check_end(state, events, with_cards=True):
        return
    turn = state["turn"]
    side = turn["side"]
    if turn["actions_left"] > 0:
        if cards_left(state, side) == 0:  # C5: only the dragon gets here (dwarves have lost)
            events.append({"type": "passed", "side": side})
            turn["actions_left"] = 0
        else:
            return
    if side == C.DWARVES and fury_usable(state):
        state["pending"] = {"kind": P_TURN_END, "side": C.DWARVES}
        return
    _begin_turn(state, other_side(side), events)


def _check_end(state: State, events: list[Event], *, with_cards: bool) -> bool:
    """R-12 in the spec's order; ``with_cards`` adds check 3 (only once effects are resolved)."""
    if dragon_dead(state):
        return _finish(state, C.DWARVES, DRAGON_KILLED, events)
    if not living(state):
        return _finish(state, C.DRAGON, DWARVES_KILLED, events)
    if with_cards and cards_left(state, C.DWARVES) == 0:
        return _finish(state, C.DRAGON, DWARVES_OUT_OF_CARDS, events)
    return False


def _finish(state: State, winner: str, reason: str, events: list[Event]) -> bool:
    state["phase"] = OVER
    state["winner"] = winner
    state["end_reason"] = reason
    state["pending"] = None
    events.append({"type": "game_over", "winner": winner, "reason": reason})
    return True


def _discard(state: State, side: str, card: int, events: list[Event], *, forced: bool) -> None:
    state["hands"][side].remove(card)
    state["out"][side].append(card)
    events.append({"type": "discarded", "side": side, "card": card, "forced": forced})


def _draw(state: State, side: str, events: list[Event]) -> None:
    """R-4: draw 2 (1 from a one-card pile); over 6 cards, the owner discards the excess."""
    pile = state["piles"][side]
    drawn = [pile.pop() for _ in range(min(C.DRAW_COUNT, len(pile)))]
    state["hands"][side].extend(drawn)
    events.append({"type": "drew", "side": side, "count": len(drawn)})
    events.append(
        {
            "type": "drawn_cards",
            "side": side,
            "cards": drawn,
            "private_to": seat_of(state, side),
        }
    )
    excess = len(state["hands"][side]) - C.HAND_LIMIT
    if excess > 0:
        state["pending"] = {"kind": P_DISCARD, "side": side, "count": excess}


def _move_figure(state: State, figure: str, to: str, events: list[Event]) -> None:
    holder = state["dragon"] if figure == C.DRAGON else state["dwarves"][figure]
    start = holder["at"]
    holder["at"] = to
    events.append({"type": "moved", "figure": figure, "from": start, "to": to})


def _play(state: State, side: str, action: Action, events: list[Event]) -> None:
    card = action["card"]
    symbol = action["symbol"]
    state["hands"][side].remove(card)
    state["out"][side].append(card)
    events.append({"type": "played", "side": side, "card": card, "symbol": symbol})
    code = C.symbol_code(symbol)
    n = C.symbol_value(symbol)
    if code in (C.MOVE1, C.DMOVE):
        figure = action["dwarf"] if code == C.MOVE1 else C.DRAGON
        _move_figure(state, figure, action["to"], events)
    elif code == C.FLY:
        start = state["dragon"]["at"]
        state["dragon"]["at"] = action["to"]
        events.append({"type": "flew", "from": start, "to": action["to"]})
    elif code == C.MOVE2:
        state["pending"] = {"kind": P_MOVE2, "side": C.DWARVES, "n": n, "moved": []}
        if not _move2_actions(state, state["pending"]):
            state["pending"] = None
    elif code == C.ATK1:
        _declare(state, [_attack(action["dwarf"], C.DRAGON, n)], events)
    elif code == C.ATK2:
        _declare(state, [_attack(d, C.DRAGON, n) for d in action["dwarves"]], events)
    elif code == C.SHOOT:
        _declare(state, [_attack(C.XBOW, C.DRAGON, n)], events)
    elif code == C.THROW_NET:
        state["dragon"]["netted"] = True
        state["net_available"] = False
        events.append({"type": "netted"})
    elif code == C.BITE:
        _declare(state, [_attack(C.DRAGON, action["dwarf"], n)], events)
    elif code == C.FIRE:
        direction = action["dir"]
        targets = fire_targets(state, direction)
        events.append({"type": "fire", "dir": direction, "targets": targets})
        if targets:
            _declare(state, [_attack(C.DRAGON, d, n) for d in targets], events)


def _attack(by: str, target: str, strength: int) -> dict[str, Any]:
    return {"by": by, "target": target, "strength": strength, "blocked": False}


def _declare(state: State, attacks: list[dict[str, Any]], events: list[Event]) -> None:
    """R-6.3: the defender may react with a Defence; without one, the attack resolves now."""
    defender = C.DRAGON if attacks[0]["target"] == C.DRAGON else C.DWARVES
    for attack in attacks:
        events.append(
            {
                "type": "attack",
                "by": attack["by"],
                "target": attack["target"],
                "strength": attack["strength"],
            }
        )
    state["pending"] = {"kind": P_DEFEND, "side": defender, "attacks": attacks}
    if not defence_cards(state, defender):
        _resolve_attacks(state, events)


def _resolve_attacks(state: State, events: list[Event]) -> None:
    """Unblocked attacks deal their damage (R-9); dead dwarves leave the board."""
    attacks = state["pending"]["attacks"]
    state["pending"] = None
    to_dragon = 0
    for attack in attacks:
        if attack["blocked"]:
            continue
        if attack["target"] == C.DRAGON:
            to_dragon += attack["strength"]
        else:
            _wound_dwarf(state, attack["target"], attack["strength"], events)
    if _check_end(state, events, with_cards=False):
        return
    if to_dragon:
        armour = state["dragon"][C.ARMOUR]
        into_armour = min(to_dragon, C.DRAGON_BOXES[C.ARMOUR] - armour)
        state["dragon"][C.ARMOUR] += into_armour
        events.append({"type": "dragon_wounded", "damage": to_dragon, "armour": into_armour})
        state["pending"] = {
            "kind": P_WOUND,
            "side": C.DWARVES,
            "markers": to_dragon - into_armour,
        }
        _place_dragon_markers(state, events)


def _place_dragon_markers(state: State, events: list[Event]) -> None:
    """R-9.2 / C14: the dwarf player places each marker past the armour; placed by itself
    when there is no real choice (one open track, or enough markers to fill them all)."""
    pending = state["pending"]
    while pending["markers"] > 0:
        open_tracks = [t for t in C.ABILITY_TRACKS if not track_full(state, t)]
        room = sum(C.DRAGON_BOXES[t] - state["dragon"][t] for t in open_tracks)
        if not open_tracks:
            events.append({"type": "wounds_ignored", "count": pending["markers"]})
            break
        if len(open_tracks) > 1 and pending["markers"] < room:
            return  # the dwarf player chooses
        track = open_tracks[0]
        state["dragon"][track] += 1
        pending["markers"] -= 1
        events.append({"type": "wound_placed", "track": track, "auto": True})
    state["pending"] = None
    _check_end(state, events, with_cards=False)


def _wound_dwarf(state: State, dwarf: str, damage: int, events: list[Event]) -> None:
    """R-9.1: fill the dwarf's boxes; extra damage is ignored; a full dwarf dies."""
    record = state["dwarves"][dwarf]
    before = record["wounds"]
    record["wounds"] = min(C.DWARF_BOXES[dwarf], before + damage)
    events.append(
        {
            "type": "dwarf_wounded",
            "dwarf": dwarf,
            "damage": damage,
            "wounds": record["wounds"],
            "boxes": C.DWARF_BOXES[dwarf],
        }
    )
    if record["wounds"] >= C.DWARF_BOXES[dwarf]:
        events.append({"type": "dwarf_died", "dwarf": dwarf, "at": record["at"]})
        record["at"] = None


def _fury(state: State, events: list[Event]) -> None:
    """R-10.1 / C8: the fury dwarf takes 1 wound, the dwarves get 1 more action this turn."""
    state["fury_available"] = False
    state["turn"]["actions_left"] += 1
    events.append({"type": "fury"})
    _wound_dwarf(state, C.FURY, 1, events)
    if state["pending"] and state["pending"]["kind"] == P_TURN_END:
        state["pending"] = None
    _check_end(state, events, with_cards=False)
