from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.profile_edit, name="profile"),
]
