"""Marking player-facing strings in the pure modules, which cannot import Django.

``_("Heroes!")`` returns its argument unchanged (as a ``Msg``, a ``str``), so
rules, components and bots stay free of Django; ``make messages`` picks the
marked strings up into the catalogues like any ``gettext`` call, and the site
translates them when it shows them (``games/i18n.py``). Use ``%(name)s``
placeholders, never f-strings, so a translator sees one sentence.
"""

from __future__ import annotations


class Msg(str):
    """A marked string: the site translates it, even as a parameter of another message."""

    __slots__ = ()


def _(message: str) -> Msg:
    return Msg(message)
