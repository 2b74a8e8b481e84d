"""A rating's change in words: beside a name, and as a sentence."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def short_rating_change(change) -> str:
    if change is None:
        return ""
    return f"{number_format(change.display_after, force_grouping=True)} ({change.delta:+d})"


def rating_change_text(change, game_key: str) -> str:
    """ "Your Nogi rating: 1,512 → 1,538 (+26)", in the active language."""
    return str(
        _("Your %(game)s rating: %(before)s → %(after)s (%(delta)s)")
        % {
            "game": _game_title(game_key),
            "before": number_format(change.display_before, force_grouping=True),
            "after": number_format(change.display_after, force_grouping=True),
            "delta": f"{change.delta:+d}",
        }
    )


def uncounted_note(match) -> str:
    """Why a finished rated match changed no rating: two of its players had
    already had the limit of counted results together (``ratings.repeated_pair``)."""
    from players.ratings import PAIR_LIMIT, PAIR_WINDOW

    return str(
        ngettext(
            "No rating changes: two of these players have already had %(n)d rated "
            "result together in %(game)s within %(days)d days.",
            "No rating changes: two of these players have already had %(n)d rated "
            "results together in %(game)s within %(days)d days.",
            PAIR_LIMIT,
        )
        % {"n": PAIR_LIMIT, "game": _game_title(match.game_key), "days": PAIR_WINDOW.days}
    )


def _game_title(game_key: str) -> str:
    from games.engine import registry

    try:
        return str(registry.get(game_key).title)
    except KeyError:
        return game_key


def new_rating_why() -> str:
    """Why a provisional rating moves so much (a first win +69, a first loss
    -37): shown with the change of one of a player's first rated matches."""
    return str(
        _(
            "Your rating is new (provisional until 5 rated matches), so it moves a lot:"
            " the site is still unsure of your skill. The number shown is your skill less"
            " three times that uncertainty, and the uncertainty shrinks with every match,"
            " so for now a win gains more than a loss costs."
        )
    )
