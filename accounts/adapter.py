"""Smoki's hooks into allauth: sign-up, and the language of what it says at login."""

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from accounts.forms import name_refusal
from accounts.middleware import apply_profile_preferences


class AccountAdapter(DefaultAccountAdapter):
    def login(self, request, user) -> None:
        """Log in, then speak the player's language from here on in this request.

        The login request began anonymous, in the browser's language; allauth
        writes "Successfully signed in as ..." right after this call, and the
        page after the redirect is in the player's own language: without this
        a Polish or Czech player read allauth's message in English."""
        super().login(request, user)
        apply_profile_preferences(request)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A new username may not pass for a bot or for another player's
        username or display name (see accounts.forms.name_refusal)."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            refusal = name_refusal(username)
            if refusal:
                raise forms.ValidationError(refusal)
        return username
