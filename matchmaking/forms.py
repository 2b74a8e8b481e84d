"""The quick-match form: a game (or any game) chosen first, then the player
counts, the clock range, rated or not, the rating window and the game's
options. Shapes only: ``matchmaking.services.checked`` judges the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import i18n
from games.engine import registry
from games.models import TIME_PER_MOVE_CHOICES
from matchmaking import matching
from matchmaking.services import BOTS_AFTER

#: The game field's value for "any game".
ANY = "any"

WINDOWS = [(100, "± 100"), (200, "± 200"), (400, "± 400"), (800, "± 800")]


def _clock_choices():
    return [(int(d.total_seconds()), label) for d, label in TIME_PER_MOVE_CHOICES]


class QuickMatchForm(forms.Form):
    game = forms.CharField(widget=forms.HiddenInput(), max_length=32)
    counts = forms.TypedMultipleChoiceField(
        label=_("Players at the table"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Every number you tick is fine with you."),
    )
    clock_min = forms.TypedChoiceField(
        label=_("Shortest time per move"), coerce=int, choices=_clock_choices, initial=86400
    )
    clock_max = forms.TypedChoiceField(
        label=_("Longest time per move"),
        coerce=int,
        choices=_clock_choices,
        initial=7 * 86400,
        help_text=_("The match plays with the longest time per move every player accepts."),
    )
    rated = forms.BooleanField(label=_("Rated"), initial=True, required=False)
    window = forms.TypedChoiceField(
        label=_("Opponents' ratings"),
        coerce=int,
        empty_value=None,
        required=False,
        initial=200,
        help_text=_("Points either side of your rating, for the game you are seated at."),
    )

    bots_after = forms.TypedChoiceField(
        label=_("If nobody comes"),
        coerce=int,
        empty_value=None,
        required=False,
        initial="",
    )

    def __init__(self, *args, game_key: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        key = self.data.get("game") if self.is_bound else game_key
        self.game = next((g for g in registry.all() if g.key == key), None)
        self.any_game = key == ANY
        self.fields["game"].initial = key
        self.fields["bots_after"].choices = [
            ("", _("keep waiting for players")),
            *(
                (
                    hours,
                    ngettext(
                        "play bots after %(n)d hour (unrated)",
                        "play bots after %(n)d hours (unrated)",
                        hours,
                    )
                    % {"n": hours},
                )
                for hours in BOTS_AFTER
            ),
        ]
        self.fields["window"].choices = [
            *((value, label) for value, label in WINDOWS),
            ("", _("any rating")),
        ]
        if self.game is not None:
            low = max(2, self.game.min_players)
            high = min(7, self.game.max_players)
        else:
            low, high = matching.SIZES[0], matching.SIZES[-1]
        self.fields["counts"].choices = [(n, str(n)) for n in range(low, high + 1)]
        self.fields["counts"].initial = list(range(low, min(high, low + 2) + 1))
        self.option_names: list[str] = []
        for option in self.game.options if self.game is not None else []:
            name = f"opt_{self.game.key}_{option.key}"
            self.fields[name] = forms.ChoiceField(
                label=i18n.option_label(option),
                choices=[(str(v), i18n.choice_label(option, v)) for v, _l in option.choices],
                initial=str(option.default),
                help_text=i18n.option_help(option),
                required=False,
            )
            self.option_names.append(name)

    @property
    def chosen(self) -> bool:
        """Whether a game (or any game) is chosen: the second step."""
        return self.game is not None or self.any_game

    def game_key(self) -> str:
        return self.game.key if self.game is not None else ""

    def chosen_options(self) -> dict:
        """The chosen game's options, mapped back from text to their values."""
        chosen = {}
        for option in self.game.options if self.game is not None else []:
            raw = self.cleaned_data.get(f"opt_{self.game.key}_{option.key}")
            if raw in (None, ""):
                continue
            chosen[option.key] = {str(v): v for v, _label in option.choices}[raw]
        return chosen
