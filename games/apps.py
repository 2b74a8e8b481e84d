from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from games import checks  # noqa: F401 - registers the deployment checks
        from games.moderation.roles import ensure_moderator_group
        from games.panel.i18n import translate_titles

        translate_titles()

        # After the permissions themselves are created (they are post_migrate too).
        post_migrate.connect(ensure_moderator_group, sender=self)
