"""OAuth2 for third-party apps (django-oauth-toolkit): the API's scopes as
OAuth scopes, the tokens' form, the lookup the API's authentication does for
an OAuth access token, and the apps a player has authorized (listed and
revoked on the profile's tokens page).

An app is registered by staff in the admin (``oauth2_provider``'s
Applications). A player authorizes it on the consent page
(``/oauth/authorize/``, PKCE required), and the app's access token then
works on ``/api/v1/`` exactly as a personal token with the granted scopes.
Only a token's SHA-256 checksum is kept (``COMPLIANT_BCP_RFC9700_TOKEN_STORAGE``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables
from oauth2_provider.models import AccessToken, Grant, RefreshToken
from oauth2_provider.scopes import BaseScopes

from api import tokens
from api.tokens import SCOPES
from core.errors import NotFound

ACCESS_PREFIX = "smo_"
REFRESH_PREFIX = "smr_"
#: The scope an app gets when it asks for none: reading, nothing more.
DEFAULT_SCOPES = ["match:read"]


class Scopes(BaseScopes):
    """The personal tokens' scopes (``api.tokens.SCOPES``), described in the
    player's language on the consent page."""

    def get_all_scopes(self):
        return dict(SCOPES)

    def get_available_scopes(self, application=None, request=None, *args, **kwargs):
        return list(SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs):
        return list(DEFAULT_SCOPES)


def access_token(request) -> str:
    """A new access token: 256 random bits behind a prefix that says what it
    is (so the API tells it from a personal ``smk_`` token without a query,
    and a leaked one is recognisable)."""
    return ACCESS_PREFIX + secrets.token_urlsafe(32)


def refresh_token(request) -> str:
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


@dataclass
class OAuthCaller:
    """What ``request.auth`` is for an OAuth access token: the same
    ``user``, ``scopes`` and ``pk`` (a key for the limits) as an ``ApiToken``."""

    access_token: AccessToken
    user: object = field(init=False)
    scopes: list[str] = field(init=False)
    pk: str = field(init=False)

    def __post_init__(self):
        self.user = self.access_token.user
        self.scopes = [s for s in self.access_token.scope.split() if s in SCOPES]
        self.pk = f"oauth-{self.access_token.pk}"


@sensitive_variables("raw")
def caller_for(raw: str, kept_values: dict | None = None) -> OAuthCaller | None:
    """The live OAuth access token ``raw`` stands for, or None (unknown,
    revoked, expired, without a player, or the player is inactive): kept in
    the cache as a personal token is (``tokens.kept_or_read``: a revocation,
    which deletes the token, or a change to its row or its owner's ends the
    copy at once), else one query. ``kept_values`` as for
    ``tokens.token_for``."""
    if not raw.startswith(ACCESS_PREFIX) or len(raw) > 100:
        return None
    checksum = hashlib.sha256(raw.encode()).hexdigest()
    found, _stamp = tokens.kept_or_read(
        checksum,
        lambda: (
            AccessToken.objects.select_related("user", "user__profile", "application")
            .filter(token_checksum=checksum)
            .first()
        ),
        kept_values,
    )
    if found is None or found.user is None or not found.user.is_active or found.is_expired():
        return None
    return OAuthCaller(found)


@dataclass
class AuthorizedApp:
    pk: int
    name: str
    scopes: list[str]
    granted_at: object


def authorized_apps(user) -> list[AuthorizedApp]:
    """The apps ``user`` has authorized that can still act for them (a live
    access token or a refresh token not revoked), the last granted first,
    with the scopes granted. Two queries."""
    now = timezone.now()
    live_refresh = set(
        RefreshToken.objects.filter(user=user, revoked=None).values_list(
            "application_id", flat=True
        )
    )
    tokens = (
        AccessToken.objects.filter(user=user, application__isnull=False)
        .values("application_id", "application__name", "scope", "expires", "created")
        .order_by("-created")[:200]
    )
    apps: dict[int, AuthorizedApp] = {}
    for row in tokens:
        app_id = row["application_id"]
        if row["expires"] <= now and app_id not in live_refresh:
            continue
        app = apps.setdefault(
            app_id, AuthorizedApp(app_id, row["application__name"], [], row["created"])
        )
        app.scopes = sorted(set(app.scopes) | {s for s in row["scope"].split() if s in SCOPES})
    return list(apps.values())


def revoke_app(user, app_id) -> None:
    """Take back everything ``user`` gave the app: its access and refresh
    tokens and any code not yet exchanged. The app must ask again, and the
    player consent again. Another player's grants are not admitted to exist."""
    with transaction.atomic():
        access = AccessToken.objects.filter(user=user, application_id=app_id)
        refresh = RefreshToken.objects.filter(user=user, application_id=app_id, revoked=None)
        if not access.exists() and not refresh.exists():
            raise NotFound(_("There is no such app among those you authorized."))
        refresh.update(revoked=timezone.now(), access_token=None)
        access.delete()
        Grant.objects.filter(user=user, application_id=app_id).delete()
