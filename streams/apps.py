from django.apps import AppConfig


class StreamsConfig(AppConfig):
    name = "streams"
    default_auto_field = "django.db.models.BigAutoField"
