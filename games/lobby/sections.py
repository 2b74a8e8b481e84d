"""What the apps built on matches add to the lobby: a section each (quick
match's waiting requests and counts), registered when the app starts, as a
game registers with the engine; so the lobby never imports them.

A section is a template included on the lobby, under the player's own
matches, with the context its function gives for the viewer (an anonymous
visitor too), in registration order.
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
    """Every section of the lobby for ``user``, with its context."""
    return [Shown(section.template, section.context(user)) for section in _sections.values()]
