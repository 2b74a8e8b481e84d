"""Catching strings a player would see untranslated.

``missing_translations()`` is a context manager that records every message
looked up through Django's translation machinery (``gettext``, ``ngettext``,
``{% translate %}``, ``{% blocktranslate %}``) that the active Polish or Czech
catalogue does not hold, whichever catalogue (the site's or a game's) it
should come from.
"""

from __future__ import annotations

import contextlib

from django.utils.translation import trans_real


@contextlib.contextmanager
def missing_translations():
    missing: list[tuple[str, str]] = []
    original_gettext = trans_real.DjangoTranslation.gettext
    original_ngettext = trans_real.DjangoTranslation.ngettext

    def gettext(self, message):
        language = self.to_language()
        if language != "en" and message and message not in self._catalog:
            missing.append((language, message))
        return original_gettext(self, message)

    def ngettext(self, singular, plural, number):
        language = self.to_language()
        if language != "en" and (singular, 0) not in self._catalog:
            missing.append((language, singular))
        return original_ngettext(self, singular, plural, number)

    trans_real.DjangoTranslation.gettext = gettext
    trans_real.DjangoTranslation.ngettext = ngettext
    try:
        yield missing
    finally:
        trans_real.DjangoTranslation.gettext = original_gettext
        trans_real.DjangoTranslation.ngettext = original_ngettext
