from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/<str:action>/",
        views.tournament_action,
        name="tournament_action",
    ),
]
