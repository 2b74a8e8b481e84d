from django.urls import path

from ladders import views

urlpatterns = [
    path("ladders/", views.ladder_list, name="ladder_list"),
    path("ladders/<slug:key>/", views.ladder_detail, name="ladder_detail"),
    path("ladders/<slug:key>/join/", views.ladder_join, name="ladder_join"),
    path("ladders/<slug:key>/leave/", views.ladder_leave, name="ladder_leave"),
    path("ladders/<slug:key>/challenge/", views.ladder_challenge, name="ladder_challenge"),
    path("ladders/challenges/<int:pk>/accept/", views.challenge_accept, name="ladder_accept"),
    path("ladders/challenges/<int:pk>/decline/", views.challenge_decline, name="ladder_decline"),
]
