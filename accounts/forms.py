import re
import unicodedata

from django import forms
from django.db.models import Q
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.models import TIMEZONE_CHOICES, Profile
from accounts.names import has_invisible, name_keys, plain_key
from core.forms import whole_number

# How the site names a seat no one took ("Bot 2"), in every language it speaks.
BOT_NAME = re.compile(r"(bot|robot)\W*\d*")
# The same read through the confusable skeleton, where the digits 0 and 1
# read as the letters o and l ("B0t 10" is "bot lo").
BOT_LOOKALIKE = re.compile(r"(bot|robot)\W*[\dol]*")
# How the site labels a seat a bot plays: "Ann (bot)" for a player's seat,
# "Bot 2 (heuristic bot)" for a bot's ("(bot heurystyczny)", "(heuristický
# bot)"; games.models.Seat.display_name, players.refs.PlayerRef). A name
# may not hold a bracket that speaks of a bot.
BOT_LABEL = re.compile(r"\([^()]*\b(?:ro)?bot\b")


def name_refusal(name: str, me: int | None = None) -> str | None:
    """Why ``name`` may not be a player's username or display name, or None.

    A name may not hold invisible characters (default-ignorable code points,
    the Hangul fillers, the blank Braille pattern: "alice" with a filler is
    "alice" to a reader). It may not read as a bot's: "Bot 2", or a label
    the site puts after a seat a bot plays. And it may not read as another
    player's username or display name: their readings are compared
    (accounts.names.name_keys: case, compatibility forms, spaces, accents
    and look-alike characters of other scripts set aside). ``me`` is the
    user choosing it: their own names do not count.
    """
    if has_invisible(name):
        return _("A player's name may not hold invisible or blank characters.")
    plain, keys = plain_key(name), name_keys(name)
    if (
        any(BOT_LABEL.search(reading) for reading in (plain, *keys))
        or BOT_NAME.fullmatch(plain)
        or any(BOT_LOOKALIKE.fullmatch(key) for key in keys)
    ):
        return _("A player's name may not look like a bot's.")
    others = Profile.objects.exclude(user_id=me) if me else Profile.objects.all()
    if others.filter(
        Q(username_key__in=keys)
        | Q(display_key__in=keys)
        | Q(username_lower_key__in=keys)
        | Q(display_lower_key__in=keys)
    ).exists():
        return _("Another player is already called that.")
    return None


#: The regions of the zone database a person lives in, as the picker groups them.
REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific"),
}


def grouped_zones(current: str = "UTC") -> list:
    """Real places grouped by region ("Europe" > "Warsaw"), UTC first.

    The raw database also holds aliases and oddities ("Factory", "localtime",
    "Etc/GMT+5", "US/Eastern"); they stay valid for an old profile (shown
    under "Other" when one holds it) but are not offered.
    """
    groups: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    for name, _label in TIMEZONE_CHOICES:
        region, _sep, place = name.partition("/")
        if region in groups and place:
            groups[region].append((name, place.replace("_", " ").replace("/", " / ")))
    choices: list = [("UTC", "UTC")]
    choices += [(REGIONS[region], zones) for region, zones in groups.items() if zones]
    offered = {name for _region, zones in choices[1:] for name, _label in zones} | {"UTC"}
    if current and current not in offered:
        choices.append((_("Other"), [(current, current)]))
    return choices


class LongSelect(forms.Select):
    """A select drawn in Python rather than one template per option.

    The time-zone menu holds some 450 places; Django's option templates took
    about 30 ms to draw them on every profile page. The markup is the same
    as the stock widget's: optgroups, ``selected`` on the chosen option, the
    field's attributes (id, required, aria) on the ``<select>``.
    """

    def render(self, name, value, attrs=None, renderer=None):
        context = self.get_context(name, value, attrs)["widget"]
        parts = [format_html('<select name="{}"{}>', name, flatatt(context["attrs"]))]
        for group, options, _index in context["optgroups"]:
            if group:
                parts.append(format_html('<optgroup label="{}">', group))
            parts.extend(
                format_html(
                    '<option value="{}"{}>{}</option>',
                    option["value"],
                    mark_safe(" selected") if option["selected"] else "",
                    option["label"],
                )
                for option in options
            )
            if group:
                parts.append(mark_safe("</optgroup>"))
        parts.append(mark_safe("</select>"))
        return mark_safe("".join(parts))


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(label=_("Time zone"), choices=grouped_zones, widget=LongSelect)

    class Meta:
        model = Profile
        fields = [
            "display_name",
            "language",
            "timezone",
            "email_your_turn",
            "email_reminder",
            "email_match_events",
            "email_invitation",
            "invitations_from",
            "page_public",
            "show_presence",
            "reminder_hours",
            "confirm_moves",
            "theme",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["timezone"].choices = grouped_zones(self.instance.timezone)
        # Left out of a post (an older form, a script): keep what is stored.
        for name in ("invitations_from", "confirm_moves", "theme"):
            self.fields[name].required = False

    def clean_invitations_from(self):
        return self.cleaned_data.get("invitations_from") or self.instance.invitations_from

    def clean_confirm_moves(self):
        return self.cleaned_data.get("confirm_moves") or self.instance.confirm_moves

    def clean_theme(self):
        return self.cleaned_data.get("theme") or self.instance.theme

    def clean_display_name(self):
        """One line, trimmed, and not passing for a bot or for someone else.

        The name goes into email headers (a line break would break them)
        and beside every move: "(bot)" is how the site marks a seat a bot
        plays, and another player's name or username would mislead.
        """
        name = self.cleaned_data["display_name"]
        if any(
            unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp")
            for c in name
        ):
            raise forms.ValidationError(_("A name is one line of plain text."))
        name = " ".join(name.split())
        if not name:
            return ""
        refusal = name_refusal(name, self.instance.user_id)
        if refusal:
            raise forms.ValidationError(refusal)
        return name

    def clean_reminder_hours(self):
        """Keep only whole hours between 1 and 72, largest first."""
        from accounts.models import MAX_REMINDER_HOURS

        raw = self.cleaned_data["reminder_hours"]
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        if any(whole_number(p, 1, MAX_REMINDER_HOURS) is None for p in parts):
            raise forms.ValidationError(
                _("Give whole hours from 1 to %(max)d, separated by commas.")
                % {"max": MAX_REMINDER_HOURS}
            )
        return ",".join(str(h) for h in sorted({int(p) for p in parts}, reverse=True))


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days of vacation"), min_value=1, max_value=30, initial=7)
