"""Pages that apps built on top add to without being imported by them.

The players' page shows a ladder's places and the tournaments entered; the
lobby shows quick match's waiting requests. Each such page keeps one
``Sections`` (``players/sections.py``, ``games/lobby/sections.py``), and an
app registers its part from its ``ready``, as a game registers with the
engine: so the page's app never imports the apps built on it.

A section is a template included on the page, with the context its function
gives for the page's user (the player whose page it is, or the lobby's
viewer, an anonymous visitor too), in registration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    key: str
    template: str
    context: Callable[[object], dict]


@dataclass(frozen=True)
class Shown:
    template: str
    context: dict


class Sections:
    """The sections of one page, in registration order."""

    def __init__(self) -> None:
        self._sections: dict[str, Section] = {}

    def register(self, key: str, template: str, context: Callable[[object], dict]) -> None:
        """Add a section (from an app's ``ready``; the same key again replaces it)."""
        self._sections[key] = Section(key, template, context)

    def sections_for(self, user) -> list[Shown]:
        """Every section of the page for ``user``, with its context."""
        return [Shown(s.template, s.context(user)) for s in self._sections.values()]
