from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    # Django's set_language, which also saves a signed-in player's choice in the profile.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("", include("players.urls")),
    path("", include("ladders.urls")),
    path("", include("tournaments.urls")),
    path("", include("matchmaking.urls")),
    path("", include("games.web.urls")),
]
