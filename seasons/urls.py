from django.urls import path

from seasons import views

urlpatterns = [
    path("seasons/", views.season_list, name="season_list"),
    path("seasons/<int:season_id>/", views.season_detail, name="season_detail"),
    path("seasons/<int:season_id>/<str:action>/", views.season_action, name="season_action"),
]
