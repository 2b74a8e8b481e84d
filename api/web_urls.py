from django.urls import path

from api import views

urlpatterns = [
    path("", views.tokens_page, name="api_tokens"),
    path("new/", views.token_create, name="api_token_create"),
    path("<int:pk>/revoke/", views.token_revoke, name="api_token_revoke"),
    path("apps/<int:pk>/revoke/", views.app_revoke, name="api_app_revoke"),
]
