"""Pages that apps built on top add to without being imported by them.

The players' page shows a ladder's places and the tournaments entered; the
lobby shows quick match's waiting requests. Each such page keeps one
``Sections`` (``players/sections.py``, ``games/lobby/sections.py``), and an
app registers its part from its ``ready``, as a game registers with the
engine: so the page's app never imports the apps built on it.

A section is a template included on the page, with the context its function
gives for the page's user (the player whose page it is, or the lobby's
viewer, an anonymous visitor too), in registration order. A section
registered ``with_viewer`` is given the viewer too (a Follow button on a
player's page depends on who looks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    key: str
    template: str
    context: Callable[..., dict]
    with_viewer: bool = False


@dataclass(frozen=True)
class Shown:
    template: str
    context: dict


class Sections:
    """The sections of one page, in registration order."""

    def __init__(self) -> None:
        self._sections: dict[str, Section] = {}

    def register(
        self, key: str, template: str, context: Callable[..., dict], *, with_viewer: bool = False
    ) -> None:
        """Add a section (from an app's ``ready``; the same key again replaces
        it). ``with_viewer``: ``context(user, viewer)`` rather than ``context(user)``."""
        self._sections[key] = Section(key, template, context, with_viewer)

    def sections_for(self, user, viewer=None) -> list[Shown]:
        """Every section of the page for ``user`` as ``viewer`` sees it, with its context."""
        return [
            Shown(s.template, s.context(user, viewer) if s.with_viewer else s.context(user))
            for s in self._sections.values()
        ]
