"""Drakon: heroes in a dragon's labyrinth. The rules code serves both editions."""

from games.catalog.drakon.rules import GAME, GAME_CLASSIC
from games.engine.registry import register

register(
    GAME,
    presenter="games.catalog.drakon.presenter",
    bot="games.catalog.drakon.bot",
    rules_doc="docs/rules/drakon.md",
    package_file=__file__,
)
register(
    GAME_CLASSIC,
    presenter="games.catalog.drakon.presenter.classic",
    bot="games.catalog.drakon.bot",
    rules_doc="docs/rules/drakon.md",
    package_file=__file__,
)
