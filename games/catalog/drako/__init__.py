"""Drako: Dragon & Dwarves (Adam Kałuża): a dragon against three dwarves, a duel of two decks."""

from games.catalog.drako.rules import GAME
from games.engine.registry import register

register(
    GAME,
    presenter="games.catalog.drako.presenter",
    bot="games.catalog.drako.bot",
    rules_doc="docs/rules/drako.md",
    package_file=__file__,
)
