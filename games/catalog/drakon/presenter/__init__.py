"""Drakon for people: the labyrinth as SVG, log sentences, and the clicks that
build a move. Works on ``view`` output only, never on the state.

- ``texts``: room and hero names and texts, option labels, the awaited decision;
- ``board``: the SVG board's context (``board_context``);
- ``clicks``: the clicks that build a move (``action_steps``);
- ``log``: the move log's sentences (``describe_event``);
- ``words``: the position in words (``describe_board``) and the end-of-match
  breakdown (``final_summary``).

With htmx a click on a final choice posts the move; without JavaScript it
leads to a page that asks to confirm it.
"""

from django.utils.translation import gettext_lazy

from games.catalog.drakon.presenter.board import (
    board_context,
    changed,
    pattern_arrows,
    picture_focus,
    private_context,
)
from games.catalog.drakon.presenter.clicks import action_steps
from games.catalog.drakon.presenter.log import describe_event
from games.catalog.drakon.presenter.texts import (
    HERO_NAMES,
    HERO_TEXTS,
    ROOM_NAMES,
    ROOM_TEXTS,
    describe_pending,
    hero_name,
    option_labels,
    place_name,
    room_name,
)
from games.catalog.drakon.presenter.words import describe_board, final_summary

BOARD_TEMPLATE = "games/drakon/board.jinja"
PRIVATE_TEMPLATE = "games/drakon/private.jinja"
# Log sentences say who acted ("Alice placed ..."), so the log omits the name.
SENTENCES_NAME_THE_ACTOR = True
# A piece on the board, measured at a phone's width by the browser tests.
PIECE_SELECTOR = ".drakon-board g.piece circle"
# The lobby's tile: the labyrinth's gate, and what the game is about.
ICON = "dungeon-gate"
SUMMARY = gettext_lazy(
    "Build a dragon's labyrinth chamber by chamber and be the first hero to gather 10 gold."
)

__all__ = [
    "BOARD_TEMPLATE",
    "PRIVATE_TEMPLATE",
    "ICON",
    "SUMMARY",
    "HERO_NAMES",
    "HERO_TEXTS",
    "ROOM_NAMES",
    "ROOM_TEXTS",
    "PIECE_SELECTOR",
    "SENTENCES_NAME_THE_ACTOR",
    "action_steps",
    "board_context",
    "changed",
    "describe_board",
    "describe_event",
    "describe_pending",
    "final_summary",
    "picture_focus",
    "private_context",
    "hero_name",
    "option_labels",
    "pattern_arrows",
    "place_name",
    "room_name",
]
