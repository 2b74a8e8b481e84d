"""Speak to a signed-in player in their language and show times in their
zone; keep their presence (``accounts.presence``)."""

import zoneinfo

from django.urls import Resolver404, resolve
from django.utils import timezone, translation

from accounts import presence
from accounts.selectors import preferences


def defer_profile_preferences(view):
    """Mark a view that applies the player's language and zone itself, only
    when it renders something: the poll's 204 needs neither, so it must not
    pay for reading the user and the profile."""
    view.defers_profile_preferences = True
    return view


def apply_profile_preferences(request) -> None:
    """Activate the signed-in player's language and time zone for this request
    (kept in the shared cache: no query once read, see ``preferences``)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        chosen = preferences(user)
        translation.activate(chosen["language"])
        request.LANGUAGE_CODE = chosen["language"]
        timezone.activate(zoneinfo.ZoneInfo(chosen["timezone"]))


def _deferred(request) -> bool:
    if request.path_info.startswith("/api/"):
        # The API speaks its token owner's language (``api.auth``), never a
        # session's, so it is spared resolving its address a second time.
        return True
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return getattr(view, "defers_profile_preferences", False)


class ProfilePreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not _deferred(request):
            apply_profile_preferences(request)
        try:
            return self.get_response(request)
        finally:
            # The zone is per request: never let it leak into the next one on this thread.
            timezone.deactivate()


class PresenceMiddleware:
    """Touch the signed-in player's presence after each request that read
    who they are (at most once a minute, in the cache alone: no database
    write). A request that never loaded the user (a public match's poll,
    answered without the session) is left alone, so presence costs it
    nothing; the player's other requests keep it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "_cached_user", None)
        if user is not None and user.is_authenticated:
            presence.touch(user.pk, shown=lambda: preferences(user).get("show_presence", True))
        return response
