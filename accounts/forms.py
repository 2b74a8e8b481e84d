import re
import unicodedata

from django import forms
from django.db.models import Q
from django.forms.utils import flatatt
from django.utils.dates import WEEKDAYS
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from accounts import pictures
from accounts.models import (
    BIO_MAX_LENGTH,
    EMAIL_PREFERENCES,
    EVENTS,
    MAX_WEEKEND_DAYS,
    REMINDER_SHARES,
    TIMEZONE_CHOICES,
    Profile,
)
from accounts.names import has_invisible, name_keys, plain_key
from core.errors import ServiceError
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


#: (ISO weekday number, its name), Monday first; Django's own translated names.
WEEKDAY_CHOICES = [(str(number + 1), name) for number, name in WEEKDAYS.items()]


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(label=_("Time zone"), choices=grouped_zones, widget=LongSelect)
    weekend_days = forms.MultipleChoiceField(
        label=_("My weekend days"),
        choices=WEEKDAY_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "At most two. In matches that allow the weekend pause, your clock does not "
            "run on these days of your time zone."
        ),
    )

    class Meta:
        model = Profile
        fields = [
            "display_name",
            "language",
            "timezone",
            "invitations_from",
            "page_public",
            "show_presence",
            "auto_vacation",
            "weekend_days",
            "confirm_moves",
            "theme",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["timezone"].choices = grouped_zones(self.instance.timezone)
        self.fields["auto_vacation"].help_text = _(
            "A day at a time (or what your pool holds, at least an hour), instead of "
            "losing the turn; you are told each time, and can end it at once."
        )
        if not self.is_bound:
            self.initial["weekend_days"] = [
                str(day) for day in sorted(self.instance.weekend_day_numbers())
            ]
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

    def clean_weekend_days(self):
        """Stored as ISO numbers, "6,7"; at most two days (a clock must run
        most of the week)."""
        days = sorted({int(day) for day in self.cleaned_data["weekend_days"]})
        if len(days) > MAX_WEEKEND_DAYS:
            raise forms.ValidationError(
                _("Choose at most %(n)d weekend days.") % {"n": MAX_WEEKEND_DAYS}
            )
        return ",".join(str(day) for day in days)


#: (value, label) of a quiet hour: the hours of a day, o'clock.
HOUR_CHOICES = [("", "—")] + [(str(hour), f"{hour:02d}:00") for hour in range(24)]


class NotificationsForm(forms.ModelForm):
    """The notifications page: for each kind of event how it is emailed
    (the bell always lists it), the reminders before a deadline, and the
    quiet hours in the player's own zone."""

    reminder_shares = forms.MultipleChoiceField(
        label=_("Remind me when this share of my time is used"),
        choices=[(str(share), f"{share} %") for share in REMINDER_SHARES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Many correspondence sites sound their alarm at 80 percent."),
    )
    push_events = forms.MultipleChoiceField(
        label=_("Push"),
        choices=[(event, event) for event in EVENTS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    webhook_events = forms.MultipleChoiceField(
        label=_("Webhooks"),
        choices=[(event, event) for event in EVENTS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    quiet_from = forms.TypedChoiceField(
        label=_("Quiet from"), choices=HOUR_CHOICES, coerce=int, empty_value=None, required=False
    )
    quiet_until = forms.TypedChoiceField(
        label=_("Quiet until"), choices=HOUR_CHOICES, coerce=int, empty_value=None, required=False
    )

    class Meta:
        model = Profile
        fields = [
            *EMAIL_PREFERENCES,
            "push_events",
            "webhook_events",
            "tell_follows",
            "reminder_shares",
            "reminder_hours",
            "quiet_from",
            "quiet_until",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reminder_hours"].label = _("Remind me this many hours before my time runs out")
        self.fields["reminder_hours"].help_text = _(
            "Comma-separated, e.g. 24,2. Leave empty for no reminders by hours."
        )
        self.fields["quiet_from"].help_text = _(
            "In your time zone. Nothing is emailed, pushed or posted to a chat app in these "
            "hours; what falls due waits until they end, the daily digest too."
        )
        # Left out of a post (an older form, a script): keep what is stored.
        for name in ("email_follows", "email_mentions", "email_tournaments"):
            self.fields[name].required = False
        if not self.is_bound:
            self.initial["reminder_shares"] = [
                str(share) for share in self.instance.reminder_share_list()
            ]
            for channel in ("push", "webhook"):
                self.initial[f"{channel}_events"] = self.instance.channel_events(channel)

    def email_rows(self) -> list:
        """The bound email choice of each kind of event, in the page's order."""
        return [self[name] for name in EMAIL_PREFERENCES]

    def grid_rows(self) -> list[dict]:
        """The preferences grid, one row per event: its name, the bound email
        choice, and whether it is pushed and posted to webhooks (as bound,
        so a refused form shows what was sent)."""
        pushed = set(self["push_events"].value() or [])
        posted = set(self["webhook_events"].value() or [])
        return [
            {
                "event": event,
                "email": self[f"email_{event}"],
                "push": event in pushed,
                "webhook": event in posted,
            }
            for event in EVENTS
        ]

    def clean_email_follows(self):
        return self.cleaned_data.get("email_follows") or self.instance.email_follows

    def clean_email_mentions(self):
        return self.cleaned_data.get("email_mentions") or self.instance.email_mentions

    def clean_email_tournaments(self):
        return self.cleaned_data.get("email_tournaments") or self.instance.email_tournaments

    def clean_push_events(self):
        return [event for event in EVENTS if event in self.cleaned_data["push_events"]]

    def clean_webhook_events(self):
        return [event for event in EVENTS if event in self.cleaned_data["webhook_events"]]

    def clean_reminder_shares(self):
        return ",".join(sorted(self.cleaned_data["reminder_shares"], key=int))

    def clean(self):
        """Quiet hours need both ends, and two different hours."""
        data = super().clean()
        start, end = data.get("quiet_from"), data.get("quiet_until")
        if (start is None) != (end is None) or (start is not None and start == end):
            raise forms.ValidationError(
                _("Give both ends of your quiet hours, two different hours, or neither.")
            )
        return data

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


class IdentityForm(forms.ModelForm):
    """How a player shows themselves on their page: a picture (re-encoded,
    ``accounts.pictures``), a country and a few words. All optional."""

    picture_file = forms.FileField(
        label=_("Picture"),
        required=False,
        help_text=_("JPEG, PNG, WebP or GIF, at most 5 MB; it is cut to a square of 256 pixels."),
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp,image/gif"}),
    )
    remove_picture = forms.BooleanField(label=_("Remove my picture"), required=False)
    field_order = ["picture_file", "remove_picture", "country", "bio"]

    class Meta:
        model = Profile
        fields = ["country", "bio"]
        widgets = {
            # Some 250 countries: drawn in Python, as the time zones are.
            "country": LongSelect,
            "bio": forms.Textarea(attrs={"rows": 3, "maxlength": BIO_MAX_LENGTH}),
        }
        help_texts = {"bio": _("A few words for your player page, at most 300 characters.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only a picture one has can be removed.
        if not self.instance.picture:
            del self.fields["remove_picture"]

    def clean_picture_file(self):
        """The square kept of the upload, or why it is refused."""
        upload = self.cleaned_data.get("picture_file")
        if not upload:
            return None
        try:
            return pictures.normalised(upload)
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None

    def clean_bio(self):
        """Plain text: line breaks kept (at most one empty line in a row),
        other control and invisible characters dropped."""
        bio = self.cleaned_data.get("bio") or ""
        bio = bio.replace("\r\n", "\n").replace("\r", "\n")
        kept = "".join(
            c
            for c in bio
            if c == "\n"
            or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
        )
        lines = [line.strip() for line in kept.split("\n")]
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
        if len(text) > BIO_MAX_LENGTH:
            raise forms.ValidationError(
                _("At most %(n)d characters, please.") % {"n": BIO_MAX_LENGTH}
            )
        return text
