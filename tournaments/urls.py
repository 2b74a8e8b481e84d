from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    # Before the actions' pattern, which would take "chat" for an action.
    path("tournaments/<int:tournament_id>/chat/", views.tournament_chat, name="tournament_chat"),
    path(
        "tournaments/<int:tournament_id>/webhooks/",
        views.tournament_webhooks,
        name="tournament_webhooks",
    ),
    path(
        "tournaments/<int:tournament_id>/<str:action>/",
        views.tournament_action,
        name="tournament_action",
    ),
]
