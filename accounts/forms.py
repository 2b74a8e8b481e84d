from django import forms

from accounts.models import Profile


class ProfileForm(forms.ModelForm):
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
