"""Translating the strings games mark in their pure modules (``engine.i18n._``).

Rules, components and bots cannot import Django, so they mark their
player-facing strings and the site translates them here, in the viewer's
language, when a page shows them: option labels and choices, setup
refusals, and the refusal messages of ``IllegalAction``.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from games.engine.base import IllegalAction, Option
from games.engine.i18n import Msg


def translate(text: str) -> str:
    """A marked string in the active language (unmarked text is shown as it is)."""
    return gettext(text) if text else text


def refusal_text(error: IllegalAction) -> str:
    """The refusal in the active language, with marked parameters translated too."""
    params = {
        key: translate(value) if isinstance(value, Msg) else value
        for key, value in error.params.items()
    }
    text = translate(error.template)
    return text % params if params else text


def option_label(option: Option) -> str:
    return translate(option.label)


def option_help(option: Option) -> str:
    return translate(option.help)


def choice_label(option: Option, value) -> str:
    label = dict(option.choices).get(value)
    return translate(label) if label is not None else str(value)


def translate_titles(games) -> None:
    """Make each game's ``title`` speak the active language wherever it is shown
    (pages, emails, forms): a game marks its title with ``engine.i18n._``
    ("Drakon (fourth edition)", "Seven Dragons"), and the site, at start-up
    (``GamesConfig.ready``), replaces it with its lazy translation, so no page
    or email has to remember to translate it. An unmarked title, a name the
    same in every language ("Nogi za pas!"), is left as it is."""
    for game in games:
        if isinstance(game.title, Msg):
            game.title = gettext_lazy(str(game.title))
