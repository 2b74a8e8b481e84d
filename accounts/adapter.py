"""Smoki's hooks into allauth: sign-up and login limits, and the language of
what it says at login."""

import ipaddress

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

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """Failed logins are counted per account *and* address (settings:
        ACCOUNT_RATE_LIMITS), so failures from one address lock that account
        out only there. The address is the client's as TRUSTED_PROXY_COUNT
        finds it; an IPv6 address counts by its /64 network, which one
        client usually holds whole."""
        return f"{super()._get_login_attempts_cache_key(request, **credentials)}:{_network(self.get_client_ip(request))}"


def _network(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False).network_address)
    return str(parsed)
