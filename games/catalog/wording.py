"""What the games' presenters share: wording worked out once per language.

A presenter names the same colours, cards and places again and again in one
answer: a Drakon turn offers every tile at every free cell, each cell named
from the Entrance, and each name is several catalogue look-ups. A wording
function that depends only on its arguments and the active language is
worked out once per process for each language and arguments
(``per_language``): a catalogue never changes while the process runs.
"""

from __future__ import annotations

from functools import lru_cache, wraps

from django.utils.translation import get_language

# Enough for every place, card and colour of every game in three languages.
WORDINGS_KEPT = 8192


def per_language(function):
    """``function``'s answer for these (hashable) arguments in the active
    language, worked out on first use. Only for functions of their arguments
    and the language: no view, no seat, nothing secret."""

    @lru_cache(maxsize=WORDINGS_KEPT)
    def worded(language, *args):
        return str(function(*args))

    @wraps(function)
    def wording(*args):
        return worded(get_language(), *args)

    wording.cache_clear = worded.cache_clear
    return wording
