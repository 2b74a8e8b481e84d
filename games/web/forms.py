"""Forms validate the shape of what the browser sends; the rules judge the rest."""

import json
from dataclasses import dataclass
from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import MAX_ID
from games import i18n
from games.engine import registry
from games.lobby.services import unrated_refusal
from games.models import (
    TIME_BANK_CHOICES,
    TIME_BANK_INCREMENT_CHOICES,
    TIME_PER_MOVE_CHOICES,
    TakeoverLevel,
    TimeoutPolicy,
    Visibility,
)
from games.play.bots import BOT_LEVEL_ABOUT, PLAY_BOT_LEVELS

MAX_ACTION_BYTES = 4096


class ActionForm(forms.Form):
    action = forms.CharField(max_length=MAX_ACTION_BYTES)
    version = forms.IntegerField(min_value=0, max_value=MAX_ID)

    def clean_action(self):
        try:
            action = json.loads(self.cleaned_data["action"])
        except ValueError:
            raise forms.ValidationError(_("That move could not be read.")) from None
        if not isinstance(action, dict):
            raise forms.ValidationError(_("That move could not be read."))
        return action


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))


def _seconds(choices):
    return [(int(d.total_seconds()), label) for d, label in choices]


def _duration_choices():
    return _seconds(TIME_PER_MOVE_CHOICES)


class CreateMatchForm(forms.Form):
    """Game, seats, visibility and clock; each game's options are added as fields."""

    game = forms.ChoiceField(label=_("Game"))
    n_seats = forms.TypedChoiceField(label=_("Players"), coerce=int)
    visibility = forms.ChoiceField(label=_("Who may join"), choices=Visibility.choices)
    time_per_move = forms.TypedChoiceField(
        label=_("Time per move"), coerce=int, choices=_duration_choices, initial=3 * 86400
    )
    time_bank = forms.TypedChoiceField(
        label=_("Time bank"),
        coerce=int,
        choices=lambda: _seconds(TIME_BANK_CHOICES),
        initial=0,
        required=False,
        empty_value=0,
        help_text=_("A reserve spent when a move takes longer than the time per move."),
    )
    time_bank_increment = forms.TypedChoiceField(
        label=_("Added to the bank after each move"),
        coerce=int,
        choices=lambda: _seconds(TIME_BANK_INCREMENT_CHOICES),
        initial=0,
        required=False,
        empty_value=0,
    )
    timeout_policy = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=TimeoutPolicy.choices,
        initial=TimeoutPolicy.BOT_STRIKES,
        required=False,
    )
    takeover_level = forms.ChoiceField(
        label=_("The bot that takes over a seat"),
        choices=TakeoverLevel.choices,
        initial=TakeoverLevel.HEURISTIC,
        required=False,
        help_text=_(
            "Plays for a player who runs out of time too often, resigns or is replaced "
            "by a moderator."
        ),
    )
    vacation_allowed = forms.BooleanField(
        label=_("A player's vacation stops the clock"),
        initial=True,
        required=False,
        help_text=_("Leave it off for a match that must go on whatever happens."),
    )
    weekend_pause = forms.BooleanField(
        label=_("Players' weekend days pause their clocks"),
        initial=False,
        required=False,
        help_text=_("Each player chooses their weekend days on their profile."),
    )

    rated = forms.BooleanField(
        label=_("Rated"),
        initial=True,
        required=False,
        help_text=_(
            "The result changes the players' ratings. Only a public match can be rated, "
            "and a match with a bot in a seat never is."
        ),
    )
    min_rating = forms.IntegerField(
        label=_("Lowest rating to join"), required=False, min_value=0, max_value=4000
    )
    max_rating = forms.IntegerField(
        label=_("Highest rating to join"), required=False, min_value=0, max_value=4000
    )
    min_reliability = forms.IntegerField(
        label=_("Minimum reliability to join (%)"),
        required=False,
        min_value=0,
        max_value=100,
        help_text=_(
            "The share of finished matches a player must have completed in the last "
            "90 days (shown on each player's page). Players with no finished match yet "
            "may join."
        ),
    )

    # The player invited at once ("Challenge" on their page): a username, or none.
    invite = forms.CharField(required=False, max_length=150, widget=forms.HiddenInput)

    def clean_invite(self):
        return self.cleaned_data.get("invite", "").strip()

    def clean(self):
        cleaned = super().clean()
        low, high = cleaned.get("min_rating"), cleaned.get("max_rating")
        if low is not None and high is not None and low > high:
            self.add_error("max_rating", _("The lowest rating must not be above the highest."))
        refusal = unrated_refusal(cleaned.get("visibility", ""))
        if cleaned.get("rated") and refusal:
            self.add_error("rated", refusal)
        return cleaned

    def clean_takeover_level(self):
        return self.cleaned_data.get("takeover_level") or TakeoverLevel.HEURISTIC

    def clean_timeout_policy(self):
        return self.cleaned_data.get("timeout_policy") or TimeoutPolicy.BOT_STRIKES

    def __init__(self, *args, game_key: str | None = None, invite: str = "", **kwargs):
        """Only the chosen game's player counts and options: the game comes
        from the posted data, else from ``game_key`` (the first step's choice).
        ``invite``: the player challenged (the address's ``?invite=``), whose
        match is private and unrated unless the challenger opens it."""
        super().__init__(*args, **kwargs)
        if invite:
            # Private, so nobody else takes the seat; and so unrated (only a
            # public match is rated), unless the challenger opens it to all.
            self.fields["invite"].initial = invite
            self.fields["visibility"].initial = Visibility.PRIVATE
            self.fields["rated"].initial = False
        games = registry.all()
        self.fields["game"].choices = [(g.key, g.title) for g in games]
        key = self.data.get("game") if self.is_bound else game_key
        self.game = next((g for g in games if g.key == key), None)
        chosen = [self.game] if self.game is not None else games
        low = min(g.min_players for g in chosen)
        high = max(g.max_players for g in chosen)
        self.fields["n_seats"].choices = [(n, str(n)) for n in range(low, high + 1)]
        if self.game is not None:
            self.fields["game"].widget = forms.HiddenInput()
            self.fields["game"].initial = self.game.key
            self.fields["n_seats"].initial = self.game.min_players
        self.option_fields: dict[str, list[str]] = {}
        for game in chosen if self.game is not None else []:
            names = []
            for option in game.options:
                name = f"opt_{game.key}_{option.key}"
                self.fields[name] = forms.ChoiceField(
                    label=i18n.option_label(option),
                    choices=[(str(v), i18n.choice_label(option, v)) for v, _l in option.choices],
                    initial=str(option.default),
                    help_text=i18n.option_help(option),
                    required=False,
                )
                names.append(name)
            self.option_fields[game.key] = names

    def chosen_options(self) -> dict:
        """The options of the chosen game, mapped back from text to their values."""
        game = registry.get(self.cleaned_data["game"])
        chosen = {}
        for option in game.options:
            raw = self.cleaned_data.get(f"opt_{game.key}_{option.key}")
            if raw in (None, ""):
                continue
            by_text = {str(v): v for v, _label in option.choices}
            chosen[option.key] = by_text[raw]
        return chosen

    def service_kwargs(self) -> dict:
        """The valid form as ``lobby.services.create_match``'s arguments (but
        the user): the page and the API create matches from the same form."""
        data = self.cleaned_data
        return {
            "game_key": data["game"],
            "n_seats": data["n_seats"],
            "options": self.chosen_options(),
            "visibility": data["visibility"],
            "time_per_move": timedelta(seconds=data["time_per_move"]),
            "time_bank": timedelta(seconds=data["time_bank"]),
            "time_bank_increment": timedelta(seconds=data["time_bank_increment"]),
            "timeout_policy": data["timeout_policy"],
            "takeover_level": data["takeover_level"],
            "vacation_allowed": data["vacation_allowed"],
            "weekend_pause": data["weekend_pause"],
            "rated": data["rated"],
            "min_rating": data["min_rating"],
            "max_rating": data["max_rating"],
            "min_reliability": data["min_reliability"],
        }


@dataclass(frozen=True)
class BotLevelChoice:
    """One level as the form offers it: its name, what it is, whether chosen."""

    value: str
    label: str
    about: str
    checked: bool


class PlayBotForm(forms.Form):
    """One click from the lobby or a How to play page: a match against a bot.

    The levels are drawn as radio buttons, each with what it is, the chosen
    one (the heuristic bot unless the player picked another) checked."""

    level = forms.ChoiceField(choices=PLAY_BOT_LEVELS, initial="heuristic")

    def levels(self) -> list[BotLevelChoice]:
        chosen = self["level"].value()
        if chosen not in BOT_LEVEL_ABOUT:  # a refused post shows the default again
            chosen = self.fields["level"].initial
        return [
            BotLevelChoice(value, str(label), str(BOT_LEVEL_ABOUT[value]), value == chosen)
            for value, label in PLAY_BOT_LEVELS
        ]


class FillBotsForm(forms.Form):
    """The match page's "fill with bots": the level of the bots that take the empty seats.

    A post without a level (an old page, a script) fills with the heuristic
    bot, as before the picker existed; a level that is not offered is refused.
    """

    level = forms.ChoiceField(choices=PLAY_BOT_LEVELS, initial="heuristic", required=False)

    def clean_level(self) -> str:
        return self.cleaned_data.get("level") or "heuristic"
