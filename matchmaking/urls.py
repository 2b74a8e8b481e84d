from django.urls import path

from matchmaking import views

urlpatterns = [
    path("quick-match/", views.quick_match, name="quick_match"),
    path("quick-match/<int:pk>/withdraw/", views.withdraw, name="quick_match_withdraw"),
]
