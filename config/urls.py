from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/", include("api.urls")),
    # OAuth2 for third-party apps (docs/api.md): consent, tokens, revocation.
    path("oauth/", include("api.oauth_urls")),
    path("profile/tokens/", include("api.web_urls")),
    path("profile/", include("accounts.urls")),
    # Django's set_language, which also saves a signed-in player's choice in the profile.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("", include("players.urls")),
    path("", include("friends.urls")),
    path("", include("ladders.urls")),
    path("", include("tournaments.urls")),
    path("", include("seasons.urls")),
    path("", include("matchmaking.urls")),
    path("", include("games.web.urls")),
]

# Players' pictures in development; in production the proxy serves MEDIA_ROOT.
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
