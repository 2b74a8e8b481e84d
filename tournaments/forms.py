"""The new-tournament form: the new-match form's game, options and clock
(``games.web.forms.CreateMatchForm``), with the tournament's own fields."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from games.web.forms import CreateMatchForm
from tournaments.models import Format


class CreateTournamentForm(CreateMatchForm):
    """``n_seats`` is the size of each table; visibility and rating ranges do
    not apply (tournament matches are public and anyone may enter)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices)
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"),
        min_value=1,
        initial=5,
        required=False,
        help_text=_("A round robin has as many rounds as it needs for everyone to meet."),
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        required=False,
        help_text=_("In your time zone."),
    )
    start_when_full = forms.BooleanField(
        label=_("Start when full"),
        required=False,
        help_text=_(
            "Instead of a start time: it starts as soon as the most entrants have entered."
        ),
    )
    min_entrants = forms.IntegerField(label=_("Fewest entrants"), min_value=2, initial=4)
    max_entrants = forms.IntegerField(label=_("Most entrants"), min_value=2, initial=16)
    # Bot accounts (accounts.bots) enter only where the organiser allows them.
    bots_allowed = forms.BooleanField(
        label=_("Bot accounts may enter"),
        required=False,
        help_text=_("Programs playing through the API, marked BOT; off unless you tick it."),
    )

    field_order = [
        "name",
        "game",
        "n_seats",
        "format",
        "rounds",
        "starts_at",
        "start_when_full",
        "min_entrants",
        "max_entrants",
        "bots_allowed",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("visibility", "min_rating", "max_rating"):
            self.fields.pop(name, None)
        self.fields["n_seats"].label = _("Players at each table")
        self.fields["min_reliability"].label = _("Minimum reliability to enter (%)")
        # The maxima are the services' own settings (``SMOKI``), read per form.
        limits = settings.SMOKI
        _at_most(self.fields["rounds"], limits["TOURNAMENT_MAX_ROUNDS"])
        for name in ("min_entrants", "max_entrants"):
            _at_most(self.fields[name], limits["TOURNAMENT_MAX_ENTRANTS"])

    def clean(self):
        cleaned = forms.Form.clean(self)
        low, high = cleaned.get("min_entrants"), cleaned.get("max_entrants")
        if low is not None and high is not None and low > high:
            self.add_error("max_entrants", _("The fewest must not be above the most."))
        if cleaned.get("format") == Format.SWISS and not cleaned.get("rounds"):
            self.add_error("rounds", _("Say how many rounds."))
        if cleaned.get("format") == Format.KNOCKOUT and cleaned.get("n_seats") not in (None, 2):
            self.add_error("n_seats", _("A knockout is played at tables of two players."))
        if not cleaned.get("start_when_full") and not cleaned.get("starts_at"):
            self.add_error("starts_at", _("Give a start time, or choose to start when full."))
        return cleaned


def _at_most(field: forms.IntegerField, high: int) -> None:
    """Give ``field`` the maximum ``high``: its check and the browser's."""
    field.max_value = high
    field.validators = [v for v in field.validators if not isinstance(v, MaxValueValidator)] + [
        MaxValueValidator(high)
    ]
    field.widget.attrs["max"] = str(high)
