"""A simple Drakon bot: plays for timed-out seats and for bot seats.

It reads only the game's ``view(state, seat)`` (or the part of it it reads
with the lair's index of the rooms, ``rules.view.sight_view``, built faster)
and ``legal_actions(state, seat)`` (the game of the state's edition), never
the raw state, so it cannot cheat: it does not know the pile, the hoard's
values, other hands or other players' coin values.

Levels:

- ``"random"``: a uniform choice among the legal actions.
- ``"heuristic"``: scores every legal action with a one-step look at the
  lair. It walks into coin rooms and out of Drakon's way, places good rooms
  where its own arrows point and bad ones where opponents' arrows point,
  sends Drakon and mind-controlled heroes against opponents, and spends its
  hero's ability when it pays (the Thief steals, the Ranger moves into a
  coin room, the Druid always protects, ...). Ties are broken with the given
  ``Rng``, so a choice is deterministic given the rng.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.catalog.drakon.rules import BITS, GAMES_BY_EDITION, STEPS, key_of, xy
from games.catalog.drakon.rules.view import sight_view
from games.engine.base import Action, State
from games.engine.rng import Rng

LEVELS = ("random", "heuristic")

#: The strong level's search (games.engine.bots.SEARCH_DEFAULTS): Drakon's rollouts were about 30 a
#: second of one core (57 for the first edition), so at most 24 a move kept a search inside one
#: second (docs/bots.md); since the faster rules they are about 2.4 times as fast (2.3 for the first
#: edition, docs/performance.md), and the budget is unchanged.
SEARCH = {"max_iterations": 24}

#: The computer review's caps (games.engine.review.REVIEW_DEFAULTS): a review of a
#: 100-decision match keeps to a minute of one core only with about 17 rollouts a
#: decision here, so the search spreads 8 over the contenders, the choice made and
#: the preferred one are judged on 6 deals, a roll or draw on 4 (docs/bots.md, "Reviews").
REVIEW = {"max_iterations": 8, "max_samples": 6, "luck_samples": 4}

#: What entering a room is worth to a hero, before the situational adjustments below.
ROOM_WORTH: dict[str, float] = {
    "find_coin": 3.0,
    "steal_left": 2.0,
    "steal_right": 2.0,
    "drakon_moves": 1.0,
    "portal": 0.8,
    "steal_tile": 0.6,
    "mind_control": 0.5,
    "master_key": 0.5,
    "destroy": 0.3,
    "swap": 0.3,
    "rotate": 0.2,
    "floating": 0.2,
    "lose_coin": -2.0,
    # the first edition's rooms
    "find_gold": 3.0,
    "vortex": 0.8,
    "map": 0.6,
    "mind_orb": 0.5,
    "shift": 0.3,
    "wishing_well": -2.0,
    "drakons_due": -1.5,
}

#: Rooms where a hero gains a coin from the hoard, and where it loses one of its own.
FIND_ROOMS = frozenset({"find_coin", "find_gold"})
LOSS_ROOMS = frozenset({"lose_coin", "wishing_well", "drakons_due"})

#: The Start is worth a coin when coins lie on it (first edition).
START_WORTH = 2.5

#: Hero preference when choosing (Heroes!).
HERO_PREFERENCE = ("thief", "ranger", "knight", "sorceress", "druid", "warrior")

#: Tiles the Warrior is glad to get rid of.
POOR_TILES = frozenset(
    {
        "lose_coin",
        "empty",
        "harp",
        "whirlwind",
        "wishing_well",
        "drakons_due",
        "gale",
        "strong_wind",
    }
)

#: First-edition heroes whose ability works like a later one's, for scoring.
SCORED_AS = {"amazon": "ranger", "barbarian": "knight", "dwarf": "warrior"}

MEETING_DRAKON = -4.0
WIN = 100.0
PLACE_BASE = 0.4
OWN_REACH = 0.6
ENEMY_REACH = 0.4
LOOKAHEAD = 0.3


def choose(state: State, seat: int, rng: Rng, level: str = "heuristic") -> Action:
    """Pick one legal action for ``seat``; raise ValueError if the seat cannot act."""
    game = GAMES_BY_EDITION[state["edition"]]
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    if level == "random":
        return rng.choice(legal)
    if level != "heuristic":
        raise ValueError(f"unknown bot level {level!r}; choose from {LEVELS}")
    scores = sight_of(game, state, seat).scores(legal)
    best = max(scores)
    return rng.choice([a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9])


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """The heuristic's score of each legal action (the strong level searches the best)."""
    game = GAMES_BY_EDITION[state["edition"]]
    return sight_of(game, state, seat).scores(legal)


def sight_of(game, state: State, seat: int) -> Sight:
    """The ``Sight`` of ``seat``: its view without the list of rooms, and the rooms
    from the lair's index (``rules.view.sight_view``), the same knowledge as
    ``Sight(game.view(state, seat))`` without a dictionary per room at every
    decision of every rollout (``tests/catalog/drakon/test_drakon_bot.py``
    compares the two)."""
    view, lair = sight_view(game, state, seat)
    return Sight(view, lair.kind, lair.mask)


class Sight:
    """What the bot knows, indexed for scoring: built from one view."""

    def __init__(
        self,
        view: Mapping[str, Any],
        kind: Mapping[tuple[int, int], str] | None = None,
        mask: Mapping[tuple[int, int], int] | None = None,
    ):
        """From a whole view, or from a view without its rooms and the rooms' kinds
        and arrows by cell (``sight_of``; read only, shared with the rules' lair)."""
        self.view = view
        self.me = view["me"]["seat"]
        if kind is None or mask is None:
            kind = {(room["x"], room["y"]): room["room"] for room in view["board"]}
            mask = {(room["x"], room["y"]): _mask(room["arrows"]) for room in view["board"]}
        #: Cell -> room kind, and cell -> arrows, of every room in play.
        self.kind = kind
        self.mask = mask
        self.heroes = [xy(hero["at"]) for hero in view["heroes"]]
        self.pools = [hero["pool"] for hero in view["heroes"]]
        self.drakon = xy(view["drakon"]) if view["drakon"] else None
        self.hand = {tile["tile"]: tile for tile in view["me"]["hand"]}
        self.reach_me = self.pointed_cells(self.heroes[self.me])
        self.reach_enemies: dict[tuple[int, int], int] = {}
        for seat, pos in enumerate(self.heroes):
            if self.is_enemy(seat):
                for cell in self.pointed_cells(pos):
                    self.reach_enemies[cell] = self.reach_enemies.get(cell, 0) + 1

    # Facts ------------------------------------------------------------------------------------

    def is_enemy(self, seat: int) -> bool:
        return seat != self.me and self.pools[seat] != self.pools[self.me]

    def coins_of(self, seat: int) -> int:
        return self.view["coins"][seat]

    def gold_needed(self) -> int | None:
        goal = self.view["goal"]["gold"]
        return None if goal is None else goal - self.view["me"]["gold"]

    def pointed_cells(self, pos: tuple[int, int]) -> list[tuple[int, int]]:
        """Cells the room at ``pos`` points at (where its hero could go or a room could go)."""
        arrows = self.mask.get(pos)
        if arrows is None:
            return []
        x, y = pos
        return [(x + dx, y + dy) for bit, dx, dy in STEPS if arrows & bit]

    # Values -----------------------------------------------------------------------------------

    def room_value(self, seat: int, room: str, cell: tuple[int, int] | None) -> float:
        """What entering ``room`` at ``cell`` is worth to ``seat``'s hero."""
        if cell is not None and cell == self.drakon:
            return MEETING_DRAKON if self.coins_of(seat) else -1.0
        goal = self.view["goal"]
        if goal["escape_gold"] is not None and room in goal["escape_rooms"]:
            gold = self.view["me"]["gold"] if seat == self.me else None
            if gold is not None and gold >= goal["escape_gold"]:
                return WIN
        value = ROOM_WORTH.get(room, 0.0)
        if room == "start":
            if not self.view.get("start_coins"):
                return 0.0
            needed = self.gold_needed() if seat == self.me else None
            return WIN if needed is not None and needed <= 1 else START_WORTH
        if room in FIND_ROOMS:
            if not self.view["hoard"]:
                return 0.0
            needed = self.gold_needed() if seat == self.me else None
            if needed is not None and needed <= 1:
                return WIN
        elif room in ("steal_left", "steal_right"):
            n = self.view["n_players"]
            victim = (seat + 1) % n if room == "steal_left" else (seat - 1) % n
            value = value if self.coins_of(victim) else 0.0
        elif room in LOSS_ROOMS and not self.coins_of(seat):
            value = 0.0
        return value

    def value_at(self, seat: int, cell: tuple[int, int]) -> float:
        room = self.kind.get(cell)
        return 0.0 if room is None else self.room_value(seat, room, cell)

    def move_value(self, seat: int, cell: tuple[int, int]) -> float:
        """Entering ``cell`` plus a glance at where its arrows lead next."""
        value = self.value_at(seat, cell)
        onward = [self.value_at(seat, nxt) for nxt in self.pointed_cells(cell) if nxt in self.kind]
        return value + LOOKAHEAD * max(onward, default=-1.0)

    def place_value(self, room: str, cell: tuple[int, int]) -> float:
        """A room placed where our arrows point helps us; where enemies' point, hurts them."""
        value = PLACE_BASE
        if cell in self.reach_me:
            value += OWN_REACH * self.room_value(self.me, room, None)
        enemies = self.reach_enemies.get(cell, 0)
        if enemies:
            value -= ENEMY_REACH * enemies * ROOM_WORTH.get(room, 0.0)
        return value

    def drakon_spot_value(self, cell: tuple[int, int]) -> float:
        """Near enemies (with coins) and away from us."""
        value = 0.0
        for seat, pos in enumerate(self.heroes):
            distance = abs(pos[0] - cell[0]) + abs(pos[1] - cell[1])
            if self.is_enemy(seat):
                value += (3.0 if distance == 0 and self.coins_of(seat) else 0.0) + 1 / (
                    1 + distance
                )
            else:
                value -= (5.0 if distance == 0 else 0.0) + 1.5 / (1 + distance)
        return value

    # Scoring ----------------------------------------------------------------------------------

    def scores(self, legal: list[Action]) -> list[float]:
        """``score`` of every action. A placement's score depends on the room and the
        cell only, and is ``PLACE_BASE`` at a cell no hero's arrows point at: those
        are answered at once, the others scored once per room and cell."""
        out = []
        reached = self.reached_keys()
        placed: dict[tuple[str, str], float] = {}
        hand = self.hand
        for action in legal:
            if action["type"] == "place":
                at = action["at"]
                if at not in reached:
                    out.append(PLACE_BASE)
                    continue
                room = hand[action["tile"]]["room"]
                value = placed.get((room, at))
                if value is None:
                    value = placed[room, at] = self.place_value(room, xy(at))
                out.append(value)
            else:
                out.append(self.score(action))
        return out

    def reached_keys(self) -> frozenset[str]:
        """The keys of the cells our hero's or an enemy's room points at (where a
        placement's score is more than ``PLACE_BASE``)."""
        return frozenset(key_of(cell) for cell in (*self.reach_me, *self.reach_enemies))

    def score(self, action: Action) -> float:
        handler = getattr(self, "score_" + action["type"], None)
        return 0.0 if handler is None else handler(action)

    def score_place(self, action: Action) -> float:
        return self.place_value(self.hand[action["tile"]]["room"], xy(action["at"]))

    def score_move(self, action: Action) -> float:
        value = self.move_value(self.me, xy(action["to"]))
        return value - 1.0 if action.get("power") else value

    def score_end_turn(self, action: Action) -> float:
        return 0.0

    def score_ability(self, action: Action) -> float:
        hero = SCORED_AS.get(action["hero"], action["hero"])
        if hero == "ranger":
            return self.move_value(self.me, xy(action["to"])) - 0.5
        if hero == "knight":
            target = action["target"]
            return 1.0 - self.move_value(target, xy(action["to"])) - 0.5
        if hero == "warrior":
            return 1.0 if self.hand[action["tile"]]["room"] in POOR_TILES else -1.0
        if "target" in action:  # thief steals
            return 2.5
        return 1.0 if action["coin"] == 1 else -1.0  # thief exchanges a 1 for a likely 2

    def score_choose_hero(self, action: Action) -> float:
        return -HERO_PREFERENCE.index(action["hero"])

    def score_place_drakon(self, action: Action) -> float:
        return self.drakon_spot_value(xy(action["at"]))

    def score_drakon_move(self, action: Action) -> float:
        return self.drakon_spot_value(xy(action["to"]))

    def score_enter_escape(self, action: Action) -> float:
        goal = self.view["goal"]
        if goal["escape_gold"] is not None and self.view["me"]["gold"] >= goal["escape_gold"]:
            return WIN
        stuck = not any(cell in self.kind for cell in self.reach_me)
        return 0.5 if stuck else -0.5

    def score_skip(self, action: Action) -> float:
        return 0.0

    def score_protect(self, action: Action) -> float:
        return 1.0

    def score_take_coin(self, action: Action) -> float:
        needed = self.gold_needed()
        return WIN if needed is not None and needed <= 1 else 5.0

    def score_destroy(self, action: Action) -> float:
        cell = xy(action["at"])
        room = self.kind[cell]
        worth = ROOM_WORTH.get(room, 0.0)
        value = ENEMY_REACH * self.reach_enemies.get(cell, 0) * worth
        if cell in self.reach_me:
            value -= worth
        return value

    def score_float(self, action: Action) -> float:
        return -0.1

    def score_mind_control(self, action: Action) -> float:
        target = action["target"]
        value = self.move_value(target, xy(action["to"]))
        return -value if self.is_enemy(target) else value

    def score_rotate(self, action: Action) -> float:
        """Only rotations of our own room matter to us: where will it point?"""
        cell = xy(action["at"])
        if cell != self.heroes[self.me]:
            return 0.0
        turned = self.mask[cell]
        for _ in range(action["turns"]):
            turned = ((turned << 1) | (turned >> 3)) & 15
        x, y = cell
        targets = [(x + dx, y + dy) for bit, dx, dy in STEPS if turned & bit]
        return max((self.value_at(self.me, t) for t in targets if t in self.kind), default=-1.0)

    def score_steal_tile(self, action: Action) -> float:
        return self.view["hands"][action["from"]]

    def score_swap(self, action: Action) -> float:
        cell = xy(action["at"])
        gained = self.place_value(self.hand[action["tile"]]["room"], cell)
        lost = OWN_REACH * self.value_at(self.me, cell) if cell in self.reach_me else 0.0
        return gained - lost

    def score_warrior_tile(self, action: Action) -> float:
        return 1.0 if self.hand[action["tile"]]["room"] in POOR_TILES else -1.0

    def score_warrior_done(self, action: Action) -> float:
        return 0.0


def _mask(arrows: list[str]) -> int:
    mask = 0
    for letter in arrows:
        mask |= BITS[letter]
    return mask
