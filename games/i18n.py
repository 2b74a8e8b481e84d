"""Translating the strings games mark in their pure modules (``engine.i18n._``).

Rules, components and bots cannot import Django, so they mark their
player-facing strings and the site translates them here, in the viewer's
language, when a page shows them: option labels and choices, setup
refusals, the refusal messages of ``IllegalAction``, and the games' titles.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.engine import registry
from games.engine.base import IllegalAction, Option
from games.engine.i18n import Msg, PluralMsg


def translate(text: str) -> str:
    """A marked string in the active language (unmarked text is shown as it is)."""
    return gettext(text) if text else text


def refusal_text(error: IllegalAction) -> str:
    """The refusal in the active language, with marked parameters translated too."""
    params = {
        key: translate(value) if isinstance(value, Msg) else value
        for key, value in error.params.items()
    }
    template = error.template
    if isinstance(template, PluralMsg):
        text = ngettext(str(template), template.plural, error.params[template.count])
    else:
        text = translate(template)
    return text % params if params else text


def option_label(option: Option) -> str:
    return translate(option.label)


def option_help(option: Option) -> str:
    return translate(option.help)


def choice_label(option: Option, value) -> str:
    label = dict(option.choices).get(value)
    return translate(label) if label is not None else str(value)


def translate_titles() -> None:
    """Each registered game's title, marked in its rules, becomes a lazy translation:
    every page, email and message that names the game shows its name in the reader's
    language (the published name where it has one: "Sedm draků" in Czech). Called once
    when the site starts (``GamesConfig.ready``); a title left unmarked stays as it is."""
    for entry in registry.registrations():
        if isinstance(entry.rules.title, Msg):
            entry.rules.title = gettext_lazy(str(entry.rules.title))
