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
        ]
