from django import forms
from django.utils.translation import gettext_lazy as _

from api.tokens import SCOPES, scopes_for

LIFETIMES = [
    ("", _("Never")),
    ("30", _("In 30 days")),
    ("90", _("In 90 days")),
    ("365", _("In a year")),
]


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=list(SCOPES.items()),
        widget=forms.CheckboxSelectMultiple,
    )
    days = forms.ChoiceField(label=_("Expires"), choices=LIFETIMES, required=False)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        if user is not None:
            self.fields["scopes"].choices = scopes_for(user)
