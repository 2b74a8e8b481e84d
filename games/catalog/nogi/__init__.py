"""Nogi za pas! (Reiner Knizia): knights flee the dragon to the castle."""

from games.catalog.nogi.rules import GAME
from games.engine.registry import register

register(
    GAME,
    presenter="games.catalog.nogi.presenter",
    bot="games.catalog.nogi.bot",
    rules_doc="docs/rules/nogi.md",
    package_file=__file__,
)
