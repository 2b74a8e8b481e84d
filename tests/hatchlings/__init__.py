"""Hatchlings: a two-player game that exists only in the test suite.

It proves that a game the site has never seen plugs in by registering
itself, with no change to the platform: the conformance kit
(``tests/conformance``) runs over it like over every catalog game. It has one
secret per seat (the eggs in hand), a secret deck order, an opening deal, and
an action that carries a secret choice (burying an egg face down).
"""

from games.engine.registry import register
from tests.hatchlings.rules import GAME

REGISTRATION = register(
    GAME,
    presenter="tests.hatchlings.presenter",
    bot="tests.hatchlings.bot",
    rules_doc="tests/hatchlings/README.md",
    package_file=__file__,
)
