from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.profile_edit, name="profile"),
    path("notifications/", views.notification_settings, name="notification_settings"),
    path("identity/", views.profile_identity, name="profile_identity"),
    path("bot/", views.become_bot, name="become_bot"),
]
