from django.urls import path

from friends import views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("players/<str:username>/follow/", views.player_follow, name="player_follow"),
]
