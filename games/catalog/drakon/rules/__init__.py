"""Pure rules of Drakon (Tom Jolly; later edition "4E", key ``drakon``).

The authoritative spec is ``shared/rules/drakon.md``; the section numbers in
docstrings (A-5, D-8, E-16, ...) refer to it. State, action, event and view
schemas and the rulings made beyond the spec are in ``docs/rules/drakon.md``.
No module of this package imports Django.

How a turn works. The state holds a stack of *tasks* (``state["pending"]``).
A task is either a **decision** (it names the ``seat`` that must answer;
``current_seats`` returns that seat and ``legal_actions`` lists the answers)
or an **automatic step** (resolving an entered room, a coin loss, ...), which
``run_tasks`` carries out at once. ``apply`` pops the decision on top, lets its
handler push whatever follows, and runs automatic steps until a decision is
on top again or the game is over. Room effects, forced moves, the Druid's
out-of-turn protection and the hero abilities all nest on this one stack, so
there are no callbacks and every intermediate state is plain JSON.

Editions. Everything the first edition changes is read from the
``components.Edition`` stored by key in ``state["edition"]``: tile and coin
lists, goals, forced-move rooms and step counts, Harp-like rooms, heroes.

The modules, each importing only those listed before it:

- ``state``: task kinds, end reasons, the state's keys and small queries;
- ``lair``: cells, arrows, rotations and the ``Lair`` index of the rooms;
- ``targets``: where heroes, Drakon and the room effects can go;
- ``legal``: the legal actions of each decision and the refusal messages;
- ``effects``: coins and tiles changing hands, encounters, the end;
- ``rooms``: what a chamber does to the hero who enters it;
- ``decisions``: what each answer to a decision does;
- ``stack``: running the automatic steps and starting each turn;
- ``view``: what a seat may see; ``invariants``: the consistency checks;
- ``game``: ``DrakonGame`` and ``GAME``, the object the site registers.

Positions for tests are built with ``games.catalog.drakon.builders``.
"""

from games.catalog.drakon.rules.game import GAME, GAME_CLASSIC, GAMES_BY_EDITION, DrakonGame
from games.catalog.drakon.rules.lair import (
    BITS,
    DISTINCT,
    MASKS,
    STEPS,
    Lair,
    arrows_of,
    key_of,
    lair_of,
    mask_of,
    rotate_mask,
    xy,
)
from games.catalog.drakon.rules.legal import place_refusal
from games.catalog.drakon.rules.state import left_of, right_of, tiles_of
from games.catalog.drakon.rules.targets import drakon_reach, move_targets

__all__ = [
    "BITS",
    "DISTINCT",
    "GAME",
    "GAMES_BY_EDITION",
    "GAME_CLASSIC",
    "MASKS",
    "STEPS",
    "DrakonGame",
    "Lair",
    "arrows_of",
    "drakon_reach",
    "key_of",
    "lair_of",
    "left_of",
    "mask_of",
    "move_targets",
    "place_refusal",
    "right_of",
    "rotate_mask",
    "tiles_of",
    "xy",
]
