"""Positions of Nogi za pas! for scenario tests, built from the state schema.

The public way to write a rules scenario (``docs/rules/nogi.md`` describes the
state): ``build_state`` puts knights, the dragon, bunnies, shields and dice
where a test wants them, either at the start of a turn before its roll
(``roll=None``; then ``GAME.begin_turn`` runs the dragon check and the roll)
or with a chosen roll; ``with_roll`` replaces the roll of a position. Every
position is checked: an impossible one (a knight on a field whose bunny is
still there, a lone knight on the dragon's field, a lost bunny) is refused
with ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.catalog.nogi import components as C
from games.catalog.nogi.rules import (
    ASIDE,
    BOXED,
    GAME,
    POOL,
    _clone,
    _face_json,
    _new_state,
    check_position,
)
from games.engine.base import State, resolve_options
from games.engine.rng import Rng

DEFAULT_TEST_BUNNIES = {17: 1, 21: 2, 25: 1, 30: 1, 36: 2}


def build_state(
    n_players: int = 3,
    *,
    board: Mapping[str, int] | None = None,
    rest: int = C.KNIGHT_START,
    castle: Iterable[Any] = (),
    castle_unplaced: Iterable[str] = (),
    defeated: Iterable[str] = (),
    dragon: int = C.DRAGON_START,
    dragon_stack: Iterable[int] | None = None,
    bunnies: Mapping[int, int] | None = None,
    collected: list[list[int]] | None = None,
    shields: list[list[int]] | None = None,
    aside: Iterable[str] = (),
    roll: Mapping[str, Any] | None = None,
    active: int = 0,
    turn: int = 1,
    options: dict[str, Any] | None = None,
    seed: str = "nogi-test",
    check: bool = True,
) -> State:
    """Build any position for tests (spec B.1/B.2: inject faces and token order).

    - ``board``: ``{colour: field}``. Knights not mentioned here nor in
      ``castle``/``castle_unplaced``/``defeated`` are put on ``rest``.
    - ``castle``: occupied spaces in order; each item is a colour or a list of
      colours (a shared space, end (b)).
    - ``dragon_stack``: tokens in reveal order (index 0 next). Defaults to the
      full set in component order; tokens missing from it count as revealed.
    - ``bunnies``: ``{field: value}`` still on the board (default: spec D's
      17:1, 21:2, 25:1, 30:1, 36:2). Values missing from the board and from
      ``collected`` are given to nobody, so pass both for a conserved state.
    - ``shields``: per seat, indexes into ``SHIELDS`` (0 = S1); default seat i
      holds shield i (two players: [0, 1] and [2, 3]).
    - ``aside``: dice set aside; dice of knights off the board are boxed; the
      rest are in the pool.
    - ``roll``: ``{die: face}`` for pool dice (a face is a ``Face``, a
      ``(kind, n)`` tuple, a kind string or a face dict). Pool dice left out
      get their die's first face. With ``roll=None`` nothing is rolled: call
      ``GAME.begin_turn(state)`` to run the turn start (dragon check + roll).
    - ``check``: refuse a position no game can reach (``refuse_impossible``).
      Pass False only to test one rule in isolation on a sketch of a board.
    """
    castle_spaces = [[item] if isinstance(item, str) else list(item) for item in castle]
    unplaced = list(castle_unplaced)
    beaten = list(defeated)
    gone = {colour for space in castle_spaces for colour in space} | set(unplaced) | set(beaten)
    positions = dict(board or {})
    full_board = {colour: positions.get(colour, rest) for colour in C.COLOURS if colour not in gone}
    stack = list(C.DRAGON_TOKENS if dragon_stack is None else dragon_stack)
    revealed = list(C.DRAGON_TOKENS)
    for token in stack:
        revealed.remove(token)
    if shields is None:
        shields = [[0, 1], [2, 3]] if n_players == 2 else [[seat] for seat in range(n_players)]
    dice = {}
    for die in C.DICE:
        if die != C.WHITE and die not in full_board:
            dice[die] = BOXED
        else:
            dice[die] = ASIDE if die in set(aside) else POOL
    state = _new_state(
        n_players=n_players,
        options=resolve_options(GAME, options or {"first_player": "host"}),
        first_seat=0,
        board=full_board,
        dragon=dragon,
        dragon_stack=stack,
        dragon_revealed=revealed,
        bunnies={
            str(f): v for f, v in (DEFAULT_TEST_BUNNIES if bunnies is None else bunnies).items()
        },
        collected=collected if collected is not None else [[] for _ in range(n_players)],
        shields=shields,
        dice=dice,
        castle=castle_spaces,
        castle_unplaced=unplaced,
        defeated=beaten,
        active=active,
        turn=turn,
    )
    state["rng"] = Rng.from_seed(seed).dump()
    if roll is not None:
        state["roll"] = _full_roll(state, roll)
    if check:
        refuse_impossible(state)
    return state


def refuse_impossible(state: State) -> None:
    """Raise ``ValueError`` naming the broken rule if no game could reach ``state``."""
    try:
        check_position(state)
        # A knight that ends a move alone on a bunny field takes the bunny, and
        # MINUS and PLUS end only where a knight already stands (spec A.4).
        for colour, field in state["board"].items():
            assert str(field) not in state["bunnies"], f"{colour} stands by the bunny on {field}"
    except AssertionError as error:
        raise ValueError(f"impossible position: {error}") from None


def with_roll(state: State, roll: Mapping[str, Any]) -> State:
    """A copy of ``state`` whose active roll is ``roll`` (pool dice left out get face 1)."""
    new = _clone(state)
    new["roll"] = _full_roll(new, roll)
    return new


def _full_roll(state: State, roll: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    pool = [die for die in C.DICE if state["dice"][die] == POOL]
    unknown = set(roll) - set(pool)
    if unknown:
        raise ValueError(f"dice not in the pool cannot be rolled: {sorted(unknown)}")
    return {
        die: _face_json(roll[die]) if die in roll else _face_json(C.DIE_SPECS[die].faces[0])
        for die in pool
    }
