from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import TIMEZONE_CHOICES, Profile


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(label=_("time zone"), choices=TIMEZONE_CHOICES)

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
            "reminder_hours",
        ]

    def clean_reminder_hours(self):
        """Keep only whole hours between 1 and 72, largest first."""
        from accounts.models import MAX_REMINDER_HOURS

        raw = self.cleaned_data["reminder_hours"]
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        if any(not p.isdigit() or not 1 <= int(p) <= MAX_REMINDER_HOURS for p in parts):
            raise forms.ValidationError(
                _("Give whole hours from 1 to %(max)d, separated by commas.")
                % {"max": MAX_REMINDER_HOURS}
            )
        return ",".join(str(h) for h in sorted({int(p) for p in parts}, reverse=True))


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days of vacation"), min_value=1, max_value=30, initial=7)
