"""Smoki's hooks into allauth: sign-up and login limits, and the language of
what it says at login.

Failed logins are limited three ways (settings: ACCOUNT_RATE_LIMITS,
LOGIN_FAILED_PER_ACCOUNT; docs/operations.md): per account and address (5
in 5 minutes), per address (20 a minute), and per account from every
address together (10 in 15 minutes and 40 a day), which stops one password
being guessed from many addresses. That last limit must not let anyone lock a
player out by failing on purpose: it spares the browsers the player has
logged in from before (a signed "device cookie", set at each login, names
the accounts logged in from that browser), and when it first refuses (at most
once a day), the account's owner gets an email saying what happened and
what to do.
"""

import ipaddress
import logging
import time

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email, filter_users_by_username
from allauth.core.internal import ratelimit
from django import forms
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.forms import name_refusal
from accounts.middleware import apply_profile_preferences
from accounts.models import (
    NEW_PLAYER_CHANNEL_EVENTS,
    NEW_PLAYER_REMINDER_HOURS,
    NEW_PLAYER_REMINDER_SHARES,
    Profile,
)

logger = logging.getLogger(__name__)

#: The cookie naming the accounts that logged in from a browser (signed).
DEVICE_COOKIE = "smoki_device"
DEVICE_SALT = "smoki.login-device"
DEVICE_MAX_AGE = 365 * 24 * 3600
DEVICE_ACCOUNTS = 5  # the accounts a browser remembers, the latest first
ACCOUNT_ACTION = "login_failed_account"


class AccountAdapter(DefaultAccountAdapter):
    def login(self, request, user) -> None:
        """Log in, then speak the player's language from here on in this request.

        The login request began anonymous, in the browser's language; allauth
        writes "Successfully signed in as ..." right after this call, and the
        page after the redirect is in the player's own language: without this
        a Polish or Czech player read allauth's message in English."""
        super().login(request, user)
        apply_profile_preferences(request)

    def save_user(self, request, user, form, commit=True):
        """A player who signs up starts with one reminder, at 80 % of the
        turn's time (lichess's alarm), instead of the older ladder of 24
        and 2 hours that players from before keep; and with push (and
        webhooks, once they add one) for their turn and that reminder only,
        every event still emailed: a new phone buzzes for what needs them."""
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            Profile.objects.filter(user=user).update(
                reminder_hours=NEW_PLAYER_REMINDER_HOURS,
                reminder_shares=NEW_PLAYER_REMINDER_SHARES,
                push_events=NEW_PLAYER_CHANNEL_EVENTS,
                webhook_events=NEW_PLAYER_CHANNEL_EVENTS,
            )
        return user

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """A new username may not pass for a bot or for another player's
        username or display name (see accounts.forms.name_refusal)."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            refusal = name_refusal(username)
            if refusal:
                raise forms.ValidationError(refusal)
        return username

    def post_login(self, request, user, **kwargs):
        """Log in, and remember in this browser that ``user`` logged in here
        (the device cookie), so a lockout of the account spares it."""
        response = super().post_login(request, user, **kwargs)
        accounts = [user.pk, *(pk for pk in known_accounts(request) if pk != user.pk)]
        response.set_cookie(
            DEVICE_COOKIE,
            signing.dumps(accounts[:DEVICE_ACCOUNTS], salt=DEVICE_SALT, compress=True),
            max_age=DEVICE_MAX_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response

    def pre_authenticate(self, request, **credentials) -> None:
        """allauth's limits (per account and address, per address), then the
        account's own from browsers it never logged in from. A try the
        account's limit refuses does not count against the address."""
        super().pre_authenticate(request, **credentials)
        self._account_usage = None
        user = _account(credentials)
        if user is None or user.pk in known_accounts(request):
            return
        self._account_usage = ratelimit.consume(
            request,
            app="allauth.account",
            action=ACCOUNT_ACTION,
            config={ACCOUNT_ACTION: settings.LOGIN_FAILED_PER_ACCOUNT},
            key=f"user:{user.pk}",
        )
        if not self._account_usage:
            self._rollback_login_failed_rl_usage()
            _tell_the_owner(request, user)
            raise self.validation_error("too_many_login_attempts")

    def _rollback_login_failed_rl_usage(self) -> None:
        """A login that succeeded counts against no limit (allauth's, the account's)."""
        super()._rollback_login_failed_rl_usage()
        usage = getattr(self, "_account_usage", None)
        if usage:
            usage.rollback()

    def authentication_failed(self, request, **credentials) -> None:
        """Note the address of a wrong password, for the owner's notice."""
        user = _account(credentials)
        if user is not None:
            key, now = _failures_key(user), time.time()
            failures = [f for f in cache.get(key, []) if f[0] > now - NOTICE_SECONDS][-499:]
            failures.append((now, _network(self.get_client_ip(request))))
            cache.set(key, failures, NOTICE_SECONDS)

    def _delete_login_attempts_cached_email(self, request, **credentials) -> None:
        """A password reset lifts the account's lockout too."""
        super()._delete_login_attempts_cached_email(request, **credentials)
        user = _account(credentials)
        if user is not None:
            ratelimit.clear(
                request,
                app="allauth.account",
                action=ACCOUNT_ACTION,
                config={ACCOUNT_ACTION: settings.LOGIN_FAILED_PER_ACCOUNT},
                key=f"user:{user.pk}",
            )

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


def known_accounts(request) -> list[int]:
    """The accounts that logged in from this browser (its device cookie)."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return []
    if not isinstance(value, list):
        return []
    return [pk for pk in value if isinstance(pk, int)][:DEVICE_ACCOUNTS]


def _account(credentials: dict):
    """The account a login names, by username or email address, or None."""
    if credentials.get("email"):
        users = filter_users_by_email(credentials["email"], prefer_verified=True)
        return users[0] if users else None
    if credentials.get("username"):
        return filter_users_by_username(credentials["username"]).first()
    return None


def _rates() -> list:
    return ratelimit.parse_rates(settings.LOGIN_FAILED_PER_ACCOUNT)


#: How long a wrong password is remembered for the owner's notice, and how
#: long the notice waits before another: a day.
NOTICE_SECONDS = 24 * 3600


def _failures_key(user) -> str:
    return f"smoki:login-failures:{user.pk}"


def _tell_the_owner(request, user) -> None:
    """Email the account's owner, at most once a day, what happened and
    what to do. Sent at once, as allauth sends its own account emails; a
    mail server that fails is logged and does not fail the login page."""
    if not user.email or not cache.add(f"smoki:login-lock-notice:{user.pk}", True, NOTICE_SECONDS):
        return
    now = time.time()
    failures = [f for f in cache.get(_failures_key(user), []) if f[0] > now - NOTICE_SECONDS]
    short, *longer = sorted(_rates(), key=lambda rate: rate.duration)
    profile = getattr(user, "profile", None)
    reset = settings.SITE_URL.rstrip("/") + reverse("account_reset_password")
    values = {
        "username": user.username,
        "count": len(failures),
        "addresses": len({network for _when, network in failures}),
        "per_window": short.amount,
        "minutes": int(short.duration // 60),
        "per_day": longer[-1].amount if longer else short.amount,
        "reset": reset,
    }
    with translation.override(profile.language if profile else settings.LANGUAGE_CODE):
        subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + _("Failed logins to your account")
        paragraphs = [
            _(
                "Someone tried to log in to your Smoki account %(username)s with a wrong"
                " password, again and again, from more than one address:"
            ),
            _("failed logins in the last 24 hours: %(count)s")
            + "\n"
            + _("addresses they came from: %(addresses)s"),
            _(
                "For now, Smoki refuses logins to this account from browsers you have never"
                " logged in from: at most %(per_window)s wrong passwords count in"
                " %(minutes)s minutes, and %(per_day)s in a day. Where you have logged in"
                " before, you log in as usual."
            ),
            _(
                "If it was you, wait a while, or choose a new password, which lifts the"
                " pause at once: %(reset)s"
            ),
            _(
                "If it was not you, your password was not given away. If it is short or"
                " used on other sites too, choose a new one: %(reset)s"
            ),
        ]
        body = "\n\n".join(paragraph % values for paragraph in paragraphs)
    try:
        EmailMessage(subject, body, to=[user.email]).send()
    except Exception:  # noqa: BLE001 - the notice must not fail the login page
        logger.warning("could not send the lockout notice to user %s", user.pk, exc_info=True)
