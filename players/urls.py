from django.urls import path

from players import views

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="player_page"),
    path("players/<str:username>/block/", views.player_block, name="player_block"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:key>/", views.leaderboard, name="leaderboard"),
    # The bot accounts' board, kept apart from the people's (accounts.bots).
    path(
        "leaderboards/<slug:key>/bots/",
        views.leaderboard,
        {"bots": True},
        name="bot_leaderboard",
    ),
]
