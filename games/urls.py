from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("watch/", views.watch, name="watch"),
    path("about/", views.about, name="about"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/<slug:key>/how-to-play/", views.how_to_play, name="how_to_play"),
    path("matches/new/", views.match_create, name="match_create"),
    path("m/<int:pk>/", views.match_detail, name="match_detail"),
    path("m/<int:pk>/panel/", views.match_panel, name="match_panel"),
    path("m/<int:pk>/act/", views.match_act, name="match_act"),
    path("m/<int:pk>/join/", views.match_join, name="match_join"),
    path("m/<int:pk>/leave/", views.match_leave, name="match_leave"),
    path("m/<int:pk>/invite/", views.match_invite, name="match_invite"),
    path("m/<int:pk>/bots/", views.match_fill_bots, name="match_fill_bots"),
    path("m/<int:pk>/resign/", views.match_resign, name="match_resign"),
    path("m/<int:pk>/undo/", views.match_undo, name="match_undo"),
    path("m/<int:pk>/notes/", views.match_notes, name="match_notes"),
    path("m/<int:pk>/decline/", views.match_decline, name="match_decline"),
    path("m/<int:pk>/rematch/", views.match_rematch, name="match_rematch"),
    path("m/<int:pk>/log/", views.match_log, name="match_log"),
    path("m/<int:pk>/chat/", views.match_chat, name="match_chat"),
    path("m/<int:pk>/report/", views.match_report, name="match_report"),
    path("m/<int:pk>/verify/", views.match_verify, name="match_verify"),
    path("m/<int:pk>/log.json", views.match_log_json, name="match_log_json"),
    path("invite/<str:token>/", views.invitation_link, name="invitation_link"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/", views.notification_list, name="notifications"),
]
