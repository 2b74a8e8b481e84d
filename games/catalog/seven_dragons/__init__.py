"""Seven Dragons (Andrew Looney; Czech edition Sedm draků): grow a grid of dragon cards
until seven panels of your secret colour connect."""

from games.catalog.seven_dragons.rules import GAME
from games.engine.registry import register

register(
    GAME,
    presenter="games.catalog.seven_dragons.presenter",
    bot="games.catalog.seven_dragons.bot",
    rules_doc="docs/rules/seven_dragons.md",
    package_file=__file__,
)
