"""Marking player-facing strings in the pure modules, which cannot import Django.

``_("Heroes!")`` returns its argument unchanged (as a ``Msg``, a ``str``), so
rules, components and bots stay free of Django; ``make messages`` picks the
marked strings up into the catalogues like any ``gettext`` call, and the site
translates them when it shows them (``games/i18n.py``). Use ``%(name)s``
placeholders, never f-strings, so a translator sees one sentence. A sentence
with a number is marked with ``ngettext_lazy(singular, plural)``: the site
picks the language's plural form for the number in the ``count`` parameter.
"""

from __future__ import annotations


class Msg(str):
    """A marked string: the site translates it, even as a parameter of another message."""

    __slots__ = ()


def _(message: str) -> Msg:
    return Msg(message)


class PluralMsg(Msg):
    """A marked sentence with a plural form, chosen by the number in ``params[count]``."""

    def __new__(cls, singular: str, plural: str, count: str = "n") -> PluralMsg:
        message = super().__new__(cls, singular)
        message.plural = plural
        message.count = count
        return message

    def english(self, params: dict) -> str:
        """The English form for these parameters (singular for exactly 1)."""
        return str(self) if params.get(self.count) == 1 else self.plural


def ngettext_lazy(singular: str, plural: str, count: str = "n") -> PluralMsg:
    return PluralMsg(singular, plural, count)
