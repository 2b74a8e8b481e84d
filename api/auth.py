"""Who is calling: the bearer token, its scopes, its limits and its language.

Every request is counted against its address and, when it carries one,
against its token, before the token is looked up (so guessing tokens is
limited too), in one round trip that also reads the token's kept copy. The owner's
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


def _limit(*hits, reading=()) -> dict:
    """Count each ``(limit, *subject)`` of ``hits``, or refuse (429) naming
    the first limit passed; in the same round trip, what the tokens' cache
    holds under the keys ``reading`` (by key)."""
    passed, found = limits.past_limit_reading(hits, tokens.kept_cache(), reading)
    if passed is not None:
        raise ApiError(
            429,
            "rate_limited",
            _("Too many requests; please wait a little."),
            limit=passed.name,
            retry_after=limits.retry_after(passed),
        )
    return found


def address_limit(request) -> None:
    """Count one request against its address (every endpoint, with a token or not)."""
    _limit((limits.API_ADDRESS, address(request)))


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
        """As ninja's ``HttpBearer``, from ``request.META`` (not building
        ``request.headers`` for this one header); a request without a
        bearer token is counted against its address alone."""
        scheme, _space, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
        if scheme.lower() != self.openapi_scheme:
            address_limit(request)
            return None
        return self.authenticate(request, token)

    @sensitive_variables("token")
    def authenticate(self, request, token):
        """Count the request against its address and its token, before the
        token is looked up (so guessing is limited too; a token is counted
        by its digest, known before the lookup), and read the token's kept
        copy in the same round trip; then find it."""
        token = token or ""
        token_digest = tokens.digest(token)
        kept = _limit(
            (limits.API_ADDRESS, address(request)),
            (limits.API_TOKEN, token_digest),
            reading=tokens.kept_keys(token_digest),
        )
        found = (
            oauth.caller_for(token, kept)
            if token.startswith(oauth.ACCESS_PREFIX)
            else tokens.token_for(token, kept)
        )
        if found is None:
            raise ApiError(401, "bad_token", _("This token is unknown, revoked or expired."))
        translation.activate(found.user.profile.language)
        request.LANGUAGE_CODE = found.user.profile.language
        request.user = found.user
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
