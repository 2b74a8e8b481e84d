"""What the apps built on matches add to a player's page: a section each
(a ladder's places, the tournaments entered), registered when the app
starts, as a game registers with the engine; so the players app, which they
build on, never imports them.

A section is a template included on the page with the context its function
gives for the player whose page it is, in registration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    key: str
    template: str
    context: Callable[[object], dict]


_sections: dict[str, Section] = {}


def register(key: str, template: str, context: Callable[[object], dict]) -> None:
    """Add a section (from an app's ``ready``; the same key again replaces it)."""
    _sections[key] = Section(key, template, context)


@dataclass(frozen=True)
class Shown:
    template: str
    context: dict


def sections_for(user) -> list[Shown]:
    """Every section of ``user``'s page, with its context."""
    return [Shown(section.template, section.context(user)) for section in _sections.values()]
