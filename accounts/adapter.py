"""Smoki's hooks into allauth's sign-up."""

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from accounts.forms import name_refusal


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A new username may not pass for a bot or for another player's
        username or display name (see accounts.forms.name_refusal)."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            refusal = name_refusal(username)
            if refusal:
                raise forms.ValidationError(refusal)
        return username
