from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_delete, pre_save
        from oauth2_provider.models import AccessToken

        from api import events, tokens
        from api.models import ApiToken

        events.connect()
        # A token deleted (with its owner's account; an OAuth token revoked
        # by its app or on the tokens page): its open stream ends too.
        post_delete.connect(tokens.on_deleted, sender=ApiToken, dispatch_uid="api.tokens")
        post_delete.connect(tokens.on_deleted, sender=AccessToken, dispatch_uid="api.oauth")
        # An OAuth token's row given a new value (a refresh) or changed: the
        # kept copy of the old value ends at once.
        pre_save.connect(tokens.on_oauth_saving, sender=AccessToken, dispatch_uid="api.oauth")
