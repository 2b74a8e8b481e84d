"""Speak to a signed-in player in their language and show times in their zone."""

import zoneinfo

from django.utils import timezone, translation


class ProfilePreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        profile = getattr(user, "profile", None) if user and user.is_authenticated else None
        if profile is not None:
            translation.activate(profile.language)
            request.LANGUAGE_CODE = profile.language
            timezone.activate(zoneinfo.ZoneInfo(profile.timezone))
        try:
            return self.get_response(request)
        finally:
            # The zone is per request: never let it leak into the next one on this thread.
            timezone.deactivate()
