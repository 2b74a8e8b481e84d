"""Where games are found by key.

Each catalog package (``games/catalog/<package>/__init__.py``) registers its
games with ``register``: the rules object together with the dotted paths of
its presenter and bot and its rules document. Packages are discovered, not
listed: dropping a package into ``games/catalog/`` switches it on. One
package may register several keys (Drakon's two editions share rules code).

The engine stays free of Django: presenters are named by path and imported
only by the site (``Registration.presenter_module``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from games.engine.base import Game

CATALOG_PACKAGE = "games.catalog"


@dataclass(frozen=True)
class Registration:
    """Everything the site needs to offer one game key."""

    rules: Game
    presenter: str  # dotted path of the presenter module (site side, may use Django)
    bot: str  # dotted path of the pure bot module: ``choose(state, seat, rng, level)``
    rules_doc: str  # the rulings, state schema and test map, relative to the project root
    package_dir: Path  # the package folder: templates/ and locale/ live here

    @property
    def key(self) -> str:
        return self.rules.key

    def presenter_module(self) -> ModuleType:
        return importlib.import_module(self.presenter)

    def bot_module(self) -> ModuleType:
        return importlib.import_module(self.bot)

    @property
    def templates_dir(self) -> Path:
        return self.package_dir / "templates"

    @property
    def locale_dir(self) -> Path:
        return self.package_dir / "locale"

    @property
    def how_to_play_template(self) -> str:
        """The game's own "How to play" page body, by the package convention.

        It lives at ``<package>/templates/games/<key>/how_to_play.html`` and is
        translated through the package's catalogues like its board.
        """
        return f"games/{self.key}/how_to_play.html"

    @property
    def has_how_to_play(self) -> bool:
        return (self.templates_dir / self.how_to_play_template).is_file()


_registrations: dict[str, Registration] = {}
_discovered = False


def register(
    rules: Game, *, presenter: str, bot: str, rules_doc: str, package_file: str
) -> Registration:
    """Register ``rules`` under its key. ``package_file`` is the package's ``__file__``."""
    if not isinstance(rules, Game):
        raise TypeError(f"{rules!r} does not derive from games.engine.base.Game.")
    registration = Registration(
        rules=rules,
        presenter=presenter,
        bot=bot,
        rules_doc=rules_doc,
        package_dir=Path(package_file).resolve().parent,
    )
    existing = _registrations.get(rules.key)
    if existing is not None and existing.rules is not rules:
        raise ValueError(f"A game is already registered as {rules.key!r}.")
    _registrations[rules.key] = registration
    return registration


def unregister(key: str) -> None:
    """Remove a key (the test suite's own games use this to clean up)."""
    _registrations.pop(key, None)


def discover() -> None:
    """Import every package under ``games/catalog``; each registers its games."""
    global _discovered
    if _discovered:
        return
    catalog = importlib.import_module(CATALOG_PACKAGE)
    for info in sorted(pkgutil.iter_modules(catalog.__path__), key=lambda i: i.name):
        if info.ispkg:
            importlib.import_module(f"{CATALOG_PACKAGE}.{info.name}")
    _discovered = True


def registration(key: str) -> Registration:
    discover()
    try:
        return _registrations[key]
    except KeyError:
        raise KeyError(f"No game is registered as {key!r}.") from None


def registrations() -> list[Registration]:
    discover()
    return [_registrations[key] for key in sorted(_registrations)]


def get(key: str) -> Game:
    """The rules of the game registered as ``key``."""
    return registration(key).rules


def all() -> list[Game]:  # noqa: A001 - the contract's name
    return [entry.rules for entry in registrations()]
