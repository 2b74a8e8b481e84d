"""Who is calling: the bearer token, its scopes, its limits and its language.

Every request is counted against its address before the token is looked up
(so guessing tokens is limited too), then against its token. The owner's
language is activated, so every message the services give is in it.
"""

from __future__ import annotations

from functools import wraps

from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables
from ninja.security import HttpBearer

from accounts import bots
from api import oauth, tokens
from api.errors import ApiError, body
from core import limits


def address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def _limit(limit, *subject) -> None:
    if not limits.hit(limit, *subject):
        raise ApiError(
            429,
            "rate_limited",
            _("Too many requests; please wait a little."),
            limit=limit.name,
            retry_after=limits.retry_after(limit),
        )


def address_limit(request) -> None:
    """Count one request against its address (every endpoint, with a token or not)."""
    _limit(limits.API_ADDRESS, address(request))


def address_limited(view):
    """The schema and its page, which need no token, counted per address like
    every other endpoint (``NinjaAPI(docs_decorator=…)``)."""

    @wraps(view)
    def limited(request, *args, **kwargs):
        try:
            address_limit(request)
        except ApiError as error:
            response = JsonResponse(body(error.code, error.message, **error.extra), status=429)
            response["Retry-After"] = str(error.extra["retry_after"])
            return response
        return view(request, *args, **kwargs)

    return limited


class TokenAuth(HttpBearer):
    """``Authorization: Bearer smk_…`` (a personal token: ``request.auth`` is
    the ApiToken) or ``Bearer smo_…`` (an OAuth access token: an
    ``oauth.OAuthCaller`` with the same ``user``, ``scopes`` and ``pk``)."""

    @sensitive_variables()
    def __call__(self, request):
        address_limit(request)
        return super().__call__(request)

    @sensitive_variables("token")
    def authenticate(self, request, token):
        token = token or ""
        found = (
            oauth.caller_for(token)
            if token.startswith(oauth.ACCESS_PREFIX)
            else tokens.token_for(token)
        )
        if found is None:
            raise ApiError(401, "bad_token", _("This token is unknown, revoked or expired."))
        translation.activate(found.user.profile.language)
        request.LANGUAGE_CODE = found.user.profile.language
        request.user = found.user
        _limit(limits.API_TOKEN, found.pk)
        return found


def need(request, *scopes: str) -> None:
    """Refuse (403) a token without one of ``scopes``: of the scopes the
    owner may use (``accounts.bots.usable_scopes``: a bot account acts only
    with ``bot:play``, a person never with it)."""
    user = request.auth.user
    held = bots.usable_scopes(user, request.auth.scopes)
    if not any(scope in held for scope in scopes):
        if bots.is_bot_account(user) and bots.acting(scopes) and "bot:play" not in held:
            scopes = ("bot:play", *scopes)
        raise ApiError(
            403,
            "missing_scope",
            _("This token lacks the scope it needs: %(scope)s.") % {"scope": ", ".join(scopes)},
            scope=scopes[0],
        )
